// Week resampling within one part of the log (docs/PROTOCOL.md §Week resampling):
//   user-weeks   (R1, thesis §6.4.1) each resampled week takes, for every user, that user's jobs
//                of one uniformly drawn original week, keeping their offsets within the week and
//                their user id (ocst permutes instead; the thesis draws with replacement);
//   week-shuffle (R2, [000] §6.1.3) whole original weeks in random order, a new permutation for
//                every pass over the weeks;
//   none         (R3) the part's real consecutive weeks, in order.
// Weeks are 7-day windows from the part's first submit; a trailing partial week is not used.
// Every sample is a standalone job table with submit times in [0, 1 week), generated on demand
// from (seed, sample index), so any worker can build any sample without the others.
import { deriveSeed, Rng } from '../util/random'
import type { JobTable } from '../workload/types'

export const WEEK = 604800

export type ResampleMethod = 'user-weeks' | 'week-shuffle' | 'none'
export const RESAMPLE_METHODS: readonly ResampleMethod[] = ['user-weeks', 'week-shuffle', 'none']

export interface ResampleSpec {
  method: ResampleMethod
  /** Samples to draw (ignored by 'none', which uses every full week once). */
  weeks: number
  seed: number
}

export class WeekSamples {
  /** Number of full original weeks in the part. */
  readonly originalWeeks: number
  /** Number of samples this spec yields. */
  readonly count: number
  private readonly start: number
  /** Job indices grouped by week (CSR: weekStart[w]..weekStart[w+1]). */
  private readonly weekStart: Int32Array
  private readonly byWeek: Int32Array
  /** Job indices grouped by (user, week): cell = u * W + w. */
  private readonly userWeekStart: Int32Array
  private readonly byUserWeek: Int32Array
  readonly userCount: number
  /** Length of sample k's week as a fraction of 7 days: 1 for every full week (a trailing partial
   * week, when kept, counts for its length in the part's weekly figures). */
  weight(_k: number): number {
    return 1
  }
  /** Generated samples kept for reuse (every cell of a campaign simulates the same samples). */
  private readonly kept: (JobTable | undefined)[] = []
  private keptJobs = 0

  /**
   * `keepJobs`: how many sample jobs (in total) to keep in memory for reuse; beyond it samples are
   * regenerated on every call (about 56 bytes a job, so the default keeps at most ~110 MB).
   */
  constructor(readonly part: JobTable, readonly spec: ResampleSpec, private readonly keepJobs = 2_000_000) {
    const n = part.count
    if (n === 0) throw new Error('this part of the log has no jobs to resample')
    this.start = part.submit[0]
    const W = Math.floor((part.submit[n - 1] - this.start) / WEEK)
    if (W < 1) throw new Error(`this part of the log spans ${((part.submit[n - 1] - this.start) / 86400).toFixed(1)} days; resampling needs at least one full week`)
    this.originalWeeks = W
    if (!(Number.isInteger(spec.weeks) && spec.weeks > 0) && spec.method !== 'none') throw new Error(`the number of weeks to sample must be a whole number above 0, got ${spec.weeks}`)
    this.count = spec.method === 'none' ? W : spec.weeks
    const week = new Int32Array(n)
    for (let i = 0; i < n; i++) week[i] = Math.floor((part.submit[i] - this.start) / WEEK)
    // Users: unknown users (-1) form one pseudo-user.
    let maxUser = -1
    for (let i = 0; i < n; i++) if (part.user[i] > maxUser) maxUser = part.user[i]
    const U = maxUser + 2
    this.userCount = U
    const userOf = (i: number) => part.user[i] + 1
    ;[this.weekStart, this.byWeek] = group(n, W, (i) => (week[i] < W ? week[i] : -1))
    ;[this.userWeekStart, this.byUserWeek] = group(n, U * W, (i) => (week[i] < W ? userOf(i) * W + week[i] : -1))
  }

  /** Sample k as a job table with week-relative submits, sorted by (submit, original order). */
  get(k: number): JobTable {
    if (!(k >= 0 && k < this.count)) throw new Error(`sample ${k} is out of range 0..${this.count - 1}`)
    const kept = this.kept[k]
    if (kept) return kept
    const sample = this.generate(k)
    if (this.keptJobs + sample.count <= this.keepJobs) {
      this.kept[k] = sample
      this.keptJobs += sample.count
    }
    return sample
  }

  private generate(k: number): JobTable {
    const picked: number[] = []
    const W = this.originalWeeks
    if (this.spec.method === 'none') {
      this.take(this.byWeek, this.weekStart, k, picked)
    } else if (this.spec.method === 'week-shuffle') {
      const cycle = Math.floor(k / W)
      const perm = new Rng(deriveSeed(this.spec.seed, `week-shuffle/${cycle}`)).shuffle(Array.from({ length: W }, (_, i) => i))
      this.take(this.byWeek, this.weekStart, perm[k % W], picked)
    } else {
      const rng = new Rng(deriveSeed(this.spec.seed, `user-weeks/${k}`))
      for (let u = 0; u < this.userCount; u++) {
        const w = rng.int(W) // drawn for every user, so one user's draw never shifts another's
        this.take(this.byUserWeek, this.userWeekStart, u * W + w, picked)
      }
      picked.sort((a, b) => a - b) // original order = (submit, id) order; offsets re-sorted below
    }
    return this.materialize(picked)
  }

  private take(items: Int32Array, starts: Int32Array, cell: number, out: number[]): void {
    for (let p = starts[cell]; p < starts[cell + 1]; p++) out.push(items[p])
  }

  private materialize(idx: number[]): JobTable {
    const p = this.part
    const off = new Map<number, number>()
    for (const i of idx) off.set(i, (p.submit[i] - this.start) % WEEK)
    const offset = (i: number) => off.get(i)!
    idx.sort((a, b) => offset(a) - offset(b) || a - b)
    const n = idx.length
    const t: JobTable = {
      count: n, id: new Float64Array(n), submit: new Float64Array(n), runtime: new Float64Array(n), requested: new Float64Array(n),
      procs: new Int32Array(n), user: new Int32Array(n), recordedWait: new Float64Array(n), line: new Int32Array(n),
    }
    for (let k = 0; k < n; k++) {
      const i = idx[k]
      t.submit[k] = offset(i)
      t.id[k] = p.id[i]; t.runtime[k] = p.runtime[i]; t.requested[k] = p.requested[i]; t.procs[k] = p.procs[i]
      t.user[k] = p.user[i]; t.recordedWait[k] = p.recordedWait[i]; t.line[k] = p.line[i]
    }
    return t
  }
}

/** Counting sort of items 0..n-1 into `cells` groups (key −1 = left out): CSR starts and items. */
function group(n: number, cells: number, key: (i: number) => number): [Int32Array, Int32Array] {
  const starts = new Int32Array(cells + 1)
  for (let i = 0; i < n; i++) { const c = key(i); if (c >= 0) starts[c + 1]++ }
  for (let c = 0; c < cells; c++) starts[c + 1] += starts[c]
  const fill = starts.slice(0, cells)
  const items = new Int32Array(starts[cells])
  for (let i = 0; i < n; i++) { const c = key(i); if (c >= 0) items[fill[c]++] = i }
  return [starts, items]
}

/** Concatenates samples 0..count−1 into one long trace (week k shifted by k weeks), for online studies. */
export function longTrace(samples: WeekSamples, count: number): JobTable {
  const parts: JobTable[] = []
  let n = 0
  for (let k = 0; k < count; k++) { const s = samples.get(k % samples.count); parts.push(s); n += s.count }
  const t: JobTable = {
    count: n, id: new Float64Array(n), submit: new Float64Array(n), runtime: new Float64Array(n), requested: new Float64Array(n),
    procs: new Int32Array(n), user: new Int32Array(n), recordedWait: new Float64Array(n), line: new Int32Array(n),
  }
  let o = 0
  parts.forEach((s, k) => {
    for (let i = 0; i < s.count; i++, o++) {
      t.submit[o] = s.submit[i] + k * WEEK
      t.id[o] = s.id[i]; t.runtime[o] = s.runtime[i]; t.requested[o] = s.requested[i]; t.procs[o] = s.procs[i]
      t.user[o] = s.user[i]; t.recordedWait[o] = s.recordedWait[i]; t.line[o] = s.line[i]
    }
  })
  return t
}
