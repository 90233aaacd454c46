// The account column (docs/IMPACT.md: the impact groups jobs by account when the log has one):
// read from sacct `Account`, jobcomp `account=` and PBS `account=`, kept through cleaning and the
// train/test split; absent (not empty) when the log has no account.
import { describe, expect, it } from 'vitest'
import { createJobcompParser } from '../../src/core/workload/jobcomp'
import { createPbsParser } from '../../src/core/workload/pbs'
import { createSacctParser } from '../../src/core/workload/sacct'
import { importText } from '../../src/core/workload/import'
import { splitWorkload } from '../../src/core/tune/split'
import type { ParsedLog } from '../../src/core/workload/types'
import { run } from '../support/parsing'

const accountsOf = (log: { jobs: { count: number; account?: Int32Array }; accounts?: readonly string[] }) =>
  Array.from({ length: log.jobs.count }, (_, i) => {
    const a = log.jobs.account![i]
    return a < 0 ? null : log.accounts![a]
  })

describe('the account column', () => {
  it('sacct: the Account column, in any position; an empty cell is unknown', () => {
    const log = run(createSacctParser(), [
      'JobID|Account|Submit|Start|End|ElapsedRaw|TimelimitRaw|AllocCPUS|State|User',
      '1|physics|2026-01-01T00:00:00|2026-01-01T00:00:10|2026-01-01T00:01:10|60|5|4|COMPLETED|alice',
      '2||2026-01-01T00:00:05|2026-01-01T00:00:10|2026-01-01T00:01:10|60|5|4|COMPLETED|bob',
      '3|chem|2026-01-01T00:00:06|2026-01-01T00:00:10|2026-01-01T00:01:10|60|5|4|COMPLETED|alice',
      '4|physics|2026-01-01T00:00:07|2026-01-01T00:00:10|2026-01-01T00:01:10|60|5|4|COMPLETED|carol',
    ].join('\n') + '\n')
    expect(log.accounts).toEqual(['physics', 'chem'])
    expect(accountsOf(log)).toEqual(['physics', null, 'chem', 'physics'])
  })

  it('sacct without an Account column: no account column at all', () => {
    const log: ParsedLog = run(createSacctParser(), 'JobID|Submit|ElapsedRaw|User\n1|2026-01-01T00:00:00|60|alice\n')
    expect(log.accounts).toBeUndefined()
    expect(log.jobs.account).toBeUndefined()
  })

  it('jobcomp: account= (site spelling) and Account= (SLURM\'s own)', () => {
    const log = run(createJobcompParser(), [
      '2021-05-30 00:00:02 jobstate=COMPLETED jobid=11 username=u1 account=a336 start=1622318025 end=1622325602 submit=1622317852 nodes=r380 procs=1 limit=06:00:00',
      'JobId=12 UserId=alice(1000) Account=bio JobState=COMPLETED TimeLimit=60 StartTime=1622318030 EndTime=1622318090 SubmitTime=1622318000 ProcCnt=2 NodeList=n1',
      '2021-05-30 00:00:03 jobstate=COMPLETED jobid=13 username=u1 start=1622318025 end=1622325602 submit=1622317860 nodes=r380 procs=1 limit=06:00:00',
    ].join('\n') + '\n')
    expect(log.accounts).toEqual(['a336', 'bio'])
    expect(accountsOf(log)).toEqual(['a336', 'bio', null])
  })

  it('PBS: account="…" (quoted) on E records', () => {
    const T = 1743415000
    const log = run(createPbsParser(), [
      `03/31/2025 11:00:00;E;100.srv;user=alice account="SCSG0001" qtime=${T} start=${T + 5} end=${T + 65} Resource_List.ncpus=1 Resource_List.walltime=00:10:00`,
      `03/31/2025 11:00:01;E;101.srv;user=bob qtime=${T + 1} start=${T + 5} end=${T + 65} Resource_List.ncpus=1 Resource_List.walltime=00:10:00`,
      `03/31/2025 11:00:02;E;102.srv;user=bob account=proj qtime=${T + 2} start=${T + 5} end=${T + 65} Resource_List.ncpus=1 Resource_List.walltime=00:10:00`,
    ].join('\n') + '\n')
    expect(log.accounts).toEqual(['SCSG0001', 'proj'])
    expect(accountsOf(log)).toEqual(['SCSG0001', null, 'proj'])
  })

  it('survives cleaning (sorted with the jobs, removed jobs dropped) and the split', () => {
    // Job 2 is submitted last but listed second; job 3 ran longer than requested (removed).
    const w = importText([
      'JobID|Account|Submit|ElapsedRaw|TimelimitRaw|AllocCPUS|State|User',
      '1|physics|2026-01-01T00:00:00|60|5|1|COMPLETED|alice',
      '2|chem|2026-01-03T00:00:00|60|5|1|COMPLETED|bob',
      '3|bio|2026-01-01T12:00:00|600|5|1|COMPLETED|bob',
      '4|bio|2026-01-02T00:00:00|60|5|1|COMPLETED|bob',
    ].join('\n') + '\n', { procs: 4 })
    expect(w.format).toBe('sacct')
    expect(Array.from(w.jobs.id)).toEqual([1, 4, 2])
    expect(accountsOf(w)).toEqual(['physics', 'bio', 'chem'])
    const s = splitWorkload(w.jobs, 4, { kind: 'time', at: w.jobs.submit[1] })
    expect(accountsOf({ jobs: s.test, accounts: w.accounts })).toEqual(['bio', 'chem'])
  })
})
