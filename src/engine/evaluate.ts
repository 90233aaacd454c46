// The evaluation protocol end to end (issue #3): read the log, split it, run every cell of the
// campaign on the engine (workers + cache), select within the risk limit, calibrate against the
// recorded waits, and build the versioned result document. Used by the CLI, and later by the
// desktop app and the browser mode.
import { DEFAULTS } from '../core/defaults'
import { simulate } from '../core/sim/easy'
import { calibrate } from '../core/tune/calibrate'
import { campaignCells, cellKey, BASELINE, type CampaignSpec, type CellResult, type CellSpec } from '../core/tune/campaign'
import { dataProblem, prepare } from '../core/tune/prepare'
import { buildResult, withImpact, type EvaluationResult } from '../core/tune/result'
import { recommendationImpact } from '../core/tune/impact'
import { summarize, type VerdictOptions } from '../core/tune/select'
import type { ImportOptions, Workload } from '../core/workload/import'
import { readLogs } from '../node/read-log'
import type { WorkloadSetup } from './protocol'

export const GENERATOR = 'easytune 0.1.0'

export interface EvaluateRequest {
  logPath: string
  /** Several files read as one log (see WorkloadSetup.logPaths). */
  logPaths?: string[]
  importOptions: ImportOptions
  spec: CampaignSpec
  /** The verdict's settings (risk limit, criterion, confidence, minimum gain and weeks). */
  verdict: VerdictOptions
}

/** Runs cells somewhere (the worker pool, or in this process) and returns results by cellKey. */
export type CellRunner = (setup: WorkloadSetup, cells: CellSpec[]) => Promise<Map<string, CellResult>>

export interface Evaluation {
  result: EvaluationResult
  workload: Workload
}

export async function evaluate(req: EvaluateRequest, runCells: CellRunner, sha256: string, workload?: Workload): Promise<Evaluation> {
  const w = workload ?? (await readLogs(req.logPaths ?? [req.logPath], req.importOptions))
  if (w.jobs.count === 0) throw new EvaluationError(`${w.name}: no job is left after cleaning, nothing to evaluate. ${w.report.warnings.join(' ')}`)
  const spec = req.spec
  const compat = spec.compat ?? DEFAULTS.compat.value
  // Enough data, decided up front and independent of --weeks (docs/STATISTICS.md §Enough data).
  const problem = dataProblem(w.jobs, w.machineProcs, spec.split)
  if (problem) throw new InsufficientDataError(problem)
  const prepared = prepare(w.jobs, w.machineProcs, spec.split, spec.resample, compat)
  const cells = campaignCells(spec)
  const setup: WorkloadSetup = { logPath: req.logPath, ...(req.logPaths ? { logPaths: req.logPaths } : {}), importOptions: req.importOptions, split: spec.split, resample: spec.resample, tau: spec.tau, ...(compat === 'none' ? {} : { compat }) }
  const running = runCells(setup, cells)
  // While the workers start and compute, this process does its own share: the calibration run.
  const calibration = calibrate(w.jobs, simulate(w.jobs, w.machineProcs, { primary: 'FCFS', backfill: 'same', threshold: null }, { compat }))
  const results = await running
  const data = {
    train: { weeks: prepared.trainReal.originalWeeks, jobs: prepared.split.trainStats.jobs },
    test: { weeks: prepared.testReal.originalWeeks, jobs: prepared.split.testStats.jobs },
  }
  const selection = summarize(spec, results, req.verdict, spec.resample.seed, data)
  const result = buildResult({
    generator: GENERATOR, sha256, report: w.report, machineProcs: w.machineProcs, unixStartTime: w.unixStartTime,
    spec, selection, results,
    cellKeyOf: (c, part) => cellKey({ part, candidate: c.baseline ? BASELINE : c.candidate, threshold: c.baseline ? null : c.threshold }),
    split: { at: prepared.split.at, train: prepared.split.trainStats, test: prepared.split.testStats },
    weeks: { trainOriginal: prepared.train.originalWeeks, testOriginal: prepared.test.originalWeeks, train: prepared.train.count, test: prepared.test.count },
    calibration, cells: cells.length, maxRequestedSeconds: maxRequested(w.jobs.requested, w.jobs.count),
  })
  // Who gains, who loses (docs/IMPACT.md): two simulations of each part's real weeks; none without
  // a recommendation. The sentence then names the groups beyond the risk ratio.
  const recommended = selection.recommended === null ? null : selection.candidates[selection.recommended]
  const impact = recommendationImpact(prepared.split, w.machineProcs, recommended, w, req.verdict.risk.maxWaitRatio, compat === 'none' ? {} : { compat })
  return { result: withImpact(result, impact), workload: w }
}

/** The longest requested time among the jobs, seconds (export sizes bf_window from it); null if none. */
function maxRequested(requested: Float64Array, count: number): number | null {
  let m = -Infinity
  for (let i = 0; i < count; i++) if (requested[i] > m) m = requested[i]
  return Number.isFinite(m) && m > 0 ? m : null
}

/** The command ran but cannot give an answer (exit code 1). */
export class EvaluationError extends Error {}

/** The log is too short for the protocol, found before running anything (exit code 2). */
export class InsufficientDataError extends EvaluationError {}
