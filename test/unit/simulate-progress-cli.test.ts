// Issue #20: `easytune simulate` on a large overloaded log shows its progress on stderr (jobs
// started of the total, the simulated date), warns about the load before it starts, and stops on
// Ctrl-C (SIGINT) with exit code 130 and "interrupted." within a few seconds. The CLI runs as a
// real process (bundled into node_modules/.cache as test/server/serve-command.test.ts does), since
// only a real process receives a signal.
import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleCli, writeOverloadedLog } from '../support/cli-bundle'

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
    const child = spawn(process.execPath, [runner, 'simulate', log, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = '', err = ''
    child.stdout.on('data', (d: Buffer) => { out += d })
    let sawProgress: () => void = () => {}
    const progress = new Promise<void>((r) => { sawProgress = r })
    child.stderr.on('data', (d: Buffer) => { err += d; if (/simulating: .* jobs started/.test(err)) sawProgress() })
    const exit = new Promise<number | null>((r) => child.on('close', (code) => { sawProgress(); r(code) }))
    try {
      await progress
      expect(err).toMatch(/^easytune: warning: The jobs ask for \d+ % of the machine .*give the real machine size with --procs\.\n/)
      // jobs started of the total, the simulated date (the log has a Unix start time), a share
      expect(err).toMatch(/simulating: [\d,]+ of 200,000 jobs started, simulated date 2001-\d\d-\d\d \d\d:\d\d UTC \(\d+\.\d%\)\n/)
      const sent = performance.now()
      child.kill('SIGINT')
      const code = await exit
      expect(code, err).toBe(130)
      expect(performance.now() - sent).toBeLessThan(3000)
      expect(err).toMatch(/interrupted\.\n$/)
      expect(out).toBe('') // no partial result on stdout
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  }, 120_000)
})
