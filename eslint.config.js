// Lint: TypeScript rules plus the layering of ARCHITECTURE.md §2. src/core is the pure domain:
// it may import nothing outside src/core and no Node, Electron, Vue or DOM module, so the same
// code runs in the CLI, the engine workers and (later) the renderer.
import tseslint from 'typescript-eslint'

const nodeBuiltins = ['fs', 'path', 'zlib', 'os', 'child_process', 'worker_threads', 'http', 'https', 'net', 'url', 'stream', 'crypto', 'process', 'readline', 'events', 'util', 'buffer']

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'test-artifacts/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        // Bare built-in names are listed exactly: a pattern such as `util/*` would also match
        // relative imports like '../util/random'.
        paths: [...nodeBuiltins, 'fs/promises', 'stream/promises', 'timers/promises', 'util/types', 'path/posix', 'dns/promises', 'readline/promises']
          .map((name) => ({ name, message: 'src/core is pure: no Node built-ins (parsers take text or byte chunks).' })),
        patterns: [
          { group: ['node:*'], message: 'src/core is pure: no Node built-ins (parsers take text or byte chunks).' },
          { group: ['electron', 'electron/*', 'vue', 'pinia', 'chart.js', 'electron-store'], message: 'src/core is pure: no Electron or UI modules.' },
          { group: ['../../cli/*', '../../node/*', '../../engine/*', '../../main/*', '../../renderer/*', '../../preload/*', '../../server/*', '../cli/*', '../node/*', '../engine/*'], message: 'src/core may import only from src/core.' },
        ],
      }],
      'no-restricted-globals': ['error', { name: 'process', message: 'src/core is pure: no process access.' }, { name: 'window', message: 'no DOM in src/core' }, { name: 'document', message: 'no DOM in src/core' }, { name: 'require', message: 'ESM only' }],
    },
  },
  {
    // The renderer runs sandboxed in a browser page: no Node, no Electron, no back end code. It
    // may import src/shared (the typed API) and type-only definitions from src/core.
    files: ['src/renderer/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: nodeBuiltins.map((name) => ({ name, message: 'the renderer has no Node: talk to the back end through the typed API' })),
        patterns: [
          { group: ['node:*'], message: 'the renderer has no Node: talk to the back end through the typed API' },
          { group: ['electron', 'electron/*', 'electron-store'], message: 'the renderer has no Electron: use the preload API' },
          { group: ['**/main/*', '**/preload/*', '**/server/*', '**/engine/*', '**/backend/*', '**/node/*', '**/cli/*'], message: 'the renderer may import only src/shared and src/renderer (and types from src/core)' },
        ],
      }],
    },
  },
)
