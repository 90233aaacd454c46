// A policy's priority as a tiny typed expression tree (docs/POLICIES.md): the simulator compiles
// it once into the function it calls for every job, and the exporters render the same tree into
// Lua, awk and PBS's formula language (src/core/export/expr.ts). Higher values run first.
import type { PolicyInput, PriorityFn } from './policies'

/** The job features a formula may read. */
export type Var =
  /** q: processors requested. */
  | 'q'
  /** p̃: requested time (seconds). */
  | 'p'
  /** wait = now − submit (seconds): a formula that reads it changes while the job waits. */
  | 'w'
  /** submit time (seconds since an origin); −submit orders like the wait and does not change. */
  | 't'
  /** s = seconds since the simulated window started, at least 1 (F1–F4). */
  | 's'

/** How each feature is written for users, what it means, and whether a running cluster has it. */
export const VARS: Readonly<Record<Var, { symbol: string; meaning: string; notExportable?: string }>> = {
  q: { symbol: 'q', meaning: 'processors requested' },
  p: { symbol: 'p̃', meaning: 'requested time (seconds)' },
  w: { symbol: 'wait', meaning: 'now − submit (seconds)' },
  t: { symbol: 'submit', meaning: 'submit time (seconds)' },
  s: {
    symbol: 's', meaning: 'seconds since the simulated window started, at least 1',
    notExportable: 'its log₁₀(s) term counts seconds from the start of each simulated week; a running cluster has no such origin',
  },
}

export type Expr =
  | { k: 'num'; v: number }
  | { k: 'var'; name: Var }
  | { k: 'neg'; a: Expr }
  | { k: 'add' | 'mul' | 'div' | 'max'; a: Expr; b: Expr }
  | { k: 'cube' | 'sqrt' | 'log10'; a: Expr }
  /** max(log₂ a, floor) */
  | { k: 'log2max'; a: Expr; floor: number }

export const num = (v: number): Expr => ({ k: 'num', v })
export const v = (name: Var): Expr => ({ k: 'var', name })
export const neg = (a: Expr): Expr => ({ k: 'neg', a })
export const add = (a: Expr, b: Expr): Expr => ({ k: 'add', a, b })
export const mul = (a: Expr, b: Expr): Expr => ({ k: 'mul', a, b })
export const div = (a: Expr, b: Expr): Expr => ({ k: 'div', a, b })
export const max = (a: Expr, b: Expr): Expr => ({ k: 'max', a, b })
export const cube = (a: Expr): Expr => ({ k: 'cube', a })
export const sqrt = (a: Expr): Expr => ({ k: 'sqrt', a })
export const log10 = (a: Expr): Expr => ({ k: 'log10', a })
export const log2max = (a: Expr, floor: number): Expr => ({ k: 'log2max', a, floor })

/** Short names for declarations: q, p̃, wait, submit, s. */
export const q = v('q'), p = v('p'), w = v('w'), t = v('t'), s = v('s')

/** The features a formula reads, in declaration order of VARS. */
export function varsOf(e: Expr): Var[] {
  return (Object.keys(VARS) as Var[]).filter((name) => usesVar(e, name))
}

export function usesVar(e: Expr, name: Var): boolean {
  switch (e.k) {
    case 'num': return false
    case 'var': return e.name === name
    case 'neg': case 'cube': case 'sqrt': case 'log10': case 'log2max': return usesVar(e.a, name)
    default: return usesVar(e.a, name) || usesVar(e.b, name)
  }
}

/** Evaluates with the same operations, in the same order, as compile() (tests, range checks). A
 * feature left out of `x` reads as NaN. */
export function evaluate(e: Expr, x: { readonly [K in Var]?: number }): number {
  switch (e.k) {
    case 'num': return e.v
    case 'var': return x[e.name] ?? NaN
    case 'neg': return -evaluate(e.a, x)
    case 'cube': return Math.pow(evaluate(e.a, x), 3)
    case 'sqrt': return Math.sqrt(evaluate(e.a, x))
    case 'log10': return Math.log10(evaluate(e.a, x))
    case 'log2max': return Math.max(Math.log2(evaluate(e.a, x)), e.floor)
    case 'max': return Math.max(evaluate(e.a, x), evaluate(e.b, x))
    case 'add': return evaluate(e.a, x) + evaluate(e.b, x)
    case 'mul': return evaluate(e.a, x) * evaluate(e.b, x)
    case 'div': return evaluate(e.a, x) / evaluate(e.b, x)
  }
}

/** Σ cᵢ·termᵢ, skipping zero coefficients (an empty sum is 0). */
export function linear(terms: { c: number; e: Expr }[]): Expr {
  const used = terms.filter((x) => x.c !== 0)
  if (used.length === 0) return num(0)
  return used.map((x) => mul(num(x.c), x.e)).reduce((acc, x) => add(acc, x))
}

/** The same order at any one instant, written with the wait instead of the submit time: a
 * running cluster knows each job's wait (PBS eligible_time, Slurm's age), and −submit and wait
 * differ by `now`, the same for every job. Valid where submit enters additively (FCFS, LCFS);
 * the export tests check the order against the simulator's for every policy. */
export function withWait(e: Expr): Expr {
  switch (e.k) {
    case 'num': return e
    case 'var': return e.name === 't' ? neg(w) : e
    case 'neg': { const a = withWait(e.a); return a.k === 'neg' ? a.a : neg(a) }
    case 'cube': case 'sqrt': case 'log10': return { k: e.k, a: withWait(e.a) }
    case 'log2max': return { k: e.k, a: withWait(e.a), floor: e.floor }
    default: return { k: e.k, a: withWait(e.a), b: withWait(e.b) }
  }
}

/** Structural equality (the exporters recognise the shapes Slurm carries natively). */
export function sameExpr(a: Expr, b: Expr): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

type Fn = (c: PolicyInput, j: number, now: number) => number

/**
 * The tree as the priority function the simulator calls, built once (no allocation per job).
 * The common shapes (a feature, its negation, a ratio or product of features, the expansion
 * factor) get one dedicated closure, as fast as a hand-written function; anything else composes
 * one closure per operation, which is slower, so a declaration may carry a hand-written `fast`
 * priority instead (docs/POLICIES.md, "Adding a policy"). Every path computes exactly what
 * evaluate() computes, so schedules do not depend on the path.
 */
export function compile(e: Expr): PriorityFn {
  return compileNode(e)
}

function leaf(name: Var): Fn {
  switch (name) {
    case 'q': return (c, j) => c.procs[j]
    case 'p': return (c, j) => c.requested[j]
    case 'w': return (c, j, now) => now - c.submit[j]
    case 't': return (c, j) => c.submit[j]
    case 's': return (c, j) => Math.max(1, c.submit[j] - c.windowStart)
  }
}

function compileNode(e: Expr): Fn {
  switch (e.k) {
    case 'num': { const x = e.v; return () => x }
    case 'var': return leaf(e.name)
    case 'neg': {
      if (e.a.k === 'var') {
        switch (e.a.name) {
          case 'q': return (c, j) => -c.procs[j]
          case 'p': return (c, j) => -c.requested[j]
          case 'w': return (c, j, now) => -(now - c.submit[j])
          case 't': return (c, j) => -c.submit[j]
        }
      }
      const a = compileNode(e.a)
      return (c, j, now) => -a(c, j, now)
    }
    case 'cube': { const a = compileNode(e.a); return (c, j, now) => Math.pow(a(c, j, now), 3) }
    case 'sqrt': { const a = compileNode(e.a); return (c, j, now) => Math.sqrt(a(c, j, now)) }
    case 'log10': { const a = compileNode(e.a); return (c, j, now) => Math.log10(a(c, j, now)) }
    case 'log2max': { const a = compileNode(e.a), f = e.floor; return (c, j, now) => Math.max(Math.log2(a(c, j, now)), f) }
    case 'max': { const a = compileNode(e.a), b = compileNode(e.b); return (c, j, now) => Math.max(a(c, j, now), b(c, j, now)) }
    case 'add': {
      // (wait + p̃): the numerator of the expansion factor
      if (isVar(e.a, 'w') && isVar(e.b, 'p')) return (c, j, now) => now - c.submit[j] + c.requested[j]
      const a = compileNode(e.a), b = compileNode(e.b)
      return (c, j, now) => a(c, j, now) + b(c, j, now)
    }
    case 'mul': {
      if (isVar(e.a, 'p') && isVar(e.b, 'q')) return (c, j) => c.requested[j] * c.procs[j]
      const a = compileNode(e.a), b = compileNode(e.b)
      return (c, j, now) => a(c, j, now) * b(c, j, now)
    }
    case 'div': {
      if (isVar(e.a, 'p') && isVar(e.b, 'q')) return (c, j) => c.requested[j] / c.procs[j]
      if (e.a.k === 'add' && isVar(e.a.a, 'w') && isVar(e.a.b, 'p') && isVar(e.b, 'p')) {
        return (c, j, now) => (now - c.submit[j] + c.requested[j]) / c.requested[j]
      }
      const a = compileNode(e.a), b = compileNode(e.b)
      return (c, j, now) => a(c, j, now) / b(c, j, now)
    }
  }
}

const isVar = (e: Expr, name: Var): boolean => e.k === 'var' && e.name === name
