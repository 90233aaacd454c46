import { InputError } from './errors'

/**
 * Splits a stream of byte chunks into lines without ever holding the whole file as one string.
 * Each complete line is handed to `onLine(bytes, start, end, lineNo)` as a range of a buffer that
 * is only valid during the call. Handles \n and \r\n, and lines split across chunks.
 */
export class LineSplitter {
  private carry: Uint8Array = new Uint8Array(0)
  private lineNo = 0
  private sawBytes = false
  static readonly MAX_LINE = 1 << 20

  constructor(private readonly onLine: (buf: Uint8Array, start: number, end: number, lineNo: number) => void) {}

  get linesRead(): number { return this.lineNo }

  feed(chunk: Uint8Array): void {
    if (chunk.length === 0) return
    if (!this.sawBytes) {
      this.sawBytes = true
      checkText(chunk)
    }
    const buf = chunk
    let pos = 0
    if (this.carry.length > 0) {
      // Finish the carried partial line with the head of this chunk.
      const nl = chunk.indexOf(10)
      if (nl < 0) {
        this.appendCarry(chunk)
        return
      }
      const joined = new Uint8Array(this.carry.length + nl + 1)
      joined.set(this.carry, 0)
      joined.set(chunk.subarray(0, nl + 1), this.carry.length)
      this.carry = new Uint8Array(0)
      this.emit(joined, 0, joined.length - 1)
      pos = nl + 1
    }
    for (;;) {
      const nl = buf.indexOf(10, pos)
      if (nl < 0) break
      this.emit(buf, pos, nl)
      pos = nl + 1
    }
    if (pos < buf.length) this.appendCarry(buf.subarray(pos))
  }

  end(): void {
    if (this.carry.length > 0) {
      const c = this.carry
      this.carry = new Uint8Array(0)
      this.emit(c, 0, c.length)
    }
  }

  private appendCarry(part: Uint8Array): void {
    if (this.carry.length + part.length > LineSplitter.MAX_LINE) {
      throw new InputError(`line ${this.lineNo + 1} is longer than 1 MiB: this is not a job log (or it has no line breaks)`, this.lineNo + 1)
    }
    const next = new Uint8Array(this.carry.length + part.length)
    next.set(this.carry, 0)
    next.set(part, this.carry.length)
    this.carry = next
  }

  private emit(buf: Uint8Array, start: number, end: number): void {
    this.lineNo++
    if (end > start && buf[end - 1] === 13) end--
    this.onLine(buf, start, end, this.lineNo)
  }
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
