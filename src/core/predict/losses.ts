// The loss family of thesis ch. 4 (Table 4.3 weights × Table 4.5 bases; docs/PREDICTIONS.md §Losses),
// declared once: `easytune predictions --list-losses`, the CLI's eloss:<loss>, the campaign's
// triples and the GUI all read LOSSES.
//
//   ℒ(f, p) = γ · B_over(f − p)   when f ≥ p (over-prediction)
//   ℒ(f, p) = γ · B_under(p − f)  when f < p  (under-prediction)
// B ∈ {sq: z², abs: z}. The thesis labels the f ≥ p branch L_u (docs/PREDICTIONS.md §Losses); the ids
// here say what each branch penalises. γ uses log₁₀ (the base is not stated; with base 10 the
// constants 5 and 11 keep γ positive for jobs up to 10⁵ s per processor and areas up to 10¹¹ s,
// which is what "chosen to ensure positivity" asks) and is floored at 0; p and q are at least 1
// in γ (a 0 s job would make the logarithm infinite).

export type Basis = 'sq' | 'abs'
export type WeightId = '1' | 'short-wide' | 'long-narrow' | 'small-area' | 'large-area'

export interface WeightDeclaration {
  readonly id: WeightId
  /** As the thesis writes it (Table 4.3). */
  readonly formula: string
  readonly explain: string
  /** γ for a job of q processors and runtime p (both ≥ 1 here), before the floor at 0. */
  readonly gamma: (q: number, p: number) => number
}

export const WEIGHTS: readonly WeightDeclaration[] = [
  { id: '1', formula: '1', explain: 'every job counts the same', gamma: () => 1 },
  { id: 'short-wide', formula: '5 + log(q/p)', explain: 'short jobs with large resource requests should be well predicted', gamma: (q, p) => 5 + Math.log10(q / p) },
  { id: 'long-narrow', formula: '5 + log(p/q)', explain: 'long jobs with small resource requests should be well predicted', gamma: (q, p) => 5 + Math.log10(p / q) },
  { id: 'small-area', formula: '11 + log(1/(q·p))', explain: 'jobs of small area should be well predicted', gamma: (q, p) => 11 + Math.log10(1 / (q * p)) },
  { id: 'large-area', formula: 'log(q·p)', explain: 'jobs of large area should be well predicted', gamma: (q, p) => Math.log10(q * p) },
]

export interface LossDeclaration {
  /** `<over>-<under>-<weight>`, e.g. sq-abs-large-area (the E-Loss). */
  readonly id: string
  readonly over: Basis
  readonly under: Basis
  readonly weight: WeightId
  /** Shown to people: the formula as the thesis would write it. */
  readonly formula: string
}

const BASES: readonly Basis[] = ['sq', 'abs']
const basisText = (b: Basis, z: string) => (b === 'sq' ? `(${z})²` : `|${z}|`)

/** Table 4.5: 2 × 2 × 5 = 20 losses, in the order over-basis, under-basis, weight. */
export const LOSSES: readonly LossDeclaration[] = BASES.flatMap((over) => BASES.flatMap((under) => WEIGHTS.map((w) => ({
  id: `${over}-${under}-${w.id}`, over, under, weight: w.id,
  formula: `γ·${basisText(over, 'f − p')} if f ≥ p, γ·${basisText(under, 'p − f')} if f < p; γ = ${w.formula}`,
}))))

/** The E-Loss (thesis eq. 4.3 read with q for r, docs/PREDICTIONS.md §Losses): squared over-prediction,
 * linear under-prediction, weighted by log(q·p). The default loss of `eloss`. */
export const ELOSS_ID = 'sq-abs-large-area'
export const LOSS_IDS: readonly string[] = LOSSES.map((l) => l.id)

export function findLoss(id: string): LossDeclaration | undefined {
  const key = id.trim().toLowerCase()
  return LOSSES.find((l) => l.id === key)
}

const WEIGHT_BY_ID = new Map(WEIGHTS.map((w) => [w.id, w]))

/** γ of a job (≥ 0), with p and q taken as at least 1. */
export function lossWeight(loss: LossDeclaration, q: number, p: number): number {
  const g = WEIGHT_BY_ID.get(loss.weight)!.gamma(Math.max(1, q), Math.max(1, p))
  return g > 0 ? g : 0
}

/** ℒ(f, p) for a job with weight γ. */
export function lossValue(loss: LossDeclaration, gamma: number, f: number, p: number): number {
  const z = f - p
  if (z >= 0) return gamma * (loss.over === 'sq' ? z * z : z)
  return gamma * (loss.under === 'sq' ? z * z : -z)
}

/** ∂ℒ/∂f at f (a subgradient: 0 at f = p for the absolute basis, whose derivative jumps there). */
export function lossSlope(loss: LossDeclaration, gamma: number, f: number, p: number): number {
  const z = f - p
  if (z > 0) return gamma * (loss.over === 'sq' ? 2 * z : 1)
  if (z < 0) return gamma * (loss.under === 'sq' ? 2 * z : -1)
  return 0
}
