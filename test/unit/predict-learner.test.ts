// The learned regression of thesis ch. 4 (docs/PREDICTIONS.md §Model, §Losses): NAG on a worked
// example, the 20 features on a hand-made sequence of jobs, the losses' weights and slopes, and the
// regression inside the simulator (capped, floored, deterministic). Every expected value is worked
// out here by hand or by the formula written in the test.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DEFAULTS } from '../../src/core/defaults'
import { FEATURE_COUNT, FEATURE_NAMES, FeatureState } from '../../src/core/predict/features'
import { createRegression, PHI_DIMENSION, Regression } from '../../src/core/predict/learner'
import { ELOSS_ID, findLoss, LOSS_IDS, lossSlope, lossValue, lossWeight } from '../../src/core/predict/losses'
import { expandPhi, Nag, phiDimension } from '../../src/core/predict/nag'
import type { PredictJobs } from '../../src/core/predict/types'
import { EasySimulator } from '../../src/core/sim/easy'
import type { SimConfig } from '../../src/core/sim/types'
import { readLog } from '../../src/node/read-log'

const f64 = (...v: number[]) => Float64Array.from(v)

describe('Φ, the degree-2 expansion', () => {
  it('has 1 + 2n + C(n, 2) coordinates: 231 for the 20 features (squares included)', () => {
    expect(phiDimension(3)).toBe(1 + 6 + 3)
    expect(phiDimension(20)).toBe(231)
    expect(PHI_DIMENSION).toBe(231)
    expect(FEATURE_COUNT).toBe(20)
    expect(FEATURE_NAMES).toHaveLength(20)
  })

  it('is (1, x, x², then the pairwise products in order) read from an offset', () => {
    const phi = new Float64Array(10)
    expandPhi(f64(9, 9, 2, 3, 5), 2, 3, phi)
    expect(Array.from(phi)).toEqual([1, 2, 3, 5, 4, 9, 25, 2 * 3, 2 * 5, 3 * 5])
  })
})

describe('NAG (Ross, Mineiro and Langford, Algorithm 2)', () => {
  it('two steps in dimension 2, worked by hand, with a rescaling between them', () => {
    const eta = 2
    const nag = new Nag(2, eta, 0)
    // Step 1: Φ = (1, −2), slope −3. Scales become (1, 2); w = 0 so f = 0.
    const p1 = f64(1, -2)
    nag.scale(p1)
    expect(Array.from(nag.s)).toEqual([1, 2])
    expect(nag.predict(p1)).toBe(0)
    nag.update(p1, -3)
    // t = 1, N = (1/1)² + (2/2)² = 2, rate = 2·sqrt(1/2) = √2; g = (−3, 6); G = (9, 36).
    // w₀ = −√2·(−3)/(1·3) = √2; w₁ = −√2·6/(2·6) = −√2/2.
    expect(nag.t).toBe(1)
    expect(nag.N).toBe(2)
    expect(Array.from(nag.G)).toEqual([9, 36])
    expect(nag.w[0]).toBeCloseTo(Math.SQRT2, 14)
    expect(nag.w[1]).toBeCloseTo(-Math.SQRT2 / 2, 14)
    // Step 2: Φ = (1, 4): |4| > s₁ = 2, so w₁ ← w₁·2/4 = −√2/4 and s₁ = 4; f = √2 − √2 = 0.
    const p2 = f64(1, 4)
    nag.scale(p2)
    expect(nag.s[1]).toBe(4)
    expect(nag.w[1]).toBeCloseTo(-Math.SQRT2 / 4, 14)
    expect(nag.predict(p2)).toBeCloseTo(0, 14)
    nag.update(p2, 1)
    // t = 2, N = 2 + 1 + 1 = 4, rate = 2·sqrt(2/4) = √2; g = (1, 4); G = (10, 52).
    expect(nag.N).toBe(4)
    expect(Array.from(nag.G)).toEqual([10, 52])
    expect(nag.w[0]).toBeCloseTo(Math.SQRT2 - Math.SQRT2 / Math.sqrt(10), 14)
    expect(nag.w[1]).toBeCloseTo(-Math.SQRT2 / 4 - (Math.SQRT2 * 4) / (4 * Math.sqrt(52)), 14)
  })

  it('the regulariser adds λ·w/‖w‖ (with ‖w‖ before the step) and does nothing at w = 0', () => {
    const lambda = 0.5
    const nag = new Nag(2, 1, lambda)
    nag.update(f64(1, -2), -3)
    // w = 0 at the first step: no regulariser; rate = sqrt(1/2); w = (1/√2, −1/(2√2)), G = (9, 36).
    const w0 = 1 / Math.SQRT2, w1 = -1 / (2 * Math.SQRT2)
    expect(nag.w[0]).toBeCloseTo(w0, 14)
    expect(nag.w[1]).toBeCloseTo(w1, 14)
    // Step 2: Φ = (1, 0) with slope 0: only the regulariser moves w. N = 2 + 1 = 3, rate = sqrt(2/3).
    nag.update(f64(1, 0), 0)
    const norm = Math.sqrt(w0 * w0 + w1 * w1)
    const g0 = (lambda * w0) / norm, g1 = (lambda * w1) / norm
    const rate = Math.sqrt(2 / 3)
    expect(nag.N).toBe(3)
    expect(nag.G[0]).toBeCloseTo(9 + g0 * g0, 14)
    expect(nag.G[1]).toBeCloseTo(36 + g1 * g1, 14)
    expect(nag.w[0]).toBeCloseTo(w0 - (rate * g0) / (1 * Math.sqrt(9 + g0 * g0)), 14)
    expect(nag.w[1]).toBeCloseTo(w1 - (rate * g1) / (2 * Math.sqrt(36 + g1 * g1)), 14)
    // The norm shrank.
    expect(Math.hypot(nag.w[0], nag.w[1])).toBeLessThan(norm)
  })

  it('a zero slope without regulariser moves nothing; a coordinate never seen keeps its scale 0', () => {
    const nag = new Nag(3, 5, 0)
    nag.update(f64(1, 2, 0), -1)
    const w = Array.from(nag.w)
    nag.update(f64(1, 2, 0), 0)
    expect(Array.from(nag.w)).toEqual(w)
    expect(nag.s[2]).toBe(0)
    expect(nag.w[2]).toBe(0)
    expect(nag.t).toBe(2)
  })
})

// A hand-made sequence (user 0 and 1, and a job of an unknown user), driven event by event:
//   job  user  submit  start  runtime  end     q   p̃
//   0    0     0       0      100      100     2   200
//   1    0     10      15     50       65      4   100
//   2    1     20      20     30       50      1   60
//   3    0     30      40     1e6      ...     6   1000
//   4    0     80      80     10       90      8   20
//   5    0     280800  -      -        -       10  300
//   6    -1    280800  -      -        -       3   7
//   7    1     280800  -      -        -       2   90
const SEQ: PredictJobs = {
  count: 8,
  submit: f64(0, 10, 20, 30, 80, 280800, 280800, 280800),
  runtime: f64(100, 50, 30, 1e6, 10, 5, 5, 5),
  requested: f64(200, 100, 60, 1000, 20, 300, 7, 90),
  procs: Int32Array.from([2, 4, 1, 6, 8, 10, 3, 2]),
  user: Int32Array.from([0, 0, 1, 0, 0, 0, -1, 1]),
}
const DAY = 86400, WEEK = 7 * DAY
const clock = (r: number) => [Math.cos((2 * Math.PI * r) / DAY), Math.sin((2 * Math.PI * r) / DAY), Math.cos((2 * Math.PI * r) / WEEK), Math.sin((2 * Math.PI * r) / WEEK)]

describe('the 20 features of Table 4.2', () => {
  const fs = new FeatureState(SEQ)
  const out = new Float64Array(8 * 20)
  const at = (j: number, now: number) => { fs.compute(j, now, out, 20 * j); fs.submit(j) }
  at(0, 0); fs.started(0, 0)
  at(1, 10); fs.started(1, 15)
  at(2, 20); fs.started(2, 20)
  at(3, 30); fs.started(3, 40)
  fs.finished(2, 50); fs.finished(1, 65) // job 1 leaves from the middle of user 0's running list
  at(4, 80); fs.started(4, 80); fs.finished(4, 90); fs.finished(0, 100) // job 0 leaves from its head
  at(5, 280800); at(6, 280800); at(7, 280800)
  const x = (j: number) => Array.from(out.subarray(20 * j, 20 * j + 20))
  //            p̃     p1   p2  p3  AVE2 AVE3 AVEall q  hist ratio curr run longest sum occ break
  const expected: Record<number, number[]> = {
    // The user's first job: no history; its own q as the historical mean; nothing running.
    0: [200, 0, 0, 0, 0, 0, 0, 2, 2, 1, 0, 0, 0, 0, 0, 0, ...clock(0)],
    // Job 0 runs since 0: 1 running, elapsed 10, 2 CPUs; the mean request so far is job 0's 2.
    1: [100, 0, 0, 0, 0, 0, 0, 4, 2, 2, 2, 1, 10, 10, 2, 0, ...clock(10)],
    // User 1's first job, while user 0 runs.
    2: [60, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, ...clock(20)],
    // Jobs 0 (since 0) and 1 (since 15) run: elapsed 30 and 15; mean request of jobs 0, 1 = 3.
    3: [1000, 0, 0, 0, 0, 0, 0, 6, 3, 2, 3, 2, 30, 45, 6, 0, ...clock(30)],
    // Job 1 ended at 65 (runtime 50): one completion, so AVE2 = AVE3 = AVE_all = 50; break 80 − 65.
    // Running: job 0 (since 0) and job 3 (since 40): mean q (2 + 6)/2, elapsed 80 and 40.
    4: [20, 50, 0, 0, 50, 50, 50, 8, 4, 2, 4, 2, 80, 120, 8, 15, ...clock(80)],
    // Completions in order: job 1 (50), job 4 (10), job 0 (100). Job 3 runs since 40.
    // Submitted before: q = 2, 4, 6, 8 (mean 5). 280800 s is 3 days and 6 h: a quarter of a day.
    5: [300, 100, 10, 50, 55, 160 / 3, 160 / 3, 10, 5, 2, 6, 1, 280760, 280760, 6, 280700, ...clock(280800)],
    // Unknown user: no history at all.
    6: [7, 0, 0, 0, 0, 0, 0, 3, 3, 1, 0, 0, 0, 0, 0, 0, ...clock(280800)],
    // User 1: job 2 (30 s, q 1) ended at 50.
    7: [90, 30, 0, 0, 30, 30, 30, 2, 1, 2, 0, 0, 0, 0, 0, 280750, ...clock(280800)],
  }
  for (const [j, want] of Object.entries(expected)) {
    it(`job ${j}: every one of the 20`, () => {
      const got = x(Number(j))
      for (let k = 0; k < 20; k++) expect(got[k], `${FEATURE_NAMES[k]} of job ${j}`).toBeCloseTo(want[k], 9)
    })
  }

  it('the clock features of 280800 s: a quarter of a day, 13/28 of a week', () => {
    const got = x(5)
    expect(got[16]).toBeCloseTo(0, 12)
    expect(got[17]).toBeCloseTo(1, 12)
    expect(got[18]).toBeCloseTo(Math.cos((2 * Math.PI * 13) / 28), 12)
    expect(got[19]).toBeCloseTo(Math.sin((2 * Math.PI * 13) / 28), 12)
  })
})

describe('the regression learns from the features it had at submission', () => {
  it('equals FeatureState + NAG driven by hand, with the E-Loss slope at the current f', () => {
    const loss = findLoss(ELOSS_ID)!
    const params = { eta: 100, lambda: 3, negative: 'floor' as const }
    const reg = new Regression(SEQ, loss, params)
    const fs = new FeatureState(SEQ)
    const nag = new Nag(231, params.eta, params.lambda)
    const x = new Float64Array(8 * 20), phi = new Float64Array(231)
    const predictBoth = (j: number, now: number) => {
      fs.compute(j, now, x, 20 * j); fs.submit(j)
      expandPhi(x, 20 * j, 20, phi); nag.scale(phi)
      expect(reg.predict(j, now)).toBe(nag.predict(phi))
    }
    const finishBoth = (j: number, now: number) => {
      reg.finished(j, now); fs.finished(j, now)
      expandPhi(x, 20 * j, 20, phi); nag.scale(phi)
      const p = SEQ.runtime[j]
      nag.update(phi, lossSlope(loss, Math.log10(SEQ.procs[j] * p), nag.predict(phi), p))
      expect(Array.from(reg.nag.w)).toEqual(Array.from(nag.w))
    }
    const startBoth = (j: number, now: number) => { reg.started(j, now); fs.started(j, now) }
    predictBoth(0, 0); startBoth(0, 0)
    predictBoth(1, 10); startBoth(1, 15)
    predictBoth(2, 20); startBoth(2, 20)
    predictBoth(3, 30); startBoth(3, 40)
    finishBoth(2, 50); finishBoth(1, 65)
    predictBoth(4, 80); startBoth(4, 80); finishBoth(4, 90); finishBoth(0, 100)
    predictBoth(5, 280800); predictBoth(6, 280800); predictBoth(7, 280800)
    expect(reg.nag.t).toBe(4)
  })

  it('the pool of feature slots doubles when more jobs wait than it holds, and slots are reused', () => {
    const n = 300
    const jobs: PredictJobs = { count: n, submit: new Float64Array(n), runtime: new Float64Array(n).fill(10), requested: new Float64Array(n).fill(100), procs: new Int32Array(n).fill(1), user: new Int32Array(n) }
    const reg = new Regression(jobs, findLoss(ELOSS_ID)!, DEFAULTS.eloss.value)
    expect(reg.capacity).toBe(64)
    for (let j = 0; j < 200; j++) reg.predict(j, 0)
    expect(reg.capacity).toBe(256)
    for (let j = 0; j < 200; j++) { reg.started(j, 0); reg.finished(j, 10) }
    for (let j = 200; j < 300; j++) reg.predict(j, 10)
    expect(reg.capacity).toBe(256)
    expect(reg.nag.t).toBe(200)
  })

  it('refuses a step that is not positive or a negative λ', () => {
    expect(() => createRegression(SEQ, findLoss(ELOSS_ID)!, { eta: 0, lambda: 1, negative: 'floor' })).toThrow(/η > 0/)
    expect(() => createRegression(SEQ, findLoss(ELOSS_ID)!, { eta: 1, lambda: -1, negative: 'floor' })).toThrow(/λ ≥ 0/)
  })

  it('a negative wᵀΦ is mirrored (the research code\'s |f|) or left to the floor; the model learns on f itself', () => {
    const loss = findLoss(ELOSS_ID)!
    for (const negative of ['mirror', 'floor'] as const) {
      const reg = new Regression(SEQ, loss, { eta: 100, lambda: 0, negative })
      expect(reg.predict(0, 0)).toBe(0) // w = 0; the scales are set (s₀ = 1 for the constant)
      reg.nag.w[0] = -50 // f = −50 for any job
      expect(reg.predict(1, 10)).toBe(negative === 'mirror' ? 50 : -50)
      // The update's slope is taken at f = −50 < p: an under-prediction, so the constant's weight rises.
      reg.started(1, 10)
      reg.finished(1, 60)
      expect(reg.nag.w[0]).toBeGreaterThan(-50)
    }
  })
})

describe('the losses the regression learns with (Table 4.3 × Table 4.5)', () => {
  it('E-Loss (sq-abs-large-area): γ = log₁₀(q·p), squared over, linear under', () => {
    const l = findLoss('sq-abs-large-area')!
    const g = lossWeight(l, 10, 1000) // log₁₀(10⁴)
    expect(g).toBeCloseTo(4, 12)
    expect(lossSlope(l, g, 1100, 1000)).toBeCloseTo(2 * 4 * 100, 9)
    expect(lossSlope(l, g, 900, 1000)).toBeCloseTo(-4, 12)
    expect(lossValue(l, g, 1100, 1000)).toBeCloseTo(4 * 100 * 100, 6)
    expect(lossValue(l, g, 900, 1000)).toBeCloseTo(4 * 100, 9)
  })

  it('abs-sq-short-wide: γ = 5 + log₁₀(q/p), linear over, squared under', () => {
    const l = findLoss('abs-sq-short-wide')!
    const g = lossWeight(l, 100, 10) // 5 + log₁₀(10)
    expect(g).toBeCloseTo(6, 12)
    expect(lossSlope(l, g, 12, 10)).toBeCloseTo(6, 12)
    expect(lossSlope(l, g, 7, 10)).toBeCloseTo(6 * 2 * -3, 12)
  })

  it('sq-sq-small-area: γ = 11 + log₁₀(1/(q·p)) floored at 0 for a huge job, so no slope', () => {
    const l = findLoss('sq-sq-small-area')!
    expect(lossWeight(l, 1000, 1e9)).toBe(0) // 11 − 12 < 0
    expect(lossWeight(l, 1, 10)).toBeCloseTo(10, 12)
    expect(lossSlope(l, lossWeight(l, 1000, 1e9), 5e9, 1e9)).toBe(0)
  })

  it('abs-abs-long-narrow: γ = 5 + log₁₀(p/q) with p taken as at least 1 (a 0 s job)', () => {
    const l = findLoss('abs-abs-long-narrow')!
    const g = lossWeight(l, 1, 0)
    expect(g).toBeCloseTo(5, 12)
    expect(lossSlope(l, g, 3, 0)).toBe(5)
    expect(lossSlope(l, g, 0, 0)).toBe(0)
  })

  it('sq-sq-1 is the plain squared loss', () => {
    const l = findLoss('sq-sq-1')!
    expect(lossWeight(l, 7, 7)).toBe(1)
    expect(lossSlope(l, 1, 13, 10)).toBe(6)
    expect(lossSlope(l, 1, 7, 10)).toBe(-6)
  })
})

/** A small random log: jobs sorted by submit, users −1..3, on an 8-processor machine. */
const logArb = fc.array(fc.record({
  gap: fc.integer({ min: 0, max: 400 }),
  runtime: fc.integer({ min: 0, max: 3000 }),
  extra: fc.integer({ min: 0, max: 5000 }),
  procs: fc.integer({ min: 1, max: 8 }),
  user: fc.integer({ min: -1, max: 3 }),
}), { minLength: 1, maxLength: 30 }).map((rows) => {
  const n = rows.length
  const jobs = { count: n, submit: new Float64Array(n), runtime: new Float64Array(n), requested: new Float64Array(n), procs: new Int32Array(n), user: new Int32Array(n) }
  let t = 0
  rows.forEach((r, j) => {
    t += r.gap
    jobs.submit[j] = t
    jobs.runtime[j] = r.runtime
    jobs.requested[j] = Math.max(1, r.runtime + r.extra - 1000) // some jobs outlive their request
    jobs.procs[j] = r.procs
    jobs.user[j] = r.user
  })
  return jobs
})

const elossConfig = (loss: string, sjbf: boolean): SimConfig => ({ primary: 'FCFS', backfill: 'same', threshold: null, prediction: { predictor: { id: 'eloss', loss }, correction: 'incremental', sjbf } })

describe('the regression in the simulator', () => {
  it('never predicts above p̃ nor below 1 s, for every one of the 20 losses (property)', () => {
    fc.assert(fc.property(logArb, fc.constantFrom(...LOSS_IDS), fc.boolean(), (jobs, loss, sjbf) => {
      const sim = new EasySimulator(jobs, 8, elossConfig(loss, sjbf), {})
      sim.runUntil(Infinity)
      for (let j = 0; j < jobs.count; j++) {
        expect(sim.predictions[j]).toBeLessThanOrEqual(jobs.requested[j])
        expect(sim.predictions[j]).toBeGreaterThanOrEqual(1)
        expect(Number.isFinite(sim.start[j])).toBe(true)
      }
    }), { numRuns: 200 })
  })

  it('is deterministic: the same log gives the same predictions and starts', () => {
    fc.assert(fc.property(logArb, fc.constantFrom(...LOSS_IDS), (jobs, loss) => {
      const a = new EasySimulator(jobs, 8, elossConfig(loss, true), {})
      const b = new EasySimulator(jobs, 8, elossConfig(loss, true), {})
      a.runUntil(Infinity); b.runUntil(Infinity)
      expect(Array.from(a.predictions)).toEqual(Array.from(b.predictions))
      expect(Array.from(a.start)).toEqual(Array.from(b.start))
    }), { numRuns: 50 })
  })

  it('sees the events in the simulator\'s order: a job that ends at a submit time is history; one that starts then is not yet running', () => {
    // 4 processors, all jobs of user 0:
    //   job 0: submit 0, runtime 100, q 4 → runs 0–100
    //   job 1: submit 100, runtime 50, q 4 → starts at 100 (job 0 ended at 100), runs 100–150
    //   job 2: submit 100, runtime 10, q 1 → waits for job 1
    //   job 3: submit 120, runtime 10, q 1 → waits
    const jobs: PredictJobs = { count: 4, submit: f64(0, 100, 100, 120), runtime: f64(100, 50, 10, 10), requested: f64(200, 200, 200, 200), procs: Int32Array.from([4, 4, 1, 1]), user: new Int32Array(4) }
    const sim = new EasySimulator(jobs, 4, elossConfig(ELOSS_ID, false), {})
    const reg = Reflect.get(sim, 'online') as Regression
    const seen = new Float64Array(4 * 20)
    const predict = reg.predict.bind(reg)
    reg.predict = (j: number, now: number) => { reg.features.compute(j, now, seen, 20 * j); return predict(j, now) }
    sim.runUntil(Infinity)
    const x = (j: number) => Array.from(seen.subarray(20 * j, 20 * j + 16))
    //                 p̃    p1   p2 p3 AVE2 AVE3 all q  hist ratio curr run longest sum occ break
    expect(x(1)).toEqual([200, 100, 0, 0, 100, 100, 100, 4, 4, 1, 0, 0, 0, 0, 0, 0])
    expect(x(2)).toEqual([200, 100, 0, 0, 100, 100, 100, 1, 4, 0.25, 0, 0, 0, 0, 0, 0])
    expect(x(3)).toEqual([200, 100, 0, 0, 100, 100, 100, 1, 3, 1 / 3, 4, 1, 20, 20, 4, 20])
    expect(Array.from(sim.start)).toEqual([0, 100, 150, 150])
  })

  it('on KTH-SP2 (the bundled sample): the E-Loss predicts well below the runtimes; the squared loss does not', async () => {
    const w = await readLog('resources/KTH-SP2-1996-2.1-cln.swf.gz')
    const run = (loss: string) => {
      const sim = new EasySimulator(w.jobs, w.machineProcs, elossConfig(loss, true), {})
      sim.runUntil(Infinity)
      let pred = 0, real = 0, mae = 0, maeReq = 0, under = 0
      for (let j = 0; j < w.jobs.count; j++) {
        pred += sim.predictions[j]; real += w.jobs.runtime[j]
        mae += Math.abs(sim.predictions[j] - w.jobs.runtime[j]); maeReq += Math.abs(w.jobs.requested[j] - w.jobs.runtime[j])
        if (sim.predictions[j] < w.jobs.runtime[j]) under++
      }
      return { ratio: pred / real, mae, maeReq, under: under / w.jobs.count }
    }
    const e = run(ELOSS_ID)
    // The E-Loss's squared over-prediction (in s²) against its linear under-prediction (in s)
    // pulls f below zero; mirrored, the predictions stay well below the runtimes.
    expect(e.ratio).toBeLessThan(0.5)
    expect(e.under).toBeGreaterThan(0.45)
    // The squared loss learns the scale of the runtimes: far more than the E-Loss, and at least as
    // close to them as the requested times.
    const s = run('sq-sq-1')
    expect(s.ratio).toBeGreaterThan(0.5)
    expect(s.ratio).toBeLessThan(2)
    expect(s.mae).toBeLessThan(1.1 * s.maeReq)
  })
})
