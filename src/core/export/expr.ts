// Priority formulas as a tiny typed tree, rendered into Lua, awk and PBS's Python formula
// language. Exported text is only ever built from these nodes and from numbers checked here, so
// nothing read from a log or a result file can reach generated code.

import type { Expr, Var } from '../sim/formula'

// The tree is declared with the policies (src/core/sim/formula.ts); this module renders it.
export { add, cube, div, evaluate, linear, log2max, max, mul, neg, num, usesVar, v, type Expr, type Var } from '../sim/formula'

/** A number as source text: finite only, plain digits/exponent, never anything else. */
export function fmtNum(x: number): string {
  if (typeof x !== 'number' || !Number.isFinite(x)) throw new Error(`internal: cannot write ${String(x)} as a number`)
  const s = Number.isInteger(x) && Math.abs(x) < 1e21 ? x.toFixed(0) : String(Number(x.toPrecision(15)))
  if (!/^-?\d+(\.\d+)?(e[+-]\d+)?$/.test(s)) throw new Error(`internal: unexpected number text ${s}`)
  return s
}

/** An integer within ±limit as text (config values, Lua constants). */
export function fmtInt(x: number, limit = 2 ** 31 - 3): string {
  if (!Number.isSafeInteger(x) || Math.abs(x) > limit) throw new Error(`internal: ${String(x)} is not an integer within ±${limit}`)
  return fmtNum(x)
}

export interface Dialect {
  /** null: a running cluster has no such value (s, the seconds since a simulated window began). */
  vars: Record<Var, string | null>
  cube: (a: string) => string
  sqrt: (a: string) => string
  max: (a: string, b: string) => string
  /** null: the language has no logarithm (PBS's formula). */
  log2max: ((a: string, floor: string) => string) | null
  log10: ((a: string) => string) | null
}

export const LUA: Dialect = {
  vars: { q: 'q', p: 'p', w: 'w', t: 't', s: null },
  cube: (a) => `(${a})^3`,
  sqrt: (a) => `math.sqrt(${a})`,
  max: (a, b) => `math.max(${a}, ${b})`,
  log2max: (a, f) => `math.max(math.log(${a}) / math.log(2), ${f})`,
  log10: (a) => `(math.log(${a}) / math.log(10))`,
}
/** The site-factor script's awk (it defines max2). */
export const AWK: Dialect = {
  vars: { q: 'q', p: 'p', w: 'w', t: 't', s: null },
  cube: (a) => `(${a})^3`,
  sqrt: (a) => `sqrt(${a})`,
  max: (a, b) => `max2(${a}, ${b})`,
  log2max: (a, f) => `max2(log(${a}) / log(2), ${f})`,
  log10: (a) => `(log(${a}) / log(10))`,
}
/** PBS job_sort_formula (Python eval: builtins such as pow and max, no math module). */
export const PBS: Dialect = {
  vars: { q: 'ncpus', p: 'walltime', w: 'eligible_time', t: '(-eligible_time)', s: null },
  cube: (a) => `pow(${a}, 3)`,
  sqrt: (a) => `pow(${a}, 0.5)`,
  max: (a, b) => `max(${a}, ${b})`,
  log2max: null,
  log10: null,
}

/** Renders with full parentheses (readability is secondary to being unambiguous); null when the
 * dialect cannot express a node or a feature. */
export function render(e: Expr, d: Dialect): string | null {
  switch (e.k) {
    case 'num': return e.v < 0 ? `(${fmtNum(e.v)})` : fmtNum(e.v)
    case 'var': return d.vars[e.name]
    case 'neg': { const a = render(e.a, d); return a === null ? null : `(-${a})` }
    case 'cube': { const a = render(e.a, d); return a === null ? null : d.cube(a) }
    case 'sqrt': { const a = render(e.a, d); return a === null ? null : d.sqrt(a) }
    case 'log10': { const a = render(e.a, d); return a === null || d.log10 === null ? null : d.log10(a) }
    case 'log2max': {
      const a = render(e.a, d)
      return a === null || d.log2max === null ? null : d.log2max(a, fmtNum(e.floor))
    }
    case 'max': { const a = render(e.a, d), b = render(e.b, d); return a === null || b === null ? null : d.max(a, b) }
    default: {
      const a = render(e.a, d), b = render(e.b, d)
      if (a === null || b === null) return null
      return `(${a} ${e.k === 'add' ? '+' : e.k === 'mul' ? '*' : '/'} ${b})`
    }
  }
}
