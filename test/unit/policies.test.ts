// The policy declarations (src/core/sim/policies.ts): the function the simulator calls equals the
// declared formula on every job, what is derived from the formula (changes with time, features,
// the wait form the exporters use) is right, and docs/POLICIES.md is what the declarations generate.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { policiesMarkdown, policyCatalog } from '../../src/core/export/catalog'
import { compile, evaluate, withWait, type Expr } from '../../src/core/sim/formula'
import { findPolicy, MIXED_FEATURE_DECLARATIONS, mixedExpr, mixedPolicy, POLICIES, resolvePolicy, type PolicyInput } from '../../src/core/sim/policies'

/** Deterministic pseudo-random jobs, with the edge values the guards exist for (q = 1, p̃ < 1 s,
 * a submit at the window start). */
function randomJobs(n: number, seed: number): { input: PolicyInput; now: number } {
  let x = seed
  const rnd = () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
  const submit = new Float64Array(n), requested = new Float64Array(n), procs = new Int32Array(n)
  for (let j = 0; j < n; j++) {
    submit[j] = j === 0 ? 1000 : 1000 + Math.floor(rnd() * 500_000)
    requested[j] = j === 1 ? 0.5 : j === 2 ? 1 : 1 + Math.floor(rnd() * 200_000)
    procs[j] = j === 3 ? 1 : 1 + Math.floor(rnd() * 1024)
  }
  return { input: { submit, requested, procs, windowStart: 1000 }, now: 600_000 }
}
const valuesOf = (e: Expr, c: PolicyInput, j: number, now: number) =>
  evaluate(e, { q: c.procs[j], p: c.requested[j], w: now - c.submit[j], t: c.submit[j], s: Math.max(1, c.submit[j] - c.windowStart) })

describe('each policy is its declared formula', () => {
  const { input, now } = randomJobs(400, 7)
  it('the simulator\'s priority equals the formula on every job (hand-written fast paths included)', () => {
    for (const p of POLICIES) {
      const compiled = compile(p.expr)
      for (let j = 0; j < input.submit.length; j++) {
        const want = valuesOf(p.expr, input, j, now)
        // == : the same number, +0 and −0 alike (they order the same)
        expect(p.priority(input, j, now) == want && compiled(input, j, now) == want, `${p.id} job ${j}: ${p.priority(input, j, now)} vs ${want}`).toBe(true)
      }
    }
  })
  it('a mixed policy\'s priority equals its formula over the declared features', () => {
    const specs = [
      { kind: 'mixed' as const, weights: [0.2, 0.2, 0.2, 0.2, 0.1, 0.1] },
      { kind: 'mixed' as const, weights: [0.5, -0.25, 0, 0.25, 0, 0], mean: [-10, -3600, 100, -2, -30, -1e5], scale: [5, 1800, 0, 1, 10, 1e6] },
      { kind: 'mixed' as const, weights: [0, 0, 1, 0, 0, 0] },
    ]
    for (const spec of specs) {
      const pol = mixedPolicy(spec), e = mixedExpr(spec)
      for (let j = 0; j < input.submit.length; j++) expect(pol.priority(input, j, now) == valuesOf(e, input, j, now), `${pol.id} job ${j}`).toBe(true)
    }
  })
  it('changes with time exactly when it reads the wait (FCFS is written −submit and is static)', () => {
    expect(POLICIES.filter((p) => p.dynamic).map((p) => p.id)).toEqual(expect.arrayContaining(['LEXP', 'SEXP', 'WFP3', 'UNICEF']))
    for (const id of ['FCFS', 'LCFS', 'SPF', 'LPF', 'SQF', 'LQF', 'LRF', 'SRF', 'LAF', 'SAF', 'F1', 'F2', 'F3', 'F4']) expect(findPolicy(id)!.dynamic, id).toBe(false)
    expect(findPolicy('FCFS')!.features).toEqual(['t'])
    expect(findPolicy('WFP3')!.features).toEqual(['q', 'p', 'w'])
    expect(mixedPolicy({ kind: 'mixed', weights: [1, 0, 0, 0, 0, 0] }).dynamic).toBe(false)
    expect(mixedPolicy({ kind: 'mixed', weights: [0.5, 0, 0, 0.5, 0, 0] }).dynamic).toBe(true)
    expect(mixedPolicy({ kind: 'mixed', weights: [0.5, 0, 0.5, 0, 0, 0], scale: [1, 1, 0, 1, 1, 1] }).dynamic).toBe(false)
  })
  it('the wait form the exporters use orders jobs like the simulator at any instant', () => {
    for (const p of POLICIES.filter((x) => !x.features.includes('s'))) {
      const wf = withWait(p.expr)
      expect(JSON.stringify(wf), p.id).not.toContain('"t"')
      const n = input.submit.length
      const bySim = Array.from({ length: n }, (_, j) => j).sort((a, b) => p.priority(input, b, now) - p.priority(input, a, now) || a - b)
      const byWait = Array.from({ length: n }, (_, j) => j).sort((a, b) => valuesOf(wf, input, b, now) - valuesOf(wf, input, a, now) || a - b)
      expect(byWait, p.id).toEqual(bySim)
    }
  })
  it('is found by its id or an alias, case-insensitively, and names are unique', () => {
    expect(['fcfs', ' EXP ', 'spt', 'Wfp', 'uni'].map((s) => findPolicy(s)?.id)).toEqual(['FCFS', 'LEXP', 'SPF', 'WFP3', 'UNICEF'])
    const names = POLICIES.flatMap((p) => [p.id, ...(p.aliases ?? [])])
    expect(new Set(names).size).toBe(names.length)
    expect(() => resolvePolicy('NOPE')).toThrow(/known: FCFS, LCFS/)
  })
})

describe('derived listings', () => {
  it('every policy has an explanation, a source and both export fidelities', () => {
    for (const e of policyCatalog()) {
      expect(e.explain.length, e.id).toBeGreaterThan(10)
      expect(e.source, e.id).not.toBe('')
      expect(['native', 'job_submit.lua', 'site factor', 'not exportable']).toContain(e.slurm.fidelity)
      expect(['native', 'not exportable']).toContain(e.pbs.fidelity)
      if (e.pbs.fidelity === 'not exportable') expect(e.pbs.note, e.id).toMatch(/logarithm|origin/)
    }
  })
  it('docs/POLICIES.md is what the declarations generate (run: node scripts/gen-policies-doc.mjs)', () => {
    expect(readFileSync('docs/POLICIES.md', 'utf8'), 'docs/POLICIES.md is stale: run node scripts/gen-policies-doc.mjs').toBe(policiesMarkdown())
  })
})

describe('mixed features', () => {
  it('each feature alone orders jobs like the pure policy it names (the vertices of the weight polytope)', () => {
    const { input, now } = randomJobs(300, 11)
    const n = input.submit.length
    MIXED_FEATURE_DECLARATIONS.forEach((f, i) => {
      const vertex = mixedPolicy({ kind: 'mixed', weights: MIXED_FEATURE_DECLARATIONS.map((_, k) => (k === i ? 1 : 0)) })
      const pure = findPolicy(f.pure)!
      const order = (prio: (j: number) => number) => Array.from({ length: n }, (_, j) => j).sort((a, b) => prio(b) - prio(a) || a - b)
      expect(order((j) => vertex.priority(input, j, now)), f.name).toEqual(order((j) => pure.priority(input, j, now)))
    })
    expect(MIXED_FEATURE_DECLARATIONS.map((f) => f.pure)).toEqual(['SQF', 'SPF', 'FCFS', 'SEXP', 'SRF', 'SAF'])
  })
})
