import { describe, expect, it } from 'vitest'
import { calibrate } from '../../src/core/tune/calibrate'
import { campaignCells, cellKey, type CampaignSpec, type CellResult } from '../../src/core/tune/campaign'
import { presetCandidates } from '../../src/core/tune/presets'
import { WEEK, WeekSamples, longTrace } from '../../src/core/tune/resample'
import { defaultVerdictOptions, summarize, type VerdictOptions } from '../../src/core/tune/select'
import { partWeeks, splitWorkload } from '../../src/core/tune/split'
import { runCell } from '../../src/core/tune/campaign'
import type { JobTable } from '../../src/core/workload/types'
import { deriveSeed, Rng } from '../../src/core/util/random'

/** A table of n jobs: job i submitted at submits[i], user users[i], line i+1. */
function table(submits: number[], users: number[]): JobTable {
  const n = submits.length
  return {
    count: n, id: Float64Array.from(submits, (_, i) => i + 1), submit: Float64Array.from(submits),
    runtime: new Float64Array(n).fill(10), requested: new Float64Array(n).fill(20), procs: new Int32Array(n).fill(1),
    user: Int32Array.from(users), recordedWait: new Float64Array(n).fill(NaN), line: Int32Array.from(submits, (_, i) => i + 1),
  }
}

// 6 weeks, 3 users (+ unknown), several jobs per user-week at known offsets.
function sixWeeks(): JobTable {
  const s: number[] = [], u: number[] = []
  for (let w = 0; w < 6; w++) for (let k = 0; k < 8; k++) { s.push(w * WEEK + k * 3600 * 7 + w * 11); u.push(k % 4 === 3 ? -1 : k % 4) }
  s.push(6 * WEEK); u.push(0) // exactly on the end of the 6th week: the part spans 6 full weeks, and this job is in none
  return table(s, u)
}

describe('split in time', () => {
  it('midpoint: every train submit is before the split, every test submit at or after it', () => {
    const t = table([0, 10, 20, 30, 40, 50, 60, 100], [0, 0, 0, 0, 0, 0, 0, 0])
    const s = splitWorkload(t, 4, { kind: 'midpoint' })
    expect(s.at).toBe(50)
    expect(Array.from(s.train.submit)).toEqual([0, 10, 20, 30, 40])
    expect(Array.from(s.test.submit)).toEqual([50, 60, 100])
    // each part's first and last submit, its span and its load: 1-processor jobs of 10 s on 4 processors
    expect(s.trainStats).toEqual({ jobs: 5, start: 0, end: 40, seconds: 40, load: (5 * 10) / (4 * 40) })
    expect(s.testStats).toEqual({ jobs: 3, start: 50, end: 100, seconds: 50, load: (3 * 10) / (4 * 50) })
    expect(splitWorkload(t, 4, { kind: 'fraction', fraction: 0.25 }).train.count).toBe(3)
    expect(splitWorkload(t, 4, { kind: 'time', at: 31 }).test.count).toBe(4)
    expect(() => splitWorkload(t, 4, { kind: 'time', at: 1000 })).toThrow(/0 test jobs/)
  })
})

describe('week resampling', () => {
  const t = sixWeeks()
  const weekOf = (i: number) => Math.floor(t.submit[i] / WEEK)
  const lineToIndex = (line: number) => line - 1

  it('user-weeks: each user contributes exactly their jobs of one original week, offsets kept', () => {
    const ws = new WeekSamples(t, { method: 'user-weeks', weeks: 30, seed: 7 })
    expect(ws.originalWeeks).toBe(6)
    for (let k = 0; k < ws.count; k++) {
      const s = ws.get(k)
      const byUser = new Map<number, Set<number>>()
      for (let j = 0; j < s.count; j++) {
        const i = lineToIndex(s.line[j])
        expect(s.submit[j]).toBe(t.submit[i] % WEEK)
        expect(s.user[j]).toBe(t.user[i])
        const weeks = byUser.get(t.user[i]) ?? new Set()
        weeks.add(weekOf(i))
        byUser.set(t.user[i], weeks)
        if (j > 0) expect(s.submit[j]).toBeGreaterThanOrEqual(s.submit[j - 1])
      }
      for (const [user, weeks] of byUser) {
        expect(weeks.size).toBe(1)
        const w = [...weeks][0]
        expect(w).toBeLessThan(6)
        const expected = Array.from(t.line).filter((_, i) => t.user[i] === user && weekOf(i) === w).sort((a, b) => a - b)
        const got = Array.from(s.line).filter((l) => t.user[lineToIndex(l)] === user).sort((a, b) => a - b)
        expect(got).toEqual(expected)
      }
      expect(byUser.size).toBe(4) // 3 users + the unknown pseudo-user
    }
  })

  it('is seeded: the same seed gives the same samples, another seed other ones', () => {
    const a = new WeekSamples(t, { method: 'user-weeks', weeks: 10, seed: 1 })
    const b = new WeekSamples(t, { method: 'user-weeks', weeks: 10, seed: 1 })
    const c = new WeekSamples(t, { method: 'user-weeks', weeks: 10, seed: 2 })
    const lines = (ws: WeekSamples) => Array.from({ length: 10 }, (_, k) => Array.from(ws.get(k).line).join(','))
    expect(lines(a)).toEqual(lines(b))
    expect(lines(a)).not.toEqual(lines(c))
  })

  it('week-shuffle: every pass over the weeks is a permutation of the whole original weeks', () => {
    const ws = new WeekSamples(t, { method: 'week-shuffle', weeks: 12, seed: 3 })
    const whichWeek = (k: number) => {
      const s = ws.get(k)
      const weeks = new Set(Array.from(s.line, (l) => weekOf(lineToIndex(l))))
      expect(weeks.size).toBe(1)
      expect(s.count).toBe(8)
      return [...weeks][0]
    }
    expect([0, 1, 2, 3, 4, 5].map(whichWeek).sort()).toEqual([0, 1, 2, 3, 4, 5])
    expect([6, 7, 8, 9, 10, 11].map(whichWeek).sort()).toEqual([0, 1, 2, 3, 4, 5])
  })

  it('none: the real consecutive full weeks, in order; a job on the last week\'s end is in no week', () => {
    const ws = new WeekSamples(t, { method: 'none', weeks: 999, seed: 0 })
    expect(ws.count).toBe(6)
    expect(ws.partialWeek).toBe(0)
    for (let k = 0; k < 6; k++) expect(Array.from(ws.get(k).line)).toEqual(Array.from({ length: 8 }, (_, i) => k * 8 + i + 1))
  })

  it('longTrace shifts sample k by k weeks', () => {
    const ws = new WeekSamples(t, { method: 'none', weeks: 1, seed: 0 })
    const tr = longTrace(ws, 3)
    expect(tr.count).toBe(24)
    expect(tr.submit[8]).toBe(WEEK + ws.get(1).submit[0])
  })

  it('rejects a part shorter than a week in plain words', () => {
    expect(() => new WeekSamples(table([0, 100], [0, 0]), { method: 'user-weeks', weeks: 5, seed: 1 })).toThrow(/spans 0.0 days; resampling needs at least one full week/)
  })
})

// A part of 2.5 weeks that starts mid-week (worked by hand, D = one day): submits at days 5, 6, 8,
// 13, 15, 20, 21 and 22.5 (jobs 1..8, one user). Span = 22.5 − 5 = 17.5 D = 2.5 weeks.
// Default: weeks from the first submit (day 5): [5, 12) holds jobs 1–3, [12, 19) jobs 4–5, and
//   the trailing partial week [19, 22.5] jobs 6–8, of length 3.5 D = 0.5 week: weights 1, 1, 0.5.
// Compat ocst (C13): weeks ⌊r / 7 D⌋ on the log's axis: week 0 = days 5, 6 (jobs 1–2), week 1 =
//   [7, 14) days 8, 13 (jobs 3–4), week 2 = [14, 21) days 15, 20 (jobs 5–6), week 3 = days 21,
//   22.5 (jobs 7–8). The first (0) and last (3) are dropped: 2 full weeks, jobs 3–4 and 5–6.
describe('the trailing partial week (weighted by its length) and rule C13 (compat ocst)', () => {
  const D = 86400
  const part = table([5, 6, 8, 13, 15, 20, 21, 22.5].map((d) => d * D), [0, 0, 0, 0, 0, 0, 0, 0])
  const lines = (ws: WeekSamples, k: number) => Array.from(ws.get(k).line)

  it('partWeeks: 2 full weeks and a half by default; 2 full weeks (first and last dropped) under ocst', () => {
    expect(partWeeks(part)).toEqual({ origin: 5 * D, full: 2, partial: 0.5, count: 3, droppedJobs: 0 })
    expect(partWeeks(part, 'ocst')).toEqual({ origin: 7 * D, full: 2, partial: 0, count: 2, droppedJobs: 4 })
  })

  it('none, default: 3 real weeks, the last weighing 0.5, its jobs at their offsets from the week start', () => {
    const ws = new WeekSamples(part, { method: 'none', weeks: 1, seed: 0 })
    expect([ws.originalWeeks, ws.realWeeks, ws.partialWeek, ws.count]).toEqual([2, 3, 0.5, 3])
    expect([0, 1, 2].map((k) => lines(ws, k))).toEqual([[1, 2, 3], [4, 5], [6, 7, 8]])
    expect([0, 1, 2].map((k) => ws.weight(k))).toEqual([1, 1, 0.5])
    expect(Array.from(ws.weights()!)).toEqual([1, 1, 0.5])
    expect(Array.from(ws.get(0).submit)).toEqual([0, 1 * D, 3 * D])
    expect(Array.from(ws.get(2).submit)).toEqual([1 * D, 2 * D, 3.5 * D])
  })

  it('none, compat ocst: 2 full weeks (jobs 3–4 and 5–6), weights 1, offsets t mod 7 days', () => {
    const ws = new WeekSamples(part, { method: 'none', weeks: 1, seed: 0 }, { compat: 'ocst' })
    expect([ws.originalWeeks, ws.realWeeks, ws.partialWeek, ws.count]).toEqual([2, 2, 0, 2])
    expect([0, 1].map((k) => lines(ws, k))).toEqual([[3, 4], [5, 6]])
    expect([ws.weight(0), ws.weight(1), ws.weights()]).toEqual([1, 1, undefined])
    expect(Array.from(ws.get(0).submit)).toEqual([1 * D, 6 * D])
    expect(Array.from(ws.get(1).submit)).toEqual([1 * D, 6 * D])
  })

  it('runCell records the weights in CellResult.weight, and none when every sample is full', () => {
    const cell = { candidate: { primary: 'FCFS', backfill: 'same' as const }, threshold: null, part: 'train' as const }
    const byDefault = runCell(new WeekSamples(part, { method: 'none', weeks: 1, seed: 0 }), 4, cell, 10)
    expect(Array.from(byDefault.weight!)).toEqual([1, 1, 0.5])
    expect(Array.from(byDefault.jobs)).toEqual([3, 2, 3])
    const ocst = runCell(new WeekSamples(part, { method: 'none', weeks: 1, seed: 0 }, { compat: 'ocst' }), 4, cell, 10)
    expect(ocst.weight).toBeUndefined()
    expect(Array.from(ocst.jobs)).toEqual([2, 2])
  })

  it('week-shuffle: a sample that is the partial week weighs 0.5, the others 1', () => {
    const ws = new WeekSamples(part, { method: 'week-shuffle', weeks: 9, seed: 4 })
    let partial = 0
    for (let k = 0; k < 9; k++) {
      const isPartial = lines(ws, k).join() === '6,7,8'
      if (isPartial) partial++
      expect(ws.weight(k)).toBe(isPartial ? 0.5 : 1)
    }
    expect(partial).toBe(3) // once per pass over the 3 real weeks
  })

  it('user-weeks: samples weigh 1; a user draws the partial week with probability 0.5 / 2.5 = 0.2', () => {
    const ws = new WeekSamples(part, { method: 'user-weeks', weeks: 4000, seed: 11 })
    expect(ws.weights()).toBeUndefined()
    expect(ws.weight(7)).toBe(1)
    const drawn = [0, 0, 0]
    for (let k = 0; k < ws.count; k++) drawn[lines(ws, k)[0] === 1 ? 0 : lines(ws, k)[0] === 4 ? 1 : 2]++
    expect(drawn[2] / ws.count).toBeGreaterThan(0.17)
    expect(drawn[2] / ws.count).toBeLessThan(0.23)
    expect(drawn[0] / ws.count).toBeGreaterThan(0.37)
    expect(drawn[0] / ws.count).toBeLessThan(0.43)
  })

  it('a part whose samples are all full weeks draws exactly as before (uniform over the full weeks)', () => {
    const full = table([0, 1, 2, 3].map((w) => w * WEEK), [0, 0, 0, 0]) // 3 full weeks, the 4th job on the end
    const ws = new WeekSamples(full, { method: 'user-weeks', weeks: 50, seed: 3 })
    expect(ws.partialWeek).toBe(0)
    const rng = new Rng(deriveSeed(3, 'user-weeks/0'))
    const expected = [0, 1].map(() => rng.int(3)) // pseudo-user (unknown) then user 0
    expect(lines(ws, 0)).toEqual([expected[1] + 1])
  })

  it('compat ocst refuses, in words, a part left with no full week', () => {
    const short = table([5, 10, 16].map((d) => d * D), [0, 0, 0]) // log weeks 0, 1, 2: week 1 (days 7–14) is kept, though the span is 11 days
    expect(new WeekSamples(short, { method: 'none', weeks: 1, seed: 0 }, { compat: 'ocst' }).count).toBe(1)
    const tooShort = table([5, 10].map((d) => d * D), [0, 0]) // log weeks 0 and 1: both dropped
    expect(() => new WeekSamples(tooShort, { method: 'none', weeks: 1, seed: 0 }, { compat: 'ocst' })).toThrow(/compat ocst its first and last \(partial\) weeks are dropped/)
  })
})

describe('selection relative to EASY-FCFS on the same weeks, within the risk limit', () => {
  const cell = (avgWait: number[], maxWait: number[]): CellResult => ({
    avgWait: Float64Array.from(avgWait), maxWait: Float64Array.from(maxWait), avgBsld: Float64Array.from(avgWait, (x) => 1 + x / 100),
    maxBsld: Float64Array.from(maxWait, (x) => 1 + x / 100), jobs: Int32Array.from(avgWait, () => 10),
  })
  const spec: CampaignSpec = {
    candidates: [{ primary: 'SPF', backfill: 'same' }, { primary: 'SQF', backfill: 'same' }],
    // 'none': the resampled weeks are the real weeks, so these cells serve both roles.
    thresholds: [null], split: { kind: 'midpoint' }, resample: { method: 'none', weeks: 3, seed: 1 }, objective: 'avgWait', tau: 10,
  }
  const opts = (maxWaitRatio: number | null): VerdictOptions => ({ ...defaultVerdictOptions({ maxWaitRatio }), replicates: 500 })
  const results = new Map<string, CellResult>()
  const put = (part: 'train' | 'test', primary: string, r: CellResult) => results.set(cellKey({ part, candidate: { primary, backfill: 'same' }, threshold: null }), r)
  put('train', 'FCFS', cell([100, 200, 0], [1000, 1000, 0]))
  put('train', 'SPF', cell([50, 100, 0], [3000, 1000, 0]))   // best mean, but longest wait 3× FCFS
  put('train', 'SQF', cell([80, 160, 0], [1200, 1000, 0]))   // 20% better, longest wait 1.2×
  put('test', 'FCFS', cell([100, 100, 100], [1000, 1000, 1000]))
  put('test', 'SPF', cell([90, 90, 90], [1000, 1000, 1000]))
  put('test', 'SQF', cell([120, 120, 120], [1000, 1000, 1000])) // test disagrees with train

  it('computes gains, ratios and MaxWait ratios against the baseline of the same week', () => {
    const s = summarize(spec, results, opts(null), 1)
    const spf = s.candidates.find((c) => c.label.startsWith('EASY-SPF'))!
    expect(spf.train.mean).toBe(50)
    expect(spf.train.baselineMean).toBe(100)
    expect(spf.train.gain).toBeCloseTo(0.5)
    expect(spf.train.ratioWeeks).toBe(2) // the week where FCFS waits 0 is left out of the ratios
    expect(spf.train.meanRatio).toBeCloseTo(0.5)
    expect(spf.train.ratioOfSums).toBeCloseTo(0.5)
    expect(spf.train.maxMaxWaitRatio).toBeCloseTo(3)
    expect(spf.train.meanMaxWaitRatio).toBeCloseTo(2)
    expect(spf.test.gain).toBeCloseTo(0.1)
    expect(spf.test.gainCi[0]).toBeCloseTo(0.1)
    expect(spf.test.gainCi[1]).toBeCloseTo(0.1)
    expect(s.candidates[s.bestAdmissible].label).toMatch(/^EASY-SPF/)
  })

  it('recommends the best on train that respects the limit, and reports test honestly', () => {
    const s = summarize(spec, results, opts(1.5), 1)
    expect(s.verdict).toBe('switch')
    const rec = s.candidates[s.recommended!]
    expect(rec.label).toMatch(/^EASY-SQF/)
    expect(rec.train.maxMaxWaitRatio).toBeLessThanOrEqual(1.5)
    expect(rec.test.gain).toBeCloseTo(-0.2) // worse than FCFS on test: reported, not hidden
    expect(s.candidates[s.bestOnTrain].label).toMatch(/^EASY-SPF/)
    expect(s.candidates[s.bestOnTest].label).toMatch(/^EASY-SPF/)
    expect(s.candidates.find((c) => c.label.startsWith('EASY-SPF'))!.admissible).toBe(false)
  })

  it('falls back to EASY-FCFS when nothing else respects the limit', () => {
    const s = summarize(spec, results, opts(1.1), 1)
    expect(s.verdict).toBe('keep')
    expect(s.recommended).toBe(0)
    expect(s.candidates[0].baseline).toBe(true)
  })
})

describe('campaign grid', () => {
  it('has 49 ch. 5 pairs and simulates EASY-FCFS once per part whatever the thresholds', () => {
    const c = presetCandidates('ch5')
    expect(c.length).toBe(49)
    expect(presetCandidates('ch6').length).toBe(12)
    const cells = campaignCells({ candidates: c, thresholds: [null, 72000], split: { kind: 'midpoint' }, resample: { method: 'none', weeks: 1, seed: 1 }, objective: 'avgWait', tau: 10 })
    expect(cells.length).toBe(2 * (1 + 48 * 2))
    expect(new Set(cells.map(cellKey)).size).toBe(cells.length)
  })

  it('adds the real-week cells (own keys) when the weeks are resampled; resampled cells keep their keys', () => {
    const spec: CampaignSpec = { candidates: [{ primary: 'SPF', backfill: 'same' }], thresholds: [null], split: { kind: 'midpoint' }, resample: { method: 'user-weeks', weeks: 5, seed: 1 }, objective: 'avgWait', tau: 10 }
    const cells = campaignCells(spec)
    expect(cells.length).toBe(2 * 2 * 2)
    expect(cells.filter((c) => c.samples === 'real').length).toBe(4)
    expect(cellKey({ part: 'train', candidate: { primary: 'SPF', backfill: 'same' }, threshold: null })).toBe(JSON.stringify(['train', 'SPF', 'same', null]))
    expect(cellKey({ part: 'train', candidate: { primary: 'SPF', backfill: 'same' }, threshold: null, samples: 'real' })).toBe(JSON.stringify(['train', 'SPF', 'same', null, 'real']))
    expect(new Set(cells.map(cellKey)).size).toBe(cells.length)
  })
})

describe('calibration against recorded waits', () => {
  it('is perfect when the simulation reproduces the recorded waits, and null without them', () => {
    const t = table([0, 10, 20, 30], [0, 0, 1, 1])
    const rec = [5, 0, 100, 40]
    const withWaits = { ...t, recordedWait: Float64Array.from(rec) }
    const start = Float64Array.from(rec, (w, i) => t.submit[i] + w)
    const c = calibrate(withWaits, start)!
    expect(c.jobs).toBe(4)
    expect(c.pearson).toBeCloseTo(1)
    expect(c.spearman).toBeCloseTo(1)
    expect(c.meanDifference).toBe(0)
    expect(c.verdict).toMatch(/closely/)
    const doubled = calibrate(withWaits, Float64Array.from(rec, (w, i) => t.submit[i] + 2 * w))!
    expect(doubled.verdict).toMatch(/2.0× longer/)
    expect(calibrate(t, start)).toBeNull()
  })
})
