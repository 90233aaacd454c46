// The resource columns of the log parsers (issue #21 items 1 and 7, see
// docs/SIMULATOR.md §Resource columns): every field form read by hand-written lines, the precedence of allocated over requested
// values, arrays / het jobs / steps, node lists and the nodes seen, merging several files, cleaning
// and sorting, hostile values as bad lines with their code, the real logs, and the one declaration of
// the recommended sacct command. Every expected value is worked by hand from the line above it.
import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { FieldError } from '../../src/core/workload/errors'
import { createJobcompParser } from '../../src/core/workload/jobcomp'
import { importParsedFiles, importText } from '../../src/core/workload/import'
import { MAX_NODES_SEEN } from '../../src/core/workload/limits'
import { mergeParsedLogs } from '../../src/core/workload/merge'
import { NodeTracker } from '../../src/core/workload/nodes-seen'
import { exclusiveOf, jobMemMB, readGresGpus, readMem, readNodeList, readTres, schedFlagOf, submitLineExclusive } from '../../src/core/workload/resources'
import { createSacctParser, slurmSubId } from '../../src/core/workload/sacct'
import { SACCT_FIELDS, SACCT_FIELD_LIST, missingFieldReport, sacctCommand, sacctCommandMarkdown } from '../../src/core/workload/sacct-command'
import { createSwfParser } from '../../src/core/workload/swf'
import type { ParsedLog } from '../../src/core/workload/types'
import { fixture, requireData } from '../support/data'
import { run } from '../support/parsing'

const lines = (...ls: string[]) => ls.join('\n') + '\n'

/** The code a field reader throws, or null. */
function codeOf(f: () => unknown): string | null {
  try { f() } catch (e) { return e instanceof FieldError ? e.code : `not a FieldError: ${String(e)}` }
  return null
}

/** One plain object per job with the resource columns (absent column → undefined). */
function res(log: ParsedLog) {
  const j = log.jobs
  return Array.from({ length: j.count }, (_, i) => ({
    line: j.line[i], id: j.id[i],
    rawId: j.rawId?.[i], subId: j.subId?.[i],
    partition: j.partition && j.partition[i] >= 0 ? log.partitions![j.partition[i]] : j.partition ? null : undefined,
    qos: j.qos && j.qos[i] >= 0 ? log.qosNames![j.qos[i]] : j.qos ? null : undefined,
    nodes: j.nodes?.[i], memMB: j.memMB?.[i], gpus: j.gpus?.[i], exclusive: j.exclusive?.[i],
    eligible: j.eligible?.[i], schedFlag: j.schedFlag?.[i], priority: j.priority?.[i],
  }))
}

describe('field readers', () => {
  it('reads memory with its unit, per job, per node (n) and per CPU (c)', () => {
    expect(readMem('ReqMem', '4000M')).toEqual({ mb: 4000, per: 'job' })
    expect(readMem('ReqMem', '16G')).toEqual({ mb: 16 * 1024, per: 'job' })
    expect(readMem('ReqMem', '1.5T')).toEqual({ mb: 1.5 * 1024 * 1024, per: 'job' })
    expect(readMem('ReqMem', '512K')).toEqual({ mb: 0.5, per: 'job' })
    expect(readMem('ReqMem', '4000')).toEqual({ mb: 4000, per: 'job' }) // --noconvert: MB
    expect(readMem('ReqMem', '100Mc')).toEqual({ mb: 100, per: 'cpu' }) // before 21.08, Kabré
    expect(readMem('ReqMem', '2000Mn')).toEqual({ mb: 2000, per: 'node' })
    expect(readMem('ReqMem', '500Gn')).toEqual({ mb: 500 * 1024, per: 'node' })
    expect(readMem('ReqMem', '')).toBeNull()
    expect(readMem('ReqMem', '0')).toBeNull() // --mem=0: all of each node's memory, not given
    expect(readMem('ReqMem', '0n')).toBeNull()
    expect(codeOf(() => readMem('ReqMem', '-5M'))).toBe('out-of-range')
    expect(codeOf(() => readMem('ReqMem', '99999999999999999999T'))).toBe('out-of-range')
    for (const bad of ['abc', '5X', '1e999', '4000Mx', 'M', '4 000M']) expect(codeOf(() => readMem('ReqMem', bad)), bad).toBe('bad-resource')
    expect(codeOf(() => readMem('mem', '100Mc', false))).toBe('bad-resource') // TRES mem= has no per-CPU form
  })

  it('turns a per-node or per-CPU amount into the whole job\'s MB', () => {
    expect(jobMemMB({ mb: 100, per: 'cpu' }, 1, 25)).toBe(2500)
    expect(jobMemMB({ mb: 2000, per: 'node' }, 3, 12)).toBe(6000)
    expect(jobMemMB({ mb: 4000, per: 'job' }, -1, -1)).toBe(4000)
    expect(jobMemMB({ mb: 100, per: 'cpu' }, 1, -1)).toBe(-1) // CPUs unknown
    expect(jobMemMB(null, 1, 1)).toBe(-1)
    expect(codeOf(() => jobMemMB({ mb: 2 ** 52, per: 'cpu' }, 1, 4))).toBe('out-of-range')
  })

  it('reads TRES strings: CPUs, nodes, memory with units, GPUs untyped and typed', () => {
    expect(readTres('ReqTRES', 'billing=4,cpu=4,mem=16G,node=1,gres/gpu=2')).toEqual({ cpu: 4, node: 1, mem: { mb: 16384, per: 'job' }, gpus: 2 })
    // the untyped total wins over the typed entries it sums
    expect(readTres('AllocTRES', 'cpu=8,gres/gpu=3,gres/gpu:a100=2,gres/gpu:v100=1,node=1')!.gpus).toBe(3)
    // typed entries only: their sum
    expect(readTres('AllocTRES', 'cpu=8,gres/gpu:a100=2,gres/gpu:v100=1')!.gpus).toBe(3)
    expect(readTres('AllocTRES', 'cpu=8,mem=4000M,node=1,energy=55,fs/disk=100,license/matlab=1')).toEqual({ cpu: 8, node: 1, mem: { mb: 4000, per: 'job' }, gpus: 0 })
    expect(readTres('AllocTRES', '')).toBeNull() // a pending job's AllocTRES
    expect(readTres('ReqTRES', 'cpu=2,license/fluent@slurmdb=4')!.cpu).toBe(2) // remote license names hold '@'
    expect(codeOf(() => readTres('ReqTRES', 'cpu=abc'))).toBe('not-a-number')
    expect(codeOf(() => readTres('ReqTRES', 'cpu=99999999999'))).toBe('out-of-range')
    expect(codeOf(() => readTres('ReqTRES', 'garbage'))).toBe('bad-resource')
    expect(codeOf(() => readTres('ReqTRES', 'cpu=1,,node=1'))).toBe('bad-resource')
    expect(codeOf(() => readTres('ReqTRES', 'mem=-4G'))).toBe('out-of-range')
    expect(codeOf(() => readTres('ReqTRES', 'gres/gpu:a100=x'))).toBe('not-a-number')
  })

  it('reads GPUs from old GRES strings', () => {
    expect(readGresGpus('ReqGRES', 'gpu:2')).toBe(2)
    expect(readGresGpus('ReqGRES', 'gpu:tesla:2')).toBe(2)
    expect(readGresGpus('AllocGRES', 'gpu:tesla:2(IDX:0,1),mps:100')).toBe(2)
    expect(readGresGpus('ReqGRES', 'gpu')).toBe(1)
    expect(readGresGpus('ReqGRES', 'gpu:k80:1,gpu:p100:2')).toBe(3)
    expect(readGresGpus('ReqGRES', 'mps:100')).toBe(0)
    expect(readGresGpus('ReqGRES', '')).toBe(-1)
    expect(codeOf(() => readGresGpus('ReqGRES', 'gpu:tesla:x'))).toBe('bad-resource')
    expect(codeOf(() => readGresGpus('ReqGRES', 'gpu:2(IDX:0'))).toBe('bad-resource')
  })

  it('reads node lists, Flags, --exclusive and job id suffixes', () => {
    expect(readNodeList('NodeList', 'n[01-03],gpu1')).toEqual(['n01', 'n02', 'n03', 'gpu1'])
    expect(readNodeList('NodeList', 'None assigned')).toEqual([])
    expect(codeOf(() => readNodeList('NodeList', 'n[3-1]'))).toBe('bad-hostlist')
    expect(codeOf(() => readNodeList('NodeList', 'n[1-2'))).toBe('bad-hostlist')
    expect(codeOf(() => readNodeList('NodeList', `n[1-${MAX_NODES_SEEN + 1}]`))).toBe('bad-hostlist')
    expect(readNodeList('NodeList', `n[1-${MAX_NODES_SEEN}]`)).toHaveLength(MAX_NODES_SEEN)
    expect(schedFlagOf('SchedBackfill')).toBe(2)
    expect(schedFlagOf('StartRecieved,SchedBackfill')).toBe(2)
    expect(schedFlagOf('SchedMain')).toBe(1)
    expect(schedFlagOf('SchedSubmit')).toBe(1)
    expect(schedFlagOf('SchedNotSet')).toBe(0)
    expect(schedFlagOf('')).toBe(0)
    expect(submitLineExclusive('sbatch --exclusive -N 2 job.sh')).toBe(true)
    expect(submitLineExclusive('sbatch --exclusive=user job.sh')).toBe(true)
    expect(submitLineExclusive('sbatch --exclusivex job.sh')).toBe(false)
    expect(submitLineExclusive('sbatch -N 2 job.sh')).toBe(false)
    expect([exclusiveOf('1'), exclusiveOf('user'), exclusiveOf('0'), exclusiveOf(''), exclusiveOf('OK')]).toEqual([1, 1, 0, 0, 0])
    expect([slurmSubId('123'), slurmSubId('123_4'), slurmSubId('123+1'), slurmSubId('123_[1-100]')]).toEqual([-1, 4, 1, -1])
  })
})

describe('sacct resource columns', () => {
  // The recommended command's columns (sacct-command.ts), epoch times, hand-written rows.
  const HEAD = 'JobIDRaw|JobID|Partition|QOS|Priority|Submit|Eligible|Start|End|ElapsedRaw|TimelimitRaw|ReqCPUS|AllocCPUS|ReqMem|ReqNodes|NNodes|NodeList|ReqTRES|AllocTRES|State|Flags|SubmitLine'
  const LOG = lines(
    HEAD,
    // 2: ran on 2 nodes: AllocTRES beats ReqTRES (GPUs 2 not 4, mem 16G not 8G)
    '100|100|gpu|normal|5000|1000|1010|1100|1200|100|60|8|8|8G|2|2|g[01-02]|cpu=8,mem=8G,node=2,gres/gpu=4|cpu=8,mem=16G,node=2,gres/gpu=2|COMPLETED|SchedBackfill|sbatch -N 2 job.sh',
    // 3: a step: not a job
    '100.batch|100.batch||||1000||1100|1200|100||8|8||1|1|g01||cpu=8,mem=16G,node=1|COMPLETED|SchedBackfill|',
    // 4, 5: two tasks of one array, identical but for their JobIDRaw
    '204|200_3|cpu|low|10|1001|1001|1050|1110|60|10|1|1|4000Mc|1|1|c1|||COMPLETED|SchedMain|sbatch --array=1-5 a.sh',
    '205|200_4|cpu|low|10|1001|1001|1050|1110|60|10|1|1|4000Mc|1|1|c1|||COMPLETED|SchedMain|sbatch --array=1-5 a.sh',
    // 6: pending array record: never started
    '300|300_[1-100]|cpu|low|10|1002|1002|Unknown|Unknown|0|10|1|0|1G|1|1|None assigned|cpu=1,mem=1G,node=1||PENDING|SchedNotSet|sbatch --array=1-100 b.sh',
    // 7, 8: het components: each its own allocation
    '400|400+0|cpu|normal|20|1003|1003|1003|1063|60|10|2|2|2000Mn|1|1|c2|cpu=2,node=1|cpu=2,mem=2000M,node=1|COMPLETED|SchedSubmit|salloc : -n 4',
    '401|400+1|gpu|normal|20|1003|1003|1003|1063|60|10|4|4|2000Mn|1|1|g03|cpu=4,node=1,gres/gpu:a100=1|cpu=4,mem=2000M,node=1,gres/gpu:a100=1|COMPLETED|SchedSubmit|salloc : -n 4',
    // 9: cancelled while pending, Start = End = cancel time, no node: never started
    '500|500|cpu|normal|1|1004|1004|1500|1500|0|10|1|1|1G|1|1|None assigned|cpu=1,node=1||CANCELLED by 0|SchedNotSet|sbatch c.sh',
    // 10: old per-node ReqMem over 3 nodes, --exclusive, a pending-style partition list, a `|` in the submit line
    '600|600|big,cpu|normal|2|1005||1005|1105|100|10|12|36|2000Mn|3|3|c[3-5]|||COMPLETED|SchedMain|sbatch --exclusive --wrap="a | b"',
  )

  it('reads every resource column by the documented precedence', () => {
    const log = run(createSacctParser(), LOG)
    expect(log.badLineExamples).toEqual([])
    expect(log.partitions).toEqual(['gpu', 'cpu', 'big'])
    expect(log.qosNames).toEqual(['normal', 'low'])
    const T = 1000 // earliest submit: every time on the submit clock
    expect(log.unixStartTime).toBe(T)
    expect(res(log)).toEqual([
      { line: 2, id: 100, rawId: 100, subId: -1, partition: 'gpu', qos: 'normal', nodes: 2, memMB: 16 * 1024, gpus: 2, exclusive: 0, eligible: 1010 - T, schedFlag: 2, priority: 5000 },
      { line: 4, id: 200, rawId: 204, subId: 3, partition: 'cpu', qos: 'low', nodes: 1, memMB: 4000 * 1, gpus: -1, exclusive: 0, eligible: 1, schedFlag: 1, priority: 10 },
      { line: 5, id: 200, rawId: 205, subId: 4, partition: 'cpu', qos: 'low', nodes: 1, memMB: 4000, gpus: -1, exclusive: 0, eligible: 1, schedFlag: 1, priority: 10 },
      { line: 7, id: 400, rawId: 400, subId: 0, partition: 'cpu', qos: 'normal', nodes: 1, memMB: 2000, gpus: 0, exclusive: 0, eligible: 3, schedFlag: 1, priority: 20 },
      { line: 8, id: 400, rawId: 401, subId: 1, partition: 'gpu', qos: 'normal', nodes: 1, memMB: 2000, gpus: 1, exclusive: 0, eligible: 3, schedFlag: 1, priority: 20 },
      // ReqMem 2000 MB per node × NNodes 3; Eligible empty: NaN
      { line: 10, id: 600, rawId: 600, subId: -1, partition: 'big', qos: 'normal', nodes: 3, memMB: 6000, gpus: -1, exclusive: 1, eligible: NaN, schedFlag: 1, priority: 2 },
    ])
    expect(log.parserDrops.map((d) => [d.rule, d.exampleLines])).toEqual([['slurm-steps', [3]], ['slurm-never-started', [6, 9]]])
    // single-pool inputs as before: q = ReqCPUS (12 for line 10, though 36 were allocated)
    expect(Array.from(log.jobs.reqProcs)).toEqual([8, 1, 1, 2, 4, 12])
    expect(Array.from(log.jobs.allocProcs)).toEqual([8, 1, 1, 2, 4, 36])
    expect(run(createSacctParser(), LOG, 7)).toEqual(log)
  })

  it('records the nodes seen: most CPUs and GPUs per node, partitions of the jobs there', () => {
    const log = run(createSacctParser(), LOG)
    expect(log.nodesSeen).toEqual([
      { name: 'g01', maxCpus: 4, maxGpus: 1, partitions: [0] }, // job 100: 8 CPUs / 2 nodes, 2 GPUs / 2
      { name: 'g02', maxCpus: 4, maxGpus: 1, partitions: [0] },
      { name: 'c1', maxCpus: 1, maxGpus: -1, partitions: [1] },
      { name: 'c2', maxCpus: 2, maxGpus: 0, partitions: [1] },
      { name: 'g03', maxCpus: 4, maxGpus: 1, partitions: [0] },
      { name: 'c3', maxCpus: 12, maxGpus: -1, partitions: [2] }, // 36 allocated CPUs / 3 nodes
      { name: 'c4', maxCpus: 12, maxGpus: -1, partitions: [2] },
      { name: 'c5', maxCpus: 12, maxGpus: -1, partitions: [2] },
    ])
  })

  it('keeps absent columns absent (Cirrus has no partition, memory or node list)', () => {
    const log = run(createSacctParser(), readFileSync(fixture('slurm/cirrus-sacct-excerpt.csv')))
    for (const c of ['partition', 'qos', 'memMB', 'gpus', 'exclusive', 'eligible', 'schedFlag', 'priority', 'rawId'] as const) expect(log.jobs[c], c).toBeUndefined()
    expect(log.partitions).toBeUndefined()
    expect(log.nodesSeen).toBeUndefined()
    // NNodes read: rows 2–12 by hand
    expect(Array.from(log.jobs.nodes!)).toEqual([21, 16, 16, 16, 21, 1, 1, 1, 1, 1, 1])
    // array tasks 5312850_12, 5313029_10, _11, _12, _1, _2
    expect(Array.from(log.jobs.subId!)).toEqual([-1, -1, -1, -1, -1, 12, 10, 11, 12, 1, 2])
  })

  it('makes hostile resource values bad lines with their line and code, never a crash', () => {
    const head = 'JobID|Submit|Start|End|ElapsedRaw|ReqCPUS|ReqMem|NodeList|ReqTRES|AllocGRES|Priority|Eligible|State'
    const text = lines(
      head,
      '1|1000|1000|1010|10|1|1G|n1|cpu=1|gpu:1|1|1000|COMPLETED',
      `2|1000|1000|1010|10|1|1G|n[1-999999999]|cpu=1||1|1000|COMPLETED`,
      '3|1000|1000|1010|10|1|1G|n[5-1]|cpu=1||1|1000|COMPLETED',
      '4|1000|1000|1010|10|1|-5M|n1|cpu=1||1|1000|COMPLETED',
      '5|1000|1000|1010|10|1|1G|n1|cpu=1,bogus|gpu:1|1|1000|COMPLETED',
      '6|1000|1000|1010|10|1|1G|n1|cpu=1,gres/gpu=9999999999||1|1000|COMPLETED',
      '7|1000|1000|1010|10|1|1G|n1|cpu=1|gpu:x:y|1|1000|COMPLETED',
      '8|1000|1000|1010|10|1|1G|n1|cpu=1||high|1000|COMPLETED',
      '9|1000|1000|1010|10|1|1G|n1|cpu=1||1|tomorrow|COMPLETED',
      '10|1000|1000|1010|10|1|1G|n[1-2]x[1-99999]|cpu=1||1|1000|COMPLETED',
      '11|1000|1000|1010|10|1|1G|n1|cpu=1||1|1000|COMPLETED',
    )
    const log = run(createSacctParser(), text)
    expect(log.badLineExamples.map((b) => [b.line, b.code])).toEqual([
      [3, 'bad-hostlist'], [4, 'bad-hostlist'], [5, 'out-of-range'], [6, 'bad-resource'], [7, 'out-of-range'],
      [8, 'bad-resource'], [9, 'not-a-number'], [10, 'bad-time'], [11, 'bad-hostlist'],
    ])
    expect(Array.from(log.jobs.id)).toEqual([1, 11])
    expect(log.badLineExamples[0].message).toMatch(/^NodeList "n\[1-999999999\]": .*more than 100000 hosts/)
  })
})

describe('jobcomp resource columns', () => {
  const CLASSIC = lines(
    'JobId=10 UserId=alice(1000) JobState=COMPLETED Partition=gpu QOS=high TimeLimit=60 StartTime=2026-11-22T11:55:39Z EndTime=2026-11-22T11:55:49Z NodeList=g[1-2] NodeCnt=2 ProcCnt=9 SubmitTime=2026-11-22T11:55:00Z EligibleTime=2026-11-22T11:55:30Z Tres=cpu=9,mem=8000M,node=2,gres/gpu=4',
    'JobId=12 UserId=bob(1001) JobState=COMPLETED Partition=cpu TimeLimit=60 StartTime=2026-11-22T11:56:00Z EndTime=2026-11-22T11:57:00Z NodeList=c7 NodeCnt=1 ProcCnt=4 SubmitTime=2026-11-22T11:55:10Z EligibleTime=Unknown ArrayJobId=11 ArrayTaskId=3',
    'JobId=13 UserId=bob(1001) JobState=COMPLETED Partition=cpu TimeLimit=60 StartTime=2026-11-22T11:56:00Z EndTime=2026-11-22T11:57:00Z NodeList=c[9-8] NodeCnt=2 ProcCnt=4 SubmitTime=2026-11-22T11:55:10Z',
    'JobId=14 UserId=bob(1001) JobState=COMPLETED Partition=cpu TimeLimit=60 StartTime=2026-11-22T11:56:00Z EndTime=2026-11-22T11:57:00Z NodeList=c7 NodeCnt=1 ProcCnt=4 SubmitTime=2026-11-22T11:55:10Z Tres=cpu=4,mem=4000Mc',
  )
  const T = Date.UTC(2026, 10, 22, 11, 55, 0) / 1000

  it('reads node lists, counts, partitions, QOS, Tres, eligible times and array ids', () => {
    const log = run(createJobcompParser(), CLASSIC)
    expect(log.badLineExamples.map((b) => [b.line, b.code])).toEqual([[3, 'bad-hostlist'], [4, 'bad-resource']])
    expect(log.partitions).toEqual(['gpu', 'cpu'])
    expect(log.qosNames).toEqual(['high'])
    expect(res(log)).toEqual([
      { line: 1, id: 10, rawId: 10, subId: -1, partition: 'gpu', qos: 'high', nodes: 2, memMB: 8000, gpus: 4, exclusive: undefined, eligible: 30, schedFlag: undefined, priority: undefined },
      // ArrayJobId 11 groups it; JobId 12 is its own id; the QOS key is absent: unknown
      { line: 2, id: 11, rawId: 12, subId: 3, partition: 'cpu', qos: null, nodes: 1, memMB: -1, gpus: -1, exclusive: undefined, eligible: NaN, schedFlag: undefined, priority: undefined },
    ])
    expect(log.unixStartTime).toBe(T)
    expect(log.nodesSeen).toEqual([
      { name: 'g1', maxCpus: 5, maxGpus: 2, partitions: [0] }, // ceil(9 / 2), 4 GPUs / 2
      { name: 'g2', maxCpus: 5, maxGpus: 2, partitions: [0] },
      { name: 'c7', maxCpus: 4, maxGpus: -1, partitions: [1] },
    ])
    expect(run(createJobcompParser(), CLASSIC, 5)).toEqual(log)
  })

  it('reads Rackham\'s nodes= lists (real excerpt): node counts and node names', () => {
    const log = run(createJobcompParser(), readFileSync(fixture('slurm/rackham-jobcomp-excerpt.txt')))
    expect(log.partitions).toEqual(['core'])
    expect(Array.from(log.jobs.nodes!)).toEqual([1, 1, 1, 1, 1, 1, 1, 1])
    expect(log.nodesSeen!.map((n) => n.name)).toEqual(['r380', 'r145', 'r173', 'r105', 'r50', 'r88', 'r154', 'r288'])
    expect(log.nodesSeen!.every((n) => n.maxCpus === 1 && n.maxGpus === -1 && n.partitions.join() === '0')).toBe(true)
    expect(log.jobs.memMB).toBeUndefined()
    expect(log.jobs.qos).toBeUndefined()
  })
})

describe('SWF partition (field 16)', () => {
  it('fills partition from field 16 when the file uses it, and keeps the header', () => {
    const swf = lines('; MaxProcs: 64', '1 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 1 3 -1 -1', '2 10 5 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1', '3 20 5 100 4 -1 -1 4 200 -1 1 1 1 -1 1 7 -1 -1', '4 30 5 100 4 -1 -1 4 200 -1 1 1 1 -1 1 3 -1 -1')
    const log = run(createSwfParser(), swf)
    expect(log.partitions).toEqual(['3', '7'])
    expect(Array.from(log.jobs.partition!)).toEqual([0, -1, 1, 0])
    expect(log.maxProcs).toBe(64)
    const none = run(createSwfParser(), lines('; MaxProcs: 64', '1 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1'))
    expect(none.jobs.partition).toBeUndefined()
    expect(none.partitions).toBeUndefined()
  })
})

describe('cleaning, sorting and merging keep the columns', () => {
  it('carries the columns through cleaning and sorting to the JobTable and the Workload', () => {
    const text = lines(
      'JobID|Submit|Start|End|ElapsedRaw|TimelimitRaw|ReqCPUS|Partition|QOS|NNodes|NodeList|AllocTRES',
      '1|1200|1200|1300|100|10|4|b|q2|1|n2|cpu=4,mem=1G,gres/gpu=1',
      '2|1000|1000|1100|100|10|2|a|q1|1|n1|cpu=2,mem=2G',
      '3|1100|1100|1200|100|1|2|a|q1|1|n1|cpu=2,mem=3G', // ran 100 s over a 60 s limit: dropped (C7)
    )
    const w = importText(text)
    expect(Array.from(w.jobs.id)).toEqual([2, 1]) // sorted by submit
    expect(w.partitions).toEqual(['b', 'a'])
    expect(w.qosNames).toEqual(['q2', 'q1'])
    expect(Array.from(w.jobs.partition!)).toEqual([1, 0])
    expect(Array.from(w.jobs.qos!)).toEqual([1, 0])
    expect(Array.from(w.jobs.memMB!)).toEqual([2048, 1024])
    expect(Array.from(w.jobs.gpus!)).toEqual([0, 1])
    expect(Array.from(w.jobs.procs)).toEqual([2, 4])
    expect(w.nodesSeen!.map((n) => [n.name, n.maxCpus, n.maxGpus])).toEqual([['n2', 4, 1], ['n1', 2, 0]])
    expect(w.jobs.eligible).toBeUndefined()
  })

  const fileA = lines(
    'JobIDRaw|JobID|Submit|Start|End|ElapsedRaw|TimelimitRaw|ReqCPUS|Partition|NodeList',
    '11|10_1|1000|1000|1060|60|10|1|a|n1',
    '20|20|1010|1010|1070|60|10|8|b|n2',
  )
  const fileB = lines(
    'JobIDRaw|JobID|Submit|Start|End|ElapsedRaw|TimelimitRaw|ReqCPUS|Partition|NodeList',
    '12|10_2|1000|1000|1060|60|10|1|a|n1', // same record as 10_1 but another task: a job of its own
    '20|20|1010|1010|1070|60|10|8|b|n2', // the same job as in file A: kept once
    '30|30|1020|1020|1080|60|10|16|c|n2',
  )

  it('tells array tasks apart across files and remaps partitions by name', () => {
    const parse = (t: string) => run(createSacctParser(), t)
    const m = mergeParsedLogs([{ name: 'a', log: parse(fileA) }, { name: 'b', log: parse(fileB) }])
    expect(m.duplicates).toBe(1)
    expect(Array.from(m.log.jobs.rawId!)).toEqual([11, 20, 12, 30])
    expect(Array.from(m.log.jobs.subId!)).toEqual([1, -1, 2, -1])
    expect(m.log.partitions).toEqual(['a', 'b', 'c'])
    expect(Array.from(m.log.jobs.partition!)).toEqual([0, 1, 0, 2])
    expect(m.log.nodesSeen).toEqual([
      { name: 'n1', maxCpus: 1, maxGpus: -1, partitions: [0] },
      { name: 'n2', maxCpus: 16, maxGpus: -1, partitions: [1, 2] },
    ])
    // Without JobIDRaw the task index tells them apart
    const noRaw = (t: string) => t.split('\n').map((l) => l.slice(l.indexOf('|') + 1)).join('\n')
    const m2 = mergeParsedLogs([{ name: 'a', log: parse(noRaw(fileA)) }, { name: 'b', log: parse(noRaw(fileB)) }])
    expect(m2.duplicates).toBe(1)
    expect(Array.from(m2.log.jobs.subId!)).toEqual([1, -1, 2, -1])
    expect(m2.log.jobs.rawId).toBeUndefined()
    const w = importParsedFiles([{ name: 'a', log: parse(fileA) }, { name: 'b', log: parse(fileB) }])
    expect(w.partitions).toEqual(['a', 'b', 'c'])
    expect(w.nodesSeen).toHaveLength(2)
    expect(w.jobs.count).toBe(4)
  })

  it('sets aside a pending array record even when it shows a start (cancelled while pending, no NodeList column)', () => {
    const text = lines(
      'JobID|Submit|Start|End|ElapsedRaw|TimelimitRaw|ReqCPUS|State',
      '301_[1-5%2]|1000|1200|1200|0|60|1|CANCELLED by 0',
      '301_1|1000|1100|1160|60|60|1|COMPLETED',
    )
    const log = run(createSacctParser(), text)
    expect(Array.from(log.jobs.line)).toEqual([3])
    expect(log.parserDrops).toEqual([expect.objectContaining({ rule: 'slurm-never-started', exampleLines: [2] })])
    const jc = run(createJobcompParser(), lines('JobId=301_[1-5] JobState=CANCELLED StartTime=1200 EndTime=1200 SubmitTime=1000 NodeList=n1 ProcCnt=1', 'JobId=302 JobState=COMPLETED StartTime=1200 EndTime=1300 SubmitTime=1000 NodeList=n1 ProcCnt=1'))
    expect(Array.from(jc.jobs.id)).toEqual([302])
  })

  it('keeps the first run of a requeued job (sacct -D) as a job, and sets aside a REQUEUED record with no end', () => {
    const text = lines(
      'JobIDRaw|JobID|Submit|Start|End|ElapsedRaw|TimelimitRaw|ReqCPUS|State',
      '70|70|1000|1100|1400|300|60|4|REQUEUED', // first run: 300 s on 4 CPUs, then requeued
      '70|70|1400|1500|2100|600|60|4|COMPLETED', // the rerun, Submit reset to the requeue
      '71|71|1000|1100|Unknown|0|60|4|REQUEUED',
    )
    const log = run(createSacctParser(), text)
    expect(Array.from(log.jobs.line)).toEqual([2, 3])
    expect(Array.from(log.jobs.runtime)).toEqual([300, 600])
    expect(Array.from(log.jobs.recordedWait)).toEqual([100, 100])
    expect(log.parserDrops.map((d) => [d.rule, d.effect, d.exampleLines])).toEqual([['slurm-unfinished', 'removed', [4]], ['slurm-requeued-run', 'info', [2]]])
  })

  it('counts duplicate ids by JobIDRaw when the log has it (array tasks are not duplicates)', () => {
    const text = lines(
      'JobIDRaw|JobID|Submit|Start|End|ElapsedRaw|TimelimitRaw|ReqCPUS',
      '11|10_1|1000|1000|1060|60|10|1',
      '12|10_2|1000|1000|1060|60|10|1',
      '12|10_2|2000|2000|2060|60|10|1', // requeued (-D): the same JobIDRaw again
    )
    const w = importText(text)
    expect(w.report.rules.find((r) => r.rule === 'duplicate-id')).toMatchObject({ count: 1, exampleLines: [4] })
  })
})

describe('node tracker bound', () => {
  it('a log naming more than MAX_NODES_SEEN nodes imports with a warning, the extra names not kept', () => {
    const text = lines(
      `JobId=1 JobState=COMPLETED StartTime=1100 EndTime=1200 SubmitTime=1000 NodeList=n[1-${MAX_NODES_SEEN}] ProcCnt=${MAX_NODES_SEEN}`,
      'JobId=2 JobState=COMPLETED StartTime=1100 EndTime=1200 SubmitTime=1000 NodeList=m[1-2],n1 ProcCnt=3',
    )
    const log = run(createJobcompParser(), text)
    expect(log.badLines).toBe(0)
    expect(log.nodesSeen).toHaveLength(MAX_NODES_SEEN)
    expect(log.nodesSeen![0]).toEqual({ name: 'n1', maxCpus: 1, maxGpus: -1, partitions: [] })
    expect(Array.from(log.jobs.nodes!)).toEqual([MAX_NODES_SEEN, 3])
    expect(log.warnings).toContainEqual(expect.stringMatching(/more than 100,000 distinct nodes: .*\(2 mentions\)/))
  })

  it('keeps at most its cap of distinct names and says how many it left out', () => {
    const t = new NodeTracker(3)
    t.add(['a', 'b'], 4, 0, 0)
    t.add(['c', 'd', 'e'], 3, -1, 1)
    t.add(['a'], 8, -1, 1)
    expect(t.finish()).toEqual([
      { name: 'a', maxCpus: 8, maxGpus: 0, partitions: [0, 1] },
      { name: 'b', maxCpus: 2, maxGpus: 0, partitions: [0] },
      { name: 'c', maxCpus: 1, maxGpus: -1, partitions: [1] },
    ])
    expect(t.overflow).toBe(2)
    expect(t.warning()).toMatch(/more than 3 distinct nodes: .*\(2 mentions\)/)
  })
})

describe('the recommended sacct command (one declaration)', () => {
  it('is the recommended extraction of the Slurm spec, with every flag', () => {
    expect(sacctCommand('2024-01-01', '2024-07-01')).toBe(
      'SLURM_TIME_FORMAT=%s sacct -a -X -D -P --noconvert -S 2024-01-01 -E 2024-07-01 -o ' +
      'JobIDRaw,JobID,JobName,User,Account,Partition,QOS,Priority,Submit,Eligible,Start,End,ElapsedRaw,' +
      'TimelimitRaw,ReqCPUS,AllocCPUS,ReqMem,ReqNodes,NNodes,NodeList,ReqTRES,AllocTRES,State,ExitCode,Flags,' +
      'Reason,Constraints,Reservation,SubmitLine')
    expect(sacctCommand()).toContain('-S <start> -E <end>')
    expect(SACCT_FIELDS.every((x) => x.gives.length > 0 && x.missing.length > 0)).toBe(true)
  })

  it('is in docs/SIMULATOR.md exactly, with its flags and fields as declared (no drift)', () => {
    const doc = readFileSync(new URL('../../docs/SIMULATOR.md', import.meta.url), 'utf8')
    expect(doc).toContain(sacctCommand())
    expect(doc).toContain(sacctCommandMarkdown())
    for (const x of SACCT_FIELDS) expect(sacctCommandMarkdown(), x.name).toContain(`| \`${x.name}\` | ${x.gives.replaceAll('|', '\\|')}`)
  })

  it('an export with every recommended field reads and lacks nothing of it', () => {
    const values: Record<string, string> = {
      JobIDRaw: '7', JobID: '7', JobName: 'x', User: 'u', Account: 'a', Partition: 'p', QOS: 'q', Priority: '9', Submit: '1000',
      Eligible: '1000', Start: '1010', End: '1070', ElapsedRaw: '60', TimelimitRaw: '10', ReqCPUS: '2', AllocCPUS: '2', ReqMem: '2000M',
      ReqNodes: '1', NNodes: '1', NodeList: 'n1', ReqTRES: 'cpu=2,mem=2000M,node=1', AllocTRES: 'cpu=2,mem=2000M,node=1', State: 'COMPLETED',
      ExitCode: '0:0', Flags: 'SchedMain', Reason: 'None', Constraints: '', Reservation: '', SubmitLine: 'sbatch j.sh',
    }
    const names = SACCT_FIELD_LIST.split(',')
    const w = importText(lines(names.join('|'), names.map((n) => values[n]).join('|')))
    expect(w.report.badLines.count).toBe(0)
    expect(w.report.resources!.sacctMissing).toEqual([])
    expect(w.report.resources!.lacks).toEqual([])
    expect(w.report.resources!.has).toEqual(['recorded start', 'partition', 'QOS', 'node count', 'node list', 'memory', 'GPUs', 'eligible time', 'scheduler flags', 'recorded priority', 'whole-node requests'])
  })

  it('says what Kabré lacks and what that costs', () => {
    const log = run(createSacctParser(), readFileSync(fixture('slurm/kabre-sacct-excerpt.psv')))
    const r = missingFieldReport(log)
    expect(r.has).toEqual(['partition', 'QOS', 'node count', 'memory', 'recorded priority'])
    expect(r.lacks[0]).toEqual({ field: 'recorded start', cost: 'no Start column: recorded starts derived from ResvCPURAW: per-job start order is approximate' })
    expect(r.lacks).toContainEqual({ field: 'node list', cost: 'no NodeList: the machine\'s nodes cannot be inferred; give --cluster' })
    expect(r.sacctMissing).toContain('NodeList')
    expect(r.sacctMissing).not.toContain('ReqMem')
  })
})

describe('real SLURM logs: the resource columns', () => {
  it('Kabré excerpt: partitions, QOS, priorities and memory from 100Mc / 500Gn', () => {
    const log = run(createSacctParser(), readFileSync(fixture('slurm/kabre-sacct-excerpt.psv')))
    // kept rows 2–8, 10, 11, 13 (9 and 12 never started)
    expect(res(log).map((r) => [r.line, r.partition, r.qos, r.priority, r.nodes, r.memMB])).toEqual([
      [2, 'nu-long', 'normal', 6831, 1, 100],
      [3, 'nukwa-long', 'normal', 7046, 1, 100],
      [4, 'nukwa-wide', 'normal', 7046, 1, 100],
      [5, 'nukwa-wide', 'normal', 7046, 1, 100],
      [6, 'nukwa', 'normal', 7058, 1, 100],
      [7, 'nukwa-wide', 'normal', 7046, 1, 100],
      [8, 'nukwa-wide', 'normal', 7046, 1, 100],
      [10, 'dribe-long', 'normal', 6854, 1, 500 * 1024], // 500 GB per node × 1 node (not × 25 CPUs)
      [11, 'dribe-long', 'normal', 6854, 1, 500 * 1024],
      [13, 'nukwa', 'normal', 4702, 1, 100],
    ])
  })

  it('the whole Kabré log: 100Mc is 100 MB per CPU', (ctx) => {
    const text = gunzipSync(readFileSync(requireData(ctx, 'slurm/kabre-cenat/sacct.csv.gz'))).toString('utf8')
    const log = run(createSacctParser(), text)
    expect(log.badLines).toBe(0)
    expect(log.qosNames!.slice().sort()).toEqual(['high-priority', 'normal'])
    expect(log.partitions).toContain('andalan')
    const rows = text.split('\n').slice(1).filter((l) => l !== '')
    // first kept job with 100Mc and more than one CPU: its memory is 100 × ReqCPUS
    const j = log.jobs
    let checked = 0
    for (let i = 0; i < j.count && checked < 50; i++) {
      const cells = rows[j.line[i] - 2].split('|')
      if (cells[3] !== '100Mc') continue
      expect(j.memMB![i]).toBe(100 * Number(cells[2]))
      checked++
    }
    expect(checked).toBe(50)
  })

  it('Rackham (both days): nodes from nodes=, nodes seen named r1…r486', (ctx) => {
    const parse = (name: string) => run(createJobcompParser(), gunzipSync(readFileSync(requireData(ctx, `slurm/rackham-uppmax-jobcomp/${name}`))))
    const a = parse('2021-05-30.anon.gz')
    const w = importParsedFiles([{ name: 'a', log: a }, { name: 'b', log: parse('2021-06-15.anon.gz') }])
    expect(w.nodesSeen!.every((n) => /^r\d+$/.test(n.name) && Number(n.name.slice(1)) >= 1 && Number(n.name.slice(1)) <= 486)).toBe(true)
    expect(w.nodesSeen!.length).toBeGreaterThan(400)
    // no job uses more than a Rackham node's 20 cores on one node
    expect(Math.max(...w.nodesSeen!.map((n) => n.maxCpus))).toBeLessThanOrEqual(20)
    expect(w.partitions!.slice().sort()).toEqual(['core', 'devcore', 'devel', 'node'])
    // a job on r[148-149] counts 2 nodes
    const line = gunzipSync(readFileSync(requireData(ctx, 'slurm/rackham-uppmax-jobcomp/2021-05-30.anon.gz'))).toString('utf8').split('\n').findIndex((l) => l.includes('nodes=r[148-149] ')) + 1
    const k = Array.from(a.jobs.line).indexOf(line)
    expect(k).toBeGreaterThanOrEqual(0)
    expect(a.jobs.nodes![k]).toBe(2)
  })

  it('Cirrus: NNodes read for every job', (ctx) => {
    const log = run(createSacctParser(), readFileSync(requireData(ctx, 'slurm/cirrus-epcc/2024_Q1_CPU-sacct-subset.csv')))
    expect(log.jobs.nodes!.every((n) => n >= 1)).toBe(true)
    // the largest started job: 2,304 CPUs on 64 nodes (job 5313656); the 128-node one was cancelled before it started
    expect(Math.max(...log.jobs.nodes!)).toBe(64)
  })
})
