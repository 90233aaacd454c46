// Standard Workload Format parser (PWA swf.html, v2.2): 18 whitespace-separated numeric fields,
// -1 = unknown, `;` header comments. It works on raw bytes (no string per line) because SWF is the
// format of the big archive logs: a 1M-job log must import at ≥ 1M lines/s.
import { formatInt } from '../util/format'
import { BadLines, RawJobsBuilder } from './builder'
import { LineSplitter, lineText } from './lines'
import type { LogParser, ParsedLog } from './types'

const FIELDS = 18
const MAX_FIELDS = 64

// SWF field numbers (1-based, as in the format's definition).
const F_ID = 1, F_SUBMIT = 2, F_WAIT = 3, F_RUNTIME = 4, F_ALLOC = 5, F_REQ_PROCS = 8, F_REQ_TIME = 9, F_STATUS = 11, F_USER = 12

export function createSwfParser(): LogParser {
  const jobs = new RawJobsBuilder(1 << 14)
  const bad = new BadLines()
  const header: Record<string, string> = {}
  const field = new Float64Array(MAX_FIELDS + 1) // 1-based
  const userByNumber = new Map<number, number>()
  let extraColumns = 0
  let firstExtraLine = 0

  const onLine = (b: Uint8Array, start: number, end: number, lineNo: number): void => {
    let p = start
    while (p < end && (b[p] === 32 || b[p] === 9)) p++
    if (p === end) return
    if (b[p] === 59 /* ; */) {
      readHeaderLine(lineText(b, p + 1, end), header)
      return
    }
    let n = 0
    while (p < end) {
      // parse one number: [-+]digits[.digits][e[-+]digits]
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
      if (digits === 0 || (p < end && c !== 32 && c !== 9)) {
        bad.add(lineNo, `field ${n + 1} is not a number: "${preview(lineText(b, start, end))}"`)
        return
      }
      n++
      if (n <= MAX_FIELDS) field[n] = neg ? -v : v
      while (p < end && (b[p] === 32 || b[p] === 9)) p++
    }
    if (n < FIELDS) {
      bad.add(lineNo, `has ${n} fields; SWF job lines have ${FIELDS}`)
      return
    }
    if (n > FIELDS) {
      if (extraColumns === 0) firstExtraLine = lineNo
      extraColumns++
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
  }

  const splitter = new LineSplitter(onLine)
  return {
    format: 'swf',
    get jobsRead() { return jobs.count },
    feed: (chunk) => splitter.feed(chunk),
    end(): ParsedLog {
      splitter.end()
      const warnings: string[] = []
      if (extraColumns > 0) {
        warnings.push(`${formatInt(extraColumns)} job lines have more than 18 fields (first at line ${firstExtraLine}); the extra columns were ignored.`)
      }
      const maxProcs = positiveHeader(header, 'MaxProcs')
      const maxNodes = positiveHeader(header, 'MaxNodes')
      const unixStart = Number(header['UnixStartTime'])
      return {
        format: 'swf', jobs: jobs.finish(), users: jobs.users, header, maxProcs, maxNodes,
        unixStartTime: Number.isFinite(unixStart) && header['UnixStartTime'] !== undefined ? unixStart : null,
        linesRead: splitter.linesRead, badLines: bad.count, badLineExamples: bad.examples, parserDrops: [], warnings,
      }
    },
  }
}

/** `; Key: value` → header[Key] = value (first occurrence wins; continuation lines are ignored). */
function readHeaderLine(text: string, header: Record<string, string>): void {
  const m = /^\s*([A-Za-z][A-Za-z0-9_ ]*?)\s*:\s*(.*?)\s*$/.exec(text)
  if (!m) return
  if (header[m[1]] === undefined) header[m[1]] = m[2]
}

function positiveHeader(header: Record<string, string>, key: string): number | null {
  const v = header[key]
  if (v === undefined) return null
  const n = Number(v.split(/\s/)[0])
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : null
}

function preview(s: string): string {
  return s.length > 80 ? s.slice(0, 77) + '...' : s
}
