// The recommended policy as formulas (docs/POLICIES.md, "Export to Slurm and PBS"), read from the policy declarations
// (src/core/sim/policies.ts, docs/POLICIES.md): each priority in terms of q (CPUs), p (requested
// seconds) and w (wait, seconds), higher runs first, equal in order to the simulator's (FCFS's
// −submit and the wait order jobs alike at any instant: withWait).
import { sameExpr, usesVar, v, VARS, withWait, type Var } from '../sim/formula'
import { findPolicy, MIXED_FEATURE_DECLARATIONS } from '../sim/policies'
import { linear, type Expr } from './expr'
import type { PolicyChoice } from './validate'

/** The mixed features' formulas in the simulator's order: (−q, −p̃, wait, −exp, −p̃/q, −p̃·q). */
export const FEATURE_EXPRS: readonly Expr[] = MIXED_FEATURE_DECLARATIONS.map((f) => f.expr)
/** ASCII names of the features, for generated comments. */
export const FEATURE_NAMES: readonly string[] = MIXED_FEATURE_DECLARATIONS.map((f) => f.ascii)

function declared(id: string) {
  const pol = findPolicy(id)
  if (!pol || pol.id !== id) throw new Error(`internal: no policy ${id}`)
  return pol
}

/** Why a registry policy cannot be exported (it reads a feature a running cluster lacks), or null. */
export function notExportableReason(id: string): string | null {
  const pol = declared(id)
  const missing = (Object.keys(VARS) as Var[]).find((name) => VARS[name].notExportable && usesVar(pol.expr, name))
  return missing ? VARS[missing].notExportable! : null
}

/** The formula as the simulator evaluates it (may read the submit time t), or null when it cannot
 * be exported. Static Slurm job_submit.lua code uses this form. */
export function simExpr(choice: PolicyChoice): Expr | null {
  if (choice.kind === 'mixed') return policyExpr(choice)
  return notExportableReason(choice.id) === null ? declared(choice.id).expr : null
}

/** The wait alone: FCFS's order (Slurm's own when every priority is equal; a threshold changes nothing). */
export const isFcfs = (e: Expr): boolean => sameExpr(e, v('w'))

/** Coefficient per feature: weight / scale (scale 0 → the feature contributes nothing). Means add
 * the same constant to every job and do not change the order. */
export function mixedCoefficients(choice: Extract<PolicyChoice, { kind: 'mixed' }>): number[] {
  return choice.weights.map((wi, i) => (choice.scale[i] === 0 ? 0 : wi / choice.scale[i]))
}

/** The policy's formula with the wait (the form a running cluster can evaluate at any instant),
 * or null when it cannot be written as one (F1–F4). */
export function policyExpr(choice: PolicyChoice): Expr | null {
  if (choice.kind === 'pure') return notExportableReason(choice.id) === null ? withWait(declared(choice.id).expr) : null
  const c = mixedCoefficients(choice)
  return linear(c.map((ci, i) => ({ c: ci, e: FEATURE_EXPRS[i] })))
}

/** Policies whose formula changes while a job waits (re-sorted at every pass in the simulator). */
export function isDynamic(choice: PolicyChoice): boolean {
  if (choice.kind === 'pure') return declared(choice.id).dynamic
  return mixedCoefficients(choice).some((ci, i) => ci !== 0 && usesVar(FEATURE_EXPRS[i], 'w'))
}

/** Human formula for comments, built from the declared feature names (ids validated). */
export function describeMixed(choice: Extract<PolicyChoice, { kind: 'mixed' }>): string {
  const c = mixedCoefficients(choice)
  const parts = c.map((ci, i) => (ci === 0 ? '' : `${Number(ci.toPrecision(6))}*(${FEATURE_NAMES[i]})`)).filter(Boolean)
  return parts.length ? parts.join(' + ') : '0'
}
