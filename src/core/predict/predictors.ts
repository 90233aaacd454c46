// The predictors of thesis ch. 4 (docs/PREDICTIONS.md §Predictors),
// declared once: the simulator, the CLI (--predictor), the campaign's triples and the GUI read
// PREDICTORS. A predictor either fixes every prediction before the run (requested, clairvoyant) or
// learns online inside the simulation (AVE₂, the regression).
import { CORRECTIONS, findCorrection } from './corrections'
import { createRegression } from './learner'
import { ELOSS_ID, findLoss, LOSS_IDS } from './losses'
import { PREDICTION_FLOOR, type CorrectionId, type OnlinePredictor, type PredictionConfig, type PredictJobs, type PredictorId, type PredictorSpec } from './types'

/** A configuration that cannot be simulated, in words (the CLI exits 2 with it). */
export class PredictionConfigError extends Error {}

export type PredictorRun = { readonly kind: 'static'; readonly predictions: Float64Array } | { readonly kind: 'online'; readonly predictor: OnlinePredictor }

export interface PredictorDeclaration {
  readonly id: PredictorId
  readonly name: string
  readonly explain: string
  readonly source: string
  /** True when a prediction can be shorter than the runtime: a correction is then required. */
  readonly mayUnderpredict: boolean
  /** The predictions of one simulation of `jobs`. */
  readonly create: (jobs: PredictJobs, spec: PredictorSpec) => PredictorRun
}

export const PREDICTORS: readonly PredictorDeclaration[] = [
  { id: 'requested', name: 'Requested time', source: 'standard EASY; [001] §4.3.2',
    explain: 'the time limit the user asked for: what EASY plans with today', mayUnderpredict: false,
    create: (jobs) => ({ kind: 'static', predictions: jobs.requested }) },
  { id: 'clairvoyant', name: 'Clairvoyant', source: '[001] §4.3.2',
    explain: 'the actual runtime, known in advance: the most any prediction could give', mayUnderpredict: false,
    create: (jobs) => {
      const out = new Float64Array(jobs.count)
      for (let j = 0; j < jobs.count; j++) out[j] = capPrediction(jobs.runtime[j], jobs.requested[j])
      return { kind: 'static', predictions: out }
    } },
  { id: 'ave2', name: 'AVE₂ (user\'s last two runtimes)', source: 'Tsafrir et al. (EASY++); [001] §4.3.2',
    explain: 'the mean runtime of the user\'s last two finished jobs (the requested time before the user has any)', mayUnderpredict: true,
    create: (jobs) => ({ kind: 'online', predictor: new Ave2(jobs) }) },
  { id: 'eloss', name: 'Learned regression', source: '[001] §4.2 (eq. 4.1–4.3, Tables 4.2–4.5)',
    explain: 'a degree-2 polynomial of 20 features of the job and its user, learned online with NAG as jobs end, under an asymmetric loss (the E-Loss by default)', mayUnderpredict: true,
    create: (jobs, spec) => {
      const loss = findLoss(spec.id === 'eloss' ? spec.loss ?? ELOSS_ID : ELOSS_ID)
      if (!loss) throw new PredictionConfigError(`unknown loss "${spec.id === 'eloss' ? spec.loss : ''}"; known: ${LOSS_IDS.join(', ')}`)
      return { kind: 'online', predictor: createRegression(jobs, loss) }
    } },
]

export const PREDICTOR_IDS: readonly PredictorId[] = PREDICTORS.map((p) => p.id)

export function findPredictor(id: string): PredictorDeclaration | undefined {
  return PREDICTORS.find((p) => p.id === id)
}

/** A prediction as the simulator uses it: at most p̃, at least PREDICTION_FLOOR. */
export function capPrediction(raw: number, requested: number): number {
  const v = raw < requested ? raw : requested
  return v > PREDICTION_FLOOR ? v : Number.isNaN(v) ? requested : PREDICTION_FLOOR
}

/** Reads `requested`, `clairvoyant`, `ave2`, `eloss` or `eloss:<loss>`; throws PredictionConfigError in words. */
export function parsePredictor(text: string): PredictorSpec {
  const t = text.trim().toLowerCase()
  const [id, loss] = t.split(':', 2) as [string, string | undefined]
  const decl = findPredictor(id)
  if (!decl) throw new PredictionConfigError(`unknown predictor "${text}"; known: ${PREDICTOR_IDS.join(', ')} (eloss:<loss> names one of the 20 losses)`)
  if (loss !== undefined) {
    if (decl.id !== 'eloss') throw new PredictionConfigError(`only eloss takes a loss (eloss:<loss>), not ${decl.id}`)
    if (!findLoss(loss)) throw new PredictionConfigError(`unknown loss "${loss}"; known: ${LOSS_IDS.join(', ')}`)
    return { id: 'eloss', loss }
  }
  return decl.id === 'eloss' ? { id: 'eloss' } : { id: decl.id }
}

/** `requested`, `ave2`, `eloss` (the E-Loss) or `eloss:<loss>`: what the CLI reads back. */
export function predictorLabel(spec: PredictorSpec): string {
  return spec.id === 'eloss' && spec.loss !== undefined && spec.loss !== ELOSS_ID ? `eloss:${spec.loss}` : spec.id
}

/** The correction rule to use, or an error saying why the pair cannot be simulated. */
export function checkPrediction(config: PredictionConfig): void {
  const decl = findPredictor(config.predictor.id)
  if (!decl) throw new PredictionConfigError(`unknown predictor "${config.predictor.id}"; known: ${PREDICTOR_IDS.join(', ')}`)
  if (!findCorrection(config.correction)) throw new PredictionConfigError(`unknown correction "${config.correction}"; known: ${CORRECTIONS.map((c) => c.id).join(', ')}`)
  if (decl.mayUnderpredict && config.correction === 'none' && config.use !== 'order') {
    throw new PredictionConfigError(`the ${decl.id} predictor needs a correction (requested, incremental or doubling): its predictions can be shorter than the runtime, and a job still running past its prediction must be given a new one; none is only for requested and clairvoyant`)
  }
  if (config.predictor.id === 'eloss' && config.predictor.loss !== undefined && !findLoss(config.predictor.loss)) {
    throw new PredictionConfigError(`unknown loss "${config.predictor.loss}"; known: ${LOSS_IDS.join(', ')}`)
  }
}

/** The default correction of a predictor: none when it never falls short, else incremental (the thesis's selected triple). */
export function defaultCorrection(id: PredictorId): CorrectionId {
  return findPredictor(id)!.mayUnderpredict ? 'incremental' : 'none'
}

/**
 * AVE₂⁽ᵏ⁾(p): the mean runtime of the user's last two finished jobs (in the order they finished);
 * with one finished job its runtime; with none the requested time. Jobs of an unknown user (-1)
 * have no history.
 */
class Ave2 implements OnlinePredictor {
  private readonly last1: Float64Array
  private readonly last2: Float64Array
  private readonly seen: Uint8Array
  constructor(private readonly jobs: PredictJobs) {
    let users = 0
    for (let j = 0; j < jobs.count; j++) if (jobs.user[j] + 1 > users) users = jobs.user[j] + 1
    this.last1 = new Float64Array(users)
    this.last2 = new Float64Array(users)
    this.seen = new Uint8Array(users)
  }

  predict(j: number): number {
    const u = this.jobs.user[j]
    if (u < 0 || this.seen[u] === 0) return this.jobs.requested[j]
    return this.seen[u] === 1 ? this.last1[u] : (this.last1[u] + this.last2[u]) / 2
  }

  started(): void {}

  finished(j: number): void {
    const u = this.jobs.user[j]
    if (u < 0) return
    this.last2[u] = this.last1[u]
    this.last1[u] = this.jobs.runtime[j]
    if (this.seen[u] < 2) this.seen[u]++
  }
}
