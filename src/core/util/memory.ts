// Big typed arrays, the one copy of each rule: when one owns its buffer and an exact copy of one
// (what crosses to a thread or process), freeing one at once (the import's columns, fidelity's
// per-job arrays, the sorts' scratch), and growing one with its contents (queues, heaps, lists).

/** Whether `a` views the whole of its buffer (then sending or transferring it moves no other bytes). */
export function ownsBuffer(a: ArrayBufferView): boolean {
  return a.byteOffset === 0 && a.byteLength === a.buffer.byteLength
}

/**
 * `a` in a buffer of its own length: `a` itself when it already is, else a copy. A message or a
 * transfer carries a view's whole buffer, so a column viewing part of a builder's larger buffer
 * (spare rows, or other columns) is copied before it crosses to another thread or process.
 */
export function exactCopy<T extends ArrayBufferView & { slice(): T }>(a: T): T {
  return ownsBuffer(a) ? a : a.slice()
}

/**
 * Frees a column's memory now, when it owns its whole buffer (the array then reads as empty):
 * garbage collection of big typed arrays lags far behind their use, so a copied chunk or a raw
 * column no longer needed would otherwise stay resident at the import's peak (docs/PERFORMANCE.md
 * §Import at scale). Without ArrayBuffer.prototype.transfer (older browsers) nothing happens.
 * `prefixOk`: also a view of the start of a longer buffer (a builder's columns, given up whole).
 */
export function releaseColumn(a: ArrayBufferView | undefined, prefixOk = false): void {
  if (a === undefined) return
  const b = a.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer }
  if (typeof b.transfer === 'function' && (prefixOk ? a.byteOffset === 0 : ownsBuffer(a))) b.transfer(0)
}

/**
 * A longer copy of `a` for a structure that grows with its contents (a queue, a heap, a list of
 * running jobs) rather than being sized for the whole log: twice as long (at least 16 and `min`,
 * at most `cap`), its first `keep` entries copied.
 */
export function grown(a: Int32Array, keep = a.length, min = 0, cap = Infinity): Int32Array<ArrayBuffer> {
  const b = new Int32Array(Math.min(cap, Math.max(min, 2 * a.length, 16)))
  b.set(a.subarray(0, keep))
  return b
}
