// Train/test split in time (docs/PROTOCOL.md §Split): at the temporal midpoint (thesis ch. 5), at a
// date, or at a fraction of the span. Both parts are plain job tables.
import type { JobTable } from '../workload/types'

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
  return { at, train, test, trainStats: partStats(train, machineProcs), testStats: partStats(test, machineProcs) }
}

/** Rows [from, to) as a job table (views, no copy). */
export function sliceJobs(j: JobTable, from: number, to: number): JobTable {
  return {
    count: to - from,
    id: j.id.subarray(from, to), submit: j.submit.subarray(from, to), runtime: j.runtime.subarray(from, to),
    requested: j.requested.subarray(from, to), procs: j.procs.subarray(from, to), user: j.user.subarray(from, to),
    recordedWait: j.recordedWait.subarray(from, to), line: j.line.subarray(from, to),
    ...(j.account ? { account: j.account.subarray(from, to) } : {}),
  }
}

export function partStats(j: JobTable, m: number): PartStats {
  if (j.count === 0) return { jobs: 0, start: 0, end: 0, seconds: 0, load: 0 }
  let area = 0
  for (let i = 0; i < j.count; i++) area += j.procs[i] * j.runtime[i]
  const start = j.submit[0], end = j.submit[j.count - 1]
  const seconds = end - start
  return { jobs: j.count, start, end, seconds, load: seconds > 0 ? area / (m * seconds) : 0 }
}
