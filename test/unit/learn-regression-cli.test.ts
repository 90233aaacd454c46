// `easytune learn` (src/cli/commands/learn.ts; docs/CLI.md, docs/LEARN.md §Command line) on a tiny
// log written here: help, bad usage (exit 2), and the --json document end to end (trials on the
// engine pool, then the regression).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { FN_GRAMMAR } from '../../src/core/sim/fn'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'

let dir = ''
let log = ''

/** A tiny SWF log on 16 processors: `n` jobs from a seeded generator (requested ≥ runtime). */
function tinyLog(seed: number, n: number): string {
  let s = seed
  const rnd = () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648 }
  const lines = ['; MaxProcs: 16']
  let t = 0
  for (let i = 1; i <= n; i++) {
    t += Math.floor(rnd() * 120)
    const run = 10 + Math.floor(rnd() * 1500)
    const procs = 1 + Math.floor(rnd() * 16)
    const req = run * (1 + Math.floor(rnd() * 4))
    lines.push(`${i} ${t} -1 ${run} ${procs} -1 -1 ${procs} ${req} -1 1 ${1 + (i % 3)} 1 -1 -1 -1 -1 -1`)
  }
  return lines.join('\n') + '\n'
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'easytune-learn-'))
  log = join(dir, 'tiny.swf')
  writeFileSync(log, tinyLog(4242, 240))
})

describe('easytune learn', () => {
  it('has help that says a lower value runs first and gives the grammar, and is listed by easytune --help', async () => {
    const h = await runCli(['learn', '--help'])
    expect(h.code).toBe(0)
    expect(h.stdout).toMatch(/^easytune learn <log>…/)
    expect(h.stdout).toMatch(/LOWER value runs first/)
    // The grammar printed is the parser's own declaration, whole.
    expect(h.stdout).toContain(FN_GRAMMAR)
    expect(h.stdout).toMatch(/function   := log10 \| sqrt \| inv/)
    expect(h.stdout).toMatch(/--trials N/)
    expect(h.stdout).toMatch(/--tuples K/)
    expect((await runCli(['--help'])).stdout).toMatch(/learn <log>/)
  })

  it('exits 2 on bad usage, saying why', async () => {
    expect((await runCli(['learn'])).code).toBe(2)
    const zero = await runCli(['learn', log, '--trials', '0'])
    expect(zero.code).toBe(2)
    expect(zero.stderr).toMatch(/--trials/)
    expect((await runCli(['learn', log, '--tuples', 'many'])).code).toBe(2)
    expect((await runCli(['learn', log, '--seed', '-1'])).code).toBe(2)
  })

  it('writes ranked learned functions, the trials simulated in all and the convergence series', async () => {
    const out = join(dir, 'learn.json')
    const r = await runCli(['learn', log, '--trials', '300', '--tuples', '2', '--workers', '1', '--no-cache', '--json', out])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/A LOWER value runs first/)
    const doc = JSON.parse(readFileSync(out, 'utf8')) as {
      schemaVersion: number; trials: number; tuples: { trials: number }[]; convergence: { trials: number; normStd: number | null }[]
      regression: { samples: number; family: number; undefinedForms: string[] }
      functions: { position: number; id: string; kind: string; expression: string; rank: number; form: string; coefficients: { c1: number; c2: number; c3: number } }[]
    }
    expect(doc.schemaVersion).toBe(1)
    // Two tuples of at most 300 trials each; `trials` is their sum.
    expect(doc.tuples).toHaveLength(2)
    expect(doc.trials).toBe(doc.tuples[0].trials + doc.tuples[1].trials)
    expect(doc.trials).toBeLessThanOrEqual(600)
    expect(doc.convergence.length).toBeGreaterThan(0)
    // |Q| = 32 samples per tuple.
    expect(doc.regression.samples).toBe(64)
    expect(doc.regression.family).toBe(400)
    expect(doc.functions.length + doc.regression.undefinedForms.length).toBe(400)
    doc.functions.forEach((f, i) => {
      expect(f.position).toBe(i + 1)
      expect(f.kind).toBe('learned')
      expect(f.id).toMatch(/^learned:/)
      // Only the fn: grammar's pieces: numbers (an exponent e-7 too), r, n, s, + - * /, parentheses, log10, sqrt.
      expect(f.expression.replace(/log10|sqrt|\de-\d/g, '')).toMatch(/^[0-9.rns+\-*/()]+$/)
      if (i > 0) expect(f.rank).toBeGreaterThanOrEqual(doc.functions[i - 1].rank)
    })
    expect(r.stdout).toContain(`--primary 'fn:${doc.functions[0].expression}'`)
  })
})
