// The function family ℱ of the learned priorities (SC'17; docs/LEARN.md §Regression): every form
// f = ((c1·α(r)) op1 (c2·β(n))) op2 (c3·γ(s)), declared once here with its canonical form (the set
// of monomials it spans), which removes the algebraic duplicates: 576 forms, 400 distinct.
// Grouping is left to right, as the research code composes them (docs/LEARN.md §Regression).

/** A base function of Table 1: id(x) = x, log(x) = log₁₀ x, sqrt(x) = √x, inv(x) = 1/x. */
export type Base = 'id' | 'log10' | 'sqrt' | 'inv'
/** An operator between two terms. */
export type Op = '+' | '*' | '/'

/** The enumeration order: the first form of each duplicate class is kept, so + before ·, · before ÷
 * and id before inv (r·n is kept rather than r ÷ (1/n)). */
export const BASES: readonly Base[] = ['id', 'log10', 'sqrt', 'inv']
export const OPS: readonly Op[] = ['+', '*', '/']

/** One form of ℱ: which base function for r, n, s and which two operators. */
export interface Form {
  readonly alpha: Base
  readonly beta: Base
  readonly gamma: Base
  readonly op1: Op
  readonly op2: Op
}

export const applyBase = (b: Base, x: number): number =>
  b === 'id' ? x : b === 'log10' ? Math.log10(x) : b === 'sqrt' ? Math.sqrt(x) : 1 / x

const applyOp = (op: Op, a: number, b: number): number => op === '+' ? a + b : op === '*' ? a * b : a / b

/** f(r, n, s) with the paper's three coefficients: ((c1·α(r)) op1 (c2·β(n))) op2 (c3·γ(s)). */
export function evaluateForm(form: Form, c1: number, c2: number, c3: number, r: number, n: number, s: number): number {
  return applyOp(form.op2, applyOp(form.op1, c1 * applyBase(form.alpha, r), c2 * applyBase(form.beta, n)), c3 * applyBase(form.gamma, s))
}

// ---- Canonical form ---------------------------------------------------------------------------
// Each base function of one variable x is an atom x^a·(log₁₀ x)^b: id (1, 0), sqrt (½, 0), inv (−1, 0),
// log (0, 1). Dividing by it negates (a, b). Once the products of coefficients are merged, every form
// is a linear combination, with free coefficients, of one to three monomials (products of atoms):
//   + then +: A + B + G     + then ·: AG + BG    + then ÷: A/G + B/G
//   · then +: AB + G        ÷ then +: A/B + G
//   · then ·: ABG   · then ÷: AB/G   ÷ then ·: AG/B   ÷ then ÷: A/(BG)
// Distinct monomials are linearly independent functions, so two forms span the same functions exactly
// when their sets of monomials are equal: the sorted set, written out, is the canonical key.

/** An atom's exponents (power of x, power of log₁₀ x), sign applied. */
const ATOM: Readonly<Record<Base, readonly [number, number]>> = { id: [1, 0], log10: [0, 1], sqrt: [0.5, 0], inv: [-1, 0] }

/** A monomial: for r, n, s, the power of the variable and of its log₁₀ (0 when absent). */
export type Monomial = readonly [rPow: number, rLog: number, nPow: number, nLog: number, sPow: number, sLog: number]

function monomial(parts: readonly { v: 0 | 1 | 2; b: Base; sign: 1 | -1 }[]): Monomial {
  const m = [0, 0, 0, 0, 0, 0]
  for (const { v, b, sign } of parts) {
    m[2 * v] += sign * ATOM[b][0]
    m[2 * v + 1] += sign * ATOM[b][1]
  }
  return m as unknown as Monomial
}

/** The monomials a form spans (one free merged coefficient each), in the order of `mergedTerms`. */
export function monomials(form: Form): Monomial[] {
  const A = { v: 0 as const, b: form.alpha, sign: 1 as const }
  const bSign = form.op1 === '/' ? -1 : 1
  const gSign = form.op2 === '/' ? -1 : 1
  const B = { v: 1 as const, b: form.beta, sign: bSign as 1 | -1 }
  const G = { v: 2 as const, b: form.gamma, sign: gSign as 1 | -1 }
  if (form.op1 === '+') {
    if (form.op2 === '+') return [monomial([A]), monomial([{ ...B, sign: 1 }]), monomial([{ ...G, sign: 1 }])]
    return [monomial([A, G]), monomial([{ ...B, sign: 1 }, G])]
  }
  if (form.op2 === '+') return [monomial([A, B]), monomial([{ ...G, sign: 1 }])]
  return [monomial([A, B, G])]
}

/** The canonical key: two forms with the same key are the same family of functions. */
export function canonicalKey(form: Form): string {
  return monomials(form).map((m) => m.join(',')).sort().join(' | ')
}

/** Every form, in enumeration order (op1, op2, α, β, γ): 3·3·4·4·4 = 576. */
export const ALL_FORMS: readonly Form[] = OPS.flatMap((op1) => OPS.flatMap((op2) =>
  BASES.flatMap((alpha) => BASES.flatMap((beta) => BASES.map((gamma) => ({ alpha, beta, gamma, op1, op2 }))))))

/** One class of ℱ after the duplicates are removed: its representative and the forms it stands for. */
export interface FamilyMember {
  /** Stable identifier, e.g. `log10*id+log10` (α op1 β op2 γ of the representative). */
  readonly id: string
  readonly form: Form
  /** The other forms of ℱ that span exactly the same functions (algebraic duplicates). */
  readonly duplicates: readonly Form[]
}

export const formId = (f: Form): string => `${f.alpha}${f.op1}${f.beta}${f.op2}${f.gamma}`

function dedupe(): FamilyMember[] {
  const byKey = new Map<string, { form: Form; duplicates: Form[] }>()
  for (const form of ALL_FORMS) {
    const key = canonicalKey(form)
    const seen = byKey.get(key)
    if (seen) seen.duplicates.push(form)
    else byKey.set(key, { form, duplicates: [] })
  }
  return [...byKey.values()].map(({ form, duplicates }) => ({ id: formId(form), form, duplicates }))
}

/** ℱ without its algebraic duplicates (400 members), in enumeration order. */
export const FAMILY: readonly FamilyMember[] = dedupe()

// ---- Writing a form ---------------------------------------------------------------------------

const VAR_NAMES = ['r', 'n', 's'] as const

/** How a base function is written in an `fn:` expression (docs/LEARN.md §Regression). */
export function baseText(b: Base, x: string): string {
  return b === 'id' ? x : b === 'log10' ? `log10(${x})` : b === 'sqrt' ? `sqrt(${x})` : `(1/${x})`
}

/** The form as the paper writes it, with its coefficients named: `((c1*log10(r)) * (c2*n)) + (c3*log10(s))`. */
export function formText(form: Form): string {
  const t = (c: string, b: Base, x: string) => `(${c}*${baseText(b, x)})`
  return `(${t('c1', form.alpha, VAR_NAMES[0])} ${form.op1} ${t('c2', form.beta, VAR_NAMES[1])}) ${form.op2} ${t('c3', form.gamma, VAR_NAMES[2])}`
}
