// electron-vite builds the desktop app's bundles without needing the Electron binary.
// Today it builds the engine worker, the entry Electron main will start with
// utilityProcess.fork (the CLI starts the same entry as a Node child process, bundled by
// scripts/build-cli.mjs). The main, preload and renderer entries join it with the desktop shell.
import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rolldownOptions: {
        input: { 'engine-worker': resolve('src/engine/worker.ts') },
      },
    },
  },
})
