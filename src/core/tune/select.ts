// From cell results to a recommendation (docs/PROTOCOL.md §Statistics, §Selection;
// docs/STATISTICS.md): every candidate relative to EASY-FCFS on the same weeks, ranked on the
// resampled train weeks as the thesis does, and judged on the part's REAL weeks: a paired
// bootstrap of the real weeks that redoes the choice of the best in every replicate, so that
// picking the best of many is paid for. The verdict (switch / keep / insufficient-data) follows.
import { deriveSeed, Rng } from '../util/random'
import { percentile } from '../sim/metrics'
import { DEFAULTS } from '../defaults'
import { formatPercent } from '../util/format'
import { slurmDeployment } from '../export/deploy'
import { BASELINE, candidateLabel, cellKey, cellOf, configLabel, isBaseline, realCellKey, thresholdsOf, type Candidate, type CampaignSpec, type CellResult, type Objective, type Part } from './campaign'
import type { Criterion, Verdict } from './result'

export interface PartSummary {
  /** Mean over weeks of the weekly objective (seconds for avgWait). */
  mean: number
  baselineMean: number
  /** 1 − mean / baselineMean: the share of the objective removed (positive = better). */
  gain: number
  /** The paired bootstrap interval (at the protocol's confidence) of this candidate's gain on the
   * part's REAL weeks (`real.gain`), not on the resampled ones: its width reflects how many real
   * weeks the log has (docs/STATISTICS.md). Equal to `real.ci`. */
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
  /** Mean over weeks of the 99th-percentile wait (seconds), and the largest; null when the cells
   * carry no percentile (results of older caches). */
  meanP99Wait: number | null
  maxP99Wait: number | null
  /** The real-week statistics: the verdict's evidence. */
  real: RealWeekGain
}

/** A candidate's gain on the part's real full weeks (docs/STATISTICS.md). */
export interface RealWeekGain {
  /** Real weeks used (weeks where the criterion is defined). */
  weeks: number
  /** G_c = 1 − Σ w·v_c / Σ w·b over the real weeks (ratio-of-means), or 1 − mean of w-weighted
   * v_c/b (mean-ratio). */
  gain: number
  /** The candidate's own paired percentile interval at the protocol's confidence. */
  ci: [number, number]
  /** Train only: the paired interval of G_c − G_best (best = the top of the train ranking within
   * the risk limit); contains 0 = no significant difference. Null for the best itself and on test. */
  vsBest: [number, number] | null
  /** Train only: the interval corrected for selection, [G_c − q_hi(δ), G_c − q_lo(δ)] with δ the
   * bootstrap winner's optimism (docs/STATISTICS.md); what `switch` requires above 0. */
  selectionCi: [number, number] | null
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

/** What the verdict needs besides the cells (defaults in core/defaults.ts). */
export interface VerdictOptions {
  risk: RiskLimit
  criterion: Criterion
  /** Two-sided confidence of every interval, a fraction (0.95). */
  confidence: number
  /** Smallest train gain that justifies a switch, a fraction (0.05). */
  minGain: number
  /** Fewest real (original) weeks in each part for a verdict other than insufficient-data. */
  minWeeks: number
  /** Fewest jobs in each part, idem. */
  minJobs: number
  /** Bootstrap replicates. */
  replicates: number
}

export function defaultVerdictOptions(risk: RiskLimit = { maxWaitRatio: DEFAULTS.maxWaitRatio.value }): VerdictOptions {
  return {
    risk, criterion: DEFAULTS.criterion.value, confidence: DEFAULTS.confidence.value, minGain: DEFAULTS.minGain.value,
    minWeeks: DEFAULTS.minWeeks.value, minJobs: DEFAULTS.minJobs.value, replicates: DEFAULTS.bootstrap.value,
  }
}

/** The part's data, for the insufficient-data rule. */
export interface PartData {
  /** Full original weeks of submits. */
  weeks: number
  jobs: number
}

/** The real-week statistics of the selection (docs/STATISTICS.md). */
export interface SelectionStatistics {
  method: 'real-week paired bootstrap, choice redone per replicate'
  criterion: Criterion
  confidence: number
  replicates: number
  /** Real weeks in each part. */
  trainWeeks: number
  testWeeks: number
  /** Quantiles (α/2, 1 − α/2) of the bootstrap winner's optimism δ on train. */
  optimism: [number, number]
}

export interface Selection {
  objective: Objective
  risk: RiskLimit
  candidates: CandidateSummary[]
  /** Index in `candidates` of the recommendation: the switch target, or the baseline (0) for
   * `keep`; null for `insufficient-data`. */
  recommended: number | null
  /** The top of the train ranking within the risk limit, before the verdict (the baseline qualifies). */
  bestAdmissible: number
  verdict: Verdict
  /** Why, in plain words. */
  reason: string
  /** Candidates as good as the recommendation (passed every switch condition, no significant
   * paired difference): indices, the recommendation excluded. */
  equivalent: number[]
  options: VerdictOptions
  statistics: SelectionStatistics
  /** Index of the best on test among all candidates, in hindsight. */
  bestOnTest: number
  /** Index of the best on train regardless of the risk limit. */
  bestOnTrain: number
  /** Candidates ranked by train objective (indices). */
  ranking: number[]
}

export function summarize(spec: CampaignSpec, results: Map<string, CellResult>, opts: VerdictOptions, seed: number, data?: { train: PartData; test: PartData }): Selection {
  const risk = opts.risk
  const get = (key: string, what: string): CellResult => {
    const r = results.get(key)
    if (!r) throw new Error(`missing result for ${what}`)
    return r
  }
  const cell = (part: Part, c: Candidate, t: number | null) => get(cellKey(cellOf(part, c, t)), `${configLabel(c, t)} on ${part}`)
  const real = (part: Part, c: Candidate, t: number | null) => get(realCellKey(spec, part, c, t), `${configLabel(c, t)} on the real ${part} weeks`)
  const entries: { c: Candidate; t: number | null; bl: boolean; key: string }[] = []
  const seen = new Set<string>()
  const add = (c: Candidate, t: number | null) => {
    const bl = isBaseline(c)
    const key = bl ? 'baseline' : cellKey({ part: 'train', candidate: c, threshold: t })
    if (seen.has(key)) return
    seen.add(key)
    entries.push({ c: bl ? BASELINE : c, t: bl ? null : t, bl, key })
  }
  add(BASELINE, null)
  for (const c of spec.candidates) for (const t of thresholdsOf(c, spec.thresholds)) add(c, t)
  const parts = ['train', 'test'] as const
  // Real-week statistics per part: gains, own intervals, and (train) the selection's optimism.
  const realStats = {} as Record<Part, PartRealStats>
  for (const p of parts) realStats[p] = realWeekStats(entries.map((e) => real(p, e.c, e.t)), real(p, BASELINE, null), spec.objective, opts, deriveSeed(seed, `real-weeks/${p}`))
  const list: CandidateSummary[] = entries.map((e, i) => {
    const part = (p: Part) => partSummary(cell(p, e.c, e.t), cell(p, BASELINE, null), spec.objective, 0, { gain: realStats[p].gains[i], ci: realStats[p].cis[i], weeks: realStats[p].weeks })
    const train = part('train')
    return {
      label: e.bl ? candidateLabel(BASELINE) : configLabel(e.c, e.t), candidate: e.c, threshold: e.t, baseline: e.bl,
      train, test: part('test'),
      admissible: risk.maxWaitRatio === null || e.bl || train.maxMaxWaitRatio <= risk.maxWaitRatio,
    }
  })
  const ranking = list.map((_, i) => i).sort((a, b) => list[a].train.mean - list[b].train.mean || a - b)
  const bestAdmissible = ranking.find((i) => list[i].admissible) ?? 0
  const bestOnTest = list.map((_, i) => i).sort((a, b) => list[a].test.mean - list[b].test.mean || a - b)[0]
  // The optimism of choosing the best of the admissible candidates, and the paired differences.
  const admissible = list.map((c) => c.admissible)
  const target = ranking.find((i) => list[i].admissible && !list[i].baseline) ?? null
  const tr = realStats.train
  const optimism = selectionOptimism(tr, admissible, opts)
  for (let i = 0; i < list.length; i++) {
    const g = list[i].train.real.gain
    list[i].train.real.selectionCi = [g - optimism[1], g - optimism[0]]
    list[i].train.real.vsBest = target === null || i === target ? null : pairedDifference(tr, i, target, opts.confidence)
  }
  const statistics: SelectionStatistics = {
    method: 'real-week paired bootstrap, choice redone per replicate', criterion: opts.criterion, confidence: opts.confidence,
    replicates: opts.replicates, trainWeeks: tr.weeks, testWeeks: realStats.test.weeks, optimism,
  }
  const base = { objective: spec.objective, risk, candidates: list, bestAdmissible, bestOnTest, bestOnTrain: ranking[0], ranking, options: opts, statistics }
  return { ...base, ...decide(list, target, opts, data) }
}

/** The verdict (docs/STATISTICS.md §Verdict): insufficient data, else switch when the target passes
 * every condition (ties resolved to the simplest to deploy), else keep. */
function decide(list: CandidateSummary[], target: number | null, opts: VerdictOptions, data?: { train: PartData; test: PartData }): Pick<Selection, 'recommended' | 'verdict' | 'reason' | 'equivalent'> {
  const pct = (x: number) => formatPercent(x, 1)
  if (data) {
    const missing: string[] = []
    for (const p of ['train', 'test'] as const) {
      if (data[p].weeks < opts.minWeeks) missing.push(`the ${p} part has ${data[p].weeks} full week${data[p].weeks === 1 ? '' : 's'} (at least ${opts.minWeeks} needed)`)
      if (data[p].jobs < opts.minJobs) missing.push(`the ${p} part has ${data[p].jobs} jobs (at least ${opts.minJobs} needed)`)
    }
    if (missing.length) return { recommended: null, verdict: 'insufficient-data', equivalent: [], reason: `Not enough data for a verdict: ${missing.join('; ')}. Give a longer log.` }
  }
  if (target === null) return { recommended: 0, verdict: 'keep', equivalent: [], reason: 'no candidate is within the risk limit: keep EASY-FCFS' }
  const fails = (i: number): string[] => {
    const r = list[i].train.real
    const why: string[] = []
    if (!(r.gain >= opts.minGain)) why.push(`its train gain on the real weeks, ${pct(r.gain)}, is below the ${pct(opts.minGain)} needed to switch`)
    if (!(r.selectionCi![0] > 0)) why.push(`its ${Math.round(opts.confidence * 100)}% interval (${pct(r.selectionCi![0])} to ${pct(r.selectionCi![1])}, corrected for picking the best of ${list.length - 1}) is not entirely above 0`)
    if (!list[i].admissible) why.push('it breaks the risk limit')
    return why
  }
  const why = fails(target)
  if (why.length) return { recommended: 0, verdict: 'keep', equivalent: [], reason: `keep EASY-FCFS: the best candidate on train, ${list[target].label}, does not justify a switch: ${why.join('; ')}` }
  const tied = [target]
  for (let i = 0; i < list.length; i++) {
    if (i === target || list[i].baseline || fails(i).length) continue
    const d = list[i].train.real.vsBest
    if (d && d[0] <= 0 && d[1] >= 0) tied.push(i)
  }
  const rank = (i: number) => slurmDeployment(list[i].candidate, list[i].threshold).rank
  const order = tied.map((i, at) => ({ i, at, rank: rank(i) })).sort((a, b) => a.rank - b.rank || a.at - b.at)
  const chosen = order[0].i
  const simpler = chosen === target ? '' : ` (${list[chosen].label} is as good as the best on train, ${list[target].label}, and simpler to deploy)`
  return {
    recommended: chosen, verdict: 'switch', equivalent: order.slice(1).map((o) => o.i),
    reason: `switch to ${list[chosen].label}${simpler}: train gain ${pct(list[chosen].train.real.gain)} on the real weeks ≥ ${pct(opts.minGain)}, its interval above 0, ${opts.risk.maxWaitRatio === null ? 'no risk limit set' : `longest wait within ${opts.risk.maxWaitRatio}× EASY-FCFS's`}`,
  }
}

/** Per part: the real weeks' numerators a[i][k] and denominators d[k] of every candidate's gain. */
interface PartRealStats {
  weeks: number
  /** Σ over weeks kept of the numerators / denominators (Ĝ_i = 1 − A_i / D). */
  a: Float64Array[]
  d: Float64Array
  gains: number[]
  cis: [number, number][]
  /** Bootstrap replicates: gains[r * C + i] (the same week draws for every candidate). */
  boot: Float64Array
  replicates: number
}

/** The real weeks of every candidate (docs/STATISTICS.md): G_c(W) = 1 − Σ_W w·v_c / Σ_W w·b
 * (ratio-of-means) or 1 − Σ_W w·v_c/b / Σ_W w (mean-ratio, weeks with b = 0 left out), and B
 * paired bootstrap replicates of the weeks, the same draws for every candidate. */
export function realWeekStats(cells: CellResult[], base: CellResult, objective: Objective, opts: Pick<VerdictOptions, 'criterion' | 'confidence' | 'replicates'>, seed: number): PartRealStats {
  const obj = (r: CellResult) => (objective === 'avgWait' ? r.avgWait : r.avgBsld)
  const b = obj(base)
  const K = b.length
  const w = (r: CellResult, k: number) => (r.weight ? r.weight[k] : 1)
  const C = cells.length
  const d = new Float64Array(K)
  const a = cells.map(() => new Float64Array(K))
  let used = 0
  for (let k = 0; k < K; k++) {
    const wk = w(base, k)
    if (opts.criterion === 'ratio-of-means') d[k] = wk * b[k]
    else d[k] = b[k] > 0 ? wk : 0
    if (d[k] > 0 || opts.criterion === 'ratio-of-means') used++
    for (let i = 0; i < C; i++) {
      const v = obj(cells[i])
      if (v.length !== K) throw new Error(`a real-week cell has ${v.length} weeks, the baseline's ${K}`)
      a[i][k] = opts.criterion === 'ratio-of-means' ? wk * v[k] : b[k] > 0 ? (wk * v[k]) / b[k] : 0
    }
  }
  const gainOf = (num: number, den: number) => (den > 0 ? 1 - num / den : num > 0 ? -Infinity : 0)
  const D = sum(d)
  const gains = a.map((ai) => gainOf(sum(ai), D))
  const R = opts.replicates
  const boot = new Float64Array(R * C)
  const rng = new Rng(seed)
  const m = new Float64Array(K)
  for (let r = 0; r < R; r++) {
    m.fill(0)
    for (let k = 0; k < K; k++) m[rng.int(K)]++
    let den = 0
    for (let k = 0; k < K; k++) den += m[k] * d[k]
    for (let i = 0; i < C; i++) {
      const ai = a[i]
      let num = 0
      for (let k = 0; k < K; k++) num += m[k] * ai[k]
      boot[r * C + i] = gainOf(num, den)
    }
  }
  const cis = gains.map((_, i) => quantiles(Float64Array.from({ length: R }, (_, r) => boot[r * C + i]), opts.confidence))
  return { weeks: opts.criterion === 'ratio-of-means' ? K : used, a, d, gains, cis, boot, replicates: R }
}

/** The quantiles (α/2, 1 − α/2) of δ_b = G_{ĉ_b}(W_b) − Ĝ_{ĉ_b}, ĉ_b the best admissible
 * non-baseline candidate in replicate b. [0, 0] when no candidate is admissible. */
export function selectionOptimism(s: PartRealStats, admissible: boolean[], opts: Pick<VerdictOptions, 'confidence'>): [number, number] {
  const C = s.gains.length
  const deltas: number[] = []
  for (let r = 0; r < s.replicates; r++) {
    let best = -1, g = -Infinity
    for (let i = 1; i < C; i++) if (admissible[i] && s.boot[r * C + i] > g) { g = s.boot[r * C + i]; best = i }
    if (best >= 0 && Number.isFinite(g) && Number.isFinite(s.gains[best])) deltas.push(g - s.gains[best])
  }
  return deltas.length ? quantiles(Float64Array.from(deltas), opts.confidence) : [0, 0]
}

/** Paired percentile interval of G_i − G_j over the replicates. */
export function pairedDifference(s: PartRealStats, i: number, j: number, confidence: number): [number, number] {
  const C = s.gains.length
  return quantiles(Float64Array.from({ length: s.replicates }, (_, r) => s.boot[r * C + i] - s.boot[r * C + j]), confidence)
}

function quantiles(x: Float64Array, confidence: number): [number, number] {
  const finite = x.filter((v) => Number.isFinite(v)).sort()
  if (finite.length === 0) return [0, 0]
  const alpha = 1 - confidence
  return [percentile(finite, alpha / 2), percentile(finite, 1 - alpha / 2)]
}

/** A part's figures for one candidate. `real`: its real-week gain and interval (summarize); without
 * it (the mixed search's report, which has no real-week cells) the interval is the older paired
 * bootstrap over the given weeks at 90 % (bootstrapGain), and `real` describes those weeks. */
export function partSummary(r: CellResult, base: CellResult, objective: Objective, seed: number, real?: { gain: number; ci: [number, number]; weeks: number }): PartSummary {
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
  const gain = baselineMean > 0 ? 1 - mean / baselineMean : 0
  const rw = real ?? { gain, ci: bootstrapGain(v, b, seed), weeks: n }
  const meanMaxWait = avg(r.maxWait), baseMeanMax = avg(base.maxWait)
  const maxMaxWait = max(r.maxWait), baseMaxMax = max(base.maxWait)
  return {
    mean, baselineMean, gain,
    gainCi: rw.ci,
    meanRatio: ratios.length ? ratios.reduce((a, x) => a + x, 0) / ratios.length : 1,
    p10Ratio: percentile(sortedRatios, 0.1), p90Ratio: percentile(sortedRatios, 0.9), ratioWeeks: ratios.length,
    ratioOfSums: sumB > 0 ? sumC / sumB : 1,
    meanMaxWait, meanMaxWaitRatio: baseMeanMax > 0 ? meanMaxWait / baseMeanMax : 1,
    maxMaxWait, maxMaxWaitRatio: baseMaxMax > 0 ? maxMaxWait / baseMaxMax : maxMaxWait > 0 ? Infinity : 1,
    meanP99Wait: r.p99Wait ? avg(r.p99Wait) : null, maxP99Wait: r.p99Wait ? max(r.p99Wait) : null,
    real: { weeks: rw.weeks, gain: rw.gain, ci: rw.ci, vsBest: null, selectionCi: null },
  }
}

/** Paired bootstrap over the given weeks of 1 − mean(v)/mean(b): the 5th and 95th percentiles. */
export function bootstrapGain(v: Float64Array, b: Float64Array, seed: number, rounds = 1000): [number, number] {
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

function sum(a: Float64Array): number {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i]
  return s
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
