// Properties of scheduling with runtime predictions, docs/PREDICTIONS.md §Scheduling with predictions:
// the requested-time predictor is plain EASY, SJBF with it is SPF backfilling,
// clairvoyant EASY is EASY when the limits are the runtimes, and any predictor keeps its
// predictions within [1 s, p̃] and the machine within its processors.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { EasySimulator, simulate } from '../../src/core/sim/easy'
import type { SimConfig, SimJobs } from '../../src/core/sim/types'
import type { CorrectionId, PredictionConfig, PredictorSpec } from '../../src/core/predict/types'
import { anyWorkloadArb, configArb, toSimJobs, workloadArb, type Workload } from '../support/random-workload'

const params = { seed: Number(process.env.EASY_PROP_SEED ?? 20261125), numRuns: 300 }
const CORRECTIONS: CorrectionId[] = ['requested', 'incremental', 'doubling']

const withUsers = (w: Workload, users: readonly number[]): SimJobs & { user: Int32Array } =>
  ({ ...w.jobs, user: Int32Array.from({ length: w.jobs.count }, (_, i) => users[i % users.length]) })
const usersArb = fc.array(fc.integer({ min: -1, max: 3 }), { minLength: 1, maxLength: 8 })

/** No more than m processors busy at any time (ends before starts at equal times). */
function overCapacity(jobs: SimJobs, m: number, start: Float64Array): string | null {
  const ev: [number, number][] = []
  for (let i = 0; i < jobs.count; i++) {
    if (!(start[i] >= jobs.submit[i])) return `job ${i} starts at ${start[i]}, submitted at ${jobs.submit[i]}`
    if (jobs.runtime[i] > 0) ev.push([start[i], jobs.procs[i]], [start[i] + jobs.runtime[i], -jobs.procs[i]])
  }
  ev.sort((a, b) => a[0] - b[0] || a[1] - b[1])
  let used = 0
  for (const [t, d] of ev) { used += d; if (used > m) return `${used} processors busy at ${t} on a machine of ${m}` }
  return null
}

describe('predictions that never fall short', () => {
  it('the requested-time predictor is plain EASY, whatever the correction', () => {
    fc.assert(fc.property(anyWorkloadArb, configArb, fc.constantFrom<CorrectionId>('none', ...CORRECTIONS), (w, config, correction) => {
      const plain = simulate(w.jobs, w.machineProcs, config)
      const pred = simulate(w.jobs, w.machineProcs, { ...config, prediction: { predictor: { id: 'requested' }, correction } })
      expect([...pred]).toEqual([...plain])
    }), params)
  })

  it('SJBF with the requested-time predictor is SPF backfilling', () => {
    fc.assert(fc.property(anyWorkloadArb, configArb, (w, config) => {
      const spf = simulate(w.jobs, w.machineProcs, { ...config, backfill: 'SPF' })
      const sjbf = simulate(w.jobs, w.machineProcs, { ...config, backfill: 'same', prediction: { predictor: { id: 'requested' }, correction: 'none', sjbf: true } })
      expect([...sjbf]).toEqual([...spf])
    }), params)
  })

  it('clairvoyant EASY is EASY on a log whose requested times are the runtimes', () => {
    const exact = workloadArb().map((w) => {
      const { raw, jobs } = toSimJobs(w.raw.map((j) => ({ ...j, runtime: Math.max(1, j.runtime), requested: Math.max(1, j.runtime) })))
      return { machineProcs: w.machineProcs, raw, jobs }
    })
    fc.assert(fc.property(exact, configArb, fc.boolean(), (w, config, sjbf) => {
      const c: SimConfig = sjbf ? { ...config, backfill: 'same' } : config
      const plain = simulate(w.jobs, w.machineProcs, sjbf ? { ...c, backfill: 'SPF' } : c)
      const clair = simulate(w.jobs, w.machineProcs, { ...c, prediction: { predictor: { id: 'clairvoyant' }, correction: 'none', sjbf } })
      expect([...clair]).toEqual([...plain])
    }), params)
  })
})

describe('predictors that can fall short', () => {
  const predictorArb = fc.constantFrom<PredictorSpec>({ id: 'ave2' }, { id: 'clairvoyant' })
  const predictionArb: fc.Arbitrary<PredictionConfig> = fc.record({
    predictor: predictorArb, correction: fc.constantFrom(...CORRECTIONS), sjbf: fc.boolean(), use: fc.constantFrom<'plan' | 'order'>('plan', 'plan', 'order'),
  })

  it('predictions stay within [1 s, p̃], the machine within its processors, and a run is deterministic', () => {
    fc.assert(fc.property(anyWorkloadArb, usersArb, predictionArb, fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 150 })), (w, users, prediction, threshold) => {
      const jobs = withUsers(w, users)
      const config: SimConfig = { primary: 'FCFS', backfill: 'same', threshold, prediction: prediction.use === 'order' ? { ...prediction, sjbf: false } : prediction }
      const sim = new EasySimulator(jobs, w.machineProcs, config, {})
      sim.runUntil(Infinity)
      for (let j = 0; j < jobs.count; j++) {
        expect(sim.predictions[j]).toBeGreaterThanOrEqual(1)
        expect(sim.predictions[j]).toBeLessThanOrEqual(jobs.requested[j])
      }
      expect(overCapacity(jobs, w.machineProcs, sim.start)).toBeNull()
      expect([...simulate(jobs, w.machineProcs, config)]).toEqual([...sim.start])
    }), params)
  })
})
