// The research's EASY on the node-level machine (docs/CLUSTER.md §EASY on nodes): the rules of
// src/core/sim/easy.ts (docs/SIMULATOR.md §EASY pass) with "fits" meaning "fits on the nodes of its
// partition, every resource, per node" (./machine.ts):
//   events are batched per timestamp — finishes, then submissions, then ONE scheduling pass; the
//   pass orders the queue by the primary policy (ties: submit, then id), moves jobs that have waited
//   strictly longer than Θ to the head (by submit, then id), starts jobs in that order until one
//   does not fit, reserves that job, and backfills the jobs after it (same order, or re-sorted by an
//   explicit backfill policy);
//   the reservation: the nodes the blocked job would use at its shadow time, the earliest time it
//   fits when the running jobs end at their estimated ends (start + requested time; a job past it
//   is expected to end now); the reservation takes the nodes busy now first;
//   a later job is backfilled if it fits now and either ends by the shadow time (it then prefers the
//   reserved nodes), or its use of every node fits within what that node has left at the shadow time
//   beside the reservation — EASY's "extra processors", per node and per resource (nodes outside the
//   reservation are not constrained: what they have left at the shadow time is at least what they
//   have free now, less what earlier long backfills took);
//   one reservation over the whole machine, whatever the partitions (the research's EASY has one
//   queue). A partition's State is not read: the log shows its jobs ran.
// On ONE partition of single-CPU nodes (or one node, flexible jobs) this is exactly the single-pool
// simulator (test/unit/cluster-easy.test.ts proves it on random workloads and every policy family).
//
// Speed: the event loop allocates nothing; the machine answers "cannot start now" from per-partition
// totals before any node scan; the reservation costs one scan of the blocked job's partition plus
// the released jobs' nodes, and is made only in a pass where some later job passes that quick
// reject (docs/PERFORMANCE.md §2026-11-28 — node-level EASY made faster).
import { ByEstimatedEnd, EndHeap } from '../sim/running'
import { Queue, SIM_CHECK_EVERY, SimulationError, SimulationStopped } from '../sim/easy'
import { resolvePolicy, type PolicyInput } from '../sim/policies'
import type { SimConfig } from '../sim/types'
import { buildDemand, Machine, PREF_NONE, PREF_RESERVED, Selection, VIEW_CAPPED, VIEW_FREE } from './machine'
import type { ClusterJobs, ClusterRun, ClusterSimOptions, ClusterSpec } from './types'

/**
 * EASY on nodes as an object: `runUntil(t)` processes every event before t (resumable, as
 * EasySimulator.runUntil), `start`/`backfilled`/`firstNode` hold the schedule so far.
 */
export class ClusterEasySimulator {
  private readonly n: number
  private readonly submit: Float64Array
  private readonly runtime: Float64Array
  private readonly requested: Float64Array
  private readonly threshold: number
  readonly start: Float64Array
  readonly backfilled: Uint8Array
  readonly firstNode: Int32Array
  private readonly started: Uint8Array
  private readonly fifo: Queue
  private readonly primary: Queue
  private readonly backfill: Queue | null
  /** The node-level state (read by tests and callers that inspect allocations). */
  readonly machine: Machine
  private readonly sel: Selection
  private readonly res: Selection
  private next = 0
  now = -Infinity
  /** Running jobs by real end and by estimated end (src/core/sim/running.ts, as EasySimulator). */
  private readonly ends: EndHeap
  private readonly byEst: ByEstimatedEnd
  /** The last reservation: blocked job, machine version and shadow time (reused while valid). */
  private resJob = -1
  private resVersion = -1
  private resShadow = 0
  /** Count reservation (isCountOnly): the blocked job's partition, else -1, and the extra CPUs left. */
  private countPart = -1
  private extra = 0
  /** During a backfill pass, the blocked job whose reservation is not made yet, else -1. */
  private pending = -1
  private readonly onCheck: ((jobsStarted: number, now: number) => boolean) | null
  private readonly checkEvery: number
  private countdown: number

  constructor(jobs: ClusterJobs, cluster: ClusterSpec, config: SimConfig, options: ClusterSimOptions = {}) {
    const n = (this.n = jobs.count)
    this.submit = jobs.submit; this.runtime = jobs.runtime; this.requested = jobs.requested
    validate(jobs, cluster)
    this.machine = new Machine(cluster, buildDemand(jobs, cluster))
    this.sel = new Selection(cluster.nodes.length)
    this.res = new Selection(cluster.nodes.length)
    const input: PolicyInput = { submit: jobs.submit, requested: jobs.requested, procs: jobs.procs, windowStart: options.windowStart ?? (n > 0 ? jobs.submit[0] : 0) }
    if (config.threshold !== null && !(config.threshold >= 0)) throw new SimulationError(`threshold must be ≥ 0 seconds or null (none), got ${config.threshold}`)
    this.threshold = config.threshold === null ? Infinity : config.threshold
    this.fifo = new Queue(n, null, input)
    // Queues as EasySimulator.setConfig builds them (the same objects decide the same orders).
    const primary = resolvePolicy(config.primary)
    this.primary = primary.id === 'FCFS' ? this.fifo : new Queue(n, primary, input)
    if (config.backfill === 'same') this.backfill = null
    else {
      const bp = resolvePolicy(config.backfill)
      this.backfill = bp.id === 'FCFS' ? this.fifo : bp === primary && this.threshold === Infinity ? null : new Queue(n, bp, input)
    }
    this.start = new Float64Array(n).fill(NaN)
    this.backfilled = new Uint8Array(n)
    this.firstNode = new Int32Array(n).fill(-1)
    this.started = new Uint8Array(n)
    this.ends = new EndHeap(n)
    // Estimated ends read as start + requested, the sum the launch makes: no per-job column.
    this.byEst = new ByEstimatedEnd(n, null, this.start, this.requested)
    this.onCheck = options.onCheck ?? null
    this.checkEvery = Math.max(1, Math.floor(options.checkEvery ?? SIM_CHECK_EVERY))
    this.countdown = this.checkEvery
  }

  get jobsStarted(): number { return this.next - this.fifo.len }

  /** As EasySimulator.runUntil: true when the onCheck hook stopped it between two event times. */
  runUntil(t: number): boolean {
    const { n, submit } = this
    const onCheck = this.onCheck
    const ends = this.ends
    while (this.next < n || ends.len > 0) {
      const tSub = this.next < n ? submit[this.next] : Infinity
      const tFin = ends.len > 0 ? ends.topEnd() : Infinity
      const now = tSub < tFin ? tSub : tFin
      if (!(now < t)) return false
      this.now = now
      while (ends.len > 0 && ends.topEnd() === now) this.finish(ends.pop())
      while (this.next < n && submit[this.next] === now) {
        const j = this.next++
        this.fifo.add(j, now)
        if (this.primary !== this.fifo) this.primary.add(j, now)
        if (this.backfill !== null && this.backfill !== this.fifo) this.backfill.add(j, now)
      }
      if (this.fifo.len > 0) this.schedule(now)
      if (onCheck !== null && --this.countdown === 0) {
        this.countdown = this.checkEvery
        if (onCheck(this.next - this.fifo.len, now) && (this.next < n || ends.len > 0)) return true
      }
    }
    return false
  }

  /** The schedule as ClusterRun (call after runUntil(Infinity) answered false). */
  result(): ClusterRun {
    return { start: this.start, backfilled: this.backfilled, firstNode: this.firstNode }
  }

  private schedule(now: number): void {
    const { fifo, primary, submit, started, machine, sel } = this
    const theta = this.threshold
    if (primary !== fifo) primary.rescore(now)
    // Primary phase, first over the promoted jobs (now − r > Θ, in submit order) ...
    let blocked = -1
    let promoted = 0
    const f = fifo.items
    while (promoted < fifo.len && now - submit[f[promoted]] > theta) promoted++
    let k = 0
    for (; k < promoted; k++) {
      const j = f[k]
      if (machine.fitsNow(j, sel)) this.launch(j, now, 0)
      else { blocked = j; break }
    }
    // ... then over the others in policy order.
    let pos = -1
    if (blocked < 0) {
      const items = primary.items
      for (let i = 0; i < primary.len; i++) {
        const j = items[i]
        if (started[j] !== 0 || now - submit[j] > theta) continue
        if (machine.fitsNow(j, sel)) this.launch(j, now, 0)
        else { blocked = j; pos = i; break }
      }
    }
    if (blocked >= 0 && machine.totalFreeCpu > 0) this.backfillPass(now, blocked, k, pos)
    fifo.compact(started)
    if (primary !== fifo) primary.compact(started)
    if (this.backfill !== null && this.backfill !== fifo) this.backfill.compact(started)
  }

  /** Reserve `blocked` at its shadow time and backfill (order as in EasySimulator.backfillPass). */
  private backfillPass(now: number, blocked: number, promotedAt: number, pos: number): void {
    const { submit, started, machine } = this
    const theta = this.threshold
    // The reservation is made when a job first passes the quick reject (tryBackfill): a pass whose
    // later jobs cannot start now whatever the reservation (the usual pass behind a large blocked
    // job) makes none. Nothing starts before it, so it is the one the pass would make at its start.
    this.pending = blocked
    // With nothing running, a blocked job never fits: the reservation says so (an error, not a hang).
    if (machine.runningCount === 0) { this.reserve(blocked, now); this.pending = -1 }
    if (this.backfill === null) {
      const f = this.fifo.items
      if (pos < 0) {
        for (let k = promotedAt + 1; k < this.fifo.len && now - submit[f[k]] > theta && machine.totalFreeCpu > 0; k++) this.tryBackfill(f[k], now)
      }
      const items = this.primary.items
      for (let i = pos + 1; i < this.primary.len && machine.totalFreeCpu > 0; i++) {
        const j = items[i]
        if (started[j] !== 0 || now - submit[j] > theta) continue
        this.tryBackfill(j, now)
      }
    } else {
      const q = this.backfill
      q.rescore(now)
      const items = q.items
      for (let i = 0; i < q.len && machine.totalFreeCpu > 0; i++) {
        const j = items[i]
        if (started[j] !== 0 || j === blocked) continue
        this.tryBackfill(j, now)
      }
    }
    this.pending = -1
  }

  /**
   * The reservation of the blocked job: its shadow time (in resShadow) and nodes. The reservation
   * of an earlier pass still holds when the same job is blocked, nothing started or ended since
   * (same machine version: same running jobs, same free state, same scratch) and its shadow time is
   * not in the past (then no overdue job's clamped end moved it). A flexible job asking for CPUs
   * only is reserved as the single pool does (a count of CPUs in its partition): it may take its
   * CPUs on any nodes at the shadow time.
   */
  private reserve(blocked: number, now: number): void {
    const machine = this.machine
    if (blocked === this.resJob && machine.version === this.resVersion && this.resShadow >= now) return // countPart and extra are still those of that reservation
    let shadow: number
    this.byEst.compact() // the machine walks the running jobs alone, in order
    this.countPart = machine.isCountOnly(blocked) ? machine.demand.partition[blocked] : -1
    if (this.countPart >= 0) {
      shadow = machine.earliestCount(blocked, now, this.byEst.items, this.byEst.len, this.byEst.ends)
      this.extra = machine.extraCount
    } else shadow = machine.earliest(blocked, now, this.byEst.items, this.byEst.len, this.byEst.ends, this.res)
    this.resJob = blocked; this.resVersion = machine.version; this.resShadow = shadow
  }

  /**
   * Backfill test of job j: fits now, and ends by the shadow time (then it takes the reserved nodes
   * first) or fits within what every node has left at the shadow time beside the reservation.
   */
  private tryBackfill(j: number, now: number): void {
    const machine = this.machine, sel = this.sel
    if (machine.quickReject(j)) return
    if (this.pending >= 0) { this.reserve(this.pending, now); this.pending = -1 }
    const shadow = this.resShadow
    if (this.countPart >= 0) {
      // Count reservation: a job ending by the shadow time needs only to fit now; a longer one may
      // use at most the extra CPUs of the reserved job's partition.
      const long = now + this.requested[j] > shadow
      // A long job of a partition inside the reserved one uses at least its CPUs there: O(1) refusal.
      if (long && machine.cpusAsked(j) > this.extra && machine.partitionWithin(machine.demand.partition[j], this.countPart)) return
      if (!machine.select(j, VIEW_FREE, PREF_NONE, sel)) return
      if (long) {
        const use = machine.cpusIn(sel, this.countPart)
        if (use > this.extra) return
        this.extra -= use
      }
      this.launch(j, now, 1)
      return
    }
    if (now + this.requested[j] <= shadow) {
      if (!machine.select(j, VIEW_FREE, PREF_RESERVED, sel)) return
      machine.scratchPin(sel) // it is gone by the shadow time: what is left there does not change
    } else {
      if (machine.cappedReject(j) || !machine.select(j, VIEW_CAPPED, PREF_NONE, sel)) return
      machine.scratchPin(sel)
      machine.scratchTake(sel) // still running at the shadow time: less is left beside the reservation
    }
    this.launch(j, now, 1)
  }

  private launch(j: number, now: number, backfilled: number): void {
    const sel = this.sel
    this.machine.allocate(j, sel)
    this.start[j] = now
    this.started[j] = 1
    this.backfilled[j] = backfilled
    this.firstNode[j] = sel.len > 0 ? sel.nodes[0] : -1
    this.ends.push(j, now + this.runtime[j])
    this.byEst.insert(j)
  }

  private finish(j: number): void {
    this.machine.release(j)
    this.byEst.remove(j)
  }
}

/** The research's EASY on the node-level machine, to the end of the log. */
export function simulateEasyOnNodes(jobs: ClusterJobs, cluster: ClusterSpec, config: SimConfig, options: ClusterSimOptions = {}): ClusterRun {
  const sim = new ClusterEasySimulator(jobs, cluster, config, options)
  if (sim.runUntil(Infinity)) throw new SimulationStopped()
  return sim.result()
}

function validate(jobs: ClusterJobs, cluster: ClusterSpec): void {
  const P = cluster.partitions.length
  for (let j = 0; j < jobs.count; j++) {
    if (j > 0 && jobs.submit[j] < jobs.submit[j - 1]) throw new SimulationError(`jobs must be sorted by submit time (job index ${j})`)
    if (!(jobs.requested[j] > 0)) throw new SimulationError(`job index ${j} has no positive requested time`)
    if (!(jobs.runtime[j] >= 0)) throw new SimulationError(`job index ${j} has a negative runtime`)
    if (!(jobs.procs[j] >= 1)) throw new SimulationError(`job index ${j} needs ${jobs.procs[j]} processors`)
    if (!(jobs.partition[j] >= 0 && jobs.partition[j] < P)) throw new SimulationError(`job index ${j} has partition index ${jobs.partition[j]}; the machine has ${P}`)
  }
}
