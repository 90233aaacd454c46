// How good a simulation's predictions were (docs/PREDICTIONS.md §Predictors): the initial
// prediction of each job (before any correction) against its actual runtime.
import { ELOSS_ID, findLoss, lossValue, lossWeight } from './losses'
import type { PredictionStats } from './types'

const ELOSS = findLoss(ELOSS_ID)!

/** MAE, mean E-Loss and the share of under-predicted jobs over `count` jobs. */
export function predictionStats(jobs: { readonly count: number; readonly runtime: Float64Array; readonly procs: Int32Array }, predictions: Float64Array, corrections: number): PredictionStats {
  const n = jobs.count
  if (n === 0) return { mae: 0, meanELoss: 0, underShare: 0, corrections }
  let abs = 0, loss = 0, under = 0
  for (let j = 0; j < n; j++) {
    const f = predictions[j], p = jobs.runtime[j]
    abs += Math.abs(f - p)
    loss += lossValue(ELOSS, lossWeight(ELOSS, jobs.procs[j], p), f, p)
    if (f < p) under++
  }
  return { mae: abs / n, meanELoss: loss / n, underShare: under / n, corrections }
}
