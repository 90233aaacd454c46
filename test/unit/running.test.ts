// The running-job structures both EASY simulators share (src/core/sim/running.ts), against a plain
// model: a list of (end, job) kept sorted by the rule each structure promises.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ByEstimatedEnd, EndHeap } from '../../src/core/sim/running'

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
  it('worked by hand: sorted by estimated end, ties in insertion order, keys beside their jobs', () => {
    const b = new ByEstimatedEnd(5)
    b.insert(3, 50); b.insert(1, 20); b.insert(4, 50); b.insert(0, 20); b.insert(2, 10)
    expect(Array.from(b.items.subarray(0, b.len))).toEqual([2, 1, 0, 3, 4])
    expect(Array.from(b.keys.subarray(0, b.len))).toEqual([10, 20, 20, 50, 50])
    b.remove(0, 20); b.remove(3, 50)
    expect(Array.from(b.items.subarray(0, b.len))).toEqual([2, 1, 4])
    const taken = new Int32Array(2)
    b.takeFirst(2, taken)
    expect([Array.from(taken), Array.from(b.items.subarray(0, b.len)), Array.from(b.keys.subarray(0, b.len))]).toEqual([[2, 1], [4], [50]])
  })

  it('holds what a stable sort of the running jobs by estimated end holds, whatever the inserts and removals', () => {
    fc.assert(fc.property(ops, (list) => {
      const b = new ByEstimatedEnd(list.length)
      let model: [number, number][] = [] // (key, job) in insertion order
      let next = 0
      for (const op of list) {
        if ('start' in op) { const j = next++; b.insert(j, op.start); model.push([op.start, j]) }
        else if (model.length > 0) {
          const [e, j] = model[op.end % model.length]
          b.remove(j, e)
          model = model.filter((x) => x[1] !== j)
        }
        const sorted = [...model].sort((x, y) => x[0] - y[0]) // stable: ties stay in insertion order
        expect(Array.from(b.items.subarray(0, b.len))).toEqual(sorted.map((x) => x[1]))
        expect(Array.from(b.keys.subarray(0, b.len))).toEqual(sorted.map((x) => x[0]))
      }
    }))
  })
})
