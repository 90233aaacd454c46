// The helpers that decide which typed arrays cross to another thread or process whole, and which
// are freed at once (src/core/util/memory.ts).
import { describe, expect, it } from 'vitest'
import { exactCopy, grown, ownsBuffer, releaseColumn } from '../../src/core/util/memory'

describe('ownsBuffer and exactCopy', () => {
  it('keeps an array that is its whole buffer, without a copy', () => {
    const a = Float64Array.of(1, 2, 3)
    expect(ownsBuffer(a)).toBe(true)
    expect(exactCopy(a)).toBe(a)
  })
  it('copies a prefix of a longer buffer (spare rows) and a view at an offset into buffers of their own length', () => {
    const buf = new ArrayBuffer(64)
    const prefix = new Int32Array(buf, 0, 3)
    prefix.set([4, 5, 6])
    const inner = new Int32Array(buf, 16, 2)
    inner.set([7, 8])
    for (const [v, want] of [[prefix, [4, 5, 6]], [inner, [7, 8]]] as const) {
      expect(ownsBuffer(v)).toBe(false)
      const c = exactCopy(v)
      expect(c).not.toBe(v)
      expect(c).toBeInstanceOf(Int32Array)
      expect(ownsBuffer(c)).toBe(true)
      expect(c.buffer.byteLength).toBe(want.length * 4)
      expect(Array.from(c)).toEqual(want)
    }
  })
})

describe('releaseColumn', () => {
  it('frees an array that owns its buffer, and a prefix only when told it may', () => {
    const own = new Float64Array(8)
    releaseColumn(own)
    expect(own.length).toBe(0)
    const prefix = new Float64Array(new ArrayBuffer(128), 0, 4)
    releaseColumn(prefix)
    expect(prefix.length).toBe(4) // another column may live past it
    releaseColumn(prefix, true)
    expect(prefix.length).toBe(0)
    const inner = new Float64Array(new ArrayBuffer(128), 8, 4)
    releaseColumn(inner, true)
    expect(inner.length).toBe(4) // not at the start: never freed
    expect(() => releaseColumn(undefined)).not.toThrow()
  })
})

describe('grown', () => {
  it('doubles, keeps the first `keep` entries, and honours the least length and the cap', () => {
    const a = Int32Array.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20)
    const b = grown(a)
    expect(b.length).toBe(40)
    expect(Array.from(b.subarray(0, 20))).toEqual(Array.from(a))
    expect(b[20]).toBe(0)
    const c = grown(a, 3, 100)
    expect(c.length).toBe(100)
    expect(Array.from(c.subarray(0, 4))).toEqual([1, 2, 3, 0]) // only `keep` entries copied
    expect(grown(a, 20, 0, 25).length).toBe(25) // never past the cap (a queue never holds more than n jobs)
    expect(grown(new Int32Array(0)).length).toBe(16) // an empty start grows too
  })
})
