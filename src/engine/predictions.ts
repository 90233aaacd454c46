// The runtime-prediction campaign (docs/PREDICTIONS.md §Campaign) on the engine pool, for the CLI
// (`easytune predictions`): one unit per (log, triple), the logs one after another, each in a
// session whose workers read that log once. Finished units are kept in an on-disk cache (one small
// JSON file per (log, triple, options)), so a re-run or an interrupted campaign only computes what
// is missing. Units are pure and merged by index, so the result is the same bit for bit whatever
// the number of workers; leave-one-out runs afterwards on the merged table (src/core/predict/campaign.ts).
import { findTriple, type PredictionCampaignOptions, type TripleMetrics } from '../core/predict/campaign'
import { DEFAULT_CACHE_DIR, hashFile } from './cache'
import type { CrashInfo } from './lifecycle'
import type { EnginePool } from './pool'
import type { WorkloadSetup, WorkUnit } from './protocol'
import { runUnitsStoring, UnitCache, unitCacheScope, type UnitCacheScope } from './unit-cache'

/** Bump when what a unit computes changes in a way the engine hash would not show. */
export const PREDICTION_CACHE_VERSION = 1

const METRIC_FIELDS = ['jobs', 'avgBsld', 'maxBsld', 'avgWait', 'extremeShare', 'extremeJobs', 'extremeBound', 'mae', 'meanELoss', 'underShare', 'corrections'] as const satisfies readonly (keyof TripleMetrics)[]

/** What every unit of one log has in common, for its cache keys. */
export type PredictionCacheScope = UnitCacheScope

/** One JSON file per (log, triple, options), named by a sha256 key over everything that determines it. */
export class PredictionCache extends UnitCache<TripleMetrics> {
  constructor(dir: string = DEFAULT_CACHE_DIR) {
    super(dir, '.pred.json')
  }

  key(scope: PredictionCacheScope, triple: string, options: PredictionCampaignOptions): string {
    return this.hashKey(scope, { kind: 'prediction-triple', v: PREDICTION_CACHE_VERSION, triple, options })
  }

  protected decode(text: string, key: string): TripleMetrics | null {
    return decodePredictionEntry(text, key)
  }

  protected encode(key: string, r: TripleMetrics): string {
    const result = Object.fromEntries(METRIC_FIELDS.map((f) => [f, r[f]]))
    return JSON.stringify({ v: PREDICTION_CACHE_VERSION, key, result })
  }
}

/** The metrics of an entry's text when it is a complete entry of this version recorded under `key`. */
export function decodePredictionEntry(text: string, key: string): TripleMetrics | null {
  try {
    const e = JSON.parse(text) as { v?: unknown; key?: unknown; result?: Record<string, unknown> }
    if (e.v !== PREDICTION_CACHE_VERSION || e.key !== key || typeof e.result !== 'object' || e.result === null) return null
    for (const f of METRIC_FIELDS) if (typeof e.result[f] !== 'number' || Number.isNaN(e.result[f])) return null
    return Object.fromEntries(METRIC_FIELDS.map((f) => [f, e.result![f]])) as unknown as TripleMetrics
  } catch {
    return null
  }
}

export interface PredictionLogInput {
  /** The workers' view of the log (read only: `prepare: false` is set here). */
  setup: WorkloadSetup
  /** Jobs kept after cleaning (weights the progress: a unit costs about its log's jobs). */
  jobs: number
  /** sha256 of the log's files when the caller has it (computed otherwise, only with a cache). */
  workloadHash?: string
}

export interface PredictionCampaignProgress {
  unitsDone: number
  unitsTotal: number
  cachedUnits: number
  /** Share of the work done (units weighted by their log's jobs), 0..1. */
  fraction: number
  /** Seconds left from this run's computing rate; null until there is one. */
  etaSeconds: number | null
  /** The log being computed (index into the logs). */
  log: number
}

export interface PredictionRunOptions {
  signal?: AbortSignal
  cache?: PredictionCache
  onProgress?: (p: PredictionCampaignProgress) => void
  onWorkerCrash?: (info: CrashInfo) => void
  /** Non-fatal problems (a cache entry that could not be written). */
  onWarning?: (message: string) => void
}

export interface PredictionCampaignRun {
  /** metrics[l][t]: triple `triples[t]` on log l. */
  metrics: TripleMetrics[][]
  cachedUnits: number
  computedUnits: number
}

/** Every (log, triple) of the campaign; cached units are read, the others computed. */
export async function predictionCampaignOnPool(pool: EnginePool, logs: readonly PredictionLogInput[], triples: readonly string[], options: PredictionCampaignOptions, opts: PredictionRunOptions = {}): Promise<PredictionCampaignRun> {
  opts.signal?.throwIfAborted()
  const total = logs.length * triples.length
  const weightTotal = logs.reduce((s, l) => s + l.jobs * triples.length, 0) || 1
  const metrics: (TripleMetrics | null)[][] = logs.map(() => triples.map(() => null))
  const engine = opts.cache ? await hashFile(pool.workerPath) : ''
  let unitsDone = 0, cachedUnits = 0, weightDone = 0, computedWeight = 0, computeStart = 0
  const partial = new Map<string, number>()
  const report = (log: number) => {
    if (!opts.onProgress) return
    let part = 0
    for (const v of partial.values()) part += v
    const done = weightDone + part
    const elapsed = computeStart > 0 ? (performance.now() - computeStart) / 1000 : 0
    const rate = computedWeight + part > 0 && elapsed > 0 ? (computedWeight + part) / elapsed : 0
    opts.onProgress({ unitsDone, unitsTotal: total, cachedUnits, fraction: Math.min(1, done / weightTotal), etaSeconds: unitsDone === total ? 0 : rate > 0 ? (weightTotal - done) / rate : null, log })
  }
  for (let l = 0; l < logs.length; l++) {
    const log = logs[l]
    const setup: WorkloadSetup = { ...log.setup, prepare: false }
    let scope: PredictionCacheScope | null = null
    if (opts.cache) {
      scope = await unitCacheScope(setup, engine, log.workloadHash, opts.signal)
      for (let t = 0; t < triples.length; t++) {
        const r = await opts.cache.get(opts.cache.key(scope, triples[t], options))
        if (r && r.jobs === log.jobs) { metrics[l][t] = r; unitsDone++; cachedUnits++; weightDone += log.jobs }
      }
    }
    report(l)
    opts.signal?.throwIfAborted()
    // The learned triples (the costliest) first, so the last units of a log, which leave workers
    // idle while they finish, are cheap ones. Only the order of work: results go by index.
    const costly = (t: number) => (findTriple(triples[t])?.learned ? 0 : 1)
    const todo = triples.map((_, t) => t).filter((t) => metrics[l][t] === null).sort((x, y) => costly(x) - costly(y) || x - y)
    if (todo.length === 0) continue
    if (computeStart === 0) computeStart = performance.now()
    const units: WorkUnit[] = todo.map((t) => ({ kind: 'prediction-triple', triple: triples[t], options }))
    const { cache } = opts
    await runUnitsStoring(pool, { setup, signal: opts.signal, cancelledMessage: 'the prediction campaign was cancelled; finished triples are kept in the cache', onWorkerCrash: opts.onWorkerCrash }, units, {
      onProgress: (i, m) => { if (m.type === 'progress') { partial.set(`${l}:${i}`, log.jobs * (m.samplesDone / Math.max(1, m.samples))); report(l) } },
      onDone: (i, r) => {
        const t = todo[i]
        const result = r as TripleMetrics
        metrics[l][t] = result
        partial.delete(`${l}:${i}`)
        unitsDone++; weightDone += log.jobs; computedWeight += log.jobs
        report(l)
        return cache && scope ? cache.put(cache.key(scope, triples[t], options), result) : undefined
      },
      onWriteError: (i, e) => opts.onWarning?.(`could not write the cache entry of ${triples[todo[i]]} in ${cache!.dir}: ${e.message}`),
    })
  }
  return { metrics: metrics as TripleMetrics[][], cachedUnits, computedUnits: total - cachedUnits }
}
