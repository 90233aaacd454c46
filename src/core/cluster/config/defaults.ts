// Slurm's defaults, declared once (docs/CLUSTER.md §Configuration files): what a slurm.conf that
// does not set a value gets. They are Slurm 22.05's (22.05.8): Debian 12 ships slurm-wlm 22.05.8,
// the version the test suite's loopback slurmctld runs, so a configuration read here means what it
// means on the controller we check the simulator against. Where a later Slurm differs (23.11 made
// select/cons_tres and priority/multifactor the defaults), the reason says so: a site on a newer
// version whose slurm.conf leaves those unset should state them explicitly.
// Units: seconds, except where the name says minutes (slurm.conf's own unit for that value).
import type { Default } from '../../defaults'
import type { PriorityConfig, SelectSpec, SlurmScheduling } from '../types'

const d = <T>(value: T, why: string): Default<T> => ({ value, why })
const MIN = 60
const DAY = 86_400

/** The Slurm version whose defaults are applied. */
export const SLURM_DEFAULTS_VERSION = '22.05'

export const SLURM_DEFAULTS = {
  schedulerType: d<'backfill' | 'builtin'>('backfill', 'SchedulerType default sched/backfill (read_config.h, 22.05 and later)'),
  selectType: d<SelectSpec['type']>('linear', 'SelectType default select/linear in 22.05 (whole nodes); 23.11 changed it to select/cons_tres'),
  /** cons_res / cons_tres without SelectTypeParameters. */
  consTresParameters: d<Omit<SelectSpec, 'type'>>({ unit: 'core', memory: true }, 'SelectTypeParameters default CR_Core_Memory for cons_tres and cons_res (22.05 cons_common.c): memory is consumable'),
  /** select/linear without SelectTypeParameters (CR_Memory is the only one it reads). */
  linearParameters: d<Omit<SelectSpec, 'type'>>({ unit: 'cpu', memory: false }, 'select/linear allocates whole nodes; memory is consumable only with CR_Memory'),
  /** The machine when only `scontrol show node/partition` is given (it does not say SelectType). */
  scontrolSelect: d<SelectSpec>({ type: 'cons_tres', unit: 'core', memory: false }, 'scontrol show node/partition does not print SelectType: per-core allocation (cons_tres, CR_Core) is what most sites run; memory is not made consumable because the defaults that would make it bind (DefMemPerCPU) are not known'),
  /** The machine inferred from a log. */
  inferredSelect: d<SelectSpec>({ type: 'cons_tres', unit: 'core', memory: false }, 'a log does not say how nodes are shared: per-core allocation (cons_tres, CR_Core) as most sites run; memory not consumable, since the log rarely knows DefMemPerCPU and without it every job would take a whole node'),
  // Nodes (slurm.conf(5) NodeName).
  nodeRealMemoryMB: d(1, 'RealMemory default 1 MB (slurm.conf(5))'),
  nodeWeight: d(1, 'Weight default 1 (slurm.conf(5))'),
  // Partitions (slurm.conf(5) PartitionName).
  partitionPriorityTier: d(1, 'PriorityTier default 1'),
  partitionPriorityJobFactor: d(1, 'PriorityJobFactor default 1'),
  // The main scheduler (job_scheduler.c _schedule()).
  schedInterval: d(60, 'sched_interval default 60 s: a full main pass every minute'),
  defaultQueueDepth: d(100, 'default_queue_depth default 100 jobs per event-triggered main pass'),
  partitionJobDepth: d(0, 'partition_job_depth default 0 (no limit per partition)'),
  schedMaxJobStart: d(0, 'sched_max_job_start default 0 (no limit)'),
  // The backfill cycle (backfill.c _load_config()).
  bfInterval: d(30, 'bf_interval default 30 s between backfill cycles'),
  bfWindowMinutes: d(1440, 'bf_window default 1440 minutes (one day) looked ahead'),
  bfResolution: d(60, 'bf_resolution default 60 s'),
  bfMaxJobTest: d(500, 'bf_max_job_test default 500 jobs tested per cycle'),
  bfMaxJobStart: d(0, 'bf_max_job_start default 0 (no limit)'),
  bfMaxJobUser: d(0, 'bf_max_job_user default 0 (no limit)'),
  bfMaxJobPart: d(0, 'bf_max_job_part default 0 (no limit)'),
  bfJobPartCountReserve: d(0, 'bf_job_part_count_reserve default 0: every tested job may reserve (closer to conservative backfilling than to EASY)'),
  bfMinAgeReserve: d(0, 'bf_min_age_reserve default 0 s'),
  bfContinue: d(false, 'bf_continue off by default'),
  // Priority (read_config.h, read_config.c).
  priorityType: d<PriorityConfig['type']>('basic', 'PriorityType default priority/basic (FIFO) in 22.05; 23.11 made priority/multifactor the default'),
  priorityWeight: d(0, 'every PriorityWeight* defaults to 0'),
  priorityMaxAge: d(7 * DAY, 'PriorityMaxAge default 7-0 (7 days)'),
  priorityDecayHalfLife: d(7 * DAY, 'PriorityDecayHalfLife default 7-0 (7 days)'),
  priorityCalcPeriod: d(5 * MIN, 'PriorityCalcPeriod default 5 minutes'),
  priorityFavorSmall: d(false, 'PriorityFavorSmall default NO'),
  fairShareDampeningFactor: d(1, 'FairShareDampeningFactor default 1'),
  accounting: d(false, 'AccountingStorageType default accounting_storage/none: no slurmdbd, so Slurm forces the age and fair-share weights to 0'),
} as const

/** Slurm's scheduling with every value at its default (a slurm.conf that sets nothing). */
export function defaultScheduling(): SlurmScheduling {
  const D = SLURM_DEFAULTS
  const w = D.priorityWeight.value
  return {
    schedulerType: D.schedulerType.value,
    sched: { interval: D.schedInterval.value, defaultQueueDepth: D.defaultQueueDepth.value, partitionJobDepth: D.partitionJobDepth.value, maxJobStart: D.schedMaxJobStart.value },
    bf: {
      interval: D.bfInterval.value, window: D.bfWindowMinutes.value * MIN, resolution: D.bfResolution.value,
      maxJobTest: D.bfMaxJobTest.value, maxJobStart: D.bfMaxJobStart.value, maxJobUser: D.bfMaxJobUser.value,
      maxJobPart: D.bfMaxJobPart.value, jobPartCountReserve: D.bfJobPartCountReserve.value,
      minAgeReserve: D.bfMinAgeReserve.value, continue: D.bfContinue.value,
    },
    priority: {
      type: D.priorityType.value,
      weightAge: w, weightFairshare: w, weightJobSize: w, weightPartition: w, weightQos: w, weightAssoc: w,
      weightTres: {},
      maxAge: D.priorityMaxAge.value, decayHalfLife: D.priorityDecayHalfLife.value, calcPeriod: D.priorityCalcPeriod.value,
      favorSmall: D.priorityFavorSmall.value, fairTree: true, flags: [],
      dampeningFactor: D.fairShareDampeningFactor.value, qosPriority: {}, accounting: D.accounting.value,
    },
    schedulerParameters: '',
  }
}
