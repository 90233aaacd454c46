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
 * Running jobs sorted by estimated end (ties: insertion order): items[0..len), at most `capacity`.
 * A job's estimated end is est[j] when the simulator keeps that column (it moves estimates while
 * jobs run), else start[j] + span[j], the very sum the launch computed: no per-job column.
 */
export class ByEstimatedEnd {
  readonly items: Int32Array
  /** ends[r] = the estimated end of items[r], kept beside it: the binary searches read one
   * contiguous array instead of a per-job column scattered over the log. */
  readonly ends: Float64Array
  len = 0
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

  /** Job j's estimated end (j running). */
  endOf(j: number): number {
    return this.est !== null ? this.est[j] : this.start[j] + this.span[j]
  }

  insert(j: number): void {
    const run = this.items, ends = this.ends, e = this.endOf(j), len = this.len
    if (len === run.length) throw new RangeError(`more than ${run.length} jobs running at once`)
    let lo = 0, hi = len
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (ends[mid] <= e) lo = mid + 1; else hi = mid
    }
    if (len - lo > SHORT_SHIFT) { run.copyWithin(lo + 1, lo, len); ends.copyWithin(lo + 1, lo, len) }
    else for (let r = len; r > lo; r--) { run[r] = run[r - 1]; ends[r] = ends[r - 1] }
    run[lo] = j
    ends[lo] = e
    this.len = len + 1
  }

  remove(j: number): void {
    const run = this.items, ends = this.ends, e = this.endOf(j), len = this.len - 1
    let lo = 0, hi = this.len
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (ends[mid] < e) lo = mid + 1; else hi = mid
    }
    while (lo <= len && run[lo] !== j) lo++
    if (lo > len) throw new RangeError(`job ${j} is not in the list of running jobs`)
    if (len - lo > SHORT_SHIFT) { run.copyWithin(lo, lo + 1, len + 1); ends.copyWithin(lo, lo + 1, len + 1) }
    else for (let r = lo; r < len; r++) { run[r] = run[r + 1]; ends[r] = ends[r + 1] }
    this.len = len
  }

  /** Takes the first m jobs out, into `jobs`. */
  takeFirst(m: number, jobs: Int32Array): void {
    for (let k = 0; k < m; k++) jobs[k] = this.items[k]
    this.items.copyWithin(0, m, this.len)
    this.ends.copyWithin(0, m, this.len)
    this.len -= m
  }
}

/** Shifts of at most this many entries are done by a loop: copyWithin's call costs more below it. */
const SHORT_SHIFT = 32
