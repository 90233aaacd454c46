// The trials of the learned-priority method (docs/LEARN.md §Trials): the eq. 3 score on a
// hand-worked instance (every permutation), the normalised std on hand-worked sums, early stop,
// and determinism for a seed whatever the order or grouping of the tuples.
import { describe, expect, it } from 'vitest'
import { isCheckpointOf, poolTrials, runTrials, runTuple, ScoreAccumulator, TRIALS_BATCH, TrialSimulator, trialAvgBsld, TrialsError, type TrialJobs } from '../../src/core/learn/trials'
import type { TrialsConfig, TupleCheckpoint } from '../../src/core/learn/types'

// Machine of 2 processors, |S| = 0, Q = {A, B, C} (index 0, 1, 2):
//   A: p = p̃ = 100 s, 2 cores;  B: p = p̃ = 10 s, 1 core;  C: p = p̃ = 20 s, 1 core.
// Submits 1000, 1005, 1030 s (s from the tuple's first task: 1 (floored), 5, 30).
const tiny: TrialJobs = {
  count: 3,
  submit: Float64Array.of(1000, 1005, 1030),
  runtime: Float64Array.of(100, 10, 20),
  requested: Float64Array.of(100, 10, 20),
  procs: Int32Array.of(2, 1, 1),
}
const A = 0, B = 1, C = 2

// Every permutation, worked by hand under EASY-FCFS (all submitted at 0):
//  ABC: A starts at 0 on both cores; nothing is free to backfill; B and C start at 100.
//  ACB: the same.                                       bsld A 1, B 110/10 = 11, C 120/20 = 6 → 18/3
//  BAC: B at 0; A blocked, shadow 10 (B's end), extra 0; C (20 s, 1 core) neither ends by 10 nor
//       fits the extra: waits. A at 10, C at 110.       bsld B 1, A 110/100, C 130/20 → 8.6/3
//  BCA: B and C at 0; A at 20 when C ends.              bsld 1, 1, 120/100 → 3.2/3
//  CAB: C at 0; A blocked, shadow 20; B backfills (0 + 10 ≤ 20). A at 20.  → 3.2/3
//  CBA: C and B at 0; A at 20.                          → 3.2/3
const HAND: { order: number[]; starts: number[]; avg: number }[] = [
  { order: [A, B, C], starts: [0, 100, 100], avg: 18 / 3 },
  { order: [A, C, B], starts: [0, 100, 100], avg: 18 / 3 },
  { order: [B, A, C], starts: [10, 0, 110], avg: 8.6 / 3 },
  { order: [B, C, A], starts: [20, 0, 0], avg: 3.2 / 3 },
  { order: [C, A, B], starts: [20, 0, 0], avg: 3.2 / 3 },
  { order: [C, B, A], starts: [20, 0, 0], avg: 3.2 / 3 },
]
// eq. 3: Σ over all six = 36/3 + 18.2/3 = 54.2/3; score(A) = (12)/(54.2/3) = 36/54.2,
// score(B) = (8.6 + 3.2)/54.2 = 11.8/54.2, score(C) = 6.4/54.2: C is the best task to start first.
const SCORE = [36 / 54.2, 11.8 / 54.2, 6.4 / 54.2]

function tinySim(): TrialSimulator {
  const sim = new TrialSimulator(3, 2)
  sim.runtime.set(tiny.runtime); sim.requested.set(tiny.requested); sim.procs.set(tiny.procs)
  return sim
}

const config = (o: Partial<TrialsConfig> = {}): TrialsConfig => ({ sizeS: 0, sizeQ: 3, trials: 6, tuples: 1, stopAt: 0, tau: 10, seed: 7, ...o })

describe('eq. 3 on a hand-worked instance', () => {
  it('simulates every permutation as worked by hand', () => {
    const sim = tinySim()
    for (const h of HAND) {
      sim.run(Int32Array.from(h.order))
      expect(Array.from(sim.start), h.order.join('')).toEqual(h.starts)
      expect(trialAvgBsld(sim, 0, 10)).toBeCloseTo(h.avg, 12)
    }
  })

  it('scores each task by the trials that start with it, over every permutation', () => {
    const sim = tinySim()
    const acc = new ScoreAccumulator(3)
    for (const h of HAND) { sim.run(Int32Array.from(h.order)); acc.add(h.order[0], trialAvgBsld(sim, 0, 10)) }
    for (let t = 0; t < 3; t++) expect(acc.score(t)).toBeCloseTo(SCORE[t], 12)
    expect(SCORE[A] + SCORE[B] + SCORE[C]).toBeCloseTo(1, 12)
  })

  it('converges to the same scores from random permutations, with the tuple features r, n, s', () => {
    const r = runTuple(tiny, 2, config({ trials: 96000 }), 0)
    expect(r.trials).toBe(96000)
    expect(r.firstJob).toBe(0)
    // Each task starts about a third of the trials: the sums carry that count's noise (≈ 0.5 %).
    for (let t = 0; t < 3; t++) expect(Math.abs(r.samples[t].score - SCORE[t])).toBeLessThan(0.01)
    expect(r.samples.map((x) => [x.r, x.n, x.s, x.p])).toEqual([[100, 2, 1, 100], [10, 1, 5, 10], [20, 1, 30, 20]])
  })
})

describe('the normalised std of the scores', () => {
  it('is |Q| times the RMS standard error of the scores: equal values give the binomial c(1 − c)/T', () => {
    // Q = 4, T = 8 trials of value 1, two starting with each task: c = 1/4, Var = (3/16)/8 = 3/128,
    // normalised std = 4·√(3/128).
    const acc = new ScoreAccumulator(4)
    for (let i = 0; i < 8; i++) acc.add(i % 4, 1)
    expect(acc.normStd()).toBeCloseTo(4 * Math.sqrt(3 / 128), 12)
  })

  it('counts the spread of the values: Q = 2, trials (0: 1), (1: 3), (0: 1), (1: 3)', () => {
    // Y = 8, Y2 = 20, A = (2, 6), B = (2, 18): c = (1/4, 3/4);
    // Σz² = B(1 − 2c) + c²·Y2 = 1 + 1.25 = 2.25 for task 0 and −9 + 11.25 = 2.25 for task 1;
    // Var = 2.25 / 64 each; normalised std = 2·√(2.25/64) = 0.375.
    const acc = new ScoreAccumulator(2)
    acc.add(0, 1); acc.add(1, 3); acc.add(0, 1); acc.add(1, 3)
    expect(acc.normStd()).toBeCloseTo(0.375, 12)
  })

  it('is unknown (Infinity) before two trials', () => {
    const acc = new ScoreAccumulator(2)
    expect(acc.normStd()).toBe(Infinity)
    acc.add(0, 1)
    expect(acc.normStd()).toBe(Infinity)
  })
})

describe('early stop', () => {
  it('stops after the first batch whose normalised std is below the level', () => {
    const r = runTuple(tiny, 2, config({ trials: 40 * TRIALS_BATCH, stopAt: 0.03 }), 0)
    expect(r.stoppedEarly).toBe(true)
    expect(r.trials % TRIALS_BATCH).toBe(0)
    expect(r.trials).toBeLessThan(40 * TRIALS_BATCH)
    const c = r.convergence
    expect(c.length).toBe(r.trials / TRIALS_BATCH)
    expect(c[c.length - 1].normStd).toBeLessThan(0.03)
    for (let i = 0; i < c.length - 1; i++) expect(c[i].normStd).toBeGreaterThanOrEqual(0.03)
  })

  it('runs to the ceiling when the level is 0, the last batch cut to fit', () => {
    const r = runTuple(tiny, 2, config({ trials: TRIALS_BATCH + 10 }), 0)
    expect(r.trials).toBe(TRIALS_BATCH + 10)
    expect(r.stoppedEarly).toBe(false)
    expect(r.convergence.map((c) => c.trials)).toEqual([TRIALS_BATCH, TRIALS_BATCH + 10])
  })
})

// 200 jobs, a few shapes, on 16 processors.
function synthetic(): TrialJobs {
  const n = 200
  const j = { count: n, submit: new Float64Array(n), runtime: new Float64Array(n), requested: new Float64Array(n), procs: new Int32Array(n) }
  for (let i = 0; i < n; i++) {
    j.submit[i] = i * 60
    j.runtime[i] = 30 + ((i * 37) % 500)
    j.requested[i] = j.runtime[i] * (1 + (i % 3))
    j.procs[i] = 1 + ((i * 7) % 16)
  }
  return j
}

describe('determinism', () => {
  const jobs = synthetic()
  const cfg: TrialsConfig = { sizeS: 16, sizeQ: 32, trials: 2 * TRIALS_BATCH, tuples: 3, stopAt: 0, tau: 10, seed: 11 }

  it('gives the same samples for the same seed, and others for another seed', () => {
    const a = runTrials(jobs, 16, cfg), b = runTrials(jobs, 16, cfg), c = runTrials(jobs, 16, { ...cfg, seed: 12 })
    expect(b).toEqual(a)
    expect(c.samples.map((s) => s.score)).not.toEqual(a.samples.map((s) => s.score))
    expect(a.samples.length).toBe(3 * 32)
    expect(a.trials).toBe(3 * 2 * TRIALS_BATCH)
  })

  it('computes tuple k alone as in the whole run, and pools in tuple order whatever order they finish in (so any number of workers)', () => {
    const whole = runTrials(jobs, 16, cfg)
    const apart = [2, 0, 1].map((k) => runTuple(jobs, 16, cfg, k))
    expect(apart[0]).toEqual(whole.tuples[2])
    expect(poolTrials(cfg, 16, jobs.count, apart)).toEqual(whole)
  })

  it('draws Q after S from consecutive training jobs, s from the tuple first submit', () => {
    const r = runTuple(jobs, 16, cfg, 1)
    const first = r.firstJob
    expect(r.samples.map((x) => x.s)).toEqual(Array.from({ length: 32 }, (_, t) => (16 + t) * 60))
    expect(r.samples.map((x) => x.n)).toEqual(Array.from({ length: 32 }, (_, t) => jobs.procs[first + 16 + t]))
    expect(r.samples.reduce((s, x) => s + x.score, 0)).toBeCloseTo(1, 12)
  })

  it('refuses what it cannot run, with a sentence', () => {
    expect(() => runTrials({ ...jobs, count: 40 }, 16, cfg)).toThrow(TrialsError)
    expect(() => runTrials(jobs, 8, cfg)).toThrow(/needs \d+ processors; the machine has 8/)
    expect(() => runTrials(jobs, 16, { ...cfg, trials: 0 })).toThrow(TrialsError)
    expect(() => runTrials(jobs, 16, { ...cfg, tau: NaN })).toThrow(TrialsError)
  })
})

describe('resuming a tuple from a checkpoint (docs/LEARN.md §Trials)', () => {
  const jobs = synthetic()
  const cfg: TrialsConfig = { sizeS: 16, sizeQ: 32, trials: 5 * TRIALS_BATCH + 100, tuples: 2, stopAt: 0, tau: 10, seed: 3 }
  /** The checkpoint after `batches` batches of tuple k, through JSON as the cache stores it. */
  const checkpointAt = (c: TrialsConfig, k: number, batches: number): TupleCheckpoint => {
    let cp: TupleCheckpoint | null = null
    expect(() => runTuple(jobs, 16, c, k, (done, take) => { if (done === batches * TRIALS_BATCH) { cp = JSON.parse(JSON.stringify(take())) as TupleCheckpoint; return true } })).toThrow(/cancelled/)
    return cp!
  }

  it('gives bit for bit the result of an uninterrupted run, from any batch', () => {
    const whole = runTuple(jobs, 16, cfg, 1)
    for (const batches of [1, 3, 5]) {
      const cp = checkpointAt(cfg, 1, batches)
      expect(cp.trials).toBe(batches * TRIALS_BATCH)
      const resumed = runTuple(jobs, 16, cfg, 1, undefined, cp)
      expect(JSON.stringify(resumed)).toBe(JSON.stringify(whole))
      expect(resumed).toEqual(whole)
    }
  })

  it('stops early at the same batch as an uninterrupted run', () => {
    const c = { ...cfg, trials: 60 * TRIALS_BATCH, stopAt: 0.05 }
    const whole = runTuple(jobs, 16, c, 0)
    expect(whole.stoppedEarly).toBe(true) // needs more than 2 batches, so the resumed run has some left
    expect(whole.trials).toBeGreaterThan(2 * TRIALS_BATCH)
    expect(runTuple(jobs, 16, c, 0, undefined, checkpointAt(c, 0, 2))).toEqual(whole)
  })

  it('refuses a checkpoint of another tuple, budget or shape', () => {
    const cp = checkpointAt(cfg, 1, 2)
    expect(isCheckpointOf(cp, cfg, 1)).toBe(true)
    expect(isCheckpointOf(cp, cfg, 0)).toBe(false) // another tuple
    expect(isCheckpointOf(cp, { ...cfg, trials: 2 * TRIALS_BATCH }, 1)).toBe(false) // at the ceiling: nothing left
    expect(isCheckpointOf({ ...cp, trials: cp.trials + 1 }, cfg, 1)).toBe(false) // not a whole number of batches
    expect(isCheckpointOf({ ...cp, a: cp.a.slice(1) }, cfg, 1)).toBe(false)
    expect(isCheckpointOf({ ...cp, convergence: cp.convergence.slice(1) }, cfg, 1)).toBe(false)
    expect(isCheckpointOf({ ...cp, y: NaN }, cfg, 1)).toBe(false)
    expect(isCheckpointOf(cp, { ...cfg, stopAt: 10 }, 1)).toBe(false) // that tuple would have stopped already
    expect(() => runTuple(jobs, 16, cfg, 0, undefined, cp)).toThrow(TrialsError)
  })
})
