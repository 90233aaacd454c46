// The line-aligned chunk splitter of the parallel parse (src/core/workload/chunks.ts): hand-worked
// cuts, and a seeded property test that the chunks, each read by its own LineSplitter, give the
// lines of the whole input with the same line numbers (docs/PERFORMANCE.md §Import at scale).
import { describe, expect, it } from 'vitest'
import { ChunkSplitter } from '../../src/core/workload/chunks'
import { LineSplitter } from '../../src/core/workload/lines'

const enc = (s: string) => new TextEncoder().encode(s)
const decoder = new TextDecoder('utf-8', { ignoreBOM: true }) // keeps a byte-order mark as U+FEFF
const dec = (b: Uint8Array) => decoder.decode(b)

function chunksOf(text: string, target: number, pieces: number[]): string[] {
  const s = new ChunkSplitter(target)
  const bytes = enc(text)
  const out: string[] = []
  let p = 0, k = 0
  while (p < bytes.length) {
    const n = Math.max(1, pieces[k++ % pieces.length])
    for (const c of s.push(bytes.subarray(p, p + n))) out.push(dec(c))
    p += n
  }
  const last = s.end()
  if (last !== null) out.push(dec(last))
  return out
}

function linesOf(parts: Uint8Array[]): string[] {
  // Each chunk numbers its lines from 1; the merge adds the lines of the chunks before.
  const lines: string[] = []
  let before = 0
  parts.forEach((part, i) => {
    const sp = new LineSplitter((b, s, e, n) => lines.push(`${n + before}:${dec(b.subarray(s, e))}`), i > 0)
    sp.feed(part)
    sp.end()
    before += sp.linesRead
  })
  return lines
}

describe('ChunkSplitter', () => {
  it('cuts after the first line break at or after target − 1 bytes', () => {
    // target 4: search from index 3; "ab\ncd\nef" → the break at 2 is too early, the next at 5 → "ab\ncd\n", "ef".
    expect(chunksOf('ab\ncd\nef', 4, [100])).toEqual(['ab\ncd\n', 'ef'])
    // target 3: index 2 is CR followed by LF → one break (CRLF): cut after the LF.
    expect(chunksOf('ab\r\ncd\n', 3, [100])).toEqual(['ab\r\n', 'cd\n'])
    // a lone CR is a break once the byte after it is known not to be LF.
    expect(chunksOf('ab\rcd\r', 3, [100])).toEqual(['ab\r', 'cd\r'])
  })

  it('waits for the byte after a CR that ends the bytes held', () => {
    const s = new ChunkSplitter(2)
    expect(s.push(enc('ab\r'))).toEqual([])
    expect(s.push(enc('\ncd')).map(dec)).toEqual(['ab\r\n'])
    expect(dec(s.end()!)).toBe('cd')
    expect(s.end()).toBeNull()
  })

  it('hands out a run without a line break once it is longer than a line may be', () => {
    const s = new ChunkSplitter(10)
    const big = new Uint8Array(LineSplitter.MAX_LINE + 11).fill(97)
    const out = s.push(big)
    expect(out.length).toBe(1)
    expect(out[0].length).toBe(big.length)
  })

  it('property: the chunks read one after the other give the whole input\'s lines, numbers and bytes (seeded)', () => {
    let seed = 12345
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
    const alphabet = ['a', 'b', ' ', '\n', '\r', '\r\n', '\n\n']
    for (let trial = 0; trial < 400; trial++) {
      let text = rnd() < 0.2 ? '\uFEFF' : '' // a byte-order mark belongs to the file's first line only
      const len = Math.floor(rnd() * 200)
      for (let i = 0; i < len; i++) text += alphabet[Math.floor(rnd() * alphabet.length)]
      const target = 1 + Math.floor(rnd() * 20)
      const pieces = Array.from({ length: 5 }, () => 1 + Math.floor(rnd() * 15))
      const chunks = chunksOf(text, target, pieces)
      expect(chunks.join('')).toBe(text)
      for (const c of chunks.slice(0, -1)) expect(enc(c).length).toBeGreaterThanOrEqual(target)
      expect(linesOf(chunks.map(enc))).toEqual(linesOf([enc(text)]))
    }
  })

  it('refuses a chunk size below one byte', () => {
    expect(() => new ChunkSplitter(0)).toThrow(/at least 1 byte/)
  })
})
