import { InputError } from './errors'

/**
 * Splits a stream of byte chunks into lines without ever holding the whole file as one string.
 * Each complete line is handed to `onLine(bytes, start, end, lineNo)` as a range of a buffer that
 * is only valid during the call. A line ends at LF, CRLF or a lone CR (old Mac files, and files
 * whose LFs were lost), in any mix; lines may be split across chunks. A UTF-8 byte-order mark at
 * the start of the file is dropped. A line longer than 1 MiB refuses the whole file with its line
 * number (reason code `line-too-long`): no job log has such lines.
 *
 * With `onLines`, the lines that lie whole inside a chunk go to it as one range instead, one call per
 * chunk (a parser that finds the line breaks itself while it reads its fields, as the SWF parser
 * does, saves a search and a call per line): `onLines(bytes, start, end, firstLineNo)` gets a range
 * that ends just after a line break, reads its lines (a line ends at LF, CRLF or a lone CR), checks
 * each against MAX_LINE, and returns how many it read. Lines split across chunks still go to `onLine`.
 */
export class LineSplitter {
  private carry: Uint8Array = new Uint8Array(0)
  private lineNo = 0
  private sawBytes = false
  /** The previous chunk ended with CR: an LF opening the next chunk belongs to that line break. */
  private pendingCr = false
  static readonly MAX_LINE = 1 << 20

  /** `continuation`: the bytes continue a file from a line boundary (a chunk of a parallel parse,
   * src/core/workload/chunks.ts): no text check and no byte-order mark, which belong to the file's start. */
  constructor(private readonly onLine: (buf: Uint8Array, start: number, end: number, lineNo: number) => void, continuation = false,
    private readonly onLines: ((buf: Uint8Array, start: number, end: number, firstLineNo: number) => number) | null = null) {
    this.sawBytes = continuation
    this.continuation = continuation
  }

  private readonly continuation: boolean

  get linesRead(): number { return this.lineNo }

  feed(chunk: Uint8Array): void {
    if (chunk.length === 0) return
    if (!this.sawBytes) {
      this.sawBytes = true
      checkText(chunk)
    }
    let pos = 0
    if (this.pendingCr) {
      this.pendingCr = false
      if (chunk[0] === 10) pos = 1
    }
    if (this.carry.length > 0) {
      // Finish the carried partial line with the head of this chunk.
      const brk = firstBreak(chunk, pos)
      if (brk < 0) {
        this.appendCarry(chunk.subarray(pos))
        return
      }
      const joined = new Uint8Array(this.carry.length + brk - pos)
      joined.set(this.carry, 0)
      joined.set(chunk.subarray(pos, brk), this.carry.length)
      this.carry = new Uint8Array(0)
      this.emit(joined, 0, joined.length)
      pos = this.afterBreak(chunk, brk)
    }
    if (this.onLines !== null) {
      const last = lastBreak(chunk, pos)
      if (last >= 0) {
        if (this.lineNo === 0 && !this.continuation && chunk[pos] === 0xef && chunk[pos + 1] === 0xbb && chunk[pos + 2] === 0xbf) pos += 3
        this.lineNo += this.onLines(chunk, pos, last + 1, this.lineNo + 1)
        pos = this.afterBreak(chunk, last)
      }
      if (pos < chunk.length) this.appendCarry(chunk.subarray(pos))
      return
    }
    // Next LF and next CR at or after pos, each searched again only once passed (linear time).
    let lf = chunk.indexOf(10, pos)
    let cr = chunk.indexOf(13, pos)
    for (;;) {
      if (lf >= 0 && lf < pos) lf = chunk.indexOf(10, pos)
      if (cr >= 0 && cr < pos) cr = chunk.indexOf(13, pos)
      const brk = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr)
      if (brk < 0) break
      this.emit(chunk, pos, brk)
      pos = this.afterBreak(chunk, brk)
    }
    if (pos < chunk.length) this.appendCarry(chunk.subarray(pos))
  }

  end(): void {
    if (this.carry.length > 0) {
      const c = this.carry
      this.carry = new Uint8Array(0)
      this.emit(c, 0, c.length)
    }
  }

  /** Position after the line break at `brk` (CRLF is one break; a CR at the chunk's end may be). */
  private afterBreak(chunk: Uint8Array, brk: number): number {
    if (chunk[brk] !== 13) return brk + 1
    if (brk + 1 === chunk.length) { this.pendingCr = true; return brk + 1 }
    return chunk[brk + 1] === 10 ? brk + 2 : brk + 1
  }

  private tooLong(): never {
    throw lineTooLong(this.lineNo + 1)
  }

  private appendCarry(part: Uint8Array): void {
    if (this.carry.length + part.length > LineSplitter.MAX_LINE) this.tooLong()
    const next = new Uint8Array(this.carry.length + part.length)
    next.set(this.carry, 0)
    next.set(part, this.carry.length)
    this.carry = next
  }

  private emit(buf: Uint8Array, start: number, end: number): void {
    if (end - start > LineSplitter.MAX_LINE) this.tooLong()
    this.lineNo++
    if (this.lineNo === 1 && !this.continuation && end - start >= 3 && buf[start] === 0xef && buf[start + 1] === 0xbb && buf[start + 2] === 0xbf) start += 3
    this.onLine(buf, start, end, this.lineNo)
  }
}

/** The error for a line longer than LineSplitter.MAX_LINE (line n of the file). */
export function lineTooLong(n: number): InputError {
  return new InputError(`line ${n} is longer than 1 MiB: this is not a job log (or it has no line breaks)`, n, 'line-too-long')
}

/** Index of the first LF or CR at or after `from`, or -1. */
export function firstBreak(chunk: Uint8Array, from: number): number {
  for (let i = from; i < chunk.length; i++) {
    const b = chunk[i]
    if (b === 10 || b === 13) return i
  }
  return -1
}

/** Index of the last LF or CR at or after `from`, or -1 (searched from the end: a chunk's last line
 * break is usually a line's length from its end). */
function lastBreak(chunk: Uint8Array, from: number): number {
  for (let i = chunk.length - 1; i >= from; i--) {
    const b = chunk[i]
    if (b === 10 || b === 13) return i
  }
  return -1
}

/** Drops a UTF-8 byte-order mark (U+FEFF) at the start of a text read whole (project files, headers). */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}

/** Rejects binary input early: NUL bytes or mostly non-text bytes in the first chunk. */
export function checkText(head: Uint8Array): void {
  const n = Math.min(head.length, 4096)
  let bad = 0
  for (let i = 0; i < n; i++) {
    const b = head[i]
    if (b === 0) throw new InputError('the file contains NUL bytes: it is binary, not a text job log (a compressed file other than gzip?)', 1)
    if (b < 9 || (b > 13 && b < 32) || b === 127) bad++
  }
  if (n > 0 && bad / n > 0.05) throw new InputError('the file is not text: it looks binary, not a job log', 1)
}

const decoder = new TextDecoder('utf-8', { fatal: false })
/** Decodes a line range to a string (for the slower, text-based formats). */
export function lineText(buf: Uint8Array, start: number, end: number): string {
  return decoder.decode(buf.subarray(start, end))
}
