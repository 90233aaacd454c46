// The duplicate-id count of cleaning (src/core/workload/clean.ts countDuplicates): without a Set of
// every id, the same count and example lines as walking the jobs in order (worked by hand).
import { describe, expect, it } from 'vitest'
import { importText } from '../../src/core/workload/import'

const swf = (ids: number[]) => ['; MaxProcs: 64', ...ids.map((id, k) => `${id} ${k * 10} 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1`)].join('\n') + '\n'
const dup = (ids: number[]) => importText(swf(ids)).report.rules.find((r) => r.rule === 'duplicate-id')!

describe('duplicate ids', () => {
  it('counts each later occurrence of an id, in order, and ignores unknown ids (-1)', () => {
    // Jobs on lines 2…9 with ids 5 3 5 -1 3 7 5 -1: repeats at lines 4 (5), 6 (3), 8 (5); -1 twice is not a repeat.
    const r = dup([5, 3, 5, -1, 3, 7, 5, -1])
    expect(r.count).toBe(3)
    expect(r.exampleLines).toEqual([4, 6, 8])
  })
  it('finds none in increasing ids with unknown ones between', () => {
    expect(dup([1, 2, -1, 3, 10]).count).toBe(0)
  })
  it('finds a repeat of the id just before', () => {
    const r = dup([4, 4, 9])
    expect(r.count).toBe(1)
    expect(r.exampleLines).toEqual([3])
  })
})
