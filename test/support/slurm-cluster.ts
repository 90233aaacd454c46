// Hand-built machines, jobs and Slurm settings for the Slurm scheduler's goldens and unit tests
// (test/golden/slurm, test/unit/slurm-*.test.ts). Nothing here parses a slurm.conf: every value is
// written in the test, in the units of the Slurm spec's §8 scenarios (minutes), converted to seconds here.
import type { ClusterJobs, ClusterSpec, NodeSpec, OverSubscribe, PartitionSpec, PriorityConfig, SelectSpec, SlurmScheduling } from '../../src/core/cluster/types'
import { runSlurm, type SlurmSimOptions } from '../../src/core/cluster/slurm/scheduler'

export const MIN = 60

export interface NodeDef { name: string; cpus: number; memMB?: number; gpus?: number; threadsPerCore?: number; weight?: number }
export interface PartDef {
  name: string; nodes: string[]; tier?: number; factor?: number; maxTime?: number | null
  defaultTime?: number | null; overSubscribe?: OverSubscribe; defMemPerCpu?: number | null
}

/** A machine: nodes and partitions by name; select defaults to cons_tres CR_CPU (§8's common setup). */
export function machine(nodes: NodeDef[], parts: PartDef[], select: Partial<SelectSpec> = {}, extra: Partial<ClusterSpec> = {}): ClusterSpec {
  const idx = new Map(nodes.map((n, i) => [n.name, i]))
  const nodeSpecs: NodeSpec[] = nodes.map((n) => ({
    name: n.name, cpus: n.cpus, threadsPerCore: n.threadsPerCore ?? 1, memMB: n.memMB ?? 1, gpus: n.gpus ?? 0, weight: n.weight ?? 1,
  }))
  const partSpecs: PartitionSpec[] = parts.map((p, k) => ({
    name: p.name,
    nodes: p.nodes.map((x) => { const i = idx.get(x); if (i === undefined) throw new Error(`no node ${x}`); return i }).sort((a, b) => a - b),
    maxTime: p.maxTime === undefined ? null : p.maxTime, defaultTime: p.defaultTime ?? null,
    priorityTier: p.tier ?? 1, priorityJobFactor: p.factor ?? 1, overSubscribe: p.overSubscribe ?? 'NO',
    isDefault: k === 0, defMemPerCpu: p.defMemPerCpu ?? null, defMemPerNode: null, state: 'UP',
  }))
  return {
    nodes: nodeSpecs, partitions: partSpecs,
    select: { type: 'cons_tres', unit: 'cpu', memory: false, ...select },
    defMemPerCpu: null, defMemPerNode: null, source: { kind: 'inferred', note: 'test' }, notes: [], ...extra,
  }
}

/** `n` one-CPU nodes n1…n<n> (§8: "1 node" = 1 CPU). */
export function oneCpuNodes(n: number): NodeDef[] {
  return Array.from({ length: n }, (_, i) => ({ name: `n${i + 1}`, cpus: 1 }))
}

export interface JobDef {
  name: string
  /** Submit time in minutes (§8's clock). */
  at: number
  /** Time limit in minutes; the job runs exactly this long unless `runs` is given. 0: none given
   * (the partition's DefaultTime, else MaxTime, else a year; give `runs`). */
  limit: number
  /** When the job becomes eligible, in minutes (a future `--begin`); default `at`. */
  eligibleAt?: number
  runs?: number
  part: string
  /** Node count (0 = flexible). Default 1. */
  nodes?: number
  /** Total CPUs. Default = nodes (one CPU per node). */
  cpus?: number
  memPerNode?: number
  gpusPerNode?: number
  exclusive?: boolean
  user?: number
  account?: number
  qos?: number
}

/** Jobs in the order given (it must be submit order; ties keep the order: the index is the job id). */
export function jobsOf(cluster: ClusterSpec, defs: JobDef[]): ClusterJobs {
  const n = defs.length
  const pIdx = new Map(cluster.partitions.map((p, i) => [p.name, i]))
  for (let k = 1; k < n; k++) if (defs[k].at < defs[k - 1].at) throw new Error('jobs must be in submit order')
  const col = <T>(f: (d: JobDef) => T) => defs.map(f)
  return {
    count: n,
    submit: Float64Array.from(col((d) => d.at * MIN)),
    runtime: Float64Array.from(col((d) => (d.runs ?? d.limit) * MIN)),
    requested: Float64Array.from(col((d) => d.limit * MIN)),
    procs: Int32Array.from(col((d) => d.cpus ?? Math.max(1, d.nodes ?? 1))),
    partition: Int32Array.from(col((d) => { const p = pIdx.get(d.part); if (p === undefined) throw new Error(`no partition ${d.part}`); return p })),
    nodes: Int32Array.from(col((d) => d.nodes ?? 1)),
    memPerNode: Float64Array.from(col((d) => d.memPerNode ?? 0)),
    gpusPerNode: Int32Array.from(col((d) => d.gpusPerNode ?? 0)),
    exclusive: Uint8Array.from(col((d) => d.exclusive === true ? 1 : 0)),
    user: Int32Array.from(col((d) => d.user ?? 0)),
    account: Int32Array.from(col((d) => d.account ?? 0)),
    qos: Int32Array.from(col((d) => d.qos ?? -1)),
    eligible: Float64Array.from(col((d) => (d.eligibleAt ?? d.at) * MIN)),
  }
}

/** priority/basic (FIFO), as §8's common setup; override any field. */
export function priority(over: Partial<PriorityConfig> = {}): PriorityConfig {
  return {
    type: 'basic', weightAge: 0, weightFairshare: 0, weightJobSize: 0, weightPartition: 0, weightQos: 0, weightAssoc: 0,
    weightTres: {}, maxAge: 7 * 86400, decayHalfLife: 7 * 86400, calcPeriod: 5 * MIN, favorSmall: false, fairTree: true,
    flags: [], dampeningFactor: 1, qosPriority: {}, accounting: false, ...over,
  }
}

/** Slurm 22.05's defaults (the Slurm spec's §0, restated in docs/CLUSTER.md §Slurm scheduling), sched/backfill; override per scenario. */
export function scheduling(over: {
  type?: 'backfill' | 'builtin'
  sched?: Partial<SlurmScheduling['sched']>
  bf?: Partial<SlurmScheduling['bf']>
  priority?: Partial<PriorityConfig>
} = {}): SlurmScheduling {
  return {
    schedulerType: over.type ?? 'backfill',
    sched: { interval: 60, defaultQueueDepth: 100, partitionJobDepth: 0, maxJobStart: 0, ...over.sched },
    bf: {
      interval: 30, window: 1440 * MIN, resolution: 60, maxJobTest: 500, maxJobStart: 0, maxJobUser: 0, maxJobPart: 0,
      jobPartCountReserve: 0, minAgeReserve: 0, continue: false, ...over.bf,
    },
    priority: priority(over.priority),
    schedulerParameters: '',
  }
}

/** Runs and returns each job's start in minutes by name (null = never started), and the backfilled flags. */
export function startsOf(cluster: ClusterSpec, defs: JobDef[], sch: SlurmScheduling, options: SlurmSimOptions = { idealised: true },
  extra: { nice?: Int32Array } = {}): { start: Record<string, number | null>; backfilled: Record<string, boolean>; firstNode: Record<string, string | null> } {
  const jobs = jobsOf(cluster, defs)
  const run = runSlurm(jobs, cluster, sch, extra, options)
  const start: Record<string, number | null> = {}
  const backfilled: Record<string, boolean> = {}
  const firstNode: Record<string, string | null> = {}
  defs.forEach((d, j) => {
    start[d.name] = Number.isNaN(run.start[j]) ? null : run.start[j] / MIN
    backfilled[d.name] = run.backfilled[j] === 1
    firstNode[d.name] = run.firstNode[j] >= 0 ? cluster.nodes[run.firstNode[j]].name : null
  })
  return { start, backfilled, firstNode }
}
