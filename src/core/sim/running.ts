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

/** Running jobs sorted by estimated end (ties: insertion order): items[0..len), each with its
 * estimated end in keys[0..len) beside it, at most `capacity` of them. */
export class ByEstimatedEnd {
  readonly items: Int32Array
  readonly keys: Float64Array
  len = 0
  constructor(capacity: number) {
    this.items = new Int32Array(capacity)
    this.keys = new Float64Array(capacity)
  }

  /** Adds job j, estimated to end at e, after the jobs estimated to end at or before e. */
  insert(j: number, e: number): void {
    const run = this.items, keys = this.keys
    if (this.len === run.length) throw new RangeError(`more than ${run.length} jobs running at once`)
    let lo = 0, hi = this.len
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (keys[mid] <= e) lo = mid + 1; else hi = mid
    }
    run.copyWithin(lo + 1, lo, this.len)
    keys.copyWithin(lo + 1, lo, this.len)
    run[lo] = j
    keys[lo] = e
    this.len++
  }

  /** Removes job j, inserted with estimated end e. */
  remove(j: number, e: number): void {
    const run = this.items, keys = this.keys
    let lo = 0, hi = this.len
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (keys[mid] < e) lo = mid + 1; else hi = mid
    }
    while (run[lo] !== j) lo++
    run.copyWithin(lo, lo + 1, this.len)
    keys.copyWithin(lo, lo + 1, this.len)
    this.len--
  }

  /** Takes the first m entries out (their jobs copied to `jobs`). */
  takeFirst(m: number, jobs: Int32Array): void {
    for (let k = 0; k < m; k++) jobs[k] = this.items[k]
    this.items.copyWithin(0, m, this.len)
    this.keys.copyWithin(0, m, this.len)
    this.len -= m
  }
}
