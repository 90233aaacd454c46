// The machine inferred from a log, when no cluster file is given (see docs/CLUSTER.md
// §Inferred machine). Three cases, by what the log records:
//   1. node names (Rackham's jobcomp, sacct NodeList): those nodes; CPUs and GPUs per node are the
//      most seen on any node of the same name group (the name without its trailing number: r1…r486
//      form one group), since nodes of one group are alike and a node seen only with small jobs is
//      not a small node; partitions on the nodes their jobs ran on;
//   2. node counts but no names (Cirrus, Kabré): CPUs per node = the most common CPUs/nodes of
//      multi-node jobs; as many nodes as the most the log shows busy at once, the largest
//      allocation or the largest job needs, whichever is most; every partition on every node;
//   3. neither: the single pool, as single-CPU nodes: as many as the machine size given (SWF
//      MaxProcs, or the pool the caller already uses), else the most CPUs busy at once or the
//      largest job.
// Memory is not made consumable (the log rarely knows DefMemPerCPU); `source.note` says what was
// inferred from what.
import type { NodeSeen } from '../../workload/types'
import type { ClusterSpec, NodeSpec, PartitionSpec } from '../types'
import { naturalOrder } from './common'
import { SLURM_DEFAULTS } from './defaults'
import { ClusterConfigError, MAX_NODES } from './errors'

/** What a log gives for inferring its machine (the job columns of a JobTable / RawJobs and the
 * ParsedLog's names); every column optional except CPUs. */
export interface InferInput {
  readonly count: number
  /** CPUs of each job. */
  readonly procs: ArrayLike<number>
  /** Nodes of each job, -1 unknown. */
  readonly nodes?: ArrayLike<number>
  /** GPUs of each (whole) job, -1 unknown. */
  readonly gpus?: ArrayLike<number>
  /** Memory of each (whole) job in MB, -1 unknown. */
  readonly memMB?: ArrayLike<number>
  /** Partition of each job (index into `partitions`), -1 unknown. */
  readonly partition?: ArrayLike<number>
  readonly partitions?: readonly string[]
  /** The nodes named in the log (ParsedLog.nodesSeen). */
  readonly nodesSeen?: readonly NodeSeen[]
  /** Recorded start of each job (seconds, the submit clock), NaN unknown; with `runtime`, gives the
   * most nodes (or CPUs) the log shows busy at once, a lower bound of the machine. */
  readonly start?: ArrayLike<number>
  /** Run time of each job in seconds. */
  readonly runtime?: ArrayLike<number>
  /** The machine size the log states (SWF MaxProcs header), or the single pool the caller already
   * uses, if any. */
  readonly machineProcs?: number | null
  /** For the note: what the log is called. */
  readonly logName?: string
}

const blankPartition = (name: string, nodes: number[], isDefault: boolean): PartitionSpec => ({
  name, nodes, maxTime: null, defaultTime: null,
  priorityTier: SLURM_DEFAULTS.partitionPriorityTier.value, priorityJobFactor: SLURM_DEFAULTS.partitionPriorityJobFactor.value,
  overSubscribe: 'NO', isDefault, defMemPerCpu: null, defMemPerNode: null, state: 'UP',
})

/** The most common value (the largest among equally common ones); null for none. */
function mode(values: readonly number[]): number | null {
  const count = new Map<number, number>()
  let best: number | null = null, bestN = 0
  for (const v of values) {
    const n = (count.get(v) ?? 0) + 1
    count.set(v, n)
    if (n > bestN || (n === bestN && best !== null && v > best)) { best = v; bestN = n }
  }
  return best
}

/** The name group of a node: its name without the trailing number (r12 → r, gpu-a03 → gpu-a). */
const groupOf = (name: string): string => name.replace(/\d+$/, '')

/** Per-node memory the log's jobs needed (MB): the largest job memory divided by its nodes; 0 when
 * the log has no memory column. Used as RealMemory so no job is refused for memory. */
function perNodeMemory(info: InferInput): number {
  if (info.memMB === undefined) return 0
  let max = 0
  for (let j = 0; j < info.count; j++) {
    const m = info.memMB[j]
    if (!(m > 0)) continue
    const n = info.nodes !== undefined && info.nodes[j] > 0 ? info.nodes[j] : 1
    max = Math.max(max, Math.ceil(m / n))
  }
  return max
}

/** Jobs per partition index (for choosing the default partition: the busiest). */
function jobsPerPartition(info: InferInput, k: number): number[] {
  const c = new Array<number>(k).fill(0)
  if (info.partition === undefined) return c
  for (let j = 0; j < info.count; j++) { const p = info.partition[j]; if (p >= 0 && p < k) c[p]++ }
  return c
}

function busiest(counts: readonly number[]): number {
  let b = 0
  for (let i = 1; i < counts.length; i++) if (counts[i] > counts[b]) b = i
  return b
}

/** The partitions seen, each on `nodesOf(p)`; one "all" partition when the log names none. */
function partitionsOf(info: InferInput, nodeCount: number, nodesOf: (p: number) => number[], notes: string[]): PartitionSpec[] {
  const names = info.partitions ?? []
  const all = Array.from({ length: nodeCount }, (_, i) => i)
  if (names.length === 0) return [blankPartition('all', all, true)]
  const def = busiest(jobsPerPartition(info, names.length))
  const empty: string[] = []
  const parts = names.map((name, p) => {
    let ns = nodesOf(p)
    if (ns.length === 0) { ns = all; empty.push(name) }
    return blankPartition(name, ns, p === def)
  })
  if (empty.length > 0) notes.push(`No job of partition(s) ${empty.join(', ')} ran on a named node: they are given every node.`)
  notes.push(`Partition ${names[def]} is the default (most jobs): jobs without a partition go there. MaxTime, PriorityTier and the other partition limits are not in the log: Slurm's defaults are used.`)
  return parts
}

/** The most of `amount(j)` in use at once over the jobs with a recorded start and run time (a job
 * ending at t frees its share before one starting at t takes it); 0 without start times. */
function peakInUse(info: InferInput, amount: (j: number) => number): number {
  const { start, runtime } = info
  if (start === undefined || runtime === undefined) return 0
  const idx: number[] = []
  for (let j = 0; j < info.count; j++) if (Number.isFinite(start[j]) && runtime[j] > 0 && amount(j) > 0) idx.push(j)
  const n = idx.length
  const time = new Float64Array(2 * n), delta = new Float64Array(2 * n)
  idx.forEach((j, k) => { time[2 * k] = start[j]; delta[2 * k] = amount(j); time[2 * k + 1] = start[j] + runtime[j]; delta[2 * k + 1] = -amount(j) })
  const order = Array.from({ length: 2 * n }, (_, i) => i).sort((a, b) => time[a] - time[b] || delta[a] - delta[b])
  let cur = 0, peak = 0
  for (const e of order) { cur += delta[e]; if (cur > peak) peak = cur }
  return peak
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`

/** The machine a log's jobs ran on, as far as the log tells (see the header of this file). */
export function inferCluster(info: InferInput): ClusterSpec {
  const notes: string[] = [`Memory is not a consumable resource here: ${SLURM_DEFAULTS.inferredSelect.why}.`]
  const memMB = perNodeMemory(info)
  const partNames = info.partitions ?? []
  const partText = partNames.length > 0 ? `; partitions ${partNames.join(', ')} from the jobs` : '; one partition (the log names none)'
  const seen = info.nodesSeen ?? []
  if (seen.length > MAX_NODES) throw new ClusterConfigError(`${seen.length} nodes named: more than ${MAX_NODES}`, info.logName ?? 'the log', null)

  // 1. Nodes named in the log.
  if (seen.length > 0) {
    const order = naturalOrder(seen.map((s) => s.name))
    const group = new Map<string, { cpus: number; gpus: number; n: number; first: string; last: string }>()
    for (const i of order) {
      const s = seen[i], g = groupOf(s.name)
      const e = group.get(g) ?? { cpus: -1, gpus: 0, n: 0, first: s.name, last: s.name }
      e.cpus = Math.max(e.cpus, s.maxCpus); e.gpus = Math.max(e.gpus, s.maxGpus); e.n++; e.last = s.name
      group.set(g, e)
    }
    // A group whose CPUs no job showed takes the largest of the others (1 if none is known).
    const known = [...group.values()].map((e) => e.cpus).filter((c) => c > 0)
    const fallback = known.length > 0 ? Math.max(...known) : 1
    const nodes: NodeSpec[] = order.map((i) => {
      const e = group.get(groupOf(seen[i].name))!
      return { name: seen[i].name, cpus: e.cpus > 0 ? e.cpus : fallback, threadsPerCore: 1, memMB, gpus: Math.max(0, e.gpus), weight: 1 }
    })
    const pos = new Map<number, number>()
    order.forEach((i, k) => pos.set(i, k))
    const members = partNames.map(() => [] as number[])
    seen.forEach((s, i) => { for (const p of s.partitions) if (p >= 0 && p < members.length) members[p].push(pos.get(i)!) })
    const partitions = partitionsOf(info, nodes.length, (p) => members[p].sort((a, b) => a - b), notes)
    const groups = [...group.values()].map((e) => {
      const cpus = e.cpus > 0 ? e.cpus : fallback
      const range = e.n === 1 ? e.first : `${e.first}…${e.last}`
      return `${plural(e.n, 'node')} (${range}) × ${plural(cpus, 'CPU')}${e.gpus > 0 ? ` + ${plural(e.gpus, 'GPU')}` : ''}${e.cpus > 0 ? '' : ' (no job showed their CPUs: the largest other group\'s)'}`
    })
    const note = `${plural(nodes.length, 'node')} named in the log: ${groups.join(', ')}, the most seen on one node of each name group${partText}.`
    return spec(nodes, partitions, note, notes)
  }

  let maxProcs = 0
  for (let j = 0; j < info.count; j++) if (info.procs[j] > 0) maxProcs = Math.max(maxProcs, info.procs[j]) // NaN and -1 (unknown) skipped

  // 2. Node counts without names.
  const nodeCol = info.nodes
  let hasNodes = false
  if (nodeCol !== undefined) for (let j = 0; j < info.count && !hasNodes; j++) if (nodeCol[j] > 0) hasNodes = true
  if (nodeCol !== undefined && hasNodes) {
    const perNode: number[] = []
    let maxNodes = 0, maxOneNode = 0, maxGpusPerNode = 0
    for (let j = 0; j < info.count; j++) {
      const n = nodeCol[j], p = info.procs[j]
      if (!(n > 0) || !(p > 0)) continue
      maxNodes = Math.max(maxNodes, n)
      if (n >= 2 && p % n === 0) perNode.push(p / n)
      if (n === 1) maxOneNode = Math.max(maxOneNode, p)
      const g = info.gpus?.[j] ?? -1
      if (g > 0) maxGpusPerNode = Math.max(maxGpusPerNode, Math.ceil(g / n))
    }
    const common = mode(perNode)
    // The most common CPUs per node of multi-node jobs; without any, the largest one-node job.
    const cpn = Math.max(common ?? maxOneNode, 1)
    let above = 0
    for (let j = 0; j < info.count; j++) if (nodeCol[j] > 0 && info.procs[j] > cpn * nodeCol[j]) above++
    if (above > 0) notes.push(`${plural(above, 'job')} used more CPUs per node than the ${plural(cpn, 'CPU')} inferred (hyper-threads, or nodes of another size): they cannot run on this machine as they did.`)
    const peak = peakInUse(info, (j) => (nodeCol[j] > 0 ? nodeCol[j] : Math.ceil(info.procs[j] / cpn)))
    const count = Math.max(maxNodes, peak, Math.ceil(maxProcs / cpn), 1)
    if (count > MAX_NODES) throw new ClusterConfigError(`the inferred machine would have ${count} nodes: more than ${MAX_NODES}`, info.logName ?? 'the log', null)
    const width = String(count).length
    const nodes: NodeSpec[] = Array.from({ length: count }, (_, i) => ({ name: `n${String(i + 1).padStart(width, '0')}`, cpus: cpn, threadsPerCore: 1, memMB, gpus: maxGpusPerNode, weight: 1 }))
    const all = nodes.map((_, i) => i)
    const partitions = partitionsOf(info, count, () => all, notes)
    if (partNames.length > 1) notes.push('The log does not say which nodes each partition used: every partition is on every node (partitions sharing nodes).')
    const how = common === null ? 'the largest one-node job (no multi-node job divides evenly)' : 'the most common CPUs per node of multi-node jobs'
    const why = count === maxNodes ? 'the largest allocation' : count === peak ? `the most nodes busy at once in the log (the largest allocation is ${plural(maxNodes, 'node')})` : 'enough for the largest job'
    const note = `${plural(count, 'node')} (the log gives node counts, not names: ${why}) × ${plural(cpn, 'CPU')} (${how})${maxGpusPerNode > 0 ? ` + ${plural(maxGpusPerNode, 'GPU')} (the most per node of any job)` : ''}${partText}.`
    return spec(nodes, partitions, note, notes)
  }

  // 3. Neither: single-CPU nodes, as many as the machine size.
  const stated = info.machineProcs !== undefined && info.machineProcs !== null && info.machineProcs >= maxProcs ? info.machineProcs : null
  const peakCpus = stated === null ? peakInUse(info, (j) => info.procs[j]) : 0
  const size = Math.max(stated ?? Math.max(maxProcs, peakCpus), 1)
  if (size > MAX_NODES) throw new ClusterConfigError(`a machine of ${size} CPUs as single-CPU nodes is more than ${MAX_NODES} nodes`, info.logName ?? 'the log', null)
  const width = String(size).length
  const nodes: NodeSpec[] = Array.from({ length: size }, (_, i) => ({ name: `cpu${String(i + 1).padStart(width, '0')}`, cpus: 1, threadsPerCore: 1, memMB, gpus: 0, weight: 1 }))
  const all = nodes.map((_, i) => i)
  const partitions = partitionsOf(info, size, () => all, notes)
  if (partNames.length > 1) notes.push('The log does not say which nodes each partition used: every partition is on every CPU.')
  const note = `One pool of ${plural(size, 'CPU')} (${stated !== null ? 'the machine size given' : peakCpus > maxProcs ? 'the most CPUs busy at once in the log' : 'the largest job'}; the log has no node column), each CPU a node of its own${partText}.`
  return spec(nodes, partitions, note, notes)
}

function spec(nodes: NodeSpec[], partitions: PartitionSpec[], note: string, notes: string[]): ClusterSpec {
  return {
    nodes, partitions, select: SLURM_DEFAULTS.inferredSelect.value, defMemPerCpu: null, defMemPerNode: null,
    source: { kind: 'inferred', note }, notes,
  }
}
