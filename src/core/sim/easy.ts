// EASY backfilling with a reordered queue, as docs/SIMULATOR.md §EASY pass describes it:
//   events are batched per timestamp — finishes, then submissions, then ONE scheduling pass;
//   the pass orders the queue by the primary policy (ties: submit, then id), moves jobs that have
//   waited strictly longer than Θ to the head (by submit, then id), starts jobs in that order until
//   one does not fit, reserves that job at the shadow time computed from the running jobs'
//   requested times, and backfills the jobs after it (in the same order, or re-sorted by an
//   explicit backfill policy: EASY-P_R-P_B) when they fit now and either end by the shadow time or
//   fit in the extra processors.
// Jobs really end at start + actual runtime.
// With a runtime predictor (thesis ch. 4, docs/PREDICTIONS.md §Scheduling with predictions) the
// prediction takes p̃'s place in the reservation and the backfill test, a running job that
// outlives it is corrected before the next pass, and EASY-SJBF backfills by shortest prediction.
//
// Speed: everything is preallocated typed arrays; the event loop allocates nothing. Static
// policies are scored once per job and the queue stays sorted by insertion; dynamic ones are
// re-scored at each pass and re-sorted with an insertion sort (the order changes little between
// passes). Running jobs are kept in a min-heap by real end (events) and in an array sorted by
// estimated end (the reservation). A pass after a submission alone tests only the newcomers when
// that gives the full scan's result (docs/SIMULATOR.md §Quiet passes).
import { resolvePolicy, type Policy, type PolicyInput } from './policies'
import type { SimConfig, SimJobs, SimOptions } from './types'
import { ByEstimatedEnd, EndHeap } from './running'
import { grown } from '../util/memory'
import { findCorrection, type CorrectionDeclaration } from '../predict/corrections'
import { capPrediction, checkPrediction, findPredictor, PredictionConfigError } from '../predict/predictors'
import type { OnlinePredictor, PredictionConfig } from '../predict/types'

export class SimulationError extends Error {}

/** Thrown by simulate() when the options' onCheck hook asked it to stop. */
export class SimulationStopped extends Error {
  constructor() { super('the simulation was stopped') }
}

/** At most this many jobs submitted since the last backfill scan for a quiet pass to test them
 * alone (docs/SIMULATOR.md §Quiet passes); more, and the pass scans the whole queue. */
const QUIET_MAX_NEW = 16

/** Event times processed between two calls of the onCheck hook (docs/SIMULATOR.md §Progress). */
export const SIM_CHECK_EVERY = 4096

export function simulate(jobs: SimJobs, machineProcs: number, config: SimConfig, options: SimOptions = {}): Float64Array {
  const sim = new EasySimulator(jobs, machineProcs, config, options)
  if (sim.runUntil(Infinity)) throw new SimulationStopped()
  return sim.start
}

/** An ordered list of waiting jobs: ascending index (FIFO) or by a policy's priority. Also the
 * queue of the node-level EASY (src/core/cluster/easy.ts): one implementation of the order. */
export class Queue {
  /** The waiting jobs, items[0..len): grown by doubling up to n as jobs arrive (a replay's queue is
   * usually far shorter than its log), so read it again after an add. */
  items: Int32Array
  len = 0
  readonly key: Float64Array
  constructor(private readonly n: number, readonly policy: Policy | null, private readonly input: PolicyInput) {
    this.items = new Int32Array(Math.min(n, 1024))
    this.key = policy ? new Float64Array(n) : new Float64Array(0)
  }

  /** Adds job j (arrivals come in index order). */
  add(j: number, now: number): void {
    if (this.len === this.items.length) this.items = grown(this.items, this.len, 0, this.n)
    const p = this.policy
    if (p === null) { this.items[this.len++] = j; return }
    const k = p.priority(this.input, j, now)
    this.key[j] = k
    if (p.dynamic) { this.items[this.len++] = j; return } // sorted at the next pass
    // Static: insert after every job that runs before j (higher key, or equal key: smaller index).
    let lo = 0, hi = this.len
    const items = this.items, key = this.key
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (key[items[mid]] >= k) lo = mid + 1; else hi = mid
    }
    items.copyWithin(lo + 1, lo, this.len)
    items[lo] = j
    this.len++
  }

  /** Dynamic policies: re-score every waiting job at `now` and restore the order. */
  rescore(now: number): void {
    const p = this.policy
    if (p === null || !p.dynamic) return
    const items = this.items, key = this.key, input = this.input
    for (let k = 0; k < this.len; k++) key[items[k]] = p.priority(input, items[k], now)
    for (let k = 1; k < this.len; k++) {
      const j = items[k], kj = key[j]
      let m = k - 1
      while (m >= 0) {
        const i = items[m], ki = key[i]
        if (ki > kj || (ki === kj && i < j)) break
        items[m + 1] = i
        m--
      }
      items[m + 1] = j
    }
  }

  /** Drops the jobs marked as started. */
  compact(started: Uint8Array): void {
    const items = this.items
    let w = 0
    for (let r = 0; r < this.len; r++) {
      const j = items[r]
      if (started[j] === 0) items[w++] = j
    }
    this.len = w
  }
}

/**
 * The simulator as an object, for callers that change the policy while the system runs (online
 * selection, thesis ch. 6): `runUntil(t)` processes every event before t, `setConfig` changes the
 * order from the next scheduling pass on, `start` holds the start times so far (NaN = not yet).
 */
export class EasySimulator {
  private readonly n: number
  private readonly submit: Float64Array
  private readonly runtime: Float64Array
  private readonly requested: Float64Array
  private readonly procs: Int32Array
  /** p̂: the prediction each job is planned with (p̃ itself without a predictor; online predictors
   * fill it at submission). Never written after submission: corrections move estEnd only. */
  readonly predictions: Float64Array
  /** What the reservation and the backfill test plan with: the predictions, or p̃ when they only order the queue (use 'order'). */
  private readonly plan: Float64Array
  private readonly prediction: PredictionConfig | null
  private readonly online: OnlinePredictor | null
  private readonly correction: CorrectionDeclaration | null
  /** Corrections so far per job (saturating), and scratch for the jobs corrected in one pass. */
  private readonly corrected: Uint8Array
  private readonly scratch: Int32Array
  /** Corrections applied so far in the whole run. */
  corrections = 0
  /** Quiet passes so far: passes that tested only the jobs submitted since the last backfill scan. */
  quietPasses = 0
  /** The input of the SJBF backfill order: SPF read on the predictions. */
  private readonly predInput: PolicyInput
  private threshold: number
  readonly start: Float64Array
  private readonly started: Uint8Array
  /** Waiting jobs by arrival: the thresholded (promoted) jobs are always a prefix of it. */
  private readonly fifo: Queue
  /** Waiting jobs by the primary policy (the fifo itself for FCFS). */
  private primary: Queue
  /** Waiting jobs by the explicit backfill policy, or null for 'same'. */
  private backfill: Queue | null
  private readonly input: PolicyInput
  private next = 0
  /** Time of the last processed event. */
  now = -Infinity
  // Running jobs: min-heap by real end, and a list sorted by estimated end (running.ts).
  private readonly ends: EndHeap
  /** With a correction, each running job's estimated end (corrections move it); without one it is
   * start + plan, never stored per job (the list of running jobs keeps it beside each). */
  private readonly estEnd: Float64Array
  private readonly byEst: ByEstimatedEnd
  private free: number
  /** Compat 'ocst': scratch for the shadow-time ties (null = our rule); the extra processors of
   * the last ocstReservation. */
  private readonly ocstTies: Int32Array | null
  private ocstExtra = 0
  /** Jobs launched so far: a pass that launched none leaves its queues as they are (no compaction). */
  private launches = 0
  /** The progress/stop hook (null: none, and the loop pays only a null test) and the event times
   * left before its next call. */
  private readonly onCheck: ((jobsStarted: number, now: number) => boolean) | null
  private readonly checkEvery: number
  private countdown: number
  /** Quiet passes (docs/SIMULATOR.md §Quiet passes): whether this run's rules allow them (static
   * orders, no correction, not ocst), and what the last backfill scan left: its blocked job (-1:
   * nothing to reuse; a job's end clears it), shadow time, extra processors, and the jobs launched
   * and submitted by its end. */
  private quietAllowed = false
  private quietBlocked = -1
  private quietShadow = 0
  private quietExtra = 0
  private quietLaunches = 0
  private quietNext = 0
  /** The jobs a quiet pass tests, in the backfill order. */
  private readonly fresh = new Int32Array(QUIET_MAX_NEW)

  constructor(jobs: SimJobs, private readonly m: number, config: SimConfig, options: SimOptions) {
    const n = (this.n = jobs.count)
    this.submit = jobs.submit; this.runtime = jobs.runtime; this.requested = jobs.requested; this.procs = jobs.procs
    validate(jobs, m)
    this.input = { submit: jobs.submit, requested: jobs.requested, procs: jobs.procs, windowStart: options.windowStart ?? (n > 0 ? jobs.submit[0] : 0) }
    // The predictor is fixed for the run (docs/PREDICTIONS.md §Scheduling with predictions).
    const pc = (this.prediction = config.prediction ?? null)
    if (pc === null) {
      this.predictions = jobs.requested
      this.online = null
      this.correction = null
    } else {
      checkPrediction(pc)
      if (jobs.user === undefined && findPredictor(pc.predictor.id)!.mayUnderpredict) throw new PredictionConfigError(`the ${pc.predictor.id} predictor reads who submitted each job: the jobs have no user column`)
      const run = findPredictor(pc.predictor.id)!.create({ ...jobs, user: jobs.user ?? new Int32Array(n).fill(-1) }, pc.predictor)
      if (run.kind === 'static') { this.predictions = run.predictions; this.online = null } else { this.predictions = new Float64Array(n); this.online = run.predictor }
      this.correction = pc.correction === 'none' || pc.use === 'order' ? null : findCorrection(pc.correction)!
    }
    this.plan = pc?.use === 'order' ? jobs.requested : this.predictions
    this.corrected = new Uint8Array(this.correction === null ? 0 : n)
    this.scratch = new Int32Array(this.correction === null ? 0 : n)
    this.predInput = { ...this.input, requested: this.predictions }
    this.fifo = new Queue(n, null, this.input)
    this.threshold = Infinity
    this.primary = this.fifo
    this.backfill = null
    this.setConfig(config)
    this.start = new Float64Array(n).fill(NaN)
    this.started = new Uint8Array(n)
    this.estEnd = new Float64Array(this.correction === null ? 0 : n)
    // At most one running job per processor (validate: every job needs 1..m of them).
    const running = Math.min(n, Math.ceil(m))
    this.ends = new EndHeap(running)
    this.byEst = this.correction === null ? new ByEstimatedEnd(running, null, this.start, this.plan) : new ByEstimatedEnd(running, this.estEnd)
    this.free = m
    if (options.compat !== undefined && options.compat !== 'none' && options.compat !== 'ocst') throw new SimulationError(`compat must be none or ocst, got ${String(options.compat)}`)
    this.ocstTies = options.compat === 'ocst' ? new Int32Array(n) : null
    this.quietAllowed = this.quietRules()
    this.onCheck = options.onCheck ?? null
    this.checkEvery = Math.max(1, Math.floor(options.checkEvery ?? SIM_CHECK_EVERY))
    this.countdown = this.checkEvery
  }

  /** Jobs started so far (submitted minus waiting). */
  get jobsStarted(): number { return this.next - this.fifo.len }

  /**
   * Sets the policy and threshold used from the next scheduling pass on. The waiting jobs are
   * re-queued under the new order (in arrival order, so ties stay by submit then id).
   */
  setConfig(config: SimConfig): void {
    if (config.threshold !== null && !(config.threshold >= 0)) throw new SimulationError(`threshold must be ≥ 0 seconds or null (none), got ${config.threshold}`)
    if (!samePredictor(config.prediction ?? null, this.prediction)) throw new SimulationError('the predictor and its correction are fixed for a run: only the order and the threshold may change')
    const sjbf = config.prediction?.sjbf === true
    if (sjbf && config.backfill !== 'same') throw new SimulationError('SJBF is itself the backfill order: give the backfill as same')
    const byPrediction = config.prediction?.use === 'order'
    if (byPrediction && (resolvePolicy(config.primary).id !== 'FCFS' || config.backfill !== 'same' || sjbf)) throw new SimulationError('ordering by prediction replaces the queue order: give FCFS with the same backfill order')
    this.threshold = config.threshold === null ? Infinity : config.threshold
    const n = this.n, input = this.input
    const primary = byPrediction ? resolvePolicy('SPF') : resolvePolicy(config.primary)
    this.primary = byPrediction ? new Queue(n, primary, this.predInput) : primary.id === 'FCFS' ? this.fifo : new Queue(n, primary, input)
    if (sjbf) this.backfill = new Queue(n, resolvePolicy('SPF'), this.predInput)
    else if (config.backfill === 'same') this.backfill = null
    else {
      const bp = resolvePolicy(config.backfill)
      this.backfill = bp.id === 'FCFS' ? this.fifo : bp === primary && this.threshold === Infinity ? null : new Queue(n, bp, input)
    }
    // The last scan stays valid under a new order (its argument holds whatever the order), but a
    // change of rules starts afresh: nothing scanned under the old ones is reused.
    this.quietAllowed = this.quietRules()
    this.quietBlocked = -1
    const waiting = this.fifo.items
    for (let k = 0; k < this.fifo.len; k++) {
      const j = waiting[k]
      if (this.primary !== this.fifo) this.primary.add(j, this.now)
      if (this.backfill !== null && this.backfill !== this.fifo) this.backfill.add(j, this.now)
    }
  }

  /**
   * Processes every event strictly before `t` (Infinity: until every job has finished). Answers
   * true when the onCheck hook stopped it early: it stops after a whole event time, so the state is
   * the one runUntil(next event time) leaves, and calling runUntil again continues the same
   * schedule (a caller can yield to its event loop and go on, or give up). A run that has nothing
   * left answers false even if the hook asked to stop.
   */
  runUntil(t: number): boolean {
    const { n, submit } = this
    const onCheck = this.onCheck
    const online = this.online
    const ends = this.ends
    while (this.next < n || ends.len > 0) {
      const tSub = this.next < n ? submit[this.next] : Infinity
      const tFin = ends.len > 0 ? ends.topEnd() : Infinity
      const now = tSub < tFin ? tSub : tFin
      if (!(now < t)) return false
      this.now = now
      while (ends.len > 0 && ends.topEnd() === now) this.finish(ends.pop(), now)
      while (this.next < n && submit[this.next] === now) {
        const j = this.next++
        if (online !== null) this.predictions[j] = capPrediction(online.predict(j, now), this.requested[j])
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

  /** One scheduling pass at `now` (Algorithm 2 of [001] §5.2.1 / §6.2.2, with the test of docs/SIMULATOR.md §Shadow-time rules). */
  private schedule(now: number): void {
    const { fifo, primary, procs, submit, started } = this
    const theta = this.threshold
    if (this.correction !== null) this.correct(now)
    if (primary !== fifo) primary.rescore(now)
    // Primary phase, first over the promoted jobs (now − r > Θ, in submit order) ...
    const launchesBefore = this.launches
    let blocked = -1
    let promoted = 0
    const f = fifo.items
    while (promoted < fifo.len && now - submit[f[promoted]] > theta) promoted++
    let k = 0
    for (; k < promoted; k++) {
      const j = f[k]
      if (procs[j] <= this.free) this.launch(j, now)
      else { blocked = j; break }
    }
    // ... then over the others in policy order.
    let pos = -1
    if (blocked < 0) {
      const items = primary.items
      for (let i = 0; i < primary.len; i++) {
        const j = items[i]
        if (started[j] !== 0 || now - submit[j] > theta) continue
        if (procs[j] <= this.free) this.launch(j, now)
        else { blocked = j; pos = i; break }
      }
    }
    let scanned = false
    if (blocked >= 0 && this.free > 0) {
      if (blocked === this.quietBlocked && this.launches === this.quietLaunches && this.quietShadow >= now && this.next - this.quietNext <= QUIET_MAX_NEW) this.backfillNew(now)
      else { this.backfillPass(now, blocked, k, pos); scanned = this.quietAllowed }
    }
    if (this.launches !== launchesBefore) {
      fifo.compact(started)
      if (primary !== fifo) primary.compact(started)
      if (this.backfill !== null && this.backfill !== fifo) this.backfill.compact(started)
    }
    if (scanned) {
      // Reusable until a job ends or starts outside a backfill scan (docs/SIMULATOR.md §Quiet passes).
      this.quietBlocked = blocked
      this.quietLaunches = this.launches
      this.quietNext = this.next
    }
  }

  /** Whether this run's rules allow quiet passes: orders that do not change while jobs wait, and
   * a reservation that jobs started by a pass do not move (not ocst's, no corrections). */
  private quietRules(): boolean {
    return this.correction === null && this.ocstTies === null && this.primary.policy?.dynamic !== true && this.backfill?.policy?.dynamic !== true
  }

  /**
   * A quiet pass (docs/SIMULATOR.md §Quiet passes): no job has started or ended since the last
   * backfill scan, the same job is blocked and the shadow time is not past.
   * Every job that scan tested still fails (fewer processors free, no more extra ones, a later
   * now), and the reservation is the one it left: only the jobs submitted since are tested, in the
   * backfill order, with what that scan left.
   */
  private backfillNew(now: number): void {
    const procs = this.procs, shadow = this.quietShadow, fresh = this.fresh
    const q = this.backfill ?? this.primary
    const from = this.quietNext, count = this.next - from
    // The new jobs in q's order: by index (FIFO), or by key, higher first, ties by index.
    for (let i = 0; i < count; i++) {
      const j = from + i
      let m = i - 1
      if (q.policy !== null) {
        const key = q.key, kj = key[j]
        while (m >= 0 && key[fresh[m]] < kj) { fresh[m + 1] = fresh[m]; m-- }
      }
      fresh[m + 1] = j
    }
    this.quietPasses++
    let extra = this.quietExtra
    for (let i = 0; i < count && this.free > 0; i++) {
      const j = fresh[i]
      if (procs[j] <= this.free) extra = this.backfillOne(j, now, shadow, extra)
    }
    this.quietExtra = extra
    this.quietLaunches = this.launches
    this.quietNext = this.next
  }

  /**
   * Reserve `blocked` at the shadow time and backfill. `promotedAt`/`pos` say where the blocked
   * job stood in the thresholded order, for backfilling in that same order.
   */
  private backfillPass(now: number, blocked: number, promotedAt: number, pos: number): void {
    const { procs, submit, started } = this
    const theta = this.threshold
    // Shadow time and extra processors (docs/SIMULATOR.md §Shadow-time rules), from the running jobs by estimated end.
    // Extra = processors free at the shadow time beyond what the blocked job needs (Mu'alem &
    // Feitelson): every job whose estimated end equals the shadow time counts, so the result does
    // not depend on the order of ties (ocst's loop stops at the first one: compat 'ocst').
    // A job already past its requested time is expected to end now.
    const need = procs[blocked]
    let shadow: number, extra: number
    if (this.ocstTies === null) {
      const by = this.byEst, run = by.items, runLen = by.len
      let acc = this.free
      shadow = Infinity
      let r = 0
      for (; r < runLen; r++) {
        const j = run[r]
        if (j < 0) continue // GONE: a slot whose job has ended (running.ts)
        acc += procs[j]
        if (acc >= need) {
          const e = by.ends[r]
          shadow = e > now ? e : now
          break
        }
      }
      if (shadow === Infinity) throw new SimulationError(`job ${blocked} needs ${need} processors, more than the machine's ${this.m}`)
      for (r++; r < runLen && by.ends[r] <= shadow; r++) { const j = run[r]; if (j >= 0) acc += procs[j] }
      extra = acc - need
    } else {
      shadow = this.ocstReservation(now, blocked)
      extra = this.ocstExtra
    }
    // Backfill: each job after the blocked one that fits now gets the test of backfillOne.
    if (this.backfill === null) {
      // Same (thresholded) order: the rest of the promoted prefix, then the policy order.
      const f = this.fifo.items
      if (pos < 0) {
        let k = promotedAt + 1
        for (; k < this.fifo.len && now - submit[f[k]] > theta && this.free > 0; k++) {
          const j = f[k]
          if (procs[j] > this.free) continue
          extra = this.backfillOne(j, now, shadow, extra)
        }
        pos = -1
      }
      const items = this.primary.items
      for (let i = pos + 1; i < this.primary.len && this.free > 0; i++) {
        const j = items[i]
        if (procs[j] > this.free || started[j] !== 0 || now - submit[j] > theta) continue
        extra = this.backfillOne(j, now, shadow, extra)
      }
    } else {
      const q = this.backfill
      q.rescore(now)
      const items = q.items
      for (let i = 0; i < q.len && this.free > 0; i++) {
        const j = items[i]
        if (procs[j] > this.free || started[j] !== 0 || j === blocked) continue
        extra = this.backfillOne(j, now, shadow, extra)
      }
    }
    this.quietShadow = shadow
    this.quietExtra = extra
  }

  /**
   * The backfill test of job j, which fits in the free processors now: it starts when it ends by
   * the shadow time, or when it fits in the extra processors, which it then takes. Returns the
   * extra processors left. The one rule of every backfill loop, full scan and quiet pass.
   */
  private backfillOne(j: number, now: number, shadow: number, extra: number): number {
    const q = this.procs[j]
    const shorter = now + this.plan[j] <= shadow
    if (!shorter && q > extra) return extra
    this.launch(j, now)
    return shorter ? extra : extra - q
  }

  /**
   * The seeds' simulator's rule (compat 'ocst', docs/SIMULATOR.md §Shadow-time rules): release the
   * running jobs in order of estimated end (at least now), ties by fewest processors then index,
   * and stop at the first release that makes `blocked` fit. Returns the shadow time; the extra
   * processors (counted up to that release only) are left in `ocstExtra`.
   */
  private ocstReservation(now: number, blocked: number): number {
    this.byEst.compact() // the running jobs alone, in order
    const procs = this.procs, by = this.byEst, run = by.items, runLen = by.len, ties = this.ocstTies!
    const need = procs[blocked]
    let acc = this.free
    let r = 0
    while (r < runLen) {
      // The group of running jobs with the same estimated end (clamped to now), run[r..g).
      const er = by.ends[r], e0 = er > now ? er : now
      let g = r, sum = 0
      for (; g < runLen; g++) {
        const eg = by.ends[g]
        if ((eg > now ? eg : now) !== e0) break
        sum += procs[run[g]]
      }
      if (acc + sum >= need) {
        // Release the group's jobs by (processors, index) and stop at the first that fits.
        let len = 0
        for (let k = r; k < g; k++) {
          const j = run[k]
          let m = len - 1
          while (m >= 0 && (procs[ties[m]] > procs[j] || (procs[ties[m]] === procs[j] && ties[m] > j))) { ties[m + 1] = ties[m]; m-- }
          ties[m + 1] = j
          len++
        }
        for (let k = 0; k < len; k++) {
          acc += procs[ties[k]]
          if (acc >= need) { this.ocstExtra = acc - need; return e0 }
        }
      }
      acc += sum
      r = g
    }
    throw new SimulationError(`job ${blocked} needs ${need} processors, more than the machine's ${this.m}`)
  }

  private launch(j: number, now: number): void {
    this.launches++
    this.start[j] = now
    this.started[j] = 1
    this.free -= this.procs[j]
    this.ends.push(j, now + this.runtime[j])
    if (this.correction !== null) this.estEnd[j] = now + this.plan[j]
    this.byEst.insert(j)
    if (this.online !== null) this.online.started(j, now)
  }

  private finish(j: number, now: number): void {
    this.quietBlocked = -1
    this.free += this.procs[j]
    this.byEst.remove(j)
    if (this.online !== null) this.online.finished(j, now)
  }

  /**
   * The correction (docs/PREDICTIONS.md §Corrections): every running job whose predicted end is
   * not after `now` (the jobs ending now have already left) gets the rule's next prediction, as
   * many times as it takes to be past `now` or to reach p̃. They are the first jobs by estimated
   * end: taken out, moved, and put back in order.
   */
  private correct(now: number): void {
    this.byEst.compact() // the running jobs alone, in order
    const by = this.byEst, run = by.items, estEnd = this.estEnd
    let m = 0
    while (m < by.len && estEnd[run[m]] <= now) m++
    if (m === 0) return
    const sc = this.scratch, rule = this.correction!, requested = this.requested, start = this.start, count = this.corrected
    by.takeFirst(m, sc)
    for (let k = 0; k < m; k++) {
      const j = sc[k], req = requested[j], s = start[j]
      let e = estEnd[j] - s
      while (s + e <= now && e < req) {
        const next = rule.next(e, count[j], req)
        e = next < req ? next : req
        if (count[j] < 255) count[j]++
        this.corrections++
      }
      estEnd[j] = s + e
      by.insert(j)
    }
  }
}

function samePredictor(a: PredictionConfig | null, b: PredictionConfig | null): boolean {
  if (a === null || b === null) return a === b
  return a.predictor.id === b.predictor.id && (a.predictor.id === 'eloss' ? a.predictor.loss : '') === (b.predictor.id === 'eloss' ? b.predictor.loss : '') && a.correction === b.correction && (a.use ?? 'plan') === (b.use ?? 'plan')
}

function validate(jobs: SimJobs, m: number): void {
  if (!(Number.isInteger(m) && m > 0)) throw new SimulationError(`machine size must be a positive whole number, got ${m}`)
  for (let j = 0; j < jobs.count; j++) {
    if (j > 0 && jobs.submit[j] < jobs.submit[j - 1]) throw new SimulationError(`jobs must be sorted by submit time (job index ${j})`)
    if (!(jobs.requested[j] > 0)) throw new SimulationError(`job index ${j} has no positive requested time`)
    if (!(jobs.runtime[j] >= 0)) throw new SimulationError(`job index ${j} has a negative runtime`)
    if (!(jobs.procs[j] >= 1 && jobs.procs[j] <= m)) throw new SimulationError(`job index ${j} needs ${jobs.procs[j]} processors; the machine has ${m}`)
  }
}
