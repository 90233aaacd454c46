// The running jobs of an EASY simulation, as both simulators keep them (src/core/sim/easy.ts on the
// single pool, src/core/cluster/easy.ts on nodes): a min-heap by real end (the next event) and a
// list sorted by estimated end (the reservation's shadow time). Typed arrays sized once; nothing is
// allocated while the simulation runs.

/** Running jobs by (real end, index): the smallest first. `end` is read, never written. */
export class EndHeap {
  private readonly h: Int32Array
  len = 0
  constructor(n: number, private readonly end: Float64Array) {
    this.h = new Int32Array(n)
  }

  /** The job that ends first (len > 0). */
  top(): number { return this.h[0] }

  private before(a: number, b: number): boolean {
    const ea = this.end[a], eb = this.end[b]
    return ea < eb || (ea === eb && a < b)
  }

  push(j: number): void {
    const h = this.h
    let i = this.len++
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!this.before(j, h[parent])) break
      h[i] = h[parent]
      i = parent
    }
    h[i] = j
  }

  pop(): number {
    const h = this.h
    const top = h[0]
    const last = h[--this.len]
    let i = 0
    const len = this.len
    for (;;) {
      let c = 2 * i + 1
      if (c >= len) break
      if (c + 1 < len && this.before(h[c + 1], h[c])) c++
      if (!this.before(h[c], last)) break
      h[i] = h[c]
      i = c
    }
    if (len > 0) h[i] = last
    return top
  }
}

/** Running jobs sorted by estimated end (ties: insertion order): items[0..len). `est` is read, never written. */
export class ByEstimatedEnd {
  readonly items: Int32Array
  len = 0
  constructor(n: number, private readonly est: Float64Array) {
    this.items = new Int32Array(n)
  }

  insert(j: number): void {
    const run = this.items, e = this.est[j]
    let lo = 0, hi = this.len
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.est[run[mid]] <= e) lo = mid + 1; else hi = mid
    }
    run.copyWithin(lo + 1, lo, this.len)
    run[lo] = j
    this.len++
  }

  remove(j: number): void {
    const run = this.items, e = this.est[j]
    let lo = 0, hi = this.len
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.est[run[mid]] < e) lo = mid + 1; else hi = mid
    }
    while (run[lo] !== j) lo++
    run.copyWithin(lo, lo + 1, this.len)
    this.len--
  }
}
