// The triple the campaign selects, as `easytune walltimes` and the Time limits step show it
// (docs/PREDICTIONS.md §Results, §Time limits): the declaration agrees with the results page, the
// what-if runs exactly that triple, and the report carries it with its outcome.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CAMPAIGN_CHOICE, DEFAULT_CAMPAIGN_OPTIONS, findTriple, simulateTriple, tripleConfig } from '../../src/core/predict/campaign'
import { campaignOf, findWhatIf, runWalltimesWhatIf } from '../../src/core/predict/walltimes-whatif'
import { computeMetrics } from '../../src/core/sim/metrics'
import { readLog } from '../../src/node/read-log'
import { runCli } from '../support/cli'

const KTH = resolve('resources/KTH-SP2-1996-2.1-cln.swf.gz')

describe('the campaign\'s choice', () => {
  it('is a selectable triple, and the one the results page says every fold chose', () => {
    const t = findTriple(CAMPAIGN_CHOICE.triple)
    expect(t?.selectable).toBe(true)
    const page = readFileSync(resolve('docs/PREDICTIONS.md'), 'utf8')
    const results = page.slice(page.indexOf('\n## Results'))
    expect(results).toContain(`The leave-one-out choice is the same triple in all four folds:\n\`${CAMPAIGN_CHOICE.triple}\``)
    for (const log of CAMPAIGN_CHOICE.logs) expect(results).toMatch(new RegExp(`^\\| ${log} \\|`, 'm'))
  })

  it('is the what-if scenario "campaign", run as the campaign runs it', async () => {
    const scenario = findWhatIf('campaign')!
    expect(scenario.prediction).toEqual(tripleConfig(findTriple(CAMPAIGN_CHOICE.triple)!, DEFAULT_CAMPAIGN_OPTIONS).prediction)
    const w = await readLog(KTH)
    const whatIf = runWalltimesWhatIf(w.jobs, w.machineProcs, { scenarios: ['campaign'] })
    const direct = simulateTriple(w.jobs, w.machineProcs, findTriple(CAMPAIGN_CHOICE.triple)!, DEFAULT_CAMPAIGN_OPTIONS)
    const m = computeMetrics(w.jobs, w.machineProcs, direct.start)
    const c = campaignOf(whatIf)
    expect(c.outcome?.avgBsld).toBe(m.avgBsld)
    expect(c.outcome?.avgWait).toBe(m.avgWait)
    expect(c.logs).toEqual([...CAMPAIGN_CHOICE.logs])
    expect(campaignOf(null).outcome).toBeNull()
  })

  it('is in the walltimes JSON and text', async () => {
    const r = await runCli(['walltimes', KTH, '--what-if', 'campaign', '--json'])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.campaign.label).toBe(findTriple(CAMPAIGN_CHOICE.triple)!.label)
    expect(j.campaign.outcome.id).toBe('campaign')
    expect(j.whatIf.outcomes.map((o: { id: string }) => o.id)).toEqual(['requested', 'campaign'])
    const text = await runCli(['walltimes', KTH, '--what-if', 'campaign'])
    expect(text.stdout).toMatch(/The prediction campaign selects .*every fold chose it without the log it held out/)
  })
})
