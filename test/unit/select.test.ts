// The one quickselect (src/core/util/select.ts) against a sort, on random arrays with ties, and the
// campaign's nearest-rank quantile built on it (src/core/tune/campaign.ts nearestRank).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { selectKth } from '../../src/core/util/select'
import { nearestRank } from '../../src/core/tune/campaign'

const arrays = fc.array(fc.integer({ min: -5, max: 5 }), { minLength: 1, maxLength: 60 }) // few values: many ties

describe('selectKth', () => {
  it('puts at k what a sort puts there, nothing larger before it and nothing smaller after it', () => {
    fc.assert(fc.property(arrays, fc.nat(), (xs, kk) => {
      const a = Float64Array.from(xs)
      const k = kk % a.length
      selectKth(a, 0, a.length - 1, k)
      const sorted = [...xs].sort((x, y) => x - y)
      expect(a[k]).toBe(sorted[k])
      for (let i = 0; i < k; i++) expect(a[i]).toBeLessThanOrEqual(a[k])
      for (let i = k + 1; i < a.length; i++) expect(a[i]).toBeGreaterThanOrEqual(a[k])
      expect([...a].sort((x, y) => x - y)).toEqual(sorted) // a permutation of the input
    }), { numRuns: 500 })
  })

  it('the nearest-rank quantile: the ⌈q·n⌉-th smallest (the 99th percentile of 1..200 is 198)', () => {
    expect(nearestRank(Float64Array.from({ length: 200 }, (_, i) => 200 - i), 200, 0.99)).toBe(198)
    expect(nearestRank(Float64Array.from([3, 1, 2]), 3, 0.99)).toBe(3)
    expect(nearestRank(new Float64Array(0), 0, 0.99)).toBe(0)
  })
})
