// The online regression of thesis ch. 4 (docs/PREDICTIONS.md §Model).
// PLACEHOLDER until the learner lands: the contract only.
import type { LossDeclaration } from './losses'
import type { OnlinePredictor, PredictJobs } from './types'

export function createRegression(_jobs: PredictJobs, _loss: LossDeclaration): OnlinePredictor {
  throw new Error('the learned regression is not implemented yet')
}
