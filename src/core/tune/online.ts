// Online policy selection emulation (thesis [001] ch. 6; docs/PROTOCOL.md §Online selection).
// The real system is ONE continuous EASY(P, Θ) run over a long resampled trace; at every period
// boundary a strategy picks the policy P for the next period Δ from what it could know then:
//   full    simulated feedback: argmin_i Σ_t λ^{T−1−t} w(t; P_i), w = Σ waits of the jobs submitted
//           in period t, simulated alone from an empty machine under P_i until drained (6.2–6.4);
//           the first period (no feedback yet) uses FCFS;
//   noisy   the same with w multiplied by ρ ~ U[0.8, 1.2] drawn per period and policy (6.5–6.6);
//   egreedy ε-greedy bandit: per-policy average observed wait per job of the jobs that STARTED in the
//           periods the policy was in use on the real run (6.7–6.8; the thesis counts jobs that
//           finished, but a wait is known when the job starts); with probability ε a uniformly
//           random policy, else the argmin (6.9). Not stated by the thesis, our choices: an arm with
//           no observed job yet is tried first, in the order of the policy list (in the exploit
//           branch, after the ε coin, so ε = 1 is uniform); λ discounts the count as well as the sum
//           so the value stays an average (eq. 6.8 leaves the count undiscounted; same for λ = 1);
//   random  a uniformly random policy every period.
// Each of the policies is also run fixed, and EASY-FCFS(Θ) is the baseline. Reporting: eq. 6.10
// cumulative waits, eq. 6.11 ratio of sums over traces, cumulative gain curves ("increment the sum
// when a job finishes") and the share of the policies chosen per period (Fig. 6.4–6.9).
import { EasySimulator, simulate } from '../sim/easy'
import { CH6_POLICIES, resolvePolicy } from '../sim/policies'
import type { Compat, SimConfig, SimJobs, SimOptions } from '../sim/types'
import { percentile } from '../sim/metrics'
import { deriveSeed, Rng } from '../util/random'
import type { JobTable } from '../workload/types'
import { longTrace, WEEK, WeekSamples, type ResampleMethod } from './resample'
import { DEFAULTS } from '../defaults'

export type Strategy = 'full' | 'noisy' | 'egreedy' | 'random'
export const STRATEGIES: readonly Strategy[] = ['full', 'noisy', 'egreedy', 'random']
export const STRATEGY_LABELS: Record<Strategy, string> = { full: 'Full simulated feedback', noisy: 'Noisy simulated feedback', egreedy: 'ε-greedy bandit feedback', random: 'Random' }
export const DAY = 86400
export const ONLINE_SCHEMA_VERSION = 1

export interface OnlineSpec {
  /** Policies to choose from (the thesis's 12 by default); listed order breaks ties. */
  policies: readonly string[]
  strategies: readonly Strategy[]
  /** Δ in seconds (a day or a week in the thesis). */
  period: number
  /** Θ in seconds, null = none. */
  threshold: number | null
  epsilon: number
  lambda: number
  /** Range of the noise factor ρ (tests set [1, 1] to make noisy equal full). */
  noise: readonly [number, number]
  /** Trace length in weeks, traces to draw and how (thesis: 60 traces of two years, R1). */
  weeks: number
  traces: number
  method: ResampleMethod
  seed: number
  /** 'ocst': the seeds' simulator's shadow-time rule in every run, and the log's weeks cut by rule
   * C13 (first and last partial weeks dropped) to build the traces; absent = 'none'. */
  compat?: Compat
}

export const DEFAULT_ONLINE: OnlineSpec = {
  policies: CH6_POLICIES, strategies: STRATEGIES, period: WEEK, threshold: DEFAULTS.onlineThreshold.value, ...DEFAULTS.online.value,
  traces: 1, method: DEFAULTS.resample.value, seed: DEFAULTS.seed.value, compat: DEFAULTS.compat.value,
}

/** One run (baseline, fixed policy or strategy) on one trace. */
export interface RunTrace {
  totalWait: number
  /** Σ waits of the jobs whose end falls in each period (jobs ending after the last one: last). */
  finishedWait: Float64Array
  /** Policy index per period, or null for a fixed policy. */
  choices: Int32Array | null
}

export interface TraceRuns {
  jobs: number
  periods: number
  baseline: RunTrace
  fixed: RunTrace[]
  strategies: Partial<Record<Strategy, RunTrace>>
}

/** Trace k: the whole log resampled per user and week (R1), `weeks` weeks long, seeded. */
export function buildTrace(jobs: JobTable, spec: Pick<OnlineSpec, 'weeks' | 'method' | 'seed' | 'compat'>, k: number): JobTable {
  const samples = new WeekSamples(jobs, { method: spec.method, weeks: spec.weeks, seed: deriveSeed(spec.seed, `online/trace/${k}`) }, { compat: spec.compat ?? 'none' })
  return longTrace(samples, spec.weeks)
}

const cfg = (policy: string, threshold: number | null): SimConfig => ({ primary: policy, backfill: 'same', threshold })
/** The simulator's options under the spec's compatibility mode. */
const simOptions = (compat: Compat | undefined): SimOptions => (compat === undefined || compat === 'none' ? {} : { compat })
const sumWaits = (jobs: SimJobs, start: Float64Array) => { let w = 0; for (let j = 0; j < jobs.count; j++) w += start[j] - jobs.submit[j]; return w }

/** w(t; P_i) of eq. 6.2 for every period t and policy i (row-major t·K + i): the jobs submitted in
 * period t simulated alone, from an empty machine until drained. */
export function periodCosts(trace: SimJobs, m: number, policies: readonly string[], period: number, periods: number, threshold: number | null, compat?: Compat): Float64Array {
  const K = policies.length
  const cost = new Float64Array(periods * K)
  let a = 0
  for (let t = 0; t < periods; t++) {
    let b = a
    while (b < trace.count && (t === periods - 1 || trace.submit[b] < (t + 1) * period)) b++
    if (b > a) {
      const sub: SimJobs = { count: b - a, submit: trace.submit.subarray(a, b), runtime: trace.runtime.subarray(a, b), requested: trace.requested.subarray(a, b), procs: trace.procs.subarray(a, b) }
      for (let i = 0; i < K; i++) cost[t * K + i] = sumWaits(sub, simulate(sub, m, cfg(policies[i], threshold), simOptions(compat)))
    }
    a = b
  }
  return cost
}

/** Picks the policy of each period from the information of the previous ones. */
interface Chooser {
  choose(t: number): number
  /** After each period: the jobs that started on the real run during it, Σ waits and count. */
  observe(waitSum: number, started: number): void
}

function argmin(v: Float64Array): number {
  let best = 0
  for (let i = 1; i < v.length; i++) if (v[i] < v[best]) best = i
  return best
}

/** Full (6.2–6.4) and, with ρ drawn in `noise`, Noisy (6.5–6.6) simulated feedback. */
function simulatedFeedback(cost: Float64Array, K: number, spec: OnlineSpec, noise: readonly [number, number], rng: Rng, initial: number): Chooser {
  const cum = new Float64Array(K)
  return {
    choose(t) {
      if (t === 0) return initial
      for (let i = 0; i < K; i++) cum[i] = spec.lambda * cum[i] + rng.uniform(noise[0], noise[1]) * cost[(t - 1) * K + i]
      return argmin(cum)
    },
    observe() {},
  }
}

/** ε-greedy on the observed average wait per started job (6.7–6.9); see the header for choices. */
function epsilonGreedy(K: number, spec: OnlineSpec, rng: Rng): Chooser {
  const sum = new Float64Array(K), count = new Float64Array(K), seen = new Float64Array(K), avg = new Float64Array(K)
  let used = 0
  return {
    choose() {
      if (rng.next() < spec.epsilon) return (used = rng.int(K))
      const untried = seen.indexOf(0)
      if (untried >= 0) return (used = untried)
      for (let i = 0; i < K; i++) avg[i] = sum[i] / count[i]
      return (used = argmin(avg))
    },
    observe(waitSum, started) {
      for (let i = 0; i < K; i++) { sum[i] *= spec.lambda; count[i] *= spec.lambda }
      sum[used] += waitSum; count[used] += started; seen[used] += started
    },
  }
}

function randomChooser(K: number, rng: Rng): Chooser {
  return { choose: () => rng.int(K), observe() {} }
}

function summarizeRun(trace: SimJobs, start: Float64Array, period: number, periods: number, choices: Int32Array | null): RunTrace {
  const finishedWait = new Float64Array(periods)
  let totalWait = 0
  for (let j = 0; j < trace.count; j++) {
    const w = start[j] - trace.submit[j]
    totalWait += w
    finishedWait[Math.min(periods - 1, Math.floor((start[j] + trace.runtime[j]) / period))] += w
  }
  return { totalWait, finishedWait, choices }
}

/** The real system: one continuous EASY run whose policy the chooser switches at each boundary. */
function realRun(trace: SimJobs, m: number, spec: OnlineSpec, periods: number, chooser: Chooser): RunTrace {
  const { period, policies } = spec
  const choices = new Int32Array(periods)
  let current = chooser.choose(0)
  const sim = new EasySimulator(trace, m, cfg(policies[current], spec.threshold), simOptions(spec.compat))
  const pending = new Int32Array(trace.count)
  let pendingLen = 0, nextSubmit = 0
  for (let t = 0; t < periods; t++) {
    const c = t === 0 ? current : chooser.choose(t)
    if (c !== current) { sim.setConfig(cfg(policies[c], spec.threshold)); current = c }
    choices[t] = c
    const end = (t + 1) * period
    sim.runUntil(end)
    // Jobs that started during this period: those pending at its start, plus its submissions.
    while (nextSubmit < trace.count && trace.submit[nextSubmit] < end) pending[pendingLen++] = nextSubmit++
    let waitSum = 0, started = 0, keep = 0
    for (let k = 0; k < pendingLen; k++) {
      const j = pending[k], s = sim.start[j]
      if (!Number.isNaN(s)) { waitSum += s - trace.submit[j]; started++ } else pending[keep++] = j
    }
    pendingLen = keep
    chooser.observe(waitSum, started)
  }
  sim.runUntil(Infinity)
  return summarizeRun(trace, sim.start, period, periods, choices)
}

export interface EmulateOptions {
  /** Number of periods (default: enough to cover every submission). */
  periods?: number
  /** Called after each unit of work with (done, total). */
  onProgress?: (done: number, total: number) => void
}

/** Every run of the emulation on one trace (submit times ≥ 0, sorted), deterministic for `seed`. */
export function emulate(trace: SimJobs, m: number, spec: OnlineSpec, seed: number, opts: EmulateOptions = {}): TraceRuns {
  const { policies, period } = spec
  validateSpec(spec)
  if (trace.count > 0 && trace.submit[0] < 0) throw new Error('trace submit times must be ≥ 0')
  const periods = opts.periods ?? Math.max(1, Math.floor((trace.count > 0 ? trace.submit[trace.count - 1] : 0) / period) + 1)
  const K = policies.length
  const needCosts = spec.strategies.some((s) => s === 'full' || s === 'noisy')
  const total = K + (needCosts ? K : 0) + spec.strategies.length + 1
  let done = 0
  const tick = (units = 1) => { done += units; opts.onProgress?.(done, total) }
  const fixedRun = (p: string) => summarizeRun(trace, simulate(trace, m, cfg(p, spec.threshold), simOptions(spec.compat)), period, periods, null)
  const fixed = policies.map((p) => { const r = fixedRun(p); tick(); return r })
  const fcfs = policies.indexOf('FCFS')
  const baseline = fcfs >= 0 ? fixed[fcfs] : fixedRun('FCFS')
  tick()
  const cost = needCosts ? periodCosts(trace, m, policies, period, periods, spec.threshold, spec.compat) : new Float64Array(0)
  if (needCosts) tick(K)
  const initial = Math.max(0, fcfs)
  const strategies: Partial<Record<Strategy, RunTrace>> = {}
  for (const s of spec.strategies) {
    const rng = new Rng(deriveSeed(seed, `online/${s}`))
    const chooser = s === 'full' ? simulatedFeedback(cost, K, spec, [1, 1], rng, initial)
      : s === 'noisy' ? simulatedFeedback(cost, K, spec, spec.noise, rng, initial)
        : s === 'egreedy' ? epsilonGreedy(K, spec, rng) : randomChooser(K, rng)
    strategies[s] = realRun(trace, m, spec, periods, chooser)
    tick()
  }
  return { jobs: trace.count, periods, baseline, fixed, strategies }
}

/** Throws, in words, on a spec the emulation cannot run. */
export function validateSpec(s: OnlineSpec): void {
  if (s.policies.length === 0) throw new Error('online selection needs at least one policy')
  for (const p of s.policies) if (resolvePolicy(p).id !== p) throw new Error(`policy "${p}" must be given by its registry id (${resolvePolicy(p).id})`)
  if (new Set(s.policies).size !== s.policies.length) throw new Error('the policy list has duplicates')
  if (!(s.period > 0)) throw new Error(`the period must be above 0 seconds, got ${s.period}`)
  if (!(s.epsilon >= 0 && s.epsilon <= 1)) throw new Error(`ε must be in [0, 1], got ${s.epsilon}`)
  if (!(s.lambda >= 0 && s.lambda <= 1)) throw new Error(`λ must be in [0, 1], got ${s.lambda}`)
  if (!(s.noise[0] > 0 && s.noise[0] <= s.noise[1])) throw new Error(`the noise range must be 0 < lo ≤ hi, got [${s.noise.join(', ')}]`)
  if (!(Number.isInteger(s.traces) && s.traces > 0) || !(Number.isInteger(s.weeks) && s.weeks > 0)) throw new Error('weeks and traces must be whole numbers above 0')
  if (s.compat !== undefined && s.compat !== 'none' && s.compat !== 'ocst') throw new Error(`compat must be none or ocst, got ${String(s.compat)}`)
}

// ---- Aggregation over traces (eq. 6.10, 6.11, Fig. 6.4–6.9) -------------------------------------

/** Mean and 10th/90th percentiles across traces. */
export interface Band { mean: number; p10: number; p90: number }

export interface RunSummary {
  id: string
  label: string
  kind: 'baseline' | 'fixed' | 'strategy'
  /** w̄(T_k, ·) of eq. 6.10 per trace, seconds. */
  totalWait: number[]
  /** Σ waits / Σ jobs over all traces, seconds. */
  avgWait: number
  /** Eq. 6.11: (Σ_k w̄(T_k, ·) − Σ_k w̄(T_k, base)) / Σ_k w̄(T_k, base); negative = better. */
  relative: number
  /** −relative: the share of the baseline's waiting time removed. */
  gain: number
  /** Per-trace gain 1 − w̄/w̄_base across traces. */
  gainBand: Band
  /** Cumulative waiting-time gain Σ base − Σ run over the jobs finished by each period's end
   * (seconds; the last point includes the drain after the trace), across traces. */
  gainCurve: { mean: number[]; p10: number[]; p90: number[] }
  /** Strategies: per policy, the share of traces that chose it in each period. */
  share?: Record<string, number[]>
  /** Strategies: per policy, the share of all periods (and traces) it was chosen. */
  overallShare?: Record<string, number>
}

export interface OnlineResult {
  spec: OnlineSpec
  traces: number
  jobs: number[]
  periods: number
  /** End time of each period (seconds from the trace start): the x axis of the curves. */
  periodEnds: number[]
  runs: RunSummary[]
}

function band(values: number[]): Band {
  const sorted = Float64Array.from(values).sort()
  return { mean: values.reduce((a, b) => a + b, 0) / values.length, p10: percentile(sorted, 0.1), p90: percentile(sorted, 0.9) }
}

export function summarize(spec: OnlineSpec, traces: TraceRuns[]): OnlineResult {
  const T = traces[0].periods, K = spec.policies.length
  const totalJobs = traces.reduce((a, r) => a + r.jobs, 0)
  const baseTotal = traces.reduce((a, r) => a + r.baseline.totalWait, 0)
  const one = (id: string, label: string, kind: RunSummary['kind'], pick: (r: TraceRuns) => RunTrace): RunSummary => {
    const runs = traces.map(pick)
    const sum = runs.reduce((a, r) => a + r.totalWait, 0)
    const curves = traces.map((tr, k) => {
      const c = new Float64Array(T)
      let acc = 0
      for (let t = 0; t < T; t++) { acc += tr.baseline.finishedWait[t] - runs[k].finishedWait[t]; c[t] = acc }
      return c
    })
    const bands = Array.from({ length: T }, (_, t) => band(curves.map((c) => c[t])))
    const relative = baseTotal > 0 ? (sum - baseTotal) / baseTotal : 0
    const s: RunSummary = {
      id, label, kind, totalWait: runs.map((r) => r.totalWait), avgWait: totalJobs > 0 ? sum / totalJobs : 0, relative, gain: relative === 0 ? 0 : -relative,
      gainBand: band(runs.map((r, k) => (traces[k].baseline.totalWait > 0 ? 1 - r.totalWait / traces[k].baseline.totalWait : 0))),
      gainCurve: { mean: bands.map((b) => b.mean), p10: bands.map((b) => b.p10), p90: bands.map((b) => b.p90) },
    }
    if (kind === 'strategy') {
      const counts = Array.from({ length: K }, () => new Float64Array(T))
      for (const r of runs) r.choices!.forEach((c, t) => { counts[c][t]++ })
      s.share = {}; s.overallShare = {}
      spec.policies.forEach((p, i) => {
        s.share![p] = Array.from(counts[i], (c) => c / runs.length)
        s.overallShare![p] = counts[i].reduce((a, b) => a + b, 0) / (runs.length * T)
      })
    }
    return s
  }
  const runs = [one('baseline', 'EASY-FCFS (baseline)', 'baseline', (r) => r.baseline)]
  for (const s of spec.strategies) runs.push(one(s, STRATEGY_LABELS[s], 'strategy', (r) => r.strategies[s]!))
  spec.policies.forEach((p, i) => runs.push(one(`fixed:${p}`, `EASY-${p}`, 'fixed', (r) => r.fixed[i])))
  return { spec, traces: traces.length, jobs: traces.map((r) => r.jobs), periods: T, periodEnds: Array.from({ length: T }, (_, t) => (t + 1) * spec.period), runs }
}

/** Periods of every trace: the same for all, so their curves line up. */
export function onlinePeriods(spec: Pick<OnlineSpec, 'weeks' | 'period'>): number {
  return Math.ceil((spec.weeks * WEEK) / spec.period)
}

/** One unit of the study, independent of the others (the engine runs traces in parallel): trace
 * k of the cleaned log, built and emulated with its own seeds. `onProgress(done, total)` counts
 * the simulations of this trace. */
export function emulateTrace(jobs: JobTable, m: number, spec: OnlineSpec, k: number, onProgress?: (done: number, total: number) => void): TraceRuns {
  validateSpec(spec)
  if (!(Number.isInteger(k) && k >= 0 && k < spec.traces)) throw new Error(`trace ${k} is not one of the ${spec.traces} traces`)
  return emulate(buildTrace(jobs, spec, k), m, spec, deriveSeed(spec.seed, `online/run/${k}`), { periods: onlinePeriods(spec), onProgress })
}

/** The whole study: `traces` resampled traces of the cleaned log, each emulated (emulateTrace),
 * then summarized in trace order: the result does not depend on where each trace ran. */
export function runOnline(jobs: JobTable, m: number, spec: OnlineSpec, onProgress?: (fraction: number, trace: number) => void): OnlineResult {
  validateSpec(spec)
  const runs: TraceRuns[] = []
  for (let k = 0; k < spec.traces; k++) {
    runs.push(emulateTrace(jobs, m, spec, k, (d, total) => onProgress?.((k + d / total) / spec.traces, k)))
  }
  return summarize(spec, runs)
}
