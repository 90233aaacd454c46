// `easytune walltimes` shows the what-if's progress on stderr and stops on Ctrl-C (SIGINT) with
// exit code 130, "interrupted." and nothing on stdout, within a few seconds. A real process (bundled
// as test/unit/simulate-progress-cli.test.ts does), since only a real process receives a signal.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleCli, interruptAtProgress, writeOverloadedLog } from '../support/cli-bundle'
import { WHATIF_SCENARIOS } from '../../src/core/predict/walltimes-whatif'

describe('easytune walltimes on a large overloaded log', () => {
  let bundleDir = ''
  let runner = ''
  let log = ''

  beforeAll(async () => {
    ({ dir: bundleDir, runner } = await bundleCli('easytune-walltimes-test-'))
    log = join(bundleDir, 'overloaded.swf')
    // about 50 times the machine (test/support/cli-bundle.ts): the queue grows without end and each what-if takes seconds
    writeOverloadedLog(log, { seed: 11, users: true, requested: (p) => p * 3 })
  }, 120_000)
  afterAll(() => { if (bundleDir) rmSync(bundleDir, { recursive: true, force: true }) })

  it('shows the what-if progress and Ctrl-C ends it with 130', async () => {
    const r = await interruptAtProgress(runner, ['walltimes', log, '--json'], new RegExp(`what-if 1 of ${WHATIF_SCENARIOS.length} .* jobs started`))
    expect(r.atProgress, r.stderr).toMatch(new RegExp(`what-if 1 of ${WHATIF_SCENARIOS.length} \\(Today's limits\\): [\\d,]+ of 200,000 jobs started \\(\\d+\\.\\d%\\)\\n`))
    expect(r.code, r.stderr).toBe(130)
    expect(r.msToExit).toBeLessThan(3000)
    expect(r.stderr).toMatch(/interrupted\.\n$/)
    expect(r.stdout).toBe('')
  }, 120_000)
})
