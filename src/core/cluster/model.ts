// The machine a simulation runs on, decided once from the user's inputs (docs/CLUSTER.md):
//   --cluster F       the machine only (slurm.conf or scontrol output); the research's EASY;
//   --slurm-conf F    the machine and Slurm's scheduling as configured; Slurm's scheduling;
//   --current-conf F  the same, and "this is what runs today": the evaluation's baseline;
//   --scheduler       overrides which scheduling runs (default: slurm with a conf, easy otherwise);
//   none of them      the machine inferred from the log when it names nodes or partitions
//                     (sacct, jobcomp), else the single pool of the research's model (SWF keeps
//                     its header).
// Plain data in (file texts, so a worker can rebuild the same model), plain data out.
import type { JobTable } from '../workload/types'
import type { ImportReport } from '../workload/import'
import { buildClusterJobs } from './jobs'
import { ClusterSimulation, simulateCluster } from './simulate'
import { defaultScheduling, detectConfigKind, inferCluster, parseScontrol, parseSlurmConf } from './config'
import type { ClusterJobs, ClusterRun, ClusterScheduler, ClusterSimOptions, ClusterSpec, SchedulerKind, SlurmScheduling } from './types'
import { deployOrder, deployedSiteFactorOf, type DeployContext, type DeployedOrder } from './deploy-order'
import { applySlurmChange, type SlurmChange } from './slurm-family'
import type { Compat, SimConfig } from '../sim/types'
import { SimulationStopped, simulate } from '../sim/easy'
import { poolMachine, type MachineSummary } from '../tune/result'
import { fidelity, FIDELITY_LIMITS, type Calibration } from '../tune/fidelity'

export const SCHEDULER_KINDS: readonly SchedulerKind[] = ['easy', 'slurm']

export class MachineInputError extends Error {}

/** A configuration file as read (the CLI reads it; the text crosses to the workers), with the
 * files its Include lines name, by the path as written there (read by the CLI too). */
export interface ConfFile {
  readonly file: string
  readonly text: string
  readonly includes?: Readonly<Record<string, string>>
}

/** The Include callback of parseSlurmConf for a file read with its includes. */
function includesOf(f: ConfFile): (path: string) => { text: string; file: string } | null {
  return (path) => (f.includes && Object.hasOwn(f.includes, path) ? { text: f.includes[path], file: path } : null)
}

/** What the user gave; part of every cache key (docs/CLUSTER.md §Inputs). */
export interface MachineInputs {
  /** --cluster: a slurm.conf or `scontrol show node`/`show partition` output. */
  readonly cluster?: ConfFile
  /** --slurm-conf (current: false) or --current-conf (current: true). */
  readonly slurmConf?: ConfFile & { readonly current: boolean }
  /** --gres-conf, read with the slurm.conf of --cluster/--slurm-conf/--current-conf. */
  readonly gres?: ConfFile
  /** --scheduler. */
  readonly scheduler?: SchedulerKind
  /** --qos-priority name=value,…: QOS priorities (Slurm keeps them in its database, not slurm.conf). */
  readonly qosPriority?: Readonly<Record<string, number>>
  /** A log without nodes or partitions runs on its processors as one-CPU nodes instead of the
   * single pool (the as-deployed run under Slurm's scheduling needs nodes). */
  readonly poolAsNodes?: boolean
}

/** What the log gives the model: its columns and names. */
export interface MachineLog {
  readonly jobs: JobTable
  readonly format: string
  readonly partitions?: string[]
  readonly qosNames?: string[]
  readonly nodesSeen?: import('../workload/types').ParsedLog['nodesSeen']
  readonly machineProcs: number
  readonly unixStartTime: number | null
}

export interface MachineModel {
  readonly cluster: ClusterSpec
  readonly scheduler: SchedulerKind
  /** Slurm's scheduling: the conf's, or Slurm's defaults (22.05) when only the machine is known. */
  readonly scheduling: SlurmScheduling
  /** The slurm.conf given (--slurm-conf or --current-conf): candidates are exported onto it. */
  readonly conf: ConfFile | null
  /** --current-conf: the conf is what runs today; the baseline is it, as simulated ("current configuration"). */
  readonly current: boolean
  readonly names: { readonly partitions?: string[]; readonly qosNames?: string[] }
  readonly unixStartTime: number
  /** Plain-words lines: where the machine came from, what was approximated. */
  readonly notes: readonly string[]
}

/** The model, or null for the single pool of the research's model (no file, no node data). */
export function machineModel(inputs: MachineInputs, log: MachineLog): MachineModel | null {
  if (inputs.cluster && inputs.slurmConf) throw new MachineInputError('give the machine once: --cluster (the machine only) or --slurm-conf/--current-conf (the machine and its scheduling), not both')
  const notes: string[] = []
  let cluster: ClusterSpec
  let scheduling: SlurmScheduling
  let fromConf = false
  if (inputs.slurmConf) {
    const conf = parseSlurmConf(inputs.slurmConf.text, inputs.slurmConf.file, inputs.gres, includesOf(inputs.slurmConf))
    cluster = conf.cluster
    scheduling = conf.scheduling
    fromConf = true
  } else if (inputs.cluster) {
    const kind = detectConfigKind(inputs.cluster.text)
    if (kind === null) throw new MachineInputError(`--cluster: ${inputs.cluster.file} is neither a slurm.conf (NodeName/PartitionName lines) nor the output of scontrol show node (NodeName=… CPUTot=…)`)
    if (kind === 'slurm.conf') {
      const conf = parseSlurmConf(inputs.cluster.text, inputs.cluster.file, inputs.gres, includesOf(inputs.cluster))
      cluster = conf.cluster
    } else {
      if (inputs.gres) throw new MachineInputError('--gres-conf goes with a slurm.conf; scontrol show node already lists each node\'s Gres')
      cluster = parseScontrol(inputs.cluster.text, inputs.cluster.file)
    }
    scheduling = defaultScheduling()
  } else {
    if (inputs.gres) throw new MachineInputError('--gres-conf needs the slurm.conf it belongs to (--cluster, --slurm-conf or --current-conf)')
    const nodeData = log.nodesSeen !== undefined && log.nodesSeen.length > 0
    // SWF keeps its header: the research's single pool, even when field 16 numbers partitions.
    const swf = log.format === 'swf'
    if ((swf || (!nodeData && log.jobs.partition === undefined && log.jobs.nodes === undefined)) && !inputs.poolAsNodes) {
      if (inputs.scheduler === 'slurm') throw new MachineInputError('--scheduler slurm needs a machine: this log names no nodes or partitions; give --cluster or --slurm-conf')
      return null
    }
    // Node names, node counts, or (poolAsNodes) the log's processors as one-CPU nodes.
    const j = log.jobs
    cluster = inferCluster({
      count: j.count, procs: j.procs, ...(j.nodes ? { nodes: j.nodes } : {}), ...(j.gpus ? { gpus: j.gpus } : {}), ...(j.memMB ? { memMB: j.memMB } : {}),
      ...(j.partition ? { partition: j.partition } : {}), partitions: log.partitions ?? [], nodesSeen: log.nodesSeen ?? [], machineProcs: log.machineProcs,
    })
    scheduling = defaultScheduling()
  }
  // A partition DOWN or INACTIVE in the file starts nothing in Slurm; the log shows its jobs ran,
  // so the replay treats it as UP (said in the notes).
  const down = cluster.partitions.filter((p) => p.state === 'DOWN' || p.state === 'INACTIVE')
  if (down.length > 0) {
    cluster = { ...cluster, partitions: cluster.partitions.map((p) => (p.state === 'DOWN' || p.state === 'INACTIVE' ? { ...p, state: 'UP' as const } : p)) }
    notes.push(`Partition${down.length === 1 ? '' : 's'} ${down.map((p) => `${p.name} (${p.state})`).join(', ')} of the machine file ${down.length === 1 ? 'is' : 'are'} simulated as UP: the log shows their jobs ran.`)
  }
  const scheduler = inputs.scheduler ?? (fromConf ? 'slurm' : 'easy')
  if (inputs.qosPriority) scheduling = { ...scheduling, priority: { ...scheduling.priority, qosPriority: { ...scheduling.priority.qosPriority, ...inputs.qosPriority } } }
  if (scheduler === 'slurm' && !fromConf) notes.push('Slurm\'s scheduling with Slurm 22.05\'s defaults (no slurm.conf was given: give --slurm-conf for the site\'s own settings).')
  notes.push(...cluster.notes)
  return {
    cluster, scheduler, scheduling,
    conf: inputs.slurmConf ? { file: inputs.slurmConf.file, text: inputs.slurmConf.text } : null,
    current: inputs.slurmConf?.current === true,
    names: { ...(log.partitions ? { partitions: log.partitions } : {}), ...(log.qosNames ? { qosNames: log.qosNames } : {}) },
    unixStartTime: log.unixStartTime ?? 0,
    notes,
  }
}

/** One machine in words: "486 nodes (9,720 CPUs, 0 GPUs), 4 partitions, inferred: …". */
export function describeMachine(m: MachineModel): string {
  const c = m.cluster
  let cpus = 0, gpus = 0
  for (const n of c.nodes) { cpus += n.cpus; gpus += n.gpus }
  const src = c.source.kind === 'inferred' ? `inferred from the log: ${c.source.note.replace(/\.$/, '')}` : `from ${c.source.file}`
  return `${c.nodes.length.toLocaleString('en-US')} nodes (${cpus.toLocaleString('en-US')} CPUs${gpus ? `, ${gpus.toLocaleString('en-US')} GPUs` : ''}), ` +
    `${c.partitions.length} partition${c.partitions.length === 1 ? '' : 's'} (${c.partitions.map((p) => p.name).join(', ')}), ${src}`
}

/** The jobs on the model's machine (partitions resolved, resources per node). */
export function clusterJobs(m: MachineModel, table: JobTable): ClusterJobs {
  return buildClusterJobs(table, m.cluster, m.names).jobs
}

/** Runs one research order on the model's machine: EASY on the nodes, or, under Slurm's
 * scheduling, the order as `easytune export` would deploy it (deploy-order.ts). `deployed` memoises
 * the exported configuration per order (one parse per candidate, not per week). */
export function runOnMachine(m: MachineModel, jobs: ClusterJobs, config: SimConfig, ctx: Omit<DeployContext, 'conf' | 'base'>,
  options: { windowStart?: number; onCheck?: (started: number, now: number) => boolean; checkEvery?: number } = {},
  deployed: Map<string, DeployedOrder> = new Map(), change?: SlurmChange): ClusterRun {
  return simulateCluster(jobs, m.cluster, machineScheduler(m, jobs, config, ctx, deployed, change), simOptions(m, options))
}

/** The scheduling a research order (or a settings change) runs under on the model's machine. */
export function machineScheduler(m: MachineModel, jobs: ClusterJobs, config: SimConfig, ctx: Omit<DeployContext, 'conf' | 'base'>,
  deployed: Map<string, DeployedOrder> = new Map(), change?: SlurmChange): ClusterScheduler {
  if (m.scheduler === 'easy') return { kind: 'easy', config }
  const key = JSON.stringify([config.primary, config.threshold, change ?? null])
  let d = deployed.get(key)
  if (d === undefined) {
    d = change ? deployChange(change, m) : deployOrder(config, { ...ctx, conf: m.conf, base: m.scheduling })
    deployed.set(key, d)
  }
  const siteFactor = deployedSiteFactorOf(d, jobs, m.unixStartTime)
  return { kind: 'slurm', scheduling: d.scheduling, ...(siteFactor ? { siteFactor } : {}) }
}

/** The simulator's options on the model's machine (its clock's epoch, its QOS names) plus the caller's. */
export function simOptions(m: MachineModel, options: Omit<ClusterSimOptions, 'unixStartTime' | 'qosNames'> = {}): ClusterSimOptions {
  return { unixStartTime: m.unixStartTime, ...(m.names.qosNames ? { qosNames: m.names.qosNames } : {}), ...options }
}

/** What a campaign's cells need to run on the model's machine (CellMachine of tune/campaign.ts),
 * or undefined for the single pool. Built the same way in every worker and in the parent. */
export function campaignMachine(inputs: MachineInputs | undefined, w: MachineLog & { jobs: JobTable }): { model: MachineModel; deploy: Omit<DeployContext, 'conf' | 'base'>; deployed: Map<string, DeployedOrder> } | undefined {
  const model = machineModel(inputs ?? {}, w)
  if (model === null) return undefined
  let maxRequested = 0
  for (let i = 0; i < w.jobs.count; i++) if (w.jobs.requested[i] > maxRequested) maxRequested = w.jobs.requested[i]
  return { model, deploy: { machineProcs: w.machineProcs, maxRequested: maxRequested > 0 ? maxRequested : null, longestWait: null }, deployed: new Map() }
}

/** The result's account of the machine (schema v3 `machine`): a model, or the single pool. */
export function machineSummary(m: MachineModel | null, procs: number, poolSource: string): MachineSummary {
  if (m === null) return poolMachine(procs, poolSource)
  const c = m.cluster
  const per = (idx: readonly number[]) => {
    let cpus = 0, gpus = 0
    for (const i of idx) { cpus += c.nodes[i].cpus; gpus += c.nodes[i].gpus }
    return { cpus, gpus }
  }
  const all = per(c.nodes.map((_, i) => i))
  return {
    kind: 'cluster', scheduler: m.scheduler, description: describeMachine(m), source: c.source.kind,
    nodes: c.nodes.length, cpus: all.cpus, gpus: all.gpus,
    partitions: c.partitions.map((p) => ({ name: p.name, nodes: p.nodes.length, ...per(p.nodes) })),
    notes: [...m.notes], conf: m.conf ? { file: m.conf.file, text: m.conf.text, current: m.current } : null,
  }
}

/** What a log and its machine leave out of the comparison with the recorded history, in words. */
/** What fidelity needs of the import report. */
type FidelityReport = Pick<ImportReport, 'requestedMissing' | 'jobsKept' | 'resources'>

export function fidelityLimits(log: { jobs: JobTable; format: string; report?: FidelityReport }, m: MachineModel | null): string[] {
  const limits: string[] = []
  if (m === null) limits.push(FIDELITY_LIMITS.singlePool)
  else if (m.cluster.source.kind === 'inferred') limits.push(FIDELITY_LIMITS.inferredMachine)
  // The report's own account of what the log lacks (sacct-command.ts), not its warnings' wording.
  if (log.report?.resources?.lacks.some((l) => l.field === 'recorded start')) limits.push(FIDELITY_LIMITS.waitsFromReservedTime)
  if (log.report && log.report.jobsKept > 0 && log.report.requestedMissing >= log.report.jobsKept / 2) limits.push(FIDELITY_LIMITS.noTimeLimits)
  if ((log.format === 'sacct' || log.format === 'jobcomp') && log.jobs.schedFlag === undefined) limits.push(FIDELITY_LIMITS.noSchedFlags)
  return limits
}

/** The baseline's simulated schedule against the recorded one (docs/CLUSTER.md §Fidelity). */
export function machineFidelity(log: MachineLog & { report?: FidelityReport }, m: MachineModel | null, run: { start: Float64Array; backfilled?: Uint8Array }): Calibration | null {
  return fidelity(log.jobs, run.start, {
    ...(run.backfilled ? { backfilled: run.backfilled } : {}),
    ...(log.partitions ? { partitions: log.partitions } : {}),
    unixStartTime: log.unixStartTime,
    limits: fidelityLimits(log, m),
    simulated: m === null ? 'Simulated EASY-FCFS' : m.scheduler === 'slurm' ? (m.conf ? `Slurm as configured in ${m.conf.file}, simulated,` : 'Slurm\'s scheduling, simulated,') : 'Simulated EASY-FCFS on the nodes',
  })
}

/** The campaign's baseline (EASY-FCFS, or the site's configuration under --current-conf) on the
 * whole log against the recorded history, or null when nothing is recorded. Seconds on a large log
 * on nodes: the engine runs it in a worker ('baseline-fidelity' and 'machine-view' units), never on
 * the caller's thread. `starts`: the single pool's EASY-FCFS starts when already simulated (the
 * import's own run); `onCheck` as the simulators' (progress, and true to stop). */
export function baselineFidelity(w: MachineLog & { jobs: JobTable; machineProcs: number; report?: FidelityReport }, machine: ReturnType<typeof campaignMachine>, compat: Compat,
  o: { starts?: Float64Array; onCheck?: (started: number) => boolean } = {}): Calibration | null {
  const check = o.onCheck ? { onCheck: o.onCheck, checkEvery: 256 } : {}
  if (machine === undefined) return machineFidelity(w, null, { start: o.starts ?? simulate(w.jobs, w.machineProcs, BASELINE, { compat, ...check }) })
  const sim = baselineSimulation(w, machine, check)
  if (sim.runUntil(Infinity)) throw new SimulationStopped()
  return machineFidelity(w, machine.model, sim.result())
}

/** The baseline's order: EASY-FCFS (under Slurm's scheduling, deployed onto the site's configuration). */
const BASELINE: SimConfig = { primary: 'FCFS', backfill: 'same', threshold: null }

/** The campaign's baseline on its machine as a resumable simulation (run it in slices with
 * `runUntil`, as the import does): what baselineFidelity runs to the end. */
export function baselineSimulation(w: { jobs: JobTable }, machine: NonNullable<ReturnType<typeof campaignMachine>>,
  options: { onCheck?: (started: number, now: number) => boolean; checkEvery?: number } = {}): ClusterSimulation {
  const m = machine.model
  const jobs = clusterJobs(m, w.jobs)
  return new ClusterSimulation(jobs, m.cluster, machineScheduler(m, jobs, BASELINE, machine.deploy, machine.deployed), simOptions(m, options))
}

/** A change of the site's own settings, as the export merges it into the given slurm.conf and
 * the reader reads it back (docs/CLUSTER.md §Site settings as candidates). */
function deployChange(change: SlurmChange, m: MachineModel): DeployedOrder {
  if (m.conf === null) throw new MachineInputError('a change of Slurm\'s own settings needs the site\'s slurm.conf (--current-conf)')
  const text = applySlurmChange(m.conf.text, change).text
  const conf = parseSlurmConf(text, m.conf.file, undefined, includesOf(m.conf))
  // QOS priorities come from --qos-priority, not from the file: kept as given.
  const scheduling = { ...conf.scheduling, priority: { ...conf.scheduling.priority, qosPriority: m.scheduling.priority.qosPriority } }
  return { scheduling, plan: null, text }
}
