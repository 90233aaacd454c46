// Online-selection emulations and mixed-policy searches started from the app's Results step, and
// the Time limits step's what-if and predicted-order fidelity (EasyTuneApi.startAnalysis): the work
// of `easytune online` / `easytune mixed` / the what-if of `easytune walltimes` / the replays of
// `easytune export --predicted-order`, run on the engine
// pool like a campaign (Electron: utility processes; browser mode: child processes), in parallel
// over their traces or weight vectors (src/engine/analyses.ts), so the back end's thread and the
// window stay responsive. The workers read the log themselves; the result is the CLI's --json
// document. 'learn' (the Candidates step's "Learn a policy for this site") runs the trials of
// `easytune learn` on the pool (src/engine/learn.ts; finished tuples cached as the CLI's) and then
// the regression over ℱ on the pool too, in slices of ℱ (never on the back end's thread). AnalysisEvents under the analysis's id: 'progress' (at most ~5 a second), then exactly
// one of 'done', 'error' or 'cancelled'. cancel(id) ends the session: every worker it started is
// stopped before 'cancelled' is emitted.
import { randomBytes } from 'node:crypto'
import { DEFAULT_TAU } from '../core/sim/metrics'
import { DAY, DEFAULT_ONLINE, type OnlineSpec } from '../core/tune/online'
import { DEFAULTS } from '../core/defaults'
import { WEEK } from '../core/tune/resample'
import type { MixedOptions } from '../core/tune/mixed'
import { prepare } from '../core/tune/prepare'
import { mixedJson, onlineJson } from '../core/tune/reports'
import type { ImportOptions, Workload } from '../core/workload/import'
import { machineOnPool, mixedOnPool, onlineOnPool, predictedOrderOnPool, walltimesOnPool } from '../engine/analyses'
import { LearnCache, learnRegressionOnPool, learnTrialsOnPool } from '../engine/learn'
import { FAMILY } from '../core/learn/family'
import { learnJson } from '../core/learn/report'
import type { TrialsConfig } from '../core/learn/types'
import { EnginePool, type ForkWorker } from '../engine/pool'
import type { WorkloadSetup } from '../engine/protocol'
import type { AnalysisEvent, AnalysisRequest, LearnProgressDetail } from '../shared/api'
import { ApiInputError } from '../shared/errors'
import { errorMessage } from './campaigns'
import { machineInputsOf } from './machine'

/** Progress events at most this often (the first, at 0, is always sent). */
const PROGRESS_EVERY_MS = 200

/** What an analysis runs: an online emulation's spec, a mixed search's options, or the Time
 * limits what-if (nothing to choose: its scenarios are core's WHATIF_SCENARIOS). */
export type AnalysisOptions =
  | { kind: 'online'; spec: OnlineSpec }
  | { kind: 'mixed'; options: MixedOptions }
  | { kind: 'walltimes' }
  | { kind: 'predicted-order'; threshold: number | null; historyDays: number }
  | { kind: 'learn'; config: TrialsConfig }
  | { kind: 'machine' }

/** Share of a learn analysis's progress bar given to the trials (the regression has the rest). */
const LEARN_TRIALS_SHARE = 0.9

export interface AnalysisRunnerOptions {
  fork?: ForkWorker
  workerPath?: string
  /** Engine workers (default: cores − 1). */
  workers?: number
  /** Where finished learning tuples are kept (the CLI's cache, src/engine/learn.ts); null or absent: none. */
  cacheDir?: string | null
  emit: (e: AnalysisEvent) => void
}

export interface AnalysisWorkload {
  /** The imported workload: the document names it, and a mixed search's train/test parts are
   * described from it. The workers read `path` themselves. */
  workload: Workload
  path: string
  /** A log kept as several files: all of them (path is the first); absent for one file. */
  paths?: string[]
  importOptions: ImportOptions
  /** sha256 of the log's files (the import's): the learning cache's key. */
  sha256?: string
}

/** The worker setup and analysis of a request: the CLI's defaults for everything the app does not
 * ask (the thesis's 12 policies, Θ = 40 h, ε = 0.1, λ = 1, user-weeks; mixed: no threshold). */
export function analysisPlan(req: AnalysisRequest, w: Omit<AnalysisWorkload, 'workload'>): { setup: WorkloadSetup; analysis: AnalysisOptions } {
  if (req.kind === 'predicted-order') {
    return {
      setup: { logPath: w.path, ...(w.paths ? { logPaths: w.paths } : {}), importOptions: w.importOptions, split: { kind: 'midpoint' }, resample: { method: 'none', weeks: 1, seed: DEFAULTS.seed.value }, tau: DEFAULT_TAU, prepare: false },
      analysis: { kind: 'predicted-order', threshold: req.options.threshold, historyDays: req.options.historyDays },
    }
  }
  if (req.kind === 'learn') {
    // As `easytune learn`: the defaults' shape and early stop, the app's budget and seed, the wizard's split.
    const config: TrialsConfig = { ...DEFAULTS.learnTrials.value, trials: req.options.trials, tuples: req.options.tuples, seed: req.options.seed }
    return {
      setup: { logPath: w.path, ...(w.paths ? { logPaths: w.paths } : {}), importOptions: w.importOptions, split: req.split, resample: { method: DEFAULTS.resample.value, weeks: 1, seed: config.seed }, tau: config.tau, prepare: false },
      analysis: { kind: 'learn', config },
    }
  }
  if (req.kind === 'machine') {
    // The whole log on the chosen machine, as `easytune evaluate` with the matching flags builds it.
    const machine = machineInputsOf(req.options)
    return {
      setup: { logPath: w.path, ...(w.paths ? { logPaths: w.paths } : {}), importOptions: w.importOptions, split: { kind: 'midpoint' }, resample: { method: 'none', weeks: 1, seed: DEFAULTS.seed.value }, tau: DEFAULT_TAU, prepare: false, ...(machine ? { machine } : {}) },
      analysis: { kind: 'machine' },
    }
  }
  if (req.kind === 'walltimes') {
    return {
      setup: { logPath: w.path, ...(w.paths ? { logPaths: w.paths } : {}), importOptions: w.importOptions, split: { kind: 'midpoint' }, resample: { method: 'none', weeks: 1, seed: DEFAULTS.seed.value }, tau: DEFAULT_TAU, prepare: false },
      analysis: { kind: 'walltimes' },
    }
  }
  if (req.kind === 'online') {
    const o = req.options
    const spec: OnlineSpec = {
      ...DEFAULT_ONLINE, policies: [...DEFAULT_ONLINE.policies], noise: [...DEFAULT_ONLINE.noise],
      strategies: [...o.strategies], period: o.period === 'day' ? DAY : WEEK, weeks: o.weeks, traces: o.traces, seed: o.seed,
      compat: o.compat ?? DEFAULTS.compat.value,
    }
    return {
      setup: { logPath: w.path, ...(w.paths ? { logPaths: w.paths } : {}), importOptions: w.importOptions, split: { kind: 'midpoint' }, resample: { method: spec.method, weeks: 1, seed: spec.seed }, tau: DEFAULT_TAU, prepare: false },
      analysis: { kind: 'online', spec },
    }
  }
  const o = req.options
  const compat = o.compat ?? DEFAULTS.compat.value
  const options: MixedOptions = { features: o.features, method: o.method, budget: o.budget, objective: o.objective, threshold: null, tau: DEFAULT_TAU, seed: o.seed, compat }
  return {
    setup: { logPath: w.path, ...(w.paths ? { logPaths: w.paths } : {}), importOptions: w.importOptions, split: req.split, resample: { method: 'user-weeks', weeks: o.weeks, seed: o.seed }, tau: DEFAULT_TAU, ...(compat === 'none' ? {} : { compat }) },
    analysis: { kind: 'mixed', options },
  }
}

export class AnalysisRunner {
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void> }>()

  constructor(private readonly opts: AnalysisRunnerOptions) {}

  get active(): number {
    return this.running.size
  }

  /** Starts the analysis on the engine pool and returns its id; one at a time (it takes the
   * machine's cores for minutes). */
  start(req: AnalysisRequest, w: AnalysisWorkload): string {
    if (this.running.size > 0) throw new ApiInputError('an analysis (online selection, mixed policy, time-limits what-if, predicted-order fidelity, learning a policy or a machine\'s fidelity) is already running: wait for it or cancel it first')
    const analysisId = `a${randomBytes(9).toString('base64url')}`
    const abort = new AbortController()
    const done = this.run(analysisId, req, w, abort.signal)
    this.running.set(analysisId, { abort, done })
    return analysisId
  }

  /** Cancels a running analysis ('cancelled' follows once its workers are gone); false for an
   * unknown id. */
  cancel(id: string): boolean {
    const r = this.running.get(id)
    r?.abort.abort()
    return r !== undefined
  }

  /** Cancels every analysis and waits until their workers have exited. */
  async close(): Promise<void> {
    for (const r of this.running.values()) r.abort.abort()
    await Promise.all([...this.running.values()].map((r) => r.done))
  }

  /** The trials on the pool (cached tuples read, the others computed), then the regression on the
   * pool: the document of `easytune learn --json` for the workload. */
  private async learn(pool: EnginePool, setup: WorkloadSetup, config: TrialsConfig, w: AnalysisWorkload, signal: AbortSignal,
    progress: (fraction: number, learn: LearnProgressDetail, force?: boolean) => void): Promise<unknown> {
    const cache = this.opts.cacheDir ? new LearnCache(this.opts.cacheDir) : undefined
    const total = FAMILY.length
    let detail: LearnProgressDetail = { phase: 'trials', tuplesDone: 0, tuplesTotal: config.tuples, cachedTuples: 0, trials: 0, trialsPerSecond: null, etaSeconds: null, functionsDone: 0, functionsTotal: total }
    const run = await learnTrialsOnPool(pool, { setup, ...(w.sha256 ? { workloadHash: w.sha256 } : {}) }, config, {
      signal, cache,
      onProgress: (p) => {
        detail = { ...detail, tuplesDone: p.tuplesDone, cachedTuples: p.cachedTuples, trials: p.trials, trialsPerSecond: p.trialsPerSecond, etaSeconds: p.etaSeconds }
        progress(LEARN_TRIALS_SHARE * p.fraction, detail)
      },
    })
    detail = { ...detail, phase: 'regression', etaSeconds: 0 }
    progress(LEARN_TRIALS_SHARE, detail, true)
    const regression = await learnRegressionOnPool(pool, run.result.samples, {
      signal,
      onProgress: (fitted) => {
        detail = { ...detail, functionsDone: fitted }
        progress(LEARN_TRIALS_SHARE + (1 - LEARN_TRIALS_SHARE) * (fitted / total), detail)
      },
    })
    return learnJson(w.workload.name, config, run.result, regression)
  }

  private async run(analysisId: string, req: AnalysisRequest, w: AnalysisWorkload, signal: AbortSignal): Promise<void> {
    const emit = (e: DistributiveOmit<AnalysisEvent, 'analysisId'>) => {
      // Over before its last event: a listener may start the next analysis at once.
      if (e.kind !== 'progress') this.running.delete(analysisId)
      try { this.opts.emit({ analysisId, ...e } as AnalysisEvent) } catch { /* a failing listener must not stop the run */ }
    }
    const kind = req.kind
    let last = -Infinity
    const progress = (fraction: number, learn?: LearnProgressDetail, force = false) => {
      const now = Date.now()
      if (!force && now - last < PROGRESS_EVERY_MS) return
      last = now
      emit({ kind: 'progress', analysis: kind, fraction: Math.max(0, Math.min(1, fraction)), ...(learn ? { learn } : {}) })
    }
    try {
      // Give the caller (and its socket) a moment to subscribe before the first event.
      await new Promise((r) => setImmediate(r))
      signal.throwIfAborted()
      const { setup, analysis } = analysisPlan(req, w)
      progress(0)
      const pool = new EnginePool({ workers: this.opts.workers, workerPath: this.opts.workerPath, fork: this.opts.fork })
      let doc: unknown
      if (analysis.kind === 'learn') {
        doc = await this.learn(pool, setup, analysis.config, w, signal, progress)
      } else if (analysis.kind === 'machine') {
        doc = await machineOnPool(pool, setup, { signal, onProgress: progress })
      } else if (analysis.kind === 'walltimes') {
        doc = await walltimesOnPool(pool, setup, w.workload.jobs, w.workload.machineProcs, { signal, onProgress: progress })
      } else if (analysis.kind === 'predicted-order') {
        doc = await predictedOrderOnPool(pool, setup, w.workload.jobs, w.workload.machineProcs, analysis, { signal, onProgress: progress })
      } else if (analysis.kind === 'online') {
        const result = await onlineOnPool(pool, setup, analysis.spec, { signal, onProgress: progress })
        doc = onlineJson(w.workload, analysis.spec, result)
      } else {
        const p = prepare(w.workload.jobs, w.workload.machineProcs, setup.split, setup.resample, setup.compat)
        const t0 = performance.now()
        // The search is the bulk of the work; evaluating the best, the baseline and the vertices the rest.
        const report = await mixedOnPool(pool, setup, analysis.options, {
          signal, onProgress: (phase, done, total) => progress(phase === 'search' ? 0.9 * (done / total) : 0.9 + 0.1 * (done / total)),
        })
        doc = mixedJson(w.workload, p, analysis.options, setup.split, setup.resample, report, (performance.now() - t0) / 1000)
      }
      // Through JSON, so it is byte for byte what the CLI prints: no NaN or typed array survives.
      emit({ kind: 'done', analysis: kind, result: JSON.parse(JSON.stringify(doc)) as unknown })
    } catch (e) {
      if (signal.aborted) emit({ kind: 'cancelled' })
      else emit({ kind: 'error', message: errorMessage(e) })
    }
  }
}

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never
