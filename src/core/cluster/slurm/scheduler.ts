// Slurm's own scheduling on the node-level machine (docs/CLUSTER.md §Slurm scheduling): the
// event-driven main scheduler (no backfilling there: a partition stops at its first blocked job and
// its nodes leave `avail` for the rest of the pass), the periodic backfill cycle (a whole-node
// reservation for every tested job unless bf_job_part_count_reserve limits them, within bf_window,
// bf_max_job_test, bf_resolution), and the multifactor priority recomputed only at submit and at
// PriorityCalcPeriod ticks. Resources (nodes, CPUs, memory, GPUs) are the shared Machine of
// ../machine.ts; this file decides when and in which order jobs are tried.
//
// Timing. Real (the default, for replays): a main pass right after every submit and job end
// (depth-limited), a full-queue pass every sched_interval, a backfill cycle every bf_interval on the
// absolute clock (k·bf_interval since the epoch), each skipped when nothing changed since the
// previous one (then it could not start anything: see docs). Idealised (`idealised: true`, the
// timing of the Slurm spec's golden scenarios): a backfill cycle right after every main pass
// that follows a change. Cycles and passes take no time (the cycle is instantaneous: no yields, so
// bf_continue and bf_max_time never matter).
import { SimulationStopped } from '../../sim/easy'
import * as machine from '../machine'
import { buildDemand, Machine, Selection } from '../machine'
import type { ClusterJobs, ClusterRun, ClusterSimOptions, ClusterSpec, SiteFactor, SlurmScheduling } from '../types'
import { FairShare } from './fairshare'
import { NodeSpace } from './nodespace'
import { grown } from '../../util/memory'
import { SlurmPriority } from './priority'

/** Options of runSlurm beyond ClusterSimOptions. */
export interface SlurmSimOptions extends ClusterSimOptions {
  /** The idealised timing of the Slurm spec's golden scenarios (§8): every submit and job end triggers a main pass and a
   * backfill cycle at once (no bf_interval latency). Default false: cycles at k·bf_interval. */
  readonly idealised?: boolean
  /** Keep the age and fair-share weights without slurmdbd in the configuration (Slurm zeroes them). */
  readonly assumeAccounting?: boolean
  /** Raw fair-share shares (sacctmgr Fairshare=) by the log's account index and user index; absent: 1 each. */
  readonly fairShares?: { readonly account?: ArrayLike<number>; readonly user?: ArrayLike<number> }
  /** Plan every tested record of a cycle even past the last one that could start now (the
   * reservations then show Slurm's estimates in the trace; the starts are the same either way). */
  readonly estimates?: boolean
  /** Observers for tests and diagnostics (cold paths: called per reservation / per priority set). */
  readonly trace?: SlurmTrace
}

/** What the scheduler decided, for hand-checked scenarios (times on the simulation clock, seconds). */
export interface SlurmTrace {
  /** A job's stored priority was set: at submit, or recomputed at a PriorityCalcPeriod tick. */
  readonly priority?: (job: number, t: number, value: number, when: 'submit' | 'tick') => void
  /** A job started at t on `nodes`, taking `cpus[k]` CPUs and `gpus[k]` GPUs on nodes[k]. */
  readonly start?: (job: number, t: number, nodes: readonly number[], cpus: readonly number[], gpus: readonly number[], backfill: boolean) => void
  /** A backfill reservation [start, end) (rounded by bf_resolution) on whole nodes, at cycle time t. */
  readonly reservation?: (job: number, t: number, start: number, end: number, nodes: readonly number[]) => void
}

/** UNLIMITED time counts as one year in Slurm's end-time arithmetic. */
const YEAR = 365 * 86400
/** KillWait default: a running job past its limit is expected to end this long after it. */
const KILL_WAIT = 30
/** The will-run test's first group window (seconds), doubled after each failed test. */
const WILL_RUN_WINDOW = 30
/** Retries of one record beyond two per reservation in the map (each later_start step passes a
 * reservation's end, so 2 per reservation is already more than a record can use); a guard. */
const EXTRA_RETRIES = 64

// The machine's view and preference constants, read once (hot loops then use plain locals).
const PREF_NONE = machine.PREF_NONE
const VIEW_EMPTY = machine.VIEW_EMPTY
const VIEW_FREE = machine.VIEW_FREE
const VIEW_SHADOW = machine.VIEW_SHADOW

// Job states (0 = not yet submitted).
const PENDING = 1, RUNNING = 2, DONE = 3, NEVER = 4

export function runSlurm(
  jobs: ClusterJobs, cluster: ClusterSpec, scheduling: SlurmScheduling,
  extra: { siteFactor?: SiteFactor; nice?: Int32Array }, options: SlurmSimOptions = {},
): ClusterRun {
  const sim = new SlurmSim(jobs, cluster, scheduling, extra, options)
  sim.run()
  return { start: sim.start, backfilled: sim.backfilled, firstNode: sim.firstNode }
}

/** Slurm's min_nodes of a job whose node count reads `nodes` (0: any): at least 1. */
function minNodesOf(nodes: number): number {
  return nodes > 1 ? nodes : 1
}

/** The smallest T > t with (T + origin) a multiple of `every` (an absolute periodic schedule). */
function nextMultiple(t: number, every: number, origin: number): number {
  return (Math.floor((t + origin) / every) + 1) * every - origin
}

class SlurmSim {
  readonly start: Float64Array
  readonly backfilled: Uint8Array
  readonly firstNode: Int32Array
  private readonly n: number
  private readonly U: number
  private readonly m: Machine
  private readonly sel: Selection
  private readonly prioModel: SlurmPriority
  private readonly fs: FairShare | null
  private readonly limit: Float64Array
  private readonly arrival: Float64Array
  // The jobs by arrival, when that is not their index order (null: it is, as in most logs).
  private readonly arrOrder: Int32Array | null
  private readonly state: Uint8Array
  private readonly prio: Float64Array
  private readonly tier: Int32Array
  /** The machine's reading of each job's node count (0: any number); min_nodes = max(1, it). */
  private readonly demandNodes: Int32Array
  // The pending queue, sorted by (tier desc, priority desc, submit asc, index asc); dead entries skipped.
  private readonly queue: Int32Array
  private qLen = 0
  private dead = 0
  // Running jobs: a heap on the real end, and a list sorted by expected end (start + limit).
  private readonly end: Float64Array
  private readonly est: Float64Array
  private heap: Int32Array
  private heapLen = 0
  // The running jobs by (estimated end, index), read only by the backfill's will-run test and the
  // fair-share tick. Kept sorted lazily: a start is appended to `added`, an end only leaves a
  // stale entry (its state is no longer RUNNING), and sortByEst merges both in before a read.
  // Inserting and removing in place moved half the array per start and end (a few % of the bench).
  private byEst: Int32Array
  private byEstAlt: Int32Array
  private runLen = 0
  private added: Int32Array
  private addedLen = 0
  private stale = 0
  private readonly estLess: (a: number, b: number) => number
  // Fair-share only (empty without it): each running job's CPUs and when its usage was last charged.
  private readonly allocCpus: Int32Array
  private readonly lastUse: Float64Array
  // Partitions.
  private readonly P: number
  private readonly partNodes: Int32Array[]
  private readonly inPart: Uint8Array[]
  private readonly overlapping: Uint8Array
  // Main pass scratch.
  private readonly failed: Uint8Array
  private readonly partDepth: Int32Array
  private readonly availExcl: Uint8Array
  private readonly exclList: Int32Array
  private exclLen = 0
  private readonly partAvail: Int32Array
  private readonly partAvailVer: Int32Array
  private exclVer = 1
  // Backfill scratch.
  private readonly ns: NodeSpace
  private readonly blocked: Uint8Array
  private readonly blockedList: Int32Array
  private readonly blockedLen = { n: 0 }
  private readonly partTested: Int32Array
  private readonly partResv: Int32Array
  private readonly userTested: Int32Array
  /** The index bf_max_job_user counts a job with no user under. */
  private readonly noUser: number
  // Will-run counts per job: on the empty machine (static), and on the current one (valid while
  // freeVer, bumped at every start and end, is unchanged).
  private readonly capAll: Float64Array
  private readonly capOk: Uint8Array
  private readonly haveAll: Float64Array
  private readonly haveVer: Int32Array
  private freeVer = 1
  // Change flags: something a pass or a cycle could react to happened since the last one.
  private changedSinceFull = true
  private changedSinceBf = true
  private lastTick = NaN
  private startedCount = 0

  constructor(
    private readonly jobs: ClusterJobs, private readonly cluster: ClusterSpec, private readonly sch: SlurmScheduling,
    extra: { siteFactor?: SiteFactor; nice?: Int32Array }, private readonly options: SlurmSimOptions,
  ) {
    const n = (this.n = jobs.count)
    this.U = options.unixStartTime ?? 0
    this.m = new Machine(cluster, buildDemand(jobs, cluster))
    const N = this.m.nodeCount
    this.sel = new Selection(N)
    this.prioModel = new SlurmPriority({
      jobs, cluster, config: sch.priority, qosNames: options.qosNames,
      siteFactor: extra.siteFactor, nice: extra.nice, assumeAccounting: options.assumeAccounting,
    })
    this.fs = this.prioModel.multifactor && this.prioModel.weightFairshare !== 0
      ? new FairShare(jobs, sch.priority.decayHalfLife, sch.priority.fairTree, sch.priority.dampeningFactor, options.fairShares)
      : null
    this.start = new Float64Array(n).fill(NaN)
    this.backfilled = new Uint8Array(n)
    this.firstNode = new Int32Array(n).fill(-1)
    this.P = cluster.partitions.length
    this.partNodes = cluster.partitions.map((p) => Int32Array.from(p.nodes))
    this.inPart = cluster.partitions.map((p) => { const a = new Uint8Array(N); for (const i of p.nodes) a[i] = 1; return a })
    const perNode = new Int32Array(N)
    for (const p of cluster.partitions) for (const i of p.nodes) perNode[i]++
    this.overlapping = Uint8Array.from(cluster.partitions, (p) => p.nodes.some((i) => perNode[i] > 1) ? 1 : 0)
    this.tier = Int32Array.from(cluster.partitions, (p) => p.priorityTier)
    // Time limit used everywhere: the job's limit capped by MaxTime; none = DefaultTime, else MaxTime, else a year.
    // Per-job arrays only where a value cannot be read off the log's columns: each is a fresh
    // megabyte per 125k–250k jobs, and fresh pages are slow to come on some hosts
    // (docs/PERFORMANCE.md §Fresh pages).
    this.demandNodes = this.m.demand.nodes // the machine's reading (a node count above the CPUs is capped there)
    const parts = cluster.partitions, P = this.P
    const partition = jobs.partition, requested = jobs.requested, eligible = jobs.eligible, submit = jobs.submit
    // The log's own columns where they are the values (the usual case), else columns of their own.
    // Time limits: the log's when every job has one; else DefaultTime, else MaxTime, else a year.
    const hasLimit = (req: number) => req > 0 && Number.isFinite(req)
    let everyLimit = true
    for (let j = 0; j < n && everyLimit; j++) everyLimit = hasLimit(requested[j])
    if (everyLimit) this.limit = requested
    else {
      const limit = (this.limit = new Float64Array(n))
      for (let j = 0; j < n; j++) {
        const req = requested[j], p = partition[j]
        const part = p >= 0 && p < P ? parts[p] : null
        limit[j] = hasLimit(req) ? req : (part?.defaultTime ?? part?.maxTime ?? YEAR)
      }
    }
    // Arrivals: the submits when no job is eligible after its submit (no --begin).
    let noBegin = true
    for (let j = 0; j < n && noBegin; j++) noBegin = !(eligible[j] > submit[j])
    if (noBegin) this.arrival = submit
    else {
      const a = (this.arrival = new Float64Array(n))
      for (let j = 0; j < n; j++) a[j] = eligible[j] > submit[j] ? eligible[j] : submit[j]
    }
    const arr = this.arrival
    // Jobs enter the queue when they become eligible (a future --begin is not queued: §1.2).
    let sorted = true
    for (let j = 1; j < n && sorted; j++) if (arr[j] < arr[j - 1]) sorted = false
    if (sorted) this.arrOrder = null
    else {
      const order = new Int32Array(n)
      for (let j = 0; j < n; j++) order[j] = j
      // A total order (ties by index), so the typed sort gives the one order there is.
      order.sort((a, b) => arr[a] - arr[b] || a - b)
      this.arrOrder = order
    }
    this.state = new Uint8Array(n)
    this.prio = new Float64Array(n)
    this.queue = new Int32Array(n)
    this.end = new Float64Array(n)
    this.est = new Float64Array(n)
    // The running jobs' structures grow with the most jobs running (or started between two reads
    // of byEst) at once, not with the log.
    const runCap = Math.min(n, 1024)
    this.heap = new Int32Array(runCap)
    this.byEst = new Int32Array(runCap)
    this.byEstAlt = new Int32Array(runCap)
    this.added = new Int32Array(runCap)
    const est = this.est
    this.estLess = (a, b) => (est[a] - est[b]) || (a - b)
    this.allocCpus = new Int32Array(this.fs !== null ? n : 0)
    this.lastUse = new Float64Array(this.fs !== null ? n : 0)
    this.failed = new Uint8Array(this.P)
    this.partDepth = new Int32Array(this.P)
    this.availExcl = new Uint8Array(N)
    this.exclList = new Int32Array(N)
    this.partAvail = new Int32Array(this.P)
    this.partAvailVer = new Int32Array(this.P)
    this.ns = new NodeSpace(N)
    this.blocked = new Uint8Array(N)
    this.blockedList = new Int32Array(N)
    this.partTested = new Int32Array(this.P)
    this.partResv = new Int32Array(this.P)
    let maxUser = -1
    const user = jobs.user
    for (let j = 0; j < n; j++) if (user[j] > maxUser) maxUser = user[j]
    this.userTested = new Int32Array(maxUser + 2)
    this.noUser = maxUser + 1
    this.capAll = new Float64Array(n)
    this.capOk = new Uint8Array(n)
    this.haveAll = new Float64Array(n)
    this.haveVer = new Int32Array(n)
  }

  // ---- The event loop ------------------------------------------------------------------------

  run(): void {
    const n = this.n
    const sch = this.sch
    const idealised = this.options.idealised === true
    const bfOn = sch.schedulerType === 'backfill' && sch.bf.interval >= 0
    const bfEvery = sch.bf.interval > 0 ? sch.bf.interval : 1
    const schedEvery = sch.sched.interval > 0 ? sch.sched.interval : 0
    const calcEvery = sch.priority.calcPeriod > 0 ? sch.priority.calcPeriod : 60
    const ticking = this.prioModel.timeDependent
    const onCheck = this.options.onCheck ?? null
    const checkEvery = Math.max(1, this.options.checkEvery ?? 4096)
    let countdown = checkEvery
    let a = 0
    if (n === 0) return
    const order = this.arrOrder
    const t0 = this.arrival[order === null ? 0 : order[0]]
    this.lastTick = t0
    // The periodic series run on the absolute clock: a time is "on" a series when t + U is a
    // multiple of its period. next* is the next such time after the last processed one.
    const U = this.U
    const on = (t: number, every: number) => every > 0 && (t + U) % every === 0
    let nextTick = nextMultiple(t0, calcEvery, U)
    let nextSched = schedEvery > 0 ? nextMultiple(t0, schedEvery, U) : Infinity
    let nextBf = nextMultiple(t0, bfEvery, U)
    for (;;) {
      const tA = a < n ? this.arrival[order === null ? a : order[a]] : Infinity
      const tE = this.heapLen > 0 ? this.end[this.heap[0]] : Infinity
      const pending = this.qLen - this.dead > 0
      const tT = ticking && (pending || this.heapLen > 0) ? nextTick : Infinity
      const tS = pending && this.changedSinceFull ? nextSched : Infinity
      const tB = bfOn && !idealised && pending && this.changedSinceBf ? nextBf : Infinity
      const t = Math.min(tA, tE, tT, tS, tB)
      if (t === Infinity) break
      let event = false
      // 1. Job ends at t free their resources.
      while (this.heapLen > 0 && this.end[this.heap[0]] <= t) { this.finish(this.heapPop(), t); event = true }
      // 2. Submits (eligibility) at t: priority at submit, into the queue.
      while (a < n) {
        const j = order === null ? a : order[a]
        if (this.arrival[j] > t) break
        this.admit(j, t)
        a++
        event = true
      }
      const pendingNow = this.qLen - this.dead > 0
      // 3. A PriorityCalcPeriod tick: fair-share, then every pending job's priority.
      if (ticking && on(t, calcEvery) && (pendingNow || this.heapLen > 0)) this.tick(t)
      // 4. The main pass: after events (depth-limited), or the periodic full-queue pass.
      const full = pendingNow && this.changedSinceFull && on(t, schedEvery)
      if (event || full) this.mainPass(t, full)
      if (full) this.changedSinceFull = false
      // 5. The backfill cycle: at k·bf_interval (idealised: after every change), if something changed.
      if (bfOn && this.changedSinceBf && this.qLen - this.dead > 0 && (idealised || on(t, bfEvery))) this.bfCycle(t)
      // Nothing runs and nothing will arrive: a last full pass and cycle; what they leave never starts.
      if (this.heapLen === 0 && a >= n && this.qLen - this.dead > 0) {
        this.mainPass(t, true)
        if (bfOn) this.bfCycle(t)
        if (this.heapLen === 0) break
      }
      if (nextTick <= t) nextTick = nextMultiple(t, calcEvery, U)
      if (nextSched <= t) nextSched = nextMultiple(t, schedEvery, U)
      if (nextBf <= t) nextBf = nextMultiple(t, bfEvery, U)
      if (onCheck !== null && --countdown === 0) {
        countdown = checkEvery
        if (onCheck(this.startedCount, t) && (a < n || this.heapLen > 0)) throw new SimulationStopped()
      }
    }
  }

  private admit(j: number, t: number): void {
    const p = this.jobs.partition[j]
    const part = p >= 0 && p < this.P ? this.cluster.partitions[p] : null
    // Not queued, ever: no partition, partition DOWN/INACTIVE, limit over MaxTime (PartitionTimeLimit),
    // or a job no node configuration can hold (held: BadConstraints).
    if (part === null || part.state === 'DOWN' || part.state === 'INACTIVE' ||
      (part.maxTime !== null && this.limit[j] > part.maxTime) ||
      !this.m.fitsEmpty(j, this.sel)) {
      this.state[j] = NEVER
      return
    }
    this.state[j] = PENDING
    // Priority at submit: the accrue time is not set yet, so the age term is 0 (§3.2).
    this.prio[j] = this.prioModel.compute(j, t, NaN, this.fsFactor(j))
    this.options.trace?.priority?.(j, t, this.prio[j], 'submit')
    this.queueInsert(j)
    this.changedSinceFull = this.changedSinceBf = true
  }

  private fsFactor(j: number): number {
    const fs = this.fs
    return fs === null ? 0 : fs.factor[fs.assocOf[j]]
  }

  private finish(j: number, t: number): void {
    this.m.release(j)
    this.freeVer++
    this.state[j] = DONE
    this.stale++ // its byEst entry is dropped at the next sortByEst
    if (this.fs !== null) this.fs.addUsage(j, this.allocCpus[j], t - this.lastUse[j])
    this.changedSinceFull = this.changedSinceBf = true
  }

  private startJob(j: number, t: number, backfill: boolean): void {
    const sel = this.sel
    this.m.allocate(j, sel)
    this.freeVer++
    let cpus = 0, first = sel.len > 0 ? sel.nodes[0] : -1
    for (let k = 0; k < sel.len; k++) { cpus += sel.cpus[k]; if (sel.nodes[k] < first) first = sel.nodes[k] }
    if (this.fs !== null) { this.allocCpus[j] = cpus; this.lastUse[j] = t }
    this.firstNode[j] = first
    const onStart = this.options.trace?.start
    if (onStart !== undefined) {
      const len = sel.len
      onStart(j, t, Array.from(sel.nodes.subarray(0, len)), Array.from(sel.cpus.subarray(0, len)), Array.from(sel.gpus.subarray(0, len)), backfill)
    }
    this.state[j] = RUNNING
    this.start[j] = t
    this.backfilled[j] = backfill ? 1 : 0
    this.end[j] = t + Math.max(0, this.jobs.runtime[j])
    this.est[j] = t + this.limit[j]
    this.heapPush(j)
    if (this.addedLen === this.added.length) this.added = grown(this.added, this.addedLen)
    this.added[this.addedLen++] = j // into byEst at the next sortByEst
    this.dead++
    this.startedCount++
    this.changedSinceFull = this.changedSinceBf = true
  }

  // ---- Priority ticks (§3.5) -----------------------------------------------------------------

  /**
   * One PriorityCalcPeriod tick at t: fair-share first (classic: accounts' effective usage from the
   * usage before decay, then decay, then the running jobs' new usage, then users' factors; Fair
   * Tree: decay, new usage, the whole tree), then every pending job's priority at t. The queue is
   * re-sorted only if a priority changed.
   */
  private tick(t: number): void {
    const fs = this.fs
    if (fs !== null) {
      fs.beginTick(t - this.lastTick)
      this.sortByEst()
      for (let r = 0; r < this.runLen; r++) {
        const j = this.byEst[r]
        fs.addUsage(j, this.allocCpus[j], t - this.lastUse[j])
        this.lastUse[j] = t
      }
      fs.endTick()
    }
    this.lastTick = t
    const incrOnly = this.prioModel.incrOnly
    let changed = false
    for (let k = 0; k < this.qLen; k++) {
      const j = this.queue[k]
      if (this.state[j] !== PENDING) continue
      const p = this.prioModel.compute(j, t, this.arrival[j], this.fsFactor(j))
      if (p === this.prio[j] || (incrOnly && p < this.prio[j])) continue
      this.prio[j] = p
      changed = true
    }
    const trace = this.options.trace?.priority
    if (trace !== undefined) for (let k = 0; k < this.qLen; k++) if (this.state[this.queue[k]] === PENDING) trace(this.queue[k], t, this.prio[this.queue[k]], 'tick')
    if (changed) {
      this.compactQueue()
      const q = Array.from(this.queue.subarray(0, this.qLen))
      q.sort((x, y) => this.cmp(x, y))
      this.queue.set(q)
      this.changedSinceFull = this.changedSinceBf = true
    }
  }

  // ---- The main scheduler (§1.4) -------------------------------------------------------------

  /**
   * One main pass at t. Records in queue order; a full pass has no default_queue_depth cap. A job
   * that cannot start marks its partition failed: the partition's later records are skipped, and
   * all its nodes leave `avail`, so other partitions sharing them cannot use them in this pass
   * either (G3). Exempt (skipped without failing the partition): jobs eligible for less than
   * bf_min_age_reserve. No backfilling here.
   */
  private mainPass(t: number, full: boolean): void {
    const s = this.sch.sched
    const depthCap = s.defaultQueueDepth
    const pDepth = s.partitionJobDepth
    const maxStart = s.maxJobStart
    this.failed.fill(0)
    this.partDepth.fill(0)
    let depth = 0, starts = 0
    const m = this.m
    for (let k = 0; k < this.qLen; k++) {
      const j = this.queue[k]
      if (this.state[j] !== PENDING) continue
      if (maxStart > 0 && starts >= maxStart) break
      const p = this.jobs.partition[j]
      if (pDepth > 0 && this.partDepth[p] >= pDepth) continue
      if (!full && depth++ > depthCap) break
      this.partDepth[p]++
      if (this.failed[p] !== 0) continue
      const excl = this.exclLen > 0
      if (excl && this.availIn(p) < minNodesOf(this.demandNodes[j])) { this.failPartition(p, j, t); continue }
      m.setExclude(excl ? this.availExcl : null)
      const ok = !m.quickReject(j) && m.select(j, VIEW_FREE, PREF_NONE, this.sel)
      m.setExclude(null)
      if (ok) { this.startJob(j, t, false); starts++; continue }
      this.failPartition(p, j, t)
    }
    for (let k = 0; k < this.exclLen; k++) this.availExcl[this.exclList[k]] = 0
    this.exclLen = 0
    this.maybeCompact()
  }

  /** Nodes of partition p still in `avail` this pass. */
  private availIn(p: number): number {
    if (this.partAvailVer[p] !== this.exclVer) {
      let c = 0
      const nodes = this.partNodes[p]
      for (let k = 0; k < nodes.length; k++) if (this.availExcl[nodes[k]] === 0) c++
      this.partAvail[p] = c
      this.partAvailVer[p] = this.exclVer
    }
    return this.partAvail[p]
  }

  private failPartition(p: number, j: number, t: number): void {
    const minAge = this.sch.bf.minAgeReserve
    if (minAge > 0 && t - this.arrival[j] < minAge) return // young job: skipped, partition not failed
    this.failed[p] = 1
    if (this.overlapping[p] === 0) return // no other partition uses these nodes
    const nodes = this.partNodes[p]
    for (let k = 0; k < nodes.length; k++) {
      const i = nodes[k]
      if (this.availExcl[i] === 0) { this.availExcl[i] = 1; this.exclList[this.exclLen++] = i }
    }
    this.exclVer++
  }

  // ---- The backfill cycle (§2) ---------------------------------------------------------------

  /**
   * One backfill cycle at t over the whole queue in order (§2.5). For each record: the per-user /
   * per-partition test limits, who may reserve (bf_min_age_reserve, bf_job_part_count_reserve),
   * the candidate nodes (partition minus nodes planned in a slot the job's window touches), the
   * will-run test, then start now (flagged backfilled) or a whole-node reservation rounded by
   * bf_resolution, within bf_window. The cycle stops after bf_max_job_test tries or
   * bf_max_job_start starts.
   */
  private bfCycle(t: number): void {
    this.changedSinceBf = false
    const bf = this.sch.bf
    const res = bf.resolution > 0 ? bf.resolution : 1
    const U = this.U
    const absT = t + U
    // The map: [floor(now/res)·res, floor((now + bf_window)/res)·res) on absolute time.
    this.ns.reset(Math.floor(absT / res) * res - U, Math.floor((absT + bf.window) / res) * res - U)
    this.partTested.fill(0)
    this.partResv.fill(0)
    this.userTested.fill(0)
    let tries = 0, starts = 0
    const maxTest = bf.maxJobTest > 0 ? bf.maxJobTest : Infinity
    // A reservation only matters to the records after it in this cycle (the map is rebuilt every
    // cycle), and only by keeping one of them from starting now. The last record that could start
    // now even with no reservation at all bounds the useful part of the cycle: past it nothing can
    // start, so the cycle ends there (resources only shrink during a cycle, so the bound holds).
    // With `estimates` every tested record is still planned (for the trace).
    const lastUseful = this.options.estimates === true ? this.qLen - 1 : this.lastStartable()
    for (let k = 0; k <= lastUseful; k++) {
      const j = this.queue[k]
      if (this.state[j] !== PENDING) continue
      if (tries >= maxTest) break
      const p = this.jobs.partition[j]
      const u0 = this.jobs.user[j], u = u0 >= 0 ? u0 : this.noUser
      // bf_max_job_part / bf_max_job_user: records over the limit are not tested and not counted.
      if (bf.maxJobPart > 0 && this.partTested[p] >= bf.maxJobPart) continue
      if (bf.maxJobUser > 0 && this.userTested[u] >= bf.maxJobUser) continue
      this.partTested[p]++
      this.userTested[u]++
      const r = this.tryRecord(j, p, t, res)
      if (r !== 0) tries++
      if (r === 2) {
        starts++
        if (bf.maxJobStart > 0 && starts >= bf.maxJobStart) break
      }
    }
    this.maybeCompact()
  }

  /** The last queue position whose job fits now on its partition, ignoring reservations (-1: none). */
  private lastStartable(): number {
    const m = this.m
    for (let k = this.qLen - 1; k >= 0; k--) {
      const j = this.queue[k]
      if (this.state[j] === PENDING && !m.quickReject(j) && m.select(j, VIEW_FREE, PREF_NONE, this.sel)) return k
    }
    return -1
  }

  /** One record of the cycle. Returns 0 = not tried, 1 = tried (reserved or not), 2 = started now. */
  private tryRecord(j: number, p: number, t: number, res: number): number {
    const bf = this.sch.bf
    const U = this.U
    const lim = this.limit[j]
    // Who may reserve (§2.6): young jobs (bf_min_age_reserve) and partitions already holding
    // bf_job_part_count_reserve reservations are tested for "now" only.
    let noReserve = bf.minAgeReserve > 0 && t - this.arrival[j] < bf.minAgeReserve
    if (!noReserve && bf.jobPartCountReserve > 0 && this.partResv[p] >= bf.jobPartCountReserve) noReserve = true
    let tried = 0
    let startRes = t
    const inCand = this.inPart[p]
    const nodeCount = this.partNodes[p].length
    const maxRetries = 2 * this.ns.size + EXTRA_RETRIES
    for (let retry = 0; retry < maxRetries; retry++) {
      const endTime = (startRes > t ? startRes : t) + lim
      // Candidates: the partition's nodes minus those planned in a slot overlapping [startRes, endTime].
      this.blockedLen.n = 0
      const later = this.ns.block(startRes, endTime, inCand, this.blocked, this.blockedList, this.blockedLen)
      if (nodeCount - this.blockedLen.n < minNodesOf(this.demandNodes[j])) {
        this.clearBlocked()
        if (later > 0 && !noReserve) { startRes = later; continue }
        return tried
      }
      tried = 1 // bf_max_job_test counts this record once, whatever the retries
      // An answer after both the window and `later` is handled as no answer (below: a retry at
      // `later`, else nothing), so the test may stop once every job left ends after both.
      const w = this.willRun(j, p, t, noReserve, later > t + bf.window ? later : t + bf.window)
      if (w < 0) {
        this.clearBlocked()
        if (later > 0 && !noReserve) { startRes = later; continue }
        return tried
      }
      const st = startRes > w ? startRes : w
      if (st <= t) {
        // Start now on the selected nodes (none of them planned for another job in its window).
        this.startJob(j, t, true)
        this.clearBlocked()
        return 2
      }
      this.clearBlocked()
      if (noReserve) return tried
      if (later > 0 && st > later) { startRes = later; continue }
      // Beyond bf_window: an estimate only, no reservation.
      if (st > t + bf.window) return tried
      // The slot, rounded on absolute time (22.05: both ends rounded down).
      const rs = Math.floor((st + U) / res) * res - U
      const re = Math.floor((st + lim + U) / res) * res - U
      if (this.ns.overlaps(this.sel.nodes, this.sel.len, rs, re)) {
        startRes = st > startRes ? st : startRes + res
        continue
      }
      if (bf.jobPartCountReserve > 0) {
        if (this.partResv[p] >= bf.jobPartCountReserve) return tried
        this.partResv[p]++
      }
      this.ns.add(rs, re, res, this.sel.nodes, this.sel.len)
      this.options.trace?.reservation?.(j, t, rs, re, Array.from(this.sel.nodes.subarray(0, this.sel.len)))
      return tried
    }
    return tried
  }

  private clearBlocked(): void {
    const list = this.blockedList
    for (let k = 0; k < this.blockedLen.n; k++) this.blocked[list[k]] = 0
    this.blockedLen.n = 0
  }

  /**
   * The select plugin's will-run test (§2.4) on the candidate nodes (`blocked` hides the others):
   * start now if it fits; otherwise (unless test-now-only) remove the running jobs that hold a
   * candidate node in order of expected end, in groups — the first group is every job ending by
   * T0 + 30 s (T0 = the first end rounded up to the next multiple of 30 s on absolute time), the
   * window doubling after each failed test until it reaches the next job's end — and test after each
   * group. The answer is the end of the last job removed. Fills this.sel with the nodes.
   * Returns the start time, or -1: also when the answer would be after `beyond` (the caller treats
   * both alike), known before any release once the next job to remove ends after it.
   */
  private willRun(j: number, p: number, t: number, testNowOnly: boolean, beyond: number): number {
    const m = this.m
    const sel = this.sel
    // Whether a test can succeed is kept as a count (sufficient nodes for an N-node job, usable
    // CPUs for a flexible one): now, and when every running job is gone. The partition's totals are
    // cached per job (the empty machine's for good, the current one's until a job starts or ends),
    // the blocked candidates subtracted; then the node selection runs only when it can succeed.
    const d = m.demand
    const fixed = d.nodes[j] > 0
    const need = fixed ? d.nodes[j] : d.cpus[j]
    const cpusOnly = m.cpusOnly(j)
    m.setExclude(null)
    if (this.capOk[j] === 0) { this.capAll[j] = this.countIn(j, p, VIEW_EMPTY, fixed, cpusOnly); this.capOk[j] = 1 }
    if (this.haveVer[j] !== this.freeVer) { this.haveAll[j] = this.countIn(j, p, VIEW_FREE, fixed, cpusOnly); this.haveVer[j] = this.freeVer }
    let have = this.haveAll[j], cap = this.capAll[j]
    for (let k = 0; k < this.blockedLen.n; k++) {
      const i = this.blockedList[k]
      have -= this.countOn(j, i, VIEW_FREE, fixed, cpusOnly)
      cap -= this.countOn(j, i, VIEW_EMPTY, fixed, cpusOnly)
    }
    m.setExclude(this.blocked)
    try {
      if (have >= need && m.select(j, VIEW_FREE, PREF_NONE, sel)) return t
      // Test-now-only, or even with every running job gone the candidates cannot hold it.
      if (testNowOnly || cap < need) return -1
      m.scratchBegin() // the scratch view starts equal to the current state: `have` holds for it
      const U = this.U
      const inCand = this.inPart[p]
      let T0 = NaN
      let win = WILL_RUN_WINDOW
      let r = 0
      let more = true
      this.sortByEst()
      while (more) {
        // Every answer from here is the end of a job not yet removed: after `beyond` if the next one's is.
        if (r < this.runLen && this.est[this.byEst[r]] > beyond) return -1
        let last = -1, next = -1
        for (;;) {
          if (r >= this.runLen) { more = false; break }
          const job = this.byEst[r++]
          // Only the jobs holding a candidate node are removed (-1: none held, nothing released).
          const delta = this.releaseInScratch(job, j, inCand, fixed, cpusOnly)
          if (delta < 0) continue
          if (T0 !== T0) {
            const abs = this.est[job] + U
            T0 = this.est[job] + (WILL_RUN_WINDOW - (((abs % WILL_RUN_WINDOW) + WILL_RUN_WINDOW) % WILL_RUN_WINDOW))
          }
          last = job
          have += delta
          if (r >= this.runLen) { more = false; break }
          next = this.byEst[r]
          if (this.est[next] > T0 + win) break
        }
        if (last < 0) break
        do win *= 2; while (next >= 0 && more && this.est[next] > T0 + win)
        if (have >= need && m.select(j, VIEW_SHADOW, PREF_NONE, sel)) {
          const e = this.est[last]
          if (e > t) return e
          // Running past its limit: Slurm guesses end + KillWait, never before now + 1.
          return Math.max(e + KILL_WAIT, t + 1)
        }
      }
      return -1
    } finally {
      m.setExclude(null)
    }
  }

  /** Job j's count over its partition's nodes in a view (no node hidden). */
  private countIn(j: number, p: number, view: typeof VIEW_FREE | typeof VIEW_EMPTY, fixed: boolean, cpusOnly: boolean): number {
    const nodes = this.partNodes[p]
    let c = 0
    for (let k = 0; k < nodes.length; k++) c += this.countOn(j, nodes[k], view, fixed, cpusOnly)
    return c
  }

  /**
   * Job j's count on node i in a view: for an N-node job 1 when the node suffices, else 0; for a
   * flexible job the CPUs it could use. A job asking for CPUs only (Machine.cpusOnly) is counted
   * off the node's free CPUs without the general test, usable() (which also says 0 for a node the
   * machine hides: the callers ask only of nodes not hidden).
   */
  private countOn(j: number, i: number, view: machine.View, fixed: boolean, cpusOnly: boolean): number {
    const m = this.m
    if (cpusOnly) {
      const c = m.cpusAvailable(i, view)
      return fixed ? (c >= m.demand.cpus[j] ? 1 : 0) : (c > 0 ? c : 0)
    }
    const u = m.usable(j, i, view)
    return fixed ? (u > 0 ? 1 : 0) : u
  }

  /**
   * Releases running job `job` in the scratch view when it holds a candidate node (one of
   * `inCand` not blocked) and returns the change of job j's count there (never negative: a release
   * only frees); returns -1, releasing nothing, when it holds none. (Whether it holds one is found
   * in the same pass over its nodes as the change.)
   */
  private releaseInScratch(job: number, j: number, inCand: Uint8Array, fixed: boolean, cpusOnly: boolean): number {
    const m = this.m
    const blocked = this.blocked
    const off = m.allocOff[job], end = off + m.allocLen[job]
    let held = false
    let delta = 0
    if (cpusOnly) {
      // CPUs only (Machine.cpusOnly): the change is read off the CPUs the release frees on each
      // node (a job's entries are on distinct nodes) instead of asking usable() before and after:
      // those two calls were a quarter of Rackham's replay (docs/PERFORMANCE.md §Fresh pages).
      const per = fixed ? m.demand.cpus[j] : 0
      for (let k = off; k < end; k++) {
        const i = m.allocNode(k)
        if (inCand[i] === 0 || blocked[i] !== 0) continue
        held = true
        const c = m.allocCpus(k)
        if (!fixed) { delta += c; continue }
        const before = m.cpusAvailable(i, VIEW_SHADOW)
        delta += (before + c >= per ? 1 : 0) - (before >= per ? 1 : 0)
      }
      if (!held) return -1
      m.scratchRelease(job)
      return delta
    }
    for (let k = off; k < end; k++) {
      const i = m.allocNode(k)
      if (inCand[i] === 0 || blocked[i] !== 0) continue
      held = true
      delta -= this.countOn(j, i, VIEW_SHADOW, fixed, false)
    }
    if (!held) return -1
    m.scratchRelease(job)
    for (let k = off; k < end; k++) {
      const i = m.allocNode(k)
      if (inCand[i] !== 0 && blocked[i] === 0) delta += this.countOn(j, i, VIEW_SHADOW, fixed, false)
    }
    return delta
  }

  // ---- The queue -----------------------------------------------------------------------------

  /** Sort order (§1.3): partition PriorityTier desc, priority desc, submit asc, index asc. */
  private cmp(x: number, y: number): number {
    const jobs = this.jobs
    return (this.tier[jobs.partition[y]] - this.tier[jobs.partition[x]]) ||
      (this.prio[y] - this.prio[x]) ||
      (jobs.submit[x] - jobs.submit[y]) ||
      (x - y)
  }

  private queueInsert(j: number): void {
    let lo = 0, hi = this.qLen
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (this.cmp(this.queue[mid], j) < 0) lo = mid + 1
      else hi = mid
    }
    if (this.qLen >= this.queue.length) this.compactQueue()
    this.queue.copyWithin(lo + 1, lo, this.qLen)
    this.queue[lo] = j
    this.qLen++
  }

  /** Drops started entries once they are many (amortised O(1) per start). */
  private maybeCompact(): void {
    if (this.dead >= 64 || this.dead * 8 > this.qLen) this.compactQueue()
  }

  private compactQueue(): void {
    let w = 0
    for (let k = 0; k < this.qLen; k++) {
      const j = this.queue[k]
      if (this.state[j] === PENDING) this.queue[w++] = j
    }
    this.qLen = w
    this.dead = 0
  }

  // ---- Running jobs --------------------------------------------------------------------------

  // The heap of running jobs by (end, index), a strict order, so the pop order is unique. The
  // sifts move a hole and compare against the moving job's end held in a local: every job starts
  // and ends once through here, and the swaps' repeated reads of `end` were a few % of the bench.
  private heapPush(j: number): void {
    if (this.heapLen === this.heap.length) this.heap = grown(this.heap, this.heapLen)
    const h = this.heap, end = this.end
    const e = end[j]
    let i = this.heapLen++
    while (i > 0) {
      const parent = (i - 1) >> 1
      const q = h[parent], eq = end[q]
      if (!(e < eq || (e === eq && j < q))) break
      h[i] = q
      i = parent
    }
    h[i] = j
  }

  private heapPop(): number {
    const h = this.heap, end = this.end
    const top = h[0]
    const n = --this.heapLen
    if (n > 0) {
      const last = h[n], e = end[last]
      let i = 0
      for (;;) {
        const l = 2 * i + 1
        if (l >= n) break
        // The smaller child, then whether it goes before the moving job.
        let c = h[l], ec = end[c]
        const r = l + 1
        let s = l
        if (r < n) {
          const rj = h[r], er = end[rj]
          if (er < ec || (er === ec && rj < c)) { c = rj; ec = er; s = r }
        }
        if (!(ec < e || (ec === e && c < last))) break
        h[i] = c
        i = s
      }
      h[i] = last
    }
    return top
  }

  /** byEst[0, runLen) becomes exactly the running jobs by (est, index): the stale entries dropped,
   * the started ones sorted and merged in (est is fixed while a job runs). */
  private sortByEst(): void {
    if (this.addedLen === 0 && this.stale === 0) return
    const state = this.state, est = this.est
    let na = 0
    const add = this.added
    for (let k = 0; k < this.addedLen; k++) if (state[add[k]] === RUNNING) add[na++] = add[k]
    this.addedLen = 0
    this.stale = 0
    const fresh = add.subarray(0, na)
    if (na > 1) fresh.sort(this.estLess)
    const len = this.runLen
    if (this.byEstAlt.length < len + na) this.byEstAlt = grown(this.byEstAlt, 0, len + na)
    const src = this.byEst, dst = this.byEstAlt
    let w = 0, r = 0, a = 0
    while (r < len || a < na) {
      let o = -1
      while (r < len) { o = src[r]; if (state[o] === RUNNING) break; o = -1; r++ }
      if (a < na && (o < 0 || est[fresh[a]] < est[o] || (est[fresh[a]] === est[o] && fresh[a] < o))) dst[w++] = fresh[a++]
      else if (o >= 0) { dst[w++] = o; r++ }
    }
    this.byEst = dst
    this.byEstAlt = src
    this.runLen = w
  }
}
