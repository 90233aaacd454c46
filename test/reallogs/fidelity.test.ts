// Fidelity (src/core/tune/fidelity.ts, docs/CLUSTER.md §Fidelity) on a real log: Rackham's
// jobcomp day 2021-05-30, simulated EASY-FCFS on the single pool. Nothing is pasted from
// EasyTune's output: the figures are checked for range and against a plain recount from the table.
import { gunzipSync } from 'node:zlib'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { simulate } from '../../src/core/sim/easy'
import { fidelity } from '../../src/core/tune/fidelity'
import { importBytes } from '../../src/core/workload/import'
import { requireData } from '../support/data'

describe('fidelity on a real log', () => {
  it('Rackham 2021-05-30: every measure finite and in range, and equal to a plain recount', (ctx) => {
    const path = requireData(ctx, 'slurm/rackham-uppmax-jobcomp/2021-05-30.anon.gz')
    const w = importBytes(gunzipSync(readFileSync(path)), { name: '2021-05-30.anon.gz' })
    const jobs = w.jobs
    const start = simulate(jobs, w.machineProcs, { primary: 'FCFS', backfill: 'same', threshold: null })
    const c = fidelity(jobs, start, { unixStartTime: w.unixStartTime, limits: ['the machine is inferred from the largest job'] })
    expect(c).not.toBeNull()

    // Plain recount over the jobs with a recorded wait.
    const compared = [...Array(jobs.count).keys()].filter((i) => Number.isFinite(jobs.recordedWait[i]) && jobs.recordedWait[i] >= 0)
    const rec = compared.map((i) => jobs.recordedWait[i]), sim = compared.map((i) => start[i] - jobs.submit[i])
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
    expect(compared.length).toBeGreaterThan(1000) // a day of Rackham: thousands of jobs
    expect(c!.jobs).toBe(compared.length)
    expect(c!.share).toBe(compared.length / jobs.count)
    expect(c!.recordedMean).toBeCloseTo(mean(rec), 6)
    expect(c!.simulatedMean).toBeCloseTo(mean(sim), 6)
    expect(c!.within10m).toBe(compared.filter((_, k) => Math.abs(sim[k] - rec[k]) <= 600).length / compared.length)
    expect(c!.within1h).toBe(compared.filter((_, k) => Math.abs(sim[k] - rec[k]) <= 3600).length / compared.length)

    // Ranges.
    expect(Number.isFinite(c!.spearman)).toBe(true)
    expect(Math.abs(c!.spearman)).toBeLessThanOrEqual(1)
    expect(c!.meanWaitRatio).not.toBeNull()
    expect(c!.meanWaitRatio!).toBeGreaterThan(0)
    expect(Number.isFinite(c!.meanWaitRatio!)).toBe(true)
    expect(c!.within1h).toBeGreaterThanOrEqual(c!.within10m)
    // jobcomp records no sacct Flags; no backfill record was given.
    expect(c!.backfilledShare).toEqual({ recorded: null, simulated: null })

    // The moving average needs 14 calendar days of submits; count them from the table.
    const days = compared.map((i) => Math.floor(((w.unixStartTime ?? 0) + jobs.submit[i]) / 86400))
    const span = Math.max(...days) - Math.min(...days) + 1
    if (span < 14) {
      expect(c!.movingWaitMape).toBeNull()
      expect(c!.movingWaitReason).toContain(`over ${span} day`)
    } else {
      expect(c!.movingWaitMape).toBeGreaterThanOrEqual(0)
      expect(c!.movingWaitDays).toBeGreaterThan(0)
    }
    expect(c!.verdict).toMatch(/What limits this comparison: the machine is inferred from the largest job\.$/)
  })
})
