// `npm run fuzz [-- --seed N --cases M]`: the importer fuzz test (test/fuzz) with more cases than
// `npm test` runs (default 200,000) and any seed (default: from the clock, printed so that a
// failure can be replayed with --seed).
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const args = process.argv.slice(2)
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`)
  if (i < 0) return fallback
  const v = Number(args[i + 1])
  if (!Number.isInteger(v) || v < 0) {
    process.stderr.write(`npm run fuzz: --${name} needs a whole number (got ${args[i + 1] ?? 'nothing'})\n`)
    process.exit(2)
  }
  return v
}
const seed = opt('seed', Date.now() % 2 ** 31)
const cases = opt('cases', 200_000)
process.stdout.write(`importer fuzz: seed ${seed}, ${cases} cases (replay with npm run fuzz -- --seed ${seed} --cases ${cases})\n`)
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs')
const r = spawnSync(process.execPath, [vitest, 'run', 'test/fuzz', '--testTimeout', String(Math.max(120_000, cases * 5))], {
  cwd: root, stdio: 'inherit', env: { ...process.env, FUZZ_SEED: String(seed), FUZZ_CASES: String(cases) },
})
process.exit(r.status ?? 1)
