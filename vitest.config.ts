import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The JSON report feeds the one-line summary .ci/run prints at the end.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-artifacts/vitest-results.json' },
  },
})
