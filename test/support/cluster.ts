// Small builders for node-level tests (machines, partitions, jobs written as plain objects) and an
// independent checker of node-level schedules: it never simulates, it replays the start times on
// its own per-node bookkeeping and checks that no node ever holds more than it has.
import type { ClusterJobs, ClusterSpec, NodeSpec, OverSubscribe, PartitionSpec, SelectSpec } from '../../src/core/cluster/types'

export function node(name: string, cpus: number, extra: Partial<NodeSpec> = {}): NodeSpec {
  return { name, cpus, threadsPerCore: 1, memMB: 1, gpus: 0, weight: 1, ...extra }
}

export function partition(name: string, nodes: readonly number[], extra: Partial<PartitionSpec> = {}): PartitionSpec {
  return {
    name, nodes, maxTime: null, defaultTime: null, priorityTier: 1, priorityJobFactor: 1,
    overSubscribe: 'NO' as OverSubscribe, isDefault: false, defMemPerCpu: null, defMemPerNode: null, state: 'UP', ...extra,
  }
}

export function cluster(nodes: readonly NodeSpec[], partitions: readonly PartitionSpec[], select: Partial<SelectSpec> = {}, extra: Partial<ClusterSpec> = {}): ClusterSpec {
  const parts = partitions.length > 0 ? partitions : [partition('all', nodes.map((_, i) => i), { isDefault: true })]
  return {
    nodes, partitions: parts, select: { type: 'cons_tres', unit: 'cpu', memory: false, ...select },
    defMemPerCpu: null, defMemPerNode: null, source: { kind: 'inferred', note: 'test' }, notes: [], ...extra,
  }
}

/** M single-CPU nodes in one partition. */
export function singleCpuNodes(m: number): ClusterSpec {
  return cluster(Array.from({ length: m }, (_, i) => node(`n${i + 1}`, 1)), [])
}

/** One job as plain numbers; omitted columns: partition 0, flexible, no memory/GPU, not exclusive. */
export interface CJob {
  submit: number
  runtime: number
  requested: number
  procs: number
  partition?: number
  nodes?: number
  memPerNode?: number
  gpusPerNode?: number
  exclusive?: boolean
  user?: number
}

/** ClusterJobs from plain jobs, which must already be sorted by submit (the index is the rank). */
export function clusterJobs(list: readonly CJob[]): ClusterJobs {
  for (let k = 1; k < list.length; k++) if (list[k].submit < list[k - 1].submit) throw new Error('clusterJobs: jobs must be sorted by submit')
  return {
    count: list.length,
    submit: Float64Array.from(list, (j) => j.submit),
    runtime: Float64Array.from(list, (j) => j.runtime),
    requested: Float64Array.from(list, (j) => j.requested),
    procs: Int32Array.from(list, (j) => j.procs),
    partition: Int32Array.from(list, (j) => j.partition ?? 0),
    nodes: Int32Array.from(list, (j) => j.nodes ?? 0),
    memPerNode: Float64Array.from(list, (j) => j.memPerNode ?? 0),
    gpusPerNode: Int32Array.from(list, (j) => j.gpusPerNode ?? 0),
    exclusive: Uint8Array.from(list, (j) => (j.exclusive === true ? 1 : 0)),
    user: Int32Array.from(list, (j) => j.user ?? -1),
    account: new Int32Array(list.length).fill(-1),
    qos: new Int32Array(list.length).fill(-1),
    eligible: Float64Array.from(list, (j) => j.submit),
  }
}

/**
 * What a job took on each node, as the checker needs it: for every job, a list of
 * (node, cpus, memMB, gpus). The simulators do not expose this; tests obtain it by recording the
 * machine's allocations (see recordAllocations in the unit tests) or write it by hand.
 */
export interface Placement { node: number; cpus: number; mem: number; gpus: number }

/**
 * Independent check of a node-level schedule: at every instant, on every node, the CPUs, memory and
 * GPUs of the running jobs stay within the node's, every job's nodes belong to its partition, and a
 * whole-node job is alone on its nodes. Jobs run [start, start + runtime). Returns the violations
 * in words (empty = valid).
 */
export function checkNodeCapacity(spec: ClusterSpec, jobs: ClusterJobs, start: Float64Array, placements: readonly (readonly Placement[])[], wholeJob: (j: number) => boolean): string[] {
  const errors: string[] = []
  const events: { t: number; kind: number; j: number }[] = []
  for (let j = 0; j < jobs.count; j++) {
    if (Number.isNaN(start[j])) { errors.push(`job ${j} never started`); continue }
    if (start[j] < jobs.submit[j]) errors.push(`job ${j} starts at ${start[j]} before its submit ${jobs.submit[j]}`)
    const nodes = spec.partitions[jobs.partition[j]].nodes
    for (const pl of placements[j]) if (!nodes.includes(pl.node)) errors.push(`job ${j} uses node ${pl.node} outside its partition`)
    const cpus = placements[j].reduce((s, pl) => s + pl.cpus, 0)
    if (cpus < jobs.procs[j]) errors.push(`job ${j} got ${cpus} CPUs for ${jobs.procs[j]}`)
    if (jobs.nodes[j] > 0 && placements[j].length !== jobs.nodes[j]) errors.push(`job ${j} got ${placements[j].length} nodes for ${jobs.nodes[j]}`)
    if (jobs.runtime[j] > 0) {
      events.push({ t: start[j], kind: 1, j })
      events.push({ t: start[j] + jobs.runtime[j], kind: 0, j })
    }
  }
  // Ends before starts at equal times (a job ending at t frees its node for one starting at t).
  events.sort((a, b) => a.t - b.t || a.kind - b.kind || a.j - b.j)
  const nc = spec.nodes.length
  const cpu = new Array<number>(nc).fill(0), mem = new Array<number>(nc).fill(0), gpu = new Array<number>(nc).fill(0), count = new Array<number>(nc).fill(0)
  const wholeOn = new Array<number>(nc).fill(0)
  for (const e of events) {
    const sign = e.kind === 1 ? 1 : -1
    for (const pl of placements[e.j]) {
      const i = pl.node
      cpu[i] += sign * pl.cpus; mem[i] += sign * pl.mem; gpu[i] += sign * pl.gpus; count[i] += sign
      if (wholeJob(e.j)) wholeOn[i] += sign
      if (e.kind === 1) {
        const n = spec.nodes[i]
        if (cpu[i] > n.cpus) errors.push(`t=${e.t}: node ${n.name} holds ${cpu[i]} CPUs of ${n.cpus}`)
        if (spec.select.memory && mem[i] > n.memMB) errors.push(`t=${e.t}: node ${n.name} holds ${mem[i]} MB of ${n.memMB}`)
        if (gpu[i] > n.gpus) errors.push(`t=${e.t}: node ${n.name} holds ${gpu[i]} GPUs of ${n.gpus}`)
        if (wholeOn[i] > 0 && count[i] > 1) errors.push(`t=${e.t}: node ${n.name} shares a whole-node job`)
      }
    }
  }
  return errors
}
