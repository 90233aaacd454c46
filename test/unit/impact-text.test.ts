// The "Who pays" block of `easytune evaluate` (src/cli/impact-text.ts), on a hand-made impact:
// docs/IMPACT.md §In the command line.
import { describe, expect, it } from 'vitest'
import { whoPaysLines } from '../../src/cli/impact-text'
import type { Impact, ImpactGroup, PartImpact } from '../../src/core/tune/impact'

const g = (label: string, jobs: number, base: number, rec: number): ImpactGroup =>
  ({ label, jobs, baselineMeanWait: base, meanWait: rec, baselineP95Wait: 2 * base, p95Wait: 2 * rec, meanRatio: base > 0 ? rec / base : null })

const part = (p: Partial<PartImpact>): PartImpact => ({ bySize: [], byRequested: [], byAccount: [], accountKind: 'account', ...p })

describe('Who pays', () => {
  it('nothing without an impact (insufficient data)', () => {
    expect(whoPaysLines(null, 1.5)).toEqual([])
    expect(whoPaysLines(undefined, null)).toEqual([])
  })

  it('the groups whose mean wait rises most, with counts and units, largest rise first', () => {
    const impact: Impact = {
      train: part({
        // rises: 65–100 procs +1 h; ≤ 1 h −30 min (a gain: not shown); account chem +2 h; a 5-job account +10 h (too few jobs)
        bySize: [g('1 processor', 500, 3600, 1800), g('65–100 processors', 40, 3600, 7200)],
        byRequested: [g('≤ 1 h requested', 600, 3600, 1800)],
        byAccount: [g('chem', 12, 3600, 10800), g('tiny', 5, 0, 36000)],
      }),
      test: part({ bySize: [g('65–100 processors', 30, 7200, 9000)] }),
      overRisk: [{ part: 'train', dimension: 'account', label: 'chem', meanRatio: 3, jobs: 12 }],
    }
    const text = whoPaysLines(impact, 1.5).join('\n')
    expect(text).toMatch(/Who pays \(mean wait per job, EASY-FCFS → recommended/)
    const rows = text.split('\n').filter((l) => /^(account chem|65–100|1 processor|≤ 1 h|account tiny)/.test(l))
    expect(rows.map((l) => l.split(/\s{2,}/)[0])).toEqual(['account chem', '65–100 processors'])
    expect(rows[0]).toMatch(/12 +60 min → 3 h \(3\.00×\) +2 h → 6 h +— +— +—/)
    expect(rows[1]).toMatch(/40 +60 min → 2 h \(2\.00×\) +2 h → 4 h +30 +2 h → 2\.5 h \(1\.25×\) +4 h → 5 h/)
    expect(text).toMatch(/— : not among the test months' 10 accounts whose total wait grows most/)
    expect(text).toMatch(/Beyond the risk ratio \(1\.5×\): account chem on train \(12 jobs, mean wait 3\.00×\)\./)
  })

  it('says so when nobody waits longer, and leaves the risk line out without a limit', () => {
    const impact: Impact = { train: part({ bySize: [g('1 processor', 500, 3600, 1800)], accountKind: 'user' }), test: part({}), overRisk: [] }
    const text = whoPaysLines(impact, null).join('\n')
    expect(text).toMatch(/No job-size class, requested-time class or user waits longer on average on the training months\./)
    expect(text).not.toMatch(/risk ratio/)
    expect(whoPaysLines(impact, 2).join('\n')).toMatch(/No group's mean wait rises beyond the risk ratio \(2×\)\./)
  })
})
