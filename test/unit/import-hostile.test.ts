// Issue #20: logs as they come. Numbers beyond a field's range, CR/CRLF/LF line endings, byte-order
// marks, over-long lines, unparseable SLURM starts, SWF with extra columns or no header, and an
// import that keeps no job: each gives a bad line with its reason code or an InputError, never a
// crash, NaN in a typed array or a silent merge (docs/SIMULATOR.md §Bad lines).
import { describe, expect, it } from 'vitest'
import { InputError } from '../../src/core/workload/errors'
import { importBytes, importText } from '../../src/core/workload/import'
import { LineSplitter } from '../../src/core/workload/lines'
import { createJobcompParser } from '../../src/core/workload/jobcomp'
import { createPbsParser } from '../../src/core/workload/pbs'
import { createSacctParser, slurmJobId } from '../../src/core/workload/sacct'
import { createSwfParser } from '../../src/core/workload/swf'
import type { LogParser, ParsedLog } from '../../src/core/workload/types'

const enc = new TextEncoder()
/** An SWF job line; `over` replaces fields by 1-based number with raw text. */
function swf(id: number, submit: number, over: Record<number, string> = {}): string {
  const f = [id, submit, 5, 100, 4, -1, -1, 4, 200, -1, 1, 7, 1, -1, -1, -1, -1, -1].map(String)
  for (const [k, v] of Object.entries(over)) f[Number(k) - 1] = v
  return f.join(' ')
}
const HEAD = '; UnixStartTime: 1000000\n; MaxProcs: 64\n'

function parse(p: LogParser, text: string | Uint8Array, chunk = 1 << 16): ParsedLog {
  const b = typeof text === 'string' ? enc.encode(text) : text
  for (let i = 0; i < b.length; i += chunk) p.feed(b.subarray(i, i + chunk))
  return p.end()
}
const codes = (log: ParsedLog) => log.badLineExamples.map((e) => [e.line, e.code])

function thrown(f: () => unknown): InputError {
  try { f() } catch (e) { if (e instanceof InputError) return e; throw e }
  throw new Error('expected an InputError')
}

describe('numbers beyond what a field holds are bad lines with a reason code', () => {
  it('SWF: a submit of 1e17, 1e999, a processor count over 2³¹ − 1 and non-numbers', () => {
    const text = HEAD + [
      swf(1, 0),
      swf(2, 1e17),                         // line 4: beyond year 9999
      swf(3, 10, { 2: '1e999' }),          // line 5: Infinity
      swf(4, 10, { 8: '2147483648' }),     // line 6: 2³¹ requested processors
      swf(5, 10, { 5: '4294967297' }),     // line 7: would wrap to 1 in an Int32Array
      swf(6, 10, { 4: 'NaN' }),            // line 8
      swf(7, 10, { 11: '-1e999' }),        // line 9: -Infinity status
      swf(8, 10, { 9: '2e11' }),           // line 10: requested time within range (6,300 years): kept by the parser
      swf(9, 10, { 1: '1e17' }),           // line 11: job number not exact in a double
    ].join('\n')
    const log = parse(createSwfParser(), text)
    expect(codes(log)).toEqual([[4, 'out-of-range'], [5, 'out-of-range'], [6, 'out-of-range'], [7, 'out-of-range'],
      [8, 'not-a-number'], [9, 'out-of-range'], [11, 'out-of-range']])
    expect(log.badLineExamples[0].message).toMatch(/field 2 \(submit time\) is 100000000000000000, beyond its range/)
    expect(Array.from(log.jobs.id)).toEqual([1, 8])
    for (const a of [log.jobs.submit, log.jobs.runtime, log.jobs.requested, log.jobs.allocProcs, log.jobs.reqProcs]) {
      for (const v of a) expect(Number.isFinite(v)).toBe(true)
    }
  })

  it('SWF: the largest processor count a parser accepts (2^31 − 1) survives the single-precision raw columns', () => {
    // No MaxProcs: the machine is inferred from the largest job, which is then kept, not "too big".
    const w = importText('; UnixStartTime: 1000000\n' + [swf(1, 0), swf(2, 10, { 5: '2147483647', 8: '2147483647' }), swf(3, 20, { 5: '16777217', 8: '-1' })].join('\n'))
    expect(w.machineProcs).toBe(2147483647)
    expect(Array.from(w.jobs.procs)).toEqual([4, 2147483647, 16777216]) // single precision: 2^24 + 1 is read as 2^24
  })

  it('SWF: an import with a time beyond a Date skips the line and still gives ISO dates (no toISOString crash)', () => {
    const w = importText(HEAD + [swf(1, 0), swf(2, 1e17), swf(3, 3600)].join('\n'))
    expect(w.jobs.count).toBe(2)
    expect(w.report.span.startIso).toBe('1970-01-12T13:46:40.000Z')
    expect(w.report.badLines.examples).toEqual([expect.objectContaining({ line: 4, code: 'out-of-range' })])
  })

  it('SWF: a header UnixStartTime or MaxProcs beyond range is ignored with a warning', () => {
    const log = parse(createSwfParser(), '; UnixStartTime: 1e17\n; MaxProcs: 99999999999\n' + swf(1, 0))
    expect(log.unixStartTime).toBeNull()
    expect(log.maxProcs).toBeNull()
    expect(log.warnings.join(' ')).toMatch(/UnixStartTime "1e17" is not a time/)
    expect(log.warnings.join(' ')).toMatch(/MaxProcs "99999999999" is not a number of processors/)
  })

  it('sacct: times after year 9999, counts over 2³¹ − 1, non-numbers; an unparseable Start is a bad field', () => {
    const text = [
      'JobID|Submit|Start|End|ElapsedRaw|TimelimitRaw|AllocCPUS|State',
      '1|1000|1010|1110|100|10|4|COMPLETED',
      '2|99999999999999|1010|1110|100|10|4|COMPLETED',   // line 3
      '3|1000|1010|1110|100|10|2147483648|COMPLETED',    // line 4
      '4|1000|1010|1110|1e3|10|4|COMPLETED',             // line 5
      '5|1000|soon|1110|100|10|4|COMPLETED',             // line 6: Start unreadable: bad-time, not "never started"
      '6|1000|Unknown|Unknown|0|10|4|CANCELLED',         // line 7: never started
      '7|1000|1010|1110|100|99999999999|4|COMPLETED',    // line 8: time limit in minutes beyond range
      '8|1000|1010|1110|100|1-xx|4|COMPLETED',           // line 9
      '99999999999999999|1000|1010|1110|100|10|4|COMPLETED', // line 10: job id not exact
      '9|1000|1010|1110|100|4294967294|4|COMPLETED',     // line 11: NO_VAL: unknown limit, kept
    ].join('\n')
    const log = parse(createSacctParser(), text)
    expect(codes(log)).toEqual([[3, 'out-of-range'], [4, 'out-of-range'], [5, 'not-a-number'], [6, 'bad-time'],
      [8, 'out-of-range'], [9, 'bad-duration'], [10, 'out-of-range']])
    expect(log.parserDrops.find((d) => d.rule === 'slurm-never-started')?.exampleLines).toEqual([7])
    expect(Array.from(log.jobs.id)).toEqual([1, 9])
    expect(log.jobs.requested[1]).toBe(-1)
  })

  it('a SLURM job id with anything but an array task or a component after its number is not a job number', () => {
    expect([slurmJobId('123_4'), slurmJobId('123_[1-5%2]'), slurmJobId('123+1'), slurmJobId('123_4+0')]).toEqual([123, 123, 123, 123])
    for (const bad of ['123_\x014', '123_4\x7f', '123x', '123_', '123_[1-5]z']) expect(slurmJobId(bad), bad).toBeNaN()
  })

  it('sacct: a run time derived from CPUTimeRAW beyond the longest duration is out-of-range', () => {
    const log = parse(createSacctParser(), 'Submit|CPUTimeRAW|ReqCPUS|TimelimitRaw\n1000|3600|1|60\n1000|9000000000000000|1|60\n')
    expect(codes(log)).toEqual([[3, 'out-of-range']])
    expect(Array.from(log.jobs.runtime)).toEqual([3600])
  })

  it('jobcomp and PBS: the same codes', () => {
    const jc = parse(createJobcompParser(), [
      'jobid=1 submit=1000 start=1010 end=1110 procs=4 limit=60',
      'jobid=2 submit=1000 start=1e999 end=1110 procs=4 limit=60',
      'jobid=3 submit=1000 start=1010 end=1110 procs=99999999999 limit=60',
      'jobid=4 submit=1000 start=1010 end=later procs=4 limit=60',
    ].join('\n'))
    expect(codes(jc)).toEqual([[2, 'bad-time'], [3, 'out-of-range'], [4, 'bad-time']])
    const pbs = parse(createPbsParser(), [
      '03/31/2025 11:00:00;E;1.s;user=a qtime=1000 start=1010 end=1110 Resource_List.ncpus=4 Resource_List.walltime=01:00:00',
      '03/31/2025 11:00:00;E;2.s;user=a qtime=1000 start=1010 end=1110 Resource_List.ncpus=4 Resource_List.walltime=1e999',
      '03/31/2025 11:00:00;E;3.s;user=a qtime=1000 start=1010 end=1110 Resource_List.nodes=99999:ppn=99999',
      '03/31/2025 11:00:00;E;4.s;user=a qtime=99999999999999 start=1010 end=1110 Resource_List.ncpus=4',
    ].join('\n'))
    expect(codes(pbs)).toEqual([[2, 'bad-duration'], [3, 'out-of-range'], [4, 'out-of-range']])
  })
})

describe('line endings, byte-order marks and over-long lines', () => {
  const JOBCOMP = Array.from({ length: 150 }, (_, i) =>
    `2021-05-30 00:00:02 jobstate=COMPLETED jobid=${100 + i} username=u start=${2000 + i} end=${2100 + i} submit=${1000 + i} nodes=r1 procs=1 limit=06:00:00`)

  it('a jobcomp file with CR-only endings is 150 jobs, not one', () => {
    for (const eol of ['\r', '\r\n', '\n']) {
      const log = parse(createJobcompParser(), JOBCOMP.join(eol) + eol)
      expect(log.jobs.count).toBe(150)
      expect(log.linesRead).toBe(150)
      expect(log.badLines).toBe(0)
    }
  })

  it('CR, CRLF and LF mixed in one file, split at every chunk boundary, give the same lines', () => {
    const mixed = JOBCOMP.slice(0, 6).map((l, i) => l + ['\r', '\r\n', '\n'][i % 3]).join('')
    const whole = parse(createJobcompParser(), mixed)
    expect(whole.jobs.count).toBe(6)
    expect(Array.from(whole.jobs.line)).toEqual([1, 2, 3, 4, 5, 6])
    for (const chunk of [1, 2, 3, 7, 64]) {
      const log = parse(createJobcompParser(), mixed, chunk)
      expect(Array.from(log.jobs.id)).toEqual(Array.from(whole.jobs.id))
      expect(Array.from(log.jobs.line)).toEqual([1, 2, 3, 4, 5, 6])
    }
  })

  it('a CR at the end of one chunk and the LF at the start of the next are one line break', () => {
    const seen: number[] = []
    const s = new LineSplitter((_b, start, end, n) => seen.push(n * 1000 + end - start))
    s.feed(enc.encode('ab\r'))
    s.feed(enc.encode('\ncd\r'))
    s.feed(enc.encode('e'))
    s.end()
    expect(seen).toEqual([1002, 2002, 3001])
  })

  it('with onLines, the same lines and numbers: whole lines as ranges, split ones through onLine', () => {
    // The consumer finds the line breaks itself, as the SWF parser does (LF, CRLF or a lone CR).
    const seen: string[] = []
    const onLines = (b: Uint8Array, start: number, end: number, first: number): number => {
      let n = 0
      for (let p = start; p < end;) {
        let e = p
        while (b[e] !== 10 && b[e] !== 13) e++
        seen.push(`${first + n}:${new TextDecoder().decode(b.subarray(p, e))}`)
        n++
        p = b[e] === 13 && b[e + 1] === 10 ? e + 2 : e + 1
      }
      return n
    }
    const s = new LineSplitter((b, start, end, n) => seen.push(`${n}:${new TextDecoder().decode(b.subarray(start, end))}`), false, onLines)
    s.feed(new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode('ab\r\ncd\r')])) // the mark dropped; the CR may be half of a CRLF
    s.feed(enc.encode('\nef\rgh'))
    s.feed(enc.encode('i\n\nj'))
    s.end()
    expect(seen).toEqual(['1:ab', '2:cd', '3:ef', '4:ghi', '5:', '6:j'])
  })

  it('a UTF-8 byte-order mark is dropped in every format (an SWF header line included)', () => {
    const bom = (t: string) => new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode(t)])
    const s = importBytes(bom(HEAD + swf(1, 0)))
    expect(s.machineProcs).toBe(64)
    expect(s.report.badLines.count).toBe(0)
    expect(s.unixStartTime).toBe(1000000)
    const sacct = importBytes(bom('JobID|Submit|Start|End|TimelimitRaw|AllocCPUS\n1|1000|1010|1110|10|4\n'))
    expect(sacct.format).toBe('sacct')
    expect(sacct.jobs.count).toBe(1)
    const jc = importBytes(bom(JOBCOMP[0]))
    expect([jc.format, jc.jobs.count]).toEqual(['jobcomp', 1])
    const pbs = importBytes(bom('03/31/2025 11:00:00;E;1.s;user=a qtime=1000 start=1010 end=1110 Resource_List.ncpus=4 Resource_List.walltime=01:00:00'))
    expect([pbs.format, pbs.jobs.count, pbs.report.badLines.count]).toEqual(['pbs', 1, 0])
  })

  it('a 2 MB single-line SWF is refused with its line number (line-too-long)', () => {
    const fields = Array.from({ length: 1_000_000 }, () => '1').join(' ')
    const e = thrown(() => importText(fields, { format: 'swf' }))
    expect([e.line, e.code]).toEqual([1, 'line-too-long'])
    expect(e.message).toMatch(/line 1 is longer than 1 MiB/)
    const e3 = thrown(() => importText(`${HEAD}${swf(1, 0)}\n${'9 '.repeat(600_000)}\n${swf(2, 1)}`, { format: 'swf' }))
    expect([e3.line, e3.code]).toEqual([4, 'line-too-long'])
  })

  it('a line over 1 MiB inside one chunk is refused too (the lines a chunk holds whole are read as one range)', () => {
    // importText feeds small steps, so its long lines are carried across chunks; here the whole
    // text is one chunk, the path of a parse thread's chunk and of large reads.
    const text = `${HEAD}${swf(1, 0)}\r\n${'9 '.repeat(600_000)}\r\n${swf(2, 1)}\n`
    const p = createSwfParser()
    const e = thrown(() => { p.feed(new TextEncoder().encode(text)); p.end() })
    expect([e.line, e.code]).toEqual([4, 'line-too-long'])
    // Just under the limit: read (as a line with too many fields), and the lines after it keep their numbers.
    const q = createSwfParser()
    q.feed(new TextEncoder().encode(`${HEAD}${swf(1, 0)}\r\n${'9 '.repeat(500_000)}\r\n${swf(2, 1)}\n`))
    const log = q.end()
    expect([log.jobs.count, log.badLines, log.badLineExamples[0].line, log.badLineExamples[0].code, log.jobs.line[1]]).toEqual([2, 1, 4, 'too-many-fields', 5])
  })
})

describe('SWF as published in the wild', () => {
  it('extra columns after the 18 standard fields (even text) are ignored with one warning', () => {
    const text = HEAD + [swf(1, 0) + ' 12 queueA', swf(2, 1) + ' 7', swf(3, 2)].join('\n')
    const w = importText(text)
    expect(w.format).toBe('swf')
    expect(w.jobs.count).toBe(3)
    expect(w.report.warnings.filter((x) => /more than 18 fields/.test(x))).toEqual([
      '2 job lines have more than 18 fields (first at line 3); the columns after the 18 standard SWF fields were ignored.',
    ])
  })

  it('more than 64 fields is not SWF: too-many-fields', () => {
    const log = parse(createSwfParser(), HEAD + [swf(1, 0), swf(2, 1) + ' 0'.repeat(47), swf(3, 2) + ' 0'.repeat(46)].join('\n'))
    expect(codes(log)).toEqual([[4, 'too-many-fields']])
    expect(log.jobs.count).toBe(2)
  })

  it('without MaxProcs/MaxNodes the machine size is inferred from the largest job, and the import says so', () => {
    const w = importText([swf(1, 0), swf(2, 1, { 8: '48', 5: '48' })].join('\n'))
    expect(w.machineProcs).toBe(48)
    expect(w.report.machine.source).toBe('inferred-largest-job')
    expect(w.report.warnings.join(' ')).toMatch(/48 processors, inferred from the largest job: the log does not say how big the machine is.*--procs/)
    for (const x of w.report.warnings) expect(x, 'no double full stop').not.toMatch(/\.\.$/)
    const nodes = importText(['; MaxNodes: 32', swf(1, 0)].join('\n'))
    expect(nodes.report.warnings.find((x) => x.startsWith('Machine size'))).toMatch(/with --procs\)\.$/)
  })
})

describe('an import that keeps no job is not a success', () => {
  it('a sacct export with no time-limit column: InputError naming why and the fallback', () => {
    const text = 'JobID,NCPUS,Submit,Start,End,ElapsedRaw,State\n1,4,1000,1010,1110,100,COMPLETED\n2,4,1000,1020,1120,100,COMPLETED\n'
    const e = thrown(() => importText(text))
    expect(e.message).toMatch(/^no job was kept: all 2 jobs read were removed by cleaning: 2 requested-missing/)
    expect(e.message).toMatch(/--requested-fallback runtime .*--requested-fallback <duration>/)
    expect(importText(text, { requestedFallback: 'runtime' }).jobs.count).toBe(2)
  })

  it('a log whose every job is larger than the given machine names --procs', () => {
    expect(() => importText(HEAD + swf(1, 0), { procs: 2 })).toThrow(/no job was kept: .*C3-too-big.*--procs/)
  })

  it('a SLURM log of jobs that never started says so', () => {
    expect(() => importText('JobID|Submit|Start|End|TimelimitRaw|AllocCPUS\n1|1000|Unknown|Unknown|10|4\n'))
      .toThrow(/no job was kept: the file has no job line that describes a finished job \(set aside: 1 jobs that never started/)
  })
})
