// The impact step of `easytune evaluate` end to end on the bundled log (docs/IMPACT.md): the
// recommendation's impact on train and test, its groups covering every job of each part, and the
// "Who pays" block of the human output.
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'
import { SAMPLE, SAMPLE_LOG } from '../support/sample'
import type { ImpactGroup, PartImpact } from '../../src/core/tune/impact'

const SMALL = ['--weeks', '4', '--preset', 'ch6', '--thresholds', 'none', '--seed', '3', '--no-cache', '--workers', '1']

const jobsIn = (gs: ImpactGroup[]) => gs.reduce((s, g) => s + g.jobs, 0)
const totalWait = (gs: ImpactGroup[], k: 'meanWait' | 'baselineMeanWait') => gs.reduce((s, g) => s + g.jobs * g[k], 0)

describe('recommendation.impact', () => {
  it('covers every job of each part once per dimension, and the human output says who pays', async () => {
    const r = await runCli(['evaluate', SAMPLE_LOG, ...SMALL, '--max-wait-ratio', '1.5', '--json'])
    expect(r.code, r.stderr).toBe(0)
    const j = JSON.parse(r.stdout)
    const impact = j.recommendation.impact
    expect(impact).not.toBeNull()
    for (const part of ['train', 'test'] as const) {
      const p: PartImpact = impact[part]
      // Size and requested-time classes partition the part: the same jobs, the same total waits.
      expect(jobsIn(p.bySize)).toBe(j.protocol.split[part].jobs)
      expect(jobsIn(p.byRequested)).toBe(j.protocol.split[part].jobs)
      for (const k of ['meanWait', 'baselineMeanWait'] as const) {
        expect(totalWait(p.byRequested, k)).toBeCloseTo(totalWait(p.bySize, k), 0)
      }
      // KTH-SP2 (SWF): users only, by number; every listed user has at least 10 jobs and pays.
      expect(p.accountKind).toBe('user')
      for (const g of p.byAccount) {
        expect(g.jobs).toBeGreaterThanOrEqual(10)
        expect(g.meanWait).toBeGreaterThan(g.baselineMeanWait)
      }
    }
    expect(j.protocol.split.train.jobs + j.protocol.split.test.jobs).toBe(SAMPLE.jobsKept)
    // On 100 processors the size classes are 1, 2–4, 5–16, 17–64, 65–100.
    expect(impact.train.bySize.map((g: ImpactGroup) => g.label)).toEqual(['1 processor', '2–4 processors', '5–16 processors', '17–64 processors', '65–100 processors'])
    for (const o of impact.overRisk) expect(o.meanRatio === null || o.meanRatio > 1.5).toBe(true)

    const human = await runCli(['evaluate', SAMPLE_LOG, ...SMALL, '--max-wait-ratio', '1.5'])
    expect(human.stdout).toMatch(/Who pays \(mean wait per job, EASY-FCFS → recommended/)
    expect(human.stdout).toMatch(/risk ratio \(1\.5×\)/)
    expect(human.stdout).toMatch(/Beyond the risk ratio \(1\.5×\): [^\n]+ on (train|test) \([0-9,]+ jobs, mean wait|No group's mean wait rises beyond/)
  }, 120_000)
})
