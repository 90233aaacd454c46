import { describe, it, expect } from 'vitest'
import { readFileSync } from 'node:fs'
import { InputError } from '../../src/core/workload/errors'
import { createJobcompParser } from '../../src/core/workload/jobcomp'
import { createSacctParser, slurmJobId, splitCsvLine } from '../../src/core/workload/sacct'
import { sacctCommand } from '../../src/core/workload/sacct-command'
import {
  TimeReader, parseKeyValues, parsePbsDate, parsePbsDuration, parseSlurmDuration,
} from '../../src/core/workload/timeparse'
import type { ParsedLog } from '../../src/core/workload/types'
import { fixture } from '../support/data'
import { randomBytes, rows, run } from '../support/parsing'

function drop(log: ParsedLog, rule: string) {
  return log.parserDrops.find((d) => d.rule === rule)
}

function lines(...ls: string[]): string {
  return ls.join('\n') + '\n'
}

describe('timeparse', () => {
  it('reads SLURM durations in every spelling', () => {
    expect(parseSlurmDuration('05:30')).toBe(330)
    expect(parseSlurmDuration('01:02:03')).toBe(3723)
    expect(parseSlurmDuration('2-03')).toBe(2 * 86400 + 3 * 3600)
    expect(parseSlurmDuration('2-03:04')).toBe(2 * 86400 + 3 * 3600 + 4 * 60)
    expect(parseSlurmDuration('1-02:03:04')).toBe(93784)
    expect(parseSlurmDuration('31-00:00:00')).toBe(31 * 86400)
    expect(parseSlurmDuration('10320')).toBe(10320 * 60) // TimelimitRaw is in minutes
    expect(parseSlurmDuration('00:00:01.5')).toBe(1.5)
  })

  it('gives -1 for unknown limits and NaN for text that is not a duration', () => {
    for (const s of ['UNLIMITED', 'Partition_Limit', 'INVALID', '', '  ', 'unlimited', '4294967295', '4294967294']) {
      expect(parseSlurmDuration(s)).toBe(-1)
    }
    for (const s of ['abc', '1:2:3:4', '1-2:3:4:5', 'x-01:00', '-5', '1.5:00', '10:xx']) {
      expect(parseSlurmDuration(s)).toBeNaN()
    }
  })

  it('reads PBS durations (a bare number is seconds) and dates', () => {
    expect(parsePbsDuration('06:00:00')).toBe(21600)
    expect(parsePbsDuration('00:33:27')).toBe(2007)
    expect(parsePbsDuration('100:00:00')).toBe(360000)
    expect(parsePbsDuration('10:00')).toBe(600)
    expect(parsePbsDuration('3600')).toBe(3600)
    expect(parsePbsDuration('')).toBe(-1)
    expect(parsePbsDuration('1:2:3:4')).toBeNaN()
    expect(parsePbsDate('03/31/2025 10:59:15')).toBe(Date.UTC(2025, 2, 31, 10, 59, 15) / 1000)
    expect(parsePbsDate('02/30/2025 10:59:15')).toBeNaN()
    expect(parsePbsDate('13/01/2025 10:59:15')).toBeNaN()
    expect(parsePbsDate('03/31/25 10:59:15')).toBeNaN()
    expect(parsePbsDate('03/31/2025')).toBeNaN()
  })

  it('reads epoch and ISO times, counting ISO times without a zone', () => {
    const t = new TimeReader()
    expect(t.parse('1703688808')).toBe(1703688808)
    expect(t.parse('2024-06-24T12:33:26Z')).toBe(1719232406)
    expect(t.parse('2024-06-24T14:33:26+02:00')).toBe(1719232406)
    expect(t.parse('2024-06-24T07:33:26-0500')).toBe(1719232406)
    expect(t.warning()).toBeNull()
    expect(t.parse('2024-06-24T12:33:26')).toBe(1719232406)
    expect(t.parse('2024-06-24 12:33:26')).toBe(1719232406)
    expect(t.naiveIsoCount).toBe(2)
    expect(t.warning()).toContain('No time zone on 2 time stamps (e.g. 2024-06-24T12:33:26): read as UTC.')
    expect(t.warning()).toContain('UTC')
    for (const s of ['Unknown', 'None', '', '0', 'yesterday', '2024-02-30T00:00:00', '2024-06-24T25:00:00', '-5']) {
      expect(t.parse(s)).toBeNaN()
    }
  })

  it('reads key=value records with quotes, continuations and a leading date stamp', () => {
    const kv = parseKeyValues('2021-05-30 00:00:02 JobId=7 Name=my job user="a b=c" Tres=cpu=8,node=1 jobid=8 empty=')
    expect(Object.fromEntries(kv)).toEqual({ jobid: '7', name: 'my job', user: 'a b=c', tres: 'cpu=8,node=1', empty: '' })
    expect(parseKeyValues('no pairs here').size).toBe(0)
  })

  it('maps SLURM job ids to numbers and splits CSV lines', () => {
    expect(slurmJobId('5312341')).toBe(5312341)
    expect(slurmJobId('5313029_10')).toBe(5313029)
    expect(slurmJobId('123_[1-5]')).toBe(123)
    expect(slurmJobId('123+1')).toBe(123)
    expect(slurmJobId('abc')).toBeNaN()
    expect(splitCsvLine('a,"b,c","d""e",,')).toEqual(['a', 'b,c', 'd"e', '', ''])
    expect(splitCsvLine('a,"b')).toBeNull()
  })
})

describe('sacct parser', () => {
  // Columns shuffled on purpose; ISO times; steps; arrays; UNLIMITED; jobs cancelled before start.
  const PIPE = lines(
    'State|User|JobID|Timelimit|Submit|Start|End|AllocCPUS|ReqCPUS|ElapsedRaw|Partition',
    'COMPLETED|alice|100|1-02:03:04|2024-01-01T00:00:00|2024-01-01T00:10:00|2024-01-01T01:10:00|8|4|3600|cpu',
    'COMPLETED||100.batch||2024-01-01T00:10:00|2024-01-01T00:10:00|2024-01-01T01:10:00|8||3600|',
    'COMPLETED||100.extern||2024-01-01T00:10:00|2024-01-01T00:10:00|2024-01-01T01:10:00|8||3600|',
    'COMPLETED||100.0||2024-01-01T00:10:00|2024-01-01T00:10:00|2024-01-01T01:09:00|8||3540|',
    'TIMEOUT|bob|101_3|UNLIMITED|2024-01-01T00:05:00|2024-01-01T00:05:30|2024-01-01T02:05:30|16|16|7200|cpu',
    'CANCELLED by 1000|alice|102_[1-5]|02:00:00|2024-01-01T00:06:00|Unknown|2024-01-01T03:00:00|0|4|0|cpu',
    'CANCELLED by 1001|bob|103|30:00|2024-01-01T00:07:00|None|None|0|2|0|cpu',
    'COMPLETED|carol|104|Partition_Limit|2024-01-01T00:08:00|2024-01-01T00:08:00|2024-01-01T00:09:00||12||cpu',
  )
  const T0 = Date.UTC(2024, 0, 1) / 1000

  it('reads pipe-separated sacct -P output with shuffled columns', () => {
    const log = run(createSacctParser(), PIPE)
    expect(log.format).toBe('sacct')
    expect(log.linesRead).toBe(9)
    expect(log.unixStartTime).toBe(T0)
    expect(rows(log)).toEqual([
      { id: 100, submit: 0, wait: 600, runtime: 3600, alloc: 8, req: 4, requested: 93784, user: 'alice', status: -1, line: 2 },
      { id: 101, submit: 300, wait: 30, runtime: 7200, alloc: 16, req: 16, requested: -1, user: 'bob', status: -1, line: 6 },
      // no ElapsedRaw: End − Start; no AllocCPUS: ReqCPUS in both
      { id: 104, submit: 480, wait: 0, runtime: 60, alloc: 12, req: 12, requested: -1, user: 'carol', status: -1, line: 9 },
    ])
    expect(log.users).toEqual(['alice', 'bob', 'carol'])
    expect(log.maxProcs).toBeNull()
    expect(log.maxNodes).toBeNull()
    expect(log.badLines).toBe(0)
    expect(log.parserDrops).toEqual([
      { rule: 'slurm-steps', description: expect.stringContaining('steps'), effect: 'removed', count: 3, exampleLines: [3, 4, 5] },
      { rule: 'slurm-never-started', description: expect.stringContaining('never started'), effect: 'removed', count: 2, exampleLines: [7, 8] },
    ])
    expect(log.header).toEqual({ Columns: 'State, User, JobID, Timelimit, Submit, Start, End, AllocCPUS, ReqCPUS, ElapsedRaw, Partition' })
    expect(log.warnings).toHaveLength(1)
    expect(log.warnings[0]).toMatch(/^No time zone on 12 time stamps \(e\.g\. 2024-01-01T00:00:00\): read as UTC\./)
  })

  it('reads the Partition column and the task index of array ids (docs/SIMULATOR.md §Resource columns)', () => {
    const log = run(createSacctParser(), PIPE)
    expect(log.partitions).toEqual(['cpu'])
    expect(Array.from(log.jobs.partition!)).toEqual([0, 0, 0])
    expect(Array.from(log.jobs.subId!)).toEqual([-1, 3, -1]) // 101_3
    expect(log.qosNames).toBeUndefined() // no QOS column: nothing allocated
    expect(log.jobs.qos).toBeUndefined()
    expect(log.jobs.nodes).toBeUndefined()
    expect(log.nodesSeen).toBeUndefined()
  })

  it('gives identical results whatever the chunk size, and with CRLF line ends', () => {
    const whole = run(createSacctParser(), PIPE)
    expect(run(createSacctParser(), PIPE, 1)).toEqual(whole)
    expect(run(createSacctParser(), PIPE, 7)).toEqual(whole)
    expect(run(createSacctParser(), PIPE.replaceAll('\n', '\r\n'), 3)).toEqual(whole)
    expect(run(createSacctParser(), PIPE.slice(0, -1))).toEqual(whole) // no final newline
  })

  // CSV export: quoted header and fields, epoch times, TimelimitRaw in minutes, NCPUS.
  const CSV = lines(
    '\uFEFF"JobID","Submit","Start","End","State","NCPUS","TimelimitRaw","User"',
    '200,1700000000,1700000100,1700000400,COMPLETED,4,60,"doe, jane"',
    '201,1700000050,1700000060,1700000070,"CANCELLED by 7",2,"4294967295","o""brien"',
    '202,1700000060,None,1700000100,"CANCELLED by 7",2,10,x',
    '203,1700000070,1700000090,1700000190,FAILED,1,Partition_Limit,"x"',
  )

  it('reads a CSV export with quoted fields and epoch times', () => {
    const log = run(createSacctParser(), CSV)
    expect(rows(log)).toEqual([
      { id: 200, submit: 0, wait: 100, runtime: 300, alloc: 4, req: 4, requested: 3600, user: 'doe, jane', status: -1, line: 2 },
      { id: 201, submit: 50, wait: 10, runtime: 10, alloc: 2, req: 2, requested: -1, user: 'o"brien', status: -1, line: 3 },
      { id: 203, submit: 70, wait: 20, runtime: 100, alloc: 1, req: 1, requested: -1, user: 'x', status: -1, line: 5 },
    ])
    expect(log.unixStartTime).toBe(1700000000)
    expect(drop(log, 'slurm-never-started')?.exampleLines).toEqual([4])
    expect(drop(log, 'slurm-steps')).toBeUndefined()
    expect(log.warnings).toEqual([])
    expect(run(createSacctParser(), CSV, 1)).toEqual(log)
    expect(run(createSacctParser(), CSV, 7)).toEqual(log)
  })

  it('reports malformed rows with their line number and skips them', () => {
    const text = lines(
      'JobID|Submit|Start|End|ElapsedRaw|NCPUS|Timelimit',
      '1|1000|1010|1020|10|1|10',
      '2|1001|1011',
      '3|yesterday|1012|1022|10|1|10',
      'abc|1003|1013|1023|10|1|10',
      '',
      '4|1004|1014|1024|10|2|10:00',
    )
    const log = run(createSacctParser(), text)
    expect(rows(log).map((r) => [r.id, r.line, r.requested])).toEqual([[1, 2, 600], [4, 7, 600]])
    expect(log.badLines).toBe(3)
    expect(log.badLineExamples).toEqual([
      { line: 3, code: 'too-few-fields', message: '3 fields, the header has 7' },
      { line: 4, code: 'bad-time', message: 'Submit "yesterday" is not a time (epoch seconds or YYYY-MM-DDThh:mm:ss)' },
      { line: 5, code: 'not-a-number', message: 'JobID "abc" is not a job number' },
    ])
    expect(log.linesRead).toBe(7)
  })

  it('reports an unclosed quote in a CSV row', () => {
    const log = run(createSacctParser(), lines('JobID,Submit,ElapsedRaw', '1,"1000,5', '2,1001,6'))
    expect(log.badLineExamples).toEqual([{ line: 2, code: 'bad-quote', message: 'a double quote is not closed' }])
    expect(rows(log).map((r) => [r.id, r.runtime])).toEqual([[2, 6]])
  })

  it('throws InputError naming the missing columns, at the header line', () => {
    const error = (text: string) => {
      try { run(createSacctParser(), text) } catch (e) { return e }
      return null
    }
    const noSubmit = error(lines('JobID|Start|End|ElapsedRaw', '1|2|3|1'))
    expect(noSubmit).toBeInstanceOf(InputError)
    expect((noSubmit as InputError).line).toBe(1)
    expect((noSubmit as InputError).message).toMatch(/no Submit column/)
    expect((noSubmit as InputError).message).toContain(`Export with \`${sacctCommand()}\``) // the one recommended command
    const noRuntime = error(lines('JobID,Submit,NCPUS'))
    expect((noRuntime as InputError).message).toMatch(/no a run time \(ElapsedRaw, Elapsed, Start and End, or CPUTimeRAW\) column/)
    const neither = error(lines('', 'JobID|NCPUS'))
    expect((neither as InputError).message).toMatch(/no Submit and no a run time/)
    expect((neither as InputError).line).toBe(2)
  })

  it('warns when there is no Timelimit, JobID, User or CPU column', () => {
    const log = run(createSacctParser(), lines('Submit|ElapsedRaw', '1000|5', '1010|6'))
    expect(rows(log)).toEqual([
      { id: -1, submit: 0, wait: NaN, runtime: 5, alloc: -1, req: -1, requested: -1, user: null, status: -1, line: 2 },
      { id: -1, submit: 10, wait: NaN, runtime: 6, alloc: -1, req: -1, requested: -1, user: null, status: -1, line: 3 },
    ])
    expect(log.warnings).toEqual([
      expect.stringMatching(/^The file has no Timelimit column: requested run times are unknown \(-1\), so EASY backfilling cannot be simulated faithfully/),
      'The file has no JobID column: job ids are unknown (-1).',
      'The file has no CPU count column (AllocCPUS, NCPUS or ReqCPUS): processor counts are unknown (-1).',
      'The file has no User column: per-user statistics are not available.',
    ])
  })

  it('derives run time from CPUTimeRAW and wait from ResvCPURAW when there is no Start (Kabré layout)', () => {
    const text = lines(
      'CPUTimeRAW|ReqCPUS|ResvCPURAW|Submit|Timelimit|State',
      '7200|4|400|2024-06-24T12:00:00|01:00:00|COMPLETED',
      '0|2|50|2024-06-24T12:01:00|00:10:00|CANCELLED by 5',
      '600|1|0|2024-06-24T12:02:00|00:05:00|CANCELLED by 5',
      '0|1|30|2024-06-24T12:03:00|2-00:00:00|FAILED',
    )
    const log = run(createSacctParser(), text)
    expect(rows(log)).toEqual([
      { id: -1, submit: 0, wait: 100, runtime: 1800, alloc: 4, req: 4, requested: 3600, user: null, status: -1, line: 2 },
      { id: -1, submit: 120, wait: 0, runtime: 600, alloc: 1, req: 1, requested: 300, user: null, status: -1, line: 4 },
      { id: -1, submit: 180, wait: 30, runtime: 0, alloc: 1, req: 1, requested: 172800, user: null, status: -1, line: 5 },
    ])
    expect(drop(log, 'slurm-never-started')).toMatchObject({ count: 1, exampleLines: [3], description: expect.stringContaining('no Start column') })
    expect(log.warnings[0]).toBe('Run time was derived as CPUTimeRAW / ReqCPUS for 3 jobs (no ElapsedRaw, Elapsed or Start and End). ' +
      'It is too long when more CPUs were allocated than counted there (e.g. whole nodes): for 1 job it exceeds the time limit.')
    expect(log.warnings[1]).toMatch(/^The recorded wait was derived as ResvCPURAW \/ ReqCPUS for 3 jobs/)
  })

  it('uses Elapsed when there is no ElapsedRaw, and drops unfinished jobs', () => {
    const text = lines(
      'JobID|Submit|Start|Elapsed|ReqCPUS|Timelimit|State',
      '1|1000|1000|1-00:00:00|2|2-00:00:00|COMPLETED',
      '2|1000|1005|05:30|2|10:00|FAILED',
      '3|1000|1005|INVALID|2|10:00|NODE_FAIL',
      '4|1000|1010|00:10:00|2|1:00:00|RUNNING',
      '5|1000|Unknown|00:00:00|2|1:00:00|PENDING',
    )
    const log = run(createSacctParser(), text)
    expect(rows(log).map((r) => [r.id, r.runtime, r.requested, r.wait])).toEqual([[1, 86400, 172800, 0], [2, 330, 600, 5], [3, -1, 600, 5]])
    expect(drop(log, 'slurm-unfinished')).toMatchObject({ count: 1, exampleLines: [5] })
    expect(drop(log, 'slurm-never-started')).toMatchObject({ count: 1, exampleLines: [6] })
    expect(log.warnings).toContain('The run time of 1 job is unknown (-1).')
  })

  it('accepts a header-only file and rejects empty, binary and non-sacct input', () => {
    const headerOnly = run(createSacctParser(), lines('JobID|Submit|ElapsedRaw'))
    expect(headerOnly.jobs.count).toBe(0)
    expect(headerOnly.unixStartTime).toBeNull()
    expect(headerOnly.badLines).toBe(0)
    expect(() => run(createSacctParser(), '')).toThrow(InputError)
    expect(() => run(createSacctParser(), randomBytes(5000, 1, false))).toThrow(InputError)
    expect(() => run(createSacctParser(), randomBytes(5000, 2, true), 1)).toThrow(InputError)
    const swf = '; Version: 2.2\n; MaxProcs: 100\n1 0 10 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n'
    expect(() => run(createSacctParser(), swf)).toThrow(/no Submit/)
    expect(() => run(createSacctParser(), 'a'.repeat(2 << 20))).toThrow(InputError)
  })
})

describe('jobcomp parser', () => {
  const SITE = lines(
    '2021-05-30 00:00:02 jobstate=COMPLETED jobid=500 username=u1 account=a start=1622318025 end=1622325602 submit=1622317852 nodes=r380 procs=1 batch=yes jobname=j1 partition=core limit=06:00:00',
    '2021-05-30 00:00:03 jobstate=CANCELLED jobid=501 username=u2 account=a start=1622318100 end=1622318100 submit=1622317900 nodes= procs=16 batch=yes jobname=j2 partition=core limit=3-00:00:00',
    '2021-05-30 00:00:04 jobstate=TIMEOUT jobid=502_7 username=u2 account=a start=1622318000 end=1622490800 submit=1622317800 nodes=r[1-2] procs=40 batch=yes jobname=my job partition=node limit=2-00:00:00',
  )

  it('reads site-style lines with a leading date stamp', () => {
    const log = run(createJobcompParser(), SITE)
    expect(log.format).toBe('jobcomp')
    expect(rows(log)).toEqual([
      { id: 500, submit: 52, wait: 173, runtime: 7577, alloc: 1, req: 1, requested: 21600, user: 'u1', status: -1, line: 1 },
      { id: 502, submit: 0, wait: 200, runtime: 172800, alloc: 40, req: 40, requested: 172800, user: 'u2', status: -1, line: 3 },
    ])
    expect(log.unixStartTime).toBe(1622317800)
    expect(log.parserDrops).toEqual([
      { rule: 'slurm-never-started', description: expect.stringContaining('no node was ever allocated'), effect: 'removed', count: 1, exampleLines: [2] },
    ])
    expect(log.warnings).toEqual([])
    expect(run(createJobcompParser(), SITE, 1)).toEqual(log)
    expect(run(createJobcompParser(), SITE, 7)).toEqual(log)
  })

  it('reads site-style node lists into node counts and the nodes seen', () => {
    const log = run(createJobcompParser(), SITE)
    expect(Array.from(log.jobs.nodes!)).toEqual([1, 2]) // nodes=r380; nodes=r[1-2]
    expect(log.partitions).toEqual(['core', 'node'])
    expect(Array.from(log.jobs.partition!)).toEqual([0, 1])
    expect(Array.from(log.jobs.subId!)).toEqual([-1, 7]) // jobid=502_7
    // job 502: 40 CPUs over r1 and r2 → 20 each
    expect(log.nodesSeen).toEqual([
      { name: 'r380', maxCpus: 1, maxGpus: -1, partitions: [0] },
      { name: 'r1', maxCpus: 20, maxGpus: -1, partitions: [1] },
      { name: 'r2', maxCpus: 20, maxGpus: -1, partitions: [1] },
    ])
  })

  const CLASSIC = lines(
    'JobId=10 UserId=alice(1000) GroupId=users(100) Name=my job JobState=COMPLETED Partition=debug TimeLimit=60 StartTime=2026-11-22T11:55:39 EndTime=2026-11-22T11:55:49 NodeList=n1 NodeCnt=1 ProcCnt=8 WorkDir=/home/alice SubmitTime=2026-11-22T11:55:00',
    'JobId=11 UserId=bob(1001) GroupId=users(100) Name=x JobState=CANCELLED Partition=debug TimeLimit=UNLIMITED StartTime=Unknown EndTime=2026-11-22T11:56:00 NodeList=(null) NodeCnt=0 ProcCnt=4 SubmitTime=2026-11-22T11:55:10',
    'JobId=12 UserId=bob(1001) JobState=FAILED Partition=debug TimeLimit=Partition_Limit StartTime=2026-11-22T11:55:20 EndTime=2026-11-22T11:55:21 NodeList=n2 NodeCnt=1 ProcCnt=4 SubmitTime=2026-11-22T11:55:20',
    'JOBID=13 USERNAME=carol JOBSTATE=COMPLETED START=2026-11-22T11:56:00 END=2026-11-22T12:56:00 SUBMIT=2026-11-22T11:55:30 PROCS=2 LIMIT=1-00:00:00',
  )

  it('reads SLURM\'s own JobId=… spelling with ISO times and minute time limits', () => {
    const log = run(createJobcompParser(), CLASSIC)
    expect(rows(log)).toEqual([
      { id: 10, submit: 0, wait: 39, runtime: 10, alloc: 8, req: 8, requested: 3600, user: 'alice', status: -1, line: 1 },
      { id: 12, submit: 20, wait: 0, runtime: 1, alloc: 4, req: 4, requested: -1, user: 'bob', status: -1, line: 3 },
      { id: 13, submit: 30, wait: 30, runtime: 3600, alloc: 2, req: 2, requested: 86400, user: 'carol', status: -1, line: 4 },
    ])
    expect(log.unixStartTime).toBe(Date.UTC(2026, 10, 22, 11, 55, 0) / 1000)
    expect(drop(log, 'slurm-never-started')).toMatchObject({ count: 1, exampleLines: [2] })
    expect(log.warnings).toEqual([
      'Requested run time unknown (-1) for 1 job: no time limit (missing, UNLIMITED or Partition_Limit).',
      expect.stringMatching(/^No time zone on 11 time stamps \(e\.g\. 2026-11-22T11:55:00\): read as UTC\./),
    ])
    expect(run(createJobcompParser(), CLASSIC, 1)).toEqual(log)
    expect(run(createJobcompParser(), CLASSIC, 7)).toEqual(log)
  })

  it('reads NodeList, NodeCnt and Partition of SLURM\'s own spelling', () => {
    const log = run(createJobcompParser(), CLASSIC)
    expect(Array.from(log.jobs.nodes!)).toEqual([1, 1, -1]) // job 13 has no node keys
    expect(log.partitions).toEqual(['debug'])
    expect(Array.from(log.jobs.partition!)).toEqual([0, 0, -1])
    expect(log.nodesSeen!.map((n) => [n.name, n.maxCpus])).toEqual([['n1', 8], ['n2', 4]])
  })

  it('reports unreadable lines and skips them', () => {
    const text = lines(
      'hello world',
      'jobstate=COMPLETED submit=1000 start=1001 end=1002',
      'jobid=9 submit=yesterday start=1001 end=1002',
      'jobid=x1 submit=1000 start=1001 end=1002',
      'jobid=20 start=1001 end=1002',
      '',
      'jobid=21 submit=1000 start=0 end=1002 procs=1',
      'jobid=22.batch submit=1000 start=1001 end=1002 procs=1',
      'jobid=23 submit=1000 start=1001 end=1002 procs=1',
    )
    const log = run(createJobcompParser(), text)
    expect(rows(log).map((r) => [r.id, r.line, r.runtime, r.requested])).toEqual([[23, 9, 1, -1]])
    expect(log.badLineExamples).toEqual([
      { line: 1, code: 'not-a-record', message: 'no key=value pairs: not a jobcomp line' },
      { line: 2, code: 'missing-field', message: 'no jobid' },
      { line: 3, code: 'bad-time', message: 'submit "yesterday" is not a time (epoch seconds or YYYY-MM-DDThh:mm:ss)' },
      { line: 4, code: 'not-a-number', message: 'jobid "x1" is not a job number' },
      { line: 5, code: 'missing-field', message: 'no submit time' },
    ])
    expect(drop(log, 'slurm-never-started')?.exampleLines).toEqual([7])
    expect(drop(log, 'slurm-steps')?.exampleLines).toEqual([8])
    expect(log.warnings[0]).toMatch(/^No job has a time limit/)
  })

  it('gives zero jobs and bad lines, never a crash, on input of the wrong kind', () => {
    const swf = run(createJobcompParser(), '; Version: 2.2\n1 0 10 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n')
    expect(swf.jobs.count).toBe(0)
    expect(swf.badLines).toBe(2)
    expect(swf.warnings).toEqual(['No job could be read: is this a SLURM jobcomp log?'])
    const noise = randomBytes(20000, 3, true)
    const nonBlank = new TextDecoder().decode(noise).split('\n').filter((l) => l.trim() !== '').length
    const log = run(createJobcompParser(), noise, 7)
    expect(log.jobs.count).toBe(0)
    expect(log.badLines).toBe(nonBlank)
    expect(() => run(createJobcompParser(), randomBytes(5000, 4, false))).toThrow(InputError)
    const empty = run(createJobcompParser(), '')
    expect([empty.jobs.count, empty.badLines, empty.linesRead, empty.unixStartTime]).toEqual([0, 0, 0, null])
  })
})

// Excerpts of the real logs (test/fixtures/slurm, sources in its README); every expected value
// below is read off the excerpt by hand (a field, or a difference of two fields). The whole logs
// are checked in test/reallogs/slurm.test.ts.
describe('real SLURM log excerpts', () => {
  it('Cirrus sacct CSV (NCPUS, epoch times, arrays, jobs cancelled before they started)', () => {
    const text = readFileSync(fixture('slurm/cirrus-sacct-excerpt.csv'))
    const log = run(createSacctParser(), text)
    expect(log.linesRead).toBe(14) // header + 13 rows
    expect(log.badLines).toBe(0)
    expect(log.unixStartTime).toBe(1703688808) // Submit of the first row, the earliest
    // rows 13 and 14: Start=None, CANCELLED by 10408
    expect(log.parserDrops).toEqual([{ rule: 'slurm-never-started', description: expect.any(String), effect: 'removed', count: 2, exampleLines: [13, 14] }])
    const T = 1703688808
    const r = rows(log)
    // submit = Submit − T, wait = Start − Submit, runtime = ElapsedRaw, alloc = req = NCPUS; no Timelimit column
    expect(r.map((j) => [j.id, j.submit, j.wait, j.runtime, j.alloc, j.req, j.requested, j.line])).toEqual([
      [5312341, 1703688808 - T, 1703987306 - 1703688808, 142352, 756, 756, -1, 2],
      [5312508, 1703760335 - T, 1704072737 - 1703760335, 44894, 576, 576, -1, 3],
      [5312509, 1703760335 - T, 1704072737 - 1703760335, 47257, 576, 576, -1, 4],
      [5312510, 1703760335 - T, 1704117633 - 1703760335, 42076, 576, 576, -1, 5],
      [5312766, 1703858644 - T, 1704129660 - 1703858644, 147881, 756, 756, -1, 6],
      [5312850, 1703931144 - T, 1, 259208, 32, 32, -1, 7], // 5312850_12: an array task keeps its parent id
      [5313029, 1704024773 - T, 0, 60583, 32, 32, -1, 8],
      [5313029, 1704024773 - T, 0, 61346, 32, 32, -1, 9],
      [5313029, 1704024773 - T, 0, 56077, 32, 32, -1, 10],
      [5313029, 1704024773 - T, 0, 49492, 32, 32, -1, 11],
      [5313029, 1704024773 - T, 0, 58867, 32, 32, -1, 12],
    ])
    expect(r.every((j) => j.user === null)).toBe(true)
    expect(log.warnings).toHaveLength(2)
    expect(log.warnings[0]).toMatch(/^The file has no Timelimit column/)
    expect(log.warnings[1]).toMatch(/^The file has no User column/)
    expect(run(createSacctParser(), text, 7)).toEqual(log)
  })

  it('Kabré sacct -P (no Start: run time from CPUTimeRAW, wait from ResvCPURAW, ISO submits)', () => {
    const text = readFileSync(fixture('slurm/kabre-sacct-excerpt.psv'))
    const log = run(createSacctParser(), text)
    expect(log.linesRead).toBe(13)
    expect(log.badLines).toBe(0)
    expect(log.unixStartTime).toBe(Date.UTC(2024, 5, 24, 12, 33, 26) / 1000)
    // rows 9 and 12: CANCELLED with CPUTimeRAW 0
    expect(drop(log, 'slurm-never-started')).toMatchObject({ count: 2, exampleLines: [9, 12] })
    const r = rows(log)
    const day = 86400
    // runtime = CPUTimeRAW / ReqCPUS (rounded), wait = ResvCPURAW / ReqCPUS, requested = TimelimitRaw minutes × 60
    expect(r.map((j) => [j.submit, j.wait, j.runtime, j.req, j.requested, j.line])).toEqual([
      [0, 1, 158517504, 1, 10320 * 60, 2],
      [Date.UTC(2024, 5, 25, 1, 4, 0) / 1000 - log.unixStartTime!, 45900, 29018640, 1, 10080 * 60, 3],
      [Date.UTC(2024, 5, 25, 14, 3, 37) / 1000 - log.unixStartTime!, 432175, 4147392, 1, day, 4],
      [Date.UTC(2024, 5, 25, 14, 3, 56) / 1000 - log.unixStartTime!, 518590, 4088688, 1, day, 5],
      [Date.UTC(2024, 5, 25, 19, 30, 43) / 1000 - log.unixStartTime!, 584164, 7135296, 1, 3 * day, 6],
      [Date.UTC(2024, 5, 27, 15, 58, 44) / 1000 - log.unixStartTime!, 572735, 4148448, 1, day, 7],
      [Date.UTC(2024, 5, 27, 15, 58, 49) / 1000 - log.unixStartTime!, 659185, 3366864, 1, day, 8], // cancelled after it ran
      [Date.UTC(2024, 5, 29, 7, 21, 32) / 1000 - log.unixStartTime!, 0, Math.round(15725242 / 25), 25, 7 * day, 10],
      [Date.UTC(2024, 5, 29, 7, 21, 32) / 1000 - log.unixStartTime!, 0, 8278400 / 25, 25, 7 * day, 11],
      [Date.UTC(2024, 7, 20, 9, 49, 26) / 1000 - log.unixStartTime!, 0, 0, 1, -1, 13], // Partition_Limit
    ])
    expect(r.every((j) => j.id === -1)).toBe(true) // no JobID column
    // over the limit: every derived run time but row 11 (331,136 s < 7 days) and row 13 (no limit)
    expect(log.warnings[0]).toContain('CPUTimeRAW / ReqCPUS for 10 jobs')
    expect(log.warnings[0]).toContain('for 8 jobs it exceeds the time limit')
    expect(log.warnings[1]).toContain('ResvCPURAW / ReqCPUS for 10 jobs')
    expect(log.warnings.at(-1)).toMatch(/^No time zone on 12 time stamps \(e\.g\. 2024-06-24T12:33:26\)/)
    expect(run(createSacctParser(), text, 5)).toEqual(log)
  })

  it('Rackham jobcomp (site key=value lines, anonymised users, jobs never allocated a node)', () => {
    const text = readFileSync(fixture('slurm/rackham-jobcomp-excerpt.txt'))
    const log = run(createJobcompParser(), text)
    expect(log.linesRead).toBe(10)
    expect(log.badLines).toBe(0)
    expect(log.unixStartTime).toBe(1622314692) // submit of line 8, the earliest
    // lines 9 and 10: nodes= (empty)
    expect(drop(log, 'slurm-never-started')).toMatchObject({ count: 2, exampleLines: [9, 10] })
    expect(log.users).toEqual(['u8e2f3ff6fb'])
    const r = rows(log)
    expect(r).toHaveLength(8)
    expect(r[0]).toEqual({ id: 20224496, submit: 1622317852 - 1622314692, wait: 1622318025 - 1622317852, runtime: 1622325602 - 1622318025, alloc: 1, req: 1, requested: 6 * 3600, user: 'u8e2f3ff6fb', status: -1, line: 1 })
    expect(r.map((j) => j.id)).toEqual([20224496, 20224167, 20224036, 20224525, 20223763, 20224045, 20224069, 20223604])
    expect(r.map((j) => j.runtime)).toEqual([7577, 9055, 9553, 7349, 10289, 9317, 9319, 10793]) // end − start
    expect(log.warnings).toEqual([])
    expect(run(createJobcompParser(), text, 3)).toEqual(log)
  })
})
