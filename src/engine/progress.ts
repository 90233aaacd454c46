// How an engine worker reports its progress through a cell (runCell calls back after each week
// sample). Two streams:
//   - without a progress port (CLI, browser mode, and the desktop app until a window is there to
//     show it): every update goes to the parent as a 'progress' message, as it always did —
//     every PROGRESS_SAMPLES samples, or sooner once PROGRESS_MS have passed;
//   - with a progress port (desktop app: main hands one over with 'progress-port', protocol.ts):
//     those same updates, plus the cell's first sample so even a short cell shows movement, go on
//     the port as WorkerProgressMessages, straight to the window. The parent (the pool, in main)
//     then gets a 'progress' only at each quarter of the cell (PARENT_STEPS): enough for the
//     overall bar and the ETA, which are all it computes from samples.
// The last sample of a cell is never reported: the 'cell-done' message that follows says it.
import type { FromWorker, WorkerProgressMessage } from './protocol'

export const PROGRESS_SAMPLES = 25
export const PROGRESS_MS = 500
/** With a progress port, the parent hears of a cell's progress this many times per cell at most. */
export const PARENT_STEPS = 4

/** A transferred MessagePort as the worker holds it (Electron's MessagePortMain in a utility process). */
export interface ProgressPort {
  postMessage(message: WorkerProgressMessage): void
  close(): void
}

type ParentProgress = Extract<FromWorker, { type: 'progress' }>

export class ProgressReporter {
  private port: { sink: ProgressPort; worker: number } | null = null

  constructor(
    private readonly toParent: (msg: ParentProgress) => void,
    private readonly pid: number = process.pid,
    private readonly clock: () => number = Date.now,
  ) {}

  get hasPort(): boolean {
    return this.port !== null
  }

  /** Uses `sink` from now on (closing the port it replaces: the window that held its other end
   * has reloaded or gone). */
  usePort(sink: ProgressPort, worker: number): void {
    if (this.port && this.port.sink !== sink) closeQuietly(this.port.sink)
    this.port = { sink, worker }
  }

  /** The runCell callback for one cell: `k` is the index of the sample just finished. `toWindow`
   * false: the cell belongs to no campaign (a mixed search's report), so the window, which shows
   * campaign workers, does not hear of it; the parent gets the full stream. */
  forCell(id: number, cell: string, samples: number, toWindow = true): (k: number) => void {
    let last = this.clock()
    let step = 0
    return (k) => {
      const done = k + 1
      if (done >= samples) return
      const now = this.clock()
      const due = done % PROGRESS_SAMPLES === 0 || now - last >= PROGRESS_MS
      const port = toWindow ? this.port : null
      if (port && (due || done === 1)) {
        last = now
        this.post({ kind: 'worker-progress', worker: port.worker, pid: this.pid, cell, samplesDone: done, samples })
      }
      if (port) {
        const s = Math.floor((PARENT_STEPS * done) / samples)
        if (s > step) {
          step = s
          this.toParent({ type: 'progress', id, samplesDone: done, samples })
        }
      } else if (due) {
        last = now
        this.toParent({ type: 'progress', id, samplesDone: done, samples })
      }
    }
  }

  /** A port that throws is closed (its window went away): the parent gets the full stream again. */
  private post(msg: WorkerProgressMessage): void {
    const port = this.port
    if (!port) return
    try {
      port.sink.postMessage(msg)
    } catch {
      this.port = null
      closeQuietly(port.sink)
    }
  }
}

function closeQuietly(port: ProgressPort): void {
  try {
    port.close()
  } catch { /* already closed */ }
}
