// The run-time estimate's parts (src/backend/estimate.ts; the calibration is in docs/PERFORMANCE.md):
// the parallel speed-up, the per-job rate taken from the import's timed simulation, and how the
// estimate is put together from them. No timed test here: these are the formula's parts.
import { describe, expect, it } from 'vitest'
import { WEEK } from '../../src/core/tune/resample'
import type { JobTable } from '../../src/core/workload/types'
import { CampaignRequestSchema } from '../../src/shared/schemas'
import { estimateCampaign, KTH_SECONDS_PER_JOB, parallelSpeedup, PARALLEL_EFFICIENCY, POLICY_FACTOR, secondsPerJob, WORKER_START_SECONDS } from '../../src/backend/estimate'

const M = 10
/** `perWeek` one-processor 10 s jobs a week, evenly spread, for `weeks` weeks. */
function regular(weeks: number, perWeek: number): JobTable {
  const n = weeks * perWeek
  const submit = Float64Array.from({ length: n }, (_, i) => 100 + i * (WEEK / perWeek))
  return {
    count: n, id: Float64Array.from(submit, (_, i) => i + 1), submit, runtime: new Float64Array(n).fill(10), requested: new Float64Array(n).fill(10),
    procs: new Int32Array(n).fill(1), user: Int32Array.from(submit, (_, i) => i % 7), recordedWait: new Float64Array(n).fill(NaN), line: Int32Array.from(submit, (_, i) => i + 1),
  }
}
const request = (workers: number) => CampaignRequestSchema.parse({
  workloadId: 'w1', split: { kind: 'midpoint' }, resample: { method: 'user-weeks', weeks: 10, seed: 1 },
  candidates: { list: [{ primary: 'SPF', backfill: 'same' }] }, thresholds: [null], objective: 'avgWait', tau: 10, workers,
})

describe('the run-time estimate', () => {
  it('calibrated constants: a campaign job costs 0.8 of a whole-log FCFS job; each extra worker adds 0.7', () => {
    // Measured on three real logs, docs/PERFORMANCE.md 2026-11-25: 1.25 made every estimate ~1.6× too long.
    expect(POLICY_FACTOR).toBe(0.8)
    expect(PARALLEL_EFFICIENCY).toBe(0.7)
  })

  it('parallel speed-up: 1 worker 1×, 2 workers 1.7×, 4 workers 3.1×, never more workers than cells', () => {
    expect(parallelSpeedup(1, 100)).toBe(1)
    expect(parallelSpeedup(2, 100)).toBeCloseTo(1.7, 12)
    expect(parallelSpeedup(4, 100)).toBeCloseTo(3.1, 12)
    expect(parallelSpeedup(8, 3)).toBeCloseTo(2.4, 12) // 3 cells keep 3 workers busy at most
    expect(parallelSpeedup(0, 10)).toBe(1)
  })

  it('seconds per job: the timed whole-log run, bounded; the KTH constant for logs too small to time', () => {
    expect(secondsPerJob(10_000, 0.005)).toBeCloseTo(0.5e-6, 15) // 10,000 jobs in 5 ms
    expect(secondsPerJob(4_999, 1)).toBe(KTH_SECONDS_PER_JOB)
    expect(secondsPerJob(10_000, 0)).toBe(KTH_SECONDS_PER_JOB)
    expect(secondsPerJob(10_000, 1e-9)).toBe(KTH_SECONDS_PER_JOB / 4)
    expect(secondsPerJob(10_000, 100)).toBe(KTH_SECONDS_PER_JOB * 20)
  })

  it('puts them together: week simulations × jobs a week × rate × factor ÷ speed-up, plus reading and start-up', () => {
    const jobs = regular(26, 200) // 200 jobs every week
    const at = (perJob: number, readSeconds: number, workers: number) => estimateCampaign({ jobs, machineProcs: M, perJob, readSeconds }, request(workers))
    const one = at(1e-6, 0, 1)
    // 2 parts × (EASY-FCFS + SPF) × (10 resampled weeks + the real weeks)
    expect(one.cells).toBe(8)
    const simulated = (one.seconds - WORKER_START_SECONDS) / (1e-6 * POLICY_FACTOR) // jobs simulated
    expect(simulated / one.weekSimulations).toBeGreaterThan(200 * 0.98) // ≈ 200 jobs per simulated week
    expect(simulated / one.weekSimulations).toBeLessThan(200 * 1.02)
    // Linear in the rate, the reading time added once, divided by the speed-up.
    expect(at(2e-6, 0, 1).seconds - WORKER_START_SECONDS).toBeCloseTo(2 * (one.seconds - WORKER_START_SECONDS), 9)
    expect(at(1e-6, 1.5, 1).seconds).toBeCloseTo(one.seconds + 1.5, 9)
    expect((one.seconds - WORKER_START_SECONDS) / (at(1e-6, 0, 2).seconds - WORKER_START_SECONDS)).toBeCloseTo(1.7, 9)
    expect(at(1e-6, 0, 2).workers).toBe(2)
  })

  it('on the site\'s own configuration: its one-setting changes and the search\'s train cells are counted, and the note says what was not measured', () => {
    const jobs = regular(26, 200)
    const cost = { jobs, machineProcs: M, perJob: 1e-6, readSeconds: 0 }
    const pool = estimateCampaign(cost, request(1))
    expect(pool.note).toBeNull()
    const family = [{ primary: 'FCFS', backfill: 'same' as const, slurm: { bf_window: 120 } }, { primary: 'FCFS', backfill: 'same' as const, slurm: { bf_interval: 15 } }]
    const site = estimateCampaign(cost, request(1), { slurm: true, family, searchBudget: 3 })
    // Each change runs without a threshold: 2 parts × (10 resampled + the real weeks) = 4 cells each, plus 3 search cells.
    expect(site.cells).toBe(pool.cells + 2 * 4 + 3)
    // The search's cells are train cells of 10 resampled weeks each.
    expect(site.weekSimulations - pool.weekSimulations - 3 * 10).toBe(2 * (pool.weekSimulations / 2))
    expect(site.seconds).toBeGreaterThan(pool.seconds)
    expect(site.note).toMatch(/Slurm's own scheduling[^.]*much longer than shown/)
    expect(site.note).toMatch(/up to 3 training cells for the search of your Slurm settings/)
    expect(site.note).not.toMatch(/--/) // the app's words, never a flag
    const nodes = estimateCampaign(cost, request(1), { slurm: false, family: [], searchBudget: 0 })
    expect(nodes.cells).toBe(pool.cells)
    expect(nodes.note).toMatch(/on your nodes each job costs about 3 to 13 times more/)
  })
})
