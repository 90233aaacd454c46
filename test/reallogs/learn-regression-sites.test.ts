// A function learned from a site's jobs depends on that site (issue #23): `easytune learn` on
// KTH-SP2 and on the Lublin model log (256 cores, actual runtimes as requested times, as the paper
// trained) gives different functions, and every one is labelled learned, never F1–F4.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { requireData } from '../support/data'
import { runCli } from '../support/cli'

interface Fn { id: string; kind: string; expression: string; coefficients: { c1: number; c2: number; c3: number }; simplified: { coefficient: number | null } | null }

async function learn(log: string, extra: string[]): Promise<Fn[]> {
  const out = join(mkdtempSync(join(tmpdir(), 'easytune-learn-site-')), 'learn.json')
  const r = await runCli(['learn', log, ...extra, '--trials', '20000', '--tuples', '8', '--seed', '1', '--workers', '1', '--no-cache', '--json', out])
  expect(r.code, r.stderr).toBe(0)
  return (JSON.parse(readFileSync(out, 'utf8')) as { functions: Fn[] }).functions
}

describe('learned functions depend on the site', () => {
  it('KTH-SP2 and the Lublin model give different best functions and different coefficients for the same form', async (ctx) => {
    const kth = await learn(requireData(ctx, 'swf/KTH-SP2-1996-2.1-cln.swf.gz'), [])
    const lublin = await learn(requireData(ctx, 'swf-model/lublin_256.swf'), ['--requested-fallback', 'runtime'])
    expect(kth[0].expression).not.toBe(lublin[0].expression)
    // The F1 form on both: its merged coefficient (of log10(s)) differs by more than a factor 2, or
    // its sign or simplification does.
    const f1 = (fns: Fn[]) => fns.find((f) => f.id === 'learned:log10*id+log10')!
    const [a, b] = [f1(kth), f1(lublin)]
    const ratio = a.coefficients.c3 / a.coefficients.c1 / (b.coefficients.c3 / b.coefficients.c1)
    expect(ratio > 2 || ratio < 0.5).toBe(true)
    for (const f of [...kth, ...lublin]) {
      expect(f.kind).toBe('learned')
      expect(f.id).not.toMatch(/^F[1-4]$/)
    }
  }, 120_000)
})
