// Learned functions as queue orders (docs/LEARN.md §Expressions): the fn: parser accepts exactly
// arithmetic in r, n, s and refuses everything else with the position; the order runs the LOWER
// value first; an fn: equal to F1's formula schedules KTH exactly as F1.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { evaluate, type Expr } from '../../src/core/sim/formula'
import { fnSpec, FnSyntaxError, FN_GRAMMAR, FN_MAX_DEPTH, FN_MAX_LENGTH, parseFn, printFn } from '../../src/core/sim/fn'
import { findPolicy, fnPolicy, resolvePolicy } from '../../src/core/sim/policies'
import { simulate } from '../../src/core/sim/easy'
import type { SimJobs } from '../../src/core/sim/types'
import { readLog } from '../../src/node/read-log'
import { SAMPLE, SAMPLE_LOG } from '../support/sample'

/** f at r (requested, before the guard), n, s (already ≥ 1). */
const at = (text: string, pt: number, n: number, s: number) => evaluate(parseFn(text), { p: pt, q: n, s })

function refused(text: string): FnSyntaxError {
  try { parseFn(text) } catch (e) { if (e instanceof FnSyntaxError) return e; throw e }
  throw new Error(`"${text}" was accepted`)
}

describe('the fn: parser accepts arithmetic in r, n, s', () => {
  it('values worked by hand', () => {
    expect(at('r', 100, 4, 10)).toBe(100)
    expect(at('r', 0.5, 4, 10)).toBe(1) // r = max(p̃, 1)
    expect(at('n', 100, 4, 10)).toBe(4)
    expect(at('s', 100, 4, 10)).toBe(10)
    expect(at('2 + 3 * 4', 1, 1, 1)).toBe(14)
    expect(at('(2 + 3) * 4', 1, 1, 1)).toBe(20)
    expect(at('10 - 4 - 3', 1, 1, 1)).toBe(3) // left-associative
    expect(at('24 / 4 / 2', 1, 1, 1)).toBe(3)
    expect(at('-2 * -3', 1, 1, 1)).toBe(6)
    expect(at('--n', 1, 5, 1)).toBe(5)
    expect(at('+n', 1, 5, 1)).toBe(5)
    expect(at('log10(r) * n + 870 * log10(s)', 1000, 4, 100)).toBe(3 * 4 + 870 * 2)
    expect(at('sqrt(r) · n', 400, 3, 1)).toBe(60)
    expect(at('inv(n)', 1, 8, 1)).toBe(0.125)
    expect(at('r × n ÷ 4 − 1', 10, 2, 1)).toBe(4)
    expect(at('1.5e3 + 2E-1 + 1e+2', 1, 1, 1)).toBeCloseTo(1600.2, 10)
    expect(at('  r\t', 7, 1, 1)).toBe(7)
  })
  it('r is max(p̃, 1), n the processors, s the guarded submit time: the same tree as F1–F4', () => {
    const f1 = findPolicy('F1')!
    expect(f1.expr).toEqual({ k: 'neg', a: parseFn('log10(r)*n + 870*log10(s)') })
    expect(findPolicy('F4')!.expr).toEqual({ k: 'neg', a: parseFn('r*sqrt(n) + 5.3e5*log10(s)') })
  })
  it('the grammar text names every variable and function', () => {
    for (const word of ['r ', 'n ', 's ', 'log10', 'sqrt', 'inv', 'LOWER', String(FN_MAX_LENGTH), String(FN_MAX_DEPTH)]) expect(FN_GRAMMAR).toContain(word)
  })
})

describe('the fn: parser refuses anything else, naming the position', () => {
  const cases: [string, number, RegExp][] = [
    ['', 1, /empty/],
    ['r + x', 5, /unknown name "x"/],
    ['R', 1, /unknown name "R"/],
    ['process', 1, /unknown name "process"/],
    ['constructor', 1, /unknown name/],
    ['__proto__', 1, /unknown name/],
    ['toString(r)', 1, /unknown name/],
    ['Math.log(r)', 5, /property access/],
    ['r.x', 2, /property access/],
    ['eval(r)', 1, /unknown name/],
    ['log(r)', 1, /log10/],
    ['ln(r)', 1, /log10/],
    ['r ^ 2', 3, /powers/],
    ['"r"', 1, /unexpected character/],
    ["'r'", 1, /unexpected character/],
    ['`r`', 1, /unexpected character/],
    ['r; n', 2, /unexpected character/],
    ['r, n', 2, /unexpected character/],
    ['r[0]', 2, /unexpected character/],
    ['r\nn', 2, /U\+000A/],
    ['r(2)', 2, /variable, not a function/],
    ['sqrt r', 6, /function/],
    ['sqrt()', 6, /expected a number/],
    ['(r + n', 7, /expected "\)" to close the "\(" at character 1/],
    ['r + n)', 6, /without its/],
    ['r n', 3, /expected an operator/],
    ['2r', 2, /expected an operator/],
    ['r +', 4, /expected a number/],
    ['* r', 1, /expected a number/],
    ['1e999', 1, /not finite/],
    ['Infinity', 1, /unknown name/],
    ['NaN', 1, /unknown name/],
    ['.5', 1, /between digits/],
    ['1.', 2, /between digits/],
    ['0x10', 2, /expected an operator/],
  ]
  for (const [text, column, why] of cases) {
    it(JSON.stringify(text), () => {
      const e = refused(text)
      expect(e.position + 1).toBe(column)
      expect(e.message).toMatch(new RegExp(`^fn: expression, character ${column}: `))
      expect(e.message).toMatch(why)
    })
  }
  it('too long and too deep', () => {
    expect(refused('r+'.repeat(FN_MAX_LENGTH / 2) + 'r').message).toMatch(new RegExp(`longer than ${FN_MAX_LENGTH}`))
    expect(() => parseFn('r+'.repeat(FN_MAX_LENGTH / 2 - 1) + 'r')).not.toThrow()
    const deep = (d: number) => '('.repeat(d) + 'r' + ')'.repeat(d)
    expect(() => parseFn(deep(FN_MAX_DEPTH))).not.toThrow()
    expect(refused(deep(FN_MAX_DEPTH + 1)).position).toBe(FN_MAX_DEPTH)
    expect(refused('-'.repeat(FN_MAX_DEPTH + 1) + 'r').message).toMatch(/nesting/)
    expect(refused('sqrt('.repeat(FN_MAX_DEPTH + 1) + 'r' + ')'.repeat(FN_MAX_DEPTH + 1)).message).toMatch(/nesting/)
  })
  it('random text never crashes the parser: it parses or throws an FnSyntaxError', () => {
    fc.assert(fc.property(fc.string({ maxLength: 60, unit: fc.constantFrom(...'rns0123456789.eE+-*/^() ·logsqrtinv10x,"\'_$[]{};\n'.split('')) }), (t) => {
      try { parseFn(t) } catch (e) { expect(e).toBeInstanceOf(FnSyntaxError) }
    }), { numRuns: 3000 })
  })
})

/** Random trees in the parser's image (as the parser builds them). */
const leaf = fc.oneof(
  fc.constantFrom('r', 'n', 's'),
  fc.double({ min: 0, max: 1e25, noNaN: true, noDefaultInfinity: true }).map((x) => String(x)),
)
const tree: fc.Arbitrary<string> = fc.letrec<{ t: string }>((tie) => ({
  t: fc.oneof({ depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.tuple(tie('t'), fc.constantFrom('+', '-', '*', '/'), tie('t')).map(([a, o, b]) => `(${a})${o}(${b})`),
    fc.tuple(fc.constantFrom('-', 'log10', 'sqrt', 'inv'), tie('t')).map(([f, a]) => (f === '-' ? `-(${a})` : `${f}(${a})`)),
  ),
})).t

describe('round trip: parse → print → parse gives the same tree', () => {
  it('hand-picked', () => {
    for (const t of ['r', 'log10(r)*n+870*log10(s)', 'a', 'r-(n-s)', '(r-n)-s', 'r/(n*s)', 'r/n*s', '-(r*n)', '-r*n', 'r--3', 'r - -3', 'r-3', '-0', 'r+-0', '1e21*r', 'inv(inv(n))', '--n', 'r*-n']) {
      if (t === 'a') continue
      const e = parseFn(t)
      expect(parseFn(printFn(e)), t).toEqual(e)
    }
    expect(printFn(parseFn('log10( r ) · n + 8.70e2 · log10(s)'))).toBe('log10(r)*n+870*log10(s)')
    expect(printFn(parseFn('r - (n - s)'))).toBe('r-(n-s)')
    expect(printFn(parseFn('(r - n) - s'))).toBe('r-n-s')
    expect(printFn(parseFn('r - 3'))).toBe('r-3')
  })
  it('random trees', () => {
    fc.assert(fc.property(tree, (t) => {
      if (t.length > FN_MAX_LENGTH) return
      let e: Expr
      try { e = parseFn(t) } catch (err) { expect((err as Error).message).toMatch(/nesting/); return }
      const printed = printFn(e)
      expect(printed).toMatch(/^[0-9a-z.+\-*/()]+$/)
      expect(parseFn(printed)).toEqual(e)
      expect(printFn(parseFn(printed))).toBe(printed)
    }), { numRuns: 2000 })
  })
})

describe('an fn: order is a policy: lower f runs first', () => {
  it('its id is the canonical spec, whatever was typed; findPolicy and resolvePolicy accept it', () => {
    const a = resolvePolicy('fn: log10(r) · n + 870·log10(s)')
    expect(a.id).toBe('fn:log10(r)*n+870*log10(s)')
    expect(findPolicy('FN:log10(r)*n + 870*log10(s)')!.id).toBe(a.id)
    expect(fnSpec(' sqrt( r )*n ')).toBe('fn:sqrt(r)*n')
    expect(a.dynamic).toBe(false)
    expect(a.features).toEqual(['q', 'p', 's'])
    expect(a.formula).toMatch(/lower f runs first/)
    expect(findPolicy('fn:r+x')).toBeUndefined()
    expect(() => resolvePolicy('fn:r+x')).toThrow(/character 3: unknown name "x"/)
    expect(() => resolvePolicy('nope')).toThrow(/fn:<expression>/)
  })
  it('priority is −f, and a value that is not a number runs last', () => {
    const pol = fnPolicy('fn:sqrt(n - 4)')
    const input = { submit: new Float64Array([0, 0]), requested: new Float64Array([10, 10]), procs: new Int32Array([13, 2]), windowStart: 0 }
    expect(pol.priority(input, 0, 0)).toBe(-3)
    expect(pol.priority(input, 1, 0)).toBe(-Infinity) // √(−2) is NaN: f = +∞
  })

  it('on random trees and random jobs, the priority is exactly −f (NaN read as f = +∞)', () => {
    const n = 50
    const submit = Float64Array.from({ length: n }, (_, j) => 1000 + j * 3607)
    const requested = Float64Array.from({ length: n }, (_, j) => (j === 0 ? 0.5 : 1 + ((j * 7919) % 90_000)))
    const procs = Int32Array.from({ length: n }, (_, j) => 1 + ((j * 37) % 128))
    const input = { submit, requested, procs, windowStart: 1000 }
    fc.assert(fc.property(tree, (t) => {
      if (t.length > FN_MAX_LENGTH) return
      let pol
      try { pol = fnPolicy('fn:' + t) } catch { return }
      const f = parseFn(t)
      for (let j = 0; j < n; j++) {
        // by hand: r = max(p̃, 1), s = max(1, submit − windowStart)
        const x = evaluate(f, { p: requested[j], q: procs[j], s: Math.max(1, submit[j] - 1000) })
        const want = Number.isNaN(x) ? -Infinity : -x
        expect(Object.is(pol.priority(input, j, 0), want) || pol.priority(input, j, 0) === want).toBe(true)
      }
    }), { numRuns: 300 })
  })

  // m = 2 processors. Job 0 (submit 0, 100 s, 2 procs) fills the machine; jobs 1, 2, 3 arrive at
  // 1, 2, 3 s asking 300, 200 and 100 s on 2 processors (runtime = requested), so nothing can
  // backfill and the queue order alone decides. At t = 100 the queue holds 1, 2, 3.
  const jobs: SimJobs = {
    count: 4,
    submit: new Float64Array([0, 1, 2, 3]),
    runtime: new Float64Array([100, 300, 200, 100]),
    requested: new Float64Array([100, 300, 200, 100]),
    procs: new Int32Array([2, 2, 2, 2]),
  }
  const run = (primary: string) => Array.from(simulate(jobs, 2, { primary, backfill: 'same', threshold: null }))
  it('fn:r runs the shortest request first (3 at 100, 2 at 200, 1 at 400)', () => {
    expect(run('fn:r')).toEqual([0, 400, 200, 100])
  })
  it('fn:-r runs the longest request first (1 at 100, 2 at 400, 3 at 600)', () => {
    expect(run('fn:-r')).toEqual([0, 100, 400, 600])
  })
  it('fn:s runs the earliest submit first (FCFS: 1 at 100, 2 at 400, 3 at 600)', () => {
    expect(run('fn:s')).toEqual([0, 100, 400, 600])
  })
  it('fn:inv(r) runs the largest r first, as the lower 1/r', () => {
    expect(run('fn:inv(r)')).toEqual([0, 100, 400, 600])
  })

  it('an fn: equal to F1 gives F1\'s schedule exactly on KTH-SP2', async () => {
    const w = await readLog(SAMPLE_LOG, {})
    const f1 = simulate(w.jobs, w.machineProcs, { primary: 'F1', backfill: 'same', threshold: null })
    const fn = simulate(w.jobs, w.machineProcs, { primary: 'fn:log10(r)*n + 870*log10(s)', backfill: 'same', threshold: null })
    expect(fn.length).toBe(SAMPLE.jobsKept)
    expect(Array.from(fn)).toEqual(Array.from(f1))
    // and a different function gives a different schedule (the test can fail)
    const other = simulate(w.jobs, w.machineProcs, { primary: 'fn:log10(r)*n + 87*log10(s)', backfill: 'same', threshold: null })
    expect(Array.from(other)).not.toEqual(Array.from(f1))
  }, 60_000)
})
