// The regression of docs/LEARN.md §Regression: eq. 4 fit, eq. 5 ranking, recovery of known
// coefficients from synthetic scores, and the built-in F1–F4 never returned as if learned.
import { describe, expect, it } from 'vitest'
import { FAMILY } from '../../src/core/learn/family'
import { numberText, regress, regressSteps, type ScoreSample } from '../../src/core/learn/regression'
import { Rng } from '../../src/core/util/random'

const member = (id: string) => {
  const m = FAMILY.find((x) => x.id === id)
  if (!m) throw new Error(id)
  return m
}

/** Task-like features: r log-uniform in [10 s, 10⁵ s], n in 1…256, s log-uniform in [2 s, 10⁶ s]. */
function features(count: number, seed: number): { r: number; n: number; s: number }[] {
  const rng = new Rng(seed)
  return Array.from({ length: count }, () => ({
    r: Math.round(10 ** (1 + 4 * rng.next())), n: 1 + rng.int(256), s: Math.round(10 ** (0.31 + 5.69 * rng.next())),
  }))
}

/** Scores from a known function, with relative noise up to ±noise (uniform). */
function scores(f: (r: number, n: number, s: number) => number, noise: number, seed: number, count = 600): ScoreSample[] {
  const rng = new Rng(seed + 1000)
  return features(count, seed).map(({ r, n, s }) => ({ r, n, s, score: f(r, n, s) * (1 + noise * (2 * rng.next() - 1)) }))
}

describe('eq. 4 and eq. 5 on a tiny instance worked by hand', () => {
  // Samples (r, n, s, score): (1,1,1, 0.5), (2,1,1, 1), (1,2,1, 3); weights r·n = 1, 2, 2.
  const tiny: ScoreSample[] = [{ r: 1, n: 1, s: 1, score: 0.5 }, { r: 2, n: 1, s: 1, score: 1 }, { r: 1, n: 2, s: 1, score: 3 }]

  it('fits k·r·n·s by weighted least squares and ranks it by the mean absolute error', () => {
    // x = r·n·s = 1, 2, 2; k = Σ w²xy / Σ w²x² = (0.5 + 4·2·1 + 4·2·3) / (1 + 16 + 16) = 32.5/33 = 65/66.
    // eq. 5: (|65/66 − 1/2| + |130/66 − 1| + |130/66 − 3|)/3 = (32 + 64 + 68)/66/3 = 164/198.
    const { functions } = regress(tiny, { members: [member('id*id*id')] })
    expect(functions).toHaveLength(1)
    expect(functions[0].coefficients.c1).toBeCloseTo(65 / 66, 9)
    expect(functions[0].rank).toBeCloseTo(164 / 198, 9)
    // eq. 4 at the fit: Σ (w(kx − y))² = (32/66)² + (2·64/66)² + (2·68/66)².
    expect(functions[0].weightedError).toBeCloseTo((32 / 66) ** 2 + (128 / 66) ** 2 + (136 / 66) ** 2, 9)
  })

  it('ranks an exact fit first: r + n + s solves the three points (k = 0.5, 2.5, −2.5)', () => {
    // k1 + k2 + k3 = 0.5, 2k1 + k2 + k3 = 1, k1 + 2k2 + k3 = 3 → k1 = 0.5, k2 = 2.5, k3 = −2.5.
    const { functions } = regress(tiny, { members: [member('id*id*id'), member('id+id+id')] })
    expect(functions.map((f) => [f.id, f.position])).toEqual([['learned:id+id+id', 1], ['learned:id*id*id', 2]])
    expect(functions[0].rank).toBeCloseTo(0, 6)
    expect(functions[0].coefficients.c1).toBeCloseTo(0.5, 6)
    expect(functions[0].coefficients.c2).toBeCloseTo(2.5, 6)
    expect(functions[0].coefficients.c3).toBeCloseTo(-2.5, 6)
    expect(functions[0].expression).toBe('0.5*r+2.5*n-2.5*s')
    // Three terms: no single merged coefficient.
    expect(functions[0].simplified).toBeNull()
  })
})

describe('the regression recovers known coefficients from synthetic scores', () => {
  it('an F1-shaped member, exactly: 10⁻⁵·(log10(r)·n + 870·log10(s))', () => {
    const data = scores((r, n, s) => 1e-5 * (Math.log10(r) * n + 870 * Math.log10(s)), 0, 1)
    const { functions } = regress(data)
    const best = functions[0]
    expect(best.id).toBe('learned:log10*id+log10')
    expect(best.rank).toBeLessThan(1e-9)
    // c2 = 1 in a product (only c1·c2 is determined): c1 = 10⁻⁵, c3 = 870·10⁻⁵.
    expect(best.coefficients.c1 / 1e-5).toBeCloseTo(1, 4)
    expect(best.coefficients.c2).toBe(1)
    expect(best.coefficients.c3 / 8.7e-3).toBeCloseTo(1, 4)
    expect(best.simplified!.coefficient! / 870).toBeCloseTo(1, 4)
    expect(best.expression).toBe('log10(r)*n+870*log10(s)')
  })

  it('an F1-shaped member with ±5 % noise: the merged coefficient within 5 %', () => {
    const data = scores((r, n, s) => 1e-5 * (Math.log10(r) * n + 870 * Math.log10(s)), 0.05, 2, 2000)
    const best = regress(data).functions[0]
    expect(best.id).toBe('learned:log10*id+log10')
    expect(best.simplified!.coefficient! / 870).toBeGreaterThan(0.95)
    expect(best.simplified!.coefficient! / 870).toBeLessThan(1.05)
  })

  it('a sum times a base function: (3·10⁻³·√r + 20·(1/n))·(1/s), exactly and with ±2 % noise', () => {
    // 20/n balances 3·10⁻³·√r where r·n weighs most (n ≈ 100, r ≈ 4000): both terms are determined.
    const f = (r: number, n: number, s: number) => (3e-3 * Math.sqrt(r) + 20 / n) / s
    const exact = regress(scores(f, 0, 3), { members: [member('sqrt+inv*inv'), member('sqrt+inv+inv'), member('id*id*id')] })
    expect(exact.functions[0].id).toBe('learned:sqrt+inv*inv')
    expect(exact.functions[0].coefficients.c1 / 3e-3).toBeCloseTo(1, 4)
    expect(exact.functions[0].coefficients.c2 / 20).toBeCloseTo(1, 4)
    expect(exact.functions[0].coefficients.c3).toBe(1)
    const noisy = regress(scores(f, 0.02, 4, 2000), { members: [member('sqrt+inv*inv')] }).functions[0]
    expect(Math.abs(noisy.coefficients.c1 / 3e-3 - 1)).toBeLessThan(0.05)
    // The 1/n term weighs little where r·n is large: its coefficient is the less determined (statistical
    // error ∝ noise: 13 % at ±5 %, 5 % at ±2 % on these samples).
    expect(Math.abs(noisy.coefficients.c2 / 20 - 1)).toBeLessThan(0.1)
  })

  it('a pure quotient: 2.5·r/(√n·log10(s)), with negative and positive coefficients', () => {
    const data = scores((r, n, s) => 2.5 * r / (Math.sqrt(n) * Math.log10(s)), 0, 5)
    const best = regress(data, { members: [member('id/sqrt/log10'), member('id*sqrt+log10')] }).functions[0]
    expect(best.id).toBe('learned:id/sqrt/log10')
    expect(best.coefficients.c1 / 2.5).toBeCloseTo(1, 4)
    // One monomial with a positive coefficient: the order is the monomial's own.
    expect(best.simplified).toEqual({ expression: 'r/sqrt(n)/log10(s)', coefficient: null })
    const negative = regress(scores((r, n, s) => -1e-5 * r + 0.5 * Math.log10(n) - 1e-6 * s, 0.02, 6, 2000),
      { members: [member('id+log10+id')] }).functions[0]
    expect(Math.abs(negative.coefficients.c1 / -1e-5 - 1)).toBeLessThan(0.05)
    expect(Math.abs(negative.coefficients.c2 / 0.5 - 1)).toBeLessThan(0.05)
    expect(Math.abs(negative.coefficients.c3 / -1e-6 - 1)).toBeLessThan(0.05)
    expect(negative.expression.startsWith('-')).toBe(true)
  })

  it('is deterministic: the same samples give the same bytes, in one go or in slices', () => {
    const data = scores((r, n, s) => 1e-6 * r * Math.sqrt(n) + 0.003 * Math.log10(s), 0.1, 8, 300)
    expect(JSON.stringify(regress(data))).toBe(JSON.stringify(regress(data)))
    // 400 members in slices of 150: progress after 150 and 300, then the same result.
    const steps = regressSteps(data, { slice: 150 })
    const seen: number[] = []
    let step = steps.next()
    while (!step.done) { seen.push(step.value); step = steps.next() }
    expect(seen).toEqual([150, 300])
    expect(JSON.stringify(step.value)).toBe(JSON.stringify(regress(data)))
  })
})

describe('the built-in F1–F4 are never returned as if learned', () => {
  it('a function of F3 form is labelled learned with the coefficient fitted from the data, not F3', () => {
    // F3 is r·n + 6.86·10⁶·log10(s); the data here follow r·n + 1000·log10(s).
    const data = scores((r, n, s) => 1e-9 * (r * n + 1000 * Math.log10(s)), 0, 9)
    const { functions } = regress(data)
    const best = functions[0]
    expect(best.kind).toBe('learned')
    expect(best.id).toBe('learned:id*id+log10')
    expect(best.sameFormAs).toBe('F3')
    expect(best.simplified!.coefficient! / 1000).toBeCloseTo(1, 4)
    expect(best.expression).toBe('r*n+1000*log10(s)')
    for (const f of functions) {
      expect(f.kind).toBe('learned')
      expect(f.id).toMatch(/^learned:/)
      expect(f.expression).not.toMatch(/F[1-4]/)
    }
    // Only the four forms of F1–F4 say so.
    expect(functions.filter((f) => f.sameFormAs !== null).map((f) => f.sameFormAs).sort()).toEqual(['F1', 'F2', 'F3', 'F4'])
  })

  it('drops samples outside the domain and forms undefined on the samples, and never throws on hostile input', () => {
    const data: ScoreSample[] = [
      ...scores((r, n, s) => 1e-5 * r + 1e-3 * n + 1e-7 * s, 0, 10, 50),
      { r: 0, n: 1, s: 5, score: 0.1 }, { r: 10, n: Number.NaN, s: 5, score: 0.1 }, { r: 10, n: 1, s: 5, score: Infinity },
      { r: 10, n: 1, s: 5, score: 0.03 },
    ]
    const result = regress(data)
    expect(result.samples).toBe(51)
    expect(result.dropped).toBe(3)
    // n = 1 gives log10(n) = 0: every member that divides by log10(n) is undefined.
    expect(result.undefinedForms).toContain('id/log10+id')
    expect(result.functions[0].id).toBe('learned:id+id+id')
    expect(regress([]).functions).toEqual([])
  })
})

describe('numbers in the fn: grammar', () => {
  it('writes 6 significant digits, in the shortest JavaScript writing', () => {
    expect(numberText(870.0000001)).toBe('870')
    expect(numberText(6.86e6)).toBe('6860000')
    expect(numberText(0.000123456789)).toBe('0.000123457')
    expect(numberText(1.234567e-7)).toBe('1.23457e-7')
    expect(numberText(-0.5)).toBe('-0.5')
  })
})
