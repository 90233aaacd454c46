// `easytune walltimes` shows the what-if's progress on stderr and stops on Ctrl-C (SIGINT) with
// exit code 130, "interrupted." and nothing on stdout, within a few seconds. A real process (bundled
// as test/unit/simulate-progress-cli.test.ts does), since only a real process receives a signal.
import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleCli, writeOverloadedLog } from '../support/cli-bundle'
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
    const child = spawn(process.execPath, [runner, 'walltimes', log, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = '', err = ''
    child.stdout.on('data', (d: Buffer) => { out += d })
    let sawProgress: () => void = () => {}
    const progress = new Promise<void>((r) => { sawProgress = r })
    child.stderr.on('data', (d: Buffer) => { err += d; if (new RegExp(`what-if 1 of ${WHATIF_SCENARIOS.length} .* jobs started`).test(err)) sawProgress() })
    const exit = new Promise<number | null>((r) => child.on('close', (code) => { sawProgress(); r(code) }))
    try {
      await progress
      expect(err).toMatch(new RegExp(`what-if 1 of ${WHATIF_SCENARIOS.length} \\(Today's limits\\): [\\d,]+ of 200,000 jobs started \\(\\d+\\.\\d%\\)\\n`))
      const sent = performance.now()
      child.kill('SIGINT')
      const code = await exit
      expect(code, err).toBe(130)
      expect(performance.now() - sent).toBeLessThan(3000)
      expect(err).toMatch(/interrupted\.\n$/)
      expect(out).toBe('')
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  }, 120_000)
})
