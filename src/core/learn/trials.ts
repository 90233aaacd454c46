// The trials of the learned-priority method (SC'17; docs/LEARN.md §Trials): draw (S, Q) tuples of
// consecutive jobs from the training part of the site's log, simulate random permutations of Q
// under the product's EASY, and score each task of Q by eq. 3. Pure and seeded: a tuple's samples
// depend only on (jobs, machine, config, tuple index), never on which worker ran it.
//
// A trial: the |S| + |Q| tasks are all submitted at time 0, S first in log order and then Q in the
// order of the permutation p, onto an empty machine of the log's size; EASY-FCFS (ties: index)
// therefore starts S first and queues Q in the order p. Its value is the AvgBsld (τ = 10 s) of the
// |Q| tasks of Q. TrialSimulator is a specialised copy of src/core/sim/easy.ts for this case
// (one submit time, FCFS, no threshold, no predictor, our shadow rule): preallocated, allocation
// free, and proved equal to simulate() by test/unit/learn-trials-sim.test.ts.
import { Rng, deriveSeed } from '../util/random'
import type { ConvergencePoint, TaskSample, TrialsConfig, TrialsResult, TupleCheckpoint, TupleResult } from './types'

/** The columns a tuple is drawn from (a training part of a log, sorted by submit time). */
export interface TrialJobs {
  readonly count: number
  readonly submit: Float64Array
  readonly runtime: Float64Array
  readonly requested: Float64Array
  readonly procs: Int32Array
}

export class TrialsError extends Error {}

/** Trials between two looks at the convergence (early stop, progress, the convergence series).
 * Fixed, so that where a tuple stops never depends on the caller. */
export const TRIALS_BATCH = 4096

/** Checks a config and the jobs it runs on; throws TrialsError with a sentence for people. */
export function checkTrials(jobs: TrialJobs, machineProcs: number, config: TrialsConfig): void {
  const { sizeS, sizeQ, trials, tuples, stopAt, tau } = config
  if (!(Number.isInteger(sizeS) && sizeS >= 0 && sizeS <= 1024)) throw new TrialsError(`|S| must be a whole number from 0 to 1024, got ${sizeS}`)
  if (!(Number.isInteger(sizeQ) && sizeQ >= 2 && sizeQ <= 1024)) throw new TrialsError(`|Q| must be a whole number from 2 to 1024, got ${sizeQ}`)
  if (!(Number.isInteger(trials) && trials >= 1 && trials <= 1e9)) throw new TrialsError(`the trials per tuple must be a whole number from 1 to 10⁹, got ${trials}`)
  if (!(Number.isInteger(tuples) && tuples >= 1 && tuples <= 1e6)) throw new TrialsError(`the number of tuples must be a whole number from 1 to 10⁶, got ${tuples}`)
  if (!(stopAt >= 0 && stopAt < Infinity)) throw new TrialsError(`the early-stop level must be ≥ 0 (0 = never), got ${stopAt}`)
  if (!(tau > 0 && tau < Infinity)) throw new TrialsError(`τ must be a positive number of seconds, got ${tau}`)
  if (!(Number.isInteger(machineProcs) && machineProcs > 0)) throw new TrialsError(`machine size must be a positive whole number, got ${machineProcs}`)
  if (jobs.count < sizeS + sizeQ) throw new TrialsError(`the training part has ${jobs.count} jobs; a tuple needs ${sizeS + sizeQ} (|S| + |Q|)`)
}

/** The index of tuple k's first job: uniform over the windows of |S| + |Q| consecutive jobs. */
export function tupleStart(jobsCount: number, config: TrialsConfig, k: number): number {
  const rng = new Rng(deriveSeed(config.seed, `learn tuple ${k}`))
  return rng.int(jobsCount - (config.sizeS + config.sizeQ) + 1)
}

/**
 * EASY-FCFS on N = |S| + |Q| jobs all submitted at time 0, queued in a given order: the rules of
 * src/core/sim/easy.ts (docs/SIMULATOR.md §EASY pass) for that case. Every array is allocated
 * once; run() allocates nothing.
 */
export class TrialSimulator {
  readonly n: number
  readonly runtime: Float64Array
  readonly requested: Float64Array
  readonly procs: Int32Array
  /** Start time of each job of the last run (seconds from the common submit). */
  readonly start: Float64Array
  private readonly queue: Int32Array
  private readonly realEnd: Float64Array
  private readonly estEnd: Float64Array
  /** Running jobs, sorted by estimated end (insertion order among equal ends). */
  private readonly byEst: Int32Array
  private runLen = 0
  private free = 0

  constructor(n: number, readonly m: number) {
    this.n = n
    this.runtime = new Float64Array(n)
    this.requested = new Float64Array(n)
    this.procs = new Int32Array(n)
    this.start = new Float64Array(n)
    this.queue = new Int32Array(n)
    this.realEnd = new Float64Array(n)
    this.estEnd = new Float64Array(n)
    this.byEst = new Int32Array(n)
  }

  /** Simulates the jobs queued in `order` (a permutation of 0 … n − 1); fills `start`. */
  run(order: Int32Array): void {
    const n = this.n, q = this.queue, realEnd = this.realEnd, procs = this.procs, byEst = this.byEst
    for (let i = 0; i < n; i++) q[i] = order[i]
    let qlen = n
    this.free = this.m
    this.runLen = 0
    let now = 0
    for (;;) {
      qlen = this.pass(now, qlen)
      if (qlen === 0) return
      // Never loop: a job wider than the machine can never start (runTuple refuses such jobs).
      if (this.runLen === 0) throw new TrialsError(`a job needs more than the machine's ${this.m} processors`)
      // Next event: the earliest real end; every job ending then leaves before the next pass.
      let next = Infinity
      for (let r = 0; r < this.runLen; r++) { const e = realEnd[byEst[r]]; if (e < next) next = e }
      now = next
      let w = 0
      for (let r = 0; r < this.runLen; r++) {
        const j = byEst[r]
        if (realEnd[j] === now) this.free += procs[j]
        else byEst[w++] = j
      }
      this.runLen = w
    }
  }

  /** One scheduling pass at `now` over the first `qlen` queued jobs; answers the jobs left waiting. */
  private pass(now: number, qlen: number): number {
    const q = this.queue, procs = this.procs
    let i = 0
    while (i < qlen && procs[q[i]] <= this.free) this.launch(q[i++], now)
    if (i === qlen) return 0
    const blocked = q[i]
    let w = i + 1 // jobs before w are kept (the blocked job and the ones not backfilled)
    if (this.free > 0) {
      // Shadow time and extra processors (docs/SIMULATOR.md §Shadow-time rules).
      const need = procs[blocked], byEst = this.byEst, estEnd = this.estEnd, runLen = this.runLen
      let acc = this.free, shadow = Infinity, r = 0
      for (; r < runLen; r++) {
        const j = byEst[r]
        acc += procs[j]
        if (acc >= need) { const e = estEnd[j]; shadow = e > now ? e : now; break }
      }
      for (r++; r < runLen && estEnd[byEst[r]] <= shadow; r++) acc += procs[byEst[r]]
      let extra = acc - need
      const requested = this.requested
      let k = i + 1
      for (; k < qlen && this.free > 0; k++) {
        const j = q[k]
        let go = false
        if (procs[j] <= this.free) {
          const shorter = now + requested[j] <= shadow
          if (shorter || procs[j] <= extra) { go = true; if (!shorter) extra -= procs[j] }
        }
        if (go) this.launch(j, now)
        else q[w++] = j
      }
      for (; k < qlen; k++) q[w++] = q[k]
    } else {
      w = qlen
    }
    // Drop the started prefix (0 … i − 1): the waiting jobs are q[i … w).
    q.copyWithin(0, i, w)
    return w - i
  }

  private launch(j: number, now: number): void {
    this.start[j] = now
    this.free -= this.procs[j]
    this.realEnd[j] = now + this.runtime[j]
    const e = (this.estEnd[j] = now + this.requested[j])
    const byEst = this.byEst, estEnd = this.estEnd
    let r = this.runLen++
    while (r > 0 && estEnd[byEst[r - 1]] > e) { byEst[r] = byEst[r - 1]; r-- }
    byEst[r] = j
  }
}

/** AvgBsld of jobs from..n−1 of a trial (all submitted at 0): mean of max((start + p)/max(p, τ), 1). */
export function trialAvgBsld(sim: TrialSimulator, from: number, tau: number): number {
  const start = sim.start, runtime = sim.runtime
  let sum = 0
  for (let j = from; j < sim.n; j++) {
    const p = runtime[j]
    const b = (start[j] + p) / (p > tau ? p : tau)
    sum += b > 1 ? b : 1
  }
  return sum / (sim.n - from)
}

/**
 * The eq. 3 accumulator of one tuple: per task t of Q, A_t = Σ AvgBsld of the trials whose first
 * task is t and B_t = Σ of their squares; over all trials Y = Σ AvgBsld and Y2 = Σ squares.
 * score(t) = A_t / Y. The normalised std (docs/LEARN.md §Trials) is |Q| times the root mean
 * square over t of the delta-method standard error of score(t).
 */
export class ScoreAccumulator {
  readonly a: Float64Array
  readonly b: Float64Array
  y = 0
  y2 = 0
  trials = 0
  constructor(readonly sizeQ: number) {
    this.a = new Float64Array(sizeQ)
    this.b = new Float64Array(sizeQ)
  }

  add(first: number, value: number): void {
    this.a[first] += value
    this.b[first] += value * value
    this.y += value
    this.y2 += value * value
    this.trials++
  }

  score(t: number): number {
    return this.y > 0 ? this.a[t] / this.y : NaN
  }

  /** |Q| · sqrt(mean_t Var(score(t))), Var(score(t)) ≈ Σ_i (x_ti − c_t y_i)² / (T · Σ_i y_i)
   * (ratio estimator, x_ti = y_i when trial i starts with t). Infinity before two trials. */
  normStd(): number {
    const T = this.trials, Q = this.sizeQ
    if (T < 2 || !(this.y > 0)) return Infinity
    let v = 0
    for (let t = 0; t < Q; t++) {
      const c = this.a[t] / this.y
      const z2 = this.b[t] * (1 - 2 * c) + c * c * this.y2
      v += (z2 > 0 ? z2 : 0) / (this.y * this.y)
    }
    return Q * Math.sqrt(v / Q)
  }
}

/** Where a running tuple is, after each batch: the trials done in this tuple so far, and its
 * checkpoint if the caller wants one (built only when called). Answering true cancels. */
export type TupleProgress = (trialsDone: number, checkpoint: () => TupleCheckpoint) => boolean | void

/** True when `cp` is a checkpoint runTuple can continue for tuple k under `config`: its tuple, a
 * whole number of batches below the ceiling, one convergence point per batch (not yet below the
 * early-stop level: the tuple would have stopped), |Q| finite sums. */
export function isCheckpointOf(cp: TupleCheckpoint, config: TrialsConfig, k: number): boolean {
  const batches = cp.trials / TRIALS_BATCH
  const finite = (x: unknown) => typeof x === 'number' && Number.isFinite(x)
  if (cp.tuple !== k || typeof cp.trials !== 'number' || !Number.isInteger(batches) || batches < 1 || cp.trials >= config.trials) return false
  if (!Array.isArray(cp.a) || !Array.isArray(cp.b) || cp.a.length !== config.sizeQ || cp.b.length !== config.sizeQ || !cp.a.every(finite) || !cp.b.every(finite) || !finite(cp.y) || !finite(cp.y2)) return false
  if (!Array.isArray(cp.convergence) || cp.convergence.length !== batches) return false
  for (const [i, c] of cp.convergence.entries()) {
    if (c.trials !== (i + 1) * TRIALS_BATCH || !(typeof c.normStd === 'number' && !Number.isNaN(c.normStd))) return false
    if (config.stopAt > 0 && c.normStd < config.stopAt) return false
  }
  return true
}

/** The next permutation of Q: Fisher–Yates on Q's positions of `order` (after S's), continuing
 * from the previous permutation (still uniform). */
function permuteQ(rng: Rng, order: Int32Array, sizeS: number, sizeQ: number): void {
  for (let i = sizeQ - 1; i > 0; i--) {
    const r = sizeS + rng.int(i + 1), t = order[sizeS + i]
    order[sizeS + i] = order[r]; order[r] = t
  }
}

/**
 * Runs tuple k: draws its window, simulates up to `config.trials` random permutations of Q in
 * batches of TRIALS_BATCH, stopping after a batch once the normalised std is below stopAt.
 * `onBatch` is called after each batch with the trials so far; answering true cancels (throws
 * TrialsCancelled). `from` continues a checkpoint of the same tuple (isCheckpointOf): the same
 * result as a run from the start. Deterministic for (jobs, machine, config, k).
 */
export function runTuple(jobs: TrialJobs, machineProcs: number, config: TrialsConfig, k: number, onBatch?: TupleProgress, from?: TupleCheckpoint): TupleResult {
  checkTrials(jobs, machineProcs, config)
  const { sizeS, sizeQ, tau } = config
  const n = sizeS + sizeQ
  const first = tupleStart(jobs.count, config, k)
  const sim = new TrialSimulator(n, machineProcs)
  for (let i = 0; i < n; i++) {
    const j = first + i
    const p = jobs.procs[j]
    if (!(p >= 1 && p <= machineProcs)) throw new TrialsError(`job index ${j} of the training part needs ${p} processors; the machine has ${machineProcs}`)
    if (!(jobs.requested[j] > 0 && jobs.requested[j] < Infinity && jobs.runtime[j] >= 0 && jobs.runtime[j] < Infinity)) throw new TrialsError(`job index ${j} of the training part has no positive finite requested time or no finite runtime ≥ 0`)
    sim.runtime[i] = jobs.runtime[j]; sim.requested[i] = jobs.requested[j]; sim.procs[i] = p
  }
  const rng = new Rng(deriveSeed(config.seed, `learn trials ${k}`))
  const order = new Int32Array(n)
  for (let i = 0; i < n; i++) order[i] = i
  const acc = new ScoreAccumulator(sizeQ)
  const convergence: ConvergencePoint[] = []
  if (from) {
    if (!isCheckpointOf(from, config, k)) throw new TrialsError(`the checkpoint of tuple ${k} does not fit this run (${from.trials} trials)`)
    // The same random stream and permutation as after those trials: their draws, not their simulations.
    for (let i = 0; i < from.trials; i++) permuteQ(rng, order, sizeS, sizeQ)
    acc.a.set(from.a); acc.b.set(from.b); acc.y = from.y; acc.y2 = from.y2; acc.trials = from.trials
    convergence.push(...from.convergence)
  }
  const checkpoint = (): TupleCheckpoint => ({ tuple: k, trials: acc.trials, a: Array.from(acc.a), b: Array.from(acc.b), y: acc.y, y2: acc.y2, convergence: convergence.slice() })
  let stoppedEarly = false
  while (acc.trials < config.trials) {
    const batch = Math.min(TRIALS_BATCH, config.trials - acc.trials)
    for (let b = 0; b < batch; b++) {
      permuteQ(rng, order, sizeS, sizeQ)
      sim.run(order)
      acc.add(order[sizeS] - sizeS, trialAvgBsld(sim, sizeS, tau))
    }
    const ns = acc.normStd()
    convergence.push({ trials: acc.trials, normStd: ns })
    if (onBatch?.(acc.trials, checkpoint) === true) throw new TrialsCancelled()
    if (config.stopAt > 0 && ns < config.stopAt) { stoppedEarly = acc.trials < config.trials; break }
  }
  const origin = jobs.submit[first]
  const samples: TaskSample[] = []
  for (let t = 0; t < sizeQ; t++) {
    const j = first + sizeS + t
    samples.push({ tuple: k, r: Math.max(jobs.requested[j], 1), n: jobs.procs[j], s: Math.max(jobs.submit[j] - origin, 1), p: jobs.runtime[j], score: acc.score(t) })
  }
  return { tuple: k, firstJob: first, trials: acc.trials, stoppedEarly, samples, convergence }
}

export class TrialsCancelled extends Error {
  constructor() { super('the trials were cancelled') }
}

/** Joins the tuples' results (in tuple order, whatever order they finished in) into the run's result. */
export function poolTrials(config: TrialsConfig, machineProcs: number, trainingJobs: number, results: readonly TupleResult[]): TrialsResult {
  const tuples = [...results].sort((x, y) => x.tuple - y.tuple)
  const samples: TaskSample[] = []
  let trials = 0
  for (const t of tuples) { trials += t.trials; for (const s of t.samples) samples.push(s) }
  // Pooled convergence: at each trial count, the mean over tuples of their normStd (a tuple that
  // stopped earlier counts with its last value).
  const counts = [...new Set(tuples.flatMap((t) => t.convergence.map((c) => c.trials)))].sort((x, y) => x - y)
  const convergence: ConvergencePoint[] = counts.map((count) => {
    let sum = 0, used = 0
    for (const t of tuples) {
      let v = NaN
      for (const c of t.convergence) { if (c.trials <= count) v = c.normStd; else break }
      if (Number.isFinite(v)) { sum += v; used++ }
    }
    return { trials: count, normStd: used > 0 ? sum / used : Infinity }
  })
  return { config, machineProcs, trainingJobs, trials, samples, tuples, convergence }
}

/** Every tuple in this thread, one after the other (the engine spreads them over its workers). */
export function runTrials(jobs: TrialJobs, machineProcs: number, config: TrialsConfig): TrialsResult {
  checkTrials(jobs, machineProcs, config)
  const results: TupleResult[] = []
  for (let k = 0; k < config.tuples; k++) results.push(runTuple(jobs, machineProcs, config, k))
  return poolTrials(config, machineProcs, jobs.count, results)
}
