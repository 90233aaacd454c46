// The recommended policy as formulas (SLURM.md 3.2/3.3): each registry policy's priority in terms
// of q (CPUs), p (requested seconds) and w (wait, seconds), higher runs first, equal in order to
// the simulator's (src/core/sim/policies.ts; FCFS's −submit and w order jobs alike at any instant).
import { UNICEF_LOG2_FLOOR } from '../sim/policies'
import { add, cube, div, linear, log2max, mul, neg, v, type Expr } from './expr'
import type { PolicyChoice } from './validate'

const q = v('q'), p = v('p'), w = v('w')
const exp = div(add(w, p), p)

/** Registry id → formula; F1–F4 have none (their log₁₀ s counts from the start of each simulated
 * week, an origin a running cluster does not have). */
const FORMULAS: Record<string, Expr | null> = {
  FCFS: w, LCFS: neg(w), SPF: neg(p), LPF: p, SQF: neg(q), LQF: q,
  LEXP: exp, SEXP: neg(exp), LRF: div(p, q), SRF: neg(div(p, q)), LAF: mul(p, q), SAF: neg(mul(p, q)),
  WFP3: mul(cube(div(w, p)), q),
  UNICEF: div(w, mul(log2max(q, UNICEF_LOG2_FLOOR), p)),
  F1: null, F2: null, F3: null, F4: null,
}

/** The six mixed features in the simulator's order: (−q, −p̃, wait, −exp, −p̃/q, −p̃·q). */
export const FEATURE_EXPRS: readonly Expr[] = [neg(q), neg(p), w, neg(exp), neg(div(p, q)), neg(mul(p, q))]
/** ASCII names of the features (MIXED_FEATURES in the registry), for generated comments. */
export const FEATURE_NAMES: readonly string[] = ['-q', '-p', 'wait', '-exp', '-p/q', '-p*q']

export const NOT_EXPORTABLE_REASON: Record<string, string> = {
  F1: 'its log₁₀(s) term counts seconds from the start of each simulated week; a running cluster has no such origin',
}
for (const id of ['F2', 'F3', 'F4']) NOT_EXPORTABLE_REASON[id] = NOT_EXPORTABLE_REASON.F1

/** Coefficient per feature: weight / scale (scale 0 → the feature contributes nothing). Means add
 * the same constant to every job and do not change the order. */
export function mixedCoefficients(choice: Extract<PolicyChoice, { kind: 'mixed' }>): number[] {
  return choice.weights.map((wi, i) => (choice.scale[i] === 0 ? 0 : wi / choice.scale[i]))
}

/** The policy's formula, or null when it cannot be written as one (F1–F4). */
export function policyExpr(choice: PolicyChoice): Expr | null {
  if (choice.kind === 'pure') {
    if (!(choice.id in FORMULAS)) throw new Error(`internal: no export formula for ${choice.id}`)
    return FORMULAS[choice.id]
  }
  const c = mixedCoefficients(choice)
  return linear(c.map((ci, i) => ({ c: ci, e: FEATURE_EXPRS[i] })))
}

/** Policies whose formula changes while a job waits (re-sorted at every pass in the simulator). */
export function isDynamic(choice: PolicyChoice): boolean {
  if (choice.kind === 'pure') return ['LEXP', 'SEXP', 'WFP3', 'UNICEF'].includes(choice.id)
  const c = mixedCoefficients(choice)
  return c[2] !== 0 || c[3] !== 0
}

/** Human formula for comments, built from the registry's own text (ids validated). */
export function describeMixed(choice: Extract<PolicyChoice, { kind: 'mixed' }>): string {
  const c = mixedCoefficients(choice)
  const parts = c.map((ci, i) => (ci === 0 ? '' : `${Number(ci.toPrecision(6))}*(${FEATURE_NAMES[i]})`)).filter(Boolean)
  return parts.length ? parts.join(' + ') : '0'
}
