// Plain-data configuration and input of one EASY simulation (docs/SIMULATOR.md §Configuration).

import type { PredictionConfig } from '../predict/types'

/** The columns the simulator reads. Jobs must be sorted by submit time, ties by job id: the
 * array index is the job's rank in (submit, id) order and is the final tie-break everywhere. */
export interface SimJobs {
  readonly count: number
  readonly submit: Float64Array
  /** p: actual running time (when the job really ends). */
  readonly runtime: Float64Array
  /** p̃: requested time, > 0 (used for the reservation, the backfill test and policy keys). */
  readonly requested: Float64Array
  /** q: processors, 1..machineProcs. */
  readonly procs: Int32Array
  /** Who submitted each job (-1 unknown): read only by the online predictors (AVE₂, the regression). */
  readonly user?: Int32Array
}

/** A policy: an id from the registry (e.g. 'SPF') or a mixed linear policy (docs/PROTOCOL.md §Mixed search). */
export type PolicySpec = string | MixedSpec

/**
 * Mixed policy wᵀx over the six features, each oriented "higher runs first" as in ocst
 * (docs/PROTOCOL.md §Mixed search): x = (−q, −p̃, +wait, −exp, −p̃/q, −p̃·q). `weights` has 6 entries.
 * Optional standardisation (x − mean)/scale per feature; scale 0 gives 0.
 */
export interface MixedSpec {
  readonly kind: 'mixed'
  readonly weights: readonly number[]
  readonly mean?: readonly number[]
  readonly scale?: readonly number[]
}

export interface SimConfig {
  /** P_R: orders the queue for starting jobs and choosing the reservation. */
  readonly primary: PolicySpec
  /** P_B, or 'same' = backfill in the thresholded primary order (EASY(P, Θ) of thesis ch. 6). */
  readonly backfill: PolicySpec | 'same'
  /** Θ in seconds: a job that has waited strictly longer moves to the head. null = no threshold
   * (never encoded as 0: Θ = 0 would promote almost every job). */
  readonly threshold: number | null
  /** Runtime prediction (thesis ch. 4, docs/PREDICTIONS.md §Scheduling with predictions): absent =
   * the requested time, as plain EASY. Fixed for the whole run (setConfig may change the order,
   * not the predictor). */
  readonly prediction?: PredictionConfig
}

/**
 * Compatibility mode (docs/SIMULATOR.md §Shadow-time rules, docs/PROTOCOL.md §Week resampling):
 * 'none' = EasyTune's own rules (the default); 'ocst' = the rules of the seeds' simulator, to
 * reproduce the thesis's numbers: its shadow-time rule in the simulator, and in the protocols the
 * first and last partial weeks of each part dropped (rule C13) instead of a trailing partial week
 * kept with its length as weight.
 */
export type Compat = 'none' | 'ocst'
export const COMPAT_MODES: readonly Compat[] = ['none', 'ocst']

/** Options that are not part of the policy. */
export interface SimOptions {
  /** Origin of s for F1–F4 (seconds); default: the first submit of the simulated jobs. */
  readonly windowStart?: number
  /** 'ocst': the seeds' simulator's shadow-time rule (docs/SIMULATOR.md §Shadow-time rules):
   * running jobs released in order of estimated end, ties by fewest processors then index, stopping
   * at the first release that makes the reservation fit. Absent or 'none': ours. */
  readonly compat?: Compat
  /** Progress and stop hook (docs/SIMULATOR.md §Progress): called after every `checkEvery`-th event
   * time is processed, with the jobs started so far and that event time (seconds); answering
   * true stops the run between two event times (simulate() then throws SimulationStopped). It
   * never changes the schedule. Absent: the loop pays one null test per event time. */
  readonly onCheck?: (jobsStarted: number, now: number) => boolean
  /** Event times between two onCheck calls; default SIM_CHECK_EVERY (4,096). */
  readonly checkEvery?: number
}
