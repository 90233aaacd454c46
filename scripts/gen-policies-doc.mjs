// Writes docs/POLICIES.md from the policy declarations (src/core/export/catalog.ts renders it).
// test/unit/policies.test.ts fails when the committed file differs: run this after changing a
// policy. Vite (already used by the build and the tests) loads the TypeScript directly.
import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { createServer } from 'vite'

const server = await createServer({ configFile: false, logLevel: 'error', server: { middlewareMode: true, hmr: false }, appType: 'custom' })
try {
  const { policiesMarkdown } = await server.ssrLoadModule(resolve('src/core/export/catalog.ts'))
  writeFileSync(resolve('docs/POLICIES.md'), policiesMarkdown())
  console.log('wrote docs/POLICIES.md')
} finally {
  await server.close()
}
