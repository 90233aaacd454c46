// Mixed-policy search ([004] = Inria RR-9212; docs/PROTOCOL.md §Mixed search): a weight vector w
// over the six features x = (−q, −p̃, wait, −exp, −p̃/q, −p̃·q) (ocst signs, highest wᵀx first),
// ‖w‖₁ = 1, chosen on the TRAIN week samples and then evaluated on test like any other candidate
// (EASY-FCFS baseline, partSummary, paired bootstrap CI). Choices the report leaves open:
// - Features 3 = (−q, −p̃, wait) as in [004] §7; 6 = all.
// - Standardisation (on by default): (x − mean)/std per feature, measured over the train samples
//   at each job's start under EASY-FCFS (so wait and −exp, which depend on time, get the waits
//   the baseline produces). Means do not change the order (they add one constant to every score);
//   the std puts seconds, processors and ratios on one scale so that weights are comparable.
//   [004] states none; ocst supports μ/σ. A feature with std 0 contributes nothing.
// - The objective of w is the mean over the train samples of the weekly AvgWait (or AvgBsld) of
//   EASY with primary wᵀx, backfill in the same order, optional threshold, each sample simulated
//   from an empty machine (windowStart 0) — exactly what runCell measures.
// - XNES (Glasmachers et al. 2010) searches x ∈ ℝᵈ and evaluates w = x/‖x‖₁, plus the soft
//   penalty λ(‖x‖₁ + 1/‖x‖₁ − 2) of [004] eq. 6 with λ = 0.01 × the objective of the start
//   point, so the penalty is 0 on the sphere, keeps ‖x‖₁ near 1 (the step size stays meaningful)
//   and costs at most a fraction of a percent for ‖x‖₁ in [0.7, 1.4]. The reported best is by the
//   unpenalised objective. FCFS (wait weight 1) and the other positive vertices (SQF, SPF, …) are
//   evaluated first; XNES then starts from FCFS with σ = 0.5.
// - The grid is the exact lattice of the ℓ1 sphere: every integer vector with ‖v‖₁ = k, divided
//   by k (step 1/k, no duplicates by construction; 4k² + 2 points in 3-D), with the largest k
//   whose size fits the budget ([004]'s 100 points per axis in [−1, 1] is 10⁶ points in 3-D).
// - Budget = candidate weight vectors tried; identical vectors are simulated once (cache).
import { simulate } from '../sim/easy'
import { computeMetrics } from '../sim/metrics'
import type { Compat, MixedSpec, PolicySpec, SimConfig, SimOptions } from '../sim/types'
import { MIXED_FEATURE_DECLARATIONS } from '../sim/policies'
import { formatThreshold } from '../util/duration'
import { deriveSeed, Rng } from '../util/random'
import type { JobTable } from '../workload/types'
import { BASELINE, cellKey, isBaseline, runCell, type Candidate, type CellResult, type CellSpec, type Objective, type Part } from './campaign'
import type { Prepared } from './prepare'
import type { WeekSamples } from './resample'
import { DEFAULTS } from '../defaults'
import { partSummary, type PartSummary } from './select'

export type MixedMethod = 'xnes' | 'grid'
export interface MixedOptions {
  features: 3 | 6
  method: MixedMethod
  /** Candidate weight vectors to try (the start point / grid points included). */
  budget: number
  objective: Objective
  threshold: number | null
  tau: number
  seed: number
  /** Standardise features by their train mean and std (default true). */
  standardize?: boolean
  /** 'ocst': the seeds' simulator's shadow-time rule (the samples must be cut under the same mode:
   * prepare(…, compat)); absent = 'none'. */
  compat?: Compat
  /** Other orders evaluated beside the vertices with the same threshold and statistics (canonical
   * ids: a registry policy or a learned function fn:…, docs/LEARN.md §Expressions); their
   * `weights` are empty (they are not points of the weight polytope). */
  compare?: readonly string[]
}
export const MIXED_DEFAULT_BUDGET = DEFAULTS.mixed.value.budget
export const XNES_SIGMA0 = 0.5
export const PENALTY_LAMBDA = 0.01
/** The pure policy at each feature's vertex (weight 1): FCFS = (0,0,1,0,0,0). */
export const VERTEX_POLICIES: readonly string[] = MIXED_FEATURE_DECLARATIONS.map((f) => f.pure)

// ---------------------------------------------------------------- XNES
export interface XnesOptions { sigma0: number; budget: number; seed: number; popSize?: number }
export interface XnesResult { x: number[]; f: number; evaluations: number }

/** Minimises f from x0 with at most `budget` calls of f (exponential natural evolution strategy). */
export function xnes(f: (x: number[]) => number, x0: readonly number[], o: XnesOptions): XnesResult {
  return runSteps(xnesSteps(x0, o), (xs) => xs.map(f))
}

/** XNES one generation at a time: yields each population (the points to evaluate, at most
 * `budget` in all) and takes back their f values, in the same order. The points of a generation
 * are independent, so a caller may evaluate them in parallel; the search only depends on the
 * values, never on where or in which order they were computed. */
export function* xnesSteps(x0: readonly number[], o: XnesOptions): Generator<number[][], XnesResult, number[]> {
  const d = x0.length
  const lam = o.popSize ?? 4 + Math.floor(3 * Math.log(d))
  const etaMu = 1, etaSigma = (3 / 5) * (3 + Math.log(d)) / (d * Math.sqrt(d)), etaB = etaSigma
  const raw = Array.from({ length: lam }, (_, i) => Math.max(0, Math.log(lam / 2 + 1) - Math.log(i + 1)))
  const rawSum = raw.reduce((a, b) => a + b, 0)
  const utility = raw.map((r) => r / rawSum - 1 / lam)
  const rng = new Rng(o.seed)
  let mu = [...x0], sigma = o.sigma0, B = identity(d)
  let best: XnesResult = { x: [...x0], f: Infinity, evaluations: 0 }
  let evals = 0
  while (evals < o.budget) {
    const n = Math.min(lam, o.budget - evals)
    const zs: number[][] = [], xs: number[][] = []
    for (let k = 0; k < n; k++) {
      const z = Array.from({ length: d }, () => rng.normal())
      const Bz = matVec(B, z)
      zs.push(z)
      xs.push(mu.map((m, i) => m + sigma * Bz[i]))
    }
    const fs = yield xs
    for (let k = 0; k < n; k++) {
      evals++
      if (fs[k] < best.f) best = { x: xs[k], f: fs[k], evaluations: 0 }
    }
    if (n < lam) break
    // Rank-based utilities; samples with equal f share the average of their utilities.
    const order = fs.map((_, i) => i).sort((a, b) => fs[a] - fs[b] || a - b)
    const u = new Array<number>(lam)
    for (let s = 0; s < lam;) {
      let e = s
      while (e + 1 < lam && fs[order[e + 1]] === fs[order[s]]) e++
      let avg = 0
      for (let r = s; r <= e; r++) avg += utility[r]
      avg /= e - s + 1
      for (let r = s; r <= e; r++) u[order[r]] = avg
      s = e + 1
    }
    const gDelta = new Array<number>(d).fill(0)
    const gM = Array.from({ length: d }, () => new Array<number>(d).fill(0))
    for (let k = 0; k < lam; k++) {
      for (let i = 0; i < d; i++) {
        gDelta[i] += u[k] * zs[k][i]
        for (let j = 0; j < d; j++) gM[i][j] += u[k] * (zs[k][i] * zs[k][j] - (i === j ? 1 : 0))
      }
    }
    let trace = 0
    for (let i = 0; i < d; i++) trace += gM[i][i]
    const gSigma = trace / d
    const step = matVec(B, gDelta)
    mu = mu.map((m, i) => m + etaMu * sigma * step[i])
    sigma *= Math.exp((etaSigma / 2) * gSigma)
    B = matMul(B, expm(gM.map((row, i) => row.map((v, j) => (etaB / 2) * (v - (i === j ? gSigma : 0))))))
  }
  return { ...best, evaluations: evals }
}

/** Drives a step generator to its end, answering each step with `answer` (in this process). */
export function runSteps<Y, R, A>(steps: Generator<Y, R, A>, answer: (y: Y) => A): R {
  let s = steps.next(undefined as A)
  while (!s.done) s = steps.next(answer(s.value))
  return s.value
}

function identity(d: number): number[][] {
  return Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) => (i === j ? 1 : 0)))
}
function matVec(A: number[][], v: number[]): number[] {
  return A.map((row) => row.reduce((s, a, j) => s + a * v[j], 0))
}
function matMul(A: number[][], C: number[][]): number[][] {
  return A.map((row) => C[0].map((_, j) => row.reduce((s, a, k) => s + a * C[k][j], 0)))
}
/** Matrix exponential by scaling and squaring of a Taylor series (the argument is small). */
function expm(M: number[][]): number[][] {
  const norm = Math.max(...M.map((r) => r.reduce((s, v) => s + Math.abs(v), 0)))
  const sq = Math.max(0, Math.ceil(Math.log2(norm / 0.25)))
  const A = M.map((r) => r.map((v) => v / 2 ** sq))
  let term = identity(A.length), sum = identity(A.length)
  for (let k = 1; k <= 12; k++) {
    term = matMul(term, A).map((r) => r.map((v) => v / k))
    sum = sum.map((r, i) => r.map((v, j) => v + term[i][j]))
  }
  for (let s = 0; s < sq; s++) sum = matMul(sum, sum)
  return sum
}

// ---------------------------------------------------------------- grid on the ℓ1 sphere
/** Number of integer vectors in ℝᵈ with ‖v‖₁ = k: Σᵢ 2ⁱ·C(d,i)·C(k−1,i−1). */
export function l1GridSize(d: number, k: number): number {
  let n = 0
  for (let i = 1; i <= Math.min(d, k); i++) n += 2 ** i * binom(d, i) * binom(k - 1, i - 1)
  return n
}
function binom(n: number, r: number): number {
  let b = 1
  for (let i = 1; i <= r; i++) b = (b * (n - r + i)) / i
  return Math.round(b)
}
/** The largest step denominator k whose grid fits the budget (at least 1). */
export function gridK(d: number, budget: number): number {
  let k = 1
  while (l1GridSize(d, k + 1) <= budget) k++
  return k
}
/** Every point v/k with v integer and ‖v‖₁ = k (the vertices ±eᵢ included), in a fixed order. */
export function l1Grid(d: number, k: number): number[][] {
  const out: number[][] = []
  const rec = (prefix: number[], left: number) => {
    if (prefix.length === d - 1) {
      out.push([...prefix, left].map((v) => v / k))
      if (left !== 0) out.push([...prefix, -left].map((v) => v / k))
      return
    }
    for (let a = -left; a <= left; a++) rec([...prefix, a], left - Math.abs(a))
  }
  rec([], k)
  return out
}

// ---------------------------------------------------------------- the objective on train
export interface Standardization { mean: number[]; scale: number[] }

/** Feature means and stds over the samples, each job measured at its start under EASY-FCFS. */
export function featureStats(weeks: readonly JobTable[], machineProcs: number, compat: Compat = 'none'): Standardization {
  const s = new Array<number>(6).fill(0), s2 = new Array<number>(6).fill(0)
  let n = 0
  const options: SimOptions = compat === 'none' ? { windowStart: 0 } : { windowStart: 0, compat }
  for (const week of weeks) {
    const start = simulate(week, machineProcs, { primary: 'FCFS', backfill: 'same', threshold: null }, options)
    for (let j = 0; j < week.count; j++) {
      const q = week.procs[j], p = week.requested[j], wt = start[j] - week.submit[j]
      const x = [-q, -p, wt, -(wt + p) / p, -p / q, -p * q]
      for (let i = 0; i < 6; i++) { s[i] += x[i]; s2[i] += x[i] * x[i] }
      n++
    }
  }
  const mean = s.map((v) => (n ? v / n : 0))
  const scale = s2.map((v, i) => {
    const variance = n ? v / n - mean[i] * mean[i] : 0
    return variance > 1e-12 * Math.max(1, mean[i] * mean[i]) ? Math.sqrt(variance) : 0
  })
  return { mean, scale }
}

export function mixedSpec(weights: readonly number[], st: Standardization | null): MixedSpec {
  return st ? { kind: 'mixed', weights: [...weights], mean: st.mean, scale: st.scale } : { kind: 'mixed', weights: [...weights] }
}

/** Mean weekly objective of one policy over the samples (the same loop and order as runCell).
 * `weights`: the samples' weights (WeekSamples.weights(): a partial week counts for its length);
 * absent = all 1. */
export function trainObjective(weeks: readonly JobTable[], machineProcs: number, primary: PolicySpec, o: Pick<MixedOptions, 'objective' | 'threshold' | 'tau' | 'compat'>, weights?: ArrayLike<number>): number {
  const config: SimConfig = { primary, backfill: 'same', threshold: o.threshold }
  const options: SimOptions = o.compat === undefined || o.compat === 'none' ? { windowStart: 0 } : { windowStart: 0, compat: o.compat }
  let sum = 0, total = 0
  for (let k = 0; k < weeks.length; k++) {
    const week = weeks[k]
    const m = computeMetrics(week, machineProcs, simulate(week, machineProcs, config, options), o.tau)
    const w = weights ? weights[k] : 1
    sum += w * (o.objective === 'avgWait' ? m.avgWait : m.avgBsld)
    total += w
  }
  return total > 0 ? sum / total : 0
}

// ---------------------------------------------------------------- search and report
export interface MixedSearch {
  /** Six weights, ‖w‖₁ = 1 (zeros beyond the features searched). */
  weights: number[]
  spec: MixedSpec
  trainObjective: number
  standardization: Standardization | null
  /** Weight vectors tried and distinct simulations (cache misses). */
  evaluations: number
  simulations: number
  /** trace[i] = best train objective after i + 1 evaluations. */
  trace: number[]
  /** Grid step 1/k (grid only). */
  gridStep: number | null
}

export type MixedProgress = (phase: 'search' | 'evaluate', done: number, total: number) => void

/** The search on the train samples, in this process. */
export function searchMixed(train: WeekSamples, machineProcs: number, o: MixedOptions, onProgress?: MixedProgress): MixedSearch {
  checkBudget(o)
  if ((o.compat ?? 'none') !== train.compat) throw new Error(`the mixed search runs under compat ${o.compat ?? 'none'} but its samples were cut under ${train.compat}`)
  const weeks = Array.from({ length: train.count }, (_, k) => train.get(k))
  const weights = train.weights()
  const st = o.standardize === false ? null : featureStats(weeks, machineProcs, train.compat)
  return runSteps(mixedSearchSteps(st, o, onProgress), (specs) => specs.map((spec) => trainObjective(weeks, machineProcs, spec, o, weights)))
}

function checkBudget(o: MixedOptions): void {
  if (!(Number.isInteger(o.budget) && o.budget >= 1)) throw new Error(`the evaluation budget must be a whole number above 0, got ${o.budget}`)
}

/**
 * The search as steps, so that its evaluations can run anywhere: it yields the mixed policies
 * whose train objective (trainObjective) it needs next — every point of a batch is independent:
 * the start point and the vertices, then one XNES generation at a time, or the whole grid — and
 * takes their objectives back in the same order. Each batch is then taken in order, exactly as
 * the one-at-a-time search would (the best so far, the trace, the cache of identical vectors), so
 * the result is the same however the batches were computed. `st`: the train standardization
 * (featureStats), or null with `standardize: false`.
 */
export function* mixedSearchSteps(st: Standardization | null, o: MixedOptions, onProgress?: MixedProgress): Generator<MixedSpec[], MixedSearch, number[]> {
  checkBudget(o)
  const d = o.features
  const cache = new Map<string, number>()
  const trace: number[] = []
  let best = { w: [0, 0, 1, 0, 0, 0], f: Infinity }
  /** Objectives of points of the sphere (d weights, ‖w‖₁ = 1; null: a point XNES cannot
   * normalise, which costs an evaluation and scores Infinity), in order. */
  function* evaluate(points: readonly (readonly number[] | null)[]): Generator<MixedSpec[], number[], number[]> {
    const ws = points.map((wd) => (wd ? [...wd, ...new Array<number>(6 - d).fill(0)] : null))
    const missing = new Map<string, number[]>()
    for (const w of ws) if (w && !cache.has(w.join(',')) && !missing.has(w.join(','))) missing.set(w.join(','), w)
    if (missing.size > 0) {
      const fs = yield [...missing.values()].map((w) => mixedSpec(w, st))
      ;[...missing.keys()].forEach((key, i) => cache.set(key, fs[i]))
    }
    return ws.map((w) => {
      let f = Infinity
      if (w) {
        f = cache.get(w.join(','))!
        if (f < best.f) best = { w, f }
      }
      trace.push(best.f)
      onProgress?.('search', trace.length, o.budget)
      return f
    })
  }
  let gridStep: number | null = null
  if (o.method === 'grid') {
    const k = gridK(d, o.budget)
    gridStep = 1 / k
    yield* evaluate(l1Grid(d, k).slice(0, o.budget))
  } else {
    const x0 = [0, 0, 1, 0, 0, 0].slice(0, d)
    // FCFS first, then the other pure vertices: XNES never lands exactly on one, and the result
    // should never be worse on train than the pure policies it generalises.
    const vertices = x0.map((_, i) => x0.map((__, j) => (j === i ? 1 : 0))).filter((_, i) => i !== 2).slice(0, o.budget - 1)
    const [ref] = yield* evaluate([x0, ...vertices])
    const lambda = PENALTY_LAMBDA * (ref > 0 ? ref : 1)
    if (o.budget > trace.length) {
      const steps = xnesSteps(x0, { sigma0: XNES_SIGMA0, budget: o.budget - trace.length, seed: deriveSeed(o.seed, 'xnes') })
      let s = steps.next(undefined as unknown as number[])
      while (!s.done) {
        const norms = s.value.map((x) => x.reduce((a, v) => a + Math.abs(v), 0))
        const ok = (n1: number) => n1 > 1e-12 && Number.isFinite(n1)
        const fs = yield* evaluate(s.value.map((x, i) => (ok(norms[i]) ? x.map((v) => v / norms[i]) : null)))
        s = steps.next(fs.map((f, i) => (ok(norms[i]) ? f + lambda * (norms[i] + 1 / norms[i] - 2) : Infinity)))
      }
    }
  }
  return { weights: best.w, spec: mixedSpec(best.w, st), trainObjective: best.f, standardization: st, evaluations: trace.length, simulations: cache.size, trace, gridStep }
}

export interface MixedEntry {
  label: string
  candidate: Candidate
  threshold: number | null
  /** The point of the ℓ1 sphere this policy is (vertices: one weight 1). */
  weights: number[]
  train: PartSummary
  test: PartSummary
}
export interface MixedReport { search: MixedSearch; best: MixedEntry; baseline: MixedEntry; vertices: MixedEntry[] }

export function mixedLabel(weights: readonly number[], d: number): string {
  return `EASY-mixed(${weights.slice(0, d).map((v) => Number(v.toFixed(3))).join(', ')})`
}
/** The bootstrap seed of one entry on one part: the derivation of select.ts `summarize`, so the
 * vertex policies get exactly the intervals `evaluate` prints for them (same seed and weeks). */
export function entrySeed(seed: number, part: 'train' | 'test', candidate: Candidate, threshold: number | null): number {
  return deriveSeed(seed, `bootstrap/${part}/${isBaseline(candidate) ? 'baseline' : cellKey({ part: 'train', candidate, threshold })}`)
}

interface EntryPlan { name: string; candidate: Candidate; threshold: number | null; weights: number[] }

/** The best weights, EASY-FCFS and the pure vertex policies, in report order. */
function entryPlans(search: MixedSearch, o: MixedOptions): { best: EntryPlan; baseline: EntryPlan; vertices: EntryPlan[] } {
  const d = o.features
  const unit = (i: number) => [0, 0, 0, 0, 0, 0].map((_, j) => (j === i ? 1 : 0))
  return {
    best: { name: mixedLabel(search.weights, d), candidate: { primary: search.spec, backfill: 'same' }, threshold: o.threshold, weights: search.weights },
    baseline: { name: 'EASY-FCFS', candidate: BASELINE, threshold: null, weights: unit(2) },
    vertices: [
      ...VERTEX_POLICIES.slice(0, d).filter((v) => v !== 'FCFS').map((id) => ({ name: `EASY-${id}`, candidate: { primary: id, backfill: 'same' as const }, threshold: o.threshold, weights: unit(VERTEX_POLICIES.indexOf(id)) })),
      ...(o.compare ?? []).filter((id) => !VERTEX_POLICIES.slice(0, d).includes(id)).map((id) => ({ name: `EASY-${id}`, candidate: { primary: id, backfill: 'same' as const }, threshold: o.threshold, weights: [] })),
    ],
  }
}

/** The cells the report needs, independent of each other: EASY-FCFS, then the best weights and
 * each vertex policy, each on train then test. */
export function mixedReportCells(search: MixedSearch, o: MixedOptions): CellSpec[] {
  const e = entryPlans(search, o)
  return [{ candidate: BASELINE, threshold: null }, ...[e.best, ...e.vertices]].flatMap(({ candidate, threshold }) =>
    (['train', 'test'] as const).map((part) => ({ candidate, threshold, part })))
}

/** The report from the results of mixedReportCells (same order), wherever they were computed. */
export function mixedReportFrom(search: MixedSearch, o: MixedOptions, results: readonly CellResult[]): MixedReport {
  const cells = mixedReportCells(search, o)
  if (results.length !== cells.length) throw new Error(`the mixed report needs ${cells.length} cell results, got ${results.length}`)
  const of = new Map(cells.map((c, i) => [cellKey(c), results[i]]))
  const result = (part: Part, candidate: Candidate, threshold: number | null) => of.get(cellKey({ part, candidate, threshold: isBaseline(candidate) ? null : threshold }))!
  const base = { train: result('train', BASELINE, null), test: result('test', BASELINE, null) }
  const entry = ({ name, candidate, threshold, weights }: EntryPlan): MixedEntry => {
    const label = threshold === null ? name : `${name} Θ=${formatThreshold(threshold)}`
    const sum = (part: Part) => partSummary(result(part, candidate, threshold), base[part], o.objective, entrySeed(o.seed, part, candidate, threshold))
    return { label, candidate, threshold, weights, train: sum('train'), test: sum('test') }
  }
  const e = entryPlans(search, o)
  return { search, best: entry(e.best), baseline: entry(e.baseline), vertices: e.vertices.map(entry) }
}

/** The best weights, EASY-FCFS and the pure vertex policies, on the train and test samples. */
export function reportMixed(p: Prepared, machineProcs: number, search: MixedSearch, o: MixedOptions, onProgress?: MixedProgress): MixedReport {
  const cells = mixedReportCells(search, o)
  const results = cells.map((c, i) => {
    const r = runCell(p[c.part], machineProcs, c, o.tau)
    onProgress?.('evaluate', i + 1, cells.length)
    return r
  })
  return mixedReportFrom(search, o, results)
}

export function runMixed(p: Prepared, machineProcs: number, o: MixedOptions, onProgress?: MixedProgress): MixedReport {
  return reportMixed(p, machineProcs, searchMixed(p.train, machineProcs, o, onProgress), o, onProgress)
}
