// One campaign run of the engine pool (see pool.ts): worker slots, the cell queue, progress,
// crash recovery, cancel and shutdown. Every way a run ends goes through finish(), which stops
// every worker and waits for their exit and for pending cache writes before settling.
import type { CellResult, CellSpec } from '../core/tune/campaign'
import { FileInputError } from '../node/read-log'
import type { CacheScope } from './cache'
import { cellLabel } from './label'
import type { FromWorker, WorkloadSetup } from './protocol'
import type { RunOptions, WorkerHandle, WorkerState } from './pool'

/** A cell that crashes its worker this many times ends the run. */
export const MAX_CRASHES = 3
/** Grace period for a worker to exit after 'exit' before it is killed. */
const EXIT_GRACE_MS = 2000

export { cellLabel }

interface Job { id: number; key: string; cell: CellSpec; crashes: number }
interface Slot {
  worker: number
  handle: WorkerHandle
  pid: number | undefined
  state: WorkerState
  job: Job | null
  samplesDone: number
  exited: Promise<void>
}

export interface RunInput {
  setup: WorkloadSetup
  cells: Map<string, CellSpec>
  cached: Map<string, CellResult>
  scope: CacheScope | null
  opts: RunOptions
  workers: number
  /** Starts a worker process for the pool's worker number `worker` (1..workers). */
  spawn: (worker: number) => WorkerHandle
}

export class Run {
  private readonly results: Map<string, CellResult>
  private readonly queue: Job[] = []
  private readonly slots: Slot[] = []
  private readonly writes: Promise<void>[] = []
  private weeks: { train: number; test: number } | null = null
  private setupCrashes = 0
  private computeStart = 0
  private computedSamples = 0
  private finished = false
  private settle!: { resolve: (r: Map<string, CellResult>) => void; reject: (e: Error) => void }

  constructor(private readonly input: RunInput) {
    this.results = new Map(input.cached)
    let id = 0
    for (const [key, cell] of input.cells) if (!this.results.has(key)) this.queue.push({ id: id++, key, cell, crashes: 0 })
  }

  execute(): Promise<Map<string, CellResult>> {
    const done = new Promise<Map<string, CellResult>>((resolve, reject) => { this.settle = { resolve, reject } })
    const { signal } = this.input.opts
    const onAbort = () => this.finish(new DOMException('the campaign was cancelled; finished cells are kept', 'AbortError'))
    signal?.addEventListener('abort', onAbort, { once: true })
    this.guard(() => {
      if (this.queue.length === 0) this.finish(null)
      else for (let w = 1; w <= Math.min(this.input.workers, this.queue.length); w++) this.startWorker(w)
      this.emit()
    })
    return done.finally(() => signal?.removeEventListener('abort', onAbort))
  }

  private startWorker(worker: number): void {
    const handle = this.input.spawn(worker)
    let exited!: () => void
    const slot: Slot = { worker, handle, pid: handle.pid, state: 'starting', job: null, samplesDone: 0, exited: new Promise((r) => { exited = r }) }
    this.slots.push(slot)
    // An exception here (a throwing callback, a malformed message) ends the run, never the process.
    handle.onMessage((m) => { if (!this.finished) this.guard(() => this.onMessage(slot, m)) })
    handle.onExit((code, signal) => { exited(); this.guard(() => this.onExit(slot, code, signal)) })
  }

  private onMessage(slot: Slot, m: FromWorker): void {
    switch (m.type) {
      case 'ready':
        // A utility process has no pid until it has spawned (Electron): it has by now.
        slot.pid ??= slot.handle.pid
        slot.state = 'setup'
        slot.handle.send({ type: 'setup', setup: this.input.setup })
        break
      case 'setup-done':
        this.setupCrashes = 0
        if (!this.weeks) { this.weeks = { train: m.trainWeeks, test: m.testWeeks }; this.computeStart = Date.now() }
        slot.state = 'idle'
        this.dispatch()
        break
      case 'progress':
        if (slot.job?.id === m.id) slot.samplesDone = m.samplesDone
        break
      case 'cell-done': {
        const job = slot.job
        if (!job || job.id !== m.id) return
        this.results.set(job.key, m.result)
        this.computedSamples += m.result.jobs.length
        slot.job = null
        slot.state = 'idle'
        slot.samplesDone = 0
        this.store(job, m.result)
        if (this.results.size === this.input.cells.size) { this.finish(null); return }
        this.dispatch()
        break
      }
      case 'error': return this.finish(this.workerError(slot, m))
    }
    this.emit()
  }

  private guard(f: () => void): void {
    try { f() } catch (e) { this.finish(e instanceof Error ? e : new Error(String(e))) }
  }

  private workerError(slot: Slot, m: Extract<FromWorker, { type: 'error' }>): Error {
    if (m.input) return new FileInputError(m.file ?? this.input.setup.logPath, m.line ?? null, m.message)
    const job = slot.job && slot.job.id === m.id ? slot.job : null
    return new Error(job ? `cell ${cellLabel(job.cell)} failed: ${m.message}` : m.message)
  }

  private dispatch(): void {
    if (this.finished) return
    for (const slot of this.slots) {
      if (slot.state !== 'idle' || this.queue.length === 0) continue
      const job = this.queue.shift()!
      slot.job = job
      slot.state = 'busy'
      slot.samplesDone = 0
      slot.handle.send({ type: 'cell', id: job.id, cell: job.cell })
    }
  }

  private onExit(slot: Slot, code: number | null, signal: string | null): void {
    const i = this.slots.indexOf(slot)
    if (this.finished || i < 0) return
    this.slots.splice(i, 1)
    const how = signal ? `signal ${signal}` : `exit code ${code}`
    const name = `engine worker ${slot.worker} (pid ${slot.pid ?? '?'})`
    const job = slot.job
    if (job) {
      job.crashes++
      if (job.crashes >= MAX_CRASHES) {
        return this.finish(new Error(`cell ${cellLabel(job.cell)} stopped its engine worker ${job.crashes} times (last: ${name}, ${how}); giving up`))
      }
      this.queue.unshift(job)
    } else if (slot.state === 'starting' || slot.state === 'setup') {
      if (++this.setupCrashes >= MAX_CRASHES) {
        return this.finish(new Error(`engine workers stopped ${this.setupCrashes} times while starting or reading the log (last: ${name}, ${how}); giving up`))
      }
    }
    this.dispatch()
    const replace = this.queue.length > 0
    if (replace) this.startWorker(slot.worker)
    const what = job ? `its cell ${cellLabel(job.cell)} was restarted${replace ? ' on a fresh worker' : ' on another worker'}` : replace ? 'a fresh worker was started' : 'no work was lost'
    this.input.opts.onWorkerCrash?.({ worker: slot.worker, pid: slot.pid, code, signal, cell: job ? cellLabel(job.cell) : null, message: `${name} stopped unexpectedly (${how}); ${what}` })
    this.emit()
  }

  private store(job: Job, result: CellResult): void {
    const { cache } = this.input.opts
    const scope = this.input.scope
    if (!cache || !scope) return
    this.writes.push(cache.put(cache.key(scope, job.cell), result).catch((e: unknown) => {
      this.input.opts.onWarning?.(`could not write the cache entry of ${cellLabel(job.cell)} in ${cache.dir}: ${(e as Error).message}`)
    }))
  }

  /** Ends the run: stops every worker, waits for them and for cache writes, then settles. */
  private finish(error: Error | null): void {
    if (this.finished) return
    this.finished = true
    const slots = [...this.slots]
    for (const s of slots) {
      s.state = 'stopping'
      if (error) s.handle.kill()
      else {
        s.handle.send({ type: 'exit' })
        const t = setTimeout(() => s.handle.kill(), EXIT_GRACE_MS)
        void s.exited.then(() => clearTimeout(t))
      }
    }
    void Promise.all([...slots.map((s) => s.exited), ...this.writes]).then(() => {
      this.slots.length = 0
      if (error) { this.settle.reject(error); return }
      this.guard(() => this.emit())
      this.settle.resolve(this.results)
    })
  }

  private emit(): void {
    const { onProgress } = this.input.opts
    if (!onProgress) return
    const sampleCount = (c: CellSpec) => (this.weeks ? this.weeks[c.part] : 0)
    let samplesTotal = 0, samplesDone = 0
    for (const [key, cell] of this.input.cells) {
      const r = this.results.get(key)
      samplesTotal += r ? r.jobs.length : sampleCount(cell)
      if (r) samplesDone += r.jobs.length
    }
    const partial = this.slots.reduce((a, s) => a + (s.job ? s.samplesDone : 0), 0)
    samplesDone += partial
    // Before any worker has read the log, only an all-cached run knows its total.
    if (!this.weeks && this.results.size < this.input.cells.size) samplesTotal = 0
    const elapsed = (Date.now() - this.computeStart) / 1000
    const computed = this.computedSamples + partial
    const etaSeconds = this.finished && this.results.size === this.input.cells.size ? 0
      : this.weeks && computed > 0 && elapsed > 0 ? Math.max(0, samplesTotal - samplesDone) * elapsed / computed : null
    onProgress({
      cellsDone: this.results.size, cellsTotal: this.input.cells.size, cachedCells: this.input.cached.size, samplesDone, samplesTotal, etaSeconds,
      perWorker: this.slots.map((s) => ({ worker: s.worker, pid: s.pid, state: s.state, cell: s.job ? cellLabel(s.job.cell) : null })),
    })
  }
}
