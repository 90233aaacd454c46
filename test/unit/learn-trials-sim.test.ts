// The trials' specialised simulator (src/core/learn/trials.ts TrialSimulator) is the product's
// EASY (src/core/sim/easy.ts simulate) for a trial: jobs all submitted at 0, FCFS in the queued
// order, no threshold (docs/LEARN.md §Trials). Property: same start times, bit for bit, on random
// trials — including ties of ends, zero runtimes and jobs that outlive their requested time.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TrialSimulator, trialAvgBsld } from '../../src/core/learn/trials'
import { simulate } from '../../src/core/sim/easy'
import { computeMetrics } from '../../src/core/sim/metrics'

const trial = fc.integer({ min: 1, max: 64 }).chain((m) => fc.record({
  m: fc.constant(m),
  jobs: fc.array(fc.record({
    // Few distinct values make ties of ends (the shadow time's extra processors) frequent.
    runtime: fc.oneof(fc.constantFrom(0, 10, 20, 40, 100), fc.integer({ min: 0, max: 50 }).map((v) => v * 20), fc.integer({ min: 0, max: 5000 })),
    requestedFactor: fc.oneof(fc.constantFrom(1, 2, 0.5), fc.double({ min: 0.5, max: 4, noNaN: true })),
    procs: fc.oneof(fc.integer({ min: 1, max: m }), fc.constantFrom(1, Math.min(2, m), m, Math.max(1, m >> 1))),
  }), { minLength: 1, maxLength: 48 }),
  seed: fc.integer(),
}))

describe('the trial simulator equals simulate()', () => {
  it('gives the same start times and AvgBsld on random trials', () => {
    fc.assert(fc.property(trial, ({ m, jobs, seed }) => {
      const n = jobs.length
      const sim = new TrialSimulator(n, m)
      jobs.forEach((j, i) => { sim.runtime[i] = j.runtime; sim.requested[i] = Math.max(1, Math.round(j.runtime * j.requestedFactor)); sim.procs[i] = j.procs })
      // A random queue order (the permutation of a trial).
      const order = Int32Array.from({ length: n }, (_, i) => i)
      let s = seed >>> 0
      for (let i = n - 1; i > 0; i--) { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; const r = s % (i + 1); const t = order[i]; order[i] = order[r]; order[r] = t }
      sim.run(order)
      // The same trial for the product: job k is the k-th queued, all submitted at 0.
      const simJobs = {
        count: n,
        submit: new Float64Array(n),
        runtime: Float64Array.from(order, (j) => sim.runtime[j]),
        requested: Float64Array.from(order, (j) => sim.requested[j]),
        procs: Int32Array.from(order, (j) => sim.procs[j]),
      }
      const start = simulate(simJobs, m, { primary: 'FCFS', backfill: 'same', threshold: null })
      expect(Array.from(order, (j) => sim.start[j])).toEqual(Array.from(start))
      // AvgBsld of the queued jobs after the first (a |S| = 1 trial), as computeMetrics counts it.
      if (n > 1) {
        const rest = { count: n - 1, submit: simJobs.submit.subarray(1), runtime: simJobs.runtime.subarray(1), requested: simJobs.requested.subarray(1), procs: simJobs.procs.subarray(1) }
        const ordered = new TrialSimulator(n, m)
        ordered.runtime.set(simJobs.runtime); ordered.requested.set(simJobs.requested); ordered.procs.set(simJobs.procs)
        ordered.run(Int32Array.from({ length: n }, (_, i) => i))
        expect(trialAvgBsld(ordered, 1, 10)).toBeCloseTo(computeMetrics(rest, m, start.subarray(1), 10, false).avgBsld, 12)
      }
    }), { numRuns: 3000, seed: 23 })
  })
})

describe('the shadow time extra processors', () => {
  it('count every running job that ends at the shadow time (hand-worked)', () => {
    // m = 5, queued X (2 cores, 100 s), Y (2, 100 s), Z (3, 10 s), W (1, 200 s). At 0 X and Y start
    // (1 core free); Z needs 3: 1 + X's 2 = 3 at 100 s, the shadow time; Y also ends at 100 s, so the
    // extra processors are 1 + 2 + 2 − 3 = 2, and W (1 core, longer than the shadow) backfills at 0.
    // Z starts at 100 s. Counting only up to X would leave no extra and W would wait until 100 s.
    const runtime = [100, 100, 10, 200], procs = [2, 2, 3, 1]
    const sim = new TrialSimulator(4, 5)
    sim.runtime.set(runtime); sim.requested.set(runtime); sim.procs.set(procs)
    sim.run(Int32Array.of(0, 1, 2, 3))
    expect(Array.from(sim.start)).toEqual([0, 0, 100, 0])
    const start = simulate({ count: 4, submit: new Float64Array(4), runtime: Float64Array.from(runtime), requested: Float64Array.from(runtime), procs: Int32Array.from(procs) }, 5, { primary: 'FCFS', backfill: 'same', threshold: null })
    expect(Array.from(start)).toEqual([0, 0, 100, 0])
  })
})
