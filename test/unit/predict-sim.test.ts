// Scheduling with runtime predictions (docs/PREDICTIONS.md §Scheduling with predictions and
// §Corrections): hand-worked schedules. Every expected start below is derived in the comments,
// event by event, from the rules — not read from the program.
import { describe, expect, it } from 'vitest'
import { EasySimulator, simulate, SimulationError } from '../../src/core/sim/easy'
import type { SimConfig, SimJobs } from '../../src/core/sim/types'
import type { CorrectionId, PredictionConfig } from '../../src/core/predict/types'
import { PredictionConfigError } from '../../src/core/predict/predictors'

type J = [user: number, submit: number, procs: number, runtime: number, requested: number]
function jobs(list: readonly J[]): SimJobs & { user: Int32Array } {
  return {
    count: list.length,
    user: Int32Array.from(list, (j) => j[0]),
    submit: Float64Array.from(list, (j) => j[1]),
    procs: Int32Array.from(list, (j) => j[2]),
    runtime: Float64Array.from(list, (j) => j[3]),
    requested: Float64Array.from(list, (j) => j[4]),
  }
}
const fcfs = (prediction?: PredictionConfig): SimConfig => ({ primary: 'FCFS', backfill: 'same', threshold: null, ...(prediction ? { prediction } : {}) })
function run(js: SimJobs, m: number, config: SimConfig): { start: number[]; corrections: number; predictions: number[] } {
  const sim = new EasySimulator(js, m, config, {})
  sim.runUntil(Infinity)
  return { start: [...sim.start], corrections: sim.corrections, predictions: [...sim.predictions] }
}

// Two processors, FCFS, AVE₂ predictions. Only J1 is under-predicted: its user's one finished job
// (J0) ran 10 s, so J1 is predicted 10 s although it runs 300 s (limit 1000 s).
//   J0 u0 submit 0   q1 p10  p̃1000  — no history: predicted 1000; runs 0–10 (then u0's history = 10)
//   J1 u0 submit 20  q1 p300 p̃1000  — predicted 10: runs from 20, predicted end 30, real end 320
//   J2 u1 submit 25  q2 p100 p̃100   — blocked behind J1 until 320 whatever the predictions
//   J3 u2 submit 26  q1 p60  p̃60
//   J4 u3 submit 40  q1 p5   p̃5
//   J5 u4 submit 100 q1 p30  p̃30
// At 25 and 26 the reservation of J2 is at J1's predicted end 30 (extra 0): J3 (26 + 60 > 30) waits.
// Corrections happen at the next scheduling pass at or after the predicted end (40, then 100, …).
const LOG: J[] = [[0, 0, 1, 10, 1000], [0, 20, 1, 300, 1000], [1, 25, 2, 100, 100], [2, 26, 1, 60, 60], [3, 40, 1, 5, 5], [4, 100, 1, 30, 30]]
const ave2 = (correction: CorrectionId, sjbf = false): PredictionConfig => ({ predictor: { id: 'ave2' }, correction, ...(sjbf ? { sjbf } : {}) })

describe('corrections on a hand-worked schedule', () => {
  it('requested: J1 is then expected to end at 20 + 1000 = 1020', () => {
    // 40: J1 corrected once (→ 1000 s, end 1020); shadow 1020: J3 (40 + 60 ≤ 1020) starts at 40; J4 finds no processor.
    // 100: J3 ends; J4 (FCFS before J5, 105 ≤ 1020) starts; J5 finds no processor. 105: J4 ends, J5 starts.
    // 320: J1 ends, J2 starts.
    const r = run(jobs(LOG), 2, fcfs(ave2('requested')))
    expect(r.start).toEqual([0, 20, 320, 40, 100, 105])
    expect(r.corrections).toBe(1)
  })

  it('incremental: +1 min at the first correction, +5 min at the second', () => {
    // 40: J1's 10 s + 60 s = 70 s (end 90 > 40): one correction. Shadow 90: J3 (40 + 60 = 100 > 90,
    //     extra 0) waits; J4 (45 ≤ 90) starts. 45: J4 ends; J3 still does not fit before 90.
    // 100: J1's predicted end 90 ≤ 100: 70 + 300 = 370 s (end 390). Shadow 390: J3 (160 ≤ 390)
    //     starts; J5 finds no processor. 160: J3 ends; J5 (190 ≤ 390) starts. 320: J2 starts.
    const r = run(jobs(LOG), 2, fcfs(ave2('incremental')))
    expect(r.start).toEqual([0, 20, 320, 100, 40, 160])
    expect(r.corrections).toBe(2)
  })

  it('doubling: the prediction doubles until it is past the moment of the pass', () => {
    // 40: 10 → 20 (end 40, not past 40) → 40 (end 60): two corrections. Shadow 60: J3 (100 > 60) waits;
    //     J4 (45 ≤ 60) starts. 100: 40 → 80 (end 100) → 160 (end 180): two more. Shadow 180: J3
    //     (160 ≤ 180) starts; J5 finds no processor. 160: J3 ends; J5 (190 > 180, extra 0) waits.
    // 320: J1 ends; J2 (first in FCFS) takes both processors; J5 starts when J2 ends, at 420.
    const r = run(jobs(LOG), 2, fcfs(ave2('doubling')))
    expect(r.start).toEqual([0, 20, 320, 100, 40, 420])
    expect(r.corrections).toBe(4)
  })

  it('the initial predictions are AVE₂ of the user\'s finished jobs, or p̃ without history', () => {
    expect(run(jobs(LOG), 2, fcfs(ave2('incremental'))).predictions).toEqual([1000, 10, 100, 60, 5, 30])
  })

  it('plain EASY plans J1 on its 1000 s limit from the start', () => {
    // 26: shadow 1020: J3 starts. 40: J4 finds no processor. 86: J3 ends, J4 starts. 100: J5 starts
    // (J4 ended at 91). 320: J2.
    const plain = simulate(jobs(LOG), 2, fcfs())
    expect([...plain]).toEqual([0, 20, 320, 26, 86, 100])
    // The requested-time predictor is plain EASY, with or without a correction.
    for (const correction of ['none', 'requested', 'incremental', 'doubling'] as const) {
      expect(run(jobs(LOG), 2, fcfs({ predictor: { id: 'requested' }, correction })).start).toEqual([...plain])
    }
  })
})

describe('SJBF and ordering by prediction', () => {
  it('SJBF backfills the shortest prediction first, whatever the submit order', () => {
    // One processor free behind a blocked wide job: candidates B (predicted 50) and C (predicted 8),
    // both fit before the shadow; SJBF starts C first, and B no longer finds a processor.
    //   A q2 p100 at 0 on 3 processors → 1 free; W q3 at 1 is blocked until 100 (shadow 100, extra 0).
    //   B q1 p50 at 2, C q1 p8 at 2 (clairvoyant: predictions = runtimes).
    const js = jobs([[0, 0, 2, 100, 100], [1, 1, 3, 10, 10], [2, 2, 1, 50, 90], [3, 2, 1, 8, 90]])
    const clair = (sjbf: boolean): PredictionConfig => ({ predictor: { id: 'clairvoyant' }, correction: 'none', sjbf })
    // FCFS backfill: B (2 + 50 ≤ 100) starts at 2, C waits for B to end at 52 (C: 52 + 8 ≤ 100).
    expect(run(js, 3, fcfs(clair(false))).start).toEqual([0, 100, 2, 52])
    // SJBF: C starts at 2, ends 10; B (10 + 50 ≤ 100) starts at 10.
    expect(run(js, 3, fcfs(clair(true))).start).toEqual([0, 100, 10, 2])
  })

  it("'order': the whole queue by shortest prediction, the backfill test on p̃", () => {
    // Two processors, clairvoyant predictions (= runtimes).
    //   J0 q2 p10 p̃10 at 0: runs 0–10.
    //   J1 q2 p20 p̃100 at 1 (predicted 20); J2 q1 p5 p̃20 at 2 (5); J3 q1 p30 p̃40 at 3 (30); J4 q1 p25 p̃40 at 11 (25).
    // 10: J0 ends, 2 free. By prediction: J2 (5), J1 (20), J3 (30). J2 starts; J1 (q2) is blocked;
    //     its reservation on p̃: J2 ends by 10 + 20 = 30 → shadow 30, extra 0; J3 (10 + 40 > 30) waits.
    // 11: J4 (predicted 25) goes between J1 and J3; 11 + 40 > 30: it waits.
    // 15: J2 ends, 2 free: J1 starts (15–35). 35: J1 ends: J4 and J3 start.
    const js = jobs([[0, 0, 2, 10, 10], [1, 1, 2, 20, 100], [2, 2, 1, 5, 20], [3, 3, 1, 30, 40], [4, 11, 1, 25, 40]])
    const order: PredictionConfig = { predictor: { id: 'clairvoyant' }, correction: 'none', use: 'order' }
    expect(run(js, 2, fcfs(order)).start).toEqual([0, 15, 10, 35, 35])
  })

  it("'order' plans on p̃ where 'plan' plans on the prediction", () => {
    // Two processors. J0 q1 p10 p̃10 at 0; J1 q1 p30 p̃50 at 0 (predicted 30); J2 q2 p20 p̃100 at 1
    // (predicted 20); J3 q1 p20 p̃30 at 12 (predicted 20, after J2 by prediction since 20 = 20 and J2 was submitted first).
    // 0: J0 and J1 start. 1: J2 blocked. 10: J0 ends, 1 free; J2 blocked; shadow = J1's end:
    //    'order' plans on p̃: 0 + 50 = 50; 'plan' on the prediction: 30.
    // 12: J3 (q1): 'order': 12 + 30 = 42 ≤ 50 → backfilled at 12 (really ends at 32); 30: J1 ends,
    //    J2 still blocked; 32: J3 ends, J2 starts. 'plan' (clairvoyant, FCFS order): 12 + 20 = 32 > 30
    //    and extra 0 → J3 waits; 30: J1 ends, J2 starts (30–50); J3 at 50.
    const js = jobs([[0, 0, 1, 10, 10], [1, 0, 1, 30, 50], [2, 1, 2, 20, 100], [3, 12, 1, 20, 30]])
    expect(run(js, 2, fcfs({ predictor: { id: 'clairvoyant' }, correction: 'none', use: 'order' })).start).toEqual([0, 0, 32, 12])
    expect(run(js, 2, fcfs({ predictor: { id: 'clairvoyant' }, correction: 'none' })).start).toEqual([0, 0, 30, 50])
  })
})

describe('configurations that cannot be simulated are refused in words', () => {
  const js = jobs(LOG)
  it('a predictor that can fall short needs a correction', () => {
    expect(() => simulate(js, 2, fcfs(ave2('none')))).toThrow(PredictionConfigError)
    expect(() => simulate(js, 2, fcfs(ave2('none')))).toThrow(/needs a correction/)
  })
  it('SJBF is the backfill order itself', () => {
    expect(() => simulate(js, 2, { primary: 'FCFS', backfill: 'SPF', threshold: null, prediction: ave2('incremental', true) })).toThrow(SimulationError)
  })
  it("ordering by prediction replaces the queue order", () => {
    expect(() => simulate(js, 2, { primary: 'SPF', backfill: 'same', threshold: null, prediction: { predictor: { id: 'ave2' }, correction: 'none', use: 'order' } })).toThrow(/replaces the queue order/)
  })
  it('the predictor cannot change during a run', () => {
    const sim = new EasySimulator(js, 2, fcfs(ave2('incremental')), {})
    expect(() => sim.setConfig(fcfs(ave2('doubling')))).toThrow(/fixed for a run/)
    expect(() => sim.setConfig({ ...fcfs(ave2('incremental')), primary: 'SPF' })).not.toThrow()
  })
  it('online predictors need the users', () => {
    const { user: _u, ...noUser } = js
    expect(() => simulate(noUser, 2, fcfs(ave2('incremental')))).toThrow(/user column/)
  })
})
