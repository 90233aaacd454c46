// Human output helpers: aligned tables, numbers with units, and a progress line on stderr that
// appears only for work longer than a second and only on a terminal.
import { writeFileSync } from 'node:fs'
import { formatInt, formatPercent } from '../core/util/format'

export interface Io {
  out: (s: string) => void
  err: (s: string) => void
  /** stderr is a terminal and NO_COLOR is not set. */
  tty: boolean
}

export const processIo: Io = {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
  tty: Boolean(process.stderr.isTTY),
}

/** Columns a string takes on a terminal: combining marks (the tilde of p̃) take none. */
export function displayWidth(s: string): number {
  return [...s.replace(/\p{M}/gu, '')].length
}

export function table(rows: string[][], align: ('l' | 'r')[] = []): string {
  const widths: number[] = []
  for (const r of rows) r.forEach((c, i) => { widths[i] = Math.max(widths[i] ?? 0, displayWidth(c)) })
  return rows.map((r) => r.map((c, i) => {
    const pad = ' '.repeat(widths[i] - displayWidth(c))
    return align[i] === 'r' ? pad + c : c + pad
  }).join('  ').trimEnd()).join('\n') + '\n'
}

/** 28000 → "28,000" (src/core/util/format.ts, shared with the report and the GUI). */
export const int = formatInt
/** Exactly `d` decimals, so that a table's column lines up: 2 → "2.00". */
export const num = (n: number, d = 2) => n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d })
/** 0.314 → "31.4%" (one decimal in the CLI's tables). */
export const pct = (r: number, d = 1) => formatPercent(r, d)

/** Writes a JSON result to stdout (`--json`) or to a file (`--json file`). */
export function writeJson(io: Io, target: { file: string | null }, value: unknown): void {
  const text = JSON.stringify(value, null, 2) + '\n'
  if (target.file === null) io.out(text)
  else {
    writeFileSync(target.file, text)
    io.err(`wrote ${target.file}\n`)
  }
}

/** Shortest time between two redraws of the same progress line, ms. */
export const PROGRESS_REDRAW_MS = 100

/** A one-line progress display on stderr, shown after `delayMs` and only on a terminal. */
export class Progress {
  private readonly t0 = Date.now()
  private shown = false
  private drawnAt = 0
  private drawnLabel = ''
  constructor(private readonly io: Io, private readonly delayMs = 1000) {}

  /** Redraws at most every PROGRESS_REDRAW_MS while the label stays the same: a campaign's
   * workers report about ten times per cell, hundreds of times a second (docs/PERFORMANCE.md §The pool at full speed). */
  update(label: string, fraction: number | null, detail = ''): void {
    if (!this.io.tty) return
    const now = Date.now()
    if (now - this.t0 < this.delayMs || (label === this.drawnLabel && now - this.drawnAt < PROGRESS_REDRAW_MS)) return
    this.drawnAt = now
    this.drawnLabel = label
    this.shown = true
    const width = 30
    const bar = fraction === null ? '' : `[${'#'.repeat(Math.round(fraction * width)).padEnd(width, '.')}] ${(fraction * 100).toFixed(0).padStart(3)}% `
    this.io.err(`\r\x1b[2K${label} ${bar}${detail}`)
  }

  done(): void {
    if (this.shown) this.io.err('\r\x1b[2K')
    this.shown = false
  }
}

/** Work done in slices on the main thread (a whole-log replay): wall-clock milliseconds a slice runs
 * before it yields to the event loop (where Ctrl-C is heard), and event times between two looks at
 * the clock (the simulator's checkEvery). */
export const SLICE_MS = 100
export const SLICE_CHECK_EVERY = 256

/** On a pipe (not a terminal), one plain progress line at most this often, after the first
 * PLAIN_DELAY_MS (as `easytune simulate` does). */
const PLAIN_EVERY_MS = 2000
const PLAIN_DELAY_MS = 1000

/** A progress reporter for long work: a bar on a terminal (Progress), and on a pipe (a batch job's
 * output file, nohup) a plain line "label: detail (percent)" after PLAIN_DELAY_MS, at most every
 * PLAIN_EVERY_MS. `detail` is a function so that its text is made only when it is shown. */
export function sliceProgress(io: Io, progress: Progress): (label: string, fraction: number | null, detail: string | (() => string)) => void {
  const t0 = performance.now()
  let lastPlain = -Infinity
  return (label, fraction, detail) => {
    if (io.tty) { progress.update(label, fraction, typeof detail === 'function' ? detail() : detail); return }
    const now = performance.now()
    if (now - t0 < PLAIN_DELAY_MS || now - lastPlain < PLAIN_EVERY_MS) return
    lastPlain = now
    io.err(`${label}: ${typeof detail === 'function' ? detail() : detail}${fraction === null ? '' : ` (${pct(fraction)})`}\n`)
  }
}

/** What `untilInterrupted` answers when Ctrl-C stopped the work (the command then exits 130). */
export const INTERRUPTED = Symbol('interrupted')

/** Runs `work` with Ctrl-C (SIGINT) aborting its signal; the progress line is closed however it
 * ends, and an interruption is said once ("interrupted.") instead of thrown. */
export async function untilInterrupted<T>(io: Io, progress: Progress, work: (signal: AbortSignal) => Promise<T>, said = 'interrupted.'): Promise<T | typeof INTERRUPTED> {
  const abort = new AbortController()
  const onSigint = () => abort.abort()
  process.once('SIGINT', onSigint)
  try {
    return await work(abort.signal)
  } catch (e) {
    progress.done()
    if (abort.signal.aborted) { io.err(`${said}\n`); return INTERRUPTED }
    throw e
  } finally {
    progress.done()
    process.off('SIGINT', onSigint)
  }
}
