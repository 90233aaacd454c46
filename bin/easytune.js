#!/usr/bin/env node
// The `easytune` command. The TypeScript sources are bundled into out/cli on `npm ci`/`npm install`
// (the package's `prepare` script); this shim only loads that bundle.
import { existsSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { dirname, join } from 'node:path'

import { nodeProblem } from './node-version.js'

const tooOld = nodeProblem('easytune')
if (tooOld !== null) {
  process.stderr.write(tooOld)
  process.exit(1)
}
const bundle = join(dirname(fileURLToPath(import.meta.url)), '..', 'out', 'cli', 'easytune.js')
if (!existsSync(bundle)) {
  process.stderr.write('easytune: the command is not built yet. Run `npm run build:cli` (or `npm ci`) in the checkout.\n')
  process.exit(1)
}
const { main } = await import(pathToFileURL(bundle).href)
process.exitCode = await main(process.argv.slice(2))
