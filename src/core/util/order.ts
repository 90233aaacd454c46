// Sorting positions by keys, the one copy: cleaning orders an unsorted log by (submit, id, line)
// (workload/clean.ts) and fidelity ranks every job's waits (tune/fidelity.ts). Logs and waits are
// nearly always whole seconds and whole ids below 2^32: then a least-significant-digit radix sort
// (two stable passes of 16 bits per key, no comparator call), else the comparator sort.

import { releaseColumn } from './memory'

/** Any array of numbers read by position (the typed columns). */
type Keys = ArrayLike<number>

/**
 * The positions 0..n-1 in ascending order of (keys[0][i], keys[1][i], …), positions with equal
 * keys in position order. Radix when every key's first n values are whole numbers spanning less
 * than 2^32 (a column of whole seconds, ids with -1 for unknown…: each taken as value − least);
 * otherwise the comparator sort on `a[x] - a[y]` per key then `x - y` (a NaN compares as a tie,
 * as that comparator reads it).
 */
export function sortOrderBy(keys: readonly Keys[], n: number): Uint32Array {
  // Each key's least value, until one is not a whole-number key (then the comparator sort).
  const lows: number[] = []
  for (const k of keys) { const lo = radixLow(k, n); if (lo === null) break; lows.push(lo) }
  if (lows.length === keys.length) return radixOrder(keys, n, lows)
  // An array's sort, as cleaning always used: with a NaN the comparator is not an order, and the
  // result is then the one that sort gives (a typed array's sort differs there).
  const order = Array.from({ length: n }, (_, i) => i)
  order.sort((x, y) => {
    for (let k = 0; k < keys.length; k++) { const d = keys[k][x] - keys[k][y]; if (d) return d }
    return x - y
  })
  return Uint32Array.from(order)
}

/** sortOrderBy's radix sort: every key's first n values minus its `lows` entry (default 0) must
 * be whole numbers in [0, 2^32) (radixLow, allUint32). */
export function radixOrder(keys: readonly Keys[], n: number, lows: readonly number[] = keys.map(() => 0)): Uint32Array {
  const order = new Uint32Array(n), tmp = new Uint32Array(n), count = new Uint32Array(1 << 16)
  for (let i = 0; i < n; i++) order[i] = i
  // Least significant first: the last key's low half, its high half, …, the first key's high half.
  for (let k = keys.length - 1; k >= 0; k--) {
    radixPass(keys[k], lows[k], order, tmp, count, n, false)
    radixPass(keys[k], lows[k], tmp, order, count, n, true)
  }
  releaseColumn(tmp)
  return order
}

/** The least of a[0..n-1] when they are all whole numbers spanning less than 2^32, else null. */
export function radixLow(a: Keys, n: number): number | null {
  let lo = Infinity, hi = -Infinity
  for (let i = 0; i < n; i++) {
    const v = a[i]
    if (!Number.isInteger(v)) return null
    if (v < lo) lo = v
    if (v > hi) hi = v
  }
  return n === 0 ? 0 : hi - lo < 2 ** 32 ? lo : null
}

/** Whether a[0..n-1] are whole numbers in [0, 2^32). */
export function allUint32(a: Keys, n: number): boolean {
  for (let i = 0; i < n; i++) { const v = a[i]; if (v >>> 0 !== v) return false }
  return true
}

/** One stable counting pass: `to` = `from` ordered by the 16-bit digit (low or high half) of key[i] − lo. */
function radixPass(key: Keys, lo: number, from: Uint32Array, to: Uint32Array, count: Uint32Array, n: number, high: boolean): void {
  count.fill(0)
  if (high) for (let k = 0; k < n; k++) count[(key[from[k]] - lo) >>> 16]++
  else for (let k = 0; k < n; k++) count[(key[from[k]] - lo) & 0xffff]++
  let sum = 0
  for (let d = 0; d < count.length; d++) { const c = count[d]; count[d] = sum; sum += c }
  if (high) for (let k = 0; k < n; k++) { const i = from[k]; to[count[(key[i] - lo) >>> 16]++] = i }
  else for (let k = 0; k < n; k++) { const i = from[k]; to[count[(key[i] - lo) & 0xffff]++] = i }
}

/** A new array of a's type holding a[order[0]], …, a[order[n − 1]]. */
export function gather<T extends Float64Array | Float32Array | Int32Array | Uint8Array>(a: T, order: Uint32Array, n: number): T {
  const to = new (a.constructor as new (length: number) => T)(n)
  for (let k = 0; k < n; k++) to[k] = a[order[k]]
  return to
}

/**
 * Reorders columns in place so that position k holds what position order[k] held (order a
 * permutation of 0..n-1), following the permutation's cycles: no second copy of any column, so no
 * fresh memory for it (docs/PERFORMANCE.md §Fresh pages). The cycles are found once for all columns.
 */
export function permuteInPlace(columns: readonly { [i: number]: number }[], order: Uint32Array, n: number): void {
  const seen = new Uint8Array(n)
  const starts: number[] = []
  for (let s = 0; s < n; s++) {
    if (seen[s] !== 0 || order[s] === s) continue
    starts.push(s)
    for (let k = s; seen[k] === 0; k = order[k]) seen[k] = 1
  }
  for (const a of columns) {
    for (let c = 0; c < starts.length; c++) {
      const s = starts[c], first = a[s]
      let k = s
      for (;;) {
        const from = order[k]
        if (from === s) { a[k] = first; break }
        a[k] = a[from]
        k = from
      }
    }
  }
  releaseColumn(seen)
}
