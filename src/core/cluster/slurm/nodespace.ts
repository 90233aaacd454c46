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
  begin = 0
  end = 0

  constructor(nodeCount: number) {
    this.head = new Int32Array(nodeCount).fill(-1)
    this.touched = new Int32Array(nodeCount)
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
    const r = this.count++
    if (r >= this.rStart.length) this.growResv()
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
  }

  /**
   * The candidate walk of one try (SLURM-SCHEDULER.md §2.5 step 7): every node of a reservation
   * overlapping the window [s, e] (INCLUSIVE: end > s and start ≤ e, so a job ending exactly when a
   * reservation begins overlaps it) is marked in `blocked` (1) if `inCand(node)`; the marked nodes
   * are appended to `out` (for the caller's reset). Returns later_start: the earliest time after
   * s at which a blocked candidate node becomes free of reservations again (0 = none before the
   * map's end).
   */
  block(s: number, e: number, inCand: Uint8Array, blocked: Uint8Array, out: Int32Array, outLen: { n: number }): number {
    let later = 0
    for (let r = 0; r < this.count; r++) {
      const re = this.rEnd[r]
      if (!(re > s) || this.rStart[r] > e) continue
      const off = this.rOff[r], len = this.rLen[r]
      let any = false
      for (let k = off; k < off + len; k++) {
        const i = this.pool[k]
        if (inCand[i] === 0) continue
        any = true
        if (blocked[i] === 0) { blocked[i] = 1; out[outLen.n++] = i }
      }
      // The node frees at re unless another reservation holds it from re on (back to back).
      if (any && re < this.end && (later === 0 || re < later)) {
        for (let k = off; k < off + len; k++) {
          const i = this.pool[k]
          if (inCand[i] !== 0 && !this.heldFrom(i, re)) { later = re; break }
        }
      }
    }
    return later
  }

  /** True when node i has a reservation starting exactly at t. */
  private heldFrom(i: number, t: number): boolean {
    for (let e = this.head[i]; e >= 0; e = this.entNext[e]) if (this.rStart[this.entResv[e]] === t) return true
    return false
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
  }

  private growPool(): void {
    const n = this.pool.length * 2
    const p = new Int32Array(n); p.set(this.pool); this.pool = p
    const a = new Int32Array(n); a.set(this.entNext); this.entNext = a
    const b = new Int32Array(n); b.set(this.entResv); this.entResv = b
  }
}
