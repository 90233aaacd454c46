// Tracked imports (EasyTuneApi.importLog with an ImportTracking): the renderer names the import,
// follows its ImportEvents (kind 'progress', under its importId) and may cancel it. Each tracked
// import has an AbortController: its signal goes into readLog and hashFile (in process) or ends
// the import's worker session, and cancel(importId) aborts it.
//
// The import itself (read, hash, whole-log simulation, Inspect data: src/engine/import.ts) runs in
// a worker process by default (importInWorker): one 'import' unit on a session of one engine
// worker of its own (src/engine/lifecycle.ts, the lifecycle every kind of work shares), so
// Electron main's event loop stays free during a large import. An abort kills that worker.
import type { ImportOptions } from '../core/workload/import'
import type { ImportedLog, ImportProgress } from '../engine/import'
import { WorkerSession, type CrashInfo, type ForkWorker } from '../engine/lifecycle'
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
  /** readLog's progress callback: throttled into ImportEvents. */
  readonly onProgress: (p: ImportProgress) => void
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
          this.emit({ importId, kind: 'progress', bytesRead: p.bytesRead, totalBytes: p.totalBytes, jobsRead: p.jobsRead, ...(p.simulated ? { simulated: p.simulated } : {}) })
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
  onProgress?: (p: ImportProgress) => void
  /** Aborting it kills the worker; the promise then rejects with ImportCancelledError. */
  signal?: AbortSignal
  /** The files as the user knows them (several files read as one log). */
  names?: readonly string[]
  /** The worker died and the import was restarted on a fresh one. */
  onWorkerCrash?: (info: CrashInfo) => void
}

/** Imports `path` on a fresh engine worker and settles once that worker has exited (it is stopped
 * as soon as it has answered): errors as importLogFile's (a FileInputError naming `path`, an
 * InputError), ImportCancelledError after an abort, or an Error when workers kept dying. */
export async function importInWorker(path: string | readonly string[], options: ImportOptions, o: WorkerImportOptions = {}): Promise<ImportedLog> {
  const paths = typeof path === 'string' ? [path] : [...path]
  if (o.signal?.aborted) throw new ImportCancelledError()
  const session = new WorkerSession({ setup: null, workers: 1, fork: o.fork, workerPath: o.workerPath, signal: o.signal, cancelledMessage: 'the import was cancelled', onWorkerCrash: o.onWorkerCrash })
  try {
    const [r] = await session.run([{ kind: 'import', path: paths[0], ...(paths.length > 1 ? { paths, ...(o.names ? { names: [...o.names] } : {}) } : {}), options }], {
      onProgress: (_, m) => {
        if (m.type !== 'import-progress') return
        try { o.onProgress?.({ bytesRead: m.bytesRead, totalBytes: m.totalBytes, jobsRead: m.jobsRead, ...(m.simulated ? { simulated: m.simulated } : {}) }) } catch { /* a failing listener must not stop the import */ }
      },
    })
    return r
  } catch (e) {
    if (o.signal?.aborted) throw new ImportCancelledError()
    throw e
  } finally {
    await session.close()
  }
}
