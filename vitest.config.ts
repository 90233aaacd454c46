import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'
import vue from '@vitejs/plugin-vue'

// Two projects: Node for everything but the renderer, happy-dom for Vue component and store tests
// (`*.dom.test.ts`). Chart.js cannot paint in happy-dom: component tests stub the chart
// components; real painting is checked in Chromium (docs/TOOLCHAIN.md §Renderer tests).
export default defineConfig({
  plugins: [vue()],
  resolve: { alias: { '@renderer': resolve('src/renderer/src') } },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The JSON report feeds the one-line summary .ci/run prints at the end.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-artifacts/vitest-results.json' },
    projects: [
      { extends: true, test: { name: 'node', environment: 'node', include: ['test/**/*.test.ts'], exclude: ['test/**/*.dom.test.ts'], globalSetup: ['test/global-setup.ts'], server: { deps: { inline: ['electron-store'] } } } },
      { extends: true, test: { name: 'dom', environment: 'happy-dom', include: ['test/**/*.dom.test.ts'] } },
    ],
  },
})
