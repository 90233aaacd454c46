// electron-vite builds the desktop app's three bundles (and the engine worker) without needing
// the Electron binary: out/main (main process + engine-worker, the utilityProcess entry),
// out/preload (CommonJS: sandboxed preloads cannot be ESM), out/renderer (the Vue app, also what
// browser mode serves). docs/TOOLCHAIN.md §Build layout lists the pitfalls this avoids.
import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import vue from '@vitejs/plugin-vue'

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // The engine worker carries the regression's optimiser inside, as the CLI's worker does
      // (scripts/build-cli.mjs): it starts wherever its file is, not only beside node_modules.
      externalizeDeps: { exclude: ['ml-levenberg-marquardt'] },
      rolldownOptions: {
        input: {
          index: resolve('src/main/index.ts'),
          'engine-worker': resolve('src/engine/worker.ts'),
          // The parse thread of a big SWF log's import (src/node/parse-parallel.ts finds it beside the engine worker).
          'parse-worker': resolve('src/node/parse-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rolldownOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    resolve: { alias: { '@renderer': resolve('src/renderer/src') } },
    plugins: [vue()],
    build: {
      outDir: 'out/renderer',
      rolldownOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
})
