// `easytune evaluate` end to end on the bundled log, small settings: the result document, the
// risk limit, the cache and the worker count.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'
import { SAMPLE, SAMPLE_LOG } from '../support/sample'

const KTH = SAMPLE_LOG
const SMALL = ['--weeks', '4', '--preset', 'ch6', '--thresholds', 'none,20h', '--seed', '3']
let dir: string

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'easytune-eval-'))
})

describe('easytune evaluate', () => {
  it('writes a versioned result with a recommendation, both parts and the calibration', async () => {
    const r = await runCli(['evaluate', KTH, ...SMALL, '--no-cache', '--json'])
    expect(r.code, r.stderr).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.schemaVersion).toBe(1)
    expect(j.kind).toBe('easytune-evaluation')
    expect(j.log.sha256).toBe('3e152f201fd2e96808a735bced6ea6eb0bb07fdc447689cafb0750d87b264c0b')
    expect(j.log.maxRequestedSeconds).toBe(216_000) // the largest requested time (SWF field 9) in the log: 60 h, for bf_window
    expect(j.protocol.cells).toBe(2 * (1 + 11 * 2))
    expect(j.candidates.length).toBe(1 + 11 * 2)
    expect(j.candidates[0]).toMatchObject({ baseline: true, label: 'EASY-FCFS' })
    expect(j.candidates[0].train.gain).toBe(0)
    expect(j.protocol.resample).toMatchObject({ method: 'user-weeks', weeks: 4, seed: 3, trainSamples: 4, testSamples: 4 })
    expect(j.protocol.split.train.jobs + j.protocol.split.test.jobs).toBe(SAMPLE.jobsKept)
    const rec = j.candidates[j.recommended]
    expect(j.ranking[0]).toBe(j.bestOnTrain)
    expect(rec.train.mean).toBe(Math.min(...j.candidates.map((c: { train: { mean: number } }) => c.train.mean)))
    expect(j.recommendation.sentence).toMatch(/cut the average wait on the test months by|did not help|Keep EASY-FCFS/)
    expect(j.calibration.jobs).toBe(SAMPLE.jobsKept)
    expect(j.weekly[0].train.length).toBe(4)
  })

  it('respects the risk limit on the longest wait', async () => {
    const r = JSON.parse((await runCli(['evaluate', KTH, ...SMALL, '--no-cache', '--max-wait-ratio', '1.1', '--json'])).stdout)
    const rec = r.candidates[r.recommended]
    expect(rec.baseline || rec.train.maxMaxWaitRatio <= 1.1).toBe(true)
    for (const c of r.candidates) expect(c.admissible).toBe(c.baseline || c.train.maxMaxWaitRatio <= 1.1)
    expect(r.candidates.some((c: { admissible: boolean }) => !c.admissible)).toBe(true)
  })

  it('re-runs from the cache, computes only new thresholds, and gives the same bytes on 2 workers', async () => {
    const cache = join(dir, 'cache')
    const first = await runCli(['evaluate', KTH, ...SMALL, '--cache-dir', cache, '--workers', '1', '--json', join(dir, 'a.json')])
    expect(first.stderr).toMatch(/evaluated 46 cells \(0 from the cache\)/)
    const again = await runCli(['evaluate', KTH, ...SMALL, '--cache-dir', cache, '--workers', '2', '--json', join(dir, 'b.json')])
    expect(again.stderr).toMatch(/evaluated 46 cells \(46 from the cache\)/)
    expect(readFileSync(join(dir, 'b.json'), 'utf8')).toBe(readFileSync(join(dir, 'a.json'), 'utf8'))
    const more = await runCli(['evaluate', KTH, ...SMALL.slice(0, 4), '--thresholds', 'none,20h,40h', '--seed', '3', '--cache-dir', cache, '--json', join(dir, 'c.json')])
    expect(more.stderr).toMatch(/evaluated 68 cells \(46 from the cache\)/)
    const fresh = await runCli(['evaluate', KTH, ...SMALL, '--no-cache', '--workers', '2', '--json', join(dir, 'd.json')])
    expect(fresh.code).toBe(0)
    expect(readFileSync(join(dir, 'd.json'), 'utf8')).toBe(readFileSync(join(dir, 'a.json'), 'utf8'))
  })

  it('answers bad options in plain words (exit 2)', async () => {
    expect((await runCli(['evaluate', KTH, '--split', '1.5'])).stderr).toMatch(/--split fraction must be strictly between 0 and 1/)
    expect((await runCli(['evaluate', KTH, '--preset', 'ch5', '--primaries', 'SPF'])).stderr).toMatch(/either --preset or --primaries/)
    expect((await runCli(['evaluate', KTH, '--primaries', 'SPF,NOPE'])).stderr).toMatch(/unknown policy "NOPE"/)
    expect((await runCli(['evaluate', KTH, '--primaries', 'mixed:1/2'])).stderr).toMatch(/6 numbers/)
    expect((await runCli(['evaluate', KTH, '--thresholds', 'soon'])).code).toBe(2)
    expect((await runCli(['evaluate', KTH, '--split', '2030-01-01'])).stderr).toMatch(/2030-01-01/)
  })
})
