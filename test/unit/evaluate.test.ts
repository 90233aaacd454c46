// `easytune evaluate` end to end on the bundled log, small settings: the result document, the
// risk limit, the cache and the worker count.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
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
  it('a recommendation that differs from EASY-FCFS in its backfill order alone deploys as EASY-FCFS: gain 0 as deployed, keep', async () => {
    // FCFS then SPF for backfilling is the only candidate, with no risk limit and no minimum gain,
    // so it is recommended on the idealised figures; Slurm backfills in its priority order, so what
    // deploys is FCFS itself: the deployable gain is exactly 0 (docs/CLUSTER.md §As deployed).
    const r = await runCli(['evaluate', KTH, '--primaries', 'FCFS', '--backfills', 'SPF', '--thresholds', 'none', '--max-wait-ratio', 'none', '--min-gain', '0', '--weeks', '4', '--seed', '3', '--no-cache', '--json'])
    expect(r.code, r.stderr).toBe(0)
    const j = JSON.parse(r.stdout)
    const a = j.recommendation.asDeployed
    expect(a.label).toBe('EASY-FCFS-SPF Θ=none')
    expect(a.train.real).toMatchObject({ gain: 0, ci: [0, 0] })
    expect(a.test.real).toMatchObject({ gain: 0, ci: [0, 0] })
    expect(j.recommendation.verdict).toBe('keep')
    expect(j.recommended).toBe(0)
  }, 120_000)

  it('writes a versioned result with a recommendation, both parts and the calibration', async () => {
    const r = await runCli(['evaluate', KTH, ...SMALL, '--no-cache', '--json'])
    expect(r.code, r.stderr).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.schemaVersion).toBe(3)
    expect(j.kind).toBe('easytune-evaluation')
    // An SWF log without a machine file: the research's single pool (docs/CLUSTER.md §Inputs).
    expect(j.machine).toMatchObject({ kind: 'pool', scheduler: 'easy', cpus: 100, conf: null })
    // The recommendation (or the baseline, for keep) as deployed on Slurm: its processors as
    // one-CPU nodes under Slurm's scheduling, gains against the baseline as deployed.
    expect(j.recommendation.asDeployed).toMatchObject({ same: false })
    expect(j.recommendation.asDeployed.train.real.weeks).toBeGreaterThan(0)
    expect(j.log.sha256).toBe('3e152f201fd2e96808a735bced6ea6eb0bb07fdc447689cafb0750d87b264c0b')
    expect(j.log.maxRequestedSeconds).toBe(216_000) // the largest requested time (SWF field 9) in the log: 60 h, for bf_window
    // Resampled and real-week cells: 2 kinds × 2 parts × (baseline + 11 × 2 thresholds).
    expect(j.protocol.cells).toBe(2 * 2 * (1 + 11 * 2))
    expect(j.candidates.length).toBe(1 + 11 * 2)
    expect(j.candidates[0]).toMatchObject({ baseline: true, label: 'EASY-FCFS' })
    expect(j.candidates[0].train.gain).toBe(0)
    expect(j.protocol.resample).toMatchObject({ method: 'user-weeks', weeks: 4, seed: 3, trainSamples: 4, testSamples: 4 })
    expect(j.protocol.split.train.jobs + j.protocol.split.test.jobs).toBe(SAMPLE.jobsKept)
    expect(j.ranking[0]).toBe(j.bestOnTrain)
    expect(j.protocol).toMatchObject({ minGain: 0.05, confidence: 0.95, minWeeks: 8, minJobs: 1000, criterion: 'ratio-of-means', risk: { maxWaitRatio: 1.5 } })
    // The real weeks: every full week of the part, and its trailing partial week when it has one.
    expect(j.protocol.statistics.replicates).toBe(2000)
    for (const part of ['train', 'test'] as const) {
      const full = j.protocol.resample[`${part}OriginalWeeks`]
      expect(j.protocol.statistics[`${part}Weeks`]).toBeGreaterThanOrEqual(full)
      expect(j.protocol.statistics[`${part}Weeks`]).toBeLessThanOrEqual(full + 1)
    }
    expect(['switch', 'keep']).toContain(j.recommendation.verdict)
    expect(j.recommendation.reason.length).toBeGreaterThan(10)
    const rec = j.candidates[j.recommended]
    if (j.recommendation.verdict === 'keep') expect(j.recommended).toBe(0)
    else expect(rec.train.real.gain).toBeGreaterThanOrEqual(0.05)
    expect(j.recommendation.export).toMatchObject({ target: 'slurm' })
    expect(j.recommendation.sentence).toMatch(/^(Switch to|Keep EASY-FCFS)/)
    expect(j.recommendation.sentence).toMatch(/real train weeks/)
    expect(j.recommendation.sentence).toMatch(/recorded waits/)
    // The tables' intervals are on the real weeks: their count, not --weeks.
    expect(j.candidates[1].train.real.weeks).toBe(j.protocol.statistics.trainWeeks) // every real week, the trailing partial one included
    expect(j.candidates[1].train.gainCi).toEqual(j.candidates[1].train.real.ci)
    expect(typeof j.candidates[1].train.maxP99Wait).toBe('number')
    expect(j.candidates[1].train.maxP99Wait).toBeLessThanOrEqual(j.candidates[1].train.maxMaxWait)
    expect(j.calibration.jobs).toBe(SAMPLE.jobsKept)
    expect(j.weekly[0].train.length).toBe(4)
  })

  it('respects the risk limit on the longest wait', async () => {
    const r = JSON.parse((await runCli(['evaluate', KTH, ...SMALL, '--no-cache', '--max-wait-ratio', '1.1', '--json'])).stdout)
    const rec = r.candidates[r.recommended]
    expect(r.protocol.risk.maxWaitRatio).toBe(1.1)
    expect(rec.baseline || rec.train.maxMaxWaitRatio <= 1.1).toBe(true)
    for (const c of r.candidates) expect(c.admissible).toBe(c.baseline || c.train.maxMaxWaitRatio <= 1.1)
    expect(r.candidates.some((c: { admissible: boolean }) => !c.admissible)).toBe(true)
    const none = JSON.parse((await runCli(['evaluate', KTH, ...SMALL, '--no-cache', '--max-wait-ratio', 'none', '--json'])).stdout)
    expect(none.protocol.risk.maxWaitRatio).toBeNull()
    for (const c of none.candidates) expect(c.admissible).toBe(true)
  })

  it('reads --min-gain and --confidence as 5% or 0.05, and --criterion', async () => {
    const a = JSON.parse((await runCli(['evaluate', KTH, ...SMALL, '--no-cache', '--min-gain', '12.5%', '--confidence', '0.9', '--criterion', 'mean-ratio', '--min-weeks', '3', '--json'])).stdout)
    expect(a.protocol).toMatchObject({ minGain: 0.125, confidence: 0.9, criterion: 'mean-ratio', minWeeks: 3 })
    expect((await runCli(['evaluate', KTH, '--min-gain', '150%'])).stderr).toMatch(/--min-gain must be a fraction between 0 and 1/)
    expect((await runCli(['evaluate', KTH, '--confidence', 'high'])).code).toBe(2)
  })

  it('exits 2 before running on a log shorter than 2 full weeks per part, with the words of the issue', async () => {
    const f = join(dir, 'one-day.swf')
    const lines = ['; MaxProcs: 8']
    for (let i = 0; i < 40; i++) lines.push(`${i + 1} ${i * 2000} 0 60 1 -1 -1 1 120 -1 1 ${1 + (i % 3)} 1 -1 1 -1 -1 -1`)
    writeFileSync(f, lines.join('\n') + '\n')
    const r = await runCli(['evaluate', f, '--no-cache', '--weeks', '1000'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/this log spans 0.9 days \(train: 0 full weeks, test: 0 full weeks\); the protocol needs at least 2 full weeks in each part: give several files, e.g. daily jobcomp files, or a longer sacct range/)
    expect(r.stderr).not.toMatch(/evaluated/)
  })

  it('insufficient-data when a part has fewer than --min-weeks real weeks; recommended absent; export exits 2 with the reason', async () => {
    const r = await runCli(['evaluate', KTH, ...SMALL, '--no-cache', '--min-weeks', '100', '--json', join(dir, 'short.json')])
    expect(r.code, r.stderr).toBe(0)
    const j = JSON.parse(readFileSync(join(dir, 'short.json'), 'utf8'))
    expect(j.recommendation.verdict).toBe('insufficient-data')
    expect('recommended' in j).toBe(false)
    expect(j.recommendation.reason).toMatch(/full weeks \(at least 100 needed\)/)
    expect(j.recommendation.export).toBeNull()
    const e = await runCli(['export', join(dir, 'short.json'), '--target', 'slurm', '--out', join(dir, 'short-out')])
    expect(e.code).toBe(2)
    expect(e.stderr).toMatch(/insufficient-data.*at least 100 needed/)
  })

  it('re-runs from the cache, computes only new thresholds, and gives the same bytes on 2 workers', async () => {
    const cache = join(dir, 'cache')
    const first = await runCli(['evaluate', KTH, ...SMALL, '--cache-dir', cache, '--workers', '1', '--json', join(dir, 'a.json')])
    expect(first.stderr).toMatch(/evaluated 92 cells \(0 from the cache\)/)
    const again = await runCli(['evaluate', KTH, ...SMALL, '--cache-dir', cache, '--workers', '2', '--json', join(dir, 'b.json')])
    expect(again.stderr).toMatch(/evaluated 92 cells \(92 from the cache\)/)
    expect(readFileSync(join(dir, 'b.json'), 'utf8')).toBe(readFileSync(join(dir, 'a.json'), 'utf8'))
    const more = await runCli(['evaluate', KTH, ...SMALL.slice(0, 4), '--thresholds', 'none,20h,40h', '--seed', '3', '--cache-dir', cache, '--json', join(dir, 'c.json')])
    expect(more.stderr).toMatch(/evaluated 136 cells \(92 from the cache\)/)
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
