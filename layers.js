// The layers of src/ and who may import whom: declared ONCE here, read by eslint.config.js (which
// turns it into one `no-restricted-imports` zone per folder), by test/unit/layering.test.ts (which
// checks every import of every .ts and .vue file against it and proves each zone refuses what it
// should) and by scripts/docs-layers.mjs (which writes the table into docs/ARCHITECTURE.md).
// Plain JavaScript because eslint.config.js loads it without a TypeScript loader; types: layers.d.ts.

/**
 * Each src/<folder> is a layer. `imports`: the other layers it may import (its own folder is always
 * allowed); an entry `{ layer, typeOnly: true }` allows `import type` only. `packages`: the npm
 * packages it may import (same shape). `node`: whether Node built-ins are allowed. `globals`:
 * global names it must not use. `why`: the reason for any arrow the plain layering would not
 * suggest (written into docs/ARCHITECTURE.md).
 * @type {Record<string, import('./layers').Layer>}
 */
export const LAYERS = {
  core: {
    role: 'the domain: log parsers and cleaning, the EASY simulator, policies, the tuning protocol, export formulas',
    imports: [], packages: ['ml-levenberg-marquardt'], node: false,
    globals: ['process', 'window', 'document', 'require'],
    why: 'pure and deterministic for a seed, so the same code runs in the CLI, the engine workers and the browser; ml-levenberg-marquardt (pure JavaScript, no Node built-ins) fits the learned priorities of docs/LEARN.md',
  },
  shared: {
    role: 'the API contract between the back end and every front end (types, schemas), chart configurations',
    imports: ['core'], packages: ['zod', { name: 'chart.js', typeOnly: true }], node: false,
    globals: ['process', 'window', 'document', 'require'],
    why: 'read by the renderer and the preload, so it is as pure as core; chart.js only for the types of the chart configurations',
  },
  node: {
    role: 'Node helpers: reading log files (streams, gzip), rendering the offline report',
    imports: ['core', 'shared'], packages: [], node: true, globals: [],
    why: 'shared: the offline report draws the same chart configurations as the GUI (shared/charts.ts)',
  },
  engine: {
    role: 'the simulation worker (a utility process or worker thread) and the pool that feeds it cells',
    imports: ['core', 'node'], packages: [], node: true, globals: [],
    why: 'knows nothing of the API: it speaks its own message protocol (engine/protocol.ts)',
  },
  backend: {
    role: 'the operations behind the API (campaigns, imports, analyses, projects), one for every front end',
    imports: ['core', 'shared', 'engine', 'node'], packages: [], node: true, globals: [],
    why: '',
  },
  server: {
    role: 'browser mode: the HTTP/WebSocket transport of the API',
    imports: ['core', 'shared', 'backend', 'node'], packages: ['ws'], node: true, globals: [],
    why: '',
  },
  cli: {
    role: 'the `easytune` command line',
    imports: ['core', 'shared', 'engine', 'node', 'backend', 'server'], packages: [], node: true, globals: [],
    why: 'backend and server: `easytune serve` starts the browser mode',
  },
  main: {
    role: "Electron's main process: windows, menus, dialogs, the IPC transport of the API, settings",
    imports: ['core', 'shared', 'engine', 'node', 'backend'], packages: ['electron', 'electron-store', 'zod'], node: true, globals: [],
    why: 'engine: forks the engine workers (engine-fork.ts)',
  },
  preload: {
    role: "the bridge that exposes the API's operations to the sandboxed page",
    imports: ['shared'], packages: ['electron'], node: false, globals: [],
    why: "shared with values: the bridge is derived from the contract's declaration of the operations, which shared keeps free of Node",
  },
  renderer: {
    role: 'the Vue/Pinia GUI in a sandboxed page (Electron or a browser)',
    imports: ['core', 'shared'], packages: ['vue', 'pinia', 'chart.js', '@renderer'], node: false,
    globals: ['process', 'require'],
    why: 'core: pure modules only, which core guarantees by its own zone; `@renderer` is its own alias',
  },
}

/** The layer names, in the order of the table. */
export const LAYER_NAMES = Object.keys(LAYERS)

/** @param {string | { name?: string, layer?: string, typeOnly?: boolean }} entry */
const entryName = (entry) => typeof entry === 'string' ? entry : (entry.layer ?? entry.name)
/** @param {string | { typeOnly?: boolean }} entry */
const entryTypeOnly = (entry) => typeof entry !== 'string' && entry.typeOnly === true

/**
 * What `from` may import of `target` (a layer or a package name): 'yes', 'type' (import type
 * only) or 'no'. Node built-ins are asked with target 'node:'.
 * @param {string} from @param {string} target @param {'layer' | 'package' | 'builtin'} kind
 * @returns {'yes' | 'type' | 'no'}
 */
export function allowed(from, target, kind) {
  const layer = LAYERS[from]
  if (kind === 'builtin') return layer.node ? 'yes' : 'no'
  if (kind === 'layer' && target === from) return 'yes'
  const entry = (kind === 'layer' ? layer.imports : layer.packages).find((e) => entryName(e) === target)
  if (entry === undefined) return 'no'
  return entryTypeOnly(entry) ? 'type' : 'yes'
}

/** The table of allowed imports as Markdown (docs/ARCHITECTURE.md embeds it verbatim). */
export function layersMarkdown() {
  const show = (list) => list.length === 0 ? '—' : list.map((e) => `${entryName(e)}${entryTypeOnly(e) ? ' (types only)' : ''}`).join(', ')
  const rows = LAYER_NAMES.map((name) => {
    const l = LAYERS[name]
    return `| src/${name} | ${l.role} | ${show(l.imports)} | ${show(l.packages)} | ${l.node ? 'yes' : 'no'} | ${l.why || ''} |`
  })
  return [
    '| Layer | What it holds | May import layers | May import packages | Node built-ins | Why |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n')
}
