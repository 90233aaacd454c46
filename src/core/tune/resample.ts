// Week resampling within one part of the log (docs/PROTOCOL.md §Week resampling):
//   user-weeks   (R1, thesis §6.4.1) each resampled week takes, for every user, that user's jobs
//                of one drawn original week, keeping their offsets within the week and their user
//                id (ocst permutes instead; the thesis draws with replacement);
//   week-shuffle (R2, [000] §6.1.3) whole original weeks in random order, a new permutation for
//                every pass over the weeks;
//   none         (R3) the part's real consecutive weeks, in order.
// The real weeks are the part's week grid (partWeeks in split.ts): 7-day weeks from the part's
// first submit plus a trailing partial week that counts for its length — a sample that is the
// partial week weighs its length (weight(k)), and user-weeks draws the partial week for a user
// with a probability in proportion to its length; under compat 'ocst' the weeks of the log's axis
// without the first and last (rule C13), all full.
// Every sample is a standalone job table with submit times in [0, 1 week), generated on demand
// from (seed, sample index), so any worker can build any sample without the others.
import type { Compat } from '../sim/types'
import { deriveSeed, Rng } from '../util/random'
import type { JobTable } from '../workload/types'
import { concatOptional, pickOptionalColumns } from '../workload/columns'
import { partWeeks, WEEK } from './split'

export { WEEK } from './split'

export type ResampleMethod = 'user-weeks' | 'week-shuffle' | 'none'
export const RESAMPLE_METHODS: readonly ResampleMethod[] = ['user-weeks', 'week-shuffle', 'none']

export interface ResampleSpec {
  method: ResampleMethod
  /** Samples to draw (ignored by 'none', which uses every real week once). */
  weeks: number
  seed: number
}

/** How the part's weeks are cut; absent = the defaults. */
export interface WeekOptions {
  /** 'ocst': the first and last partial weeks dropped (rule C13) instead of a trailing partial
   * week kept with its length. */
  compat?: Compat
  /** How many sample jobs (in total) to keep in memory for reuse; beyond it samples are
   * regenerated on every call (about 56 bytes a job, so the default keeps at most ~110 MB). */
  keepJobs?: number
}

export class WeekSamples {
  /** Number of full original weeks in the part (under compat 'ocst': without the first and last). */
  readonly originalWeeks: number
  /** Real weeks the samples are built from: the full weeks, plus a trailing partial week when kept. */
  readonly realWeeks: number
  /** Length of the kept trailing partial week (real week `originalWeeks`) as a fraction of 7
   * days, in (0, 1); 0 when there is none. */
  readonly partialWeek: number
  /** Number of samples this spec yields. */
  readonly count: number
  /** The compatibility mode the weeks were cut under; the simulator runs the samples under the same. */
  readonly compat: Compat
  /** Week 0 begins here (seconds on the log's submit axis). */
  private readonly origin: number
  private readonly keepJobs: number
  /** Job indices grouped by week (CSR: weekStart[w]..weekStart[w+1]). */
  private readonly weekStart: Int32Array
  private readonly byWeek: Int32Array
  /** Job indices grouped by (user, week): cell = u * W + w. */
  private readonly userWeekStart: Int32Array
  private readonly byUserWeek: Int32Array
  readonly userCount: number
  /** week-shuffle: the permutation of each pass over the weeks, made once. */
  private readonly perms = new Map<number, number[]>()

  /** Length of real week w as a fraction of 7 days: 1, or the trailing partial week's length. */
  weekLength(w: number): number {
    return w === this.originalWeeks && this.partialWeek > 0 ? this.partialWeek : 1
  }

  /** Sample k's weight in the part's weekly figures: the length, as a fraction of 7 days, of the
   * real week it is (`none`) or was drawn from (`week-shuffle`). A `user-weeks` sample weighs 1:
   * it is a whole new week, in which the partial week was drawn for each user in proportion to its
   * length instead (docs/PROTOCOL.md §Week resampling). */
  weight(k: number): number {
    if (this.partialWeek === 0 || this.spec.method === 'user-weeks') return 1
    return this.weekLength(this.sourceWeek(k))
  }

  /** Every sample's weight (index = sample), or undefined when all are 1. */
  weights(): Float64Array | undefined {
    if (this.partialWeek === 0 || this.spec.method === 'user-weeks') return undefined
    const w = Float64Array.from({ length: this.count }, (_, k) => this.weight(k))
    return w.every((x) => x === 1) ? undefined : w
  }

  /** Generated samples kept for reuse (every cell of a campaign simulates the same samples). */
  private readonly kept: (JobTable | undefined)[] = []
  private keptJobs = 0

  constructor(readonly part: JobTable, readonly spec: ResampleSpec, options: WeekOptions = {}) {
    this.keepJobs = options.keepJobs ?? 2_000_000
    const compat = (this.compat = options.compat ?? 'none')
    const n = part.count
    if (n === 0) throw new Error('this part of the log has no jobs to resample')
    const grid = partWeeks(part, compat)
    if (grid.full < 1) {
      const days = ((part.submit[n - 1] - part.submit[0]) / 86400).toFixed(1)
      throw new Error(compat === 'ocst'
        ? `this part of the log spans ${days} days; with --compat ocst its first and last (partial) weeks are dropped and no full week is left: resampling needs at least one`
        : `this part of the log spans ${days} days; resampling needs at least one full week`)
    }
    this.origin = grid.origin
    this.originalWeeks = grid.full
    this.partialWeek = grid.partial
    const W = (this.realWeeks = grid.count)
    if (!(Number.isInteger(spec.weeks) && spec.weeks > 0) && spec.method !== 'none') throw new Error(`the number of weeks to sample must be a whole number above 0, got ${spec.weeks}`)
    this.count = spec.method === 'none' ? W : spec.weeks
    const week = new Int32Array(n)
    for (let i = 0; i < n; i++) {
      const w = Math.floor((part.submit[i] - this.origin) / WEEK)
      week[i] = w >= 0 && w < W ? w : -1 // outside the grid: left out
    }
    // Users: unknown users (-1) form one pseudo-user.
    let maxUser = -1
    for (let i = 0; i < n; i++) if (part.user[i] > maxUser) maxUser = part.user[i]
    const U = maxUser + 2
    this.userCount = U
    const userOf = (i: number) => part.user[i] + 1
    ;[this.weekStart, this.byWeek] = group(n, W, (i) => week[i])
    ;[this.userWeekStart, this.byUserWeek] = group(n, U * W, (i) => (week[i] >= 0 ? userOf(i) * W + week[i] : -1))
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

  /** The real week sample k is (`none`) or was drawn from (`week-shuffle`). */
  private sourceWeek(k: number): number {
    if (this.spec.method === 'none') return k
    const W = this.realWeeks
    const cycle = Math.floor(k / W)
    let perm = this.perms.get(cycle)
    if (!perm) {
      perm = new Rng(deriveSeed(this.spec.seed, `week-shuffle/${cycle}`)).shuffle(Array.from({ length: W }, (_, i) => i))
      this.perms.set(cycle, perm)
    }
    return perm[k % W]
  }

  private generate(k: number): JobTable {
    const picked: number[] = []
    const W = this.realWeeks
    if (this.spec.method !== 'user-weeks') {
      this.take(this.byWeek, this.weekStart, this.sourceWeek(k), picked)
    } else {
      const rng = new Rng(deriveSeed(this.spec.seed, `user-weeks/${k}`))
      // Each week is drawn in proportion to its length: the full weeks uniformly, the partial
      // week (index W − 1 when kept) with probability partial / (full + partial). Without a
      // partial week this is a uniform draw over the full weeks.
      const total = this.originalWeeks + this.partialWeek
      for (let u = 0; u < this.userCount; u++) {
        const w = Math.min(Math.floor(rng.next() * total), W - 1) // drawn for every user, so one user's draw never shifts another's
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
    for (const i of idx) off.set(i, (p.submit[i] - this.origin) % WEEK) // every job on the grid is at or after the origin
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
    return { ...t, ...pickOptionalColumns(p, idx, (k) => t.submit[k] - p.submit[idx[k]]) }
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
  const extra: Partial<JobTable>[] = []
  parts.forEach((s, k) => {
    for (let i = 0; i < s.count; i++, o++) {
      t.submit[o] = s.submit[i] + k * WEEK
      t.id[o] = s.id[i]; t.runtime[o] = s.runtime[i]; t.requested[o] = s.requested[i]; t.procs[o] = s.procs[i]
      t.user[o] = s.user[i]; t.recordedWait[o] = s.recordedWait[i]; t.line[o] = s.line[i]
    }
    extra.push(pickOptionalColumns(s, Int32Array.from({ length: s.count }, (_, i) => i), () => k * WEEK))
  })
  return { ...t, ...concatOptional(extra, n) }
}
