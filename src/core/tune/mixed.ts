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
import type { MixedSpec, PolicySpec, SimConfig } from '../sim/types'
import { MIXED_FEATURE_DECLARATIONS } from '../sim/policies'
import { formatThreshold } from '../util/duration'
import { deriveSeed, Rng } from '../util/random'
import type { JobTable } from '../workload/types'
import { BASELINE, cellKey, isBaseline, runCell, type Candidate, type Objective } from './campaign'
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
    const zs: number[][] = [], fs: number[] = []
    for (let k = 0; k < n; k++) {
      const z = Array.from({ length: d }, () => rng.normal())
      const Bz = matVec(B, z)
      const x = mu.map((m, i) => m + sigma * Bz[i])
      const fx = f(x)
      evals++
      if (fx < best.f) best = { x, f: fx, evaluations: 0 }
      zs.push(z); fs.push(fx)
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
export function featureStats(weeks: readonly JobTable[], machineProcs: number): Standardization {
  const s = new Array<number>(6).fill(0), s2 = new Array<number>(6).fill(0)
  let n = 0
  for (const week of weeks) {
    const start = simulate(week, machineProcs, { primary: 'FCFS', backfill: 'same', threshold: null }, { windowStart: 0 })
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

/** Mean weekly objective of one policy over the samples (the same loop and order as runCell). */
export function trainObjective(weeks: readonly JobTable[], machineProcs: number, primary: PolicySpec, o: Pick<MixedOptions, 'objective' | 'threshold' | 'tau'>): number {
  const config: SimConfig = { primary, backfill: 'same', threshold: o.threshold }
  let sum = 0
  for (const week of weeks) {
    const m = computeMetrics(week, machineProcs, simulate(week, machineProcs, config, { windowStart: 0 }), o.tau)
    sum += o.objective === 'avgWait' ? m.avgWait : m.avgBsld
  }
  return weeks.length ? sum / weeks.length : 0
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

export function searchMixed(train: WeekSamples, machineProcs: number, o: MixedOptions, onProgress?: MixedProgress): MixedSearch {
  if (!(Number.isInteger(o.budget) && o.budget >= 1)) throw new Error(`the evaluation budget must be a whole number above 0, got ${o.budget}`)
  const d = o.features
  const weeks = Array.from({ length: train.count }, (_, k) => train.get(k))
  const st = o.standardize === false ? null : featureStats(weeks, machineProcs)
  const cache = new Map<string, number>()
  const trace: number[] = []
  let best = { w: [0, 0, 1, 0, 0, 0], f: Infinity }
  /** Objective of a point of the sphere (d weights, ‖w‖₁ = 1). */
  const evaluate = (wd: readonly number[]): number => {
    const w = [...wd, ...new Array<number>(6 - d).fill(0)]
    const key = w.join(',')
    let f = cache.get(key)
    if (f === undefined) { f = trainObjective(weeks, machineProcs, mixedSpec(w, st), o); cache.set(key, f) }
    if (f < best.f) best = { w, f }
    trace.push(best.f)
    onProgress?.('search', trace.length, o.budget)
    return f
  }
  let gridStep: number | null = null
  if (o.method === 'grid') {
    const k = gridK(d, o.budget)
    gridStep = 1 / k
    for (const w of l1Grid(d, k).slice(0, o.budget)) evaluate(w)
  } else {
    const x0 = [0, 0, 1, 0, 0, 0].slice(0, d)
    const ref = evaluate(x0)
    const lambda = PENALTY_LAMBDA * (ref > 0 ? ref : 1)
    // The other pure vertices first: XNES never lands exactly on one, and the result should never
    // be worse on train than the pure policies it generalises.
    for (let i = 0; i < d && trace.length < o.budget; i++) if (i !== 2) evaluate(x0.map((_, j) => (j === i ? 1 : 0)))
    if (o.budget > trace.length) {
      xnes((x) => {
        const n1 = x.reduce((s, v) => s + Math.abs(v), 0)
        if (!(n1 > 1e-12) || !Number.isFinite(n1)) { trace.push(best.f); onProgress?.('search', trace.length, o.budget); return Infinity }
        return evaluate(x.map((v) => v / n1)) + lambda * (n1 + 1 / n1 - 2)
      }, x0, { sigma0: XNES_SIGMA0, budget: o.budget - trace.length, seed: deriveSeed(o.seed, 'xnes') })
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

/** The best weights, EASY-FCFS and the pure vertex policies, on the train and test samples. */
export function reportMixed(p: Prepared, machineProcs: number, search: MixedSearch, o: MixedOptions, onProgress?: MixedProgress): MixedReport {
  const d = o.features
  const vertexIds = VERTEX_POLICIES.slice(0, d).filter((v) => v !== 'FCFS')
  const total = 2 * (2 + vertexIds.length)
  let done = 0
  const cell = (part: 'train' | 'test', candidate: Candidate, threshold: number | null) => {
    const r = runCell(p[part], machineProcs, { candidate, threshold, part }, o.tau)
    onProgress?.('evaluate', ++done, total)
    return r
  }
  const base = { train: cell('train', BASELINE, null), test: cell('test', BASELINE, null) }
  const entry = (name: string, candidate: Candidate, threshold: number | null, weights: number[]): MixedEntry => {
    const label = threshold === null ? name : `${name} Θ=${formatThreshold(threshold)}`
    const r = candidate === BASELINE ? base : { train: cell('train', candidate, threshold), test: cell('test', candidate, threshold) }
    const sum = (part: 'train' | 'test') => partSummary(r[part], base[part], o.objective, entrySeed(o.seed, part, candidate, threshold))
    return { label, candidate, threshold, weights, train: sum('train'), test: sum('test') }
  }
  const unit = (i: number) => [0, 0, 0, 0, 0, 0].map((_, j) => (j === i ? 1 : 0))
  return {
    search,
    best: entry(mixedLabel(search.weights, d), { primary: search.spec, backfill: 'same' }, o.threshold, search.weights),
    baseline: entry('EASY-FCFS', BASELINE, null, unit(2)),
    vertices: vertexIds.map((id) => entry(`EASY-${id}`, { primary: id, backfill: 'same' }, o.threshold, unit(VERTEX_POLICIES.indexOf(id)))),
  }
}

export function runMixed(p: Prepared, machineProcs: number, o: MixedOptions, onProgress?: MixedProgress): MixedReport {
  return reportMixed(p, machineProcs, searchMixed(p.train, machineProcs, o, onProgress), o, onProgress)
}
