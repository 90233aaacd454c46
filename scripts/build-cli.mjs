// Bundles the CLI (and the benchmark) from TypeScript into out/ with Vite's SSR build, which ships
// with Vitest anyway: no extra build tool, and `npx easytune` starts without a TS loader.
import { build } from 'vite'
import { resolve } from 'node:path'

const entries = [
  { entry: 'src/cli/main.ts', outDir: 'out/cli', name: 'easytune' },
  { entry: 'bench/bench.ts', outDir: 'out/bench', name: 'bench' },
  // The workers carry their packages (the regression's optimiser) inside: a worker runs wherever
  // its file is (a temp folder in the tests, a shard on a cluster node), not only beside node_modules.
  { entry: 'src/engine/worker.ts', outDir: 'out/engine', name: 'worker', bundleDeps: true },
  { entry: 'src/node/parse-worker.ts', outDir: 'out/parse', name: 'parse-worker', bundleDeps: true }, // found beside the bundles (src/node/parse-parallel.ts)
]
for (const e of entries) {
  await build({
    configFile: false,
    logLevel: 'warn',
    ...(e.bundleDeps ? { ssr: { noExternal: true } } : {}),
    build: {
      ssr: resolve(e.entry),
      outDir: e.outDir,
      emptyOutDir: true,
      target: 'node20',
      minify: false,
      sourcemap: true,
      rolldownOptions: { output: { entryFileNames: `${e.name}.js`, format: 'es' } },
    },
  })
}
