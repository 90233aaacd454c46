// Builds the CLI, the engine worker and the bench bundles into out/ once, before any test file
// runs: several suites start `bin/easytune.js` or the pool's default worker, and a build inside a
// test file would empty out/ under the feet of another file running in parallel.
import { execFileSync } from 'node:child_process'

export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build-cli.mjs'], { stdio: 'inherit' })
}
