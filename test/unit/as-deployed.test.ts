// The verdict and the recommendation as deployed (docs/CLUSTER.md §As deployed): the deployable
// figure replaces the idealised one when it lies outside the idealised interval.
import { describe, expect, it } from 'vitest'
import { withAsDeployed, type AsDeployed, type EvaluationResult } from '../../src/core/tune/result'
import { switchResult as switchFixture, keepResult as keepFixture } from '../fixtures/results/results'

/** The hand-written fixtures with each part's real-week evidence as a v2 evaluation writes it
 * (here: the resampled gain and interval), so that the sentence can be written. */
function complete(r: EvaluationResult): EvaluationResult {
  for (const c of r.candidates) for (const p of [c.train, c.test]) p.real ??= { weeks: 23, gain: p.gain, ci: p.gainCi, vsBest: null, selectionCi: p.gainCi }
  return r
}
const switchResult = () => complete(switchFixture())
const keepResult = () => complete(keepFixture())

function deployed(r: EvaluationResult, gain: number, ci: [number, number]): AsDeployed {
  const base = r.candidates[r.recommended!].train
  const part = { ...base, real: { weeks: 23, gain, ci, vsBest: null, selectionCi: null } }
  return { label: r.candidates[r.recommended!].label, train: part, test: part, same: false, differs: false }
}

describe('recommendation.asDeployed', () => {
  it('inside the idealised interval: the verdict stands, the sentence gives the deployable figures', () => {
    const r = switchResult()
    expect(r.candidates[r.recommended!].train.gainCi).toEqual([0.17, 0.34]) // the fixture's idealised interval
    const out = withAsDeployed(r, deployed(r, 0.2, [0.12, 0.28]))
    expect(out.recommendation.verdict).toBe('switch')
    expect(out.recommendation.asDeployed!.differs).toBe(false)
    expect(out.recommendation.sentence).toContain('as deployed on Slurm: 20.0% on train (interval 12.0% to 28.0%)')
  })

  it('outside it but still a clear gain: switch stands, said plainly', () => {
    const r = switchResult()
    const out = withAsDeployed(r, deployed(r, 0.1, [0.06, 0.14]))
    expect(out.recommendation.verdict).toBe('switch')
    expect(out.recommendation.asDeployed!.differs).toBe(true)
    expect(out.recommendation.sentence).toContain('outside the idealised interval: the verdict uses this figure')
  })

  it('outside it and not enough to switch (below the minimum gain, or the interval reaching 0): keep, with the reason', () => {
    for (const [gain, ci] of [[0.03, [0.01, 0.05]], [0.08, [-0.01, 0.15]]] as [number, [number, number]][]) {
      const r = switchResult()
      const out = withAsDeployed(r, deployed(r, gain, ci))
      expect(out.recommendation.verdict, `${gain}`).toBe('keep')
      expect(out.recommended).toBe(0)
      expect(out.recommendation.reason).toMatch(/^keep EASY-FCFS: as deployed on Slurm .* not enough to switch$/)
      expect(out.recommendation.sentence).toMatch(/^Keep EASY-FCFS \(no change to export\): as deployed on Slurm/)
      expect(out.recommendation.export).toMatchObject({ fidelity: 'native', lost: [] })
    }
  })

  it('keep stays keep; a campaign already under Slurm (same) never "differs"', () => {
    const k = keepResult()
    expect(withAsDeployed(k, deployed(k, -0.5, [-0.6, -0.4])).recommendation.verdict).toBe('keep')
    const r = switchResult()
    const d = { ...deployed(r, 0.01, [0, 0.02]), same: true }
    const out = withAsDeployed(r, d)
    expect(out.recommendation.verdict).toBe('switch')
    expect(out.recommendation.asDeployed!.differs).toBe(false)
  })

  it('not simulated (a pool too large for one-CPU nodes): null, with the reason in the result, the sentence untouched and the card', async () => {
    const r = switchResult()
    const out = withAsDeployed(r, 'not simulated: too many nodes')
    expect(out.recommendation.asDeployed).toBeNull()
    expect(out.recommendation.asDeployedNote).toBe('not simulated: too many nodes')
    expect(out.recommendation.verdict).toBe('switch')
    const { buildVerdictCard } = await import('../../src/core/export/verdict-card')
    expect(buildVerdictCard(out).rows.find((x) => x.key === 'deployed')).toMatchObject({ tone: 'note', text: 'Not simulated: too many nodes.' })
  })
})
