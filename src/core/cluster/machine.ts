// The node-level machine: what each node has free (CPUs, memory in MB, GPUs, jobs on it), what
// each job asks of a node, and where a job can start (docs/CLUSTER.md §Allocation). Both schedulers
// build on it: the research's EASY on nodes (./easy.ts) and Slurm's own (./slurm/).
//
// Rules (the resource selection of the Slurm spec that docs/CLUSTER.md §Allocation restates):
// - a job in a partition may use only that partition's nodes; partitions sharing nodes compete for
//   the same per-node state (usage is tracked per node, across all partitions);
// - per node, GPUs are checked first ("GPUs binding before CPUs": a node short of GPUs is out
//   whatever its CPUs), then CPUs, then memory when memory is consumable;
// - a job asks for N nodes and the same CPUs on each (ceil(total/N)), or N = 0 "flexible": its CPUs
//   may spread over any nodes of the partition (the single pool's model, for logs without node
//   counts); free CPUs scattered over nodes do not make a node for an N-node job;
// - CR_Core (and CR_Socket, approximated as cores) allocates whole cores: the CPUs taken on a node
//   are rounded up to a multiple of its threads per core;
// - whole-node jobs (--exclusive, partition OverSubscribe=EXCLUSIVE, select/linear) need an empty
//   node and take all its CPUs;
// - memory, when consumable: the job's own per node; without one the partition's (else the
//   cluster's) DefMemPerCPU × CPUs or DefMemPerNode; without any default "0 means all memory":
//   the job takes all memory of each node and needs a node with no memory allocated;
// - choice of nodes, deterministic: node Weight groups first (lower first), then best fit —
//   one-node jobs take the sufficient node with the fewest usable (free) CPUs, first by index on
//   ties; N-node jobs take the N sufficient nodes with the fewest usable CPUs, by index on ties;
//   flexible jobs take CPUs greedily over the nodes in (weight, index) order.
//   An optional preference key (PREF_*) breaks ties between nodes of equal usable CPUs before the
//   index (flexible jobs: it replaces the free CPUs in the order): the research's EASY uses it so
//   that a reservation takes the nodes that are busy now (PREF_BUSY_NOW: fewest CPUs free now) and a
//   job ending before the reservation takes the reserved nodes (PREF_RESERVED: fewest CPUs of
//   VIEW_CAPPED) (docs/CLUSTER.md §EASY on nodes).
//
// Views of the availability, so that no array is copied per test:
//   VIEW_FREE    the current free state;
//   VIEW_SHADOW  a scratch copy, "what is free at some future time": begin with scratchBegin(),
//                release running jobs into it with scratchRelease(); untouched nodes read the
//                current free state (copy on touch, by an epoch stamp);
//   VIEW_CAPPED  per node the smaller of VIEW_FREE and VIEW_SHADOW (after scratchTake of a
//                reservation: what a job may use now without touching what the reservation needs);
//   VIEW_EMPTY   every node empty (can the job EVER fit: buildClusterJobs' check).
// A node mask (setExclude) hides nodes from every view (Slurm's reserved nodes).
//
// The API, for the schedulers: buildDemand → new Machine(cluster, demand); per job quickReject (O(1))
// then select(job, view, pref, out) → allocate(job, out); release(job) when it ends. Reservations:
// earliest() (shadow time + nodes, leaves VIEW_SHADOW = what is left beside them), or by hand with
// scratchBegin / scratchRelease / select(VIEW_SHADOW) / scratchTake; before allocating a job during
// a scratch, scratchPin(sel) (and scratchTake(sel) if it outlasts the reservation). earliestCount /
// cpusIn: the count reservation of a flexible CPU-only job. `version` changes with every allocate,
// release and mask: equal versions mean the same free state.
//
// Speed: everything is preallocated typed arrays; select/allocate/release allocate nothing. Per
// partition, the free CPUs and GPUs, the idle nodes and the largest free CPU count of one node are
// kept up to date so that quickReject answers "cannot start now" in O(1) before any node scan; the
// nodes sit in free-CPU buckets (and, while a reservation holds some below their free CPUs, in
// capped-CPU buckets) so that select visits the best-fit candidates first.
// Running jobs' per-node allocations live in a pool compacted when full (live entries ≤ total CPUs).
import { selectKth } from '../util/select'
import type { ClusterJobs, ClusterSpec } from './types'

export class MachineError extends Error {}

export const VIEW_FREE = 0
export const VIEW_SHADOW = 1
export const VIEW_CAPPED = 2
export const VIEW_EMPTY = 3
export type View = 0 | 1 | 2 | 3

/** Tie preference between nodes of equal usable CPUs (before the index). */
export const PREF_NONE = 0
/** Fewest CPUs free now first: a reservation computed in VIEW_SHADOW keeps the nodes free now for the backfill. */
export const PREF_BUSY_NOW = 1
/** Fewest CPUs usable now beside the reservation first (VIEW_CAPPED's CPUs): a job that ends before
 * the reservation takes the reserved nodes. */
export const PREF_RESERVED = 2
export type Pref = 0 | 1 | 2

/** What job j asks of each node, precomputed once per job by buildDemand (columns, index = job). */
export interface Demand {
  readonly count: number
  readonly partition: Int32Array
  /** N nodes, or 0 = flexible (CPUs spread over any nodes). */
  readonly nodes: Int32Array
  /** CPUs per node before the core rounding (ceil(total/N)); flexible: total CPUs. */
  readonly cpus: Int32Array
  /** 1 = whole nodes: needs an empty node, takes all its CPUs. */
  readonly whole: Uint8Array
  /** Memory per node (MB) fixed part, and per CPU taken on the node (MB); 0 when memory is not consumable. */
  readonly memPerNode: Float64Array
  readonly memPerCpu: Float64Array
  /** 1 = all memory of each node (consumable memory, no request, no default): needs a node with no memory allocated. */
  readonly memAll: Uint8Array
  /** GPUs per node. */
  readonly gpus: Int32Array
}

/**
 * Each job's per-node demand from its columns and the machine (docs/CLUSTER.md §Allocation).
 * ClusterJobs.memPerNode is per node for N ≥ 1 and the job's total for flexible jobs (spread per
 * CPU). A flexible job with GPUs is placed on one node (buildClusterJobs gives GPU jobs a count).
 */
export function buildDemand(jobs: ClusterJobs, cluster: ClusterSpec): Demand {
  const n = jobs.count
  const partition = jobs.partition
  const nodes = new Int32Array(n), cpus = new Int32Array(n), whole = new Uint8Array(n)
  const memPerNode = new Float64Array(n), memPerCpu = new Float64Array(n), memAll = new Uint8Array(n), gpus = new Int32Array(n)
  const linear = cluster.select.type === 'linear', memory = cluster.select.memory
  const parts = cluster.partitions
  const procs = jobs.procs, nodesAsked = jobs.nodes, gpusAsked = jobs.gpusPerNode, exclusive = jobs.exclusive, memAsked = jobs.memPerNode
  for (let j = 0; j < n; j++) {
    const p = partition[j]
    const part = parts[p]
    if (part === undefined) throw new MachineError(`job index ${j} has partition index ${p}; the machine has ${parts.length} partitions`)
    const q = procs[j]
    if (!(q >= 1)) throw new MachineError(`job index ${j} needs ${q} CPUs`)
    let nn = nodesAsked[j] > 0 ? nodesAsked[j] : 0
    const g = gpusAsked[j] > 0 ? gpusAsked[j] : 0
    if (nn === 0 && g > 0) nn = 1
    if (nn > q) nn = q // a node holds at least one of the job's CPUs
    nodes[j] = nn
    cpus[j] = nn > 0 ? Math.ceil(q / nn) : q
    gpus[j] = g
    whole[j] = exclusive[j] !== 0 || part.overSubscribe === 'EXCLUSIVE' || linear ? 1 : 0
    if (!memory) continue
    const m = memAsked[j]
    if (m > 0) {
      if (nn > 0) memPerNode[j] = m
      else memPerCpu[j] = m / q
      continue
    }
    // No request: the partition's default, else the cluster's, else "all memory of the node".
    const hasPart = part.defMemPerCpu !== null || part.defMemPerNode !== null
    const perCpu = hasPart ? part.defMemPerCpu : cluster.defMemPerCpu
    const perNode = hasPart ? part.defMemPerNode : cluster.defMemPerNode
    if (perCpu !== null && perCpu > 0) memPerCpu[j] = perCpu
    else if (perNode !== null && perNode > 0) memPerNode[j] = perNode
    else memAll[j] = 1
  }
  return { count: n, partition, nodes, cpus, whole, memPerNode, memPerCpu, memAll, gpus }
}

/** The nodes chosen for a job and what it takes on each (filled by select, read by allocate). */
export class Selection {
  readonly nodes: Int32Array
  readonly cpus: Int32Array
  readonly mem: Float64Array
  readonly gpus: Int32Array
  len = 0
  constructor(nodeCount: number) {
    this.nodes = new Int32Array(nodeCount)
    this.cpus = new Int32Array(nodeCount)
    this.mem = new Float64Array(nodeCount)
    this.gpus = new Int32Array(nodeCount)
  }
}

// Composite sort key of a node for the N-node and preferred-flexible choices (a Float64 holds 52 bits):
// weight rank (8 bits) | usable CPUs (13) | preference (13) | index (18).
const KEY_INDEX = 2 ** 18, KEY_PREF = 2 ** 31, KEY_CPU = 2 ** 44
const MAX_NODES = KEY_INDEX
const SAT13 = 8191, SAT_WEIGHT = 255
/** fitsEmpty's direct-mapped slots (a power of two): 16 KiB + 4 KiB, a few hundred distinct demands in a real log. */
const EMPTY_SLOTS = 4096

/** The node index of a composite key (its low 18 bits): exact, and without a floating-point
 * remainder (a library call in V8). */
function nodeOfKey(key: number): number { return key - Math.floor(key / KEY_INDEX) * KEY_INDEX }

export class Machine {
  readonly nodeCount: number
  readonly partitionCount: number
  // Node capacities.
  readonly capCpu: Int32Array
  readonly capMem: Float64Array
  readonly capGpu: Int32Array
  /** Threads per core when the unit is a core (1 under CR_CPU: no rounding). */
  readonly unitCpu: Int32Array
  readonly weightRank: Int32Array
  // Free state.
  readonly freeCpu: Int32Array
  readonly freeMem: Float64Array
  readonly freeGpu: Int32Array
  readonly jobsOn: Int32Array
  /** Free CPUs over the whole machine. */
  totalFreeCpu = 0
  /** Bumped by every allocate, release and setExclude: equal versions = same free state. */
  version = 0
  // Per partition: nodes in (weight, index) order (CSR), membership, and the quick-reject totals.
  readonly partStart: Int32Array
  readonly partNodes: Int32Array
  private readonly inPart: Uint8Array
  private readonly nodePartStart: Int32Array
  private readonly nodeParts: Int32Array
  readonly partFreeCpu: Float64Array
  readonly partFreeGpu: Float64Array
  readonly partIdle: Int32Array
  readonly partMaxFree: Int32Array
  /** Per partition, the CPUs of VIEW_CAPPED (Σ min(free, scratch)), while cappedLive. */
  readonly partCappedCpu: Float64Array
  /** The capped layer is kept only while some node's capped CPUs are below its free CPUs. */
  private cappedLive = false
  private readonly hist: Int32Array
  /** Like hist, for VIEW_CAPPED's CPUs (valid while cappedLive). */
  private readonly histCapped: Int32Array
  private readonly histStride: number
  // Scratch (VIEW_SHADOW): copy on touch.
  private readonly sCpu: Int32Array
  private readonly sMem: Float64Array
  private readonly sGpu: Int32Array
  private readonly stamp: Int32Array
  private epoch = 1 // stamp 0 = never touched
  private exclude: Uint8Array | null = null
  /** fitsEmpty's answers: by a hash of the demand, [job, 1 or 0, job, 1 or 0, …] for the jobs computed. */
  private readonly emptyFits = new Map<number, number[]>()
  /** In front of emptyFits, one slot per low bits of the hash: the last job seen there (-1: none)
   * and its answer. Most jobs repeat a recent demand, and a typed-array read is much cheaper than
   * the Map's lookup of a hash that is rarely a small integer (docs/PERFORMANCE.md). */
  private readonly emptySlotJob = new Int32Array(EMPTY_SLOTS).fill(-1)
  private readonly emptySlotOk = new Uint8Array(EMPTY_SLOTS)
  // Allocations of running jobs: pool entries [off, off+len) per job, two buffers swapped on compaction.
  private poolNode: Int32Array
  private poolCpu: Int32Array
  private poolMem: Float64Array
  private poolGpu: Int32Array
  private altNode: Int32Array
  private altCpu: Int32Array
  private altMem: Float64Array
  private altGpu: Int32Array
  private poolTop = 0
  readonly allocOff: Int32Array
  readonly allocLen: Int32Array
  /** CPUs a running job holds in all. */
  private readonly allocCpuTotal: Int32Array
  /** within[q·P + p] = 1 when every node of partition q is in partition p. */
  private readonly within: Uint8Array
  private readonly live: Int32Array
  private readonly livePos: Int32Array
  private liveLen = 0
  // Scratch for sorting node keys.
  private readonly keys: Float64Array
  private readonly cand: Float64Array
  // Free-CPU buckets per partition: for each partition and each free-CPU count c (0..max node CPUs),
  // a two-level bitset over the partition's node positions ((weight, index) order); bucket
  // max+1 = "has free CPUs". Word w of bucket b of partition p: bits[bitBase[p] + b·W_p + w].
  private readonly bitBase: Int32Array
  private readonly sumBase: Int32Array
  private readonly words: Int32Array
  private readonly sums: Int32Array
  private readonly bits: Int32Array
  private readonly summary: Int32Array
  /** Position of node nodeParts[k] in partition nodeParts[k]'s list. */
  private readonly nodePos: Int32Array
  /** Weight groups per partition: positions where a group starts (CSR by pgStart). */
  private readonly pgStart: Int32Array
  private readonly groupPos: Int32Array
  /** Nodes touched in the current scratch (stamped this epoch). */
  private readonly touchedList: Int32Array
  private touchedLen = 0
  /** Touched nodes whose scratch is below the free state on some resource (reserved nodes): the
   * only nodes where VIEW_CAPPED differs from VIEW_FREE (marked with the epoch). */
  private readonly specialList: Int32Array
  private readonly specialMark: Int32Array
  private specialLen = 0
  /** True when no node rounds CPUs to cores (CR_CPU, or one thread per core everywhere). */
  private readonly unitOne: boolean
  /** Memory (MB) the last successful take() would use on its node. */
  private lastMem = 0

  constructor(readonly cluster: ClusterSpec, readonly demand: Demand) {
    const nodes = cluster.nodes
    const nc = (this.nodeCount = nodes.length)
    if (nc === 0) throw new MachineError('the machine has no nodes')
    if (nc > MAX_NODES) throw new MachineError(`the machine has ${nc} nodes; at most ${MAX_NODES} are supported`)
    const P = (this.partitionCount = cluster.partitions.length)
    if (P === 0) throw new MachineError('the machine has no partitions')
    this.capCpu = new Int32Array(nc); this.capMem = new Float64Array(nc); this.capGpu = new Int32Array(nc)
    this.unitCpu = new Int32Array(nc); this.weightRank = new Int32Array(nc)
    const weights = [...new Set(nodes.map((x) => x.weight))].sort((a, b) => a - b)
    let maxCpu = 0, totalCpu = 0
    const core = cluster.select.unit !== 'cpu'
    for (let i = 0; i < nc; i++) {
      const x = nodes[i]
      if (!(Number.isInteger(x.cpus) && x.cpus >= 1)) throw new MachineError(`node ${x.name} has ${x.cpus} CPUs`)
      this.capCpu[i] = x.cpus
      this.capMem[i] = x.memMB > 0 ? x.memMB : 0
      this.capGpu[i] = x.gpus > 0 ? x.gpus : 0
      this.unitCpu[i] = core && x.threadsPerCore > 1 ? x.threadsPerCore : 1
      this.weightRank[i] = Math.min(SAT_WEIGHT, weights.indexOf(x.weight))
      if (x.cpus > maxCpu) maxCpu = x.cpus
      totalCpu += x.cpus
    }
    this.unitOne = this.unitCpu.every((u) => u === 1)
    this.freeCpu = Int32Array.from(this.capCpu)
    this.freeMem = Float64Array.from(this.capMem)
    this.freeGpu = Int32Array.from(this.capGpu)
    this.jobsOn = new Int32Array(nc)
    this.totalFreeCpu = totalCpu
    // Partitions: node lists by (weight, index), membership, node → partitions.
    this.partStart = new Int32Array(P + 1)
    let total = 0
    for (let p = 0; p < P; p++) { this.partStart[p] = total; total += cluster.partitions[p].nodes.length }
    this.partStart[P] = total
    this.partNodes = new Int32Array(total)
    this.inPart = new Uint8Array(P * nc)
    const perNode = new Int32Array(nc)
    for (let p = 0; p < P; p++) {
      const list = [...cluster.partitions[p].nodes]
      for (const i of list) {
        if (!(Number.isInteger(i) && i >= 0 && i < nc)) throw new MachineError(`partition ${cluster.partitions[p].name} names node index ${i}; the machine has ${nc} nodes`)
        if (this.inPart[p * nc + i] !== 0) throw new MachineError(`partition ${cluster.partitions[p].name} lists node ${nodes[i].name} twice`)
        this.inPart[p * nc + i] = 1
        perNode[i]++
      }
      list.sort((a, b) => this.weightRank[a] - this.weightRank[b] || a - b)
      this.partNodes.set(list, this.partStart[p])
    }
    this.nodePartStart = new Int32Array(nc + 1)
    for (let i = 0; i < nc; i++) this.nodePartStart[i + 1] = this.nodePartStart[i] + perNode[i]
    this.nodeParts = new Int32Array(this.nodePartStart[nc])
    const fill = new Int32Array(nc)
    this.nodePos = new Int32Array(this.nodePartStart[nc])
    for (let p = 0; p < P; p++) {
      for (let k = this.partStart[p]; k < this.partStart[p + 1]; k++) {
        const i = this.partNodes[k]
        const e = this.nodePartStart[i] + fill[i]++
        this.nodeParts[e] = p
        this.nodePos[e] = k - this.partStart[p]
      }
    }
    // Weight groups.
    const gp: number[] = [], gs = new Int32Array(P + 1)
    for (let p = 0; p < P; p++) {
      gs[p] = gp.length
      for (let k = this.partStart[p]; k < this.partStart[p + 1]; k++) {
        if (k === this.partStart[p] || this.weightRank[this.partNodes[k]] !== this.weightRank[this.partNodes[k - 1]]) gp.push(k - this.partStart[p])
      }
    }
    gs[P] = gp.length
    this.pgStart = gs
    this.groupPos = Int32Array.from(gp)
    this.partFreeCpu = new Float64Array(P); this.partFreeGpu = new Float64Array(P)
    this.partIdle = new Int32Array(P); this.partMaxFree = new Int32Array(P); this.partCappedCpu = new Float64Array(P)
    this.histStride = maxCpu + 1
    this.hist = new Int32Array(P * this.histStride)
    this.histCapped = new Int32Array(P * this.histStride)
    const buckets = maxCpu + 2
    // Layer p: free CPUs; layer P + p: VIEW_CAPPED's CPUs (min(free, scratch)), the same nodes.
    this.bitBase = new Int32Array(2 * P); this.sumBase = new Int32Array(2 * P); this.words = new Int32Array(2 * P); this.sums = new Int32Array(2 * P)
    let nb = 0, ns = 0
    for (let p = 0; p < 2 * P; p++) {
      const q = p % P
      const w = Math.ceil((this.partStart[q + 1] - this.partStart[q]) / 32), sw = Math.ceil(w / 32)
      this.words[p] = w; this.sums[p] = sw
      this.bitBase[p] = nb; this.sumBase[p] = ns
      nb += buckets * w; ns += buckets * sw
    }
    this.bits = new Int32Array(nb)
    this.summary = new Int32Array(ns)
    for (let p = 0; p < P; p++) {
      for (let k = this.partStart[p]; k < this.partStart[p + 1]; k++) {
        const i = this.partNodes[k]
        this.partFreeCpu[p] += this.capCpu[i]
        this.partCappedCpu[p] += this.capCpu[i]
        this.partFreeGpu[p] += this.capGpu[i]
        this.partIdle[p]++
        this.hist[p * this.histStride + this.capCpu[i]]++
        if (this.capCpu[i] > this.partMaxFree[p]) this.partMaxFree[p] = this.capCpu[i]
        for (const layer of [p, P + p]) {
          this.setBit(layer, this.capCpu[i], k - this.partStart[p])
          this.setBit(layer, this.histStride, k - this.partStart[p])
        }
      }
    }
    this.sCpu = new Int32Array(nc); this.sMem = new Float64Array(nc); this.sGpu = new Int32Array(nc)
    this.stamp = new Int32Array(nc)
    const cap = 2 * totalCpu + nc
    this.poolNode = new Int32Array(cap); this.poolCpu = new Int32Array(cap); this.poolMem = new Float64Array(cap); this.poolGpu = new Int32Array(cap)
    this.altNode = new Int32Array(cap); this.altCpu = new Int32Array(cap); this.altMem = new Float64Array(cap); this.altGpu = new Int32Array(cap)
    const n = demand.count
    this.allocOff = new Int32Array(n).fill(-1)
    this.allocLen = new Int32Array(n)
    this.allocCpuTotal = new Int32Array(n)
    this.within = new Uint8Array(P * P)
    for (let q = 0; q < P; q++) {
      for (let p = 0; p < P; p++) {
        let all = 1
        for (let k = this.partStart[q]; k < this.partStart[q + 1] && all === 1; k++) if (this.inPart[p * nc + this.partNodes[k]] === 0) all = 0
        this.within[q * P + p] = all
      }
    }
    this.live = new Int32Array(Math.min(n, totalCpu))
    this.livePos = new Int32Array(n).fill(-1)
    this.keys = new Float64Array(nc)
    this.cand = new Float64Array(nc)
    this.touchedList = new Int32Array(nc)
    this.specialList = new Int32Array(nc)
    this.specialMark = new Int32Array(nc)
  }

  // ---- Free-CPU buckets ----------------------------------------------------------------------

  private setBit(p: number, b: number, pos: number): void {
    const w = pos >>> 5
    this.bits[this.bitBase[p] + b * this.words[p] + w] |= 1 << (pos & 31)
    this.summary[this.sumBase[p] + b * this.sums[p] + (w >>> 5)] |= 1 << (w & 31)
  }

  /**
   * Position pos of layer p moves from bucket `from` to bucket `to` (from ≠ to), and in or out of the
   * "has free CPUs" bucket when either is 0, with the indices computed once.
   * A summary bit is set exactly when its word is not zero, so it is written only when that changes.
   */
  private moveBit(p: number, from: number, to: number, pos: number): void {
    const bits = this.bits, summary = this.summary
    const w = pos >>> 5, m = 1 << (pos & 31), sm = 1 << (w & 31)
    const W = this.words[p], S = this.sums[p]
    const bb = this.bitBase[p] + w, sb = this.sumBase[p] + (w >>> 5)
    let x = bb + from * W
    let v = bits[x] & ~m
    bits[x] = v
    if (v === 0) summary[sb + from * S] &= ~sm
    x = bb + to * W
    v = bits[x]
    bits[x] = v | m
    if (v === 0) summary[sb + to * S] |= sm
    if (from === 0 || to === 0) {
      const NF = this.histStride
      x = bb + NF * W
      v = bits[x]
      if (from === 0) {
        bits[x] = v | m
        if (v === 0) summary[sb + NF * S] |= sm
      } else {
        v &= ~m
        bits[x] = v
        if (v === 0) summary[sb + NF * S] &= ~sm
      }
    }
  }

  /** The first position in [from, to) of bucket b of partition p, or -1. */
  private nextSet(p: number, b: number, from: number, to: number): number {
    if (from >= to) return -1
    const bits = this.bits, summary = this.summary
    const base = this.bitBase[p] + b * this.words[p], sbase = this.sumBase[p] + b * this.sums[p]
    let w = from >>> 5
    let word = bits[base + w] & (-1 << (from & 31))
    for (;;) {
      if (word !== 0) {
        const pos = (w << 5) + (31 - Math.clz32(word & -word))
        return pos < to ? pos : -1
      }
      w++
      if (w << 5 >= to) return -1
      let sidx = w >>> 5
      let sw = summary[sbase + sidx] & (-1 << (w & 31))
      while (sw === 0) {
        sidx++
        if (sidx << 10 >= to) return -1
        sw = summary[sbase + sidx]
      }
      w = (sidx << 5) + (31 - Math.clz32(sw & -sw))
      if (w << 5 >= to) return -1
      word = bits[base + w]
    }
  }

  /** Jobs holding resources now. */
  get runningCount(): number { return this.liveLen }

  /** VIEW_CAPPED's CPUs of node i. */
  private cvOf(i: number): number {
    const f = this.freeCpu[i]
    if (this.stamp[i] !== this.epoch) return f
    const sc = this.sCpu[i]
    return sc < f ? sc : f
  }

  /** Node i's VIEW_CAPPED CPUs went from oldCv to newCv: move it between the capped buckets. */
  private moveCapped(i: number, oldCv: number, newCv: number): void {
    if (oldCv === newCv) return
    if (!this.cappedLive) {
      // Every node is at its free CPUs until one goes below: only then is the capped layer needed.
      if (newCv >= this.freeCpu[i]) return
      this.syncCapped()
      oldCv = this.freeCpu[i]
    }
    const P = this.partitionCount, NF = this.histStride
    for (let k = this.nodePartStart[i]; k < this.nodePartStart[i + 1]; k++) {
      const p = this.nodeParts[k], q = P + p, pos = this.nodePos[k]
      this.moveBit(q, oldCv, newCv, pos)
      this.partCappedCpu[p] += newCv - oldCv
      this.histCapped[p * NF + oldCv]--
      this.histCapped[p * NF + newCv]++
    }
  }

  /** The capped layer becomes a copy of the free layer (every node at its free CPUs) and is kept
   * up to date from now until the next scratchBegin. */
  private syncCapped(): void {
    const P = this.partitionCount
    this.bits.copyWithin(this.bitBase[P], 0, this.bitBase[P])
    this.summary.copyWithin(this.sumBase[P], 0, this.sumBase[P])
    this.partCappedCpu.set(this.partFreeCpu)
    this.histCapped.set(this.hist)
    this.cappedLive = true
  }

  /** Hides the nodes marked 1 from every view (null: none). The array is read, not copied. */
  setExclude(mask: Uint8Array | null): void { this.exclude = mask; this.version++ }

  // ---- Views -------------------------------------------------------------------------------

  private cpuIn(i: number, view: View): number {
    if (view === VIEW_FREE) return this.freeCpu[i]
    if (view === VIEW_EMPTY) return this.capCpu[i]
    const s = this.stamp[i] === this.epoch ? this.sCpu[i] : this.freeCpu[i]
    return view === VIEW_SHADOW || s < this.freeCpu[i] ? s : this.freeCpu[i]
  }

  private memIn(i: number, view: View): number {
    if (view === VIEW_FREE) return this.freeMem[i]
    if (view === VIEW_EMPTY) return this.capMem[i]
    const s = this.stamp[i] === this.epoch ? this.sMem[i] : this.freeMem[i]
    return view === VIEW_SHADOW || s < this.freeMem[i] ? s : this.freeMem[i]
  }

  private gpuIn(i: number, view: View): number {
    if (view === VIEW_FREE) return this.freeGpu[i]
    if (view === VIEW_EMPTY) return this.capGpu[i]
    const s = this.stamp[i] === this.epoch ? this.sGpu[i] : this.freeGpu[i]
    return view === VIEW_SHADOW || s < this.freeGpu[i] ? s : this.freeGpu[i]
  }

  /** Free CPUs of node i in a view (for callers that inspect the state). */
  cpusAvailable(i: number, view: View): number { return this.cpuIn(i, view) }
  memAvailable(i: number, view: View): number { return this.memIn(i, view) }
  gpusAvailable(i: number, view: View): number { return this.gpuIn(i, view) }

  /**
   * CPUs job j takes on node i in the view if it can use that node, else 0 (memory taken left in
   * lastMem). N-node jobs: exactly their per-node CPUs (rounded to cores; a whole node's CPUs).
   * Flexible jobs: every CPU they could use there (the caller takes what it needs).
   */
  private take(j: number, i: number, view: View): number {
    const d = this.demand
    const ex = this.exclude
    if (ex !== null && ex[i] !== 0) return 0
    // GPUs first: a node short of GPUs is out whatever its CPUs.
    const g = d.gpus[j]
    if (g > 0 && this.gpuIn(i, view) < g) return 0
    const cap = this.capCpu[i]
    const free = this.cpuIn(i, view)
    const memAll = d.memAll[j] !== 0
    const mNode = d.memPerNode[j], mCpu = d.memPerCpu[j]
    const fixed = d.nodes[j] > 0
    let c: number
    if (d.whole[j] !== 0) {
      if (free !== cap || (fixed && cap < d.cpus[j])) return 0
      c = cap
      if (memAll) {
        if (this.memIn(i, view) !== this.capMem[i]) return 0
        this.lastMem = this.capMem[i]
      } else if (mNode > 0 || mCpu > 0) {
        // Whole node: the per-CPU memory counts the CPUs the job asked for, capped at the node's.
        let m = mNode + mCpu * (fixed ? d.cpus[j] : Math.min(d.cpus[j], cap))
        if (m > this.capMem[i]) m = this.capMem[i]
        if (this.memIn(i, view) < m) return 0
        this.lastMem = m
      } else this.lastMem = 0
      return c
    }
    const unit = this.unitCpu[i]
    if (fixed) {
      c = d.cpus[j]
      if (unit > 1) c = Math.ceil(c / unit) * unit
      if (c > free) return 0
    } else {
      c = unit > 1 ? free - (free % unit) : free
      if (c <= 0) return 0
    }
    if (memAll) {
      if (this.memIn(i, view) !== this.capMem[i]) return 0
      this.lastMem = this.capMem[i]
    } else if (mNode > 0 || mCpu > 0) {
      const mem = this.memIn(i, view)
      if (fixed) {
        const m = mNode + mCpu * c
        if (m > mem) return 0
        this.lastMem = m
      } else {
        if (mNode > mem) return 0
        if (mCpu > 0) {
          let byMem = Math.floor((mem - mNode) / mCpu)
          if (unit > 1) byMem -= byMem % unit
          if (byMem < c) c = byMem
          if (c <= 0) return 0
        }
        this.lastMem = mNode + mCpu * c
      }
    } else this.lastMem = 0
    return c
  }

  private prefOf(i: number, pref: Pref): number {
    const f = this.freeCpu[i]
    if (pref === PREF_BUSY_NOW || this.stamp[i] !== this.epoch) return f
    return this.sCpu[i] < f ? this.sCpu[i] : f // PREF_RESERVED: the CPUs usable now beside the reservation
  }

  /** Node i joins the special list when its scratch is below its free state on some resource. */
  private checkSpecial(i: number): void {
    if (this.specialMark[i] !== this.epoch && this.stamp[i] === this.epoch &&
      (this.sCpu[i] < this.freeCpu[i] || this.sMem[i] < this.freeMem[i] || this.sGpu[i] < this.freeGpu[i])) {
      this.specialMark[i] = this.epoch
      this.specialList[this.specialLen++] = i
    }
  }

  // ---- Quick reject and selection ------------------------------------------------------------

  /**
   * True when job j certainly cannot start now (VIEW_FREE), from the per-partition totals alone:
   * too few free CPUs or GPUs in its partition, too few idle nodes for a whole-node job, or no node
   * with enough free CPUs for a per-node share. False means "scan the nodes".
   */
  quickReject(j: number): boolean {
    const d = this.demand
    const p = d.partition[j]
    const nn = d.nodes[j]
    if (nn > 0) {
      if (d.whole[j] !== 0) { if (this.partIdle[p] < nn) return true } else if (d.cpus[j] > this.partMaxFree[p]) return true
      if (nn * d.cpus[j] > this.partFreeCpu[p]) return true
      if (d.gpus[j] > 0 && nn * d.gpus[j] > this.partFreeGpu[p]) return true
      return nn > 1 && d.whole[j] === 0 && this.nodesWith(this.hist, p, d.cpus[j], nn) < nn
    }
    if (d.whole[j] !== 0 && this.partIdle[p] === 0) return true
    return d.cpus[j] > this.partFreeCpu[p]
  }

  /** True when job j certainly cannot start in VIEW_CAPPED: its partition's capped CPUs are too few. */
  cappedReject(j: number): boolean {
    const d = this.demand
    const nn = d.nodes[j]
    const p = d.partition[j]
    if ((nn > 0 ? nn * d.cpus[j] : d.cpus[j]) > (this.cappedLive ? this.partCappedCpu[p] : this.partFreeCpu[p])) return true
    return nn > 0 && d.whole[j] === 0 && this.nodesWith(this.cappedLive ? this.histCapped : this.hist, p, d.cpus[j], nn) < nn
  }

  /** How many nodes of partition p have at least c CPUs in `hist` (counting stops at `enough`). */
  private nodesWith(hist: Int32Array, p: number, c: number, enough: number): number {
    const stride = this.histStride, h = p * stride
    let k = 0
    for (let x = stride - 1; x >= c && k < enough; x--) k += hist[h + x]
    return k
  }

  /**
   * Can job j start on its partition's nodes in `view`? If so, fills `out` with the nodes (by the
   * best-fit rule above; `pref` breaks ties before the index) and answers true. No quick reject
   * here: callers on VIEW_FREE call quickReject first. `unordered`: an N-node job's nodes may come
   * in any order (the same set; for callers that need the set only, as a reservation).
   *
   * Fast path: the partition's nodes are visited by free-CPU bucket (weight group, then free CPUs,
   * then index: the best-fit order itself), so a one-node job looks at the nodes with just enough
   * free CPUs first and stops at the first that passes every test. Nodes touched in the scratch
   * (released, reserved, pinned: usually few) have other values in VIEW_SHADOW/VIEW_CAPPED and
   * under a preference; they are keyed one by one and merged into the bucket order. The result is
   * the one selectScan (a plain scan of every node, kept as the reference) gives.
   */
  select(j: number, view: View, pref: Pref, out: Selection, unordered = false): boolean {
    if (view === VIEW_EMPTY) return this.selectScan(j, view, pref, out)
    const d = this.demand
    const p = d.partition[j]
    const start = this.partStart[p]
    const pn = this.partNodes, wr = this.weightRank, keys = this.keys
    // Nodes whose key differs from their bucket's: in VIEW_SHADOW every touched node; in VIEW_FREE
    // under PREF_RESERVED (and VIEW_CAPPED under PREF_BUSY_NOW) the nodes below the free state
    // (reserved); none otherwise.
    const useTouched = view === VIEW_SHADOW
    const split = useTouched || (view === VIEW_FREE && pref === PREF_RESERVED) || (view === VIEW_CAPPED && pref === PREF_BUSY_NOW)
    // VIEW_CAPPED visits the capped buckets (layer P + p), where every node sits at its capped CPUs.
    const layer = view === VIEW_CAPPED && this.cappedLive ? this.partitionCount + p : p
    // The layer's node counts per bucket: empty buckets are skipped without a bit search.
    const lh = layer === p ? this.hist : this.histCapped, h0 = p * this.histStride
    const tl = useTouched ? this.touchedList : this.specialList
    const tlen = split ? (useTouched ? this.touchedLen : this.specialLen) : 0
    const mark = useTouched ? this.stamp : this.specialMark
    const nn = d.nodes[j]
    const maxC = this.histStride - 1
    // An N-node job asking for CPUs only (no cores to round, memory, GPUs, whole node or mask) can
    // use a node exactly when the view has its CPUs there, and takes just those: take() is not needed.
    const cpuOnly = nn > 0 && this.unitOne && this.exclude === null && d.whole[j] === 0 && d.gpus[j] === 0 &&
      d.memAll[j] === 0 && d.memPerNode[j] === 0 && d.memPerCpu[j] === 0
    const per = d.cpus[j]
    out.len = 0
    // Those nodes of this partition that the job can use, keyed.
    let nt = 0
    if (split) {
      const base = p * this.nodeCount
      for (let k = 0; k < tlen; k++) {
        const i = tl[k]
        if (this.inPart[base + i] === 0) continue
        const c = this.cpuIn(i, view)
        if (cpuOnly ? c < per : this.take(j, i, view) === 0) continue
        const pv = pref === PREF_NONE ? 0 : this.prefOf(i, pref)
        keys[nt++] = nn > 0
          ? wr[i] * KEY_CPU + (c < SAT13 ? c : SAT13) * KEY_PREF + (pv < SAT13 ? pv : SAT13) * KEY_INDEX + i
          : pref === PREF_NONE ? wr[i] * KEY_CPU + i : wr[i] * KEY_CPU + (pv < SAT13 ? pv : SAT13) * KEY_INDEX + i
      }
      // A min-heap: the merges below pop only as many as they take (not needed for an unordered set).
      if (!(unordered && nn > 0)) for (let k = (nt >> 1) - 1; k >= 0; k--) siftDownMin(keys, k, nt)
    }
    const epoch = this.epoch
    const g0 = this.pgStart[p], g1 = this.pgStart[p + 1]
    if (nn > 0) {
      const cMin = d.cpus[j]
      // Untouched candidates in key order: weight group, free CPUs, index. Their key under a
      // preference is (weight, c, c, index): the bucket order too.
      let found = 0
      const want = nn === 1 ? 1 : nn
      const cand = this.cand
      for (let g = g0; g < g1 && found < want; g++) {
        const lo = this.groupPos[g], hi = g + 1 < g1 ? this.groupPos[g + 1] : this.partStart[p + 1] - start
        for (let c = cMin; c <= maxC && found < want; c++) {
          if (lh[h0 + c] === 0) continue
          for (let pos = this.nextSet(layer, c, lo, hi); pos >= 0 && found < want; pos = this.nextSet(layer, c, pos + 1, hi)) {
            const i = pn[start + pos]
            if (split && mark[i] === epoch) continue
            if (!cpuOnly && this.take(j, i, view) === 0) continue // (cpuOnly: its bucket holds c ≥ per CPUs)
            const pv = pref === PREF_NONE ? 0 : c
            cand[found++] = wr[i] * KEY_CPU + (c < SAT13 ? c : SAT13) * KEY_PREF + (pv < SAT13 ? pv : SAT13) * KEY_INDEX + i
          }
        }
      }
      if (found + nt < nn) return false
      if (unordered) {
        // The same nn nodes in no particular order: the candidates join the keys, and a selection
        // (linear on average) replaces nn pops of the heap — the reservation of a job on thousands
        // of nodes (earliest) needs its set only.
        for (let b = 0; b < found; b++) keys[nt + b] = cand[b]
        smallestSet(keys, nt + found, nn)
        for (let k = 0; k < nn; k++) {
          const i = nodeOfKey(keys[k])
          if (cpuOnly) this.put(out, j, i, per, 0)
          else this.put(out, j, i, this.take(j, i, view), this.lastMem)
        }
        return true
      }
      // Merge the heap with the ascending candidates, take the nn smallest.
      let b = 0
      for (let k = 0; k < nn; k++) {
        let key: number
        if (nt > 0 && (b >= found || keys[0] < cand[b])) { key = keys[0]; nt = popMin(keys, nt) } else key = cand[b++]
        const i = nodeOfKey(key)
        if (cpuOnly) this.put(out, j, i, per, 0)
        else this.put(out, j, i, this.take(j, i, view), this.lastMem)
      }
      return true
    }
    // Flexible: greedy in (weight, index) order, or (weight, pref, index) under a preference.
    let rem = d.cpus[j]
    if (pref === PREF_NONE) {
      const NF = this.histStride // the "has free CPUs" set
      const nP = this.partStart[p + 1] - start
      for (let pos = this.nextSet(layer, NF, 0, nP); pos >= 0 && rem > 0; pos = this.nextSet(layer, NF, pos + 1, nP)) {
        const i = pn[start + pos]
        if (split && mark[i] === epoch) continue
        const key = wr[i] * KEY_CPU + i
        while (nt > 0 && keys[0] < key && rem > 0) { const i2 = nodeOfKey(keys[0]); nt = popMin(keys, nt); rem = this.takeFlexible(out, j, i2, view, rem) }
        if (rem > 0) rem = this.takeFlexible(out, j, i, view, rem)
      }
    } else {
      for (let g = g0; g < g1 && rem > 0; g++) {
        const lo = this.groupPos[g], hi = g + 1 < g1 ? this.groupPos[g + 1] : this.partStart[p + 1] - start
        for (let c = 1; c <= maxC && rem > 0; c++) {
          if (lh[h0 + c] === 0) continue
          for (let pos = this.nextSet(layer, c, lo, hi); pos >= 0 && rem > 0; pos = this.nextSet(layer, c, pos + 1, hi)) {
            const i = pn[start + pos]
            if (split && mark[i] === epoch) continue
            const key = wr[i] * KEY_CPU + (c < SAT13 ? c : SAT13) * KEY_INDEX + i
            while (nt > 0 && keys[0] < key && rem > 0) { const i2 = nodeOfKey(keys[0]); nt = popMin(keys, nt); rem = this.takeFlexible(out, j, i2, view, rem) }
            if (rem > 0) rem = this.takeFlexible(out, j, i, view, rem)
          }
        }
      }
    }
    while (nt > 0 && rem > 0) { const i2 = nodeOfKey(keys[0]); nt = popMin(keys, nt); rem = this.takeFlexible(out, j, i2, view, rem) }
    if (rem > 0) { out.len = 0; return false }
    return true
  }

  /** Whether job j could ever run on its partition (every node empty): select(VIEW_EMPTY)'s
   * answer, memoized by the job's demand — on an empty machine nothing else can change it while no
   * node is excluded. Slurm's scheduler asks it for every job it admits: a scan of the partition's
   * nodes per job was most of its time (docs/PERFORMANCE.md). `out` is filled only when computed. */
  fitsEmpty(j: number, out: Selection): boolean {
    if (this.exclude !== null) return this.selectScan(j, VIEW_EMPTY, PREF_NONE, out)
    const d = this.demand
    // A hash of the demand picks a short list of earlier jobs with their answers; a job whose
    // every demand column equals this one's gives the answer (no string built per job).
    let h = Math.imul(d.partition[j] + 1, 0x9e3779b1) ^ d.nodes[j]
    h = Math.imul(h, 0x85ebca6b) ^ d.cpus[j]
    h = Math.imul(h, 0xc2b2ae35) ^ (d.gpus[j] | (d.whole[j] << 24) | (d.memAll[j] << 25))
    h = Math.imul(h, 0x27d4eb2f) ^ (d.memPerNode[j] | 0)
    h = Math.imul(h, 0x165667b1) ^ ((d.memPerCpu[j] * 16) | 0)
    const slot = (h ^ (h >>> 15)) & (EMPTY_SLOTS - 1)
    const last = this.emptySlotJob[slot]
    if (last >= 0 && this.sameDemand(last, j)) return this.emptySlotOk[slot] === 1
    const ok = this.fitsEmptyMemo(j, h, out)
    this.emptySlotJob[slot] = j
    this.emptySlotOk[slot] = ok ? 1 : 0
    return ok
  }

  /** fitsEmpty's full memo: the earlier jobs of hash h compared column by column, else the scan. */
  private fitsEmptyMemo(j: number, h: number, out: Selection): boolean {
    const seen = this.emptyFits.get(h)
    if (seen !== undefined) {
      for (let k = 0; k < seen.length; k += 2) if (this.sameDemand(seen[k], j)) return seen[k + 1] === 1
    }
    const ok = this.selectScan(j, VIEW_EMPTY, PREF_NONE, out)
    if (seen !== undefined) seen.push(j, ok ? 1 : 0)
    else this.emptyFits.set(h, [j, ok ? 1 : 0])
    return ok
  }

  /** Whether jobs r and j have the same demand in every input of the empty-machine test. */
  private sameDemand(r: number, j: number): boolean {
    const d = this.demand
    return d.partition[r] === d.partition[j] && d.nodes[r] === d.nodes[j] && d.cpus[r] === d.cpus[j] && d.whole[r] === d.whole[j] &&
      d.memPerNode[r] === d.memPerNode[j] && d.memPerCpu[r] === d.memPerCpu[j] && d.memAll[r] === d.memAll[j] && d.gpus[r] === d.gpus[j]
  }

  /** The reference selection: a plain scan of every node of the partition (VIEW_EMPTY uses it;
   * the tests check that select gives the same nodes). Same rules and result as select. */
  selectScan(j: number, view: View, pref: Pref, out: Selection): boolean {
    const d = this.demand
    const p = d.partition[j]
    const start = this.partStart[p], end = this.partStart[p + 1]
    const pn = this.partNodes, wr = this.weightRank
    const nn = d.nodes[j]
    out.len = 0
    if (nn === 1) {
      // One node: the sufficient node with the fewest usable CPUs; weight groups first; ties by pref, then index.
      let best = -1, bestW = 0, bestC = 0, bestP = 0, bestTake = 0, bestMem = 0
      for (let k = start; k < end; k++) {
        const i = pn[k]
        if (best >= 0 && wr[i] > bestW) break // a lower weight group already has a sufficient node
        const t = this.take(j, i, view)
        if (t === 0) continue
        const c = this.cpuIn(i, view)
        const pv = pref === PREF_NONE ? 0 : this.prefOf(i, pref)
        if (best < 0 || c < bestC || (c === bestC && (pv < bestP || (pv === bestP && i < best)))) {
          best = i; bestW = wr[i]; bestC = c; bestP = pv; bestTake = t; bestMem = this.lastMem
        }
      }
      if (best < 0) return false
      this.put(out, j, best, bestTake, bestMem)
      return true
    }
    if (nn > 1) {
      // N nodes: the N sufficient nodes of smallest (weight, usable CPUs, pref, index).
      const keys = this.keys
      let k2 = 0
      for (let k = start; k < end; k++) {
        const i = pn[k]
        if (this.take(j, i, view) === 0) continue
        const c = this.cpuIn(i, view)
        const pv = pref === PREF_NONE ? 0 : this.prefOf(i, pref)
        keys[k2++] = wr[i] * KEY_CPU + (c < SAT13 ? c : SAT13) * KEY_PREF + (pv < SAT13 ? pv : SAT13) * KEY_INDEX + i
      }
      if (k2 < nn) return false
      smallestFirst(keys, k2, nn)
      for (let k = 0; k < nn; k++) {
        const i = nodeOfKey(keys[k])
        const t = this.take(j, i, view)
        this.put(out, j, i, t, this.lastMem)
      }
      return true
    }
    // Flexible: CPUs greedily over the nodes, in (weight, index) order, or (weight, pref, index).
    let rem = d.cpus[j]
    if (pref === PREF_NONE) {
      for (let k = start; k < end && rem > 0; k++) {
        const i = pn[k]
        rem = this.takeFlexible(out, j, i, view, rem)
      }
    } else {
      const keys = this.keys
      let k2 = 0, sum = 0
      for (let k = start; k < end; k++) {
        const i = pn[k]
        const t = this.take(j, i, view)
        if (t === 0) continue
        sum += t
        const pv = this.prefOf(i, pref)
        keys[k2++] = wr[i] * KEY_CPU + (pv < SAT13 ? pv : SAT13) * KEY_INDEX + i
      }
      if (sum < rem) return false
      smallestFirst(keys, k2, k2)
      for (let k = 0; k < k2 && rem > 0; k++) rem = this.takeFlexible(out, j, nodeOfKey(keys[k]), view, rem)
    }
    if (rem > 0) { out.len = 0; return false }
    return true
  }

  /** Flexible job: take what it still needs (rounded up to cores) of what node i offers. */
  private takeFlexible(out: Selection, j: number, i: number, view: View, rem: number): number {
    const t = this.take(j, i, view)
    if (t === 0) return rem
    const d = this.demand
    let c = t
    if (d.whole[j] === 0 && rem < t) {
      const unit = this.unitCpu[i]
      c = unit > 1 ? Math.ceil(rem / unit) * unit : rem
      if (c > t) c = t
      if (d.memAll[j] === 0) this.lastMem = d.memPerNode[j] + d.memPerCpu[j] * c
    }
    this.put(out, j, i, c, this.lastMem)
    return rem - c
  }

  private put(out: Selection, j: number, i: number, c: number, m: number): void {
    const k = out.len++
    out.nodes[k] = i; out.cpus[k] = c; out.mem[k] = m; out.gpus[k] = this.demand.gpus[j]
  }

  /** quickReject then select on the current free state, with no preference. */
  fitsNow(j: number, out: Selection): boolean {
    return !this.quickReject(j) && this.select(j, VIEW_FREE, PREF_NONE, out)
  }

  // ---- Allocation ----------------------------------------------------------------------------

  /** Job j takes what `sel` says (a selection made for it on the current state). */
  allocate(j: number, sel: Selection): void {
    if (this.allocOff[j] >= 0) throw new MachineError(`job index ${j} is already running`)
    const len = sel.len
    this.version++
    if (this.poolTop + len > this.poolNode.length) this.compact()
    const off = this.poolTop
    this.poolTop += len
    this.allocOff[j] = off; this.allocLen[j] = len
    const sn = sel.nodes, sc = sel.cpus, sm = sel.mem, sg = sel.gpus
    const pn = this.poolNode, pc = this.poolCpu, pm = this.poolMem, pg = this.poolGpu
    let total = 0
    for (let k = 0; k < len; k++) {
      const c = sc[k]
      total += c
      pn[off + k] = sn[k]; pc[off + k] = c; pm[off + k] = sm[k]; pg[off + k] = sg[k]
    }
    this.allocCpuTotal[j] = total
    this.changeAll(pn, pc, pm, pg, off, off + len, false)
    this.livePos[j] = this.liveLen
    this.live[this.liveLen++] = j
  }

  /** Job j gives back everything it holds. */
  release(j: number): void {
    const off = this.allocOff[j], len = this.allocLen[j]
    if (off < 0) throw new MachineError(`job index ${j} is not running`)
    this.version++
    this.changeAll(this.poolNode, this.poolCpu, this.poolMem, this.poolGpu, off, off + len, true)
    this.allocOff[j] = -1; this.allocLen[j] = 0
    const pos = this.livePos[j], last = this.live[--this.liveLen]
    this.live[pos] = last; this.livePos[last] = pos; this.livePos[j] = -1
  }

  /** The allocation of a running job: entries [allocOff[j], allocOff[j] + allocLen[j]) of these columns. */
  allocNode(k: number): number { return this.poolNode[k] }
  allocCpus(k: number): number { return this.poolCpu[k] }
  allocMem(k: number): number { return this.poolMem[k] }
  allocGpus(k: number): number { return this.poolGpu[k] }

  /**
   * Entries [from, to) of an allocation (nodes, CPUs, memory, GPUs) are taken (`back` false) or
   * given back (`back` true): the free state of each node, its jobs, and the totals, counts and
   * free-CPU buckets of each partition holding it. One loop with the columns read once (this is
   * the cost of starting and ending jobs: their nodes times their nodes' partitions).
   */
  private changeAll(nodeA: Int32Array, cpuA: Int32Array, memA: Float64Array, gpuA: Int32Array, from: number, to: number, back: boolean): void {
    const freeCpu = this.freeCpu, freeMem = this.freeMem, freeGpu = this.freeGpu, capCpu = this.capCpu, jobsOn = this.jobsOn
    const stamp = this.stamp, epoch = this.epoch
    const nps = this.nodePartStart, nodeParts = this.nodeParts, nodePos = this.nodePos
    const partFreeCpu = this.partFreeCpu, partFreeGpu = this.partFreeGpu, partIdle = this.partIdle, partMaxFree = this.partMaxFree
    const hist = this.hist, stride = this.histStride
    let totalFree = this.totalFreeCpu
    for (let e = from; e < to; e++) {
      const i = nodeA[e]
      // 0 − x, not −x: −0 is not a small integer and slows the arithmetic below.
      const dc = back ? cpuA[e] : 0 - cpuA[e], dm = back ? memA[e] : -memA[e], dg = back ? gpuA[e] : 0 - gpuA[e]
      const cap = capCpu[i]
      const old = freeCpu[i], now = old + dc
      if (now < 0 || now > cap) throw new MachineError(`node ${this.cluster.nodes[i].name} would have ${now} free CPUs of ${cap}`)
      const stamped = stamp[i] === epoch
      if (stamped) {
        const oldCv = this.cvOf(i)
        freeCpu[i] = now
        this.moveCapped(i, oldCv, this.cvOf(i))
      } else {
        // Untouched by the scratch: its capped CPUs are its free CPUs (moved only while the layer is kept).
        freeCpu[i] = now
        if (this.cappedLive && old !== now) this.moveCapped(i, old, now)
      }
      freeMem[i] += dm
      freeGpu[i] += dg
      totalFree += dc
      jobsOn[i] += back ? -1 : 1
      const k0 = nps[i], k1 = nps[i + 1]
      if (old === now) {
        if (dg !== 0) for (let k = k0; k < k1; k++) partFreeGpu[nodeParts[k]] += dg
      } else {
        for (let k = k0; k < k1; k++) {
          const p = nodeParts[k]
          this.moveBit(p, old, now, nodePos[k])
          partFreeCpu[p] += dc
          partFreeGpu[p] += dg
          if (old === cap) partIdle[p]--
          if (now === cap) partIdle[p]++
          const h = p * stride
          hist[h + old]--
          hist[h + now]++
          if (now > partMaxFree[p]) partMaxFree[p] = now
          else if (old === partMaxFree[p]) {
            let c = old
            while (c > 0 && hist[h + c] === 0) c--
            partMaxFree[p] = c
          }
        }
      }
      if (back && stamped) this.checkSpecial(i)
    }
    this.totalFreeCpu = totalFree
  }

  private compact(): void {
    const on = this.altNode, oc = this.altCpu, om = this.altMem, og = this.altGpu
    let top = 0
    for (let r = 0; r < this.liveLen; r++) {
      const j = this.live[r]
      const off = this.allocOff[j], len = this.allocLen[j]
      on.set(this.poolNode.subarray(off, off + len), top)
      oc.set(this.poolCpu.subarray(off, off + len), top)
      om.set(this.poolMem.subarray(off, off + len), top)
      og.set(this.poolGpu.subarray(off, off + len), top)
      this.allocOff[j] = top
      top += len
    }
    this.altNode = this.poolNode; this.altCpu = this.poolCpu; this.altMem = this.poolMem; this.altGpu = this.poolGpu
    this.poolNode = on; this.poolCpu = oc; this.poolMem = om; this.poolGpu = og
    this.poolTop = top
  }

  // ---- Scratch: the state at a future time ---------------------------------------------------

  /** Starts a new VIEW_SHADOW equal to the current free state (O(1)). */
  scratchBegin(): void {
    // The capped view equals the free state again: its layer is dropped until a node goes below.
    this.cappedLive = false
    this.touchedLen = 0
    this.specialLen = 0
    this.epoch++
    if (this.epoch === 0x7fffffff) { this.stamp.fill(0); this.specialMark.fill(0); this.epoch = 1 }
  }

  private touch(i: number): void {
    if (this.stamp[i] !== this.epoch) {
      this.stamp[i] = this.epoch
      this.touchedList[this.touchedLen++] = i
      this.sCpu[i] = this.freeCpu[i]; this.sMem[i] = this.freeMem[i]; this.sGpu[i] = this.freeGpu[i]
    }
  }

  /** In VIEW_SHADOW, running job j has ended (its resources are free again). */
  scratchRelease(j: number): void {
    const off = this.allocOff[j], end = off + this.allocLen[j]
    for (let k = off; k < end; k++) {
      const i = this.poolNode[k]
      this.touch(i)
      const f = this.freeCpu[i], s0 = this.sCpu[i], s1 = s0 + this.poolCpu[k]
      this.sCpu[i] = s1; this.sMem[i] += this.poolMem[k]; this.sGpu[i] += this.poolGpu[k]
      // VIEW_CAPPED's CPUs are min(scratch, free) (cvOf): a release moves them only while the
      // scratch is below the free state (after a reservation took CPUs there), never otherwise.
      if (s0 < f) this.moveCapped(i, s0, s1 < f ? s1 : f)
    }
  }

  /** In VIEW_SHADOW, `sel` is taken (a reservation: VIEW_SHADOW then holds what is left beside it). */
  scratchTake(sel: Selection): void {
    for (let k = 0; k < sel.len; k++) {
      const i = sel.nodes[k]
      this.touch(i)
      const oldCv = this.cvOf(i)
      this.sCpu[i] -= sel.cpus[k]; this.sMem[i] -= sel.mem[k]; this.sGpu[i] -= sel.gpus[k]
      this.checkSpecial(i)
      this.moveCapped(i, oldCv, this.cvOf(i))
    }
  }

  /**
   * Before allocating `sel` now: pins VIEW_SHADOW on its nodes to their state before the
   * allocation (a job that ends before the shadow time leaves the shadow state as it was; a job
   * that runs past it is then subtracted with scratchTake).
   */
  scratchPin(sel: Selection): void {
    for (let k = 0; k < sel.len; k++) this.touch(sel.nodes[k])
  }

  /** True when job j can use node i in the view (fixed N: it is sufficient; flexible: it offers CPUs). */
  usable(j: number, i: number, view: View): number { return this.take(j, i, view) }

  /** True when job j asks for CPUs only and may spread them (flexible, no core rounding, memory,
   * GPUs, whole nodes or mask): it fits exactly when its partition has enough free CPUs. */
  isCountOnly(j: number): boolean {
    return this.demand.nodes[j] === 0 && this.exclude === null && this.cpusOnly(j)
  }

  /** True when job j asks for CPUs only (no memory, GPUs or whole nodes) on a machine without core
   * rounding: on a node it is not excluded from, usable(j, i, view) is then the node's free CPUs in
   * the view (flexible: at least 0) or, with N nodes, its CPUs per node when that many are free, else 0. */
  cpusOnly(j: number): boolean {
    const d = this.demand
    return this.unitOne && d.whole[j] === 0 && d.gpus[j] === 0 && d.memAll[j] === 0 && d.memPerNode[j] === 0 && d.memPerCpu[j] === 0
  }

  /** Extra CPUs at the shadow time left by the last earliestCount. */
  extraCount = 0

  /**
   * earliest() for a job with isCountOnly(j): the single pool's rule within its partition, no
   * scratch and no node choice — the shadow time is the first estimated end (clamped to now) at
   * which the partition's free CPUs plus those released reach the job's; `extraCount` = the CPUs of
   * the partition free at that time beyond the job's (every job ending by then counts). `order`,
   * `len` and `ends` as for earliest().
   */
  earliestCount(j: number, now: number, order: Int32Array, len: number, ends: Float64Array): number {
    const p = this.demand.partition[j], need = this.demand.cpus[j]
    const base = p * this.nodeCount, inPart = this.inPart
    let have = this.partFreeCpu[p]
    let r = 0
    let shadow = have >= need ? now : Infinity
    const P = this.partitionCount, within = this.within, part = this.demand.partition
    while (r < len) {
      const e0 = ends[r] > now ? ends[r] : now
      if (e0 > shadow) break
      for (; r < len && (ends[r] > now ? ends[r] : now) === e0; r++) {
        const job = order[r]
        // A job of a partition inside p gives back all its CPUs to p: no need to look at its nodes.
        if (within[part[job] * P + p] !== 0) { have += this.allocCpuTotal[job]; continue }
        for (let k = this.allocOff[job], end = k + this.allocLen[job]; k < end; k++) {
          if (inPart[base + this.poolNode[k]] !== 0) have += this.poolCpu[k]
        }
      }
      if (have >= need && shadow === Infinity) shadow = e0
    }
    if (shadow === Infinity) throw new MachineError(`job index ${j} does not fit partition ${this.cluster.partitions[p].name} even when every running job has ended`)
    this.extraCount = have - need
    return shadow
  }

  /** True when every node of partition q is in partition p. */
  partitionWithin(q: number, p: number): boolean { return this.within[q * this.partitionCount + p] !== 0 }

  /** CPUs job j asks for in all (N × per node, or the flexible total), before core rounding. */
  cpusAsked(j: number): number {
    const d = this.demand
    return d.nodes[j] > 0 ? d.nodes[j] * d.cpus[j] : d.cpus[j]
  }

  /** CPUs that `sel` takes on the nodes of partition p. */
  cpusIn(sel: Selection, p: number): number {
    const base = p * this.nodeCount
    let c = 0
    for (let k = 0; k < sel.len; k++) if (this.inPart[base + sel.nodes[k]] !== 0) c += sel.cpus[k]
    return c
  }

  /**
   * When could job j start if the running jobs ended at their estimated ends? `order[0..len)` are
   * the running jobs sorted by estimated end, `ends[r]` the estimated end of `order[r]` (the running
   * list's slots, running.ts ByEstimatedEnd); they are released into VIEW_SHADOW group by
   * group (equal ends, clamped to `now`, together) and j is tested after each group. Returns the
   * shadow time (≥ now) and fills `out` with the nodes j would use then (an N-node job's in no particular order), chosen with
   * PREF_BUSY_NOW; VIEW_SHADOW then holds what is left on each node beside that reservation
   * (scratchTake). Throws if j does not fit even when everything has ended.
   * Cost: O(partition nodes) once, plus O(entries released) (each released node is re-tested).
   */
  earliest(j: number, now: number, order: Int32Array, len: number, ends: Float64Array, out: Selection): number {
    this.scratchBegin()
    const d = this.demand
    const p = d.partition[j], nc = this.nodeCount
    const fixed = d.nodes[j] > 0
    const need = fixed ? d.nodes[j] : d.cpus[j]
    // Sufficient nodes (fixed N) or usable CPUs (flexible) in the partition, kept up to date.
    // A job that asks for CPUs only (no cores to round, no GPUs, no memory, no whole node, no mask):
    // a node's worth is its CPUs, counted without take().
    const cpuOnly = this.unitOne && this.exclude === null && d.whole[j] === 0 && d.gpus[j] === 0 && d.memAll[j] === 0 && d.memPerNode[j] === 0 && d.memPerCpu[j] === 0
    const per = d.cpus[j]
    // (Nothing is touched yet: VIEW_SHADOW is the free state, visited by bucket.)
    let have = 0
    const start = this.partStart[p], nP = this.partStart[p + 1] - start
    if (fixed) {
      for (let c = d.cpus[j]; c < this.histStride; c++) {
        if (this.hist[p * this.histStride + c] === 0) continue
        for (let pos = this.nextSet(p, c, 0, nP); pos >= 0; pos = this.nextSet(p, c, pos + 1, nP)) {
          if (this.take(j, this.partNodes[start + pos], VIEW_SHADOW) > 0) have++
        }
      }
    } else if (cpuOnly) {
      have = this.partFreeCpu[p] // CPUs only: every free CPU is usable
    } else {
      for (let pos = this.nextSet(p, this.histStride, 0, nP); pos >= 0; pos = this.nextSet(p, this.histStride, pos + 1, nP)) {
        have += this.take(j, this.partNodes[start + pos], VIEW_SHADOW)
      }
    }
    const inPart = this.inPart, base = p * nc
    let r = 0
    while (have < need && r < len) {
      const e0 = ends[r] > now ? ends[r] : now
      for (; r < len && (ends[r] > now ? ends[r] : now) === e0; r++) {
        const job = order[r]
        const off = this.allocOff[job], n2 = this.allocLen[job]
        for (let k = off; k < off + n2; k++) {
          const i = this.poolNode[k]
          this.touch(i)
          const inP = inPart[base + i] !== 0
          const oldCv = this.cvOf(i)
          if (inP && cpuOnly) {
            const s0 = this.sCpu[i], s1 = s0 + this.poolCpu[k]
            have += fixed ? (s0 < per && s1 >= per ? 1 : 0) : s1 - s0
            this.sCpu[i] = s1; this.sMem[i] += this.poolMem[k]; this.sGpu[i] += this.poolGpu[k]
          } else {
            let before = 0
            if (inP) { const t = this.take(j, i, VIEW_SHADOW); before = fixed ? (t > 0 ? 1 : 0) : t }
            this.sCpu[i] += this.poolCpu[k]; this.sMem[i] += this.poolMem[k]; this.sGpu[i] += this.poolGpu[k]
            if (inP) { const t = this.take(j, i, VIEW_SHADOW); have += (fixed ? (t > 0 ? 1 : 0) : t) - before }
          }
          this.moveCapped(i, oldCv, this.cvOf(i))
        }
      }
      if (have >= need) {
        if (!this.select(j, VIEW_SHADOW, PREF_BUSY_NOW, out, fixed)) throw new MachineError(`job index ${j}: reservation counters disagree with the node selection`)
        this.scratchTake(out)
        return e0
      }
    }
    if (have >= need && this.select(j, VIEW_SHADOW, PREF_BUSY_NOW, out, fixed)) { this.scratchTake(out); return now }
    throw new MachineError(`job index ${j} does not fit partition ${this.cluster.partitions[p].name} even when every running job has ended`)
  }
}

/**
 * Puts the m smallest of keys[0..k) first, ascending (a max-heap of m, then heap order sorted).
 * In place, no allocation.
 */
function smallestFirst(keys: Float64Array, k: number, m: number): void {
  // Max-heap over keys[0..m).
  for (let i = (m >> 1) - 1; i >= 0; i--) siftDown(keys, i, m)
  for (let i = m; i < k; i++) {
    if (keys[i] < keys[0]) { keys[0] = keys[i]; siftDown(keys, 0, m) }
  }
  // Heap sort the m kept keys ascending.
  for (let end = m - 1; end > 0; end--) {
    const t = keys[0]; keys[0] = keys[end]; keys[end] = t
    siftDown(keys, 0, end)
  }
}

/** Puts the m smallest of the distinct keys a[0..n) in a[0..m), in no particular order. */
function smallestSet(a: Float64Array, n: number, m: number): void {
  if (m > 0 && m < n) selectKth(a, 0, n - 1, m - 1)
}

/** Min-heap over a[0..len): sift a[i] down. */
function siftDownMin(a: Float64Array, i: number, len: number): void {
  const x = a[i]
  for (;;) {
    let c = 2 * i + 1
    if (c >= len) break
    if (c + 1 < len && a[c + 1] < a[c]) c++
    if (!(a[c] < x)) break
    a[i] = a[c]
    i = c
  }
  a[i] = x
}

/** Removes the smallest of the min-heap a[0..len); answers the new length. */
function popMin(a: Float64Array, len: number): number {
  const n = len - 1
  if (n > 0) { a[0] = a[n]; siftDownMin(a, 0, n) }
  return n
}

function siftDown(a: Float64Array, i: number, len: number): void {
  const x = a[i]
  for (;;) {
    let c = 2 * i + 1
    if (c >= len) break
    if (c + 1 < len && a[c + 1] > a[c]) c++
    if (!(a[c] > x)) break
    a[i] = a[c]
    i = c
  }
  a[i] = x
}
