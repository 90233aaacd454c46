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
import { InsufficientDataError, readExportInput } from '../../src/core/export/validate'
import { CampaignRequestSchema, EvaluationResultSchema, ProjectStateSchema } from '../../src/shared/schemas'
import { estimateCampaign } from '../../src/backend/estimate'

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
    expect(s.reason).toMatch(/below the 5.0% needed to switch/)
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
    expect(s.reason).toMatch(/below the 99.0% needed/)
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

  it('never switches with an interval whose lower end is exactly 0', () => {
    // Two weeks, FCFS 100 s each; SPF waits 0 s in week 1 and 100 s in week 2: Ĝ = 50 %. The
    // replicates draw (1,1), (1,2), (2,1), (2,2): G = 100 %, 50 %, 50 %, 0 %, so the winner's
    // optimism δ is +50 % a quarter of the time and its 97.5th percentile is 50 %: the corrected
    // interval starts at 50 % − 50 % = 0, which touches 0.
    const m = results(cell([0, 100], [1, 1]), cell([100, 100], [1, 1]), cell([100, 100], [1, 1]))
    const sel = summarize(s, m, options({ risk: { maxWaitRatio: null } }), 1)
    expect(sel.candidates[1].train.real.gain).toBe(0.5)
    expect(sel.candidates[1].train.real.selectionCi).toEqual([0, 1])
    expect(sel.verdict).toBe('keep')
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

describe('documents: version 1 results and older project files are still read', () => {
  /** A minimal version-1 result as `easytune evaluate --json` wrote it before issue #19. */
  const v1 = () => {
    const part = (gain: number) => ({ mean: 100 * (1 - gain), baselineMean: 100, gain, gainCi: [gain - 0.1, gain + 0.1], meanRatio: 1 - gain, p10Ratio: 1, p90Ratio: 1, ratioWeeks: 4, ratioOfSums: 1 - gain, meanMaxWait: 10, meanMaxWaitRatio: 1, maxMaxWait: 10, maxMaxWaitRatio: 1 })
    const cand = (primary: string, gain: number) => ({ label: `EASY-${primary}`, candidate: { primary, backfill: 'same' }, primary, backfill: 'same', threshold: null, baseline: primary === 'FCFS', admissible: true, train: part(gain), test: part(gain) })
    return {
      schemaVersion: 1, kind: 'easytune-evaluation', generator: 'easytune 0.1.0',
      log: { name: 'site.swf', sha256: 'a'.repeat(64), format: 'swf', machineProcs: 64, machineSource: 'given', jobsRead: 10, jobsKept: 10, unixStartTime: null, importReport: {} },
      protocol: { objective: 'avgWait', tau: 10, thresholds: [null], candidates: [], risk: { maxWaitRatio: null }, cells: 4, split: {}, resample: {} },
      calibration: null, candidates: [cand('FCFS', 0), cand('SQF', 0.2)], recommended: 1, bestOnTest: 1, bestOnTrain: 1, ranking: [1, 0],
      recommendation: { label: 'EASY-SQF', sentence: 'EASY with SQF order cut the average wait on the test months by 20%.', testDisagrees: false },
      weekly: [],
    }
  }

  it('the API schema upgrades a v1 result: the verdict its recommendation implied, the export of that candidate', () => {
    const r = EvaluationResultSchema.parse(v1())
    expect(r.schemaVersion).toBe(3) // read as the current version: v1 → v2 → v3
    expect(r.machine).toMatchObject({ kind: 'pool', scheduler: 'easy', conf: null })
    expect(r.recommendation.asDeployed).toBeNull()
    expect(r.recommendation).toMatchObject({ verdict: 'switch', equivalent: [], impact: null, export: { target: 'slurm', fidelity: 'native', lost: [] } })
    expect(r.recommendation.reason).toMatch(/version-1 result/)
    expect(r.protocol).toMatchObject({ confidence: 0.9, minGain: 0, criterion: 'ratio-of-means', statistics: null })
    expect(r.candidates[1].train.real).toMatchObject({ weeks: 0, gain: 0.2 })
    const keep = EvaluationResultSchema.parse({ ...v1(), recommended: 0 })
    expect(keep.recommendation.verdict).toBe('keep')
    expect(() => EvaluationResultSchema.parse({ ...v1(), schemaVersion: 4 })).toThrow(/must be 1, 2 or 3/)
  })

  it('export reads a v1 result, and refuses an insufficient-data one with its reason', () => {
    expect(readExportInput(v1()).primary).toEqual({ kind: 'pure', id: 'SQF' })
    const { recommended: _r, ...rest } = v1()
    const short = { ...rest, schemaVersion: 2, recommendation: { ...rest.recommendation, verdict: 'insufficient-data', reason: 'Not enough data for a verdict: the train part has 3 full weeks (at least 8 needed).' } }
    expect(() => readExportInput(short)).toThrow(InsufficientDataError)
    expect(() => readExportInput(short)).toThrow(/insufficient-data.*3 full weeks \(at least 8 needed\)/)
    // The schema allows `recommended` to be absent only for insufficient-data.
    expect(EvaluationResultSchema.parse(short).recommended).toBeUndefined()
    expect(() => EvaluationResultSchema.parse({ ...short, recommendation: { ...short.recommendation, verdict: 'keep' } })).toThrow(/recommended/)
  })

  it('a project file from before the verdict gets the verdict defaults', () => {
    const campaign = { resample: { method: 'user-weeks', weeks: 50, seed: 1 }, candidates: { preset: 'ch5' }, thresholds: [null], objective: 'avgWait', tau: 10, workers: null }
    const s = ProjectStateSchema.parse({ version: 1, log: null, importOptions: {}, split: { kind: 'midpoint' }, campaign, result: null, step: 0 })
    expect(s.campaign).toMatchObject({ maxWaitRatio: 1.5, minGain: 0.05, confidence: 0.95, minWeeks: 8, criterion: 'ratio-of-means' })
    expect(ProjectStateSchema.parse({ version: 1, log: null, importOptions: {}, split: { kind: 'midpoint' }, campaign: { ...campaign, maxWaitRatio: null }, result: null, step: 0 }).campaign.maxWaitRatio).toBeNull()
  })

  it('the wizard\'s estimate refuses a too-short log with the same words as evaluate', () => {
    const day = bursts(1)
    const oneDay: JobTable = { ...day, submit: Float64Array.from(day.submit, (t) => (t * 86400) / day.submit[day.count - 1]) }
    const req = CampaignRequestSchema.parse({ workloadId: 'w1', split: { kind: 'midpoint' }, resample: { method: 'user-weeks', weeks: 10, seed: 1 }, candidates: { preset: 'ch6' }, thresholds: [null], objective: 'avgWait', tau: 10, workers: 1 })
    expect(() => estimateCampaign({ jobs: oneDay, machineProcs: M, perJob: 1e-6, readSeconds: 0 }, req)).toThrow(dataProblem(oneDay, M, { kind: 'midpoint' })!)
    // A long enough log: the real-week cells are counted too (resampled + real, both parts).
    const e = estimateCampaign({ jobs: bursts(26), machineProcs: M, perJob: 1e-6, readSeconds: 0 }, req)
    expect(e.cells).toBe(2 * 2 * 12)
  })
})

describe('the verdict sentence', () => {
  it('names the groups over the risk ratio once the impact is known', async () => {
    const { buildResult, withImpact } = await import('../../src/core/tune/result')
    const jobs = bursts(26)
    const s = spec(['SPF', 'LPF'])
    const p = prepare(jobs, M, s.split, s.resample)
    const results = new Map<string, CellResult>()
    for (const c of campaignCells(s)) results.set(cellKey(c), runCell(c.samples === 'real' ? (c.part === 'train' ? p.trainReal : p.testReal) : c.part === 'train' ? p.train : p.test, M, c, 10))
    const selection = summarize(s, results, options(), 4)
    const report = { name: 'bursts', format: 'swf', jobsRead: jobs.count, jobsKept: jobs.count, machine: { source: 'given' } } as never
    const r = buildResult({
      generator: 'test', sha256: 'a'.repeat(64), report, machineProcs: M, unixStartTime: null, spec: s, selection, results,
      cellKeyOf: (c, part) => cellKey({ part, candidate: c.candidate, threshold: c.threshold }),
      split: { at: p.split.at, train: p.split.trainStats, test: p.split.testStats }, weeks: { trainOriginal: 12, testOriginal: 12, train: 40, test: 40 }, calibration: null, cells: 12,
    })
    expect(r.recommendation.verdict).toBe('switch')
    expect(r.recommendation.sentence).toMatch(/^Switch to EASY with SPF order and no threshold: average wait \d+\.\d% lower than EASY-FCFS on the \d+ real train weeks \(95% interval .* corrected for choosing among 2 candidates\), .* on the \d+ test weeks \(95% interval .*; reported, not the evidence\); longest train wait \d\.\d\d× EASY-FCFS's, 99th percentile \d\.\d\d×; exports to Slurm with a job_submit\.lua script; the log records no waits/)
    expect(r.recommendation.sentence).not.toMatch(/mean wait rises/)
    const group = { part: 'train' as const, dimension: 'size' as const, label: '10 processors', meanRatio: 3.2, jobs: 24 }
    const impact = { train: { bySize: [], byRequested: [], byAccount: [], accountKind: 'user' as const }, test: { bySize: [], byRequested: [], byAccount: [], accountKind: 'user' as const }, overRisk: [group] }
    expect(withImpact(r, impact).recommendation.sentence).toMatch(/mean wait rises beyond 1\.5× for 10 processors \(train, 3\.2×, 24 jobs\)/)
  })
})
