// `easytune evaluate` and `easytune run-shard` run for minutes on a big log, often as batch jobs
// whose stderr is a file: on a pipe they print a plain progress line every few seconds (a bar only
// on a terminal, src/cli/output.ts sliceProgress), and Ctrl-C (SIGINT) still ends them with 130.
// The CLI runs as a real process, as in simulate-progress-cli.test.ts.
import { rmSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleCli, interruptAtProgress } from '../support/cli-bundle'
import { SAMPLE_LOG } from '../support/sample'

describe('easytune evaluate on a pipe', () => {
  let bundleDir = ''
  let runner = ''

  beforeAll(async () => {
    ({ dir: bundleDir, runner } = await bundleCli('easytune-evaluate-progress-test-'))
  }, 120_000)
  afterAll(() => { if (bundleDir) rmSync(bundleDir, { recursive: true, force: true }) })

  it('prints "simulating: done/total cells … (percent)" lines while the campaign runs, and Ctrl-C ends it with 130', async () => {
    // The thesis's grid on the bundled sample: about a minute of cells, interrupted at the first line.
    const r = await interruptAtProgress(runner, ['evaluate', resolve(SAMPLE_LOG), '--preset', 'ch5', '--no-cache', '--workers', '1'], /simulating: [\d,]+\/[\d,]+ cells.*\(\d+\.\d%\)\n/)
    expect(r.atProgress, r.stderr).toMatch(/^simulating: [\d,]+\/[\d,]+ cells(, .+ left)? \(\d+\.\d%\)$/m)
    expect(r.atProgress).not.toContain('\r') // no terminal redraws in a file
    expect(r.code, r.stderr).toBe(130)
    expect(r.stdout).toBe('')
  }, 180_000)
})
