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
