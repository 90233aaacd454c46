// Writes the table of layers.js into docs/ARCHITECTURE.md (between the `layers` markers), so the
// document shows exactly what lint enforces. test/unit/layering.test.ts fails when they differ.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { layersMarkdown } from '../layers.js'

const file = fileURLToPath(new URL('../docs/ARCHITECTURE.md', import.meta.url))
const doc = readFileSync(file, 'utf8')
const block = /(<!-- layers:begin -->\n)[\s\S]*?(<!-- layers:end -->)/
if (!block.test(doc)) throw new Error('docs/ARCHITECTURE.md has no <!-- layers:begin --> … <!-- layers:end --> block')
writeFileSync(file, doc.replace(block, (_, begin, end) => `${begin}${layersMarkdown()}\n${end}`))
