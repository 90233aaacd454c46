// The layers of src/ (docs/ARCHITECTURE.md §Layers) are declared once in layers.js. This file
// proves that (1) the lint zone of EVERY layer refuses each import the table forbids and accepts
// each one it allows, on real files dropped into the layer's folder; (2) every import of every
// .ts and .vue file under src/ obeys the table, read independently of ESLint (ESLint does not parse
// .vue here, and it does not see dynamic imports); (3) docs/ARCHITECTURE.md shows the same table
// and a picture consistent with it; (4) comments cite documents inside the repository only.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'
import { ESLint } from 'eslint'
import { afterAll, describe, expect, it } from 'vitest'
import { allowed, LAYER_NAMES, LAYERS, layersMarkdown } from '../../layers.js'

const root = resolve(__dirname, '../..')
const src = join(root, 'src')
const eslint = new ESLint({ cwd: root })
const RULES = new Set(['@typescript-eslint/no-restricted-imports', 'no-restricted-globals'])

const walk = (dir: string, keep: (f: string) => boolean, acc: string[] = []): string[] => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) walk(join(dir, e.name), keep, acc)
    else if (keep(e.name)) acc.push(join(dir, e.name))
  }
  return acc
}

/** One probe line and whether the layer's zone must refuse it. */
interface Probe { code: string; refused: boolean; what: string }

/** Every probe for one layer, derived from the table: each other layer, Node built-ins (three
 *  spellings), Electron, each listed package, a package nobody lists, and the restricted globals. */
function probes(layer: string): Probe[] {
  const out: Probe[] = []
  let n = 0
  const add = (statement: (id: string) => string, refused: boolean, what: string) => {
    const id = `p${n++}`
    out.push({ code: `${statement(id)}\nexport { ${id} }`, refused, what })
  }
  // Its own folder is always allowed, whether reached sideways or by going up and back in.
  add((id) => `import { x as ${id} } from './probe'`, false, 'its own folder')
  add((id) => `import { x as ${id} } from '../${layer}/probe'`, false, 'its own folder by name')
  for (const other of LAYER_NAMES.filter((l) => l !== layer)) {
    const rule = allowed(layer, other, 'layer')
    add((id) => `import { x as ${id} } from '../${other}/probe'`, rule !== 'yes', `value import of src/${other}`)
    add((id) => `import type { X as ${id} } from '../${other}/probe'`, rule === 'no', `type import of src/${other}`)
  }
  const noNode = allowed(layer, 'node:', 'builtin') === 'no'
  add((id) => `import { readFileSync as ${id} } from 'node:fs'`, noNode, 'node:fs')
  add((id) => `import ${id} from 'zlib'`, noNode, 'zlib')
  add((id) => `import { readFile as ${id} } from 'fs/promises'`, noNode, 'fs/promises')
  add((id) => `import { app as ${id} } from 'electron'`, allowed(layer, 'electron', 'package') === 'no', 'electron')
  add((id) => `import ${id} from 'left-pad'`, true, 'an unlisted package')
  for (const e of LAYERS[layer].packages) {
    const name = typeof e === 'string' ? e : e.name!
    const rule = allowed(layer, name, 'package')
    add((id) => `import ${id} from '${name}'`, rule !== 'yes', `value import of ${name}`)
    add((id) => `import type ${id} from '${name}/probe'`, rule === 'no', `type import of ${name}`)
  }
  for (const g of ['process', 'window', 'document', 'require']) {
    add((id) => `const ${id} = typeof ${g}`, LAYERS[layer].globals.includes(g), `the global ${g}`)
  }
  return out
}

// The probes below take their expectations from layers.js, so a wrong table would pass them. The
// invariants that make the architecture are therefore pinned here, independently of the table.
describe('layers.js keeps the invariants of the architecture', () => {
  const layersOf = (l: string) => LAYERS[l].imports.map((e) => typeof e === 'string' ? e : e.layer!)
  const packagesOf = (l: string) => LAYERS[l].packages.map((e) => typeof e === 'string' ? e : e.name!)

  it('src/core depends on nothing: no other layer, no package but the pure optimiser of the learned priorities, no Node, no process or DOM globals', () => {
    // ml-levenberg-marquardt: pure JavaScript, the fit of docs/LEARN.md §Regression.
    expect([layersOf('core'), packagesOf('core'), LAYERS.core.node]).toEqual([[], ['ml-levenberg-marquardt'], false])
    expect(LAYERS.core.globals).toEqual(expect.arrayContaining(['process', 'window', 'document', 'require']))
  })

  it('the page side (renderer, preload, shared) has no Node and reaches no back-end layer', () => {
    for (const l of ['renderer', 'preload', 'shared']) {
      expect(LAYERS[l].node, l).toBe(false)
      expect(layersOf(l).filter((x) => !['core', 'shared'].includes(x)), l).toEqual([])
    }
    expect(layersOf('preload')).toEqual(['shared'])
  })

  it('no layer imports an entry point (cli, main, preload, renderer)', () => {
    expect(LAYER_NAMES.flatMap((l) => layersOf(l).filter((x) => ['cli', 'main', 'preload', 'renderer'].includes(x)).map((x) => `${l} → ${x}`))).toEqual([])
  })

  it('only main and preload may import Electron', () => {
    expect(LAYER_NAMES.filter((l) => packagesOf(l).includes('electron'))).toEqual(['main', 'preload'])
  })

  it('no layer imports one that imports it back (the arrows form no cycle)', () => {
    const seen = new Set<string>(), done = new Set<string>()
    const cycle = (l: string): boolean => {
      if (done.has(l)) return false
      if (seen.has(l)) return true
      seen.add(l)
      const found = layersOf(l).some(cycle)
      done.add(l)
      return found
    }
    expect(LAYER_NAMES.filter(cycle)).toEqual([])
  })
})

describe('the lint zone of every layer refuses what layers.js forbids and accepts what it allows', () => {
  const written: string[] = []
  afterAll(() => { for (const f of written) rmSync(f, { force: true }) })

  for (const layer of LAYER_NAMES) {
    it(`src/${layer}`, async () => {
      const list = probes(layer)
      expect(list.some((p) => p.refused) && list.some((p) => !p.refused)).toBe(true)
      // One statement per probe, each on its own first line, so a message maps back to a probe.
      const lines: number[] = []
      let text = ''
      for (const p of list) { lines.push(text.split('\n').length); text += p.code + '\n' }
      const file = join(src, layer, `__lint-probe-${process.pid}.ts`)
      written.push(file)
      writeFileSync(file, text)
      try {
        const [result] = await eslint.lintFiles([file])
        const flagged = new Set(result.messages.filter((m) => RULES.has(m.ruleId ?? '')).map((m) => m.line))
        const wrong = list.filter((p, i) => flagged.has(lines[i]) !== p.refused)
          .map((p) => `${p.refused ? 'accepted' : 'refused'} ${p.what}`)
        expect(wrong).toEqual([])
      } finally {
        rmSync(file, { force: true })
      }
    })
  }

  it('reaches other layers from nested folders, and does not mistake own-layer paths for built-ins', async () => {
    const lint = async (code: string, filePath: string) =>
      (await eslint.lintText(code, { filePath })).flatMap((r) => r.messages).filter((m) => RULES.has(m.ruleId ?? '')).map((m) => m.message)
    expect((await lint("import { main } from '../../cli/main'\nexport { main }\n", 'src/core/sim/x.ts')).join()).toMatch(/src\/core may import only src\/core/)
    expect((await lint("import { Pool } from '../../../engine/pool'\nexport { Pool }\n", 'src/renderer/src/stores/x.ts')).join()).toMatch(/src\/renderer may import only/)
    expect(await lint("import { Rng } from '../util/random'\nexport { Rng }\n", 'src/core/tune/x.ts')).toEqual([])
    expect(await lint("import { x } from './util'\nexport { x }\n", 'src/renderer/src/x.ts')).toEqual([])
  })

  it('no folder inside a layer is named like a layer (the zones recognise layers by folder name)', () => {
    const dirs = (d: string): string[] => readdirSync(d, { withFileTypes: true }).filter((e) => e.isDirectory())
      .flatMap((e) => [join(d, e.name), ...dirs(join(d, e.name))])
    const clash = LAYER_NAMES.flatMap((l) => dirs(join(src, l))).filter((d) => LAYER_NAMES.includes(d.split('/').pop()!))
    expect(clash).toEqual([])
    expect(readdirSync(src).sort()).toEqual([...LAYER_NAMES].sort())
  })
})

// An independent reading of the imports: resolve each specifier against the file's folder and ask
// the table. This covers the .vue components and dynamic imports, which ESLint does not see here.
const builtins = new Set(builtinModules.map((m) => m.replace(/^node:/, '')))
const IMPORT = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm

/** What a file's import of `spec` reaches, and whether the table allows it ('' when it does). */
function violation(file: string, spec: string, typeOnly: boolean): string {
  const layer = relative(src, file).split('/')[0]
  let target: string, kind: 'layer' | 'package' | 'builtin'
  if (spec.startsWith('.')) {
    const to = relative(src, resolve(dirname(file), spec))
    if (to.startsWith('..')) return `${spec} leaves src/`
    target = to.split('/')[0]; kind = 'layer'
  } else if (spec.startsWith('node:') || builtins.has(spec.split('/')[0])) {
    target = spec; kind = 'builtin'
  } else {
    target = spec.startsWith('@') && !spec.startsWith('@renderer/') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]; kind = 'package'
  }
  const rule = allowed(layer, target, kind)
  return rule === 'yes' || (rule === 'type' && typeOnly) ? '' : `${spec} (${kind} ${target}${typeOnly ? ', types' : ''})`
}

function importsOf(text: string): { spec: string; typeOnly: boolean }[] {
  return [...text.matchAll(IMPORT)].map((m) => ({ spec: m[3] ?? m[4], typeOnly: m[2] !== undefined }))
}

describe('every import under src/ (.ts and .vue) obeys layers.js', () => {
  it('classifies imports as the table says (so the scan below cannot pass by accident)', () => {
    expect(violation(join(src, 'core/sim/x.ts'), '../../engine/pool', false)).toMatch(/layer engine/)
    expect(violation(join(src, 'core/sim/x.ts'), '../util/random', false)).toBe('')
    expect(violation(join(src, 'renderer/src/x.vue'), 'node:fs', false)).toMatch(/builtin/)
    expect(violation(join(src, 'shared/x.ts'), 'chart.js', false)).toMatch(/package chart.js/)
    expect(violation(join(src, 'shared/x.ts'), 'chart.js', true)).toBe('')
    expect(violation(join(src, 'preload/x.ts'), 'path', false)).toMatch(/builtin/)
    expect(violation(join(src, 'server/x.ts'), '../../test/support/x', false)).toMatch(/leaves src/)
    expect(importsOf("import type { A } from '../a'\nconst b = await import('../../b')\nexport * from './c'\n<script setup lang=\"ts\">\nimport X from './X.vue'\n"))
      .toEqual([{ spec: '../a', typeOnly: true }, { spec: '../../b', typeOnly: false }, { spec: './c', typeOnly: false }, { spec: './X.vue', typeOnly: false }])
  })

  it('no file imports across a boundary', () => {
    const files = walk(src, (f) => /\.(ts|vue)$/.test(f) && !f.startsWith('__lint-probe'))
    expect(files.filter((f) => f.endsWith('.vue')).length).toBeGreaterThan(10)
    let seen = 0
    const bad: string[] = []
    for (const f of files) {
      for (const { spec, typeOnly } of importsOf(readFileSync(f, 'utf8'))) {
        seen++
        const v = violation(f, spec, typeOnly)
        if (v) bad.push(`${relative(root, f)}: ${v}`)
      }
    }
    expect(seen).toBeGreaterThan(300)
    expect(bad).toEqual([])
  })
})

describe('docs/ARCHITECTURE.md shows the layers of layers.js', () => {
  const doc = readFileSync(join(root, 'docs/ARCHITECTURE.md'), 'utf8')
  const block = (name: string) => {
    const m = doc.match(new RegExp(`<!-- ${name}:begin -->\\n([\\s\\S]*?)\\n<!-- ${name}:end -->`))
    if (!m) throw new Error(`docs/ARCHITECTURE.md has no ${name} block`)
    return m[1]
  }

  it('the table of allowed imports is the generated one (run `node scripts/docs-layers.mjs` to update it)', () => {
    expect(block('layers')).toBe(layersMarkdown())
  })

  it('in the picture every layer appears once, and every allowed import points down', () => {
    const rows = block('diagram').split('\n')
    const rowOf = (layer: string) => {
      const hits = rows.flatMap((r, i) => (r.match(new RegExp(`\\b${layer}\\b`, 'g')) ?? []).map(() => i))
      expect(hits, `${layer} in the picture`).toHaveLength(1)
      return hits[0]
    }
    const up = LAYER_NAMES.flatMap((a) => LAYERS[a].imports.map((e) => typeof e === 'string' ? e : e.layer!)
      .filter((b) => rowOf(a) >= rowOf(b)).map((b) => `${a} → ${b}`))
    expect(up).toEqual([])
  })
})

describe('comments cite documents inside the repository', () => {
  const files = ['src', 'test', 'bench', 'scripts'].flatMap((d) => walk(join(root, d), (f) => /\.(ts|vue|mjs|js|md)$/.test(f)))
    .filter((f) => !f.endsWith('layering.test.ts'))

  it('no file cites ALGORITHMS.md or ../shared/docs', () => {
    const bad = files.filter((f) => /ALGORITHMS\.md|shared\/docs/.test(readFileSync(f, 'utf8'))).map((f) => relative(root, f))
    expect(bad).toEqual([])
  })

  const extra = walk(join(root, 'test'), (f) => f.endsWith('.sh'))
    .concat(['README.md', 'electron.vite.config.ts', 'vitest.config.ts', 'eslint.config.js', 'layers.js'].map((f) => join(root, f)))

  // Citations of documents by bare name (`SLURM.md §3.1`) pointed at notes outside the repository.
  // One bare name stays allowed, with its reason: SOURCES.md is the provenance file of the real logs
  // in ../shared/data, which the real-log tests read as data (their documented job counts).
  const PENDING: Record<string, string> = {
    'SOURCES.md': 'the provenance of the real logs in ../shared/data, read by the real-log tests as data',
  }

  it('documents are cited as docs/X.md (or README.md), not by a bare name from outside the repository', () => {
    const bad: string[] = []
    for (const f of [...files, ...extra]) {
      for (const m of readFileSync(f, 'utf8').matchAll(/(?<![\w./-])([A-Z][A-Z0-9-]*\.md)\b/g)) {
        if (m[1] === 'README.md' || m[1] === 'X.md' || PENDING[m[1]]) continue
        if (relative(root, f) === 'src/shared/validate.ts') continue // replaced by the API contract's schemas (issue #18 item 1)
        bad.push(`${relative(root, f)}: ${m[1]}`)
      }
    }
    expect(bad).toEqual([])
  })

  it('every docs/X.md cited exists, and every §section cited after it is a heading of that file', () => {
    const headings = (doc: string) => [...readFileSync(join(root, 'docs', doc), 'utf8').matchAll(/^#+\s+(.+?)\s*$/gm)].map((m) => m[1])
    const bad: string[] = []
    let cited = 0
    for (const f of [...files, ...extra]) {
      for (const m of readFileSync(f, 'utf8').matchAll(/docs\/([\w-]+\.md)((?:(?:,| and)?\s*§[^,;)§\n]+?(?=$|[,;)]| and|\s*\*\/))*)/gm)) {
        cited++
        if (!existsSync(join(root, 'docs', m[1]))) { bad.push(`${relative(root, f)}: docs/${m[1]} does not exist`); continue }
        for (const s of m[2].matchAll(/§\s*([^,§]+)/g)) {
          const want = s[1].replace(/\s+and$/, '').trim()
          if (!headings(m[1]).some((h) => want === h || (want.startsWith(h) && /^\W/.test(want.slice(h.length))))) bad.push(`${relative(root, f)}: docs/${m[1]} has no section "${want}"`)
        }
      }
    }
    expect(cited).toBeGreaterThan(20)
    expect(bad).toEqual([])
  })
})
