// Line-aligned chunks of a decompressed byte stream, for parsing in parallel (src/node/parse-parallel.ts):
// each chunk ends right after a line break that the sequential LineSplitter (lines.ts) would also
// see as one, so the chunks parsed one after the other read exactly the lines of the whole file.
import { LineSplitter } from './lines'
import { parseSwfChunk, type SwfChunk } from './swf'
import { parseTextChunk, type TextChunkPlan } from './text-chunks'
import type { TextChunk } from './text-parser'

/** A chunk parsed: SWF columns, or a text format's chunk (text-chunks.ts). */
export type Chunk = SwfChunk | TextChunk
/** What a parse thread is sent: the chunk's bytes, whether it opens the file, and the text format's plan (null: SWF). */
export interface ChunkJob { bytes: Uint8Array; first: boolean; plan: TextChunkPlan | null }

/** Parses one chunk (in a parse thread, or in the reading thread when none is used). */
export function parseChunk(job: ChunkJob): Chunk {
  return job.plan === null ? parseSwfChunk(job.bytes, job.first) : parseTextChunk(job.plan, job.bytes, job.first)
}

/**
 * Collects byte pieces and hands out chunks of at least `target` bytes that end at a line break:
 * after an LF (a CRLF ends with it), or after a CR whose next byte is known and is not an LF. A
 * run with no break for more than LineSplitter.MAX_LINE bytes is handed out as it is: its parser
 * refuses the over-long line with its number, as the sequential parser would.
 */
export class ChunkSplitter {
  private pieces: Uint8Array[] = []
  private bytes = 0

  /** `firstMin`: the first chunk holds at least this many bytes (sacct: past the header line,
   * text-chunks.ts), then it ends at the next line break as every chunk does. */
  constructor(private readonly target: number, private firstMin = 0) {
    if (!(target >= 1)) throw new RangeError(`chunk size must be at least 1 byte (got ${target})`)
  }

  /** The size the next chunk reaches at least. */
  private get want(): number {
    return Math.max(this.target, this.firstMin)
  }

  /** Adds a piece (it is copied only into the chunks handed out); returns the chunks now complete, in order. */
  push(piece: Uint8Array): Uint8Array[] {
    if (piece.length === 0) return []
    this.pieces.push(piece)
    this.bytes += piece.length
    const out: Uint8Array[] = []
    while (this.bytes >= this.want) {
      const cut = this.cutPoint()
      if (cut < 0) break
      out.push(this.take(cut))
      this.firstMin = 0
    }
    return out
  }

  /** The rest (possibly ending mid-line: the file's last line), or null when nothing is left. */
  end(): Uint8Array | null {
    return this.bytes === 0 ? null : this.take(this.bytes)
  }

  /**
   * Where to cut (a byte count from the start of what is held): the last line break at or after
   * `target` bytes is not needed; the first one at or after target − 1 keeps chunks near the target
   * size. -1 when no break is known yet (more bytes are needed).
   */
  private cutPoint(): number {
    const all = this.bytes
    let base = 0
    for (const p of this.pieces) {
      const from = Math.max(0, this.want - 1 - base)
      if (from < p.length) {
        for (let i = from; i < p.length; i++) {
          const b = p[i]
          if (b === 10) return base + i + 1
          if (b === 13) {
            const next = this.byteAt(base + i + 1)
            if (next === -1) return -1 // is it CRLF? the next byte decides
            if (next !== 10) return base + i + 1
          }
        }
      }
      base += p.length
    }
    if (all > LineSplitter.MAX_LINE + this.want) return all // no break: its parser refuses the line
    return -1
  }

  private byteAt(pos: number): number {
    let base = 0
    for (const p of this.pieces) {
      if (pos < base + p.length) return p[pos - base]
      base += p.length
    }
    return -1
  }

  /** Removes the first `n` bytes held, as one new array. */
  private take(n: number): Uint8Array {
    const out = new Uint8Array(n)
    let o = 0
    while (o < n) {
      const p = this.pieces[0]
      const k = Math.min(p.length, n - o)
      out.set(k === p.length ? p : p.subarray(0, k), o)
      o += k
      if (k === p.length) this.pieces.shift()
      else this.pieces[0] = p.subarray(k)
    }
    this.bytes -= n
    return out
  }
}
