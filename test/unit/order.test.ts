// Sorting positions by keys and reordering columns in place (src/core/util/order.ts), against the
// obvious reference: Array.prototype.sort (stable) on the positions with the keys compared in
// turn, and a gather into a copy. Values are chosen to tie often, to differ in either 16-bit half
// of a 32-bit whole number, and (for the fallback) to be fractions, negatives, NaN or past 2^32.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { gather, permuteInPlace, radixLow, radixOrder, sortOrderBy } from '../../src/core/util/order'

const params = { seed: 20261129, numRuns: 300 }

function reference(keys: readonly number[][], n: number): number[] {
  return Array.from({ length: n }, (_, i) => i).sort((x, y) => {
    for (const k of keys) { const d = k[x] - k[y]; if (d) return d }
    return x - y
  })
}

/** Whole numbers below 2^32 that tie often and differ in the low half, the high half or both. */
const uint32Arb = fc.oneof(
  fc.integer({ min: 0, max: 3 }),
  fc.integer({ min: 0, max: 3 }).map((h) => h * 65536),
  fc.integer({ min: 0, max: 3 }).map((h) => h * 65536 + 65535),
  fc.constant(2 ** 32 - 1),
  fc.integer({ min: 0, max: 2 ** 32 - 1 }),
)
const anyArb = fc.oneof(uint32Arb, fc.constant(-1), fc.constant(0.5), fc.constant(2 ** 32), fc.constant(Number.NaN), fc.double({ noNaN: true, min: -1e6, max: 1e6 }))

const keysArb = (value: fc.Arbitrary<number>) => fc.integer({ min: 0, max: 60 }).chain((n) =>
  fc.array(fc.array(value, { minLength: n, maxLength: n }), { minLength: 1, maxLength: 3 }).map((keys) => ({ n, keys })))

describe('sortOrderBy', () => {
  it('whole numbers below 2^32 (the radix sort): the stable sort by the keys in turn, ties by position', () => {
    fc.assert(fc.property(keysArb(uint32Arb), ({ n, keys }) => {
      const cols = keys.map((k) => Float64Array.from(k))
      expect([...sortOrderBy(cols, n)]).toEqual(reference(keys, n))
      expect([...radixOrder(cols, n)]).toEqual(reference(keys, n))
    }), params)
  })
  it('whole numbers spanning less than 2^32 from any start (ids with -1 for unknown, epoch times): radix on value − least, the same order', () => {
    const windowArb = fc.tuple(fc.constantFrom(-1, -(2 ** 40), 1.7e9, 2 ** 45), fc.array(uint32Arb, { minLength: 1, maxLength: 60 }))
      .map(([base, vs]) => vs.map((v) => base + v))
    fc.assert(fc.property(fc.array(windowArb, { minLength: 1, maxLength: 3 }), (cols) => {
      const n = Math.min(...cols.map((c) => c.length))
      const keys = cols.map((c) => Float64Array.from(c.slice(0, n)))
      for (const k of keys) expect(radixLow(k, n)).toBe(n === 0 ? 0 : Math.min(...k))
      expect([...sortOrderBy(keys, n)]).toEqual(reference(keys.map((k) => [...k]), n))
    }), params)
    expect(radixLow(Float64Array.of(-1, 2 ** 32 - 1), 2)).toBeNull() // spans 2^32
    expect(radixLow(Float64Array.of(0, 0.5), 2)).toBeNull()
    expect(radixLow(Float64Array.of(3, Number.NaN), 2)).toBeNull()
  })
  it('any numbers (the comparator sort where the radix cannot go): the same order as the reference', () => {
    fc.assert(fc.property(keysArb(anyArb), ({ n, keys }) => {
      expect([...sortOrderBy(keys.map((k) => Float64Array.from(k)), n)]).toEqual(reference(keys, n))
    }), params)
  })
  it('worked by hand: (submit, id, line) of five jobs, two submitted at once with ids out of order', () => {
    const submit = Float64Array.of(100, 50, 100, 70_000, 100), id = Float64Array.of(3, 9, 2, 1, 3), line = Float64Array.of(2, 3, 4, 5, 6)
    // submit 50 (pos 1); then 100 with ids 2 (pos 2), 3 (pos 0, line 2), 3 (pos 4, line 6); then 70,000 (pos 3, high half 1).
    expect([...sortOrderBy([submit, id, line], 5)]).toEqual([1, 2, 0, 4, 3])
  })
  it('only the first n values count', () => {
    expect([...sortOrderBy([Float64Array.of(3, 1, 2, -5)], 3)]).toEqual([1, 2, 0])
  })
})

describe('gather and permuteInPlace', () => {
  it('gather copies in the order; in place, every column ends as that copy, and nothing past n moves', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 80 }).chain((n) => fc.tuple(fc.constant(n), fc.shuffledSubarray(Array.from({ length: n }, (_, i) => i), { minLength: n, maxLength: n }))), ([n, perm]) => {
      const a = Float64Array.from({ length: n + 2 }, (_, i) => i * 1.5)
      const b = Int32Array.from({ length: n + 2 }, (_, i) => 1000 - i)
      const c = Uint8Array.from({ length: n + 2 }, (_, i) => i % 7)
      const expected = [a, b, c].map((col) => [...Array.from({ length: n }, (_, k) => col[perm[k]]), col[n], col[n + 1]])
      const order = Uint32Array.from(perm)
      expect([a, b, c].map((col) => [...gather(col, order, n)])).toEqual(expected.map((e) => e.slice(0, n)))
      permuteInPlace([a, b, c], order, n)
      expect([[...a], [...b], [...c]]).toEqual(expected)
    }), params)
  })
})
