// Priority formulas as a tiny typed tree, rendered into Lua, awk and PBS's Python formula
// language. Exported text is only ever built from these nodes and from numbers checked here, so
// nothing read from a log or a result file can reach generated code.

/** q = CPUs requested, p = requested time (seconds), w = wait so far (seconds),
 * t = submit time (seconds since an origin; static stand-in for −w). */
export type Var = 'q' | 'p' | 'w' | 't'

export type Expr =
  | { k: 'num'; v: number }
  | { k: 'var'; name: Var }
  | { k: 'neg'; a: Expr }
  | { k: 'add' | 'mul' | 'div'; a: Expr; b: Expr }
  | { k: 'cube'; a: Expr }
  /** max(log₂ a, floor) */
  | { k: 'log2max'; a: Expr; floor: number }

export const num = (v: number): Expr => ({ k: 'num', v })
export const v = (name: Var): Expr => ({ k: 'var', name })
export const neg = (a: Expr): Expr => ({ k: 'neg', a })
export const add = (a: Expr, b: Expr): Expr => ({ k: 'add', a, b })
export const mul = (a: Expr, b: Expr): Expr => ({ k: 'mul', a, b })
export const div = (a: Expr, b: Expr): Expr => ({ k: 'div', a, b })
export const cube = (a: Expr): Expr => ({ k: 'cube', a })
export const log2max = (a: Expr, floor: number): Expr => ({ k: 'log2max', a, floor })

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
  vars: Record<Var, string>
  cube: (a: string) => string
  /** null: the language has no logarithm (PBS's formula). */
  log2max: ((a: string, floor: string) => string) | null
}

export const LUA: Dialect = {
  vars: { q: 'q', p: 'p', w: 'w', t: 't' },
  cube: (a) => `(${a})^3`,
  log2max: (a, f) => `math.max(math.log(${a}) / math.log(2), ${f})`,
}
export const AWK: Dialect = {
  vars: { q: 'q', p: 'p', w: 'w', t: 't' },
  cube: (a) => `(${a})^3`,
  log2max: (a, f) => `max2(log(${a}) / log(2), ${f})`,
}
/** PBS job_sort_formula (Python eval: builtins such as pow and max, no math module). */
export const PBS: Dialect = {
  vars: { q: 'ncpus', p: 'walltime', w: 'eligible_time', t: '(-eligible_time)' },
  cube: (a) => `pow(${a}, 3)`,
  log2max: null,
}

/** Renders with full parentheses (readability is secondary to being unambiguous). */
export function render(e: Expr, d: Dialect): string | null {
  switch (e.k) {
    case 'num': return e.v < 0 ? `(${fmtNum(e.v)})` : fmtNum(e.v)
    case 'var': return d.vars[e.name]
    case 'neg': { const a = render(e.a, d); return a === null ? null : `(-${a})` }
    case 'cube': { const a = render(e.a, d); return a === null ? null : d.cube(a) }
    case 'log2max': {
      const a = render(e.a, d)
      return a === null || d.log2max === null ? null : d.log2max(a, fmtNum(e.floor))
    }
    default: {
      const a = render(e.a, d), b = render(e.b, d)
      if (a === null || b === null) return null
      return `(${a} ${e.k === 'add' ? '+' : e.k === 'mul' ? '*' : '/'} ${b})`
    }
  }
}

/** Evaluates (tests and the encoder's range checks). */
export function evaluate(e: Expr, x: Record<Var, number>): number {
  switch (e.k) {
    case 'num': return e.v
    case 'var': return x[e.name]
    case 'neg': return -evaluate(e.a, x)
    case 'cube': return evaluate(e.a, x) ** 3
    case 'log2max': return Math.max(Math.log(evaluate(e.a, x)) / Math.log(2), e.floor)
    case 'add': return evaluate(e.a, x) + evaluate(e.b, x)
    case 'mul': return evaluate(e.a, x) * evaluate(e.b, x)
    case 'div': return evaluate(e.a, x) / evaluate(e.b, x)
  }
}

/** True when the value depends on the wait (changes while a job is pending). */
export function usesVar(e: Expr, name: Var): boolean {
  switch (e.k) {
    case 'num': return false
    case 'var': return e.name === name
    case 'neg': case 'cube': case 'log2max': return usesVar(e.a, name)
    default: return usesVar(e.a, name) || usesVar(e.b, name)
  }
}

/** Σ cᵢ·termᵢ, skipping zero coefficients (an empty sum is 0). */
export function linear(terms: { c: number; e: Expr }[]): Expr {
  const used = terms.filter((t) => t.c !== 0)
  if (used.length === 0) return num(0)
  return used.map((t) => mul(num(t.c), t.e)).reduce((acc, x) => add(acc, x))
}
