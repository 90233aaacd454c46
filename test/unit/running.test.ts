// The running-job structures both EASY simulators share (src/core/sim/running.ts), against a plain
// model: a list of (end, job) kept sorted by the rule each structure promises.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ByEstimatedEnd, EndHeap, GONE } from '../../src/core/sim/running'

// ops: start a job with an end (times from a small set, so that ties are common) or end one
const ops = fc.array(fc.oneof(fc.record({ start: fc.integer({ min: 0, max: 6 }) }), fc.record({ end: fc.nat() })), { maxLength: 200 })

describe('EndHeap', () => {
  it('worked by hand: the smallest end first, ties by the smaller job', () => {
    const h = new EndHeap(4)
    h.push(7, 30); h.push(2, 10); h.push(5, 10); h.push(1, 20)
    const out: number[][] = []
    while (h.len > 0) { const e = h.topEnd(); out.push([h.pop(), e]) }
    expect(out).toEqual([[2, 10], [5, 10], [1, 20], [7, 30]])
  })

  it('pops what a sorted list of (end, job) gives, whatever the pushes and pops', () => {
    fc.assert(fc.property(ops, (list) => {
      const h = new EndHeap(list.length)
      const model: [number, number][] = []
      let next = 0
      for (const op of list) {
        if ('start' in op) { const j = next++; h.push(j, op.start); model.push([op.start, j]) }
        else if (model.length > 0) {
          model.sort((a, b) => a[0] - b[0] || a[1] - b[1])
          const [e, j] = model.shift()!
          expect(h.topEnd()).toBe(e)
          expect(h.pop()).toBe(j)
        }
        expect(h.len).toBe(model.length)
      }
    }))
  })

  it('refuses more running jobs than its capacity instead of writing past it', () => {
    const h = new EndHeap(1)
    h.push(0, 1)
    expect(() => h.push(1, 2)).toThrow(RangeError)
  })
})

describe('ByEstimatedEnd', () => {
  // both ways of knowing a job's estimated end: a column the simulator keeps, or start + span
  const bothWays = (n: number, end: (j: number) => number) => {
    const est = Float64Array.from({ length: n }, (_, j) => end(j))
    const start = Float64Array.from({ length: n }, (_, j) => j % 3) // any split of the same sums
    const span = Float64Array.from({ length: n }, (_, j) => end(j) - (j % 3))
    return [new ByEstimatedEnd(n, est), new ByEstimatedEnd(n, null, start, span)]
  }
  /** The running jobs in order (the slots that are not gone), and their ends. */
  const listed = (b: ByEstimatedEnd) => Array.from(b.items.subarray(0, b.len)).filter((j) => j !== GONE)
  const endsListed = (b: ByEstimatedEnd) => Array.from(b.ends.subarray(0, b.len)).filter((_, r) => b.items[r] !== GONE)

  it('worked by hand: sorted by estimated end, ties in insertion order', () => {
    const ends = [20, 20, 10, 50, 50]
    for (const b of bothWays(5, (j) => ends[j])) {
      b.insert(3); b.insert(1); b.insert(4); b.insert(0); b.insert(2)
      expect(listed(b)).toEqual([2, 1, 0, 3, 4])
      expect(listed(b).map((j) => b.endOf(j))).toEqual([10, 20, 20, 50, 50])
      b.remove(0); b.remove(3)
      expect(listed(b)).toEqual([2, 1, 4])
      const taken = new Int32Array(2)
      b.takeFirst(2, taken)
      expect([Array.from(taken), listed(b)]).toEqual([[2, 1], [4]])
      expect(endsListed(b)).toEqual([50])
    }
  })

  it('holds what a stable sort of the running jobs by estimated end holds, whatever the inserts and removals', () => {
    fc.assert(fc.property(ops, (list) => {
      const starts = list.filter((op) => 'start' in op).map((op) => (op as { start: number }).start)
      for (const b of bothWays(starts.length, (j) => starts[j])) {
        let model: number[] = [] // running jobs in insertion order
        let next = 0
        for (const op of list) {
          if ('start' in op) { const j = next++; b.insert(j); model.push(j) }
          else if (model.length > 0) {
            const j = model[op.end % model.length]
            b.remove(j)
            model = model.filter((x) => x !== j)
          }
          const sorted = [...model].sort((x, y) => starts[x] - starts[y]) // stable: ties stay in insertion order
          expect(listed(b)).toEqual(sorted)
          expect(b.count).toBe(model.length)
          expect(endsListed(b)).toEqual(sorted.map((j) => starts[j])) // each end beside its job
        }
      }
    }))
  })

  it('keeps each end beside its job through long shifts (more running jobs than a short shift moves)', () => {
    // 60 starts first, so that the list grows past SHORT_SHIFT (32) and inserts and removals near
    // its head move many entries at once (copyWithin rather than the loop); then any operations.
    const start = fc.record({ start: fc.integer({ min: 0, max: 100 }) })
    const long = fc.tuple(fc.array(start, { minLength: 60, maxLength: 60 }), fc.array(fc.oneof(start, fc.record({ end: fc.nat() })), { maxLength: 200 })).map(([a, b]) => [...a, ...b])
    fc.assert(fc.property(long, (list) => {
      const starts = list.filter((op) => 'start' in op).map((op) => (op as { start: number }).start)
      const [b] = bothWays(starts.length, (j) => starts[j])
      let model: number[] = []
      let next = 0
      let longest = 0
      for (const op of list) {
        if ('start' in op) { const j = next++; b.insert(j); model.push(j) }
        else if (model.length > 0) { const j = model[op.end % model.length]; b.remove(j); model = model.filter((x) => x !== j) }
        longest = Math.max(longest, model.length)
      }
      const sorted = [...model].sort((x, y) => starts[x] - starts[y])
      expect(listed(b)).toEqual(sorted)
      expect(endsListed(b)).toEqual(sorted.map((j) => starts[j]))
      expect(b.count).toBe(model.length)
      expect(longest).toBeGreaterThanOrEqual(60)
    }))
  })

  it('worked by hand: a job ending far from the end leaves a gone slot, which a later job takes or shifts into', () => {
    // Jobs 0..39 end at 10, 20, …, 400; job 40 at 25, 41 at 15. A removal with more than 32
    // entries after it leaves a gone slot instead of shifting them.
    const ends = [...Array.from({ length: 40 }, (_, j) => 10 * (j + 1)), 25, 15]
    for (const b of bothWays(42, (j) => ends[j])) {
      for (let j = 0; j < 40; j++) b.insert(j)
      b.remove(1)
      expect(Array.from(b.items.subarray(0, 4))).toEqual([0, GONE, 2, 3])
      expect([b.len, b.count]).toEqual([40, 39])
      b.insert(40) // end 25: its place is just after the gone slot (end 20): it takes it
      expect(Array.from(b.items.subarray(0, 4))).toEqual([0, 40, 2, 3])
      expect([b.len, b.count]).toEqual([40, 40])
      b.remove(3) // slot 3 gone
      b.insert(41) // end 15: before 40 (25) and 2 (30), which shift into the gone slot 3
      expect(Array.from(b.items.subarray(0, 6))).toEqual([0, 41, 40, 2, 4, 5])
      expect(endsListed(b).slice(0, 6)).toEqual([10, 15, 25, 30, 50, 60])
      expect([b.len, b.count]).toEqual([40, 40])
      b.remove(39); b.remove(38) // near the end: the tail moves, no gone slot
      expect([b.len, b.count]).toEqual([38, 38])
      b.remove(4) // slot 4 gone (33 entries after it)
      expect(Array.from(b.items.subarray(0, 6))).toEqual([0, 41, 40, 2, GONE, 5])
      for (let j = 37; j >= 5; j--) b.remove(j) // each the last: the list ends there, and at last before the gone slot 4
      expect(Array.from(b.items.subarray(0, b.len))).toEqual([0, 41, 40, 2])
      expect([b.len, b.count]).toEqual([4, 4])
    }
  })

  it('squeezes the gone slots out once they outnumber the running jobs', () => {
    const [b] = bothWays(100, (j) => j)
    for (let j = 0; j < 100; j++) b.insert(j)
    for (let j = 0; j <= 58; j += 2) b.remove(j) // 30 gone slots (each with more than 32 entries after it)
    expect([b.len, b.count]).toEqual([100, 70])
    for (let j = 1; j <= 39; j += 2) b.remove(j) // 50 gone: not more than the 50 slots left
    expect([b.len, b.count]).toEqual([100, 50])
    b.remove(41) // the 51st gone slot outnumbers the 49 jobs left
    expect([b.len, b.count]).toEqual([49, 49])
    const left = [43, 45, 47, 49, 51, 53, 55, 57, 59, ...Array.from({ length: 40 }, (_, k) => 60 + k)]
    expect(listed(b)).toEqual(left)
    expect(endsListed(b)).toEqual(left)
  })

  it('refuses more running jobs than its capacity instead of writing past it', () => {
    const [b] = bothWays(1, () => 1)
    b.insert(0)
    expect(() => b.insert(0)).toThrow(RangeError)
  })
})
