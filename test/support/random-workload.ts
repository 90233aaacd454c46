// fast-check arbitraries for small EASY workloads and simulator configurations (property tests).
// Everything is integer-valued on purpose: equal submits, equal estimated ends and equal policy
// keys are frequent, which is where tie-breaking bugs live.
import fc from 'fast-check'
import type { MixedSpec, PolicySpec, SimConfig, SimJobs } from '../../src/core/sim/types'

/** Every pure policy id (docs/SIMULATOR.md §Policies in the simulator). */
export const POLICY_IDS: readonly string[] = [
  'FCFS', 'LCFS', 'SPF', 'LPF', 'SQF', 'LQF', 'LEXP', 'SEXP', 'LRF', 'SRF', 'LAF', 'SAF',
  'WFP3', 'UNICEF', 'F1', 'F2', 'F3', 'F4',
]

/** One job as plain numbers (readable in counterexamples). */
export interface RawJob {
  readonly submit: number
  readonly runtime: number
  readonly requested: number
  readonly procs: number
}

export interface Workload {
  readonly machineProcs: number
  /** Sorted by submit (stable): raw[i] is job i of `jobs`. */
  readonly raw: readonly RawJob[]
  readonly jobs: SimJobs
}

/** Builds SimJobs from plain jobs, stably sorted by submit so that the index is the (submit, id) rank. */
export function toSimJobs(raw: readonly RawJob[]): { raw: RawJob[], jobs: SimJobs } {
  const sorted = raw.map((j, k) => ({ j, k })).sort((a, b) => a.j.submit - b.j.submit || a.k - b.k).map((e) => e.j)
  const n = sorted.length
  const jobs: SimJobs = {
    count: n,
    submit: Float64Array.from(sorted, (j) => j.submit),
    runtime: Float64Array.from(sorted, (j) => j.runtime),
    requested: Float64Array.from(sorted, (j) => j.requested),
    procs: Int32Array.from(sorted, (j) => j.procs),
  }
  return { raw: sorted, jobs }
}

// Submits: either anywhere in 0..200 or on a coarse grid of 11 values (many ties).
const submitArb = fc.oneof(
  fc.integer({ min: 0, max: 200 }),
  fc.integer({ min: 0, max: 10 }).map((k) => k * 20),
)

// A job before its processor count is fitted to the machine. kind decides the runtime:
// 'le' runtime ≤ requested (the clean-log case), 'eq' runtime = requested, 'any' may overrun.
function jobSeedArb(tieHeavy: boolean) {
  return fc.record({
    submit: tieHeavy ? fc.constantFrom(0, 5, 10, 20, 40) : submitArb,
    // a coarse grid of requests makes equal estimated ends (ties at the shadow time) frequent
    requested: tieHeavy ? fc.constantFrom(5, 10, 20) : fc.oneof(fc.integer({ min: 1, max: 80 }), fc.constantFrom(5, 10, 20, 40)),
    kind: tieHeavy ? fc.constantFrom('le', 'eq', 'any') : fc.constantFrom('le', 'le', 'le', 'eq', 'any'),
    u: fc.integer({ min: 0, max: 60 }),
    // small jobs are frequent, so that several run at once and backfilling has room
    q: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 16 })),
  })
}

export interface WorkloadOptions {
  readonly minJobs?: number
  readonly maxJobs?: number
  /** No two jobs share a submit time. */
  readonly distinctSubmits?: boolean
  /** Few distinct submits and requests, frequent overruns: many equal estimated ends. */
  readonly tieHeavy?: boolean
}

/** A small workload: 1–25 jobs on a 1–16 processor machine. */
export function workloadArb(opts: WorkloadOptions = {}): fc.Arbitrary<Workload> {
  const { minJobs = 1, maxJobs = 25, distinctSubmits = false, tieHeavy = false } = opts
  const seed = jobSeedArb(tieHeavy)
  const seeds = distinctSubmits
    ? fc.uniqueArray(seed, { minLength: minJobs, maxLength: maxJobs, selector: (s) => s.submit })
    : fc.array(seed, { minLength: minJobs, maxLength: maxJobs })
  return fc.tuple(fc.integer({ min: 1, max: 16 }), seeds).map(([machineProcs, ss]) => {
    const rawJobs: RawJob[] = ss.map((s) => {
      const cap = Math.min(s.requested, 60)
      const runtime = s.kind === 'le' ? s.u % (cap + 1) : s.kind === 'eq' ? cap : s.u
      return { submit: s.submit, runtime, requested: s.requested, procs: ((s.q - 1) % machineProcs) + 1 }
    })
    const { raw, jobs } = toSimJobs(rawJobs)
    return { machineProcs, raw, jobs }
  })
}

/**
 * Workloads where most passes are quiet (docs/SIMULATOR.md §Quiet passes): jobs arrive every few
 * seconds while long jobs hold the machine, so most events are submissions and the same job stays
 * blocked; few distinct requests and sizes make equal policy keys among the newcomers frequent, and
 * small thresholds promote waiting jobs between two such passes.
 */
export const quietWorkloadArb: fc.Arbitrary<Workload> = fc.tuple(
  fc.integer({ min: 4, max: 16 }),
  fc.array(fc.record({
    gap: fc.constantFrom(0, 0, 1, 2, 3),
    requested: fc.constantFrom(8, 30, 90, 200),
    long: fc.boolean(),
    q: fc.constantFrom(1, 1, 2, 3, 4, 8, 16),
  }), { minLength: 8, maxLength: 40 }),
).map(([machineProcs, seeds]) => {
  let t = 0
  const rawJobs: RawJob[] = seeds.map((s) => {
    t += s.gap
    return { submit: t, runtime: s.long ? s.requested : Math.floor(s.requested / 3), requested: s.requested, procs: ((s.q - 1) % machineProcs) + 1 }
  })
  const { raw, jobs } = toSimJobs(rawJobs)
  return { machineProcs, raw, jobs }
})

/** Thresholds short enough to promote jobs while the quiet workloads' long jobs run. */
export const quietThresholdArb: fc.Arbitrary<number | null> = fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 40 }))

/** Plain and tie-heavy workloads, half and half. */
export const anyWorkloadArb: fc.Arbitrary<Workload> = fc.oneof(workloadArb(), workloadArb({ tieHeavy: true }))

/**
 * Mixed policies. Weights are multiples of 1/8 and scales powers of two (or 0), so that the
 * result does not depend on how an implementation groups w·(x − μ)/σ.
 */
export const mixedArb: fc.Arbitrary<MixedSpec> = fc.record({
  weights: fc.array(fc.integer({ min: -16, max: 16 }).map((k) => k / 8), { minLength: 6, maxLength: 6 }),
  standardise: fc.boolean(),
  mean: fc.array(fc.integer({ min: -20, max: 20 }), { minLength: 6, maxLength: 6 }),
  scale: fc.array(fc.constantFrom(0, 0.5, 1, 2, 4, 16), { minLength: 6, maxLength: 6 }),
}).map(({ weights, standardise, mean, scale }): MixedSpec =>
  standardise ? { kind: 'mixed', weights, mean, scale } : { kind: 'mixed', weights })

export const policyArb: fc.Arbitrary<PolicySpec> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...POLICY_IDS) },
  { weight: 1, arbitrary: mixedArb },
)

export const thresholdArb: fc.Arbitrary<number | null> = fc.oneof(
  fc.constant(null),
  fc.integer({ min: 0, max: 150 }),
)

export const configArb: fc.Arbitrary<SimConfig> = fc.record({
  primary: policyArb,
  backfill: fc.oneof(fc.constant<'same'>('same'), policyArb),
  threshold: thresholdArb,
})

/** windowStart for F1–F4: absent (first submit) or an explicit origin. */
export const windowStartArb: fc.Arbitrary<number | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.integer({ min: -50, max: 200 }),
)

/** Short, readable rendering of a policy for failure messages. */
export function describePolicy(p: PolicySpec | 'same'): string {
  return typeof p === 'string' ? p : JSON.stringify(p)
}
