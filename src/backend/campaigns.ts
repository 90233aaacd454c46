// Campaigns of the desktop app and browser mode: the CLI's evaluation protocol (engine/evaluate)
// run on the engine pool, with its events turned into CampaignEvents for a listener set:
// progress (throttled), one 'cell' event per finished cell, warnings (worker crashes, cache
// problems), then exactly one of done / error / cancelled.
import { randomBytes } from 'node:crypto'
import { cellKey, type Candidate, type CampaignSpec, type CellResult, type CellSpec } from '../core/tune/campaign'
import { presetCandidates } from '../core/tune/presets'
import type { ImportOptions, Workload } from '../core/workload/import'
import { DEFAULTS } from '../core/defaults'
import { defaultVerdictOptions, type VerdictOptions } from '../core/tune/select'
import { CellCache } from '../engine/cache'
import { evaluate, EvaluationError, type EvaluateRequest } from '../engine/evaluate'
import { machineInputsOf } from './machine'
import { EnginePool, cellLabel, type ForkWorker } from '../engine/pool'
import { FileInputError } from '../node/read-log'
import type { CampaignEvent, CampaignRequest } from '../shared/api'
import { ApiInputError } from '../shared/errors'

/** Progress events at most this often (the last one of a run is always sent). */
const PROGRESS_EVERY_MS = 150

export type CampaignListener = (e: CampaignEvent) => void

export interface CampaignWorkload {
  workload: Workload
  path: string
  /** A log kept as several files: all of them (path is the first); absent for one file. */
  paths?: string[]
  sha256: string
  importOptions: ImportOptions
}

export interface CampaignRunnerOptions {
  /** Starts a worker (Electron: utilityProcess; browser mode: child process). */
  fork?: ForkWorker
  workerPath?: string
  /** Where finished cells are kept; null = no cache. */
  cacheDir: string | null
  emit: CampaignListener
}

export function campaignSpec(req: CampaignRequest): CampaignSpec {
  const candidates: Candidate[] = 'preset' in req.candidates
    ? presetCandidates(req.candidates.preset, req.thresholds)
    : req.candidates.list.map((c) => ({ primary: c.primary, backfill: c.backfill }))
  return { candidates, ...('preset' in req.candidates ? { preset: req.candidates.preset } : {}), thresholds: req.thresholds, split: req.split, resample: req.resample, objective: req.objective, tau: req.tau, compat: req.compat ?? DEFAULTS.compat.value }
}

/** What `easytune evaluate` is given for the campaign `req` on the workload: the log, the spec,
 * the verdict's settings and the machine (the Cluster panel's choice, as its flags give it). */
export function evaluateRequest(req: CampaignRequest, w: Pick<CampaignWorkload, 'path' | 'paths' | 'importOptions'>): EvaluateRequest {
  const machine = machineInputsOf(req.machine)
  return { logPath: w.path, ...(w.paths ? { logPaths: w.paths } : {}), importOptions: w.importOptions, spec: campaignSpec(req), verdict: verdictOptions(req), ...(machine ? { machine } : {}) }
}

/** The verdict's settings of a request (defaults filled in by the schema). */
export function verdictOptions(req: CampaignRequest): VerdictOptions {
  return { ...defaultVerdictOptions({ maxWaitRatio: req.maxWaitRatio }), minGain: req.minGain, confidence: req.confidence, minWeeks: req.minWeeks, criterion: req.criterion }
}

export class CampaignRunner {
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void> }>()

  constructor(private readonly opts: CampaignRunnerOptions) {}

  get active(): number {
    return this.running.size
  }

  /** Starts a campaign; its events follow. One campaign at a time (the machine's cores are shared). */
  start(req: CampaignRequest, w: CampaignWorkload): string {
    if (this.running.size > 0) throw new ApiInputError('a campaign is already running: wait for it or cancel it first')
    const campaignId = `c${randomBytes(9).toString('base64url')}`
    const abort = new AbortController()
    const done = this.run(campaignId, req, w, abort.signal).finally(() => this.running.delete(campaignId))
    this.running.set(campaignId, { abort, done })
    return campaignId
  }

  /** Cancels a running campaign (finished cells stay in the cache); unknown ids are ignored. */
  cancel(campaignId: string): void {
    this.running.get(campaignId)?.abort.abort()
  }

  /** Cancels everything and waits until every worker has stopped. */
  async close(): Promise<void> {
    for (const r of this.running.values()) r.abort.abort()
    await Promise.all([...this.running.values()].map((r) => r.done))
  }

  private async run(campaignId: string, req: CampaignRequest, w: CampaignWorkload, signal: AbortSignal): Promise<void> {
    const emit = (e: DistributiveOmit<CampaignEvent, 'campaignId'>) => {
      try { this.opts.emit({ campaignId, ...e } as CampaignEvent) } catch { /* a failing listener must not stop the run */ }
    }
    const objective = req.objective
    // Every cell gets one 'cell' event: computed ones when their worker is done, cached ones
    // when the pool returns (just before 'done').
    const reported = new Set<string>()
    const onCell = (cell: CellSpec, r: CellResult) => {
      // The real-week cells serve the verdict's statistics; the live table shows the resampled ones.
      if (cell.samples === 'real' || reported.has(cellKey(cell))) return
      reported.add(cellKey(cell))
      emit({ kind: 'cell', label: cellLabel(cell).replace(/ \((train|test)\)$/, ''), part: cell.part, meanObjective: mean(objective === 'avgWait' ? r.avgWait : r.avgBsld) })
    }
    let lastProgress = 0
    let lastCells = -1
    // The campaign's last progress event: repeated with a phase while evaluate waits after the cells.
    let lastCampaign: Omit<Extract<CampaignEvent, { kind: 'progress' }>, 'campaignId'> | null = null
    try {
      // Give the caller (and its socket) a moment to subscribe before the first event.
      await new Promise((r) => setImmediate(r))
      const pool = new EnginePool({ workers: req.workers ?? undefined, workerPath: this.opts.workerPath, fork: this.opts.fork })
      const cache = this.opts.cacheDir ? new CellCache(this.opts.cacheDir) : undefined
      const { result } = await evaluate(
        evaluateRequest(req, w),
        async (setup, cells, phase = 'campaign') => {
          // The campaign's run is shown live. The search of the site's Slurm settings before it
          // (a few small runs) shows its progress only; the recommendation as deployed (a few
          // cells, last) runs without cell or progress events.
          const campaignRun = phase === 'campaign'
          const searchRun = phase === 'search'
          lastCells = -1
          const results = await pool.run(setup, cells, {
            signal, cache, workloadHash: w.sha256, ...(campaignRun ? { onCell } : {}),
            onProgress: (p) => {
              if (!campaignRun && !searchRun) return
              const now = Date.now()
              const final = p.cellsDone === p.cellsTotal
              if (!final && p.cellsDone === lastCells && now - lastProgress < PROGRESS_EVERY_MS) return
              lastProgress = now
              lastCells = p.cellsDone
              const event = {
                kind: 'progress' as const, cellsDone: p.cellsDone, cellsTotal: p.cellsTotal, cachedCells: p.cachedCells, samplesDone: p.samplesDone, samplesTotal: p.samplesTotal,
                etaSeconds: p.etaSeconds, perWorker: p.perWorker.map((x) => ({ worker: x.worker, pid: x.pid ?? null, state: x.state, cell: x.cell })),
                ...(searchRun ? { phase: 'search' as const } : {}),
              }
              if (campaignRun) lastCampaign = event
              emit(event)
            },
            onWorkerCrash: (c) => emit({ kind: 'warning', message: c.message }),
            onWarning: (m) => emit({ kind: 'warning', message: m }),
          })
          if (campaignRun) for (const c of cells) { const r = results.get(cellKey(c)); if (r) onCell(c, r) }
          return results
        },
        w.sha256, w.workload, pool.side({ signal, onWorkerCrash: (c) => emit({ kind: 'warning', message: c.message }) }),
        (stage) => { if (lastCampaign) emit({ ...lastCampaign, etaSeconds: null, perWorker: lastCampaign.perWorker.map((x) => ({ ...x, state: 'idle', cell: null })), phase: stage }) })
      emit({ kind: 'done', result })
    } catch (e) {
      if (signal.aborted) emit({ kind: 'cancelled' })
      else emit({ kind: 'error', message: errorMessage(e) })
    }
  }
}

function mean(values: Float64Array): number {
  let sum = 0
  for (const v of values) sum += v
  return values.length ? sum / values.length : 0
}

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never

export function errorMessage(e: unknown): string {
  if (e instanceof FileInputError) return `${e.file}${e.line !== null ? `:${e.line}` : ''}: ${e.message}`
  if (e instanceof EvaluationError || e instanceof ApiInputError) return e.message
  return e instanceof Error ? e.message : String(e)
}
