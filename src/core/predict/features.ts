// The 20 features of thesis Table 4.2 for job j of user k (docs/PREDICTIONS.md §Model), computed
// from the simulation's own events: the user's state is kept in typed arrays indexed by user, the
// user's running jobs in start order in a doubly-linked list per user (starts come in
// nondecreasing time, so the head is the earliest start). Nothing is allocated per job. A job of
// an unknown user (-1) has no history and nothing running, as if it were its own user.
import type { PredictJobs } from './types'

/** The number of raw features (Table 4.2). */
export const FEATURE_COUNT = 20

/** Names of the features in the order of the vector (docs/PREDICTIONS.md §Model). */
export const FEATURE_NAMES: readonly string[] = [
  'requested', 'last1', 'last2', 'last3', 'ave2', 'ave3', 'aveAll',
  'procs', 'aveHistProcs', 'procsOverAveHist', 'aveCurrProcs',
  'running', 'longestRunning', 'sumRunning', 'occupiedProcs', 'breakTime',
  'cosDay', 'sinDay', 'cosWeek', 'sinWeek',
]

const DAY = 86400
const WEEK = 7 * DAY
const TAU = 2 * Math.PI

export class FeatureState {
  // Completions (in completion order): the last three runtimes, their count, their sum, the last end.
  private readonly last1: Float64Array
  private readonly last2: Float64Array
  private readonly last3: Float64Array
  private readonly done: Float64Array
  private readonly sumRuntime: Float64Array
  private readonly lastEnd: Float64Array
  // Submissions: count and sum of q of the jobs submitted so far.
  private readonly submitted: Float64Array
  private readonly sumProcs: Float64Array
  // Running jobs: count, sum of q, sum of start times, and the list in start order.
  private readonly running: Float64Array
  private readonly runProcs: Float64Array
  private readonly runStarts: Float64Array
  private readonly head: Int32Array
  private readonly tail: Int32Array
  private readonly next: Int32Array
  private readonly prev: Int32Array
  private readonly startAt: Float64Array

  constructor(private readonly jobs: PredictJobs) {
    let users = 0
    for (let j = 0; j < jobs.count; j++) if (jobs.user[j] + 1 > users) users = jobs.user[j] + 1
    this.last1 = new Float64Array(users); this.last2 = new Float64Array(users); this.last3 = new Float64Array(users)
    this.done = new Float64Array(users); this.sumRuntime = new Float64Array(users); this.lastEnd = new Float64Array(users)
    this.submitted = new Float64Array(users); this.sumProcs = new Float64Array(users)
    this.running = new Float64Array(users); this.runProcs = new Float64Array(users); this.runStarts = new Float64Array(users)
    this.head = new Int32Array(users).fill(-1); this.tail = new Int32Array(users).fill(-1)
    this.next = new Int32Array(jobs.count); this.prev = new Int32Array(jobs.count)
    this.startAt = new Float64Array(jobs.count)
  }

  /**
   * Writes the 20 features of job j, submitted at `now`, into out[at .. at+20), from what happened
   * before: the completions and starts seen so far and the jobs of the user submitted before j
   * (earlier in the log's order). Call `submit(j)` after it.
   */
  compute(j: number, now: number, out: Float64Array, at: number): void {
    const u = this.jobs.user[j]
    const q = this.jobs.procs[j]
    const r = this.jobs.submit[j]
    out[at] = this.jobs.requested[j]
    if (u < 0) {
      for (let k = 1; k < 16; k++) out[at + k] = 0
      out[at + 7] = q
      out[at + 8] = q
      out[at + 9] = 1
    } else {
      const done = this.done[u]
      const p1 = this.last1[u], p2 = this.last2[u], p3 = this.last3[u]
      out[at + 1] = p1
      out[at + 2] = p2
      out[at + 3] = p3
      out[at + 4] = done >= 2 ? (p1 + p2) / 2 : p1
      out[at + 5] = done >= 3 ? (p1 + p2 + p3) / 3 : done === 2 ? (p1 + p2) / 2 : p1
      out[at + 6] = done > 0 ? this.sumRuntime[u] / done : 0
      out[at + 7] = q
      const hist = this.submitted[u] > 0 ? this.sumProcs[u] / this.submitted[u] : q
      out[at + 8] = hist
      out[at + 9] = q / hist
      const running = this.running[u]
      out[at + 10] = running > 0 ? this.runProcs[u] / running : 0
      out[at + 11] = running
      out[at + 12] = running > 0 ? now - this.startAt[this.head[u]] : 0
      out[at + 13] = running > 0 ? running * now - this.runStarts[u] : 0
      out[at + 14] = this.runProcs[u]
      out[at + 15] = done > 0 ? now - this.lastEnd[u] : 0
    }
    const day = (TAU * (r % DAY)) / DAY
    const week = (TAU * (r % WEEK)) / WEEK
    out[at + 16] = Math.cos(day)
    out[at + 17] = Math.sin(day)
    out[at + 18] = Math.cos(week)
    out[at + 19] = Math.sin(week)
  }

  /** Job j has been submitted (its q joins the user's historical mean request). */
  submit(j: number): void {
    const u = this.jobs.user[j]
    if (u < 0) return
    this.submitted[u]++
    this.sumProcs[u] += this.jobs.procs[j]
  }

  /** Job j started at `now` (starts come in nondecreasing time: it goes to the tail of the user's list). */
  started(j: number, now: number): void {
    const u = this.jobs.user[j]
    if (u < 0) return
    this.startAt[j] = now
    const t = this.tail[u]
    this.prev[j] = t
    this.next[j] = -1
    if (t < 0) this.head[u] = j; else this.next[t] = j
    this.tail[u] = j
    this.running[u]++
    this.runProcs[u] += this.jobs.procs[j]
    this.runStarts[u] += now
  }

  /** Job j ended at `now` after running jobs.runtime[j]. */
  finished(j: number, now: number): void {
    const u = this.jobs.user[j]
    if (u < 0) return
    const p = this.prev[j], nx = this.next[j]
    if (p < 0) this.head[u] = nx; else this.next[p] = nx
    if (nx < 0) this.tail[u] = p; else this.prev[nx] = p
    if (--this.running[u] === 0) { this.runProcs[u] = 0; this.runStarts[u] = 0 } else {
      this.runProcs[u] -= this.jobs.procs[j]
      this.runStarts[u] -= this.startAt[j]
    }
    this.last3[u] = this.last2[u]
    this.last2[u] = this.last1[u]
    this.last1[u] = this.jobs.runtime[j]
    this.done[u]++
    this.sumRuntime[u] += this.jobs.runtime[j]
    this.lastEnd[u] = now
  }
}
