// Train/test split in time (docs/PROTOCOL.md §Split): at the temporal midpoint (thesis ch. 5), at a
// date, or at a fraction of the span. Both parts are plain job tables. Also the week grid of a part
// (partWeeks, docs/PROTOCOL.md §Week resampling): which real weeks the protocol uses, and how long
// each one is.
import type { Compat } from '../sim/types'
import { sliceOptionalColumns } from '../workload/columns'
import type { JobTable } from '../workload/types'

/** Seconds in a week. */
export const WEEK = 604800

export type SplitSpec =
  | { kind: 'midpoint' }
  | { kind: 'fraction'; fraction: number }
  /** Seconds on the log's submit axis (same origin as job submit times). */
  | { kind: 'time'; at: number }

export interface PartStats {
  jobs: number
  /** First and last submit (seconds on the log's axis). */
  start: number
  end: number
  seconds: number
  /** Offered load: Σ q·p / (m · span). */
  load: number
}

export interface Split {
  /** Submit time where test begins: train = submit < at, test = submit ≥ at. */
  at: number
  train: JobTable
  test: JobTable
  trainStats: PartStats
  testStats: PartStats
}

export function splitAt(spec: SplitSpec, jobs: JobTable): number {
  const first = jobs.count ? jobs.submit[0] : 0
  const last = jobs.count ? jobs.submit[jobs.count - 1] : 0
  switch (spec.kind) {
    case 'midpoint': return first + (last - first) / 2
    case 'fraction':
      if (!(spec.fraction > 0 && spec.fraction < 1)) throw new Error(`split fraction must be strictly between 0 and 1, got ${spec.fraction}`)
      return first + (last - first) * spec.fraction
    case 'time': return spec.at
  }
}

export function splitWorkload(jobs: JobTable, machineProcs: number, spec: SplitSpec): Split {
  const at = splitAt(spec, jobs)
  // jobs are sorted by submit: the split is an index
  let lo = 0, hi = jobs.count
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (jobs.submit[mid] < at) lo = mid + 1; else hi = mid
  }
  const train = sliceJobs(jobs, 0, lo)
  const test = sliceJobs(jobs, lo, jobs.count)
  if (train.count === 0 || test.count === 0) {
    throw new Error(`the split at ${at} s leaves ${train.count} training and ${test.count} test jobs; both parts need jobs`)
  }
  // The stats read the log's own columns by row range, not the two views just made.
  return { at, train, test, trainStats: rangeStats(jobs, 0, lo, machineProcs), testStats: rangeStats(jobs, lo, jobs.count, machineProcs) }
}

/** Rows [from, to) as a job table (views, no copy). */
export function sliceJobs(j: JobTable, from: number, to: number): JobTable {
  return {
    count: to - from,
    id: j.id.subarray(from, to), submit: j.submit.subarray(from, to), runtime: j.runtime.subarray(from, to),
    requested: j.requested.subarray(from, to), procs: j.procs.subarray(from, to), user: j.user.subarray(from, to),
    recordedWait: j.recordedWait.subarray(from, to), line: j.line.subarray(from, to),
    ...sliceOptionalColumns(j, from, to),
  }
}

/** The stats of rows [from, to) of a table sorted by submit, on a machine of `m` processors. */
function rangeStats(j: JobTable, from: number, to: number, m: number): PartStats {
  if (to <= from) return { jobs: 0, start: 0, end: 0, seconds: 0, load: 0 }
  const { procs, runtime, submit } = j
  let area = 0
  for (let i = from; i < to; i++) area += procs[i] * runtime[i]
  const start = submit[from], end = submit[to - 1]
  const seconds = end - start
  return { jobs: to - from, start, end, seconds, load: seconds > 0 ? area / (m * seconds) : 0 }
}

/**
 * The real weeks of one part (docs/PROTOCOL.md §Week resampling). Week w covers submits in
 * [origin + w·WEEK, origin + (w+1)·WEEK); weeks 0..full−1 are full, and week `full` is a trailing
 * partial week when `partial` > 0.
 */
export interface PartWeeks {
  /** Seconds on the log's submit axis where week 0 begins. */
  origin: number
  /** Full 7-day weeks. */
  full: number
  /** Length of the trailing partial week kept after them, as a fraction of 7 days, in (0, 1); 0 = none. */
  partial: number
  /** Weeks used: full, plus 1 when a partial week is kept. */
  count: number
  /** Under compat 'ocst': jobs dropped with the first and last (partial) weeks (rule C13); else 0. */
  droppedJobs: number
}

/**
 * The week grid of a part.
 * - Default ('none'): weeks of 7 days from the part's first submit; the trailing partial week, from
 *   the last full week's end to the last submit, is kept with its length (0 < partial < 1). A
 *   partial week of length 0 (the last submit exactly on a week boundary) is not a week: the jobs
 *   submitted at that instant are left out.
 * - 'ocst' (rule C13 of the seeds' simulator): weeks ⌊r / WEEK⌋ on the log's axis (for SWF, the
 *   file's time origin); the first and last week that hold a job are dropped as partial, whatever
 *   their length, and every week left is full.
 */
export function partWeeks(part: JobTable, compat: Compat = 'none'): PartWeeks {
  const n = part.count
  if (n === 0) return { origin: 0, full: 0, partial: 0, count: 0, droppedJobs: 0 }
  const first = part.submit[0], last = part.submit[n - 1]
  if (compat === 'ocst') {
    const wFirst = Math.floor(first / WEEK), wLast = Math.floor(last / WEEK)
    const full = Math.max(0, wLast - wFirst - 1)
    const origin = (wFirst + 1) * WEEK
    let dropped = 0
    for (let i = 0; i < n; i++) if (part.submit[i] < origin || part.submit[i] >= origin + full * WEEK) dropped++
    return { origin, full, partial: 0, count: full, droppedJobs: dropped }
  }
  const span = last - first
  const full = Math.floor(span / WEEK)
  const partial = (span - full * WEEK) / WEEK
  return { origin: first, full, partial, count: full + (partial > 0 ? 1 : 0), droppedJobs: 0 }
}
