// Walltime prediction (issue #22, thesis ch. 4; docs/PREDICTIONS.md §Model): the types every part
// shares — the simulator (src/core/sim/easy.ts), the predictors, the campaign, the CLI and the GUI.
// Plain data; the declarations are in predictors.ts, losses.ts and corrections.ts.
import type { SimJobs } from '../sim/types'

/** The four predictors of thesis ch. 4 (docs/PREDICTIONS.md §Predictors). */
export type PredictorId = 'requested' | 'clairvoyant' | 'ave2' | 'eloss'

/** A predictor as configured: `eloss` carries one of Table 4.5's 20 losses (losses.ts LOSS_IDS;
 * the E-Loss `sq-abs-large-area` when absent). */
export type PredictorSpec =
  | { readonly id: 'requested' | 'clairvoyant' | 'ave2' }
  | { readonly id: 'eloss'; readonly loss?: string }

/** What happens when a running job outlives its prediction (thesis §4.3.2; docs/PREDICTIONS.md §Corrections). */
export type CorrectionId = 'none' | 'requested' | 'incremental' | 'doubling'

/** Prediction in one simulation: the prediction replaces p̃ in the reservation and the backfill
 * test (the queue orders' keys stay on p̃: docs/PREDICTIONS.md §Scheduling with predictions). */
export interface PredictionConfig {
  readonly predictor: PredictorSpec
  readonly correction: CorrectionId
  /** EASY-SJBF: the backfill candidates in order of shortest prediction (ties: submit, then id),
   * in place of SimConfig.backfill (which must then be 'same'). With the requested-time predictor
   * this is SPF backfilling. */
  readonly sjbf?: boolean
  /** 'plan' (the default, thesis ch. 4): the prediction replaces p̃ in the reservation and the
   * backfill test. 'order': what a Slurm site can deploy (docs/PREDICTIONS.md §Deployment): the
   * whole queue is ordered by shortest prediction (in place of the primary policy, which must be
   * FCFS), while the reservation and the backfill test stay on p̃, as Slurm plans on time limits;
   * no correction is then needed. */
  readonly use?: 'plan' | 'order'
}

/** The columns a predictor reads: the simulator's jobs plus who submitted them (-1 unknown: such a
 * job has no history, as if every unknown job were its own user). */
export interface PredictJobs extends SimJobs {
  readonly user: Int32Array
}

/**
 * An online predictor inside one simulation (AVE₂ and the learned regression). The simulator calls
 * it in event order: `finished` for the jobs ending at an event time, then `predict` for the jobs
 * submitted at it (so a prediction sees every job that ended up to and including its submit
 * time), and `started` when a job starts. Nothing allocates per call.
 */
export interface OnlinePredictor {
  /** Raw prediction (seconds) for job j, submitted at `now`; the simulator caps it at p̃ and floors it at PREDICTION_FLOOR. */
  predict(j: number, now: number): number
  /** Job j started at `now`. */
  started(j: number, now: number): void
  /** Job j ended at `now` (it ran jobs.runtime[j]): the predictor learns from it. */
  finished(j: number, now: number): void
}

/** Smallest prediction (seconds): a prediction of 0 would make a job look free to backfill
 * anywhere. 1 s, as the research's simulator floors it (docs/PREDICTIONS.md §Predictors). */
export const PREDICTION_FLOOR = 1

/** What one simulation says about its predictor (initial predictions only, corrections aside). */
export interface PredictionStats {
  /** Mean |prediction − runtime| over the jobs, seconds. */
  readonly mae: number
  /** Mean E-Loss of the predictions (losses.ts `eloss`), in the loss's units (s² and s, weighted). */
  readonly meanELoss: number
  /** Share of jobs predicted below their runtime (under-predicted, 0..1). */
  readonly underShare: number
  /** Corrections applied in the whole run. */
  readonly corrections: number
}
