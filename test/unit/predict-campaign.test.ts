// The runtime-prediction campaign's core (src/core/predict/campaign.ts; docs/PREDICTIONS.md
// §Campaign): the triples, the metrics of one (log, triple) and the leave-one-out selection, each
// against values worked by hand.
import { describe, expect, it } from 'vitest'
import {
  CLAIRVOYANT_ID, CLAIRVOYANT_SJBF_ID, EASY_ID, EASY_PP_ID, extremeBound, findTriple, leaveOneOut, logCorrelations, MULTIPLE_TESTING_NOTE, simulateTriple, tripleConfig, tripleMetrics, TRIPLES,
  DEFAULT_CAMPAIGN_OPTIONS, THESIS_CHOICE_ID,
} from '../../src/core/predict/campaign'
import { LOSS_IDS } from '../../src/core/predict/losses'
import { simulate } from '../../src/core/sim/easy'
import { DEFAULTS } from '../../src/core/defaults'
import type { PredictJobs } from '../../src/core/predict/types'

describe('the triples', () => {
  it('are the 130 of the thesis campaign: 2·2 without correction, 21·3·2 with one', () => {
    expect(TRIPLES.length).toBe(130)
    expect(new Set(TRIPLES.map((t) => t.id)).size).toBe(130)
    const none = TRIPLES.filter((t) => t.correction === 'none')
    expect(none.map((t) => t.id).sort()).toEqual(['clairvoyant+none+same', 'clairvoyant+none+sjbf', 'requested+none+same', 'requested+none+sjbf'])
    for (const t of TRIPLES) if (t.predictor.id === 'ave2' || t.predictor.id === 'eloss') expect(['requested', 'incremental', 'doubling']).toContain(t.correction)
    // Every loss of Table 4.5 appears with 3 corrections × 2 backfill orders, and so does AVE₂.
    for (const loss of LOSS_IDS) expect(TRIPLES.filter((t) => t.predictor.id === 'eloss' && t.predictor.loss === loss).length).toBe(6)
    expect(TRIPLES.filter((t) => t.predictor.id === 'ave2').length).toBe(6)
    expect(TRIPLES.filter((t) => t.learned).length).toBe(120)
  })

  it('name the thesis heuristics with ids that say what they are', () => {
    expect(findTriple(EASY_ID)).toMatchObject({ predictor: { id: 'requested' }, correction: 'none', backfill: 'same' })
    expect(findTriple(EASY_PP_ID)).toMatchObject({ predictor: { id: 'ave2' }, correction: 'incremental', backfill: 'sjbf' })
    expect(findTriple(CLAIRVOYANT_ID)).toMatchObject({ predictor: { id: 'clairvoyant' }, backfill: 'same' })
    expect(findTriple(CLAIRVOYANT_SJBF_ID)).toMatchObject({ predictor: { id: 'clairvoyant' }, backfill: 'sjbf' })
    expect(findTriple('eloss:sq-abs-large-area+incremental+sjbf')).toMatchObject({ predictor: { id: 'eloss', loss: 'sq-abs-large-area' }, learned: true })
    expect(findTriple(EASY_ID)!.label).toMatch(/^EASY \(/)
    expect(findTriple(EASY_PP_ID)!.label).toMatch(/^EASY\+\+ \(/)
    expect(findTriple('eloss:sq-abs-large-area+incremental+sjbf')!.label).toMatch(/^The thesis choice \(.*E-Loss/)
    expect(THESIS_CHOICE_ID).toBe('eloss:sq-abs-large-area+incremental+sjbf')
    expect(findTriple('ave2+none+same')).toBeUndefined()
  })

  it('combine with the queue order and threshold given, backfilling by SJBF or in the queue order', () => {
    const o = { primary: 'SPF', threshold: 72000, tau: 10 }
    expect(tripleConfig(findTriple(EASY_PP_ID)!, o)).toEqual({ primary: 'SPF', backfill: 'same', threshold: 72000, prediction: { predictor: { id: 'ave2' }, correction: 'incremental', sjbf: true } })
    expect(tripleConfig(findTriple(EASY_ID)!, DEFAULT_CAMPAIGN_OPTIONS)).toEqual({ primary: 'FCFS', backfill: 'same', threshold: null, prediction: { predictor: { id: 'requested' }, correction: 'none', sjbf: false } })
  })

  it('simulate EASY exactly as plain EASY does', () => {
    const jobs = tinyJobs()
    const easy = simulateTriple(jobs, 4, findTriple(EASY_ID)!, DEFAULT_CAMPAIGN_OPTIONS)
    expect([...easy.start]).toEqual([...simulate(jobs, 4, { primary: 'FCFS', backfill: 'same', threshold: null })])
    expect(easy.corrections).toBe(0)
  })
})

// 4 processors. Job 0 (4 procs, 100 s) fills the machine; job 1 (4 procs, 100 s, asks 1000 s) and
// job 2 (1 proc, 50 s, asks 50 s) wait. Same user throughout.
function tinyJobs(): PredictJobs {
  return {
    count: 3, submit: Float64Array.from([0, 1, 2]), runtime: Float64Array.from([100, 100, 50]), requested: Float64Array.from([100, 1000, 50]),
    procs: Int32Array.from([4, 4, 1]), user: Int32Array.from([0, 0, 0]),
  }
}

describe('the metrics of one (log, triple)', () => {
  it('are the hand-worked AvgBsld, AvgWait, extreme share, MAE and mean E-Loss', () => {
    // Job 0: p = 100 s, q = 10, starts at once, predicted 200 s: over by 100, γ = log10(10·100) = 3 → 3·100² = 30,000; bsld 1.
    // Job 1: p = 1000 s, q = 1, waits 100 s, predicted 500 s: under by 500, γ = log10(1·1000) = 3 → 3·500 = 1,500; bsld 1100/1000 = 1.1.
    const jobs = { count: 2, submit: Float64Array.from([0, 0]), runtime: Float64Array.from([100, 1000]), requested: Float64Array.from([300, 2000]), procs: Int32Array.from([10, 1]) }
    const m = tripleMetrics(jobs, { start: Float64Array.from([0, 100]), predictions: Float64Array.from([200, 500]), corrections: 7 }, 10, 1.05)
    expect(m.jobs).toBe(2)
    expect(m.avgBsld).toBeCloseTo(1.05, 12)
    expect(m.maxBsld).toBeCloseTo(1.1, 12)
    expect(m.avgWait).toBe(50)
    expect(m.extremeJobs).toBe(1)
    expect(m.extremeShare).toBe(0.5)
    expect(m.extremeBound).toBe(1.05)
    expect(m.mae).toBe(300)
    expect(m.meanELoss).toBeCloseTo((30000 + 1500) / 2, 6)
    expect(m.underShare).toBe(0.5)
    expect(m.corrections).toBe(7)
  })

  it('call a bounded slowdown extreme above plain EASY\'s 99.9th percentile (nearest rank): 1 job in 1,000', () => {
    expect(DEFAULTS.extremeBsld.value).toBe(0.999)
    // 1,000 jobs of 10 s (= τ): job k (1-based) waits 10·(k−1) s, so its bsld is k exactly.
    const n = 1000
    const jobs = { count: n, submit: new Float64Array(n), runtime: new Float64Array(n).fill(10), requested: new Float64Array(n).fill(10), procs: new Int32Array(n).fill(1) }
    const start = Float64Array.from({ length: n }, (_, k) => 10 * k)
    const bound = extremeBound(jobs, start, 10)
    expect(bound).toBe(999) // rank ceil(0.999·1000) = 999
    const m = tripleMetrics(jobs, { start, predictions: jobs.runtime, corrections: 0 }, 10, bound)
    expect(m.extremeJobs).toBe(1)
    expect(m.extremeShare).toBe(0.001)
  })
})

describe('leave-one-out across logs', () => {
  // AvgBsld of 4 triples (T0..T3) on 3 logs, chosen so that each fold is worked by hand:
  //   A: 10  8  9 20      fold A: B+C = 17 18 14  9 → T3 (9);  on A 20 is the worst: rank 4; best on A: T1 (8)
  //   B:  5  7  4  6      fold B: A+C = 22 19 19 23 → T1 and T2 tie at 19: the earlier, T1; on B 7: rank 4; best on B: T2 (4)
  //   C: 12 11 10  3      fold C: A+B = 15 15 13 26 → T2 (13); on C 10, only 3 is lower: rank 2; best on C: T3 (3)
  const table = [[10, 8, 9, 20], [5, 7, 4, 6], [12, 11, 10, 3]]

  it('chooses on the other logs and judges on the held-out one', () => {
    const r = leaveOneOut(table)
    expect(r.folds).toEqual([
      { log: 0, chosen: 3, otherLogsSum: 9, heldOutAvgBsld: 20, heldOutRank: 4, hindsightBest: 1, hindsightAvgBsld: 8 },
      { log: 1, chosen: 1, otherLogsSum: 19, heldOutAvgBsld: 7, heldOutRank: 4, hindsightBest: 2, hindsightAvgBsld: 4 },
      { log: 2, chosen: 2, otherLogsSum: 13, heldOutAvgBsld: 10, heldOutRank: 2, hindsightBest: 3, hindsightAvgBsld: 3 },
    ])
    expect(r.notes).toEqual([MULTIPLE_TESTING_NOTE])
    expect(r.candidates).toBe(4)
  })

  it('never chooses a triple that is not a candidate (the clairvoyant bound)', () => {
    // T3 excluded: fold A: B+C over T0..T2 = 17 18 14 → T2 (14); on A 9, only 8 is lower among T0..T2: rank 2; best on A: T1.
    //              fold C: A+B = 15 15 13 → T2 (13); on C 10 is the lowest of 12 11 10: rank 1; best on C: T2.
    const r = leaveOneOut(table, [true, true, true, false])
    expect(r.candidates).toBe(3)
    expect(r.folds[0]).toEqual({ log: 0, chosen: 2, otherLogsSum: 14, heldOutAvgBsld: 9, heldOutRank: 2, hindsightBest: 1, hindsightAvgBsld: 8 })
    expect(r.folds[2]).toEqual({ log: 2, chosen: 2, otherLogsSum: 13, heldOutAvgBsld: 10, heldOutRank: 1, hindsightBest: 2, hindsightAvgBsld: 10 })
    expect(() => leaveOneOut(table, [false, false, false, false])).toThrow(/at least one triple/)
    expect(TRIPLES.filter((t) => !t.selectable).map((t) => t.id)).toEqual([CLAIRVOYANT_ID, CLAIRVOYANT_SJBF_ID])
  })

  it('never lets the held-out log decide its own choice', () => {
    // Making T0 perfect on A changes nothing in fold A, only in the other folds.
    const changed = [[0.5, 8, 9, 20], table[1], table[2]]
    expect(leaveOneOut(changed).folds[0].chosen).toBe(3)
    expect(leaveOneOut(changed).folds[0].heldOutRank).toBe(4)
  })

  it('gives tied values the better rank', () => {
    // Fold 0 chooses T1 (B: 1 < 2); on A T0 and T1 tie at 3: both rank 1.
    expect(leaveOneOut([[3, 3, 5], [2, 1, 9]]).folds[0]).toMatchObject({ chosen: 1, heldOutRank: 1 })
  })

  it('says plainly what two logs and one log can tell', () => {
    const two = leaveOneOut([[1, 2], [2, 1]])
    expect(two.folds.map((f) => f.chosen)).toEqual([1, 0])
    expect(two.notes[0]).toMatch(/^Two logs: each log's triple is chosen on the one other log alone/)
    const one = leaveOneOut([[1, 2]])
    expect(one.folds).toEqual([])
    expect(one.notes[0]).toMatch(/^One log: .*no triple is selected/)
    expect(one.notes).toContain(MULTIPLE_TESTING_NOTE)
  })

  it('refuses a table with a missing value or ragged rows', () => {
    expect(() => leaveOneOut([[1, NaN], [1, 2]])).toThrow(/finite/)
    expect(() => leaveOneOut([[1, 2], [1]])).toThrow(/same triples/)
  })
})

describe('how alike two logs rank the triples', () => {
  it('is the Pearson r of their AvgBsld over the candidates, null without variation', () => {
    // A = 1 2 3 (4), B = 2 4 6 (0): r = 1; C = 3 2 1 (9): r(A, C) = −1; D constant: null. The fourth triple is not a candidate.
    const r = logCorrelations([[1, 2, 3, 4], [2, 4, 6, 0], [3, 2, 1, 9], [5, 5, 5, 1]], [true, true, true, false])
    expect(r[0][1]).toBeCloseTo(1, 12)
    expect(r[0][2]).toBeCloseTo(-1, 12)
    expect(r[1][2]).toBeCloseTo(-1, 12)
    expect(r[0][3]).toBeNull()
    expect(r[0][0]).toBeCloseTo(1, 12)
    // With every triple a candidate the fourth column counts: A = 1 2 3 4, B = 2 4 6 0 →
    // means 2.5 and 3; Σdx·dy = (−1.5)(−1) + (−.5)(1) + (.5)(3) + (1.5)(−3) = −2; Σdx² = 5; Σdy² = 20 → r = −2/10.
    expect(logCorrelations([[1, 2, 3, 4], [2, 4, 6, 0]])[0][1]).toBeCloseTo(-0.2, 12)
  })
})
