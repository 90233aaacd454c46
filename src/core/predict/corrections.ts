// What happens when a running job reaches its predicted end without having ended (thesis §4.3.2,
// docs/PREDICTIONS.md §Corrections), declared once. The simulator applies the
// rule at the first scheduling pass at or after the predicted end, as many times as needed until
// the prediction is past that moment; every rule gives the same values it would have given at the
// exact moment (the research's simulator corrects without a scheduling pass, so nothing is
// scheduled in between). Every new prediction is capped by the requested time.

import type { CorrectionId } from './types'

/** The increments of the incremental correction (Tsafrir et al., as the thesis lists them):
 * 1 min, 5 min, 15 min, 30 min, 1 h, 2 h, 5 h, 10 h, 20 h, 50 h, 100 h; after the 11th, 100 h again. */
export const INCREMENTS: readonly number[] = [60, 300, 900, 1800, 3600, 7200, 18000, 36000, 72000, 180000, 360000]

export interface CorrectionDeclaration {
  readonly id: CorrectionId
  readonly name: string
  readonly explain: string
  /** The next prediction (seconds, before the cap at p̃) of a job predicted `pred` when it was
   * corrected `k` times before (k = 0 at the first correction). Never called for 'none'. */
  readonly next: (pred: number, k: number, requested: number) => number
}

export const CORRECTIONS: readonly CorrectionDeclaration[] = [
  { id: 'none', name: 'None', explain: 'no correction: only for predictions that never fall short (requested time, clairvoyant)', next: (pred) => pred },
  { id: 'requested', name: 'Requested time', explain: 'a job that outlives its prediction is then expected to run until its requested time', next: (_pred, _k, requested) => requested },
  { id: 'incremental', name: 'Incremental', explain: 'each time a job outlives its prediction, add the next amount: 1 min, 5 min, 15 min, 30 min, 1 h, 2 h, 5 h, 10 h, 20 h, 50 h, 100 h',
    next: (pred, k) => pred + INCREMENTS[Math.min(k, INCREMENTS.length - 1)] },
  // "Increase the prediction value by the double of the elapsed running time" read as: the new
  // prediction is twice the elapsed time, which at the moment of the correction is the old
  // prediction (docs/PREDICTIONS.md §Corrections gives the other reading and why not).
  { id: 'doubling', name: 'Recursive doubling', explain: 'each time a job outlives its prediction, the prediction doubles (twice the time it has run)', next: (pred) => 2 * pred },
]

export const CORRECTION_IDS: readonly CorrectionId[] = CORRECTIONS.map((c) => c.id)

export function findCorrection(id: string): CorrectionDeclaration | undefined {
  const key = id.trim().toLowerCase()
  return CORRECTIONS.find((c) => c.id === key)
}
