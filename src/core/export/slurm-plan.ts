// How the recommended policy maps onto Slurm (docs/POLICIES.md, "Slurm"), decided once from typed values:
// which mechanism carries the order (native weights, job_submit.lua, a periodic site factor), and
// every number, chosen so that priorities stay inside Slurm's 32-bit range.
import { isFnSpec } from '../sim/fn'
import { max, num, sameExpr, usesVar } from '../sim/formula'
import { findPolicy } from '../sim/policies'
import { linear, neg, v, type Expr } from './expr'
import { FEATURE_EXPRS, isDynamic, isFcfs, mixedCoefficients, notExportableReason, policyExpr, simExpr } from './policy'
import type { ExportInput } from './validate'

/** PriorityWeightPartition: every job's base priority (one partition factor of 1.0). */
export const BASE = 1_100_000_000
/** Site factors are kept in [0, SF_MAX]: job_submit.lua stores its value as a 32-bit unsigned
 * number, so a negative one can collide with NO_VAL (−2 is read back as "unset", seen on 22.05). */
export const SF_MAX = 2_147_483_645
/** Scores centred on SF_OFFSET: log encoding ±ENC_SCALE·ln(1 + |x|), at most ±ENC_CAP. */
export const SF_OFFSET = 1_000_000_000
export const ENC_SCALE = 13_000_000
export const ENC_CAP = 900_000_000
/** Jobs past the threshold: PROMOTE + their wait (capped), above every encoded score. */
export const PROMOTE = 2_000_000_000
export const PROMOTE_CAP = 140_000_000
/** The linear mixture's terms are scaled to stay within ±LINEAR_BUDGET. */
export const LINEAR_BUDGET = 1_000_000_000
/** Origin of LCFS's submit-time site factor (2026-01-01T00:00:00Z); lasts until about 2094. */
export const EPOCH0 = 1_767_225_600
/** bf_window (minutes) and the time limit assumed for jobs without one: 7 days. */
export const BF_WINDOW_MIN = 10_080
export const LIMIT_IF_UNSET_MIN = 10_080
/** Slurm's largest bf_window, minutes (backfill.c: MAX_BACKFILL_WINDOW = 30 days; a larger value
 * is logged as "Invalid SchedulerParameters bf_window" and replaced by the default, one day). */
export const BF_WINDOW_MAX_MIN = 43_200
export const BF_MAX_JOB_TEST = 1000

/** linear: round(scale·x) + offset, clamped to [0, max]; log: SF_OFFSET ± ENC_SCALE·ln(1 + |x|). */
export type Encoding = { kind: 'linear'; scale: number; offset: number; max: number } | { kind: 'log' }

export type SlurmPlan =
  /** All priorities equal: Slurm orders by submit time, then job id. */
  | { mode: 'fcfs' }
  /** PriorityWeightTRES=CPU=±1 with NO_NORMAL_TRES. */
  | { mode: 'tres'; perCpu: 1 | -1 }
  /** A static per-job site factor from job_submit.lua (vars q, p, t); `approx`: what it does not
   * carry as evaluated (a learned function's s counted from EPOCH0). */
  | { mode: 'lua'; expr: Expr; enc: Encoding; approx?: string }
  /** A linear mixture: TRES (q) + Age (wait) + job_submit.lua (static p terms). */
  | { mode: 'linear'; tresPerCpu: number; ageWeight: number; maxAgeMin: number; lua: Expr | null; enc: Encoding; coef: number[] }
  /** A periodic script recomputes every pending job's site factor (vars q, p, w). */
  | { mode: 'sitefactor'; expr: Expr; threshold: number | null }
  | { mode: 'none'; reason: string }

/** PriorityMaxAge (minutes): twice the longest simulated wait, between 1 day and 1 year. */
export function maxAgeMinutes(longestWait: number | null): number {
  if (longestWait === null) return 20_160
  return Math.min(525_600, Math.max(1440, Math.ceil((2 * longestWait) / 60)))
}

/** What a learned function's s becomes on a running cluster (docs/LEARN.md §Export). */
export const FN_S_EXPORT_NOTE = 'its s counts seconds from 2026-01-01 (EPOCH0) on the cluster, but from the start of each simulated window in the evaluation: log10(s) is flatter there, so the age term weighs less against the r, n terms than it did when evaluated'

/** A learned function fn:… reading s (docs/LEARN.md §Export): job_submit.lua sets −f once at
 * submission with s = max(t, 1), t the submit time since EPOCH0; with a threshold the periodic
 * script, which knows only q, p and the wait, cannot carry it. Null: not such a function. */
function fnWithSPlan(x: ExportInput): SlurmPlan | null {
  const choice = x.primary
  if (choice.kind !== 'pure' || !isFnSpec(choice.id)) return null
  const e = findPolicy(choice.id)?.expr
  if (!e || !usesVar(e, 's')) return null
  if (x.threshold !== null) return { mode: 'none', reason: 'a learned function that reads s with a threshold: the site-factor script that carries the threshold knows only CPUs, time limit and wait, not the submit time s counts' }
  return { mode: 'lua', expr: sFromEpoch(e), enc: { kind: 'log' }, approx: FN_S_EXPORT_NOTE }
}

/** s replaced by max(t, 1): t is the submit time the job_submit.lua passes, seconds since EPOCH0. */
function sFromEpoch(e: Expr): Expr {
  switch (e.k) {
    case 'num': return e
    case 'var': return e.name === 's' ? max(v('t'), num(1)) : e
    case 'neg': case 'cube': case 'sqrt': case 'log10': return { k: e.k, a: sFromEpoch(e.a) }
    case 'log2max': return { k: e.k, a: sFromEpoch(e.a), floor: e.floor }
    default: return { k: e.k, a: sFromEpoch(e.a), b: sFromEpoch(e.b) }
  }
}

export function slurmPlan(x: ExportInput): SlurmPlan {
  const fn = fnWithSPlan(x)
  if (fn) return fn
  const choice = x.primary
  const expr = policyExpr(choice)
  if (expr === null) return { mode: 'none', reason: (choice.kind === 'pure' ? notExportableReason(choice.id) : null) ?? 'no formula' }
  if (choice.kind === 'pure') {
    // Chosen from the formula's shape, so a new policy maps without an edit here.
    if (isFcfs(expr)) return { mode: 'fcfs' }
    if (x.threshold !== null || isDynamic(choice)) return { mode: 'sitefactor', expr, threshold: x.threshold }
    const e = simExpr(choice)! // static: the simulator's form (job_submit.lua knows the submit time)
    if (sameExpr(e, v('q')) || sameExpr(e, neg(v('q')))) return { mode: 'tres', perCpu: e.k === 'neg' ? -1 : 1 }
    // Time limits are whole minutes: a requested time is exact at one unit per minute.
    const minutes: Encoding = { kind: 'linear', scale: 1 / 60, offset: SF_OFFSET, max: 2 * SF_OFFSET }
    if (sameExpr(e, v('p')) || sameExpr(e, neg(v('p')))) return { mode: 'lua', expr: e, enc: minutes }
    if (sameExpr(e, v('t'))) return { mode: 'lua', expr: e, enc: { kind: 'linear', scale: 1, offset: 0, max: SF_MAX } }
    return { mode: 'lua', expr: e, enc: { kind: 'log' } } // ratios and products (LRF, SRF, LAF, SAF)
  }
  const c = mixedCoefficients(choice)
  const onlyWait = c.every((ci, i) => (i === 2 ? ci >= 0 : ci === 0))
  if (onlyWait) return { mode: 'fcfs' } // wait alone (or nothing: all ties) is FCFS
  if (x.threshold !== null || c[3] !== 0 || c[2] < 0) return { mode: 'sitefactor', expr, threshold: x.threshold }
  return linearPlan(c, x.machineProcs, maxAgeMinutes(x.longestWait))
}

/** A linear mixture (docs/POLICIES.md, "Slurm"): w → PriorityWeightAge, q → PriorityWeightTRES, p → lua. */
function linearPlan(c: number[], procs: number, maxAgeMin: number): SlurmPlan {
  const P = LIMIT_IF_UNSET_MIN * 60, Q = procs, A = maxAgeMin * 60
  const range = Math.abs(c[0]) * Q + Math.abs(c[1]) * P + Math.abs(c[2]) * A + Math.abs(c[4]) * P + Math.abs(c[5]) * P * Q
  const S = LINEAR_BUDGET / range
  const staticPart = [1, 4, 5].map((i) => ({ c: c[i], e: FEATURE_EXPRS[i] }))
  const hasLua = staticPart.some((t) => t.c !== 0)
  return {
    mode: 'linear', coef: c, maxAgeMin,
    tresPerCpu: Math.round(-c[0] * S),
    ageWeight: Math.round(c[2] * S * A),
    lua: hasLua ? linear(staticPart) : null,
    enc: { kind: 'linear', scale: S, offset: SF_OFFSET, max: SF_OFFSET + LINEAR_BUDGET },
  }
}

export const needsLua = (p: SlurmPlan): boolean => p.mode === 'lua' || p.mode === 'sitefactor' || (p.mode === 'linear' && p.lua !== null)
