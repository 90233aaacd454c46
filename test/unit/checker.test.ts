// The schedule checker must be able to fail: hand-made wrong schedules each produce the expected
// violation, and hand-made right ones produce none.
import { describe, it, expect } from 'vitest'
import type { SimConfig } from '../../src/core/sim/types'
import { checkSchedule, earliestStart, naivePriority } from '../support/checker'
import { referenceSimulate } from '../support/reference-sim'
import { toSimJobs, type RawJob } from '../support/random-workload'

const EASY: SimConfig = { primary: 'FCFS', backfill: 'same', threshold: null }
const job = (submit: number, runtime: number, requested: number, procs: number): RawJob => ({ submit, runtime, requested, procs })

function check(raw: RawJob[], machine: number, starts: number[], config: SimConfig = EASY): string[] {
  const { jobs } = toSimJobs(raw)
  return checkSchedule(jobs, machine, config, Float64Array.from(starts))
}

describe('checkSchedule accepts valid EASY schedules', () => {
  it('a plain FCFS schedule with a legal backfill (short job ending before the shadow)', () => {
    // A runs 0–10 on 2 of 4; B (4 procs) waits for it; C (2 procs, 5 s) fits before the shadow.
    const raw = [job(0, 10, 10, 2), job(0, 10, 10, 4), job(0, 5, 5, 2)]
    expect(check(raw, 4, [0, 10, 0])).toEqual([])
  })

  it('a long backfill that only uses the extra processors', () => {
    // machine 6: A 0–10 on 2; B needs 5, shadow 10, extra = 4 + 2 − 5 = 1; C (1 proc, long) uses it.
    const raw = [job(0, 10, 10, 2), job(0, 10, 10, 5), job(0, 50, 50, 1)]
    expect(check(raw, 6, [0, 10, 0])).toEqual([])
  })

  it('threshold promotion: the job that waited longer than Θ goes first', () => {
    // SPF with Θ = 5: at t = 10, job 0 (long, waited 10 > 5) outranks job 1 (short, waited 0).
    const raw = [job(0, 10, 10, 4), job(0, 100, 100, 4), job(10, 1, 1, 4)]
    const config: SimConfig = { primary: 'SPF', backfill: 'same', threshold: 5 }
    expect(check(raw, 4, [0, 10, 110], config)).toEqual([])
    // without the threshold, SPF must run the short job first
    expect(check(raw, 4, [0, 10, 110], { ...config, threshold: null })).not.toEqual([])
    expect(check(raw, 4, [0, 11, 10], { ...config, threshold: null })).toEqual([])
  })

  it('agrees with the reference simulator on a small example', () => {
    const raw = [job(0, 8, 10, 3), job(1, 5, 6, 2), job(1, 30, 40, 4), job(2, 3, 3, 1), job(3, 12, 20, 2)]
    const { jobs } = toSimJobs(raw)
    for (const primary of ['FCFS', 'SPF', 'LQF', 'SAF', 'F1']) {
      const config: SimConfig = { primary, backfill: 'SPF', threshold: null }
      expect(checkSchedule(jobs, 5, config, referenceSimulate(jobs, 5, config))).toEqual([])
    }
  })
})

describe('checkSchedule rejects invalid schedules', () => {
  it('a job started before its submit', () => {
    const v = check([job(0, 5, 5, 1), job(10, 5, 5, 1)], 2, [0, 5])
    expect(v).toHaveLength(1)
    expect(v[0]).toMatch(/job 1 starts at 5 before its submit 10/)
  })

  it('a job with no finite start', () => {
    expect(check([job(0, 5, 5, 1)], 1, [NaN])[0]).toMatch(/job 0 has no finite start/)
  })

  it('more processors in use than the machine has', () => {
    const v = check([job(0, 10, 10, 2), job(0, 10, 10, 2)], 3, [0, 0])
    expect(v.some((m) => /capacity exceeded at t=0: 4 > 3/.test(m))).toBe(true)
  })

  it('a backfilled job that delays the reservation', () => {
    // A (2 procs, 0–10) starts; B (4 procs) is blocked with its reservation at 10; C (2 procs,
    // 20 s) is backfilled although it ends after 10 and there is no extra: B slips to 20.
    const v = check([job(0, 10, 10, 2), job(0, 10, 10, 4), job(0, 20, 20, 2)], 4, [0, 20, 0])
    expect(v).toEqual(['t=0: backfilling [2] delayed the reservation of job 1 from 10 to 20'])
  })

  it('the head job fits but was not started', () => {
    // nothing runs at 0, yet job 0 (2 of 4 procs) waits until the next instant (job 1's submit).
    const v = check([job(0, 5, 5, 2), job(5, 5, 5, 1)], 4, [5, 5])
    expect(v).toHaveLength(1)
    expect(v[0]).toMatch(/t=0: job 0 heads the primary order .* EASY would have started it/)
  })

  it('the primary phase skipped a job that fitted (backfilled past it instead)', () => {
    // machine 4: A (4 procs, 0–10). At 10, B (3 procs) fits but C (1 proc) was started instead
    // and B was kept for later: B heads the order and fits in the 3 free processors.
    const raw = [job(0, 10, 10, 4), job(0, 5, 5, 3), job(0, 5, 5, 1)]
    const v = check(raw, 4, [0, 15, 10])
    expect(v.some((m) => /t=10: job 1 heads the primary order/.test(m))).toBe(true)
  })

  it('a policy order violation: SPF must start the short job first', () => {
    // 1 processor busy until 10; at 10 SPF picks job 2 (p̃ = 1) over job 1 (p̃ = 50).
    const raw = [job(0, 10, 10, 1), job(1, 50, 50, 1), job(1, 1, 1, 1)]
    const config: SimConfig = { primary: 'SPF', backfill: 'same', threshold: null }
    expect(check(raw, 1, [0, 11, 10], config)).toEqual([])
    const v = check(raw, 1, [0, 10, 60], config)
    expect(v.some((m) => /t=10: .*job 2/.test(m))).toBe(true)
  })

  it('a start at a time when no scheduling pass happens', () => {
    const v = check([job(0, 5, 5, 1), job(0, 5, 5, 1)], 1, [0, 7])
    expect(v.some((m) => /job 1 starts at 7, which is neither a submit nor a job end/.test(m))).toBe(true)
  })
})

describe('checker helpers', () => {
  it('earliestStart counts overrun jobs as ending now and frees equal ends together', () => {
    const { jobs } = toSimJobs([job(0, 50, 10, 2), job(0, 30, 30, 1), job(0, 30, 30, 1)])
    const start = Float64Array.from([0, 0, 0])
    expect(earliestStart(jobs, 4, start, [0, 1, 2], 2, 20)).toBe(20) // job 0 overran its 10 s
    expect(earliestStart(jobs, 4, start, [0, 1, 2], 4, 20)).toBe(30)
    expect(earliestStart(jobs, 4, start, [], 4, 20)).toBe(20)
  })

  it('naivePriority follows the formulas (higher runs first)', () => {
    const { jobs } = toSimJobs([job(0, 5, 8, 4)])
    expect(naivePriority('LEXP', jobs, 0, 8, 0)).toBe(2)
    expect(naivePriority('WFP3', jobs, 0, 16, 0)).toBe(32)
    expect(naivePriority('UNICEF', jobs, 0, 16, 0)).toBe(1)
    expect(naivePriority('F3', jobs, 0, 16, -100)).toBeCloseTo(-(32 + 6.86e6 * 2))
    expect(naivePriority({ kind: 'mixed', weights: [1, 0, 1, 0, 0, 0] }, jobs, 0, 6, 0)).toBe(2)
  })
})
