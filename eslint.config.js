// Lint: TypeScript rules plus one import zone per folder of src/ (docs/ARCHITECTURE.md §Layers).
// The zones are derived from the one table in layers.js; test/unit/layering.test.ts proves that
// every zone refuses what the table forbids and accepts what it allows. ESLint does not parse .vue
// files here: the same test checks their imports against the same table.
import { builtinModules } from 'node:module'
import tseslint from 'typescript-eslint'
import { LAYERS, LAYER_NAMES } from './layers.js'

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** A regex source matching a bare specifier `name` or a subpath of it (`name/...`). */
const anyOf = (names) => `(?:${names.map(escape).join('|')})(?:/.*)?`
// Every built-in, with or without `node:` (a bare `util` is the built-in, never ../util: relative
// specifiers start with a dot).
const builtins = [...new Set(builtinModules.filter((m) => !m.startsWith('_')).map((m) => m.replace(/^node:/, '')))]
const nameOf = (e) => typeof e === 'string' ? e : (e.layer ?? e.name)
const typeOnly = (e) => typeof e !== 'string' && e.typeOnly === true

/** The `@typescript-eslint/no-restricted-imports` patterns of one layer (every pattern is a regex
 *  over the import specifier, matched case-sensitively). */
function zone(name) {
  const layer = LAYERS[name]
  const allowedLayers = layer.imports.map(nameOf)
  const forbiddenLayers = LAYER_NAMES.filter((l) => l !== name && !allowedLayers.includes(l))
  const may = allowedLayers.length ? allowedLayers.join(', ') : 'nothing outside it'
  const patterns = []
  // Another layer is reached by going up: '../engine/pool' from src/cli, '../../engine/pool' from
  // src/cli/commands. No folder inside a layer carries another layer's name (the test checks it).
  if (forbiddenLayers.length) {
    patterns.push({ regex: `^(?:\\.\\./)+(?:${forbiddenLayers.join('|')})(?:/|$)`, message: `src/${name} may import only src/${name} and: ${may} (docs/ARCHITECTURE.md §Layers).` })
  }
  for (const e of layer.imports.filter(typeOnly)) {
    patterns.push({ regex: `^(?:\\.\\./)+${e.layer}(?:/|$)`, allowTypeImports: true, message: `src/${name} may import only types from src/${e.layer}.` })
  }
  if (!layer.node) {
    patterns.push({ regex: `^(?:node:.*|${anyOf(builtins)})$`, message: `src/${name} has no Node built-ins (docs/ARCHITECTURE.md §Layers).` })
  }
  const packages = layer.packages.map(nameOf)
  if (!packages.includes('electron')) {
    patterns.push({ regex: '^electron(?:/.*)?$', message: `src/${name} may not import Electron (docs/ARCHITECTURE.md §Layers).` })
  }
  for (const e of layer.packages.filter(typeOnly)) {
    patterns.push({ regex: `^${anyOf([e.name])}$`, allowTypeImports: true, message: `src/${name} may import only types from ${e.name}.` })
  }
  // Any other package: not relative, not a built-in, not electron, not one of this layer's packages.
  const known = ['electron', ...builtins, ...layer.packages.map(nameOf)]
  patterns.push({
    regex: `^(?!\\.|node:|${anyOf(known)}$)`,
    message: `src/${name} may import only these packages: ${packages.filter((p) => !typeOnly(layer.packages.find((e) => nameOf(e) === p))).join(', ') || 'none'}${layer.packages.some(typeOnly) ? ` (and types from ${layer.packages.filter(typeOnly).map(nameOf).join(', ')})` : ''} (docs/ARCHITECTURE.md §Layers).`,
  })
  return patterns.map((p) => ({ ...p, caseSensitive: true }))
}

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'test-artifacts/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  ...LAYER_NAMES.map((name) => ({
    files: [`src/${name}/**/*.ts`],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: zone(name) }],
      ...(LAYERS[name].globals.length
        ? { 'no-restricted-globals': ['error', ...LAYERS[name].globals.map((g) => ({ name: g, message: `src/${name} may not use the global ${g} (docs/ARCHITECTURE.md §Layers).` }))] }
        : {}),
    },
  })),
)
