// A learned priority function as a queue order: `fn:<expression>` in r, n, s (docs/LEARN.md §Expressions).
// A small recursive-descent parser (never eval) that builds the product's own expression tree
// (src/core/sim/formula.ts), so the simulator compiles it and the exporters render it like any
// declared policy. As in the paper, a LOWER value of the function runs first.
import { add, div, log10, max, mul, neg, num, p, q, s, sqrt, type Expr } from './formula'

/** The prefix that marks a learned function wherever a policy id is accepted. */
export const FN_PREFIX = 'fn:'
/** Longest expression accepted (characters after the prefix): the 576 forms of the family print in under 80. */
export const FN_MAX_LENGTH = 400
/** Deepest nesting accepted (parentheses, function calls and signs): bounds the parser's recursion. */
export const FN_MAX_DEPTH = 32

/** The accepted grammar, declared once: printed by `easytune learn --help` and in docs/LEARN.md §Expressions. */
export const FN_GRAMMAR = `fn:<expression>, a function f of one job; a LOWER f runs first (the policy's priority is −f)
  expression := term { ("+" | "-") term }
  term       := unary { ("*" | "/") unary }
  unary      := ("-" | "+") unary | primary
  primary    := number | variable | function "(" expression ")" | "(" expression ")"
  variable   := r   requested time, seconds, at least 1 (max(p̃, 1))
              | n   processors (cores) requested
              | s   submit time, seconds since the simulated window started, at least 1
  function   := log10 | sqrt | inv        (inv(x) = 1/x)
  number     := digits [ "." digits ] [ ("e" | "E") [ "+" | "-" ] digits ]   (finite)
  "·" and "×" are read as "*", "÷" as "/", "−" as "-"; spaces are ignored.
  Nothing else: no other names, no powers, no strings, at most ${FN_MAX_LENGTH} characters and ${FN_MAX_DEPTH} levels of nesting.`

/** A refused expression: `position` is the 0-based index in the expression (after the prefix). */
export class FnSyntaxError extends Error {
  constructor(readonly position: number, readonly reason: string) {
    super(`fn: expression, character ${position + 1}: ${reason}`)
    this.name = 'FnSyntaxError'
  }
}

/** r = max(p̃, 1): the guard F1–F4 use (docs/POLICIES.md, Guards). */
export const R_EXPR: Expr = max(p, num(1))
const VARIABLES: Readonly<Record<string, Expr>> = { r: R_EXPR, n: q, s }
const FUNCTIONS: Readonly<Record<string, (a: Expr) => Expr>> = { log10, sqrt, inv: (a) => div(num(1), a) }
const NAMES = 'the variables are r, n, s and the functions log10, sqrt, inv'

type Tok =
  | { t: 'num'; v: number; at: number }
  | { t: 'name'; v: string; at: number }
  | { t: 'op'; v: '+' | '-' | '*' | '/' | '(' | ')'; at: number }
  | { t: 'end'; at: number }

const OPS: Readonly<Record<string, '+' | '-' | '*' | '/' | '(' | ')'>> = {
  '+': '+', '-': '-', '\u2212': '-', '*': '*', '\u00b7': '*', '\u00d7': '*', '/': '/', '\u00f7': '/', '(': '(', ')': ')',
}
const NUMBER = /[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y

function tokenize(text: string): Tok[] {
  const out: Tok[] = []
  let i = 0
  while (i < text.length) {
    const c = text[i]
    if (c === ' ' || c === '\t') { i++; continue }
    NUMBER.lastIndex = i
    const m = NUMBER.exec(text)
    if (m) {
      const v = Number(m[0])
      if (!Number.isFinite(v)) throw new FnSyntaxError(i, `the number ${m[0].slice(0, 30)} is not finite`)
      out.push({ t: 'num', v, at: i })
      i += m[0].length
      continue
    }
    NAME.lastIndex = i
    const n = NAME.exec(text)
    if (n) { out.push({ t: 'name', v: n[0], at: i }); i += n[0].length; continue }
    const op = OPS[c]
    if (op) { out.push({ t: 'op', v: op, at: i }); i++; continue }
    if (c === '^') throw new FnSyntaxError(i, 'powers (^) are not in the grammar: use sqrt, or multiply')
    if (c === '.') throw new FnSyntaxError(i, 'a "." must sit between digits (property access is not in the grammar)')
    const code = c.codePointAt(0) ?? 0
    const shown = code >= 0x21 && code <= 0x7e ? `"${c}"` : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`
    throw new FnSyntaxError(i, `unexpected character ${shown}; ${NAMES}, with numbers, + - * / and parentheses`)
  }
  out.push({ t: 'end', at: text.length })
  return out
}

const describe = (k: Tok): string => (k.t === 'end' ? 'the end' : k.t === 'num' ? `the number ${k.v}` : `"${k.v}"`)

/** Parses the expression after `fn:` into f (lower runs first), or throws an FnSyntaxError. */
export function parseFn(text: string): Expr {
  if (typeof text !== 'string') throw new FnSyntaxError(0, 'the expression is not text')
  if (text.length > FN_MAX_LENGTH) throw new FnSyntaxError(FN_MAX_LENGTH, `the expression is longer than ${FN_MAX_LENGTH} characters`)
  const toks = tokenize(text)
  let k = 0
  let depth = 0
  const peek = () => toks[k]
  const enter = (at: number) => { if (++depth > FN_MAX_DEPTH) throw new FnSyntaxError(at, `nesting deeper than ${FN_MAX_DEPTH} levels`) }
  const isOp = (x: Tok, ...v: string[]) => x.t === 'op' && v.includes(x.v)

  function expression(): Expr {
    let e = term()
    while (isOp(peek(), '+', '-')) {
      const op = toks[k++] as { v: string }
      const b = term()
      e = add(e, op.v === '+' ? b : negate(b))
    }
    return e
  }
  function term(): Expr {
    let e = unary()
    while (isOp(peek(), '*', '/')) {
      const op = toks[k++] as { v: string }
      const b = unary()
      e = op.v === '*' ? mul(e, b) : div(e, b)
    }
    return e
  }
  function unary(): Expr {
    const x = peek()
    if (isOp(x, '-', '+')) {
      k++
      enter(x.at)
      const a = unary()
      depth--
      return (x as { v: string }).v === '-' ? negate(a) : a
    }
    return primary()
  }
  function inner(open: Tok): Expr {
    enter(open.at)
    const e = expression()
    depth--
    const close = peek()
    if (!isOp(close, ')')) throw new FnSyntaxError(close.at, `expected ")" to close the "(" at character ${open.at + 1}, got ${describe(close)}`)
    k++
    return e
  }
  function primary(): Expr {
    const x = toks[k++]
    if (x.t === 'num') return num(x.v)
    if (x.t === 'op' && x.v === '(') return inner(x)
    if (x.t === 'name') {
      const fn = Object.hasOwn(FUNCTIONS, x.v) ? FUNCTIONS[x.v] : undefined
      if (fn) {
        const open = peek()
        if (!isOp(open, '(')) throw new FnSyntaxError(open.at, `${x.v} is a function: write ${x.v}(…)`)
        k++
        return fn(inner(open))
      }
      const variable = Object.hasOwn(VARIABLES, x.v) ? VARIABLES[x.v] : undefined
      if (variable) {
        if (isOp(peek(), '(')) throw new FnSyntaxError(peek().at, `${x.v} is a variable, not a function`)
        return variable
      }
      if (x.v === 'log' || x.v === 'ln') throw new FnSyntaxError(x.at, `"${x.v}" is ambiguous: write log10 (the paper's log is base 10)`)
      throw new FnSyntaxError(x.at, `unknown name "${x.v.slice(0, 30)}"; ${NAMES}`)
    }
    throw new FnSyntaxError(x.at, `expected a number, a variable, a function or "(", got ${describe(x)}`)
  }

  if (toks.length === 1) throw new FnSyntaxError(0, 'the expression is empty')
  const e = expression()
  const rest = peek()
  if (rest.t !== 'end') {
    throw new FnSyntaxError(rest.at, isOp(rest, ')') ? 'a ")" without its "("' : `expected an operator (+ - * /) or the end, got ${describe(rest)}`)
  }
  return e
}

/** −a, with a number's sign folded in (so "-3" is the number −3). */
function negate(a: Expr): Expr {
  return a.k === 'num' ? num(-a.v) : neg(a)
}

/** Binding strength in the printed text (higher binds tighter). */
function prec(e: Expr): number {
  switch (e.k) {
    case 'add': return 1
    case 'mul': case 'div': return 2
    case 'neg': return 3
    case 'num': return e.v < 0 || Object.is(e.v, -0) ? 3 : 4
    default: return 4
  }
}

function numText(v: number): string {
  if (!Number.isFinite(v)) throw new Error(`internal: ${v} is not finite`)
  return Object.is(v, -0) ? '-0' : String(v)
}

/** The tree as expression text in the grammar above (compact, no spaces); parseFn gives the same
 * tree back. Throws for nodes outside the grammar (a tree not built by parseFn). */
export function printFn(e: Expr): string {
  const text = print(e)
  if (!/^[0-9a-z.+\-*/()]+$/.test(text)) throw new Error('internal: a printed fn: expression holds an unexpected character')
  return text
}

function wrap(e: Expr, min: number): string {
  return prec(e) < min ? `(${print(e)})` : print(e)
}

function print(e: Expr): string {
  switch (e.k) {
    case 'num': return numText(e.v)
    case 'var':
      if (e.name === 'q') return 'n'
      if (e.name === 's') return 's'
      throw new Error(`internal: the feature ${e.name} is not in the fn: grammar`)
    case 'max':
      if (e.a.k === 'var' && e.a.name === 'p' && e.b.k === 'num' && e.b.v === 1) return 'r'
      throw new Error('internal: max is not in the fn: grammar')
    case 'neg': return `-${wrap(e.a, 3)}`
    case 'sqrt': return `sqrt(${print(e.a)})`
    case 'log10': return `log10(${print(e.a)})`
    case 'add':
      if (e.b.k === 'neg') return `${wrap(e.a, 1)}-${wrap(e.b.a, 2)}`
      if (e.b.k === 'num' && e.b.v < 0) return `${wrap(e.a, 1)}-${numText(-e.b.v)}`
      return `${wrap(e.a, 1)}+${wrap(e.b, 2)}`
    case 'mul': return `${wrap(e.a, 2)}*${wrap(e.b, 3)}`
    case 'div': return `${wrap(e.a, 2)}/${wrap(e.b, 3)}`
    default: throw new Error(`internal: ${e.k} is not in the fn: grammar`)
  }
}

/** True for a spec meant as a learned function (`fn:` in any case). */
export function isFnSpec(spec: string): boolean {
  return spec.slice(0, FN_PREFIX.length).toLowerCase() === FN_PREFIX
}

/** The canonical spec of an expression: `fn:` and the printed tree (the policy id). */
export function fnSpec(text: string): string {
  return FN_PREFIX + printFn(parseFn(text))
}
