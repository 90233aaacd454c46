// The engine pool: runs work over N worker processes (default: cores − 1, at least 1) through the
// one worker lifecycle (lifecycle.ts). Campaigns use run(): their cells, with progress in cells and
// week samples, crash recovery and cancel from the session, and every finished cell kept (in the
// returned map and in the optional on-disk cache). The analyses (analyses.ts) open a session() of
// their own and hand it their units in batches.
//
// Each run starts its own workers and stops them when it ends: a worker is set up for one workload
// (it reads the log and builds the week samples once), so there is nothing to share between runs,
// and a run can never leave a process behind. Cells are pure, so the results are the same whatever
// N is and whichever worker ran which cell; they are keyed by cellKey.
import { existsSync } from 'node:fs'
import { cellKey, type CellResult, type CellSpec } from '../core/tune/campaign'
import { CellCache, hashFile, type CacheScope } from './cache'
import { cellLabel } from './label'
import { hashLogFiles } from './log-hash'
import { defaultWorkerCount, defaultWorkerPath, forkNode, WorkerSession, type CrashInfo, type ForkWorker, type SessionOptions, type WorkerState } from './lifecycle'
import type { SideRunnerFactory } from './evaluate'
import type { WorkloadSetup } from './protocol'
import { trace } from './trace'

export { cellLabel } from './label'
export { hashLogFiles } from './log-hash'
export { defaultWorkerCount, defaultWorkerPath, forkNode, MAX_CRASHES, WorkerSession } from './lifecycle'
export type { CrashInfo, ForkWorker, WorkerHandle, WorkerState } from './lifecycle'

export interface EngineProgress {
  /** Cells finished, cached ones included. */
  cellsDone: number
  cellsTotal: number
  /** Cells taken from the cache in this run (not computed). */
  cachedCells: number
  /** Week samples done (cached cells count in full); samplesTotal is 0 until a worker is set up. */
  samplesDone: number
  samplesTotal: number
  /** Estimated seconds left, from this run's computing rate; null until there is a rate. */
  etaSeconds: number | null
  perWorker: { worker: number; pid: number | undefined; state: WorkerState; cell: string | null }[]
}

export interface RunOptions {
  onProgress?: (p: EngineProgress) => void
  onWorkerCrash?: (info: CrashInfo) => void
  /** Non-fatal problems (a cache entry that could not be written). */
  onWarning?: (message: string) => void
  /** A computed cell is done (cached cells are not reported here). */
  onCell?: (cell: CellSpec, result: CellResult) => void
  signal?: AbortSignal
  cache?: CellCache
  /** sha256 of the log (hashFile) when the caller already has it; computed otherwise. */
  workloadHash?: string
}

export interface EnginePoolOptions {
  /** Worker processes (default: defaultWorkerCount()). */
  workers?: number
  /** The bundled worker entry (default: defaultWorkerPath()). */
  workerPath?: string
  fork?: ForkWorker
}

export class EnginePool {
  readonly workers: number
  readonly workerPath: string
  private readonly fork: ForkWorker

  constructor(opts: EnginePoolOptions = {}) {
    const n = opts.workers ?? defaultWorkerCount()
    if (!(Number.isInteger(n) && n >= 1)) throw new Error(`the number of engine workers must be a whole number of at least 1, got ${n}`)
    this.workers = n
    this.workerPath = opts.workerPath ?? defaultWorkerPath()
    this.fork = opts.fork ?? ((p) => forkNode(p))
  }

  /** A session on this pool's workers, or on fewer (`workers`; the caller closes it). */
  session(opts: Omit<SessionOptions, 'workers' | 'workerPath' | 'fork'> & { workers?: number }): WorkerSession {
    return new WorkerSession({ ...opts, workers: Math.min(this.workers, opts.workers ?? this.workers), workerPath: this.workerPath, fork: this.fork })
  }

  /** evaluate()'s whole-log work (the baseline's fidelity, the impact) on one worker of its own,
   * one unit at a time; the campaign's cells keep the pool's workers. */
  side(opts: Pick<SessionOptions, 'signal' | 'onWorkerCrash'> = {}): SideRunnerFactory {
    return (setup) => {
      const session = this.session({ ...opts, setup, workers: 1, cancelledMessage: 'the evaluation was cancelled' })
      return {
        run: async (unit) => (await session.run([unit]))[0],
        close: () => session.close(),
      }
    }
  }

  /** Runs every cell (duplicates once) and returns the results keyed by cellKey, in cell order. */
  async run(setup: WorkloadSetup, cells: CellSpec[], opts: RunOptions = {}): Promise<Map<string, CellResult>> {
    opts.signal?.throwIfAborted()
    trace(`pool run: ${cells.length} cells on ${this.workers} workers`)
    if (!existsSync(this.workerPath)) throw new Error(`the engine worker is not built: ${this.workerPath} is missing (run npm run build:cli)`)
    const unique = new Map<string, CellSpec>()
    for (const c of cells) if (!unique.has(cellKey(c))) unique.set(cellKey(c), c)
    const results = new Map<string, CellResult>()
    let scope: CacheScope | null = null
    if (opts.cache) {
      scope = { workloadHash: opts.workloadHash ?? (await hashLogFiles(setup.logPaths ?? [setup.logPath])), engine: await hashFile(this.workerPath), setup }
      const refusedBefore = opts.cache.rejected.length
      // Read CACHE_READS entries at a time: one after the other, 772 missing entries kept the
      // workers from starting for 0.2 s of CPU and 0.8 s of wall time on a busy machine
      // (docs/PERFORMANCE.md §The pool at full speed). Kept in cell order whatever order they arrive in.
      const { cache } = opts
      const keyed = [...unique].map(([key, cell]) => { const cacheKey = cache.key(scope!, cell); return { key, cacheKey, path: cache.path(cacheKey) } })
      const found = await mapLimited(keyed, CACHE_READS, (k) => cache.get(k.cacheKey))
      keyed.forEach((k, i) => { const r = found[i]; if (r) results.set(k.key, r) })
      const order = new Map(keyed.map((k, i) => [k.path, i]))
      const refused = opts.cache.rejected.slice(refusedBefore).sort((a, b) => (order.get(a.path) ?? 0) - (order.get(b.path) ?? 0))
      const dir = opts.cache.dir
      const entries = (k: number) => `${k} cache entr${k === 1 ? 'y' : 'ies'} in ${dir}`
      const foreign = refused.filter((r) => r.reason === 'foreign').length
      if (foreign > 0) opts.onWarning?.(`${entries(foreign)} held another cell's result (files renamed or copied over each other) and will be recomputed`)
      if (refused.length > foreign) opts.onWarning?.(`${entries(refused.length - foreign)} ${refused.length - foreign === 1 ? 'is' : 'are'} not a regular file (a FIFO, socket or device) and will be recomputed: ${refused.find((r) => r.reason === 'not-a-file')!.path}`)
    }
    trace(`pool run: ${results.size} cells from the cache`)
    opts.signal?.throwIfAborted()
    const progress = new CampaignProgress(unique, results)
    const todo = [...unique].filter(([k]) => !results.has(k)).map(([, cell]) => cell)
    const writes: Promise<void>[] = []
    if (todo.length > 0) {
      const session: WorkerSession = this.session({
        setup, signal: opts.signal, cancelledMessage: 'the campaign was cancelled; finished cells are kept',
        onWorkerCrash: opts.onWorkerCrash,
        onChange: () => { if (opts.onProgress) opts.onProgress(progress.snapshot(session, false)) },
      })
      try {
        await session.run(todo.map((cell) => ({ kind: 'cell' as const, cell })), {
          onDone: (i, r) => {
            const cell = todo[i]
            results.set(cellKey(cell), r)
            progress.computed(cell, r)
            opts.onCell?.(cell, r)
            const { cache } = opts
            if (cache && scope) {
              writes.push(cache.put(cache.key(scope, cell), r).catch((e: unknown) => {
                opts.onWarning?.(`could not write the cache entry of ${cellLabel(cell)} in ${cache.dir}: ${(e as Error).message}`)
              }))
            }
          },
        })
      } finally {
        trace('pool run: cells done, closing')
        await session.close()
        await Promise.all(writes)
        trace('pool run: closed')
      }
      opts.onProgress?.(progress.snapshot(session, true))
    } else {
      opts.onProgress?.(progress.snapshot(null, true))
    }
    return new Map([...unique.keys()].map((k) => [k, results.get(k)!]))
  }
}

/** Cache entries read at once before a run. */
const CACHE_READS = 32

/** f over every item, at most `limit` at a time; the results in the items' order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, f: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length)
  let next = 0
  const lane = async () => { while (next < items.length) { const i = next++; out[i] = await f(items[i]) } }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane))
  return out
}

/** A campaign's progress in cells and week samples, and its ETA from this run's computing rate.
 * Kept as running sums, so a snapshot costs the same whatever the number of cells: the parent
 * takes one at every message of a worker (about ten per cell), and a scan of every cell each time
 * grew with the square of the cells (docs/PERFORMANCE.md §The pool at full speed). */
class CampaignProgress {
  readonly cachedCells: number
  private computedSamples = 0
  private computeStart = 0
  /** Week samples of the cells with a result (cached or computed). */
  private samplesOfResults = 0
  /** Week samples of the cells still to compute, from the week counts of the setup once a worker has read it. */
  private toCompute: { samples: number; weeks: WeekCounts } | null = null

  constructor(private readonly cells: Map<string, CellSpec>, private readonly results: Map<string, CellResult>) {
    this.cachedCells = results.size
    for (const r of results.values()) this.samplesOfResults += r.jobs.length
  }

  /** A computed cell's result, just added to the results. */
  computed(cell: CellSpec, r: CellResult): void {
    this.computedSamples += r.jobs.length
    this.samplesOfResults += r.jobs.length
    if (this.toCompute) this.toCompute.samples -= cellWeeks(cell, this.toCompute.weeks)
  }

  snapshot(session: WorkerSession | null, finished: boolean): EngineProgress {
    const weeks = session?.weeks ?? null
    if (weeks && this.computeStart === 0) this.computeStart = Date.now()
    if (weeks && !this.toCompute) {
      let samples = 0
      for (const [key, cell] of this.cells) if (!this.results.has(key)) samples += cellWeeks(cell, weeks)
      this.toCompute = { samples, weeks }
    }
    let samplesTotal = this.samplesOfResults + (weeks && this.toCompute ? this.toCompute.samples : 0)
    let samplesDone = this.samplesOfResults
    const workers = finished ? [] : session?.workers ?? []
    const partial = workers.reduce((a, w) => a + w.samplesDone, 0)
    samplesDone += partial
    // Before any worker has read the log, only an all-cached run knows its total.
    if (!weeks && this.results.size < this.cells.size) samplesTotal = 0
    const elapsed = (Date.now() - this.computeStart) / 1000
    const computed = this.computedSamples + partial
    const etaSeconds = finished && this.results.size === this.cells.size ? 0
      : weeks && computed > 0 && elapsed > 0 ? Math.max(0, samplesTotal - samplesDone) * elapsed / computed : null
    return {
      cellsDone: this.results.size, cellsTotal: this.cells.size, cachedCells: this.cachedCells, samplesDone, samplesTotal, etaSeconds,
      perWorker: workers.map((w) => ({ worker: w.worker, pid: w.pid, state: w.state, cell: w.unit?.kind === 'cell' ? cellLabel(w.unit.cell) : null })),
    }
  }
}

type WeekCounts = NonNullable<WorkerSession['weeks']>

/** Week samples a cell runs on, from the setup's week counts. */
function cellWeeks(cell: CellSpec, weeks: WeekCounts): number {
  return cell.samples === 'real' ? weeks[cell.part === 'train' ? 'trainReal' : 'testReal'] ?? weeks[cell.part] : weeks[cell.part]
}
