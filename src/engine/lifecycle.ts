// The one lifecycle of the engine's worker processes, for every kind of background work (a
// campaign's cells, the traces of an online-selection emulation, the weight vectors of a mixed
// search, an import): start, 'ready', the workload 'setup', handing out units, progress, cancel,
// crash and retry, stop. The engine pool (pool.ts), the analyses (analyses.ts) and the back end's
// imports all go through a WorkerSession.
//
// A session belongs to one workload: its workers read the log and build the week samples once
// ('setup'), then take units until the session is closed, so a caller can hand over several
// batches in turn (a mixed search: one XNES generation after another) without paying the setup
// again. Units are pure, so the results are the same whatever the number of workers and whichever
// worker ran which unit; run() returns them in the order of the units.
//
// What always holds:
//   - a worker that dies is reported in words (onWorkerCrash) and the unit it was running re-runs
//     on a fresh worker; a unit that kills MAX_CRASHES workers, or MAX_CRASHES workers in a row
//     dying before they are set up, ends the session with an error;
//   - the AbortSignal, an error of a unit or close() end the session; a failed run() settles only
//     once every worker has exited, and close() waits for them: no process is ever left behind;
//   - runtime neutrality: `fork` starts a worker however the runtime does it (Node child process
//     here, Electron utility process in main: src/main/engine-fork.ts).
import { fork as forkChild } from 'node:child_process'
import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { InputError } from '../core/workload/errors'
import { packageRoot } from '../node/package-root'
import { FileInputError } from '../node/read-log'
import { unitLabel, unitName } from './label'
import { trace, tracing } from './trace'
import { needsSetup, type FromWorker, type ToWorker, type UnitResult, type WorkloadSetup, type WorkUnit } from './protocol'
import { isTableColumn, type ColumnArray, type TableColumn } from '../core/workload/builder'
import type { ImportedLog } from './import'

/** A unit that stops its worker this many times ends the session. */
export const MAX_CRASHES = 3
/** Grace period for a worker to exit after 'exit' before it is killed. */
export const EXIT_GRACE_MS = 2000

/**
 * A started worker process, whichever API started it. Electron main wraps utilityProcess
 * (src/main/engine-fork.ts).
 */
export interface WorkerHandle {
  readonly pid: number | undefined
  send(msg: ToWorker): void
  onMessage(cb: (msg: FromWorker) => void): void
  /** Called once when the process is gone (code, or the signal that killed it). */
  onExit(cb: (code: number | null, signal: string | null) => void): void
  kill(): void
}
/** Starts one worker; `info.worker` is the session's number for it (1..workers; a replacement after
 * a crash gets the number of the worker it replaces). The desktop app uses it to name the worker's
 * progress port (src/main/worker-ports.ts); other forks may ignore it. */
export type ForkWorker = (workerPath: string, info?: { worker: number }) => WorkerHandle

export type WorkerState = 'starting' | 'setup' | 'idle' | 'busy' | 'stopping'

export interface CrashInfo {
  worker: number
  pid: number | undefined
  code: number | null
  signal: string | null
  /** Label of the unit it was running (a cell's "EASY-SPF Θ=20 h (train)"), if any. */
  cell: string | null
  message: string
}

/** One worker as a progress display shows it. */
export interface WorkerInfo {
  worker: number
  pid: number | undefined
  state: WorkerState
  unit: WorkUnit | null
  /** The last 'progress' of its unit (samples of a cell, simulations of a trace). */
  samplesDone: number
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
 * is src/engine/lifecycle.ts under Vitest and out/cli/easytune.js once bundled), found by walking
 * up to the package.json named "easytune"; the working directory is tried next. Electron main
 * passes its own path instead.
 */
export function defaultWorkerPath(from: string = import.meta.url): string {
  const start = from.startsWith('file:') ? dirname(fileURLToPath(from)) : from
  const root = packageRoot(start)
  return root ? join(root, 'out', 'engine', 'worker.js') : join(start, '..', 'engine', 'worker.js')
}

export interface SessionOptions {
  /** Worker processes at most (default: defaultWorkerCount()); fewer while there are fewer units. */
  workers?: number
  /** The bundled worker entry (default: defaultWorkerPath()). */
  workerPath?: string
  fork?: ForkWorker
  /** The workload every worker reads first; null for units that need none (imports). */
  setup: WorkloadSetup | null
  signal?: AbortSignal
  /** The AbortError's message when `signal` ends the session. */
  cancelledMessage?: string
  onWorkerCrash?: (info: CrashInfo) => void
  /** Something a progress display shows changed (a worker started, took, progressed or finished). */
  onChange?: () => void
}

type ProgressMessage = Extract<FromWorker, { type: 'progress' | 'import-progress' }>

export interface BatchOptions<U extends WorkUnit> {
  /** Unit `index` of the batch finished (in whatever order the workers finish). */
  onDone?: (index: number, result: UnitResult<U>, unit: U) => void
  onProgress?: (index: number, message: ProgressMessage) => void
}

interface Job { id: number; index: number; unit: WorkUnit; crashes: number }
interface Slot {
  worker: number
  handle: WorkerHandle
  pid: number | undefined
  state: WorkerState
  job: Job | null
  samplesDone: number
  /** The job-table columns an import's worker sent ahead of its 'done' (protocol.ts 'column'). */
  columns: Map<TableColumn, ColumnArray>
  exited: Promise<void>
}
interface Batch {
  results: unknown[]
  remaining: number
  opts: BatchOptions<WorkUnit>
  resolve: (r: unknown[]) => void
  reject: (e: Error) => void
}

/** What is wrong with a 'column' message for the running job, or null: it must belong to an
 * import, name a job-table column and carry an array (the message is the worker's: hostile). */
function columnProblem(kind: WorkUnit['kind'], m: Extract<FromWorker, { type: 'column' }>): string | null {
  if (kind !== 'import') return `for a ${kind} job`
  if (!isTableColumn(String(m.name))) return `naming ${JSON.stringify(String(m.name)).slice(0, 40)}, not a job-table column`
  if (!ArrayBuffer.isView(m.values)) return `whose ${m.name} is not an array`
  return null
}

export class WorkerSession {
  readonly maxWorkers: number
  readonly workerPath: string
  /** Train and test week samples of the setup, once a worker has read it. */
  weeks: { train: number; test: number; trainReal?: number; testReal?: number } | null = null
  private readonly fork: ForkWorker
  private readonly slots: Slot[] = []
  private readonly queue: Job[] = []
  private batch: Batch | null = null
  private nextId = 0
  private setupCrashes = 0
  /** Why the session ended early (an error, a cancel); set once. */
  private ended: Error | null = null
  private closing: Promise<void> | null = null
  private readonly onAbort = () => this.fail(new DOMException(this.opts.cancelledMessage ?? 'the work was cancelled', 'AbortError'))

  /** Throws when the signal is already aborted (no worker is started) or the worker is not built. */
  constructor(private readonly opts: SessionOptions) {
    opts.signal?.throwIfAborted()
    const n = opts.workers ?? defaultWorkerCount()
    if (!(Number.isInteger(n) && n >= 1)) throw new Error(`the number of engine workers must be a whole number of at least 1, got ${n}`)
    this.maxWorkers = n
    this.workerPath = opts.workerPath ?? defaultWorkerPath()
    if (!existsSync(this.workerPath)) throw new Error(`the engine worker is not built: ${this.workerPath} is missing (run npm run build:cli)`)
    this.fork = opts.fork ?? ((p) => forkNode(p))
    opts.signal?.addEventListener('abort', this.onAbort, { once: true })
  }

  /** The workers alive now, for progress displays. */
  get workers(): WorkerInfo[] {
    return this.slots.map((s) => ({ worker: s.worker, pid: s.pid, state: s.state, unit: s.job?.unit ?? null, samplesDone: s.job ? s.samplesDone : 0 }))
  }

  /** Runs every unit on the session's workers (starting them as needed) and returns the results in
   * the order of `units`. One batch at a time. Rejects (once every worker has exited) when the
   * session ends early: a unit's error, MAX_CRASHES crashes, the signal. */
  run<U extends WorkUnit>(units: readonly U[], opts: BatchOptions<U> = {}): Promise<UnitResult<U>[]> {
    if (this.ended) return Promise.reject(this.ended)
    if (this.closing) return Promise.reject(new Error('this engine session is closed'))
    if (this.batch) return Promise.reject(new Error('an engine session runs one batch at a time'))
    if (units.length === 0) return Promise.resolve([])
    if (units.some(needsSetup) && !this.opts.setup) return Promise.reject(new Error('these units need a workload setup'))
    return new Promise<UnitResult<U>[]>((resolve, reject) => {
      this.batch = { results: new Array<unknown>(units.length), remaining: units.length, opts: opts as BatchOptions<WorkUnit>, resolve: resolve as (r: unknown[]) => void, reject }
      units.forEach((unit, index) => this.queue.push({ id: this.nextId++, index, unit, crashes: 0 }))
      this.guard(() => {
        this.dispatch()
        this.startWorkers()
        this.changed()
      })
    })
  }

  /** Stops every worker ('exit', then a kill after EXIT_GRACE_MS) and waits until they are gone.
   * Closing during a batch cancels it. */
  close(): Promise<void> {
    if (this.closing) return this.closing
    if (this.batch) {
      this.fail(new DOMException(this.opts.cancelledMessage ?? 'the work was cancelled', 'AbortError'))
      return this.closing!
    }
    this.opts.signal?.removeEventListener('abort', this.onAbort)
    const slots = [...this.slots]
    for (const s of slots) {
      if (s.state === 'stopping') continue
      s.state = 'stopping'
      s.handle.send({ type: 'exit' })
      const t = setTimeout(() => s.handle.kill(), EXIT_GRACE_MS)
      void s.exited.then(() => clearTimeout(t))
    }
    this.closing = Promise.all(slots.map((s) => s.exited)).then(() => {})
    return this.closing
  }

  /** Starts workers until every waiting unit has one (idle workers have taken theirs already;
   * workers still starting or reading the log will take one each), up to maxWorkers. A crashed
   * worker's replacement keeps its number. */
  private startWorkers(replacing?: number): void {
    const coming = this.slots.filter((s) => s.state === 'starting' || s.state === 'setup').length
    let spawn = Math.min(this.maxWorkers - this.slots.length, this.queue.length - coming)
    const used = new Set(this.slots.map((s) => s.worker))
    if (spawn > 0 && replacing !== undefined && !used.has(replacing)) { this.startWorker(replacing); used.add(replacing); spawn-- }
    for (let w = 1; spawn > 0 && w <= this.maxWorkers; w++) {
      if (used.has(w)) continue
      this.startWorker(w)
      used.add(w)
      spawn--
    }
  }

  private startWorker(worker: number): void {
    trace(`forking worker ${worker}`)
    const handle = this.fork(this.workerPath, { worker })
    let exited!: () => void
    const slot: Slot = { worker, handle, pid: handle.pid, state: 'starting', job: null, samplesDone: 0, columns: new Map(), exited: new Promise((r) => { exited = r }) }
    this.slots.push(slot)
    // An exception here (a throwing callback, a malformed message) ends the session, never the process.
    handle.onMessage((m) => { if (!this.ended && slot.state !== 'stopping') this.guard(() => this.onMessage(slot, m)) })
    handle.onExit((code, signal) => { exited(); this.guard(() => this.onExit(slot, code, signal)) })
  }

  private onMessage(slot: Slot, m: FromWorker): void {
    if (tracing && m.type !== 'progress' && m.type !== 'import-progress') trace(`worker ${slot.worker}: ${m.type}${m.type === 'done' ? ` ${m.id}` : ''}`)
    switch (m.type) {
      case 'ready':
        // A utility process has no pid until it has spawned (Electron): it has by now.
        slot.pid ??= slot.handle.pid
        if (this.opts.setup) {
          slot.state = 'setup'
          slot.handle.send({ type: 'setup', setup: this.opts.setup })
        } else {
          slot.state = 'idle'
          this.dispatch()
        }
        break
      case 'setup-done':
        this.setupCrashes = 0
        this.weeks ??= { train: m.trainWeeks, test: m.testWeeks, trainReal: m.trainRealWeeks, testReal: m.testRealWeeks }
        slot.state = 'idle'
        this.dispatch()
        break
      case 'progress':
      case 'import-progress':
        if (slot.job?.id !== m.id) return
        if (m.type === 'progress') slot.samplesDone = m.samplesDone
        this.batch?.opts.onProgress?.(slot.job.index, m)
        break
      case 'column': {
        if (slot.job?.id !== m.id) return // for an earlier job: stale, dropped
        const wrong = columnProblem(slot.job.unit.kind, m)
        if (wrong !== null) return this.fail(new Error(`engine worker ${slot.worker} broke the protocol: a 'column' message ${wrong}`))
        slot.columns.set(m.name, m.values)
        return
      }
      case 'done': {
        const job = slot.job
        const batch = this.batch
        if (!job || job.id !== m.id || !batch) return
        slot.job = null
        slot.state = 'idle'
        slot.samplesDone = 0
        const result = slot.columns.size > 0 ? withColumns(m.result as ImportedLog, slot.columns) : m.result
        slot.columns = new Map()
        batch.results[job.index] = result
        batch.opts.onDone?.(job.index, result, job.unit)
        if (--batch.remaining === 0) {
          this.batch = null
          batch.resolve(batch.results)
        }
        this.dispatch()
        break
      }
      case 'error': return this.fail(this.workerError(slot, m))
    }
    this.changed()
  }

  private guard(f: () => void): void {
    try { f() } catch (e) { this.fail(e instanceof Error ? e : new Error(String(e))) }
  }

  private changed(): void {
    if (!this.ended) this.opts.onChange?.()
  }

  private workerError(slot: Slot, m: Extract<FromWorker, { type: 'error' }>): Error {
    const job = slot.job && slot.job.id === m.id ? slot.job : null
    if (m.input) {
      const file = m.file ?? (this.opts.setup && (!job || needsSetup(job.unit)) ? this.opts.setup.logPath : undefined)
      return file !== undefined ? new FileInputError(file, m.line ?? null, m.message) : new InputError(m.message, m.line ?? null)
    }
    // An import's message is the user's to read as is (its file is in it); a unit of a workload is named.
    return new Error(job && needsSetup(job.unit) ? `${unitName(job.unit)} failed: ${m.message}` : m.message)
  }

  private dispatch(): void {
    if (this.ended || this.closing) return
    for (const slot of this.slots) {
      if (slot.state !== 'idle' || this.queue.length === 0) continue
      const job = this.queue.shift()!
      slot.job = job
      slot.state = 'busy'
      slot.samplesDone = 0
      slot.columns = new Map()
      slot.handle.send({ type: 'run', id: job.id, unit: job.unit })
    }
  }

  private onExit(slot: Slot, code: number | null, signal: string | null): void {
    const i = this.slots.indexOf(slot)
    if (i < 0) return
    this.slots.splice(i, 1)
    if (this.ended || this.closing || slot.state === 'stopping') return
    const how = signal ? `signal ${signal}` : `exit code ${code}`
    const name = `engine worker ${slot.worker} (pid ${slot.pid ?? '?'})`
    const job = slot.job
    if (job) {
      job.crashes++
      if (job.crashes >= MAX_CRASHES) {
        return this.fail(new Error(`${unitName(job.unit)} stopped its engine worker ${job.crashes} times (last: ${name}, ${how}); giving up`))
      }
      this.queue.unshift(job)
    } else if (slot.state === 'starting' || slot.state === 'setup') {
      if (++this.setupCrashes >= MAX_CRASHES) {
        return this.fail(new Error(`engine workers stopped ${this.setupCrashes} times while starting${this.opts.setup ? ' or reading the log' : ''} (last: ${name}, ${how}); giving up`))
      }
    }
    this.dispatch()
    const replace = this.queue.length > 0
    if (replace) this.startWorkers(slot.worker)
    const what = job ? `its ${unitName(job.unit)} was restarted${replace ? ' on a fresh worker' : ' on another worker'}` : replace ? 'a fresh worker was started' : 'no work was lost'
    this.opts.onWorkerCrash?.({ worker: slot.worker, pid: slot.pid, code, signal, cell: job ? unitLabel(job.unit) : null, message: `${name} stopped unexpectedly (${how}); ${what}` })
    this.changed()
  }

  /** Ends the session: kills every worker, then (once they have exited) rejects the running batch. */
  private fail(error: Error): void {
    if (this.ended) return
    this.ended = error
    this.opts.signal?.removeEventListener('abort', this.onAbort)
    const slots = [...this.slots]
    for (const s of slots) {
      s.state = 'stopping'
      s.handle.kill()
    }
    this.queue.length = 0
    const batch = this.batch
    this.batch = null
    this.closing ??= Promise.all(slots.map((s) => s.exited)).then(() => {})
    void this.closing.then(() => batch?.reject(error))
  }
}

/** An import's result with the job-table columns its worker sent ahead put back into its table. */
function withColumns(r: ImportedLog, columns: ReadonlyMap<TableColumn, ColumnArray>): ImportedLog {
  return { ...r, workload: { ...r.workload, jobs: { ...r.workload.jobs, ...Object.fromEntries(columns) } } }
}
