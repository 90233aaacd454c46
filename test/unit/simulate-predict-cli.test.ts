// `easytune simulate --predictor/--correction/--backfill sjbf`, docs/PREDICTIONS.md §Scheduling with predictions:
// the hand-worked log of predict-sim.test.ts as an SWF file, through the CLI.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'

// job submit wait runtime procs cpu mem reqprocs reqtime reqmem status user group app queue partition prev think
const SWF = ['; MaxProcs: 2', ...[
  [1, 0, 10, 1000, 1], [2, 20, 300, 1000, 1], [3, 25, 100, 100, 2], [4, 26, 60, 60, 3], [5, 40, 5, 5, 4], [6, 100, 30, 30, 5],
].map(([id, submit, runtime, requested, user], i) => {
  const procs = i === 2 ? 2 : 1
  return `${id} ${submit} 0 ${runtime} ${procs} -1 -1 ${procs} ${requested} -1 1 ${user} 1 -1 -1 -1 -1 -1`
})].join('\n') + '\n'

function log(): string {
  const dir = mkdtempSync(join(tmpdir(), 'easytune-predict-cli-'))
  const path = join(dir, 'tiny.swf')
  writeFileSync(path, SWF)
  return path
}

describe('easytune simulate with predictions', () => {
  const path = log()
  it('plans with AVE₂ and corrects incrementally: the hand-worked average wait', async () => {
    // Starts 0, 20, 320, 100, 40, 160 (predict-sim.test.ts): waits 0, 0, 295, 74, 0, 60 → 429/6 s.
    const r = await runCli(['simulate', path, '--predictor', 'ave2', '--json'])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.avgWait).toBeCloseTo(429 / 6, 9)
    expect(j.config).toMatchObject({ predictor: 'ave2', correction: 'incremental', backfill: 'same' })
    expect(j.prediction.corrections).toBe(2)
    // Initial predictions 1000, 10, 100, 60, 5, 30 against runtimes 10, 300, 100, 60, 5, 30: MAE (990 + 290)/6.
    expect(j.prediction.mae).toBeCloseTo(1280 / 6, 9)
    expect(j.prediction.underShare).toBeCloseTo(1 / 6, 12)
  })

  it('the requested correction, and plain EASY without a predictor', async () => {
    const req = JSON.parse((await runCli(['simulate', path, '--predictor', 'ave2', '--correction', 'requested', '--json'])).stdout)
    expect(req.avgWait).toBeCloseTo(374 / 6, 9) // starts 0, 20, 320, 40, 100, 105
    const plain = JSON.parse((await runCli(['simulate', path, '--json'])).stdout)
    expect(plain.avgWait).toBeCloseTo(341 / 6, 9) // starts 0, 20, 320, 26, 86, 100
    expect(plain.prediction).toBeUndefined()
    expect(plain.config.predictor).toBeUndefined()
  })

  it('--backfill sjbf alone is SPF backfilling on requested times', async () => {
    const sjbf = JSON.parse((await runCli(['simulate', path, '--backfill', 'sjbf', '--json'])).stdout)
    const spf = JSON.parse((await runCli(['simulate', path, '--backfill', 'SPF', '--json'])).stdout)
    expect(sjbf.config).toMatchObject({ backfill: 'sjbf', predictor: 'requested', correction: 'none' })
    expect(sjbf.avgWait).toBe(spf.avgWait)
  })

  it('refuses in words what cannot be simulated (exit 2)', async () => {
    const none = await runCli(['simulate', path, '--predictor', 'ave2', '--correction', 'none'])
    expect(none.code).toBe(2)
    expect(none.stderr).toMatch(/--correction: the ave2 predictor needs a correction/)
    const loss = await runCli(['simulate', path, '--predictor', 'eloss:nope'])
    expect(loss.code).toBe(2)
    expect(loss.stderr).toMatch(/unknown loss "nope"; known: sq-sq-1/)
    const pred = await runCli(['simulate', path, '--predictor', 'oracle'])
    expect(pred.code).toBe(2)
    expect(pred.stderr).toMatch(/unknown predictor "oracle"/)
    const corr = await runCli(['simulate', path, '--correction', 'sometimes'])
    expect(corr.code).toBe(2)
    expect(corr.stderr).toMatch(/unknown correction "sometimes"/)
  })

  it('the help names the flags and their defaults', async () => {
    const r = await runCli(['simulate', '--help'])
    expect(r.stdout).toMatch(/--predictor requested\|clairvoyant\|ave2\|eloss\[:loss\]/)
    expect(r.stdout).toMatch(/--correction none\|requested\|incremental\|doubling/)
    expect(r.stdout).toMatch(/sjbf = shortest predicted/)
  })
})
