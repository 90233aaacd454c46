// Issue #20: `easytune simulate` on a large overloaded log shows its progress on stderr (jobs
// started of the total, the simulated date), warns about the load before it starts, and stops on
// Ctrl-C (SIGINT) with exit code 130 and "interrupted." within a few seconds. The CLI runs as a
// real process (bundled into node_modules/.cache as test/server/serve-command.test.ts does), since
// only a real process receives a signal.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleCli, interruptAtProgress, writeOverloadedLog } from '../support/cli-bundle'

describe('easytune simulate on a large overloaded log', () => {
  let bundleDir = ''
  let runner = ''
  let log = ''

  beforeAll(async () => {
    ({ dir: bundleDir, runner } = await bundleCli('easytune-simulate-test-'))
    log = join(bundleDir, 'overloaded.swf')
    // about 50 times the machine (test/support/cli-bundle.ts), with a Unix start time (the simulated date)
    writeOverloadedLog(log, { seed: 7, unixStartTime: 1_000_000_000, users: false, requested: (p) => p + 600 })
  }, 120_000)
  afterAll(() => { if (bundleDir) rmSync(bundleDir, { recursive: true, force: true }) })

  it('warns about the load, shows progress on stderr, and Ctrl-C ends it with 130 within a few seconds', async () => {
    const r = await interruptAtProgress(runner, ['simulate', log, '--json'], /simulating: .* jobs started/)
    expect(r.atProgress, r.stderr).toMatch(/^easytune: warning: The jobs ask for \d+ % of the machine .*give the real machine size with --procs\.\n/)
    // jobs started of the total, the simulated date (the log has a Unix start time), a share
    expect(r.atProgress).toMatch(/simulating: [\d,]+ of 200,000 jobs started, simulated date 2001-\d\d-\d\d \d\d:\d\d UTC \(\d+\.\d%\)\n/)
    expect(r.code, r.stderr).toBe(130)
    expect(r.msToExit).toBeLessThan(3000)
    expect(r.stderr).toMatch(/interrupted\.\n$/)
    expect(r.stdout).toBe('') // no partial result on stdout
  }, 120_000)
})
