// The deal of a sharded campaign's cells (src/core/tune/shards.ts): every cell exactly once, the
// same deal every time, shards as even as round robin makes them; Slurm's --array notation.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { arrayRange, dealShards } from '../../src/core/tune/shards'

describe('dealShards', () => {
  it('deals every cell to exactly one shard in range, the same way every time, sizes differing by at most one', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 1, max: 300 }), (cells, shards) => {
      const deal = dealShards(cells, shards)
      expect(deal.length).toBe(cells)
      expect(dealShards(cells, shards)).toEqual(deal)
      const size = new Array<number>(shards).fill(0)
      for (const s of deal) {
        expect(s >= 0 && s < shards && Number.isInteger(s)).toBe(true)
        size[s]++
      }
      // every cell counted once: the sizes add up to the cells
      expect(size.reduce((x, y) => x + y, 0)).toBe(cells)
      expect(Math.max(...size) - Math.min(...size)).toBeLessThanOrEqual(1)
    }))
  })

  it('deals round robin: 7 cells in 3 shards are 0 1 2 0 1 2 0', () => {
    expect([...dealShards(7, 3)]).toEqual([0, 1, 2, 0, 1, 2, 0])
    expect([...dealShards(3, 1)]).toEqual([0, 0, 0])
  })

  it('refuses 0 or a fractional number of shards', () => {
    expect(() => dealShards(5, 0)).toThrow(/at least 1/)
    expect(() => dealShards(5, 1.5)).toThrow(/whole number/)
  })
})

describe('arrayRange', () => {
  it('writes shard numbers as Slurm --array does', () => {
    expect(arrayRange([3])).toBe('3')
    expect(arrayRange([0, 1, 2, 3])).toBe('0-3')
    expect(arrayRange([7, 5, 0, 2, 6])).toBe('0,2,5-7')
    expect(arrayRange([4, 4, 5])).toBe('4-5')
  })
})
