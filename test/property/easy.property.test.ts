// Property tests of the fast EASY simulator against a brute-force reference and an independent
// schedule checker (docs/SIMULATOR.md §EASY pass). Seeds are fixed; set EASY_PROP_SEED to
// explore others. fast-check prints the seed and the shrunk counterexample on failure.
import { describe, it, expect } from 'vitest'
import fc from 'fast-check'
import type { SimConfig, SimOptions } from '../../src/core/sim/types'
import { EasySimulator, simulate } from '../../src/core/sim/easy'
import { checkSchedule } from '../support/checker'
import { referenceSimulate, shadowTiesOf, type ShadowTies } from '../support/reference-sim'
import {
  POLICY_IDS, anyWorkloadArb, configArb, describePolicy, policyArb, quietThresholdArb, quietWorkloadArb, thresholdArb, toSimJobs, windowStartArb, workloadArb,
  type Workload,
} from '../support/random-workload'

const SEED = Number(process.env.EASY_PROP_SEED ?? 20240611)
const RUNS = 300
const params = { seed: SEED, numRuns: RUNS }

/**
 * Which shadow/extra tie rule the reference applies (see ShadowTies in reference-sim.ts). The
 * brief says "ties: any", but running jobs with equal estimated ends change `extra` depending on
 * their order, hence the schedule. 'all' (order-free) is the rule proposed to the lead; easy.ts
 * as first written matches 'launch-order' (400 000 random cases agree).
 */
const REFERENCE_SHADOW_TIES: ShadowTies = 'all'

/** Both shadow-time rules: ours (absent or 'none') and the seeds' simulator's ('ocst'). */
const compatArb = fc.constantFrom<SimOptions['compat']>(undefined, 'none', 'ocst')

function optionsOf(windowStart: number | undefined, compat: SimOptions['compat']): SimOptions | undefined {
  if (windowStart === undefined && compat === undefined) return undefined
  return { ...(windowStart === undefined ? {} : { windowStart }), ...(compat === undefined ? {} : { compat }) }
}

function describeCase(w: Workload, config: SimConfig, options?: SimOptions): string {
  const jobs = w.raw.map((j, i) => `  ${i}: submit ${j.submit}, runtime ${j.runtime}, requested ${j.requested}, procs ${j.procs}`)
  return [
    `machine ${w.machineProcs}, primary ${describePolicy(config.primary)}, backfill ${describePolicy(config.backfill)}, ` +
      `threshold ${config.threshold}, windowStart ${options?.windowStart}, compat ${options?.compat}`,
    ...jobs,
  ].join('\n')
}

const list = (a: Float64Array) => `[${Array.from(a).join(', ')}]`

function sameStarts(a: Float64Array, b: Float64Array): boolean {
  return a.length === b.length && a.every((x, i) => Object.is(x, b[i]))
}

function run(w: Workload, config: SimConfig, options?: SimOptions): Float64Array {
  return simulate(w.jobs, w.machineProcs, config, options)
}

describe('simulate() on random small workloads', () => {
  it(`(1) equals the brute-force reference exactly, under both shadow-time rules (seed ${SEED})`, () => {
    fc.assert(fc.property(anyWorkloadArb, configArb, windowStartArb, compatArb, (w, config, windowStart, compat) => {
      const options = optionsOf(windowStart, compat)
      const fast = run(w, config, options)
      const ref = referenceSimulate(w.jobs, w.machineProcs, config, options, compat === 'ocst' ? shadowTiesOf(options) : REFERENCE_SHADOW_TIES)
      if (!sameStarts(fast, ref)) {
        throw new Error(`simulate() and the reference disagree\n${describeCase(w, config, options)}\n` +
          `  simulate : ${list(fast)}\n  reference: ${list(ref)}`)
      }
    }), params)
  })

  it(`(2) every result passes the independent schedule checker, under both shadow-time rules (seed ${SEED})`, () => {
    fc.assert(fc.property(anyWorkloadArb, configArb, windowStartArb, compatArb, (w, config, windowStart, compat) => {
      const options = optionsOf(windowStart, compat)
      const starts = run(w, config, options)
      const violations = checkSchedule(w.jobs, w.machineProcs, config, starts, options)
      if (violations.length > 0) {
        throw new Error(`checker violations\n${describeCase(w, config, options)}\n  starts: ${list(starts)}\n  ${violations.join('\n  ')}`)
      }
    }), params)
  })

  it(`(2b) the reference itself passes the checker (seed ${SEED})`, () => {
    fc.assert(fc.property(anyWorkloadArb, configArb, fc.constantFrom<ShadowTies>('all', 'launch-order', 'ocst'), (w, config, ties) => {
      const starts = referenceSimulate(w.jobs, w.machineProcs, config, undefined, ties)
      expect(checkSchedule(w.jobs, w.machineProcs, config, starts)).toEqual([])
    }), params)
  })

  it(`(3) FCFS with any threshold equals FCFS without (seed ${SEED})`, () => {
    const backfillArb = fc.oneof(fc.constant<'same'>('same'), policyArb)
    fc.assert(fc.property(anyWorkloadArb, backfillArb, thresholdArb, (w, backfill, threshold) => {
      const plain = run(w, { primary: 'FCFS', backfill, threshold: null })
      const withTheta = run(w, { primary: 'FCFS', backfill, threshold })
      expect(list(withTheta)).toBe(list(plain))
    }), params)
  })

  it(`(4) FCFS primary: backfill 'same' equals backfill 'FCFS' (seed ${SEED})`, () => {
    fc.assert(fc.property(anyWorkloadArb, thresholdArb, (w, threshold) => {
      const same = run(w, { primary: 'FCFS', backfill: 'same', threshold })
      const fcfs = run(w, { primary: 'FCFS', backfill: 'FCFS', threshold })
      expect(list(fcfs)).toBe(list(same))
    }), params)
  })

  it(`(5) Θ below every gap between distinct submits makes EASY(P, Θ) equal EASY-FCFS (seed ${SEED})`, () => {
    // With distinct integer submits and Θ < 1, at every pass each waiting job except the one
    // submitted at that very instant has waited ≥ 1 > Θ and is promoted in index order, and the
    // newcomer has the largest index: the thresholded order is exactly FCFS order, for the
    // primary phase and (backfill 'same') for backfilling too.
    fc.assert(fc.property(
      workloadArb({ distinctSubmits: true }), policyArb, fc.constantFrom(0, 0.5), windowStartArb,
      (w, primary, threshold, windowStart) => {
        const options = windowStart === undefined ? undefined : { windowStart }
        const theta = run(w, { primary, backfill: 'same', threshold }, options)
        const fcfs = run(w, { primary: 'FCFS', backfill: 'same', threshold: null }, options)
        expect(list(theta)).toBe(list(fcfs))
      }), params)
  })

  // Quiet passes (docs/SIMULATOR.md §Quiet passes) test only the jobs submitted since the last
  // backfill scan: on workloads made of them, the result must still be the full scan's.
  const quietConfigArb: fc.Arbitrary<SimConfig> = fc.record({
    primary: policyArb,
    backfill: fc.oneof(fc.constant<'same'>('same'), policyArb),
    threshold: quietThresholdArb,
  })

  it(`(7) with quiet passes, equals the brute-force reference exactly (seed ${SEED})`, () => {
    fc.assert(fc.property(quietWorkloadArb, quietConfigArb, windowStartArb, (w, config, windowStart) => {
      const options = optionsOf(windowStart, undefined)
      const fast = run(w, config, options)
      const ref = referenceSimulate(w.jobs, w.machineProcs, config, options, REFERENCE_SHADOW_TIES)
      if (!sameStarts(fast, ref)) {
        throw new Error(`simulate() and the reference disagree\n${describeCase(w, config, options)}\n` +
          `  simulate : ${list(fast)}\n  reference: ${list(ref)}`)
      }
    }), { seed: SEED, numRuns: 1000 })
  })

  it(`(7b) the quiet workloads reach quiet passes, under other orders than FCFS and with thresholds (seed ${SEED})`, () => {
    // Guards (7): if the arbitraries never made a pass quiet, (7) would prove nothing about them.
    const cases = fc.sample(fc.tuple(quietWorkloadArb, quietConfigArb), { seed: SEED, numRuns: 1000 })
    let quiet = 0, quietStatic = 0, quietThreshold = 0, quietTotal = 0
    for (const [w, config] of cases) {
      const sim = new EasySimulator(w.jobs, w.machineProcs, config, {})
      sim.runUntil(Infinity)
      if (sim.quietPasses === 0) continue
      quiet++
      quietTotal += sim.quietPasses
      if (config.primary !== 'FCFS') quietStatic++
      if (config.threshold !== null) quietThreshold++
    }
    // Seed 20240611: 298 of the 1,000 cases have quiet passes (1,064 in all), 264 of them under a
    // policy other than FCFS, 158 with a threshold.
    expect(quiet).toBeGreaterThan(200)
    expect(quietStatic).toBeGreaterThan(150)
    expect(quietThreshold).toBeGreaterThan(80)
    expect(quietTotal).toBeGreaterThan(600)
  })

  it(`(6) is deterministic: two runs give identical bytes (seed ${SEED})`, () => {
    fc.assert(fc.property(anyWorkloadArb, configArb, (w, config) => {
      const a = run(w, config)
      const b = run(w, config)
      const bytes = (x: Float64Array) => Buffer.from(x.buffer, x.byteOffset, x.byteLength)
      expect(bytes(a).equals(bytes(b))).toBe(true)
    }), params)
  })
})

describe('simulate() on hand-picked cases', () => {
  it('accepts every policy id with every backfill mode on one workload', () => {
    const [w] = fc.sample(workloadArb({ minJobs: 20, maxJobs: 25 }), { seed: SEED, numRuns: 1 })
    for (const primary of POLICY_IDS) {
      for (const backfill of ['same', 'SPF', primary] as const) {
        const config: SimConfig = { primary, backfill, threshold: null }
        const fast = run(w, config)
        const ref = referenceSimulate(w.jobs, w.machineProcs, config, undefined, REFERENCE_SHADOW_TIES)
        expect(list(fast), `${primary}/${backfill}`).toBe(list(ref))
      }
    }
  })

  it('equal estimated ends at the shadow time: extra counts every job ending then', () => {
    // Minimal case of the tie-order problem (clean log, FCFS). At 0 jobs 0 (2 procs) and 1
    // (1 proc) start, both estimated to end at 10; job 2 (4 procs) is blocked with 3 free.
    // Shadow = 10; at 10 all 6 processors are free, so extra = 6 − 4 = 2 and job 3 (2 procs,
    // long) can be backfilled now. Stopping at job 0 gives extra = 3 + 2 − 4 = 1 (job 3 waits);
    // stopping at job 1 first would give 0. Both schedules pass the checker: the spec must pick.
    const { raw, jobs } = toSimJobs([
      { submit: 0, runtime: 10, requested: 10, procs: 2 },
      { submit: 0, runtime: 10, requested: 10, procs: 1 },
      { submit: 0, runtime: 10, requested: 10, procs: 4 },
      { submit: 0, runtime: 50, requested: 100, procs: 2 },
    ])
    const config: SimConfig = { primary: 'FCFS', backfill: 'same', threshold: null }
    const fast = simulate(jobs, 6, config)
    expect(checkSchedule(jobs, 6, config, fast)).toEqual([])
    expect(list(referenceSimulate(jobs, 6, config, undefined, 'launch-order'))).toBe('[0, 0, 10, 10]')
    expect(list(referenceSimulate(jobs, 6, config, undefined, 'all'))).toBe('[0, 0, 10, 0]')
    const expected = list(referenceSimulate(jobs, 6, config, undefined, REFERENCE_SHADOW_TIES))
    expect(list(fast), describeCase({ machineProcs: 6, raw, jobs }, config)).toBe(expected)
    // compat 'ocst': ties by fewest processors, so job 1 (1 proc) is released first: 3 + 1 = 4
    // fits, extra = 0, and job 3 waits for the shadow time.
    expect(list(referenceSimulate(jobs, 6, config, undefined, 'ocst'))).toBe('[0, 0, 10, 10]')
    const ocst = simulate(jobs, 6, config, { compat: 'ocst' })
    expect(list(ocst)).toBe('[0, 0, 10, 10]')
    expect(checkSchedule(jobs, 6, config, ocst)).toEqual([])
  })

  it('compat ocst: the property arbitraries reach cases where the two rules differ', () => {
    // Guards the comparison in (1): if no random case ever separated the rules, comparing both
    // modes with the reference would prove nothing about the ocst branch.
    const cases = fc.sample(fc.tuple(anyWorkloadArb, configArb), { seed: SEED, numRuns: RUNS })
    const differ = cases.filter(([w, config]) => !sameStarts(run(w, config), run(w, config, { compat: 'ocst' }))).length
    expect(differ).toBeGreaterThan(0)
  })

  it('compat: an unknown mode is refused', () => {
    const { jobs } = toSimJobs([{ submit: 0, runtime: 1, requested: 1, procs: 1 }])
    expect(() => simulate(jobs, 1, { primary: 'FCFS', backfill: 'same', threshold: null }, { compat: 'seeds' as never })).toThrow(/compat/)
  })
})
