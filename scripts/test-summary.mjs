// Prints the plain closing line CI reads ("tests: N passed, N failed, N skipped") from Vitest's
// JSON report, and fails if the report is missing or counts no test at all.
import { readFileSync } from 'node:fs'

const file = process.argv[2] ?? 'test-artifacts/vitest-results.json'
let r
try {
  r = JSON.parse(readFileSync(file, 'utf8'))
} catch (e) {
  console.error(`test summary: cannot read ${file}: ${e.message}`)
  process.exit(1)
}
const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0)
console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`)
process.exit(r.numTotalTests > 0 && r.numFailedTests === 0 ? 0 : 1)
