// Tuning what Slurm actually has (docs/CLUSTER.md §Site settings as candidates): with the site's current
// slurm.conf, candidates also include changes of its own settings — the backfill parameters,
// PriorityMaxAge and the priority weights — each one change from the current value, simulated
// with the site's priority otherwise unchanged, and exported as exactly that change merged into
// the file. Each setting is declared once here: where it lives, its unit, how to read its current
// value from the simulated scheduling, which variants to try, and its bounds.
import { mergeSlurmConf, parseSlurmConf as readConfLines, type Want } from '../export/slurm-conf'
import type { SettingChange } from '../export/types'
import { BF_WINDOW_MAX_MIN } from '../export/slurm-plan'
import type { ClusterJobs, ClusterSpec, SlurmScheduling } from './types'
import { partitionFactors, qosFactors } from './slurm/priority'

export const SLURM_KNOBS = ['bf_job_part_count_reserve', 'bf_window', 'bf_max_job_test', 'bf_interval', 'PriorityMaxAge',
  'PriorityWeightAge', 'PriorityWeightFairshare', 'PriorityWeightJobSize', 'PriorityWeightPartition', 'PriorityWeightQOS'] as const
export type SlurmKnob = (typeof SLURM_KNOBS)[number]
/** One candidate's change of the site's settings, in slurm.conf's own units. */
export type SlurmChange = Readonly<Partial<Record<SlurmKnob, number>>>

interface Knob {
  /** A SchedulerParameters entry, or a slurm.conf key of its own. */
  readonly where: 'SchedulerParameters' | 'key'
  readonly unit: string
  /** The current value in slurm.conf's unit, from the scheduling as read. */
  readonly current: (s: SlurmScheduling) => number
  /** The values to try, from the current one (bounded, whole numbers, different from it). */
  readonly variants: (v: number) => number[]
  readonly min: number
  readonly max: number
  /** Whether changing it can change anything under this scheduling, on this log's jobs. */
  readonly acts: (s: SlurmScheduling, log: FactorSpread) => boolean
  readonly why: string
}

/**
 * Which priority factors differ between the log's jobs. A factor that is the same whole number for
 * every job (0 without a QOS priority, 1 when every job has the top one) adds the same whole
 * multiple of its weight to every priority — before and after Slurm truncates it — so no value of
 * that weight can change an order, and trying it would only cost simulations. Fair-share and age
 * change over time and are never constant in this sense.
 */
export interface FactorSpread {
  readonly qos: boolean
  readonly partition: boolean
}
/** Nothing known about the log: every factor may differ. */
export const EVERY_FACTOR: FactorSpread = { qos: true, partition: true }

/** The factors (as the simulator's priority computes them: slurm/priority.ts) that differ between
 * the jobs, or are not whole numbers. `qosNames`: the names behind jobs.qos (MachineModel.names). */
export function factorSpread(s: SlurmScheduling, cluster: ClusterSpec, jobs: Pick<ClusterJobs, 'count' | 'qos' | 'partition'>, qosNames: readonly string[] = []): FactorSpread {
  const qosNorm = qosFactors(s.priority, qosNames), partNorm = partitionFactors(cluster, s.priority)
  const qosOf = (q: number) => (q >= 0 && q < qosNorm.length ? qosNorm[q] : 0)
  const partOf = (p: number) => (p >= 0 && p < partNorm.length ? partNorm[p] : 0)
  const spread = (value: (j: number) => number) => {
    if (jobs.count === 0) return false
    const v0 = value(0)
    if (!Number.isInteger(v0)) return true
    for (let j = 1; j < jobs.count; j++) if (value(j) !== v0) return true
    return false
  }
  return { qos: spread((j) => qosOf(jobs.qos[j])), partition: spread((j) => partOf(jobs.partition[j])) }
}

const multifactor = (s: SlurmScheduling) => s.priority.type === 'multifactor'
const backfill = (s: SlurmScheduling) => s.schedulerType === 'backfill' && s.bf.interval > 0
const halfDouble = (v: number) => [Math.round(v / 2), Math.round(v * 2)]
const weight = (read: (s: SlurmScheduling) => number, needsAccounting = false, spreads: (log: FactorSpread) => boolean = () => true): Knob => ({
  where: 'key', unit: '', current: read, variants: (v) => [v * 2], min: 1, max: 4_294_967_295,
  acts: (s, log) => multifactor(s) && read(s) > 0 && (!needsAccounting || s.priority.accounting) && spreads(log),
  why: 'a heavier weight of one priority factor, the others as they are',
})

export const KNOBS: Readonly<Record<SlurmKnob, Knob>> = {
  bf_job_part_count_reserve: {
    where: 'SchedulerParameters', unit: 'reservations per partition', current: (s) => s.bf.jobPartCountReserve,
    variants: (v) => [v === 0 ? 1 : 0], min: 0, max: 100_000, acts: backfill,
    why: '1 reserves for the first blocked job of each partition only (EASY); 0 for every tested job (closer to conservative backfilling)',
  },
  bf_window: {
    where: 'SchedulerParameters', unit: 'min', current: (s) => Math.round(s.bf.window / 60), variants: halfDouble, min: 1, max: BF_WINDOW_MAX_MIN, acts: backfill,
    why: 'how far ahead the backfill plans: a short window lets long jobs start ahead of wide ones (starvation), a long one costs cycle time',
  },
  bf_max_job_test: {
    where: 'SchedulerParameters', unit: 'jobs', current: (s) => s.bf.maxJobTest, variants: halfDouble, min: 1, max: 1_000_000, acts: backfill,
    why: 'how many queued jobs one backfill cycle tries',
  },
  bf_interval: {
    where: 'SchedulerParameters', unit: 's', current: (s) => s.bf.interval, variants: halfDouble, min: 1, max: 10_800, acts: backfill,
    why: 'seconds between backfill cycles',
  },
  PriorityMaxAge: {
    where: 'key', unit: 'min', current: (s) => Math.round(s.priority.maxAge / 60), variants: halfDouble, min: 1, max: 525_600,
    acts: (s) => multifactor(s) && s.priority.weightAge > 0 && s.priority.accounting,
    why: 'the wait at which the age factor saturates',
  },
  PriorityWeightAge: weight((s) => s.priority.weightAge, true),
  PriorityWeightFairshare: weight((s) => s.priority.weightFairshare, true),
  PriorityWeightJobSize: weight((s) => s.priority.weightJobSize),
  PriorityWeightPartition: weight((s) => s.priority.weightPartition, false, (log) => log.partition),
  PriorityWeightQOS: weight((s) => s.priority.weightQos, false, (log) => log.qos),
}

/** The family of one-setting changes worth simulating on this scheduling and log (each acts on it). */
export function slurmFamily(s: SlurmScheduling, log: FactorSpread = EVERY_FACTOR): SlurmChange[] {
  const out: SlurmChange[] = []
  for (const k of SLURM_KNOBS) {
    const d = KNOBS[k]
    if (!d.acts(s, log)) continue
    const cur = d.current(s)
    for (const v of d.variants(cur)) {
      const x = Math.min(d.max, Math.max(d.min, Math.round(v)))
      if (x !== cur && !out.some((c) => c[k] === x)) out.push({ [k]: x })
    }
  }
  return out
}

/** "bf_window=2880" (several settings joined by ", "). */
export function slurmChangeLabel(c: SlurmChange): string {
  return SLURM_KNOBS.filter((k) => c[k] !== undefined).map((k) => `${k}=${c[k]}`).join(', ')
}

/** The change as the export's merge wants it. */
export function slurmChangeWants(c: SlurmChange): Want[] {
  const wants: Want[] = []
  const entries = SLURM_KNOBS.filter((k) => c[k] !== undefined && KNOBS[k].where === 'SchedulerParameters').map((k) => ({ name: k, value: String(c[k]) }))
  if (entries.length) wants.push({ key: 'SchedulerParameters', kind: 'list', entries, why: 'the evaluated change of the backfill parameters' })
  for (const k of SLURM_KNOBS) {
    if (c[k] !== undefined && KNOBS[k].where === 'key') wants.push({ key: k, kind: 'value', value: String(c[k]), why: `the evaluated change: ${KNOBS[k].why}` })
  }
  return wants
}

/** The site's slurm.conf with the change merged in (every other line kept), and what changed. */
export function applySlurmChange(conf: string, c: SlurmChange, header: string[] = []): { text: string; changes: SettingChange[]; notes: string[] } {
  return mergeSlurmConf(readConfLines(conf), slurmChangeWants(c), header)
}

/** A change read from an untrusted document (a result file): known settings, whole numbers in range; null otherwise. */
export function readSlurmChange(x: unknown): SlurmChange | null {
  if (x === undefined || x === null) return null
  if (typeof x !== 'object' || Array.isArray(x)) throw new Error('a Slurm settings change must be an object')
  const out: Partial<Record<SlurmKnob, number>> = {}
  for (const [k, v] of Object.entries(x as Record<string, unknown>)) {
    const knob = (SLURM_KNOBS as readonly string[]).includes(k) ? (k as SlurmKnob) : null
    if (knob === null) throw new Error(`${k.slice(0, 40)} is not a Slurm setting EasyTune changes`)
    if (typeof v !== 'number' || !Number.isInteger(v) || v < KNOBS[knob].min || v > KNOBS[knob].max) throw new Error(`${knob} must be a whole number from ${KNOBS[knob].min} to ${KNOBS[knob].max}`)
    out[knob] = v
  }
  if (Object.keys(out).length === 0) throw new Error('a Slurm settings change names no setting')
  return out
}
