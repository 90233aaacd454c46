import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// The lint rule that keeps src/core pure (ARCHITECTURE.md §2) must actually fire.
describe('layering lint rule', () => {
  const eslint = new ESLint({ cwd: process.cwd() })
  const problems = async (code: string, filePath: string) =>
    (await eslint.lintText(code, { filePath }))[0].messages.map((m) => m.message)

  it('rejects Node, Electron and outer-layer imports in src/core', async () => {
    expect((await problems("import { readFileSync } from 'node:fs'\nexport const x = readFileSync\n", 'src/core/sim/x.ts')).join()).toMatch(/src\/core is pure: no Node built-ins/)
    expect((await problems("import zlib from 'zlib'\nexport const x = zlib\n", 'src/core/workload/x.ts')).join()).toMatch(/no Node built-ins/)
    expect((await problems("import { app } from 'electron'\nexport const x = app\n", 'src/core/x.ts')).join()).toMatch(/no Electron or UI/)
    expect((await problems("import { main } from '../../cli/main'\nexport const x = main\n", 'src/core/sim/x.ts')).join()).toMatch(/only from src\/core/)
    expect((await problems('export const x = process.env.HOME\n', 'src/core/sim/x.ts')).join()).toMatch(/no process access/)
  })

  it('does not mistake relative core imports for built-ins, and catches built-in subpaths', async () => {
    expect(await problems("import { Rng } from '../util/random'\nexport const x = Rng\n", 'src/core/tune/x.ts')).toEqual([])
    expect((await problems("import { readFile } from 'fs/promises'\nexport const x = readFile\n", 'src/core/tune/x.ts')).join()).toMatch(/no Node built-ins/)
  })

  it('allows them outside src/core', async () => {
    expect(await problems("import { readFileSync } from 'node:fs'\nexport const x = readFileSync\n", 'src/cli/x.ts')).toEqual([])
  })
})

// ESLint does not parse .vue files here (no Vue parser installed), so the renderer rule is checked
// on their imports directly: single-file components import only the renderer, src/shared, pure
// src/core modules and browser libraries.
describe('renderer components (.vue) import no Node, Electron or back-end code', () => {
  it('every import in src/renderer/**/*.vue is allowed', async () => {
    const { readdirSync, readFileSync } = await import('node:fs')
    const { join } = await import('node:path')
    const files: string[] = []
    const walk = (d: string): void => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(d, e.name))
        else if (e.name.endsWith('.vue')) files.push(join(d, e.name))
      }
    }
    walk('src/renderer')
    expect(files.length).toBeGreaterThan(10)
    const forbidden = /^(node:|electron|electron-store|fs|path|child_process|os|zlib|ws$)|\/(main|preload|server|engine|backend|node|cli)\//
    const bad: string[] = []
    for (const f of files) {
      for (const m of readFileSync(f, 'utf8').matchAll(/^\s*import\s[^'"]*['"]([^'"]+)['"]/gm)) {
        if (forbidden.test(m[1])) bad.push(`${f}: ${m[1]}`)
      }
    }
    expect(bad).toEqual([])
    expect(forbidden.test('node:fs') && forbidden.test('../../../engine/pool') && !forbidden.test('../../../shared/api')).toBe(true)
  })
})
