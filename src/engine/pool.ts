// The engine pool: fans a campaign's cells out over N worker processes (default: cores − 1, at
// least 1), streams progress, cancels through an AbortSignal, restarts crashed workers and keeps
// every finished cell (in the returned map and in the optional on-disk cache).
//
// Each run forks its own workers and stops them when it ends: a worker is set up for one
// workload (it reads the log and builds the week samples once), so there is nothing to share
// between runs, and a run can never leave a process behind. Cells are pure, so the results are
// the same whatever N is and whichever worker ran which cell; they are keyed by cellKey.
// The pool itself is runtime-neutral: `fork` defaults to child_process.fork, and Electron main
// passes a utilityProcess-based one (see WorkerHandle).
import { fork as forkChild } from 'node:child_process'
import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { packageRoot } from '../node/package-root'
import { cellKey, type CellResult, type CellSpec } from '../core/tune/campaign'
import { FileInputError } from '../node/read-log'
import { CellCache, hashFile, type CacheScope } from './cache'
import type { FromWorker, ToWorker, WorkloadSetup } from './protocol'
import { Run } from './pool-run'

export { cellLabel, MAX_CRASHES } from './pool-run'

/**
 * A started worker process, whichever API started it. Electron main can wrap utilityProcess:
 *   (p) => { const c = utilityProcess.fork(p); return { get pid() { return c.pid }, send: (m) => c.postMessage(m),
 *     onMessage: (cb) => { c.on('message', cb) }, onExit: (cb) => { c.once('exit', (code) => cb(code, null)) }, kill: () => { c.kill() } } }
 */
export interface WorkerHandle {
  readonly pid: number | undefined
  send(msg: ToWorker): void
  onMessage(cb: (msg: FromWorker) => void): void
  /** Called once when the process is gone (code, or the signal that killed it). */
  onExit(cb: (code: number | null, signal: string | null) => void): void
  kill(): void
}
/** Starts one worker; `info.worker` is the pool's number for it (1..workers; a replacement after a
 * crash gets the number of the worker it replaces). The desktop app uses it to name the worker's
 * progress port (src/main/worker-ports.ts); other forks may ignore it. */
export type ForkWorker = (workerPath: string, info?: { worker: number }) => WorkerHandle

export type WorkerState = 'starting' | 'setup' | 'idle' | 'busy' | 'stopping'

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

export interface CrashInfo {
  worker: number
  pid: number | undefined
  code: number | null
  signal: string | null
  /** Label of the cell it was running, if any. */
  cell: string | null
  message: string
}

export interface RunOptions {
  onProgress?: (p: EngineProgress) => void
  onWorkerCrash?: (info: CrashInfo) => void
  /** Non-fatal problems (a cache entry that could not be written). */
  onWarning?: (message: string) => void
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

export function defaultWorkerCount(): number {
  return Math.max(1, availableParallelism() - 1)
}

/** Starts the worker as a Node child process with structured-clone messages. */
export function forkNode(workerPath: string, opts: { env?: NodeJS.ProcessEnv; execArgv?: string[] } = {}): WorkerHandle {
  const child = forkChild(workerPath, [], { serialization: 'advanced', env: opts.env, execArgv: opts.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  child.on('error', () => {}) // a failed send to a dying worker: its exit is what we report
  return {
    get pid() { return child.pid },
    send: (msg) => { if (child.connected) child.send(msg, () => {}) },
    onMessage: (cb) => { child.on('message', (m) => cb(m as FromWorker)) },
    onExit: (cb) => { child.once('close', (code, signal) => cb(code, signal)) },
    kill: () => { child.kill() },
  }
}

/**
 * out/engine/worker.js of the easytune package that contains `from` (default: this module, which
 * is src/engine/pool.ts under Vitest and out/cli/easytune.js once bundled), found by walking up to
 * the package.json named "easytune"; the working directory is tried next. Electron main passes
 * its own path instead.
 */
export function defaultWorkerPath(from: string = import.meta.url): string {
  const start = from.startsWith('file:') ? dirname(fileURLToPath(from)) : from
  const root = packageRoot(start)
  return root ? join(root, 'out', 'engine', 'worker.js') : join(start, '..', 'engine', 'worker.js')
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

  /** Runs every cell (duplicates once) and returns the results keyed by cellKey, in cell order. */
  async run(setup: WorkloadSetup, cells: CellSpec[], opts: RunOptions = {}): Promise<Map<string, CellResult>> {
    opts.signal?.throwIfAborted()
    if (!existsSync(this.workerPath)) {
      throw new Error(`the engine worker is not built: ${this.workerPath} is missing (run npm run build:cli)`)
    }
    const unique = new Map<string, CellSpec>()
    for (const c of cells) if (!unique.has(cellKey(c))) unique.set(cellKey(c), c)
    const cached = new Map<string, CellResult>()
    let scope: CacheScope | null = null
    if (opts.cache) {
      scope = { workloadHash: opts.workloadHash ?? (await hashLog(setup.logPath)), engine: await hashFile(this.workerPath), setup }
      for (const [key, cell] of unique) {
        const r = await opts.cache.get(opts.cache.key(scope, cell))
        if (r) cached.set(key, r)
      }
    }
    opts.signal?.throwIfAborted()
    const run = new Run({ setup, cells: unique, cached, scope, opts, workers: this.workers, spawn: (worker) => this.fork(this.workerPath, { worker }) })
    const results = await run.execute()
    return new Map([...unique.keys()].map((k) => [k, results.get(k)!]))
  }
}

async function hashLog(path: string): Promise<string> {
  try {
    return await hashFile(path)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    throw new FileInputError(path, null, code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder, not a log file' : code === 'EACCES' ? 'permission denied' : `cannot read: ${(e as Error).message}`)
  }
}
