// The verdict (docs/STATISTICS.md): switch / keep / insufficient-data on hand-made workloads run
// through the real pipeline in this process (prepare → every cell of campaignCells → summarize),
// and on hand-made cell results where the numbers are worked by hand.
import { describe, expect, it } from 'vitest'
import { campaignCells, cellKey, runCell, type CampaignSpec, type CellResult } from '../../src/core/tune/campaign'
import { dataProblem, prepare } from '../../src/core/tune/prepare'
import { WEEK } from '../../src/core/tune/resample'
import { defaultVerdictOptions, summarize, type Selection, type VerdictOptions } from '../../src/core/tune/select'
import { slurmDeployment } from '../../src/core/export/deploy'
import type { JobTable } from '../../src/core/workload/types'

const M = 10

/** Each week: a job that fills the machine for 1000 s, then a long full-machine job (10,000 s),
 * then n short 1-processor jobs of 10 s (n varies by week), then 80 small jobs spread over the
 * following days that never wait. Under FCFS the short jobs wait behind the long one (~11,000 s);
 * under SPF or SQF they run first (~1,000 s) and the long job waits only ~20 s more. */
function bursts(weeks: number): JobTable {
  const submit: number[] = [], runtime: number[] = [], procs: number[] = []
  const add = (t: number, p: number, q: number) => { submit.push(t); runtime.push(p); procs.push(q) }
  for (let w = 0; w < weeks; w++) {
    const t0 = w * WEEK + 100
    add(t0, 1000, M)
    add(t0 + 1, 10000, M)
    const n = 15 + ((w * 7) % 11)
    for (let i = 0; i < n; i++) add(t0 + 2 + i, 10, 1)
    for (let j = 0; j < 80; j++) add(w * WEEK + 86400 + j * 3000, 10, 1)
  }
  const n = submit.length
  return {
    count: n, id: Float64Array.from(submit, (_, i) => i + 1), submit: Float64Array.from(submit), runtime: Float64Array.from(runtime),
    requested: Float64Array.from(runtime), procs: Int32Array.from(procs), user: Int32Array.from(submit, (_, i) => i % 5),
    recordedWait: new Float64Array(n).fill(NaN), line: Int32Array.from(submit, (_, i) => i + 1),
  }
}

const spec = (primaries: string[], weeks = 40, method: 'user-weeks' | 'none' = 'user-weeks'): CampaignSpec => ({
  candidates: primaries.map((primary) => ({ primary, backfill: 'same' as const })), thresholds: [null], split: { kind: 'midpoint' },
  resample: { method, weeks, seed: 4 }, objective: 'avgWait', tau: 10,
})
const options = (over: Partial<VerdictOptions> = {}): VerdictOptions => ({ ...defaultVerdictOptions(), replicates: 1000, ...over })

/** The whole protocol in this process. */
function run(jobs: JobTable, machine: number, s: CampaignSpec, o: VerdictOptions = options()): Selection {
  const p = prepare(jobs, machine, s.split, s.resample)
  const results = new Map<string, CellResult>()
  for (const c of campaignCells(s)) {
    const samples = c.samples === 'real' ? (c.part === 'train' ? p.trainReal : p.testReal) : c.part === 'train' ? p.train : p.test
    results.set(cellKey(c), runCell(samples, machine, c, s.tau))
  }
  const data = { train: { weeks: p.trainReal.originalWeeks, jobs: p.split.trainStats.jobs }, test: { weeks: p.testReal.originalWeeks, jobs: p.split.testStats.jobs } }
  return summarize(s, results, o, s.resample.seed, data)
}
const labelOf = (s: Selection, i: number | null | undefined) => (i === null || i === undefined ? null : s.candidates[i].label)

describe('verdict on hand-made workloads', () => {
  const jobs = bursts(26)

  it('keep when every order ties: a machine so large that no job waits', () => {
    const s = run(jobs, 100 * M, spec(['SPF', 'LPF']))
    for (const c of s.candidates) expect(c.train.real.gain).toBe(0)
    expect(s.verdict).toBe('keep')
    expect(s.recommended).toBe(0)
    expect(s.reason).toMatch(/below the 5.0 % needed to switch/)
    expect(s.equivalent).toEqual([])
  })

  it('switch on a clear gain, with the gain and interval on the real weeks', () => {
    const s = run(jobs, M, spec(['SPF', 'LPF']))
    expect(s.verdict).toBe('switch')
    expect(labelOf(s, s.recommended)).toBe('EASY-SPF Θ=none')
    const r = s.candidates[s.recommended!].train.real
    // The short jobs' waits fall from ~11,000 s to ~1,000 s: far more than half the mean wait goes.
    expect(r.gain).toBeGreaterThan(0.5)
    expect(r.selectionCi![0]).toBeGreaterThan(0)
    expect(r.weeks).toBe(s.statistics.trainWeeks)
    expect(s.statistics.trainWeeks).toBeGreaterThanOrEqual(8)
    expect(s.reason).toMatch(/^switch to EASY-SPF/)
  })

  it('never switches below --min-gain', () => {
    const s = run(jobs, M, spec(['SPF', 'LPF']), options({ minGain: 0.99 }))
    expect(s.verdict).toBe('keep')
    expect(s.recommended).toBe(0)
    expect(s.reason).toMatch(/below the 99.0 % needed/)
  })

  it('resolves a tie to the simplest to deploy: SQF (native) over SPF (job_submit.lua), the other listed as equivalent', () => {
    // On this workload SPF and SQF give the same schedule (the short jobs are also the narrow ones).
    expect(slurmDeployment({ primary: 'SQF', backfill: 'same' }, null).rank).toBeLessThan(slurmDeployment({ primary: 'SPF', backfill: 'same' }, null).rank)
    const s = run(jobs, M, spec(['SPF', 'SQF', 'LPF']))
    const spf = s.candidates.findIndex((c) => c.label === 'EASY-SPF Θ=none')
    expect(labelOf(s, s.bestAdmissible)).toBe('EASY-SPF Θ=none') // first of the two equal means
    expect(s.verdict).toBe('switch')
    expect(labelOf(s, s.recommended)).toBe('EASY-SQF Θ=none')
    expect(s.equivalent).toEqual([spf])
    expect(s.candidates[s.recommended!].train.real.vsBest).toEqual([0, 0])
  })

  it('the interval does not depend on --weeks: 100 vs 1,000 resampled weeks give the same width', () => {
    const a = run(jobs, M, spec(['SPF', 'LPF'], 100)), b = run(jobs, M, spec(['SPF', 'LPF'], 1000))
    const width = (s: Selection) => { const ci = s.candidates[1].train.real.selectionCi!; return ci[1] - ci[0] }
    expect(width(a)).toBeGreaterThan(0)
    expect(Math.abs(width(a) - width(b)) / width(a)).toBeLessThanOrEqual(0.15)
    expect(width(b)).toBe(width(a)) // exactly: the real weeks are the same weeks
    expect(b.candidates[1].train.real.ci).toEqual(a.candidates[1].train.real.ci)
    expect(b.candidates[1].test.gainCi).toEqual(a.candidates[1].test.gainCi)
  })

  it('insufficient-data below --min-weeks real weeks in a part, with what is missing; no recommendation', () => {
    const s = run(bursts(12), M, spec(['SPF']))
    expect(s.verdict).toBe('insufficient-data')
    expect(s.recommended).toBeNull()
    expect(s.reason).toMatch(/the train part has 5 full weeks \(at least 8 needed\)/)
    expect(s.reason).toMatch(/jobs \(at least 1000 needed\)/)
  })

  it('refuses up front a log with fewer than 2 full weeks in a part, in the issue\'s words', () => {
    const day = bursts(1)
    const oneDay: JobTable = { ...day, submit: Float64Array.from(day.submit, (t) => (t * 86400) / day.submit[day.count - 1]) }
    expect(dataProblem(oneDay, M, { kind: 'midpoint' })).toBe('this log spans 1.0 day (train: 0 full weeks, test: 0 full weeks); the protocol needs at least 2 full weeks in each part: give several files, e.g. daily jobcomp files, or a longer sacct range')
    expect(dataProblem(bursts(26), M, { kind: 'midpoint' })).toBeNull()
  })
})

describe('verdict on hand-made cell results (real weeks = resampled weeks: --resample none)', () => {
  const cell = (avgWait: number[], maxWait: number[]): CellResult => ({
    avgWait: Float64Array.from(avgWait), maxWait: Float64Array.from(maxWait), avgBsld: Float64Array.from(avgWait, (x) => 1 + x / 100),
    maxBsld: Float64Array.from(maxWait, (x) => 1 + x / 100), jobs: Int32Array.from(avgWait, () => 10),
  })
  const s = spec(['SPF', 'SQF'], 1, 'none')
  const results = (spf: CellResult, sqf: CellResult, base: CellResult) => {
    const m = new Map<string, CellResult>()
    for (const part of ['train', 'test'] as const) {
      m.set(cellKey({ part, candidate: { primary: 'FCFS', backfill: 'same' }, threshold: null }), base)
      m.set(cellKey({ part, candidate: { primary: 'SPF', backfill: 'same' }, threshold: null }), spf)
      m.set(cellKey({ part, candidate: { primary: 'SQF', backfill: 'same' }, threshold: null }), sqf)
    }
    return m
  }
  const tenWeeks = (x: number) => Array.from({ length: 10 }, () => x)

  it('never switches with an interval touching 0, even above --min-gain', () => {
    // SPF: nine weeks at 60 s and one at 400 s against 100 s: Σ = 940 vs 1000, a 6 % gain ≥ 5 %,
    // but a replicate with two or more of the bad week is worse than FCFS.
    const m = results(cell([...tenWeeks(60).slice(0, 9), 400], tenWeeks(500)), cell(tenWeeks(100), tenWeeks(500)), cell(tenWeeks(100), tenWeeks(500)))
    const sel = summarize(s, m, options({ risk: { maxWaitRatio: null } }), 1)
    const spf = sel.candidates[1]
    expect(spf.train.real.gain).toBeCloseTo(0.06, 12)
    expect(spf.train.real.ci[0]).toBeLessThan(0)
    expect(sel.verdict).toBe('keep')
    expect(sel.reason).toMatch(/interval .* is not entirely above 0/)
  })

  it('the risk limit filters: 1.5 by default keeps the baseline, none lets the gain through', () => {
    // SPF halves every week's wait, but one week's longest wait is 3× FCFS's.
    const m = results(cell(tenWeeks(50), [3000, ...tenWeeks(1000).slice(1)]), cell(tenWeeks(100), tenWeeks(1000)), cell(tenWeeks(100), tenWeeks(1000)))
    const limited = summarize(s, m, options(), 1)
    expect(limited.options.risk.maxWaitRatio).toBe(1.5)
    expect(limited.candidates[1].admissible).toBe(false)
    expect(limited.verdict).toBe('keep')
    const free = summarize(s, m, options({ risk: { maxWaitRatio: null } }), 1)
    expect(free.verdict).toBe('switch')
    expect(labelOf(free, free.recommended)).toBe('EASY-SPF Θ=none')
    expect(free.candidates[1].train.real.gain).toBeCloseTo(0.5, 12)
  })

  it('mean-ratio: the mean of the weekly ratios, weeks where the baseline waits 0 left out', () => {
    // Baseline 100 and 300 s, then a week at 0; SPF 50 and 300 s and 0: ratio of means 1 − 350/400
    // = 12.5 %; mean of ratios (0.5 + 1) / 2 → 25 %.
    const base = cell([100, 300, 0], [1, 1, 1]), spf = cell([50, 300, 0], [1, 1, 1])
    const m = results(spf, base, base)
    expect(summarize(s, m, options(), 1).candidates[1].train.real.gain).toBeCloseTo(0.125, 12)
    const mr = summarize(s, m, options({ criterion: 'mean-ratio' }), 1)
    expect(mr.candidates[1].train.real.gain).toBeCloseTo(0.25, 12)
    expect(mr.candidates[1].train.real.weeks).toBe(2)
  })
})
