// `easytune export <log> --predicted-order` shows the progress of its fidelity replays on stderr
// (docs/CLI.md §Output) and stops on Ctrl-C (SIGINT) with exit code 130, "interrupted.", nothing on
// stdout and no file written, within a few seconds. A real process (bundled as
// test/unit/walltimes-interrupt.test.ts does), since only a real process receives a signal.
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleCli, interruptAtProgress, writeOverloadedLog } from '../support/cli-bundle'
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
    const r = await interruptAtProgress(runner, ['export', log, '--predicted-order', '--out', out, '--json'], /fidelity replay 1 of .* jobs started/)
    expect(r.atProgress, r.stderr).toMatch(new RegExp(`fidelity replay 1 of ${FIDELITY_REPLAYS.length} \\(today\\): [\\d,]+ of 200,000 jobs started \\(\\d+\\.\\d%\\)\\n`))
    expect(r.code, r.stderr).toBe(130)
    expect(r.msToExit).toBeLessThan(3000)
    expect(r.stderr).toMatch(/interrupted\.\n$/)
    expect(r.stdout).toBe('')
    expect(existsSync(out)).toBe(false)
  }, 120_000)
})
