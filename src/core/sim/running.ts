// The running jobs of an EASY simulation, as both simulators keep them (src/core/sim/easy.ts on the
// single pool, src/core/cluster/easy.ts on nodes): a min-heap by real end (the next event) and a
// list sorted by estimated end (the reservation's shadow time). Typed arrays sized once (for the most jobs
// that can run at once); nothing is allocated while the simulation runs.

/** Running jobs by (real end, index): the smallest first. Each entry keeps its end beside its job,
 * so the heap needs no per-job column: its arrays hold `capacity` entries, the most jobs that can
 * run at once (on the single pool, at most one per processor). */
export class EndHeap {
  private readonly h: Int32Array
  private readonly e: Float64Array
  len = 0
  constructor(capacity: number) {
    this.h = new Int32Array(capacity)
    this.e = new Float64Array(capacity)
  }

  /** The job that ends first, and its end (len > 0). */
  top(): number { return this.h[0] }
  topEnd(): number { return this.e[0] }

  push(j: number, end: number): void {
    const h = this.h, e = this.e
    if (this.len === h.length) throw new RangeError(`more than ${h.length} jobs running at once`)
    let i = this.len++
    while (i > 0) {
      const parent = (i - 1) >> 1
      const ep = e[parent]
      if (!(end < ep || (end === ep && j < h[parent]))) break
      h[i] = h[parent]; e[i] = ep
      i = parent
    }
    h[i] = j; e[i] = end
  }

  pop(): number {
    const h = this.h, e = this.e
    const top = h[0]
    const len = --this.len
    const last = h[len], lastEnd = e[len]
    let i = 0
    for (;;) {
      let c = 2 * i + 1
      if (c >= len) break
      if (c + 1 < len && (e[c + 1] < e[c] || (e[c + 1] === e[c] && h[c + 1] < h[c]))) c++
      if (!(e[c] < lastEnd || (e[c] === lastEnd && h[c] < last))) break
      h[i] = h[c]; e[i] = e[c]
      i = c
    }
    if (len > 0) { h[i] = last; e[i] = lastEnd }
    return top
  }
}

/**
 * Running jobs sorted by estimated end (ties: insertion order), in slots items[0..len), at most
 * `capacity`. A job's estimated end is est[j] when the simulator keeps that column (it moves
 * estimates while jobs run), else start[j] + span[j], the very sum the launch computed: no per-job
 * column.
 *
 * A job that ends leaves its slot GONE (-1) with its end still beside it, so the ends stay sorted
 * and the binary searches stay exact; a later job whose place is just after a gone slot takes it,
 * and an insertion shifts entries only up to the next gone slot. The gone slots are squeezed out
 * when they outnumber the jobs (and by compact()). Before, every start and end shifted the whole
 * tail of the list, and copyWithin's call alone cost more than the rest of the operation
 * (docs/PERFORMANCE.md). Readers walk the slots and skip the gone ones, or call compact() first.
 */
export class ByEstimatedEnd {
  /** The job in each slot, or GONE. */
  readonly items: Int32Array
  /** ends[r] = the estimated end of items[r] (or of the job that left it), kept beside it: the
   * binary searches read one contiguous array instead of a per-job column scattered over the log. */
  readonly ends: Float64Array
  /** Slots in use: running jobs and gone slots. */
  len = 0
  /** Gone slots among them. */
  private gone = 0
  private readonly est: Float64Array | null
  private readonly start: Float64Array
  private readonly span: Float64Array
  /** Estimated ends read from `est`. */
  constructor(capacity: number, est: Float64Array)
  /** Estimated ends computed as start[j] + span[j]. */
  constructor(capacity: number, est: null, start: Float64Array, span: Float64Array)
  constructor(capacity: number, est: Float64Array | null, start?: Float64Array, span?: Float64Array) {
    this.items = new Int32Array(capacity)
    this.ends = new Float64Array(capacity)
    this.est = est
    this.start = start ?? new Float64Array(0)
    this.span = span ?? new Float64Array(0)
  }

  /** Running jobs (slots that are not gone). */
  get count(): number { return this.len - this.gone }

  /** Job j's estimated end (j running). */
  endOf(j: number): number {
    return this.est !== null ? this.est[j] : this.start[j] + this.span[j]
  }

  insert(j: number): void {
    const e = this.endOf(j)
    if (this.len === this.items.length) this.compact()
    const run = this.items, ends = this.ends, len = this.len
    if (len === run.length) throw new RangeError(`more than ${run.length} jobs running at once`)
    // lo = the first slot whose end is after e: j goes just before it.
    let lo = 0, hi = len
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (ends[mid] <= e) lo = mid + 1; else hi = mid
    }
    let t = len // shift the entries from lo up to slot t (a gone one, or the end)
    if (this.gone > 0) {
      // A gone slot just before: its end and every end before it are ≤ e, those after it > e.
      if (lo > 0 && run[lo - 1] === GONE) { run[lo - 1] = j; ends[lo - 1] = e; this.gone--; return }
      // Else the next gone slot, when one is near.
      const near = lo + SHORT_SHIFT < len ? lo + SHORT_SHIFT : len
      let g = lo
      while (g < near && run[g] !== GONE) g++
      if (g < near) { t = g; this.gone-- }
    }
    if (t - lo > SHORT_SHIFT) { run.copyWithin(lo + 1, lo, len); ends.copyWithin(lo + 1, lo, len); t = -1 }
    if (t >= 0) for (let r = t; r > lo; r--) { run[r] = run[r - 1]; ends[r] = ends[r - 1] }
    if (t === len || t < 0) this.len = len + 1
    run[lo] = j
    ends[lo] = e
  }

  remove(j: number): void {
    const run = this.items, ends = this.ends, e = this.endOf(j), len = this.len
    // The first slot whose end is e, then on to j's (past jobs with the same end and gone slots).
    let lo = 0, hi = len
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (ends[mid] < e) lo = mid + 1; else hi = mid
    }
    while (lo < len && run[lo] !== j) lo++
    if (lo === len) throw new RangeError(`job ${j} is not in the list of running jobs`)
    if (len - 1 - lo <= SHORT_SHIFT) {
      // Near the end: the tail moves down (a short list never has gone slots), and the list ends
      // before the gone slots it ends with.
      for (let r = lo; r < len - 1; r++) { run[r] = run[r + 1]; ends[r] = ends[r + 1] }
      let n = len - 1
      while (n > 0 && run[n - 1] === GONE) { n--; this.gone-- }
      this.len = n
      return
    }
    run[lo] = GONE
    this.gone++
    if (this.gone > SHORT_SHIFT && 2 * this.gone > len) this.compact()
  }

  /** Squeezes the gone slots out: items[0..len) are then exactly the running jobs, in order. */
  compact(): void {
    if (this.gone === 0) return
    const run = this.items, ends = this.ends, len = this.len
    let w = 0
    for (let r = 0; r < len; r++) {
      const j = run[r]
      if (j === GONE) continue
      run[w] = j; ends[w] = ends[r]; w++
    }
    this.len = w
    this.gone = 0
  }

  /** Takes the first m running jobs out, into `jobs` (m ≤ count). */
  takeFirst(m: number, jobs: Int32Array): void {
    this.compact()
    for (let k = 0; k < m; k++) jobs[k] = this.items[k]
    this.items.copyWithin(0, m, this.len)
    this.ends.copyWithin(0, m, this.len)
    this.len -= m
  }
}

/** The job of a slot whose job has ended (ByEstimatedEnd). */
export const GONE = -1

/** Shifts of at most this many entries are done by a loop: copyWithin's call costs more below it.
 * Also how far an insertion looks for a gone slot, and the fewest gone slots squeezed out. */
const SHORT_SHIFT = 32
