// The regression of the learned priorities (SC'17; docs/LEARN.md §Regression): every member of ℱ
// fitted to the pooled scores by weighted least squares with the r·n weight of eq. 4 (Levenberg–
// Marquardt from ml-levenberg-marquardt), ranked by the mean absolute error of eq. 5, the best
// written as an `fn:` expression (a LOWER value runs first). Pure and deterministic: no randomness,
// a declared starting point and iteration limit.
import { levenbergMarquardt } from 'ml-levenberg-marquardt'
import { FAMILY, monomials, formText, baseText, type FamilyMember, type Form, type Monomial } from './family'

/** A regression sample: the features of F1–F4 and the eq. 3 score (TaskSample in ./types has them). */
export interface ScoreSample {
  readonly r: number
  readonly n: number
  readonly s: number
  readonly score: number
}

/** The optimiser's settings, declared once (docs/LEARN.md §Regression). */
export const LM_SETTINGS = {
  /** Start of every merged coefficient: 0, the same for every form (the merged fit is linear, so the
   * minimum does not depend on it; it only has to be the same every run). */
  initialValue: 0,
  /** Iteration limit: with the columns scaled to unit norm the first damped Gauss–Newton step lands
   * near the minimum and the damping falls to the package's floor (10⁻⁷) in 4; the package has no
   * relative stop, so every noisy fit runs to the limit: 12 keeps 400 fits of ~2,000 samples to a
   * few seconds, with coefficients recovered to about 4 significant digits (eq. 4 weights big tasks
   * so heavily that the small terms are barely determined beyond that). */
  maxIterations: 12,
  /** Initial damping λ of Levenberg–Marquardt, small against the unit diagonal of the scaled JᵀJ. */
  damping: 1e-3,
  /** Stop when the scaled weighted sum of squares (≤ 1) falls below this: an exact fit. */
  errorTolerance: 1e-20,
} as const

/** The built-in learned functions are members of ℱ (src/core/sim/policies.ts declares them): their form. */
export const BUILTIN_FORMS: Readonly<Record<'F1' | 'F2' | 'F3' | 'F4', Form>> = {
  F1: { alpha: 'log10', op1: '*', beta: 'id', op2: '+', gamma: 'log10' },
  F2: { alpha: 'sqrt', op1: '*', beta: 'id', op2: '+', gamma: 'log10' },
  F3: { alpha: 'id', op1: '*', beta: 'id', op2: '+', gamma: 'log10' },
  F4: { alpha: 'id', op1: '*', beta: 'sqrt', op2: '+', gamma: 'log10' },
}

/** One fitted member of ℱ. */
export interface LearnedFunction {
  /** Always 'learned': a fitted function is never a built-in order, even when its form is F1's. */
  readonly kind: 'learned'
  /** `learned:<α><op1><β><op2><γ>`, e.g. `learned:log10*id+log10`. */
  readonly id: string
  /** 1 = the lowest eq. 5 error. */
  readonly position: number
  /** eq. 5: mean |f − score| over the samples (score units: the mean score is 1/|Q|). */
  readonly rank: number
  /** eq. 4: Σ (r·n·(f − score))² at the fitted coefficients. */
  readonly weightedError: number
  /** The form as the paper writes it, e.g. `((c1*log10(r)) * (c2*n)) + (c3*log10(s))`. */
  readonly form: string
  /** c1, c2, c3 of `form`; a coefficient that only appears in a product with another is fixed to 1
   * (c2 when op1 is · or ÷, c3 when op2 is · or ÷): only their product is determined. */
  readonly coefficients: { readonly c1: number; readonly c2: number; readonly c3: number }
  /** The F1–F4 form: the function divided by its first merged coefficient (positive, so the order is
   * unchanged), leaving one merged coefficient; null when the algebra does not allow it. */
  readonly simplified: { readonly expression: string; readonly coefficient: number | null } | null
  /** Usable as-is after `fn:` (r, n, s, + - * /, log10(), sqrt(), numbers); a LOWER value runs first.
   * The simplified expression when there is one. */
  readonly expression: string
  /** The built-in function whose FORM this is (its coefficient was fitted here, not taken from it). */
  readonly sameFormAs: 'F1' | 'F2' | 'F3' | 'F4' | null
  /** Levenberg–Marquardt iterations run. */
  readonly iterations: number
}

export interface RegressionResult {
  /** Members of ℱ fitted, best (lowest eq. 5 error) first. */
  readonly functions: readonly LearnedFunction[]
  /** Samples used, and samples dropped (non-finite values, or r, n, s < 1). */
  readonly samples: number
  readonly dropped: number
  /** Members of ℱ left out because they are undefined on the samples (e.g. 1/log₁₀(n) with n = 1). */
  readonly undefinedForms: readonly string[]
}

/** A monomial's value at (r, n, s): r^a·log₁₀(r)^b · n^c·log₁₀(n)^d · s^e·log₁₀(s)^f. */
export function monomialValue(m: Monomial, r: number, n: number, s: number): number {
  const part = (x: number, pow: number, lg: number) => (pow === 0 ? 1 : Math.pow(x, pow)) * (lg === 0 ? 1 : Math.pow(Math.log10(x), lg))
  return part(r, m[0], m[1]) * part(n, m[2], m[3]) * part(s, m[4], m[5])
}

/** The usable samples: finite, r, n, s ≥ 1 (the domain of ℱ's logs and inverses). */
export function usableSamples(samples: readonly ScoreSample[]): ScoreSample[] {
  return samples.filter((t) => [t.r, t.n, t.s, t.score].every(Number.isFinite) && t.r >= 1 && t.n >= 1 && t.s >= 1)
}

/**
 * Fit one member of ℱ (eq. 4). Merging the products of coefficients makes every member a linear
 * combination f = Σ k_j·M_j of its monomials (./family), the same family of functions as with c1, c2,
 * c3; the merged k are what the samples determine. Residual t is r_t·n_t·(f(t) − score_t); each column
 * r·n·M_j and the target r·n·score are scaled to unit norm, so the optimiser sees numbers near 1.
 * Returns null when a monomial is not finite on some sample.
 */
export function fitMember(member: FamilyMember, samples: readonly ScoreSample[]):
  { k: number[]; iterations: number; weightedError: number; rank: number } | null {
  const ms = monomials(member.form)
  const T = samples.length
  const P = ms.length
  const cols = ms.map(() => new Float64Array(T))
  const y = new Float64Array(T)
  for (let t = 0; t < T; t++) {
    const { r, n, s, score } = samples[t]
    const w = r * n
    y[t] = w * score
    for (let j = 0; j < P; j++) {
      const v = w * monomialValue(ms[j], r, n, s)
      if (!Number.isFinite(v)) return null
      cols[j][t] = v
    }
  }
  const norm = (a: Float64Array) => Math.sqrt(a.reduce((acc, v) => acc + v * v, 0))
  const yScale = norm(y) || 1
  const colScale = cols.map((c) => norm(c))
  if (!colScale.every(Number.isFinite) || !Number.isFinite(yScale)) return null
  for (let j = 0; j < P; j++) {
    if (colScale[j] === 0) colScale[j] = 1
    const c = cols[j], sc = colScale[j]
    for (let t = 0; t < T; t++) c[t] /= sc
  }
  const yScaled = Float64Array.from(y, (v) => v / yScale)
  const index = Array.from({ length: T }, (_, t) => t)
  const model = (k: number[]) => (t: number) => {
    let v = 0
    for (let j = 0; j < P; j++) v += k[j] * cols[j][t]
    return v
  }
  const fit = levenbergMarquardt({ x: index, y: yScaled }, model, {
    initialValues: new Array<number>(P).fill(LM_SETTINGS.initialValue),
    maxIterations: LM_SETTINGS.maxIterations,
    damping: LM_SETTINGS.damping,
    errorTolerance: LM_SETTINGS.errorTolerance,
    jacobianFunction: () => (t: number) => cols.map((c) => c[t]),
  })
  const k = fit.parameterValues.map((kj, j) => kj * yScale / colScale[j])
  let weightedError = 0, absSum = 0
  for (let t = 0; t < T; t++) {
    const { r, n, s, score } = samples[t]
    let f = 0
    for (let j = 0; j < P; j++) f += k[j] * monomialValue(ms[j], r, n, s)
    weightedError += (r * n * (f - score)) ** 2
    absSum += Math.abs(f - score)
  }
  if (!k.every(Number.isFinite) || !Number.isFinite(absSum)) return null
  return { k, iterations: fit.iterations, weightedError, rank: absSum / T }
}

/** The paper's c1, c2, c3 from the merged coefficients (see LearnedFunction.coefficients). */
export function paperCoefficients(form: Form, k: readonly number[]): { c1: number; c2: number; c3: number } {
  if (form.op1 === '+') return { c1: k[0], c2: k[1], c3: form.op2 === '+' ? k[2] : 1 }
  return { c1: k[0], c2: 1, c3: form.op2 === '+' ? k[1] : 1 }
}

/** A number in the `fn:` grammar, as the fn: canonical form prints it: 6 significant digits, in
 * JavaScript's shortest writing (an exponent below 10⁻⁶ and from 10²¹). */
export function numberText(x: number): string {
  if (x === 0 || !Number.isFinite(x)) return '0'
  return String(Number(x.toPrecision(6)))
}

/** The r, n, s part of a monomial in the `fn:` grammar, e.g. `log10(r)*n/log10(s)`. */
function monomialText(form: Form, j: number): string {
  const A = baseText(form.alpha, 'r'), B = baseText(form.beta, 'n'), G = baseText(form.gamma, 's')
  const { op1, op2 } = form
  if (op1 === '+') {
    const x = j === 0 ? A : j === 1 ? B : G
    return op2 === '+' ? x : `${x}${op2}${G}`
  }
  const ab = `${A}${op1}${B}`
  if (op2 === '+') return j === 0 ? ab : G
  return op2 === '*' ? `${ab}*${G}` : `${ab}/${G}`
}

/** k_1·M_1 + k_2·M_2 + … written as a sum without spaces, the canonical writing of an fn: order
 * (docs/LEARN.md §Regression); a negative coefficient after the first as a subtraction. */
function sumText(form: Form, k: readonly (number | null)[]): string {
  return k.map((kj, j) => {
    const m = monomialText(form, j)
    // A leading 1/x needs no parentheses: ((1/r)*n) is 1/r*n.
    const term = kj === null ? m.replace(/^\((1\/[rns])\)/, '$1') : `${numberText(Math.abs(kj))}*${m}`
    if (j === 0) return kj !== null && kj < 0 ? `-${term}` : term
    return kj !== null && kj < 0 ? `-${term}` : `+${term}`
  }).join('')
}

/** The F1–F4 form (divide by the first merged coefficient when positive: the order is unchanged). */
function simplify(form: Form, k: readonly number[]): LearnedFunction['simplified'] {
  if (!(k[0] > 0) || k.length > 2) return null
  const coefficient = k.length === 2 ? k[1] / k[0] : null
  return { expression: sumText(form, coefficient === null ? [null] : [null, coefficient]), coefficient }
}

function sameFormAs(form: Form): LearnedFunction['sameFormAs'] {
  for (const [id, f] of Object.entries(BUILTIN_FORMS)) {
    if (f.alpha === form.alpha && f.beta === form.beta && f.gamma === form.gamma && f.op1 === form.op1 && f.op2 === form.op2) return id as 'F1'
  }
  return null
}

/** A fitted member before ranking: null when it is undefined on the samples. */
export type FittedFunction = Omit<LearnedFunction, 'position'>

/** Fit one member of ℱ to usable samples (usableSamples) and write it out. */
export function fitFunction(member: FamilyMember, usable: readonly ScoreSample[]): FittedFunction | null {
  const fit = fitMember(member, usable)
  if (fit === null) return null
  const simplified = simplify(member.form, fit.k)
  return {
    kind: 'learned', id: `learned:${member.id}`, rank: fit.rank, weightedError: fit.weightedError,
    form: formText(member.form), coefficients: paperCoefficients(member.form, fit.k), simplified,
    expression: simplified?.expression ?? sumText(member.form, fit.k),
    sameFormAs: sameFormAs(member.form), iterations: fit.iterations,
  }
}

/** Rank fitted members by eq. 5, lowest error first (ties: the order given, that of ℱ). */
export function rankFunctions(fitted: readonly FittedFunction[]): LearnedFunction[] {
  const order = fitted.map((_, i) => i).sort((a, b) => fitted[a].rank - fitted[b].rank || a - b)
  return order.map((i, position) => ({ ...fitted[i], position: position + 1 }))
}

/** Some members of ℱ fitted to usable samples: what an engine worker answers for its share. */
export interface FittedSlice {
  fitted: FittedFunction[]
  /** Members undefined on the samples (or too few samples to fit anything). */
  undefinedForms: string[]
}

/** Fit `members` to usable samples (usableSamples), in their order. */
export function fitSlice(members: readonly FamilyMember[], usable: readonly ScoreSample[]): FittedSlice {
  const fitted: FittedFunction[] = []
  const undefinedForms: string[] = []
  for (const m of members) {
    const f = usable.length >= 2 ? fitFunction(m, usable) : null
    if (f === null) undefinedForms.push(m.id)
    else fitted.push(f)
  }
  return { fitted, undefinedForms }
}

/** The regression's result from the slices of ℱ in its order (ranked by eq. 5, ties: that order). */
export function regressionOf(samples: readonly ScoreSample[], usable: readonly ScoreSample[], slices: readonly FittedSlice[]): RegressionResult {
  return { functions: rankFunctions(slices.flatMap((s) => s.fitted)), samples: usable.length, dropped: samples.length - usable.length, undefinedForms: slices.flatMap((s) => s.undefinedForms) }
}

/**
 * Fit every member of ℱ to the samples and rank them by eq. 5 (ties: enumeration order of ℱ), in
 * steps: yields the number of members fitted after each `slice` of them, and returns the result.
 * `members` restricts ℱ (tests). The CLI and the app fit on the engine pool instead
 * (src/engine/learn.ts learnRegressionOnPool), with the same slices and the same result.
 */
export function* regressSteps(samples: readonly ScoreSample[], options: { members?: readonly FamilyMember[]; slice?: number } = {}): Generator<number, RegressionResult> {
  const usable = usableSamples(samples)
  const members = options.members ?? FAMILY
  const slice = Math.max(1, options.slice ?? members.length)
  const slices: FittedSlice[] = []
  for (let i = 0; i < members.length; i += slice) {
    slices.push(fitSlice(members.slice(i, i + slice), usable))
    if (i + slice < members.length) yield i + slice
  }
  return regressionOf(samples, usable, slices)
}

/** regressSteps run to its end. */
export function regress(samples: readonly ScoreSample[], options: { members?: readonly FamilyMember[] } = {}): RegressionResult {
  const steps = regressSteps(samples, options)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}
