// Online-selection emulations and mixed-policy searches started from the app's Results step
// (EasyTuneApi.startAnalysis): the work of `easytune online` / `easytune mixed`, run on ONE engine
// worker forked like a campaign's (Electron: utility process; browser mode: child process), so the
// back end's thread and the window stay responsive. The worker reads the log itself ('setup'),
// then runs the 'analysis' and answers with the CLI's --json document. Events on the back end's
// stream: 'analysis-progress' (throttled by the worker), then exactly one of 'analysis-done',
// 'error' or 'cancelled'. cancel(id) kills the worker: nothing is left running.
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { DEFAULT_TAU } from '../core/sim/metrics'
import { DEFAULTS } from '../core/defaults'
import { DAY, DEFAULT_ONLINE, type OnlineSpec } from '../core/tune/online'
import { WEEK } from '../core/tune/resample'
import type { MixedOptions } from '../core/tune/mixed'
import type { ImportOptions } from '../core/workload/import'
import { defaultWorkerPath, forkNode, type ForkWorker, type WorkerHandle } from '../engine/pool'
import type { AnalysisOptions, FromWorker, WorkloadSetup } from '../engine/protocol'
import type { AnalysisEvent, AnalysisRequest } from '../shared/api'
import { ApiInputError } from '../shared/errors'

export interface AnalysisRunnerOptions {
  fork?: ForkWorker
  workerPath?: string
  emit: (e: AnalysisEvent) => void
}

export interface AnalysisWorkload {
  path: string
  importOptions: ImportOptions
}

/** The worker setup and analysis of a request: the CLI's defaults for everything the app does not
 * ask (the thesis's 12 policies, Θ = 40 h, ε = 0.1, λ = 1, user-weeks; mixed: no threshold). */
export function analysisPlan(req: AnalysisRequest, w: AnalysisWorkload): { setup: WorkloadSetup; analysis: AnalysisOptions } {
  if (req.kind === 'online') {
    const o = req.options
    const spec: OnlineSpec = {
      ...DEFAULT_ONLINE, policies: [...DEFAULT_ONLINE.policies], noise: [...DEFAULT_ONLINE.noise],
      strategies: [...o.strategies], period: o.period === 'day' ? DAY : WEEK, weeks: o.weeks, traces: o.traces, seed: o.seed,
    }
    return {
      setup: { logPath: w.path, importOptions: w.importOptions, split: { kind: 'midpoint' }, resample: { method: spec.method, weeks: 1, seed: spec.seed }, tau: DEFAULT_TAU, prepare: false },
      analysis: { kind: 'online', spec },
    }
  }
  const o = req.options
  const options: MixedOptions = { features: o.features, method: o.method, budget: o.budget, objective: o.objective, threshold: DEFAULTS.threshold.value, tau: DEFAULT_TAU, seed: o.seed }
  return {
    setup: { logPath: w.path, importOptions: w.importOptions, split: req.split, resample: { method: DEFAULTS.resample.value, weeks: o.weeks, seed: o.seed }, tau: DEFAULT_TAU },
    analysis: { kind: 'mixed', options },
  }
}

interface Running { worker: WorkerHandle; cancelled: boolean; exited: Promise<void> }

export class AnalysisRunner {
  private readonly running = new Map<string, Running>()

  constructor(private readonly opts: AnalysisRunnerOptions) {}

  get active(): number {
    return this.running.size
  }

  /** Forks the worker and starts the analysis; one at a time (it takes a core for minutes). */
  start(req: AnalysisRequest, w: AnalysisWorkload): string {
    if (this.running.size > 0) throw new ApiInputError('an online or mixed analysis is already running: wait for it or cancel it first')
    const workerPath = this.opts.workerPath ?? defaultWorkerPath()
    if (!existsSync(workerPath)) throw new Error(`the engine worker is not built: ${workerPath} is missing (run npm run build:cli)`)
    const { setup, analysis } = analysisPlan(req, w)
    const campaignId = `a${randomBytes(9).toString('base64url')}`
    const kind = req.kind
    let finished = false
    const emit = (e: AnalysisEvent) => { try { this.opts.emit(e) } catch { /* a failing listener must not stop the run */ } }
    const finish = (e: AnalysisEvent | null) => {
      if (finished) return
      finished = true
      if (e) emit(e)
      worker.kill()
    }
    const worker = (this.opts.fork ?? ((p: string) => forkNode(p)))(workerPath)
    let resolveExit!: () => void
    const r: Running = { worker, cancelled: false, exited: new Promise<void>((res) => { resolveExit = res }) }
    this.running.set(campaignId, r)
    worker.onMessage((m: FromWorker) => {
      if (finished) return
      switch (m.type) {
        case 'analysis-progress': emit({ analysisId: campaignId, kind: 'progress', analysis: kind, fraction: m.fraction }); break
        case 'analysis-done': finish({ analysisId: campaignId, kind: 'done', analysis: kind, result: m.result }); break
        case 'error': finish({ analysisId: campaignId, kind: 'error', message: m.file ? `${m.file}${m.line ? `:${m.line}` : ''}: ${m.message}` : m.message }); break
        default: break
      }
    })
    worker.onExit((code, signal) => {
      this.running.delete(campaignId)
      finish(r.cancelled ? { analysisId: campaignId, kind: 'cancelled' } : { analysisId: campaignId, kind: 'error', message: `the engine worker stopped unexpectedly (${signal ? `signal ${signal}` : `exit code ${code}`})` })
      resolveExit()
    })
    worker.send({ type: 'setup', setup })
    worker.send({ type: 'analysis', id: 1, analysis })
    return campaignId
  }

  /** Kills the analysis's worker ('cancelled' follows once it is gone); unknown ids are ignored. */
  cancel(id: string): boolean {
    const r = this.running.get(id)
    if (!r) return false
    r.cancelled = true
    r.worker.kill()
    return true
  }

  /** Kills every analysis and waits until their workers have exited. */
  async close(): Promise<void> {
    const all = [...this.running.values()]
    for (const r of all) { r.cancelled = true; r.worker.kill() }
    await Promise.all(all.map((r) => r.exited))
  }
}
