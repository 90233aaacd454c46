// Tracked imports (EasyTuneApi.importLog with an ImportTracking): the renderer names the import,
// follows its 'import-progress' events on the back end's event stream (the same listeners as the
// campaign events, the import's id in `campaignId`) and may cancel it. Each tracked import has an
// AbortController: its signal goes into readLog and hashFile, and cancel(importId) aborts it.
import type { ReadProgress } from '../node/read-log'
import type { CampaignEvent } from '../shared/api'
import { ApiInputError } from '../shared/validate'

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

  constructor(private readonly emit: (e: CampaignEvent) => void) {}

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
          this.emit({ campaignId: importId, kind: 'import-progress', bytesRead: p.bytesRead, totalBytes: p.totalBytes, jobsRead: p.jobsRead })
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
