// The text formats (sacct, jobcomp, PBS) parsed in chunks (src/core/workload/text-chunks.ts):
// small logs worked by hand, cut a chunk per line, whose merged parse must give the values written
// here (and the sequential parse the same). The shared data's logs are compared whole in
// test/reallogs/parse-chunks.test.ts.
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { RawJobsBuilder } from '../../src/core/workload/builder'
import { ChunkSplitter } from '../../src/core/workload/chunks'
import { Importer } from '../../src/core/workload/import'
import { NodeTracker } from '../../src/core/workload/nodes-seen'
import { MIN_ROW_BYTES, mergeTextChunks, parseTextChunk, planTextChunks, type TextFormat } from '../../src/core/workload/text-chunks'
import { ParallelImporter, minBytesFor } from '../../src/node/parse-parallel'

const enc = (s: string) => new TextEncoder().encode(s)

/** Cut into chunks of ≥ `target` bytes (1: a line each), parsed apart, merged. */
function chunked(format: TextFormat, bytes: Uint8Array, target = 1) {
  const plan = planTextChunks(format, bytes.subarray(0, 65536))
  if (plan === null) throw new Error('no plan')
  const s = new ChunkSplitter(target, plan.firstMinBytes)
  const chunks = [...s.push(bytes)]
  const last = s.end()
  if (last !== null) chunks.push(last)
  return { log: mergeTextChunks(plan, chunks.map((c, i) => parseTextChunk(plan, c, i === 0))), chunks: chunks.length, plan }
}

function sequential(format: TextFormat, bytes: Uint8Array) {
  const imp = new Importer({ format })
  imp.feed(bytes)
  return imp.endParsed()
}

describe('sacct in chunks, worked by hand', () => {
  // A byte-order mark, two blank lines, the header on line 3; CRLF line ends.
  const lines = [
    '\uFEFF', '', 'JobID|JobIDRaw|User|Account|Partition|QOS|Submit|Start|End|ElapsedRaw|AllocCPUS|Timelimit|NodeList|State',
    '10|10|ann|phys|cpu|normal|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:11:00|600|4|00:20:00|n1|COMPLETED',
    '10.batch|10|ann|phys|cpu|normal|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:11:00|600|4||n1|COMPLETED',
    '11_3|12|bob|chem|gpu|high|2024-01-01T00:05:00|2024-01-01T00:06:00|2024-01-01T00:07:00|60|8|00:10:00|n[1-2]|COMPLETED',
    '12|13|ann||gpu|normal|yesterday|||0|1|00:10:00||PENDING',
    '13|14|cid|phys|cpu|normal|2024-01-01T00:02:00|Unknown|Unknown|0|2|00:10:00||PENDING',
    '14|15|bob|chem|cpu|normal|2024-01-01T00:03:00+01:00|2024-01-01T00:04:00+01:00|2024-01-01T00:05:00+01:00|60|2|00:10:00|n2|COMPLETED',
  ]
  const bytes = enc(lines.join('\r\n') + '\r\n')

  it('the first chunk reaches past the header; the merged parse is the sequential one, with file-wide lines and first-use name order', () => {
    const { log, chunks, plan } = chunked('sacct', bytes)
    expect(plan.header).toEqual({ text: lines[2], lineNo: 3 })
    // Lines 1-3 (mark, blank, header) are the first chunk; then one chunk per line.
    expect(chunks).toBe(1 + 6)
    expect(log.linesRead).toBe(9)
    expect([...log.jobs.line]).toEqual([4, 6, 9])
    expect([...log.jobs.id]).toEqual([10, 11, 14])
    expect([...log.jobs.rawId!]).toEqual([10, 12, 15])
    expect([...log.jobs.subId!]).toEqual([-1, 3, -1])
    // Names in order of first use by a job: cid's line 8 never started (set aside before its user is read).
    expect(log.users).toEqual(['ann', 'bob'])
    expect(log.accounts).toEqual(['phys', 'chem'])
    expect(log.partitions).toEqual(['cpu', 'gpu'])
    expect(log.qosNames).toEqual(['normal', 'high'])
    expect([...log.jobs.partition!]).toEqual([0, 1, 0])
    // Submit times relative to the earliest: job 14's, 00:03+01:00 = 2023-12-31T23:03Z; job 10's (00:00 read as UTC) is 57 min later.
    expect(log.unixStartTime).toBe(Date.UTC(2023, 11, 31, 23, 3) / 1000)
    expect([...log.jobs.submit]).toEqual([57 * 60, 62 * 60, 0])
    expect(log.badLines).toBe(1)
    expect(log.badLineExamples.map((e) => [e.line, e.code])).toEqual([[7, 'bad-time']])
    expect(log.parserDrops.map((r) => [r.rule, r.count, r.exampleLines])).toEqual([
      ['slurm-steps', 1, [5]], ['slurm-never-started', 1, [8]],
    ])
    // The zone-less times: lines 4 and 6 have three each (the step, line 5, is set aside before its
    // times are read), line 8 one (Submit; its Start and End are "Unknown"); the example is the first.
    expect(log.warnings.find((w) => w.startsWith('No time zone'))).toMatch(/^No time zone on 7 time stamps \(e\.g\. 2024-01-01T00:00:00\)/)
    expect(log.nodesSeen).toEqual([
      { name: 'n1', maxCpus: 4, maxGpus: -1, partitions: [0, 1] },
      { name: 'n2', maxCpus: 4, maxGpus: -1, partitions: [0, 1] },
    ])
    expect(log).toEqual(sequential('sacct', bytes))
  })

  it('a head without a usable header is parsed in one go, which names what is missing', () => {
    expect(planTextChunks('sacct', enc('\n\n   \n'))).toBeNull() // no non-blank line yet
    // Over 64 KiB, so that the importer decides on its head (a smaller log is parsed in one go anyway).
    const noSubmit = enc('JobID|Start|ElapsedRaw\n' + '1|2024-01-01T00:00:00|5\n'.repeat(5000))
    expect(planTextChunks('sacct', noSubmit)).toBeNull()
    const imp = new ParallelImporter({ format: 'sacct' }, { workers: 0, chunkBytes: 8, minBytes: 0 })
    expect(() => imp.feed(noSubmit)).toThrow(/^the sacct header \(line 1\) has no Submit column\./)
    expect(imp.parallel).toBe(false)
  })

  it('through the parallel importer (chunks parsed here): cut, and the same parse', async () => {
    const big = enc(lines.join('\r\n') + '\r\n' + (lines.slice(3).join('\n') + '\n').repeat(2000))
    const imp = new ParallelImporter({ format: 'sacct' }, { workers: 0, chunkBytes: 4096, minBytes: 0 })
    for (let i = 0; i < big.length; i += 65536) { const w = imp.feed(big.slice(i, i + 65536)); if (w) await w }
    const log = await imp.endParsed()
    expect(imp.parallel).toBe(true)
    expect(log).toEqual(sequential('sacct', big))
  })

  it('the size that starts the threads is the format\'s: 8 MiB of sacct text, 16 MiB of SWF or PBS', async () => {
    const sacct = enc(lines.join('\n') + '\n' + (lines.slice(3).join('\n') + '\n').repeat(400)) // > 64 KiB: enough to decide on
    const swfLine = '1 0 10 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n'
    const swf = enc(swfLine.repeat(Math.ceil(65536 / swfLine.length) + 1))
    const pbsLine = '03/31/2025 10:59:20;E;1.casper;user=a queue=htc ctime=1 qtime=1 etime=1 start=2 end=3 Resource_List.ncpus=1 Resource_List.walltime=00:10:00\n'
    const pbs = enc(pbsLine.repeat(Math.ceil(65536 / pbsLine.length) + 1))
    // The decompressed size known up front (a file's size, a gzip trailer): decided on the head.
    const decided = async (bytes: Uint8Array, expected: number) => {
      const imp = new ParallelImporter({}, { workers: 0, expectedBytes: expected })
      imp.expectBytes(expected)
      await imp.feed(bytes)
      const p = imp.parallel
      imp.dispose()
      return p
    }
    expect(await decided(sacct, 10 << 20)).toBe(true) // 10 MiB of sacct: two threads pay
    expect(await decided(sacct, 6 << 20)).toBe(false)
    expect(await decided(swf, 10 << 20)).toBe(false) // 10 MiB of SWF: parsed in this thread
    expect(await decided(swf, 20 << 20)).toBe(true)
    expect(await decided(pbs, 10 << 20)).toBe(false) // PBS parses about as fast as SWF
    // Size unknown (no trailer): held until the format's threshold, so 10 MiB of each splits the same way.
    const fill = async (bytes: Uint8Array, head: Uint8Array) => {
      const imp = new ParallelImporter({}, { workers: 0 })
      await imp.feed(head)
      for (let fed = head.length; fed < 10 << 20; fed += bytes.length) await imp.feed(bytes)
      const p = imp.parallel
      imp.dispose()
      return p
    }
    expect(await fill(enc((lines.slice(3).join('\n') + '\n').repeat(2000)), sacct)).toBe(true)
    expect(await fill(enc(swfLine.repeat(20000)), swf)).toBe(false)
  })

  it('SWF starts its threads only with 4 or more of them: fewer compete with gunzip for the cores', () => {
    // (0 = the chunks parsed in this thread, as the tests above do: no thread competes.)
    for (const w of [1, 2, 3]) expect(minBytesFor('swf', w), String(w)).toBe(Infinity)
    for (const w of [0, 4, 8]) expect(minBytesFor('swf', w), String(w)).toBe(16 << 20)
    for (const w of [0, 2, 4]) {
      expect(minBytesFor('sacct', w)).toBe(8 << 20)
      expect(minBytesFor('jobcomp', w)).toBe(8 << 20)
      expect(minBytesFor('pbs', w)).toBe(16 << 20)
    }
  })
})

describe('jobcomp in chunks, worked by hand', () => {
  const line = (id: number, extra: string) =>
    `JobId=${id} UserId=u${id % 2}(100${id % 2}) Partition=p${id % 3} JobState=COMPLETED SubmitTime=1000 StartTime=${1000 + id} EndTime=${1100 + id} NodeList=c${id} ProcCnt=2 TimeLimit=10${extra}`
  it('a raw-id column that appears in a later chunk gives the earlier jobs their own id (as one parser does)', () => {
    // Jobs 5 and 6 are plain; job 71 is task 2 of array 70; job 8 is plain again.
    const bytes = enc([line(5, ''), line(6, ''), line(71, ' ArrayJobId=70 ArrayTaskId=2'), line(8, '')].join('\n') + '\n')
    const { log, chunks } = chunked('jobcomp', bytes)
    expect(chunks).toBe(4)
    expect([...log.jobs.id]).toEqual([5, 6, 70, 8])
    expect([...log.jobs.rawId!]).toEqual([5, 6, 71, 8])
    expect([...log.jobs.subId!]).toEqual([-1, -1, 2, -1])
    expect(log.users).toEqual(['u1', 'u0'])
    expect(log.partitions).toEqual(['p2', 'p0'])
    expect([...log.jobs.partition!]).toEqual([0, 1, 0, 0])
    expect(log).toEqual(sequential('jobcomp', bytes))
  })
})

describe('PBS in chunks, worked by hand', () => {
  it('the record types other than E are listed in order of first appearance, counted over every chunk', () => {
    const rec = (type: string, id: number) => `03/31/2025 10:59:${String(id).padStart(2, '0')};${type};${id}.srv;user=u${id} qtime=${1000 + id} start=${1010 + id} end=${1100 + id} Resource_List.ncpus=1 Resource_List.walltime=00:10:00`
    const bytes = enc([rec('Q', 1), rec('S', 1), rec('E', 1), rec('Q', 2), rec('D', 2), rec('S', 3), rec('E', 3), 'junk'].join('\n') + '\n')
    const { log } = chunked('pbs', bytes)
    expect([...log.jobs.id]).toEqual([1, 3])
    expect([...log.jobs.line]).toEqual([3, 7])
    expect(log.parserDrops).toEqual([
      { rule: 'pbs-non-end-records', description: 'records other than E (job end) are not jobs: Q 2, S 2, D 1', effect: 'info', count: 5, exampleLines: [1, 2, 4, 5, 6] },
    ])
    expect(log.badLineExamples.map((e) => [e.line, e.code])).toEqual([[8, 'not-a-record']])
    expect(log).toEqual(sequential('pbs', bytes))
  })
})

describe('NodeTracker.absorb, worked by hand', () => {
  it('beyond the cap, a new name counts every job that named it in its chunk; a kept name is updated', () => {
    // One tracker, cap 2: a, b kept; c named by two jobs (2 mentions lost); a updated by the third job.
    const seq = new NodeTracker(2)
    seq.add(['a', 'b'], 4, -1, 0)
    seq.add(['c'], 1, -1, 1)
    seq.add(['c', 'a'], 16, 2, 1)
    // The same jobs in two chunks: [job 1], [jobs 2 and 3] with the chunk's partition 0 = merged 1.
    const one = new NodeTracker(2), two = new NodeTracker(2)
    one.add(['a', 'b'], 4, -1, 0)
    two.add(['c'], 1, -1, 0)
    two.add(['c', 'a'], 16, 2, 0)
    const merged = new NodeTracker(2)
    merged.absorb(one.part(), [0])
    merged.absorb(two.part(), [1])
    expect(merged.finish()).toEqual([
      { name: 'a', maxCpus: 8, maxGpus: 1, partitions: [0, 1] },
      { name: 'b', maxCpus: 2, maxGpus: -1, partitions: [0] },
    ])
    expect(merged.overflow).toBe(2)
    expect(merged.finish()).toEqual(seq.finish())
    expect(merged.overflow).toBe(seq.overflow)
  })
})

describe('chunked = sequential, property', () => {
  // Lines drawn from good rows, rows with bad cells, steps, blank lines and junk, joined by LF, CRLF
  // or a lone CR, cut at random chunk sizes: the merged parse equals the sequential one, always.
  const sacctRows = [
    '1|1|ann|a|cpu|normal|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:02:00|60|4|00:10:00|n[1-2]|COMPLETED',
    '2_7|3|bob|b|gpu|high|1704067300|1704067400|1704067500|100|8|UNLIMITED|g1|COMPLETED',
    '2_[1-9]|2|bob|b|gpu|high|1704067300|Unknown|Unknown|0|8|1-00:00:00||PENDING',
    '4.batch|4|cid|a|cpu|normal|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:02:00|60|1||n1|COMPLETED',
    '5|5|dee||cpu|low|2024-01-01T00:00:00+02:00|2024-01-01T00:30:00+02:00|2024-01-01T01:30:00+02:00|x|1|00:10:00|n3|FAILED',
    '6|6|eve|c|debug|normal|2024-02-30T00:00:00|||0|1|5|(null)|CANCELLED by 0',
    '7|7|fay|c|cpu,gpu|normal|2024-01-01T00:00:00|2024-01-01T00:00:09|2024-01-01T00:00:09|0|2|5:00|n[1-3]|REQUEUED',
    '', '   ', 'garbage', '8|8|too|few',
  ]
  const header = 'JobID|JobIDRaw|User|Account|Partition|QOS|Submit|Start|End|ElapsedRaw|AllocCPUS|Timelimit|NodeList|State'
  const jobcompRows = [
    'JobId=1 UserId=ann(1) Partition=p JobState=COMPLETED SubmitTime=100 StartTime=110 EndTime=200 NodeList=c[1-2] ProcCnt=4 TimeLimit=10',
    'JobId=3 UserId=bob(2) JobState=COMPLETED SubmitTime=100 StartTime=120 EndTime=300 NodeList=c2 ProcCnt=2 TimeLimit=UNLIMITED ArrayJobId=2 ArrayTaskId=1 QOS=hi',
    'JobId=4.0 UserId=bob(2) SubmitTime=100', 'JobId=x SubmitTime=1', 'no pairs here', 'JobId=5 SubmitTime=50 StartTime=None NodeList=None', '',
  ]
  const pbsRows = [
    '03/31/2025 10:59:01;Q;1.srv;user=a qtime=100', '03/31/2025 10:59:02;E;1.srv;user=a qtime=100 start=110 end=200 Resource_List.ncpus=2 Resource_List.walltime=00:10:00',
    '03/31/2025 10:59:03;E;2[].srv;user=b qtime=100 start=110 end=200', '03/31/2025 10:59:04;D;3.srv;user=c', '13/31/2025 10:59:04;E;4.srv;', 'x;y', '',
  ]
  const cases: [TextFormat, string | null, string[]][] = [['sacct', header, sacctRows], ['jobcomp', null, jobcompRows], ['pbs', null, pbsRows]]
  for (const [format, head, rows] of cases) {
    it(format, () => {
      fc.assert(fc.property(
        fc.array(fc.nat(rows.length - 1), { minLength: 1, maxLength: 60 }), fc.constantFrom('\n', '\r\n', '\r'),
        fc.integer({ min: 1, max: 400 }), fc.boolean(),
        (picks, eol, target, endsWithBreak) => {
          const text = (head === null ? [] : [head]).concat(picks.map((k) => rows[k])).join(eol) + (endsWithBreak ? eol : '')
          const bytes = enc(text)
          fc.pre(bytes.length > 0) // an empty file is refused before any parse (the importer's rule)
          const seq = sequential(format, bytes)
          expect(chunked(format, bytes, target).log).toEqual(seq)
        }), { numRuns: 150, seed: 2411 })
    })
  }
})

describe('column sizing of a chunk', () => {
  it('a chunk of blank lines sizes its columns by its bytes, not its millions of lines', () => {
    const plan = planTextChunks('sacct', enc('JobID|Submit|ElapsedRaw|User\n'))!
    const reserve = vi.spyOn(RawJobsBuilder.prototype, 'reserve')
    try {
      const blank = new Uint8Array(1 << 20).fill(10) // 1 MiB of line feeds: 1,048,576 lines, no job
      const c = parseTextChunk(plan, blank, false)
      expect(c.jobs.count).toBe(0)
      expect(c.linesRead).toBe(1 << 20)
      expect(reserve).toHaveBeenCalledWith((1 << 20) / MIN_ROW_BYTES)
      // A chunk of ordinary rows (38 bytes each) is sized for its lines: 100 rows and the empty
      // rest after the last line feed, fewer than its 3,800 bytes / 32.
      reserve.mockClear()
      parseTextChunk(plan, enc('12345|2024-01-01T00:00:00|500|someone\n'.repeat(100)), false)
      expect(reserve).toHaveBeenCalledWith(101)
    } finally {
      reserve.mockRestore()
    }
  })
})
