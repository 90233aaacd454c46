// `easytune export <log> --predicted-order` shows the progress of its fidelity replays on stderr
// (docs/CLI.md §Output) and stops on Ctrl-C (SIGINT) with exit code 130, "interrupted.", nothing on
// stdout and no file written, within a few seconds. A real process (bundled as
// test/unit/walltimes-interrupt.test.ts does), since only a real process receives a signal.
import { spawn } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleCli, writeOverloadedLog } from '../support/cli-bundle'
import { FIDELITY_REPLAYS } from '../../src/core/export/predicted-fidelity'

describe('easytune export --predicted-order on a large overloaded log', () => {
  let bundleDir = ''
  let runner = ''
  let log = ''

  beforeAll(async () => {
    ({ dir: bundleDir, runner } = await bundleCli('easytune-export-predicted-test-'))
    log = join(bundleDir, 'overloaded.swf')
    // about 50 times the machine (test/support/cli-bundle.ts): the queue grows without end and each replay takes seconds
    writeOverloadedLog(log, { seed: 11, users: true, requested: (p) => p * 3 })
  }, 120_000)
  afterAll(() => { if (bundleDir) rmSync(bundleDir, { recursive: true, force: true }) })

  it('shows the fidelity replays\' progress and Ctrl-C ends it with 130', async () => {
    const out = join(bundleDir, 'out')
    const child = spawn(process.execPath, [runner, 'export', log, '--predicted-order', '--out', out, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = '', err = ''
    child.stdout.on('data', (d: Buffer) => { stdout += d })
    let sawProgress: () => void = () => {}
    const progress = new Promise<void>((r) => { sawProgress = r })
    child.stderr.on('data', (d: Buffer) => { err += d; if (/fidelity replay 1 of .* jobs started/.test(err)) sawProgress() })
    const exit = new Promise<number | null>((r) => child.on('close', (code) => { sawProgress(); r(code) }))
    try {
      await progress
      expect(err).toMatch(new RegExp(`fidelity replay 1 of ${FIDELITY_REPLAYS.length} \\(today\\): [\\d,]+ of 200,000 jobs started \\(\\d+\\.\\d%\\)\\n`))
      const sent = performance.now()
      child.kill('SIGINT')
      const code = await exit
      expect(code, err).toBe(130)
      expect(performance.now() - sent).toBeLessThan(3000)
      expect(err).toMatch(/interrupted\.\n$/)
      expect(stdout).toBe('')
      expect(existsSync(out)).toBe(false)
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  }, 120_000)
})
