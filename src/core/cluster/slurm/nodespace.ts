// The backfill cycle's node_space map (docs/CLUSTER.md §Slurm scheduling, "The node_space map"):
// which WHOLE nodes are planned for pending jobs, and when. Slurm keeps a list of time slots, each
// with the bitmap of nodes still free of backfill reservations; a reservation removes its nodes,
// whole, from every slot in [start, end), also under cons_tres (a node planned for a job is
// unusable by any other job whose run window touches that time, even if cores stay idle on it).
//
// Stored here as the list of reservations (start, end, nodes) instead of slot bitmaps: a node is
// missing from some slot overlapping a window exactly when one of its reservations overlaps that
// window, so the answers are the same, and the cost is O(reservations + their nodes) per query
// instead of O(slots × nodes). Times are the simulation clock (seconds); the map begins at the
// cycle's rounded start and ends at its rounded window end: reservations are clipped to it.
import { grown } from '../../util/memory'

export class NodeSpace {
  private count = 0
  private rStart = new Float64Array(64)
  private rEnd = new Float64Array(64)
  private rOff = new Int32Array(64)
  private rLen = new Int32Array(64)
  private pool = new Int32Array(256)
  private poolTop = 0
  /** Per node: the first reservation entry holding it (-1 none), entries chained. */
  private readonly head: Int32Array
  private entNext = new Int32Array(256)
  private entResv = new Int32Array(256)
  private touched: Int32Array
  private touchedLen = 0
  // Reservations sorted by start and by end (for the later_start sweep), and per-node coverage counts.
  private byStart = new Int32Array(64)
  private byEnd = new Int32Array(64)
  private readonly cover: Int32Array
  private readonly coverList: Int32Array
  private coverLen = 0
  private raised = new Int32Array(256)
  private raisedLen = 0
  begin = 0
  end = 0

  constructor(nodeCount: number) {
    this.head = new Int32Array(nodeCount).fill(-1)
    this.touched = new Int32Array(nodeCount)
    this.cover = new Int32Array(nodeCount)
    this.coverList = new Int32Array(nodeCount)
  }

  get size(): number { return this.count }

  /** Empties the map for a new cycle covering [begin, end). */
  reset(begin: number, end: number): void {
    for (let k = 0; k < this.touchedLen; k++) this.head[this.touched[k]] = -1
    this.touchedLen = 0
    this.count = 0
    this.poolTop = 0
    this.begin = begin
    this.end = end
  }

  /**
   * Plans whole nodes `nodes[0..len)` for [start, end) (already rounded by bf_resolution). Like
   * Slurm's _add_reservation: the start is clipped to the map's start, the reservation holds at
   * least one resolution step, and the end is clipped to the map's end.
   */
  add(start: number, end: number, resolution: number, nodes: Int32Array, len: number): void {
    if (start < this.begin) start = this.begin
    if (end < start + resolution) end = start + resolution
    if (end > this.end) end = this.end
    if (!(start < end)) return // beyond the map: nothing to plan
    const r = this.count
    if (r >= this.rStart.length) this.growResv()
    this.count++
    while (this.poolTop + len > this.pool.length) this.growPool()
    this.rStart[r] = start; this.rEnd[r] = end; this.rOff[r] = this.poolTop; this.rLen[r] = len
    for (let k = 0; k < len; k++) {
      const i = nodes[k]
      const e = this.poolTop++
      this.pool[e] = i
      this.entResv[e] = r
      if (this.head[i] < 0) this.touched[this.touchedLen++] = i
      this.entNext[e] = this.head[i]
      this.head[i] = e
    }
    insertSorted(this.byStart, r, this.rStart)
    insertSorted(this.byEnd, r, this.rEnd)
  }

  /**
   * The candidate walk of one try (the Slurm spec's §2.5 step 7): every node of a reservation
   * overlapping the window [s, e] (INCLUSIVE: end > s and start ≤ e, so a job ending exactly when a
   * reservation begins overlaps it) is marked in `blocked` (1) if `inCand(node)`; the marked nodes
   * are appended to `out` (for the caller's reset). Returns later_start (0 = none): Slurm walks the
   * slots from the one holding s and, at the end y of each slot (up to and including the first slot
   * that begins after e), asks whether the next slot offers a candidate node missing so far; the
   * first such y is later_start. Here the same walk is a sweep over the reservations' starts and
   * ends: y qualifies when a candidate node's last reservation ends at y and none starts at y.
   */
  block(s: number, e: number, inCand: Uint8Array, blocked: Uint8Array, out: Int32Array, outLen: { n: number }): number {
    const upTo = upperBound(this.byStart, this.rStart, e, this.count) // reservations starting by e
    for (let q = 0; q < upTo; q++) {
      const r = this.byStart[q]
      if (!(this.rEnd[r] > s)) continue
      const off = this.rOff[r], len = this.rLen[r]
      for (let k = off; k < off + len; k++) {
        const i = this.pool[k]
        if (inCand[i] !== 0 && blocked[i] === 0) { blocked[i] = 1; out[outLen.n++] = i }
      }
    }
    if (outLen.n === 0) return 0 // nothing blocked: no slot can offer a node missing so far
    return this.laterStart(s, e, inCand)
  }

  private laterStart(s: number, e: number, inCand: Uint8Array): number {
    const n = this.count
    const rs = this.rStart, re = this.rEnd
    // Coverage of the slot holding s: the reservations with start ≤ s < end.
    let a = upperBound(this.byStart, rs, s, n) // next start after s
    let b = upperBound(this.byEnd, re, s, n) // next end after s
    for (let k = 0; k < a; k++) { const r = this.byStart[k]; if (re[r] > s) this.cover1(r, 1, inCand, false) }
    let x = s
    let later = 0
    for (;;) {
      const ns = a < n ? rs[this.byStart[a]] : Infinity
      const ne = b < n ? re[this.byEnd[b]] : Infinity
      const y = ns < ne ? ns : ne
      if (!(y < this.end)) break // the last slot has no next slot
      // Ends at y first (nodes that may become free), then starts at y (nodes taken again).
      let freed = false
      while (b < n && re[this.byEnd[b]] <= y) if (this.cover1(this.byEnd[b++], -1, inCand, true)) freed = true
      while (a < n && rs[this.byStart[a]] <= y) this.cover1(this.byStart[a++], 1, inCand, false)
      if (freed) {
        for (let k = 0; k < this.coverLen; k++) {
          const i = this.coverList[k]
          if (this.cover[i] === 0) { later = y; break }
        }
      }
      this.coverLen = 0
      if (later !== 0 || x > e) break
      x = y
    }
    // Reset the coverage counts this walk raised.
    for (let k = 0; k < this.raisedLen; k++) this.cover[this.raised[k]] = 0
    this.raisedLen = 0
    this.coverLen = 0
    return later
  }

  /** Adds `d` to the coverage of reservation r's nodes; with `track`, lists candidate nodes that reach 0. */
  private cover1(r: number, d: number, inCand: Uint8Array, track: boolean): boolean {
    const off = this.rOff[r], len = this.rLen[r]
    let any = false
    for (let k = off; k < off + len; k++) {
      const i = this.pool[k]
      const c = (this.cover[i] += d)
      if (c === 1 && d > 0) { if (this.raisedLen >= this.raised.length) this.growRaised(); this.raised[this.raisedLen++] = i }
      if (track && c === 0 && inCand[i] !== 0) { this.coverList[this.coverLen++] = i; any = true }
    }
    return any
  }

  /**
   * Slurm's _test_resv_overlap: does any of `nodes` have a reservation in a slot overlapping
   * [start, end) (strict: slot end > start and slot begin < end)?
   */
  overlaps(nodes: Int32Array, len: number, start: number, end: number): boolean {
    for (let k = 0; k < len; k++) {
      for (let e = this.head[nodes[k]]; e >= 0; e = this.entNext[e]) {
        const r = this.entResv[e]
        if (this.rEnd[r] > start && this.rStart[r] < end) return true
      }
    }
    return false
  }

  private growResv(): void {
    const n = this.rStart.length * 2
    const grow = <T extends Float64Array | Int32Array>(a: T, make: (n: number) => T): T => { const b = make(n); b.set(a); return b }
    this.rStart = grow(this.rStart, (m) => new Float64Array(m))
    this.rEnd = grow(this.rEnd, (m) => new Float64Array(m))
    this.rOff = grow(this.rOff, (m) => new Int32Array(m))
    this.rLen = grow(this.rLen, (m) => new Int32Array(m))
    this.byStart = grow(this.byStart, (m) => new Int32Array(m))
    this.byEnd = grow(this.byEnd, (m) => new Int32Array(m))
  }

  private growRaised(): void {
    this.raised = grown(this.raised)
  }

  private growPool(): void {
    const n = this.pool.length * 2
    const p = new Int32Array(n); p.set(this.pool); this.pool = p
    const a = new Int32Array(n); a.set(this.entNext); this.entNext = a
    const b = new Int32Array(n); b.set(this.entResv); this.entResv = b
  }
}

/** Inserts reservation r into `order[0..r)` kept sorted by key (ties: earlier reservation first). */
function insertSorted(order: Int32Array, r: number, key: Float64Array): void {
  let lo = 0, hi = r
  const v = key[r]
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (key[order[mid]] <= v) lo = mid + 1
    else hi = mid
  }
  order.copyWithin(lo + 1, lo, r)
  order[lo] = r
}

/** The number of entries of `order[0..n)` (sorted by key) whose key is ≤ v. */
function upperBound(order: Int32Array, key: Float64Array, v: number, n: number): number {
  let lo = 0, hi = n
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (key[order[mid]] <= v) lo = mid + 1
    else hi = mid
  }
  return lo
}
