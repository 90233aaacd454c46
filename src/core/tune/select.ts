// From cell results to a recommendation (docs/PROTOCOL.md §Statistics, §Selection): every candidate relative to
// EASY-FCFS on the same weeks, selection on train within the administrator's risk limit, and an
// honest report of the test numbers, including the in-hindsight best on test.
import { deriveSeed, Rng } from '../util/random'
import { percentile } from '../sim/metrics'
import { BASELINE, candidateLabel, cellKey, configLabel, isBaseline, type Candidate, type CampaignSpec, type CellResult, type Objective, type Part } from './campaign'

export interface PartSummary {
  /** Mean over weeks of the weekly objective (seconds for avgWait). */
  mean: number
  baselineMean: number
  /** 1 − mean / baselineMean: the share of the objective removed (positive = better). */
  gain: number
  /** Bootstrap 90% confidence interval of `gain` over weeks (paired resampling). */
  gainCi: [number, number]
  /** Weekly ratios objective / baseline objective: mean, first and last decile (weeks where the
   * baseline is 0 are left out; `ratioWeeks` counts the others). */
  meanRatio: number
  p10Ratio: number
  p90Ratio: number
  ratioWeeks: number
  /** Thesis eq. 6.11 form: Σ_weeks (Σ jobs objective) / same for the baseline. */
  ratioOfSums: number
  /** Mean over weeks of MaxWait, and its ratio to the baseline's. */
  meanMaxWait: number
  meanMaxWaitRatio: number
  /** Largest MaxWait over all weeks, and its ratio to the baseline's. */
  maxMaxWait: number
  maxMaxWaitRatio: number
}

export interface CandidateSummary {
  label: string
  candidate: Candidate
  threshold: number | null
  baseline: boolean
  train: PartSummary
  test: PartSummary
  /** Within the risk limit (measured on train). */
  admissible: boolean
}

export interface RiskLimit {
  /** Largest acceptable ratio of the longest wait (over all train weeks) to EASY-FCFS's. */
  maxWaitRatio: number | null
}

export interface Selection {
  objective: Objective
  risk: RiskLimit
  candidates: CandidateSummary[]
  /** Index in `candidates` of the best on train within the risk limit (the baseline qualifies). */
  recommended: number
  /** Index of the best on test among all candidates, in hindsight. */
  bestOnTest: number
  /** Index of the best on train regardless of the risk limit. */
  bestOnTrain: number
  /** Candidates ranked by train objective (indices). */
  ranking: number[]
}

const BOOTSTRAP = 1000

export function summarize(spec: CampaignSpec, results: Map<string, CellResult>, risk: RiskLimit, seed: number): Selection {
  const get = (part: Part, c: Candidate, t: number | null): CellResult => {
    const r = results.get(cellKey({ part, candidate: isBaseline(c) ? BASELINE : c, threshold: isBaseline(c) ? null : t }))
    if (!r) throw new Error(`missing result for ${configLabel(c, t)} on ${part}`)
    return r
  }
  const base = { train: get('train', BASELINE, null), test: get('test', BASELINE, null) }
  const list: CandidateSummary[] = []
  const seen = new Set<string>()
  const add = (c: Candidate, t: number | null) => {
    const bl = isBaseline(c)
    const key = bl ? 'baseline' : cellKey({ part: 'train', candidate: c, threshold: t })
    if (seen.has(key)) return
    seen.add(key)
    const part = (p: Part) => partSummary(get(p, c, t), base[p], spec.objective, deriveSeed(seed, `bootstrap/${p}/${key}`))
    const train = part('train')
    list.push({
      label: bl ? candidateLabel(BASELINE) : configLabel(c, t), candidate: bl ? BASELINE : c, threshold: bl ? null : t, baseline: bl,
      train, test: part('test'),
      admissible: risk.maxWaitRatio === null || bl || train.maxMaxWaitRatio <= risk.maxWaitRatio,
    })
  }
  add(BASELINE, null)
  for (const c of spec.candidates) for (const t of spec.thresholds) add(c, t)
  const ranking = list.map((_, i) => i).sort((a, b) => list[a].train.mean - list[b].train.mean || a - b)
  const recommended = ranking.find((i) => list[i].admissible) ?? 0
  const bestOnTest = list.map((_, i) => i).sort((a, b) => list[a].test.mean - list[b].test.mean || a - b)[0]
  return { objective: spec.objective, risk, candidates: list, recommended, bestOnTest, bestOnTrain: ranking[0], ranking }
}

export function partSummary(r: CellResult, base: CellResult, objective: Objective, seed: number): PartSummary {
  const v = objective === 'avgWait' ? r.avgWait : r.avgBsld
  const b = objective === 'avgWait' ? base.avgWait : base.avgBsld
  const n = v.length
  const mean = avg(v), baselineMean = avg(b)
  const ratios: number[] = []
  let sumC = 0, sumB = 0
  for (let k = 0; k < n; k++) {
    if (b[k] > 0) ratios.push(v[k] / b[k])
    sumC += v[k] * r.jobs[k]
    sumB += b[k] * base.jobs[k]
  }
  const sortedRatios = Float64Array.from(ratios).sort()
  const meanMaxWait = avg(r.maxWait), baseMeanMax = avg(base.maxWait)
  const maxMaxWait = max(r.maxWait), baseMaxMax = max(base.maxWait)
  return {
    mean, baselineMean, gain: baselineMean > 0 ? 1 - mean / baselineMean : 0,
    gainCi: bootstrapGain(v, b, seed),
    meanRatio: ratios.length ? ratios.reduce((a, x) => a + x, 0) / ratios.length : 1,
    p10Ratio: percentile(sortedRatios, 0.1), p90Ratio: percentile(sortedRatios, 0.9), ratioWeeks: ratios.length,
    ratioOfSums: sumB > 0 ? sumC / sumB : 1,
    meanMaxWait, meanMaxWaitRatio: baseMeanMax > 0 ? meanMaxWait / baseMeanMax : 1,
    maxMaxWait, maxMaxWaitRatio: baseMaxMax > 0 ? maxMaxWait / baseMaxMax : maxMaxWait > 0 ? Infinity : 1,
  }
}

/** Paired bootstrap over weeks of 1 − mean(v)/mean(b): the 5th and 95th percentiles. */
export function bootstrapGain(v: Float64Array, b: Float64Array, seed: number, rounds = BOOTSTRAP): [number, number] {
  const n = v.length
  const rng = new Rng(seed)
  const gains = new Float64Array(rounds)
  for (let r = 0; r < rounds; r++) {
    let sv = 0, sb = 0
    for (let k = 0; k < n; k++) { const i = rng.int(n); sv += v[i]; sb += b[i] }
    gains[r] = sb > 0 ? 1 - sv / sb : 0
  }
  gains.sort()
  return [percentile(gains, 0.05), percentile(gains, 0.95)]
}

function avg(a: Float64Array): number {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i]
  return a.length ? s / a.length : 0
}

function max(a: Float64Array): number {
  let m = 0
  for (let i = 0; i < a.length; i++) if (a[i] > m) m = a[i]
  return m
}
