import { describe, it, expect } from 'vitest'
import { readFileSync } from 'node:fs'
import { InputError } from '../../src/core/workload/errors'
import { createPbsParser, pbsJobId, procsFromNodeSpec } from '../../src/core/workload/pbs'
import { fixture } from '../support/data'
import { randomBytes, rows, run } from '../support/parsing'

// The whole NCAR Casper test log (10 KB; source in test/fixtures/README.md).
const CASPER = fixture('pbs/ncar-casper-testdata')

describe('PBS helpers', () => {
  it('reads job ids, including array subjobs', () => {
    expect(pbsJobId('4215033.casper-pbs')).toBe(4215033)
    expect(pbsJobId('123[4].server')).toBe(123)
    expect(pbsJobId('77')).toBe(77)
    expect(pbsJobId('abc.server')).toBeNaN()
  })

  it('counts processors in Torque nodes and PBS Pro select specs', () => {
    expect(procsFromNodeSpec('2:ppn=16')).toBe(32)
    expect(procsFromNodeSpec('n01:ppn=4+n02:ppn=4')).toBe(8)
    expect(procsFromNodeSpec('3')).toBe(3)
    expect(procsFromNodeSpec('2:ncpus=36:mpiprocs=36+1:ncpus=4')).toBe(76)
    expect(procsFromNodeSpec('1:ncpus=5:mem=30GB:ompthreads=1')).toBe(5)
    expect(procsFromNodeSpec('2:ppn=x')).toBe(-1)
    expect(procsFromNodeSpec('')).toBe(-1)
  })
})

describe('PBS parser', () => {
  const T = 1743415000
  const LOG = [
    '03/31/2025 10:00:00;Q;100.srv;queue=workq',
    `03/31/2025 10:00:05;S;100.srv;user=alice start=${T + 205}`,
    // the quoted jobname holds "user=mallory": it must not be read as a key
    `03/31/2025 11:00:00;E;100.srv;jobname="x user=mallory" user=alice account="proj A" ctime=${T + 100} qtime=${T + 200} etime=${T + 200} start=${T + 205} end=${T + 3805} Resource_List.ncpus=8 Resource_List.walltime=02:00:00 resources_used.walltime=00:59:50 Exit_status=0`,
    `03/31/2025 11:00:01;E;101.srv;user=bob ctime=${T + 300} qtime=${T + 300} start=${T + 400} end=${T + 1000} Resource_List.nodes=2:ppn=16 Resource_List.nodect=2 Resource_List.walltime=3600`,
    `03/31/2025 11:00:02;E;102[3].srv;user=bob ctime=${T} start=${T + 500} end=${T + 600} Resource_List.nodect=3 Resource_List.walltime=10:00`,
    `03/31/2025 11:00:03;E;102[].srv;user=bob ctime=${T} qtime=${T} start=${T + 500} end=${T + 600}`,
    '03/31/2025 11:00:04;D;103.srv;requestor=bob@host',
    `03/31/2025 11:00:05;E;103.srv;user=bob ctime=${T} qtime=${T} end=${T + 1005} Exit_status=271 Resource_List.walltime=01:00:00`,
    `03/31/2025 11:00:06;E;104.srv;user=carol qtime=${T} start=${T + 10} end=${T + 70} Resource_List.select=2:ncpus=36:mpiprocs=36+1:ncpus=4 resources_used.walltime=00:01:00`,
    'not a pbs line',
    '13/45/2025 11:00:07;E;105.srv;user=x qtime=1 start=2 end=3',
    '03/31/2025 11:00:08;E;abc.srv;user=x qtime=1 start=2 end=3',
    '03/31/2025 11:00:09;E;106.srv;user=x start=2 end=3',
  ].join('\n') + '\n'

  it('reads E records and sets the other records aside', () => {
    const log = run(createPbsParser(), LOG)
    expect(log.format).toBe('pbs')
    expect(log.linesRead).toBe(13)
    expect(log.unixStartTime).toBe(T)
    expect(rows(log)).toEqual([
      // runtime from resources_used.walltime, procs from Resource_List.ncpus
      { id: 100, submit: 200, wait: 5, runtime: 3590, alloc: 8, req: 8, requested: 7200, user: 'alice', status: -1, line: 3 },
      // runtime = end − start, procs = nodes 2 × ppn 16, walltime given in seconds
      { id: 101, submit: 300, wait: 100, runtime: 600, alloc: 32, req: 32, requested: 3600, user: 'bob', status: -1, line: 4 },
      // array subjob keeps the parent id; no qtime → ctime; procs from nodect
      { id: 102, submit: 0, wait: 500, runtime: 100, alloc: 3, req: 3, requested: 600, user: 'bob', status: -1, line: 5 },
      // procs from the select spec; no walltime → -1
      { id: 104, submit: 0, wait: 10, runtime: 60, alloc: 76, req: 76, requested: -1, user: 'carol', status: -1, line: 9 },
    ])
    expect(log.users).toEqual(['alice', 'bob', 'carol'])
    expect(log.parserDrops).toEqual([
      { rule: 'pbs-non-end-records', description: 'records other than E (job end) are not jobs: Q 1, S 1, D 1', effect: 'info', count: 3, exampleLines: [1, 2, 7] },
      { rule: 'pbs-array-parents', description: expect.stringContaining('job arrays'), effect: 'removed', count: 1, exampleLines: [6] },
      { rule: 'pbs-never-started', description: expect.stringContaining('without starting'), effect: 'removed', count: 1, exampleLines: [8] },
    ])
    expect(log.badLines).toBe(4)
    expect(log.badLineExamples).toEqual([
      { line: 10, code: 'not-a-record', message: 'not a PBS accounting record (date;type;jobid;attributes)' },
      { line: 11, code: 'bad-time', message: '"13/45/2025 11:00:07" is not a PBS date (MM/DD/YYYY hh:mm:ss)' },
      { line: 12, code: 'not-a-number', message: 'job id "abc.srv" does not start with a number' },
      { line: 13, code: 'missing-field', message: 'no qtime or ctime' },
    ])
    expect(log.warnings).toEqual(['Requested run time unknown (-1) for 1 job: no Resource_List.walltime.'])
    expect([log.maxProcs, log.maxNodes]).toEqual([null, null])
  })

  it('gives identical results whatever the chunk size, and with CRLF line ends', () => {
    const whole = run(createPbsParser(), LOG)
    expect(run(createPbsParser(), LOG, 1)).toEqual(whole)
    expect(run(createPbsParser(), LOG, 7)).toEqual(whole)
    expect(run(createPbsParser(), LOG.replaceAll('\n', '\r\n'), 5)).toEqual(whole)
  })

  it('reads ISO times in attributes as UTC and warns', () => {
    const log = run(createPbsParser(), '01/02/2025 00:00:00;E;7.s;user=u qtime=2025-01-01T00:00:00 start=2025-01-01T00:01:00 end=2025-01-01T00:02:00 Resource_List.ncpus=1 Resource_List.walltime=1:00:00\n')
    expect(rows(log)).toEqual([{ id: 7, submit: 0, wait: 60, runtime: 60, alloc: 1, req: 1, requested: 3600, user: 'u', status: -1, line: 1 }])
    expect(log.unixStartTime).toBe(Date.UTC(2025, 0, 1) / 1000)
    expect(log.warnings).toEqual([expect.stringMatching(/^No time zone on 3 time stamps \(e\.g\. 2025-01-01T00:00:00\): read as UTC\./)])
  })

  it('gives zero jobs and bad lines, never a crash, on input of the wrong kind', () => {
    const empty = run(createPbsParser(), '')
    expect([empty.jobs.count, empty.badLines, empty.linesRead, empty.unixStartTime, empty.parserDrops.length]).toEqual([0, 0, 0, null, 0])
    const sacct = run(createPbsParser(), 'JobID|Submit|ElapsedRaw\n1|1000|5\n')
    expect([sacct.jobs.count, sacct.badLines]).toEqual([0, 2])
    expect(sacct.warnings).toEqual(['No job could be read: is this a PBS accounting log?'])
    const noise = randomBytes(20000, 5, true)
    const nonBlank = new TextDecoder().decode(noise).split('\n').filter((l) => l.trim() !== '').length
    const log = run(createPbsParser(), noise, 7)
    expect([log.jobs.count, log.badLines]).toEqual([0, nonBlank])
    expect(() => run(createPbsParser(), randomBytes(5000, 6, false))).toThrow(InputError)
    expect(() => run(createPbsParser(), 'x;'.repeat(1 << 20))).toThrow(InputError)
  })
})

describe('real PBS log (NCAR Casper test data)', () => {
  it('reads the 4 E records of 18 and checks them against the file', () => {
    const log = run(createPbsParser(), readFileSync(CASPER), 100)
    expect(log.linesRead).toBe(18)
    expect(log.badLines).toBe(0)
    expect(log.unixStartTime).toBe(1743440355)
    expect(log.users).toEqual(['vanderwb', 'bneuman'])
    expect(rows(log)).toEqual([
      // 4215033: qtime 1743440355, start 1743440371 (after a rerun), used walltime 00:00:00, 6 h limit
      { id: 4215033, submit: 0, wait: 16, runtime: 0, alloc: 1, req: 1, requested: 21600, user: 'vanderwb', status: -1, line: 9 },
      // 4215034: qtime 1743440363, start 1743440374, used 00:03:36
      { id: 4215034, submit: 8, wait: 11, runtime: 216, alloc: 1, req: 1, requested: 21600, user: 'vanderwb', status: -1, line: 10 },
      // 4215265: qtime 1743442446, start 1743442452, used 00:00:19, ncpus 5, limit 00:25:00
      { id: 4215265, submit: 2091, wait: 6, runtime: 19, alloc: 5, req: 5, requested: 1500, user: 'bneuman', status: -1, line: 17 },
      // 4215065: qtime 1743440746, start 1743440753, used 00:33:27
      { id: 4215065, submit: 391, wait: 7, runtime: 2007, alloc: 1, req: 1, requested: 21600, user: 'vanderwb', status: -1, line: 18 },
    ])
    expect(log.parserDrops).toEqual([
      { rule: 'pbs-non-end-records', description: 'records other than E (job end) are not jobs: Q 8, S 5, R 1', effect: 'info', count: 14, exampleLines: [1, 2, 3, 4, 5] },
    ])
    expect(log.warnings).toEqual([])
    expect(run(createPbsParser(), readFileSync(CASPER), 1)).toEqual(log)
  })
})
