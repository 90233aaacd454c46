// The online regression of thesis ch. 4 (docs/PREDICTIONS.md §Model): f(w, x) = wᵀΦ(x), Φ the
// degree-2 expansion of the 20 features of Table 4.2 (features.ts), trained online with NAG
// (nag.ts) on one of the 20 losses of Table 4.5 (losses.ts) plus λ‖w‖₂. It predicts at submission
// and learns from a job when it ends, with the features it had at submission: only those 20
// numbers are kept per job in the system, in a pool of slots that grows by doubling; Φ (231
// numbers) is recomputed at the update. Per job: two expansions, three dot-product-sized loops
// and one step, a fixed number of flops; nothing is allocated once the pool is large enough.
import { DEFAULTS } from '../defaults'
import { FEATURE_COUNT, FeatureState } from './features'
import { lossSlope, lossWeight, type LossDeclaration } from './losses'
import { expandPhi, Nag, phiDimension } from './nag'
import type { OnlinePredictor, PredictJobs } from './types'

/** NAG's step η (seconds), the regulariser's λ, and what a negative wᵀΦ predicts (docs/PREDICTIONS.md §Model):
 * 'mirror' predicts |wᵀΦ| (the research code's rule), 'floor' leaves it to the simulator's 1 s floor. */
export interface RegressionParams {
  readonly eta: number
  readonly lambda: number
  readonly negative: 'mirror' | 'floor'
}

/** The dimension of Φ: 1 + 2·20 + C(20, 2) = 231. */
export const PHI_DIMENSION = phiDimension(FEATURE_COUNT)

export function createRegression(jobs: PredictJobs, loss: LossDeclaration, params: RegressionParams = DEFAULTS.eloss.value): OnlinePredictor {
  if (params.negative !== 'mirror' && params.negative !== 'floor') throw new Error(`a negative prediction is mirrored or floored, not ${String(params.negative)}`)
  if (!(params.eta > 0) || !(params.lambda >= 0)) throw new Error(`the regression needs η > 0 and λ ≥ 0, got η = ${params.eta}, λ = ${params.lambda}`)
  return new Regression(jobs, loss, params)
}

/** The regression as an object: `nag` exposes the weights (tests, docs). */
export class Regression implements OnlinePredictor {
  readonly features: FeatureState
  readonly nag: Nag
  private readonly phi = new Float64Array(PHI_DIMENSION)
  /** The pool: FEATURE_COUNT numbers per slot; `slotOf[j]` is job j's slot (-1 none). */
  private pool: Float64Array
  private freeSlots: Int32Array
  private freeLen: number
  private readonly slotOf: Int32Array
  private readonly mirror: boolean

  constructor(private readonly jobs: PredictJobs, private readonly loss: LossDeclaration, params: RegressionParams) {
    this.mirror = params.negative === 'mirror'
    this.features = new FeatureState(jobs)
    this.nag = new Nag(PHI_DIMENSION, params.eta, params.lambda)
    const cap = 64
    this.pool = new Float64Array(cap * FEATURE_COUNT)
    this.freeSlots = new Int32Array(cap)
    for (let k = 0; k < cap; k++) this.freeSlots[k] = cap - 1 - k
    this.freeLen = cap
    this.slotOf = new Int32Array(jobs.count).fill(-1)
  }

  /** Slots in the pool (it doubles when every slot is taken). */
  get capacity(): number { return this.freeSlots.length }

  private allocate(): number {
    if (this.freeLen === 0) {
      const cap = this.freeSlots.length, grown = 2 * cap
      const pool = new Float64Array(grown * FEATURE_COUNT)
      pool.set(this.pool)
      this.pool = pool
      const free = new Int32Array(grown)
      for (let k = 0; k < cap; k++) free[k] = grown - 1 - k
      this.freeSlots = free
      this.freeLen = cap
    }
    return this.freeSlots[--this.freeLen]
  }

  predict(j: number, now: number): number {
    let slot = this.slotOf[j]
    if (slot < 0) {
      slot = this.slotOf[j] = this.allocate()
      this.features.compute(j, now, this.pool, slot * FEATURE_COUNT)
      this.features.submit(j)
    }
    expandPhi(this.pool, slot * FEATURE_COUNT, FEATURE_COUNT, this.phi)
    const f = this.nag.scaleAndPredict(this.phi)
    // The model learns on f itself (the update's slope is taken at wᵀΦ); only what it tells the simulator is mirrored.
    return this.mirror && f < 0 ? -f : f
  }

  started(j: number, now: number): void {
    this.features.started(j, now)
  }

  finished(j: number, now: number): void {
    this.features.finished(j, now)
    const slot = this.slotOf[j]
    if (slot < 0) return
    const { jobs, loss, nag, phi } = this
    // Φ was scaled when the job was predicted and the scales only grow: it is within them.
    expandPhi(this.pool, slot * FEATURE_COUNT, FEATURE_COUNT, phi)
    const p = jobs.runtime[j]
    const slope = lossSlope(loss, lossWeight(loss, jobs.procs[j], p), nag.predict(phi), p)
    nag.step(phi, slope)
    this.slotOf[j] = -1
    this.freeSlots[this.freeLen++] = slot
  }
}
