import { describe, expect, it } from 'vitest'
import { calibrate } from '../../src/core/tune/calibrate'
import { campaignCells, cellKey, presetCandidates, type CampaignSpec, type CellResult } from '../../src/core/tune/campaign'
import { WEEK, WeekSamples, longTrace } from '../../src/core/tune/resample'
import { defaultVerdictOptions, summarize, type VerdictOptions } from '../../src/core/tune/select'
import { splitWorkload } from '../../src/core/tune/split'
import type { JobTable } from '../../src/core/workload/types'

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
  s.push(6 * WEEK + 5); u.push(0) // starts a 7th, partial week: never sampled
  return table(s, u)
}

describe('split in time', () => {
  it('midpoint: every train submit is before the split, every test submit at or after it', () => {
    const t = table([0, 10, 20, 30, 40, 50, 60, 100], [0, 0, 0, 0, 0, 0, 0, 0])
    const s = splitWorkload(t, 4, { kind: 'midpoint' })
    expect(s.at).toBe(50)
    expect(Array.from(s.train.submit)).toEqual([0, 10, 20, 30, 40])
    expect(Array.from(s.test.submit)).toEqual([50, 60, 100])
    expect(s.trainStats.jobs + s.testStats.jobs).toBe(8)
    expect(s.trainStats.load).toBeCloseTo((5 * 10) / (4 * 40))
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

  it('none: the real consecutive full weeks, in order; the partial last week is left out', () => {
    const ws = new WeekSamples(t, { method: 'none', weeks: 999, seed: 0 })
    expect(ws.count).toBe(6)
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
