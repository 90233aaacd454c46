// From a cleaned JobTable to the node-level simulator's input (docs/CLUSTER.md §Job columns): each
// job's partition on the machine, node count, memory and GPUs per node, eligibility and requested
// time within its partition's limits — and the check that every job can ever fit its partition.
// Index j of the result is index j of the table (same jobs, same (submit, id) order).
import { formatNumber } from '../util/format'
import type { JobTable } from '../workload/types'
import { buildDemand, Machine, PREF_NONE, Selection, VIEW_EMPTY } from './machine'
import type { ClusterJobs, ClusterSpec, PartitionSpec } from './types'

export class ClusterJobsError extends Error {}

const fmt = (n: number) => formatNumber(n)

/** Names of the table's partition / QOS indices (ParsedLog.partitions / qosNames). */
export interface ClusterJobNames {
  readonly partitions?: readonly string[]
  readonly qosNames?: readonly string[]
}

/**
 * Builds ClusterJobs from the table's optional resource columns (absent column = unknown for every
 * job), on `cluster`. Rules, each counted in `notes` when it changed something:
 * - partition: the table's name → the machine's partition of that name; a job submitted to several
 *   ("p1,p2") goes to the first one the machine has; no partition or an unknown name → the default
 *   partition (Default=YES, else the first);
 * - nodes: the recorded count; unknown (-1) → 0 "flexible" (whole-node jobs then take whole nodes
 *   until their CPUs are covered); a GPU job of unknown count → the fewest nodes whose GPUs hold it;
 * - memory: the table's total MB → per node (total / N); flexible jobs keep the total (spread per CPU);
 * - GPUs: the table's total → per node, ceil(total / N);
 * - eligible: NaN or before submit → submit;
 * - requested: above the partition's MaxTime → MaxTime (Slurm would not start it: PartitionTimeLimit);
 *   missing (≤ 0) → DefaultTime, else MaxTime (what Slurm sets at start);
 * - a job that can never fit its partition (per node: CPUs, memory, GPUs; N nodes) is moved to the
 *   first partition that can hold it (the default first), with a note; if none can, an error naming
 *   its line — as the import removes jobs larger than the machine (rule C3), a job that reaches this
 *   point and fits nowhere means the log and the machine file disagree.
 */
export function buildClusterJobs(table: JobTable, cluster: ClusterSpec, names: ClusterJobNames = {}): { jobs: ClusterJobs; notes: string[] } {
  const n = table.count
  const P = cluster.partitions.length
  if (P === 0) throw new ClusterJobsError('the machine has no partitions')
  const notes: string[] = []
  let def = cluster.partitions.findIndex((p) => p.isDefault)
  if (def < 0) def = 0
  const defName = cluster.partitions[def].name
  const byName = new Map<string, number>()
  cluster.partitions.forEach((p, k) => { if (!byName.has(p.name)) byName.set(p.name, k) })

  // Partition: resolve each distinct log name once.
  const logNames = names.partitions ?? []
  const resolved = logNames.map((name) => {
    for (const part of name.split(',')) {
      const k = byName.get(part.trim())
      if (k !== undefined) return k
    }
    return -1
  })
  const partition = new Int32Array(n)
  let missing = 0, unknown = 0, multi = 0
  const unknownNames = new Set<string>()
  for (let j = 0; j < n; j++) {
    const li = table.partition ? table.partition[j] : -1
    const k = li >= 0 && li < resolved.length ? resolved[li] : -1
    if (k >= 0) {
      partition[j] = k
      if (logNames[li].includes(',')) multi++
    } else {
      partition[j] = def
      if (li >= 0 && li < logNames.length) { unknown++; unknownNames.add(logNames[li]) } else missing++
    }
  }
  if (missing > 0) notes.push(`${fmt(missing)} jobs have no partition: placed in the default partition ${defName}`)
  if (unknown > 0) notes.push(`${fmt(unknown)} jobs name a partition the machine does not have (${[...unknownNames].slice(0, 5).join(', ')}${unknownNames.size > 5 ? ', …' : ''}): placed in the default partition ${defName}`)
  if (multi > 0) notes.push(`${fmt(multi)} jobs were submitted to several partitions: each is simulated in the first of them the machine has`)

  // Requested time within the partition's limits; eligibility.
  const requested = Float64Array.from(table.requested)
  const eligible = new Float64Array(n)
  let capped = 0, filled = 0, eligFixed = 0
  for (let j = 0; j < n; j++) {
    const part = cluster.partitions[partition[j]]
    let r = requested[j]
    if (!(r > 0)) {
      const d = part.defaultTime ?? part.maxTime
      if (d === null || !(d > 0)) throw new ClusterJobsError(`job at line ${table.line[j]} has no requested time and partition ${part.name} has neither DefaultTime nor MaxTime`)
      r = d; filled++
    }
    if (part.maxTime !== null && r > part.maxTime) { r = part.maxTime; capped++ }
    requested[j] = r
    const e = table.eligible ? table.eligible[j] : NaN
    if (e >= table.submit[j]) eligible[j] = e
    else { eligible[j] = table.submit[j]; if (table.eligible && !Number.isNaN(e)) eligFixed++ }
  }
  if (capped > 0) notes.push(`${fmt(capped)} jobs requested more than their partition's MaxTime: requested time cut to MaxTime`)
  if (filled > 0) notes.push(`${fmt(filled)} jobs had no requested time: their partition's DefaultTime (else MaxTime) is used`)
  if (eligFixed > 0) notes.push(`${fmt(eligFixed)} jobs were eligible before their submit: eligible = submit`)

  // Resources per node.
  const nodes = new Int32Array(n), memPerNode = new Float64Array(n), gpusPerNode = new Int32Array(n)
  const maxGpus = cluster.partitions.map((p) => p.nodes.reduce((m, i) => Math.max(m, cluster.nodes[i]?.gpus ?? 0), 0))
  for (let j = 0; j < n; j++) {
    const q = table.procs[j]
    let nn = table.nodes && table.nodes[j] > 0 ? Math.min(table.nodes[j], q) : 0
    const g = table.gpus && table.gpus[j] > 0 ? table.gpus[j] : 0
    if (nn === 0 && g > 0) nn = Math.max(1, Math.ceil(g / Math.max(1, maxGpus[partition[j]])))
    nodes[j] = nn
    gpusPerNode[j] = g > 0 ? Math.ceil(g / nn) : 0
    const m = table.memMB && table.memMB[j] > 0 ? table.memMB[j] : 0
    memPerNode[j] = nn > 0 ? m / nn : m
  }

  const jobs: ClusterJobs = {
    count: n,
    submit: table.submit,
    runtime: table.runtime,
    requested,
    procs: table.procs,
    partition,
    nodes,
    memPerNode,
    gpusPerNode,
    exclusive: table.exclusive ? Uint8Array.from(table.exclusive) : new Uint8Array(n),
    user: table.user,
    account: table.account ?? new Int32Array(n).fill(-1),
    qos: table.qos ? Int32Array.from(table.qos) : new Int32Array(n).fill(-1),
    eligible,
  }
  moveJobsThatNeverFit(jobs, cluster, table, def, notes)
  const down = new Set<string>()
  for (let j = 0; j < n; j++) {
    const part = cluster.partitions[partition[j]]
    if (part.state === 'DOWN' || part.state === 'INACTIVE') down.add(part.name)
  }
  for (const name of down) notes.push(`partition ${name} is not UP in the machine file: its jobs are simulated as if it were (the log shows they ran)`)
  return { jobs, notes }
}

/**
 * Every job must fit its partition when the machine is empty (docs/CLUSTER.md §Job columns). A job
 * that does not is moved to the first partition that can hold it (default first), else an error.
 * Cheap for the usual job: one that fits the partition's smallest node on each resource, on no
 * more nodes than the partition has, fits; the rest are tested on the empty machine, once per
 * distinct demand.
 */
function moveJobsThatNeverFit(jobs: ClusterJobs, cluster: ClusterSpec, table: JobTable, def: number, notes: string[]): void {
  const P = cluster.partitions.length
  const demand = buildDemand(jobs, cluster)
  const machine = new Machine(cluster, demand)
  const sel = new Selection(cluster.nodes.length)
  const smallest = cluster.partitions.map((p) => smallestNode(p, cluster))
  const totalCpus = cluster.partitions.map((p) => p.nodes.reduce((t, i) => t + cluster.nodes[i].cpus, 0))
  const memo = new Map<string, boolean>()
  const fits = (j: number): boolean => {
    const p = jobs.partition[j]
    const s = smallest[p]
    const nn = demand.nodes[j]
    if (nn > 0 && nn <= s.count && demand.whole[j] === 0 && demand.memAll[j] === 0 &&
      demand.cpus[j] * s.unit <= s.cpus && demand.gpus[j] <= s.gpus &&
      (!cluster.select.memory || demand.memPerNode[j] + demand.memPerCpu[j] * demand.cpus[j] * s.unit <= s.mem)) return true
    // A flexible job asking for CPUs only fits when the partition has that many.
    if (nn === 0 && demand.whole[j] === 0 && demand.gpus[j] === 0 && demand.memAll[j] === 0 && demand.memPerNode[j] === 0 &&
      demand.memPerCpu[j] === 0 && s.unit === 1) return demand.cpus[j] <= totalCpus[p]
    const key = `${p}|${nn}|${demand.cpus[j]}|${demand.whole[j]}|${demand.memPerNode[j]}|${demand.memPerCpu[j]}|${demand.memAll[j]}|${demand.gpus[j]}`
    let ok = memo.get(key)
    if (ok === undefined) { ok = machine.select(j, VIEW_EMPTY, PREF_NONE, sel); memo.set(key, ok) }
    return ok
  }
  const order = [def, ...Array.from({ length: P }, (_, k) => k).filter((k) => k !== def)]
  const moved = new Map<string, number>()
  const partition = jobs.partition as Int32Array
  const nodes = jobs.nodes as Int32Array
  let spread = 0
  const mem = jobs.memPerNode as Float64Array
  /** Whether job j fits partition p as recorded, or else spread over more nodes (then left so). */
  const fitsIn = (j: number, p: number): 'as-is' | 'spread' | null => {
    partition[j] = p
    // The demand's memory defaults depend on the partition: rebuild this job's row.
    copyRow(demand, buildDemand(rowOf(jobs, j), cluster), j)
    if (fits(j)) return 'as-is'
    // More CPUs (or memory) per node than this machine's nodes have — hyper-threads, or an
    // inferred machine smaller per node than the real one: the job spreads its CPUs over as
    // many nodes as it needs (GPU jobs keep their node count).
    if (nodes[j] > 0 && jobs.gpusPerNode[j] === 0) {
      const was = nodes[j], perNode = mem[j]
      nodes[j] = 0
      mem[j] = perNode * was // a flexible job's memory is its total (spread per CPU)
      copyRow(demand, buildDemand(rowOf(jobs, j), cluster), j)
      if (fits(j)) return 'spread'
      nodes[j] = was
      mem[j] = perNode
      copyRow(demand, buildDemand(rowOf(jobs, j), cluster), j)
    }
    return null
  }
  for (let j = 0; j < jobs.count; j++) {
    if (fits(j)) continue
    const from = partition[j]
    let to = -1
    for (const k of [from, ...order.filter((x) => x !== from)]) {
      const how = fitsIn(j, k)
      if (how === null) continue
      if (how === 'spread') spread++
      to = k
      break
    }
    if (to === from) continue
    if (to < 0) {
      partition[j] = from
      throw new ClusterJobsError(`job at line ${table.line[j]} (${jobs.procs[j]} CPUs${jobs.nodes[j] > 0 ? ` on ${jobs.nodes[j]} nodes` : ''}` +
        `${jobs.gpusPerNode[j] > 0 ? `, ${jobs.gpusPerNode[j]} GPUs per node` : ''}${jobs.memPerNode[j] > 0 ? `, ${fmt(jobs.memPerNode[j])} MB${jobs.nodes[j] > 0 ? ' per node' : ''}` : ''}) ` +
        `can never fit partition ${cluster.partitions[from].name}, nor any other partition of the machine`)
    }
    const key = `${cluster.partitions[from].name} → ${cluster.partitions[to].name}`
    moved.set(key, (moved.get(key) ?? 0) + 1)
  }
  if (spread > 0) notes.push(`${fmt(spread)} jobs used more per node than this machine's nodes have: each spreads its CPUs over as many nodes as it needs`)
  for (const [key, count] of moved) notes.push(`${fmt(count)} jobs can never fit their partition on this machine and were moved (${key})`)
}

function smallestNode(p: PartitionSpec, cluster: ClusterSpec): { count: number; cpus: number; mem: number; gpus: number; unit: number } {
  let cpus = Infinity, mem = Infinity, gpus = Infinity, unit = 1
  for (const i of p.nodes) {
    const x = cluster.nodes[i]
    cpus = Math.min(cpus, x.cpus); mem = Math.min(mem, x.memMB); gpus = Math.min(gpus, x.gpus)
    if (cluster.select.unit !== 'cpu') unit = Math.max(unit, x.threadsPerCore)
  }
  return { count: p.nodes.length, cpus, mem, gpus, unit }
}

function rowOf(jobs: ClusterJobs, j: number): ClusterJobs {
  const f = (a: Float64Array) => Float64Array.of(a[j]), i = (a: Int32Array) => Int32Array.of(a[j])
  return {
    count: 1, submit: f(jobs.submit), runtime: f(jobs.runtime), requested: f(jobs.requested), procs: i(jobs.procs),
    partition: i(jobs.partition), nodes: i(jobs.nodes), memPerNode: f(jobs.memPerNode), gpusPerNode: i(jobs.gpusPerNode),
    exclusive: Uint8Array.of(jobs.exclusive[j]), user: i(jobs.user), account: i(jobs.account), qos: i(jobs.qos), eligible: f(jobs.eligible),
  }
}

function copyRow(to: ReturnType<typeof buildDemand>, from: ReturnType<typeof buildDemand>, j: number): void {
  (to.partition as Int32Array)[j] = from.partition[0]
  to.nodes[j] = from.nodes[0]; to.cpus[j] = from.cpus[0]; to.whole[j] = from.whole[0]
  to.memPerNode[j] = from.memPerNode[0]; to.memPerCpu[j] = from.memPerCpu[0]; to.memAll[j] = from.memAll[0]; to.gpus[j] = from.gpus[0]
}
