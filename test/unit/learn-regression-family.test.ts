// ℱ and its duplicate removal (docs/LEARN.md §Regression): counts and examples worked by hand, and
// an independent numeric check of the canonical forms (spans of sampled values).
import { describe, expect, it } from 'vitest'
import { ALL_FORMS, FAMILY, canonicalKey, evaluateForm, formId, formText, type Form } from '../../src/core/learn/family'
import { Rng } from '../../src/core/util/random'

const form = (alpha: Form['alpha'], op1: Form['op1'], beta: Form['beta'], op2: Form['op2'], gamma: Form['gamma']): Form =>
  ({ alpha, op1, beta, op2, gamma })

describe('the family ℱ', () => {
  it('has 4³·3² = 576 forms, each once', () => {
    expect(ALL_FORMS).toHaveLength(576)
    expect(new Set(ALL_FORMS.map(formId)).size).toBe(576)
  })

  it('keeps 400 after the algebraic duplicates are removed, as counted by hand per pair of operators', () => {
    // By hand: an atom of x in a denominator is x⁻¹, x, x^-½ or 1/log x; only the last two are new
    // (x⁻¹ = inv in a numerator, x = id). (+,+) 64, (+,·) 64, (+,÷) new only for γ ∈ {sqrt, log}: 32,
    // (·,+) 64, (÷,+) new for β ∈ {sqrt, log}: 32, (·,·) 64, (·,÷) 32, (÷,·) 32 (n-atom n^-½ or 1/log n,
    // disjoint from (·,÷) whose s-atom is new), (÷,÷) new only when both are: 4·2·2 = 16. Total 400.
    expect(FAMILY).toHaveLength(400)
    const count = (op1: string, op2: string) => FAMILY.filter((m) => m.form.op1 === op1 && m.form.op2 === op2).length
    expect([count('+', '+'), count('+', '*'), count('+', '/'), count('*', '+'), count('/', '+'),
      count('*', '*'), count('*', '/'), count('/', '*'), count('/', '/')]).toEqual([64, 64, 32, 64, 32, 64, 32, 32, 16])
    // Every form is in exactly one class.
    expect(FAMILY.reduce((acc, m) => acc + 1 + m.duplicates.length, 0)).toBe(576)
  })

  it('treats hand-worked examples as duplicates or not', () => {
    const byId = new Map(FAMILY.map((m) => [m.id, m]))
    // F1's form log10(r)·n + log10(s) is also log10(r) ÷ (1/n) + log10(s): the · form is kept.
    const f1 = byId.get('log10*id+log10')
    expect(f1?.duplicates.map(formId)).toEqual(['log10/inv+log10'])
    // r·n·s: also r ÷ (1/n) · s, r · n ÷ (1/s), r ÷ (1/n) ÷ (1/s).
    expect(byId.get('id*id*id')?.duplicates.map(formId).sort()).toEqual(['id*id/inv', 'id/inv*id', 'id/inv/inv'])
    // (r + n)·s = (r + n) ÷ (1/s).
    expect(canonicalKey(form('id', '+', 'id', '*', 'id'))).toBe(canonicalKey(form('id', '+', 'id', '/', 'inv')))
    // r ÷ √n + s has no other writing; r·√n + s is a different function.
    expect(byId.get('id/sqrt+id')?.duplicates).toEqual([])
    expect(canonicalKey(form('id', '/', 'sqrt', '+', 'id'))).not.toBe(canonicalKey(form('id', '*', 'sqrt', '+', 'id')))
    // The second coefficient is lost in a product, not the form: (r·n) + s ≠ r + n + s.
    expect(canonicalKey(form('id', '*', 'id', '+', 'id'))).not.toBe(canonicalKey(form('id', '+', 'id', '+', 'id')))
    // Removed forms are never representatives.
    expect(byId.has('log10/inv+log10')).toBe(false)
  })

  it('groups the forms as the spans of their sampled values do (an independent numeric fingerprint)', () => {
    // For each form, the values at 14 random points for 4 random (c1, c2, c3) span the form's family
    // (at most 3 dimensions); two forms are duplicates when the projections of two fixed random vectors
    // on their spans coincide. No use of the canonical keys.
    const rng = new Rng(7)
    const P = 14
    const pts = Array.from({ length: P }, () => [2 + 8 * rng.next(), 2 + 8 * rng.next(), 2 + 8 * rng.next()])
    const cs = Array.from({ length: 4 }, () => [0.5 + rng.next(), 0.5 + rng.next(), 0.5 + rng.next()])
    const zs = Array.from({ length: 2 }, () => Array.from({ length: P }, () => rng.next() - 0.5))
    const dot = (a: number[], b: number[]) => a.reduce((acc, x, i) => acc + x * b[i], 0)
    const fingerprint = (f: Form): number[] => {
      const basis: number[][] = []
      for (const [c1, c2, c3] of cs) {
        const v = pts.map(([r, n, s]) => evaluateForm(f, c1, c2, c3, r, n, s))
        const scale = Math.sqrt(dot(v, v))
        let u = v.map((x) => x / scale)
        for (const b of basis) { const d = dot(u, b); u = u.map((x, i) => x - d * b[i]) }
        const len = Math.sqrt(dot(u, u))
        if (len > 1e-7) basis.push(u.map((x) => x / len))
      }
      return zs.flatMap((z) => { const p = new Array<number>(P).fill(0); for (const b of basis) { const d = dot(z, b); b.forEach((x, i) => { p[i] += d * x }) } return p })
    }
    const reps: { fp: number[]; key: string }[] = []
    for (const f of ALL_FORMS) {
      const fp = fingerprint(f)
      const same = reps.find((r) => r.fp.every((x, i) => Math.abs(x - fp[i]) < 1e-6))
      if (same) expect(canonicalKey(f)).toBe(same.key)
      else { expect(reps.some((r) => r.key === canonicalKey(f))).toBe(false); reps.push({ fp, key: canonicalKey(f) }) }
    }
    expect(reps).toHaveLength(400)
  })

  it('writes a form with its three coefficients, grouped left to right', () => {
    expect(formText(form('log10', '*', 'id', '+', 'log10'))).toBe('((c1*log10(r)) * (c2*n)) + (c3*log10(s))')
    expect(formText(form('inv', '/', 'sqrt', '/', 'id'))).toBe('((c1*(1/r)) / (c2*sqrt(n))) / (c3*s)')
    // Left to right: (1 + 2)·3, not 1 + 2·3.
    expect(evaluateForm(form('id', '+', 'id', '*', 'id'), 1, 1, 1, 1, 2, 3)).toBe(9)
  })
})
