// An independent reading of real logs (../shared/data, the bundled sample) for the tests: plain
// string splitting and the documented rules written out again, with nothing imported from src/.
// The tests compare the importer's report with these counts, so an expected number is never the
// program's own output pasted into a test.
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'

/** The file's text, decompressed when it ends in .gz. */
export function readText(path: string): string {
  const bytes = readFileSync(path)
  return (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8')
}

/** Non-blank lines. */
export function lines(text: string): string[] {
  return text.split('\n').map((l) => l.replace(/\r$/, '')).filter((l) => l.trim() !== '')
}

export interface PlainSwf {
  /** `; Key: value` header lines (first occurrence of a key). */
  header: Map<string, string>
  /** One array of numbers per job line (every non-comment line), fields numbered from 0. */
  jobs: number[][]
  /** The file's line number (from 1) of each job line. */
  lineNumbers: number[]
}

/** An SWF log read the obvious way: `;` lines are the header, every other line is a job. */
export function plainSwf(path: string): PlainSwf {
  const header = new Map<string, string>()
  const jobs: number[][] = []
  const lineNumbers: number[] = []
  readText(path).split('\n').forEach((line, i) => {
    const t = line.trim()
    if (t === '') return
    if (t.startsWith(';')) {
      const m = /^;\s*(\w+)\s*:\s*(.*?)\s*$/.exec(t)
      if (m && !header.has(m[1])) header.set(m[1], m[2])
    } else {
      jobs.push(t.split(/\s+/).map(Number))
      lineNumbers.push(i + 1)
    }
  })
  return { header, jobs, lineNumbers }
}

// SWF fields (0-based here; the format numbers them from 1).
const SUBMIT = 1, RUNTIME = 3, ALLOC = 4, REQ_PROCS = 7, REQ_TIME = 8

/** Jobs removed per cleaning rule, with the rule ids the import report uses. */
export interface PlainCounts {
  kept: number
  removed: Record<string, number>
  /** Jobs that reached the requested-time rule without a requested time (> 0). */
  requestedMissing: number
  /** Requested processors missing, allocated ones used instead (C4: a change, not a removal). */
  procsFromAllocated: number
  /** Per removal rule, the line numbers of the jobs it removed, in file order. */
  lines: Record<string, number[]>
}

/**
 * The cleaning rules as docs describe them, applied in their order, a job counted at the first
 * rule that removes it: C5 (submit time, then run time negative), C4 (no requested and no
 * allocated processors), C3 (more processors than the machine), no requested time (removed, or
 * with `fillWithRuntime` set to the run time), C7 (ran longer than requested).
 */
export function plainClean(log: PlainSwf, machine: number, fillWithRuntime = false): PlainCounts {
  const removed: Record<string, number> = {}
  const lines: Record<string, number[]> = {}
  let i = 0
  const remove = (rule: string) => {
    removed[rule] = (removed[rule] ?? 0) + 1
    ;(lines[rule] ??= []).push(log.lineNumbers[i])
  }
  let kept = 0, requestedMissing = 0, procsFromAllocated = 0
  for (; i < log.jobs.length; i++) {
    const f = log.jobs[i]
    if (f[SUBMIT] < 0) { remove('C5-submit'); continue }
    if (f[RUNTIME] < 0) { remove('C5-runtime'); continue }
    if (f[REQ_PROCS] <= 0 && f[ALLOC] <= 0) { remove('C4-no-procs'); continue }
    if (f[REQ_PROCS] <= 0) procsFromAllocated++
    if (f[REQ_PROCS] > machine || f[ALLOC] > machine) { remove('C3-too-big'); continue }
    let requested = f[REQ_TIME]
    if (requested <= 0) {
      requestedMissing++
      if (!fillWithRuntime) { remove('requested-missing'); continue }
      requested = Math.max(f[RUNTIME], 1)
    }
    if (f[RUNTIME] > requested) { remove('C7-overrun'); continue }
    kept++
  }
  return { kept, removed, requestedMissing, procsFromAllocated, lines }
}

/**
 * The job counts SOURCES.md documents for each log (its tables' `jobs` column, checked against
 * each log's header when the data was collected): file → jobs.
 */
export function documentedJobCounts(sourcesMd: string): Map<string, number> {
  const out = new Map<string, number>()
  for (const line of sourcesMd.split('\n')) {
    const cells = line.split('|').map((c) => c.trim())
    // | file | … | … | licence | jobs | …  (the fifth cell in both SWF tables)
    if (cells.length > 6 && /^swf(-model)?\//.test(cells[1]) && /^[\d,]+$/.test(cells[5])) out.set(cells[1], Number(cells[5].replaceAll(',', '')))
  }
  return out
}

/** `key=value` pairs of a jobcomp line separated by spaces (values hold no spaces in these logs). */
export function keyValues(line: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const token of line.split(' ')) {
    const eq = token.indexOf('=')
    if (eq > 0) out.set(token.slice(0, eq), token.slice(eq + 1))
  }
  return out
}
