// The runtime-prediction campaign of thesis ch. 4 (docs/PREDICTIONS.md §Campaign): every
// (prediction × correction × backfill order) triple on each of several logs, and the triple chosen
// by leave-one-out across logs (the least sum of AvgBsld on the other logs). Declared once here:
// the triples, what is measured for one (log, triple), and the selection. Pure: the engine
// (src/engine/predictions.ts) runs one (log, triple) per unit, and the CLI and the docs read these.
import { DEFAULTS } from '../defaults'
import { EasySimulator } from '../sim/easy'
import { percentile } from '../sim/metrics'
import type { PolicySpec, SimConfig, SimJobs } from '../sim/types'
import { CORRECTIONS } from './corrections'
import { ELOSS_ID, findLoss, lossValue, lossWeight, LOSSES } from './losses'
import { findPredictor } from './predictors'
import type { CorrectionId, PredictJobs, PredictorSpec } from './types'

/** How the backfill candidates are ordered: 'same' = in the queue order (FCFS: plain EASY), 'sjbf' = shortest prediction first (EASY-SJBF). */
export type BackfillOrder = 'same' | 'sjbf'
export const BACKFILL_ORDERS: readonly BackfillOrder[] = ['same', 'sjbf']

export interface Triple {
  /** `<predictor>+<correction>+<backfill>`, e.g. `eloss:sq-abs-large-area+incremental+sjbf`. */
  readonly id: string
  /** For people: "EASY++ (AVE₂ · Incremental · SJBF)". */
  readonly label: string
  readonly predictor: PredictorSpec
  readonly correction: CorrectionId
  readonly backfill: BackfillOrder
  /** True for the learned regression's triples (eloss:<loss>). */
  readonly learned: boolean
  /** False for the clairvoyant triples: a bound of what prediction can give, not a predictor a site
   * can run, so leave-one-out never chooses them (they are reported beside the choice). */
  readonly selectable: boolean
}

/** The predictor part of a triple id: `requested`, `clairvoyant`, `ave2`, `eloss:<loss>` (always with its loss). */
export function predictorKey(p: PredictorSpec): string {
  return p.id === 'eloss' ? `eloss:${p.loss ?? ELOSS_ID}` : p.id
}

export const tripleId = (p: PredictorSpec, c: CorrectionId, b: BackfillOrder): string => `${predictorKey(p)}+${c}+${b}`

/** The thesis named triples (docs/PREDICTIONS.md §Campaign). */
export const EASY_ID = 'requested+none+same'
export const EASY_PP_ID = 'ave2+incremental+sjbf'
export const CLAIRVOYANT_ID = 'clairvoyant+none+same'
export const CLAIRVOYANT_SJBF_ID = 'clairvoyant+none+sjbf'
/** The triple the thesis selected on all its leave-one-out folds but one: the E-Loss regression, incremental correction, SJBF. */
export const THESIS_CHOICE_ID = `eloss:${ELOSS_ID}+incremental+sjbf`
/** The triple the campaign selects by leave-one-out on the thesis's four logs of ../shared/data
 * (KTH-SP2, CTC-SP2, SDSC-BLUE, CEA-Curie; the same triple in every fold): what a site's own log,
 * held out of that selection, is shown with (docs/PREDICTIONS.md §Results, which gives the
 * command that reproduces it; a test checks the page and this declaration agree). */
export const CAMPAIGN_CHOICE = { triple: 'eloss:abs-abs-short-wide+requested+sjbf', logs: ['KTH-SP2', 'CTC-SP2', 'SDSC-BLUE', 'CEA-Curie'] } as const
const NAMES: Readonly<Record<string, string>> = {
  [EASY_ID]: 'EASY', [EASY_PP_ID]: 'EASY++', [CLAIRVOYANT_ID]: 'Clairvoyant EASY', [CLAIRVOYANT_SJBF_ID]: 'Clairvoyant EASY-SJBF',
  'requested+none+sjbf': 'EASY-SJBF on requested times (SPF backfill)',
  [THESIS_CHOICE_ID]: 'The thesis choice',
}

function makeTriple(predictor: PredictorSpec, correction: CorrectionId, backfill: BackfillOrder): Triple {
  const id = tripleId(predictor, correction, backfill)
  const pname = predictor.id === 'eloss' ? `learned, loss ${predictor.loss ?? ELOSS_ID}${(predictor.loss ?? ELOSS_ID) === ELOSS_ID ? ' (E-Loss)' : ''}` : predictor.id === 'ave2' ? 'AVE₂' : findPredictor(predictor.id)!.name.toLowerCase()
  const parts = `${pname} · correction ${CORRECTIONS.find((c) => c.id === correction)!.name.toLowerCase()} · ${backfill === 'sjbf' ? 'SJBF' : 'queue-order'} backfill`
  const name = NAMES[id]
  return { id, label: name ? `${name} (${parts})` : parts, predictor, correction, backfill, learned: predictor.id === 'eloss', selectable: predictor.id !== 'clairvoyant' }
}

/**
 * Every triple of the campaign, in a fixed order (the order of ties everywhere): requested time
 * and clairvoyant with no correction (they never fall short), then AVE₂ and the learned regression
 * under each of the 20 losses with each correction that exists (requested, incremental, doubling),
 * each with both backfill orders: 2·2 + 21·3·2 = 130.
 */
export const TRIPLES: readonly Triple[] = (() => {
  const out: Triple[] = []
  for (const p of [{ id: 'requested' }, { id: 'clairvoyant' }] as const) for (const b of BACKFILL_ORDERS) out.push(makeTriple(p, 'none', b))
  const learning: PredictorSpec[] = [{ id: 'ave2' }, ...LOSSES.map((l) => ({ id: 'eloss' as const, loss: l.id }))]
  const corrections = CORRECTIONS.map((c) => c.id).filter((c) => c !== 'none')
  for (const p of learning) for (const c of corrections) for (const b of BACKFILL_ORDERS) out.push(makeTriple(p, c, b))
  return out
})()

const BY_ID = new Map(TRIPLES.map((t) => [t.id, t]))
export function findTriple(id: string): Triple | undefined {
  return BY_ID.get(id)
}

/** What the rest of the product combines with a triple: the queue's primary order and threshold
 * (the thesis: FCFS, none), τ of the bounded slowdown. */
export interface PredictionCampaignOptions {
  readonly primary: string
  /** Θ in seconds, null = none. */
  readonly threshold: number | null
  /** τ of the bounded slowdown, seconds. */
  readonly tau: number
}

export const DEFAULT_CAMPAIGN_OPTIONS: PredictionCampaignOptions = { primary: DEFAULTS.primary.value, threshold: DEFAULTS.threshold.value, tau: DEFAULTS.tau.value }

/** The simulator configuration of a triple. */
export function tripleConfig(t: Triple, o: PredictionCampaignOptions): SimConfig {
  const primary: PolicySpec = o.primary
  return { primary, backfill: 'same', threshold: o.threshold, prediction: { predictor: t.predictor, correction: t.correction, sjbf: t.backfill === 'sjbf' } }
}

/** One simulation of a triple: the start times, the initial predictions and the corrections made. */
export interface TripleRun {
  readonly start: Float64Array
  readonly predictions: Float64Array
  readonly corrections: number
}

/** Simulates `t` on the jobs. `onCheck` as SimOptions' (progress and stop). */
export function simulateTriple(jobs: PredictJobs, machineProcs: number, t: Triple, o: PredictionCampaignOptions, onCheck?: (jobsStarted: number, now: number) => boolean): TripleRun {
  const sim = new EasySimulator(jobs, machineProcs, tripleConfig(t, o), onCheck ? { onCheck } : {})
  if (sim.runUntil(Infinity)) throw new CampaignStopped()
  return { start: sim.start, predictions: sim.predictions, corrections: sim.corrections }
}

export class CampaignStopped extends Error {
  constructor() { super('the prediction campaign was stopped') }
}

const bsldOf = (wait: number, p: number, tau: number) => Math.max((wait + p) / Math.max(p, tau), 1)

/**
 * The bound above which a job's bounded slowdown counts as extreme on this log (docs/PREDICTIONS.md
 * §Campaign): the DEFAULTS.extremeBsld quantile (nearest rank) of the bounded slowdowns plain EASY
 * gives, `easyStart` being EASY's start times under the same queue order and threshold.
 */
export function extremeBound(jobs: SimJobs, easyStart: Float64Array, tau: number, quantile: number = DEFAULTS.extremeBsld.value): number {
  const b = new Float64Array(jobs.count)
  for (let j = 0; j < jobs.count; j++) b[j] = bsldOf(easyStart[j] - jobs.submit[j], jobs.runtime[j], tau)
  b.sort()
  return percentile(b, quantile)
}

/** What the campaign measures for one (log, triple). */
export interface TripleMetrics {
  readonly jobs: number
  /** Mean bounded slowdown (τ = `tau`). */
  readonly avgBsld: number
  readonly maxBsld: number
  /** Seconds. */
  readonly avgWait: number
  /** Share (0..1) and number of jobs whose bounded slowdown is above `extremeBound`. */
  readonly extremeShare: number
  readonly extremeJobs: number
  /** The log's bound (extremeBound), the same for every triple of the log. */
  readonly extremeBound: number
  /** Mean |prediction − runtime| of the initial predictions, seconds. */
  readonly mae: number
  /** Mean E-Loss (losses.ts ELOSS_ID) of the initial predictions (weighted s² and s). */
  readonly meanELoss: number
  /** Share of jobs predicted below their runtime (0..1). */
  readonly underShare: number
  /** Corrections applied in the whole run. */
  readonly corrections: number
}

/** The metrics of a run (one pass over the jobs, no allocation but the result). */
export function tripleMetrics(jobs: SimJobs, run: TripleRun, tau: number, bound: number): TripleMetrics {
  const n = jobs.count
  const eloss = findLoss(ELOSS_ID)!
  let sumB = 0, maxB = 0, sumW = 0, extreme = 0, sumAbs = 0, sumLoss = 0, under = 0
  for (let j = 0; j < n; j++) {
    const p = jobs.runtime[j]
    const w = run.start[j] - jobs.submit[j]
    const b = bsldOf(w, p, tau)
    sumB += b
    if (b > maxB) maxB = b
    if (b > bound) extreme++
    sumW += w
    const f = run.predictions[j]
    sumAbs += Math.abs(f - p)
    if (f < p) under++
    sumLoss += lossValue(eloss, lossWeight(eloss, jobs.procs[j], p), f, p)
  }
  const per = (v: number) => (n > 0 ? v / n : 0)
  return { jobs: n, avgBsld: per(sumB), maxBsld: maxB, avgWait: per(sumW), extremeShare: per(extreme), extremeJobs: extreme, extremeBound: bound, mae: per(sumAbs), meanELoss: per(sumLoss), underShare: per(under), corrections: run.corrections }
}

// ---------------------------------------------------------------------------------------------
// Selection by leave-one-out across logs (docs/PREDICTIONS.md §Campaign).

/** One held-out log: the triple chosen on the others and how it does on this one. */
export interface LooFold {
  /** The held-out log (index into the table's logs). */
  readonly log: number
  /** The chosen triple (index into the table's triples): the candidate with the least sum of AvgBsld on the other logs; ties to the earlier triple. */
  readonly chosen: number
  /** That sum (the selection evidence; never includes the held-out log). */
  readonly otherLogsSum: number
  /** The chosen triple's AvgBsld on the held-out log: the honest estimate. */
  readonly heldOutAvgBsld: number
  /** Its rank there among the candidates (1 = best; tied values share the better rank). */
  readonly heldOutRank: number
  /** The best candidate on the held-out log itself (in hindsight: not a selection, an optimistic bound). */
  readonly hindsightBest: number
  readonly hindsightAvgBsld: number
}

export interface LooResult {
  /** One fold per log, in log order; empty with fewer than 2 logs. */
  readonly folds: readonly LooFold[]
  /** How many triples could be chosen (the rank's "out of"). */
  readonly candidates: number
  /** What leave-one-out can and cannot tell with this many logs, and the multiple-testing warning, in words. */
  readonly notes: readonly string[]
}

/** The multiple-hypothesis warning of the thesis (docs/PREDICTIONS.md §Campaign), in words. */
export const MULTIPLE_TESTING_NOTE = 'Many triples are compared on few logs (a multiple-hypothesis problem, as the thesis warns): the best triple on a log, or on the other logs, is partly the luckiest. Only the chosen triple\'s AvgBsld on the held-out log is an honest estimate, and small differences between the top triples may be noise.'

/**
 * Leave-one-out across logs. `avgBsld[l][t]` is triple t's AvgBsld on log l (every entry finite);
 * `selectable[t]` (default: every triple) says which triples may be chosen. For each log L: the
 * candidate with the least Σ_{L' ≠ L} AvgBsld (ties to the earlier triple), with its AvgBsld and
 * rank among the candidates on L. With one log there is no held-out log and no selection; with two
 * each log's choice rests on the one other log.
 */
export function leaveOneOut(avgBsld: readonly (readonly number[])[], selectable?: readonly boolean[]): LooResult {
  const logs = avgBsld.length
  const triples = logs > 0 ? avgBsld[0].length : 0
  for (const row of avgBsld) {
    if (row.length !== triples) throw new Error('leave-one-out needs the same triples on every log')
    for (const v of row) if (!Number.isFinite(v)) throw new Error('leave-one-out needs a finite AvgBsld for every (log, triple)')
  }
  if (selectable && selectable.length !== triples) throw new Error('leave-one-out: one selectable flag per triple')
  const cand: number[] = []
  for (let t = 0; t < triples; t++) if (!selectable || selectable[t]) cand.push(t)
  if (logs >= 2 && cand.length === 0) throw new Error('leave-one-out needs at least one triple it may choose')
  if (logs < 2) {
    return { folds: [], candidates: cand.length, notes: [`${logs === 1 ? 'One log' : 'No log'}: leave-one-out needs at least two logs (a triple is chosen on the others and judged on the one left out), so no triple is selected. The best triple on this log is its best in hindsight, which says nothing about another log or period.`, MULTIPLE_TESTING_NOTE] }
  }
  const folds: LooFold[] = []
  for (let l = 0; l < logs; l++) {
    const row = avgBsld[l]
    let chosen = cand[0], best = Infinity, hind = cand[0]
    for (const t of cand) {
      // The sum over the other logs, added up without the held-out log (no cancellation error).
      let s = 0
      for (let k = 0; k < logs; k++) if (k !== l) s += avgBsld[k][t]
      if (s < best) { best = s; chosen = t }
      if (row[t] < row[hind]) hind = t
    }
    let rank = 1
    for (const t of cand) if (row[t] < row[chosen]) rank++
    folds.push({ log: l, chosen, otherLogsSum: best, heldOutAvgBsld: row[chosen], heldOutRank: rank, hindsightBest: hind, hindsightAvgBsld: row[hind] })
  }
  const notes = logs === 2
    ? ['Two logs: each log\'s triple is chosen on the one other log alone, so a choice reflects that log\'s particulars as much as any general merit; three or more logs make the choice less dependent on one site.', MULTIPLE_TESTING_NOTE]
    : [MULTIPLE_TESTING_NOTE]
  return { folds, candidates: cand.length, notes }
}

/**
 * Pearson correlation, between every two logs, of the candidates' AvgBsld (the thesis's §4.4 check
 * that a triple good on one log is good on another): r[a][b] over the triples with `selectable`
 * (default every triple); null when either log's values do not vary.
 */
export function logCorrelations(avgBsld: readonly (readonly number[])[], selectable?: readonly boolean[]): (number | null)[][] {
  const cols = (avgBsld[0] ?? []).map((_, t) => t).filter((t) => !selectable || selectable[t])
  const pearson = (x: readonly number[], y: readonly number[]): number | null => {
    const n = cols.length
    if (n < 2) return null
    let mx = 0, my = 0
    for (const t of cols) { mx += x[t]; my += y[t] }
    mx /= n; my /= n
    let sxy = 0, sxx = 0, syy = 0
    for (const t of cols) { const dx = x[t] - mx, dy = y[t] - my; sxy += dx * dy; sxx += dx * dx; syy += dy * dy }
    return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : null
  }
  return avgBsld.map((a) => avgBsld.map((b) => pearson(a, b)))
}
