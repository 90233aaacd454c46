// The Candidates step's preset choice: the slurm preset is chosen by default and lists the orders
// the exporter runs as evaluated; the ch5 card carries the research-grid label.
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import { createPinia } from 'pinia'
import CandidatePicker from '../../src/renderer/src/components/CandidatePicker.vue'
import { useCampaignStore } from '../../src/renderer/src/stores/campaign'
import { RESEARCH_GRID_NOTE } from '../../src/core/tune/campaign'

describe('preset choice in the candidate picker', () => {
  it('starts on the slurm preset, lists its orders, and labels ch5 a research grid', async () => {
    const pinia = createPinia()
    const w = mount(CandidatePicker, { global: { plugins: [pinia] } })
    const c = useCampaignStore(pinia)
    expect(c.preset).toBe('slurm')
    expect((w.get('[data-testid="preset-slurm"]').element as HTMLInputElement).checked).toBe(true)
    const orders = w.get('[data-testid="slurm-orders"]').text()
    expect(orders).toMatch(/^Orders: FCFS, LCFS, SPF, .*WFP3, UNICEF, LBSLD\.$/)
    expect(orders).not.toMatch(/F1|F2|F3|F4/)
    expect(c.expandedCandidates.every((x) => x.backfill === 'same')).toBe(true)
    expect(w.get('[data-testid="research-grid-note"]').text()).toBe(RESEARCH_GRID_NOTE)
    await w.get('[data-testid="preset-ch5"]').setValue(true)
    expect(c.expandedCandidates).toHaveLength(49)
    expect(c.expandedCandidates).toContainEqual({ primary: 'LEXP', backfill: 'LEXP' })
    expect(w.find('[data-testid="slurm-orders"]').exists()).toBe(false)
  })
})
