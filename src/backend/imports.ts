// Tracked imports (EasyTuneApi.importLog with an ImportTracking): the renderer names the import,
// follows its 'import-progress' events on the back end's event stream (the same listeners as the
// campaign events, the import's id in `campaignId`) and may cancel it. Each tracked import has an
// AbortController: its signal goes into readLog and hashFile, and cancel(importId) aborts it.
//
// The import itself (read, hash, whole-log simulation, Inspect data: src/engine/import.ts) runs in
// a worker process by default (importInWorker): one engine worker forked for it alone, as an
// analysis is (analysis.ts), so Electron main's event loop stays free during a large import. An
// abort kills that worker.
import { existsSync } from 'node:fs'
import { InputError } from '../core/workload/errors'
import type { ImportOptions } from '../core/workload/import'
import type { ImportedLog } from '../engine/import'
import { defaultWorkerPath, forkNode, type ForkWorker } from '../engine/pool'
import type { FromWorker } from '../engine/protocol'
import { FileInputError, type ReadProgress } from '../node/read-log'
import type { ImportEvent } from '../shared/api'
import { ApiInputError } from '../shared/errors'

/** Progress events at most this often (~5 per second; the final one is always sent). */
export const IMPORT_PROGRESS_EVERY_MS = 200

/** importLog rejects with this once its import was cancelled. It is an ApiInputError so every
 * transport shows its message as is (HTTP 400, IPC error message), not as an internal error. */
export class ImportCancelledError extends ApiInputError {
  override name = 'ImportCancelledError'
  constructor() {
    super('the import was cancelled')
  }
}

export interface TrackedImport {
  readonly signal: AbortSignal
  /** readLog's progress callback: throttled into 'import-progress' events. */
  readonly onProgress: (p: ReadProgress) => void
  /** Throws ImportCancelledError when the import was cancelled. */
  check(): void
  /** The import is over (whichever way): forget its id. */
  finish(): void
}

export class ImportTracker {
  private readonly running = new Map<string, AbortController>()

  constructor(private readonly emit: (e: ImportEvent) => void) {}

  get active(): number {
    return this.running.size
  }

  start(importId: string): TrackedImport {
    if (this.running.has(importId)) throw new ApiInputError('an import with this id is already running')
    const abort = new AbortController()
    this.running.set(importId, abort)
    let last = -Infinity
    return {
      signal: abort.signal,
      onProgress: (p) => {
        if (abort.signal.aborted) return
        const now = Date.now()
        if (p.bytesRead < p.totalBytes && now - last < IMPORT_PROGRESS_EVERY_MS) return
        last = now
        try {
          this.emit({ importId, kind: 'progress', bytesRead: p.bytesRead, totalBytes: p.totalBytes, jobsRead: p.jobsRead })
        } catch { /* a failing listener must not stop the import */ }
      },
      check: () => { if (abort.signal.aborted) throw new ImportCancelledError() },
      finish: () => { if (this.running.get(importId) === abort) this.running.delete(importId) },
    }
  }

  /** Aborts a running import; false when there is none with this id. */
  cancel(importId: string): boolean {
    const a = this.running.get(importId)
    a?.abort()
    return a !== undefined
  }

  cancelAll(): void {
    for (const a of this.running.values()) a.abort()
  }
}

export interface WorkerImportOptions {
  fork?: ForkWorker
  workerPath?: string
  onProgress?: (p: ReadProgress) => void
  /** Aborting it kills the worker; the promise then rejects with ImportCancelledError. */
  signal?: AbortSignal
}

/** Imports `path` in a freshly forked engine worker and settles once that worker has exited (it
 * is stopped as soon as it has answered): errors as importLogFile's (a FileInputError naming
 * `path`, an InputError) or an Error when the worker died. */
export function importInWorker(path: string, options: ImportOptions, o: WorkerImportOptions = {}): Promise<ImportedLog> {
  if (o.signal?.aborted) return Promise.reject(new ImportCancelledError())
  const workerPath = o.workerPath ?? defaultWorkerPath()
  if (!existsSync(workerPath)) return Promise.reject(new Error(`the engine worker is not built: ${workerPath} is missing (run npm run build:cli)`))
  const id = 1
  return new Promise<ImportedLog>((resolve, reject) => {
    const worker = (o.fork ?? ((p: string) => forkNode(p)))(workerPath)
    let outcome: { ok: true; value: ImportedLog } | { ok: false; error: Error } | null = null
    const settle = (r: NonNullable<typeof outcome>) => {
      if (outcome) return
      outcome = r
      worker.kill()
    }
    const onAbort = () => settle({ ok: false, error: new ImportCancelledError() })
    o.signal?.addEventListener('abort', onAbort, { once: true })
    worker.onMessage((m: FromWorker) => {
      if (outcome) return
      if (m.type === 'import-progress' && m.id === id) {
        try { o.onProgress?.({ bytesRead: m.bytesRead, totalBytes: m.totalBytes, jobsRead: m.jobsRead }) } catch { /* a failing listener must not stop the import */ }
      } else if (m.type === 'import-done' && m.id === id) {
        settle({ ok: true, value: { workload: m.workload, sha256: m.sha256, inspect: m.inspect, simSeconds: m.simSeconds, readSeconds: m.readSeconds } })
      } else if (m.type === 'error') {
        settle({ ok: false, error: m.file !== undefined ? new FileInputError(m.file, m.line ?? null, m.message) : m.input ? new InputError(m.message, m.line ?? null) : new Error(m.message) })
      }
    })
    worker.onExit((code, signal) => {
      o.signal?.removeEventListener('abort', onAbort)
      const r = outcome ?? { ok: false, error: new Error(`the engine worker stopped unexpectedly while importing the log (${signal ? `signal ${signal}` : `exit code ${code}`})`) }
      if (r.ok) resolve(r.value)
      else reject(r.error)
    })
    worker.send({ type: 'import', id, path, options })
  })
}
