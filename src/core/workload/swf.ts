// Standard Workload Format parser (PWA swf.html, v2.2): 18 whitespace-separated numeric fields,
// -1 = unknown, `;` header comments. It works on raw bytes (no string per line) because SWF is the
// format of the big archive logs: a 1M-job log must import at ≥ 1M lines/s.
import { formatInt } from '../util/format'
import { BadLines, COL, RawJobsBuilder, emptyRow, exactColumns } from './builder'
import { LineSplitter, firstBreak, lineText, lineTooLong } from './lines'
import { MAX_COUNT, MAX_DURATION_SECONDS, MAX_EPOCH_SECONDS, MAX_EXACT } from './limits'
import type { LineIssue, LogParser, ParsedLog, RawJobs } from './types'

const FIELDS = 18
const MAX_FIELDS = 64

// SWF field numbers (1-based, as in the format's definition).
const F_ID = 1, F_SUBMIT = 2, F_WAIT = 3, F_RUNTIME = 4, F_ALLOC = 5, F_REQ_PROCS = 8, F_REQ_TIME = 9, F_STATUS = 11, F_USER = 12, F_PARTITION = 16
const FIELD_NAMES = ['', 'job number', 'submit time', 'wait time', 'run time', 'allocated processors', 'average CPU time',
  'used memory', 'requested processors', 'requested time', 'requested memory', 'status', 'user', 'group', 'application',
  'queue', 'partition', 'preceding job', 'think time']
/** Largest magnitude of each field (1-based; limits.ts): times and durations stay Date-safe, counts
 * fit an Int32Array, everything else is exact in a double. */
const FIELD_MAX = Float64Array.from(FIELD_NAMES, (_, f) =>
  f === F_SUBMIT ? MAX_EPOCH_SECONDS
    : f === F_WAIT || f === F_RUNTIME || f === F_REQ_TIME || f === 18 ? MAX_DURATION_SECONDS
      : f === F_ALLOC || f === F_REQ_PROCS || f === F_STATUS ? MAX_COUNT : MAX_EXACT)

/**
 * What parsing a run of whole lines gives before the log-level results (machine size, warnings):
 * the whole file, or one chunk of a parallel parse (src/core/workload/chunks.ts), whose line
 * numbers start at 1 and whose user and partition indices are its own until mergeSwfChunks.
 */
export interface SwfChunk {
  jobs: RawJobs
  users: string[]
  /** Partition names (field 16 as text), null when no job has one. */
  partitions: string[] | null
  header: Record<string, string>
  extraColumns: number
  firstExtraLine: number
  badLines: number
  badLineExamples: LineIssue[]
  linesRead: number
}

/** The shortest SWF job line: 18 one-digit fields, 17 separators and the line break. */
export const MIN_SWF_JOB_BYTES = 36

export function createSwfParser(): LogParser {
  const core = swfCore(false, 1 << 14)
  return {
    format: 'swf',
    get jobsRead() { return core.jobsRead() },
    feed: (chunk) => core.feed(chunk),
    end: () => finishSwf(core.end(false)),
    reserve: (jobs) => core.reserve(jobs),
  }
}

/** Parses one chunk of whole lines (a continuation of the file unless `first`): exact-size columns,
 * so that a worker thread can transfer them. */
export function parseSwfChunk(bytes: Uint8Array, first: boolean): SwfChunk {
  // Room for one job per line: a chunk of job lines only (the usual case) then fills its columns
  // exactly and sends them without a copy (before: twice the room, then a copy to size).
  let lines = 1
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) lines++
  if (bytes.length > 0 && bytes[bytes.length - 1] === 10) lines--
  // At most one job per MIN_SWF_JOB_BYTES: a chunk of blank lines (hostile input) is not sized for millions of jobs.
  const core = swfCore(!first, Math.min(lines, Math.ceil(bytes.length / MIN_SWF_JOB_BYTES)))
  core.feed(bytes)
  return core.end(true)
}

/**
 * The chunks of one file, in order, as one parse: line numbers moved by the lines of the chunks
 * before, users and partitions interned in order of first appearance (as one parser would), header
 * keys first occurrence wins, the first unreadable lines kept as examples. Identical to parsing
 * the file whole (test/unit/parse-chunks.test.ts).
 */
export function mergeSwfChunks(chunks: SwfChunk[]): ParsedLog {
  const m = new SwfChunkMerger()
  for (let i = 0; i < chunks.length; i++) m.add(chunks[i])
  return m.end()
}

/**
 * mergeSwfChunks one chunk at a time, as they arrive in file order: each chunk is copied into the
 * merged columns and its own columns are freed at once (releaseColumn: they read as empty after), so the chunks and the merged log are never held whole
 * together (docs/PERFORMANCE.md §Import at scale). `reserve`: the jobs expected (Importer.expectBytes).
 */
export class SwfChunkMerger {
  private only: SwfChunk | null = null
  private out: RawJobsBuilder | null = null
  private readonly header: Record<string, string> = {}
  private readonly badLines = new BadLines()
  private extra = 0
  private firstExtra = 0
  private expected = 0
  /** Lines of the chunks merged so far (a later chunk's line k is file line k + linesRead). */
  linesRead = 0

  reserve(jobs: number): void {
    this.expected = jobs
    this.out?.reserve(jobs)
  }

  add(c: SwfChunk): void {
    if (this.only === null && this.out === null) { this.only = c; this.linesRead = c.linesRead; return }
    if (this.out === null) {
      const first = this.only!
      this.only = null
      this.linesRead = 0
      this.out = new RawJobsBuilder(Math.max(first.jobs.count + c.jobs.count, 1024))
      if (this.expected > 0) this.out.reserve(this.expected)
      this.copy(first)
    }
    this.copy(c)
  }

  end(): ParsedLog {
    if (this.out === null) {
      if (this.only !== null) return finishSwf(this.only)
      this.out = new RawJobsBuilder(16) // no chunk: an empty log
    }
    const jobs = this.out.finish()
    return finishSwf({
      jobs, users: this.out.users, partitions: this.out.has('partition') ? this.out.partitions : null, header: this.header,
      extraColumns: this.extra, firstExtraLine: this.firstExtra, badLines: this.badLines.count, badLineExamples: this.badLines.examples, linesRead: this.linesRead,
    })
  }

  private copy(c: SwfChunk): void {
    const lines = this.linesRead
    this.out!.append(c.jobs, c, lines)
    for (const key of Object.keys(c.header)) if (this.header[key] === undefined) this.header[key] = c.header[key]
    this.badLines.absorb(c.badLines, c.badLineExamples, lines)
    if (c.extraColumns > 0 && this.extra === 0) this.firstExtra = c.firstExtraLine + lines
    this.extra += c.extraColumns
    this.linesRead = lines + c.linesRead
  }
}


function swfCore(continuation: boolean, capacity: number) {
  const jobs = new RawJobsBuilder(capacity)
  const bad = new BadLines()
  const header: Record<string, string> = {}
  const field = new Float64Array(FIELDS + 1) // 1-based
  const userByNumber = new Map<number, number>()
  // Field 16, the partition number: a `partition` column (names = the numbers as text) once a job has one.
  const partitionByNumber = new Map<number, number>()
  const row = emptyRow()
  let extraColumns = 0
  let firstExtraLine = 0

  /**
   * Reads the line that starts at `start` and returns the index of the line break (LF or CR) that
   * ends it, which must be in the buffer: the hot loop then never reads past the buffer's end (a
   * read there would make V8 compile every byte read of the loop for `undefined` as well). The fields of a
   * job line are read in one pass that also finds the line's end: a plain integer (`-1`, `3600`,
   * the whole of a usual log) is read in place; anything else (a sign `+`, a fraction, an exponent,
   * not a number) is read again by readNumber.
   */
  const readLine = (b: Uint8Array, start: number, lineNo: number): number => {
    let p = start
    let c = b[p]
    while (c === 32 || c === 9) c = b[++p]
    if (c === 10 || c === 13) return p // a blank line
    if (c === 59 /* ; */) {
      const e = lineEnd(b, p)
      readHeaderLine(lineText(b, p + 1, e), header)
      return e
    }
    let n = 0
    for (;;) {
      const t0 = p
      let v = 0
      if (c >= 48 && c <= 57) {
        do { v = v * 10 + (c - 48); c = b[++p] } while (c >= 48 && c <= 57)
      } else if (c === 45 && (c = b[++p]) >= 48 && c <= 57) {
        do { v = v * 10 + (c - 48); c = b[++p] } while (c >= 48 && c <= 57)
        v = -v
      } else c = 46 // not a plain integer: read below as the general number it may be
      if (!(c === 32 || c === 9 || c === 10 || c === 13)) {
        p = readNumber(b, t0)
        if (p < 0) {
          const e = fieldEnd(b, t0)
          bad.add(lineNo, 'not-a-number', `field ${n + 1} ("${preview(lineText(b, t0, e))}") is not a number`)
          return lineEnd(b, e)
        }
        v = num
        c = b[p]
      }
      n++
      if (!(Math.abs(v) <= FIELD_MAX[n])) { // also false for NaN (0 · ∞)
        bad.add(lineNo, 'out-of-range', `field ${n} (${FIELD_NAMES[n]}) is ${preview(lineText(b, t0, p))}, beyond its range (±${formatInt(FIELD_MAX[n])})`)
        return lineEnd(b, p)
      }
      field[n] = v
      while (c === 32 || c === 9) c = b[++p]
      if (c === 10 || c === 13) break
      if (n === FIELDS) {
        // Columns after the 18 standard ones (some simulators append node or queue columns): not
        // read, only counted.
        let extra = 0
        while (!(c === 10 || c === 13)) {
          p = fieldEnd(b, p)
          extra++
          c = b[p]
          while (c === 32 || c === 9) c = b[++p]
        }
        if (FIELDS + extra > MAX_FIELDS) {
          bad.add(lineNo, 'too-many-fields', `has ${formatInt(FIELDS + extra)} fields; SWF job lines have ${FIELDS} (at most ${MAX_FIELDS} with extra columns)`)
          return p
        }
        if (extraColumns === 0) firstExtraLine = lineNo
        extraColumns++
        break
      }
    }
    if (n < FIELDS) {
      bad.add(lineNo, 'too-few-fields', `has ${n} fields; SWF job lines have ${FIELDS}`)
      return p
    }
    const userNum = field[F_USER]
    let user = -1
    if (userNum >= 0) {
      const u = userByNumber.get(userNum)
      if (u === undefined) { user = jobs.internUser(String(userNum)); userByNumber.set(userNum, user) } else user = u
    }
    const wait = field[F_WAIT]
    jobs.push(field[F_ID], field[F_SUBMIT], wait < 0 ? NaN : wait, field[F_RUNTIME], field[F_ALLOC], field[F_REQ_PROCS],
      field[F_REQ_TIME], user, field[F_STATUS], lineNo)
    const partNum = field[F_PARTITION]
    if (partNum >= 0 && partNum <= MAX_COUNT) {
      let k = partitionByNumber.get(partNum)
      if (k === undefined) {
        jobs.enable('partition')
        k = jobs.internPartition(String(partNum))
        partitionByNumber.set(partNum, k)
      }
      row[COL.partition] = k
      jobs.setRow(row)
    }
    return p
  }

  /** A line split across chunks, or the file's last line when it has no line break (LineSplitter's `onLine`). */
  const onLine = (b: Uint8Array, start: number, end: number, lineNo: number): void => {
    const line = new Uint8Array(end - start + 1) // with a line break after it, as readLine needs
    line.set(b.subarray(start, end))
    line[end - start] = 10
    readLine(line, 0, lineNo)
  }
  /** The whole lines of a chunk (LineSplitter's `onLines`), each ending at LF, CRLF or a lone CR. */
  const onLines = (b: Uint8Array, start: number, end: number, firstLineNo: number): number => {
    let p = start
    let lineNo = firstLineNo
    while (p < end) {
      const e = readLine(b, p, lineNo)
      if (e - p > LineSplitter.MAX_LINE) throw lineTooLong(lineNo)
      lineNo++
      p = b[e] === 13 && b[e + 1] === 10 ? e + 2 : e + 1
    }
    return lineNo - firstLineNo
  }

  const splitter = new LineSplitter(onLine, continuation, onLines)
  return {
    jobsRead: () => jobs.count,
    reserve: (n: number) => jobs.reserve(n),
    feed: (chunk: Uint8Array) => splitter.feed(chunk),
    end(exact: boolean): SwfChunk {
      splitter.end()
      const raw = jobs.finish()
      return {
        jobs: exact ? exactColumns(raw) : raw, users: jobs.users, partitions: jobs.has('partition') ? jobs.partitions : null, header,
        extraColumns, firstExtraLine, badLines: bad.count, badLineExamples: bad.examples, linesRead: splitter.linesRead,
      }
    },
  }
}

/** The value readNumber read last (a module variable: the hot loop allocates nothing). */
let num = 0

/**
 * Reads the number at `p` by the general grammar `[-+]digits[.digits][e[-+]digits]` (what the hot
 * loop leaves: a `+`, a fraction, an exponent, or no number at all) into `num`; returns the index
 * after it, or -1 when the field is not a number (no digit, or something else before the field's
 * end: a space, a tab, a line break or the buffer's end).
 */
function readNumber(b: Uint8Array, p: number): number {
  let neg = false
  const c0 = b[p]
  if (c0 === 45) { neg = true; p++ } else if (c0 === 43) p++
  let v = 0
  let digits = 0
  let c = b[p]
  while (c >= 48 && c <= 57) { v = v * 10 + (c - 48); digits++; c = b[++p] }
  if (c === 46 /* . */) {
    let scale = 0.1
    c = b[++p]
    while (c >= 48 && c <= 57) { v += (c - 48) * scale; scale *= 0.1; digits++; c = b[++p] }
  }
  if (digits > 0 && (c === 101 || c === 69) /* e E */) {
    let q = p + 1
    let eneg = false
    if (b[q] === 45) { eneg = true; q++ } else if (b[q] === 43) q++
    let e = 0, ed = 0
    while (b[q] >= 48 && b[q] <= 57) { e = e * 10 + (b[q] - 48); ed++; q++ }
    if (ed > 0) { v *= Math.pow(10, eneg ? -e : e); p = q; c = b[p] }
  }
  if (digits === 0 || !(c === 32 || c === 9 || c === 10 || c === 13 || p >= b.length)) return -1
  num = neg ? -v : v
  return p
}

/** Index of the first space, tab or line break at or after `p` (or the buffer's length). */
function fieldEnd(b: Uint8Array, p: number): number {
  const len = b.length
  for (; p < len; p++) {
    const c = b[p]
    if (c === 32 || c === 9 || c === 10 || c === 13) return p
  }
  return len
}

/** Index of the first line break at or after `p` (or the buffer's length). */
function lineEnd(b: Uint8Array, p: number): number {
  const e = firstBreak(b, p)
  return e < 0 ? b.length : e
}

/** The log-level results of a whole parse: warnings, machine size from the header, start time. */
function finishSwf(c: SwfChunk): ParsedLog {
  const { header, extraColumns, firstExtraLine } = c
  const warnings: string[] = []
  if (extraColumns > 0) {
    warnings.push(`${extraColumns === 1 ? '1 job line has' : `${formatInt(extraColumns)} job lines have`} more than 18 fields ` +
      `(first at line ${firstExtraLine}); the columns after the 18 standard SWF fields were ignored.`)
  }
  const maxProcs = positiveHeader(header, 'MaxProcs', warnings)
  const maxNodes = positiveHeader(header, 'MaxNodes', warnings)
  const startText = header['UnixStartTime']
  const unixStart = startText === undefined ? NaN : Number(startText)
  const startOk = Math.abs(unixStart) <= MAX_EPOCH_SECONDS
  if (startText !== undefined && !startOk) {
    warnings.push(`The header's UnixStartTime "${preview(startText)}" is not a time (epoch seconds up to year 9999): dates are not shown.`)
  }
  return {
    format: 'swf', jobs: c.jobs, users: c.users, ...(c.partitions !== null ? { partitions: c.partitions } : {}),
    header, maxProcs, maxNodes,
    unixStartTime: startOk ? unixStart : null,
    linesRead: c.linesRead, badLines: c.badLines, badLineExamples: c.badLineExamples, parserDrops: [], warnings,
  }
}

/** `; Key: value` → header[Key] = value (first occurrence wins; continuation lines are ignored). */
function readHeaderLine(text: string, header: Record<string, string>): void {
  const m = /^\s*([A-Za-z][A-Za-z0-9_ ]*?)\s*:\s*(.*?)\s*$/.exec(text)
  if (!m) return
  if (header[m[1]] === undefined) header[m[1]] = m[2]
}

/** A machine size from the header; null when absent or ≤ 0 (unknown), and with a warning when not a number or beyond 2³¹ − 1. */
function positiveHeader(header: Record<string, string>, key: string, warnings: string[]): number | null {
  const v = header[key]
  if (v === undefined) return null
  const n = Number(v.split(/\s/)[0])
  if (n >= 1 && n <= MAX_COUNT) return Math.floor(n)
  if (n <= 0) return null // -1 / 0: unknown, as SWF writes it
  warnings.push(`The header's ${key} "${preview(v)}" is not a number of processors from 1 to ${formatInt(MAX_COUNT)}: it was ignored.`)
  return null
}

function preview(s: string): string {
  return s.length > 80 ? s.slice(0, 77) + '...' : s
}
