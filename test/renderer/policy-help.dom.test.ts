// The candidate picker's policy help is derived from the policy declarations: every registry
// policy is listed with its explanation, formula and export fidelity, with no edit in the GUI.
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import { createPinia } from 'pinia'
import CandidatePicker from '../../src/renderer/src/components/CandidatePicker.vue'
import { useCampaignStore } from '../../src/renderer/src/stores/campaign'
import { POLICIES } from '../../src/core/sim/policies'

describe('policy help in the candidate picker', () => {
  it('lists every declared policy with what it favours, its formula and its Slurm and PBS fidelity', async () => {
    const pinia = createPinia()
    const w = mount(CandidatePicker, { global: { plugins: [pinia] } })
    const rows = w.findAll('[data-testid="policy-help"] tbody tr')
    expect(rows.map((r) => r.attributes('data-policy'))).toEqual(POLICIES.map((p) => p.id))
    const lexp = w.get('[data-policy="LEXP"]').findAll('td').map((c) => c.text())
    expect(lexp).toEqual([POLICIES.find((p) => p.id === 'LEXP')!.explain, '(wait + p̃) / p̃', 'yes', 'site factor', 'native', '[001] eq. 5.1/6.1, [003] eq. 1'])
    expect(w.get('[data-policy="F1"]').findAll('td').map((c) => c.text()).slice(3, 5)).toEqual(['not exportable', 'not exportable'])
    expect(w.get('[data-policy="SQF"]').findAll('td')[3].text()).toBe('native')
    useCampaignStore(pinia).preset = 'custom'
    await w.vm.$nextTick()
    const tip = w.findAll('.custom-picker label').find((l) => l.text() === 'UNICEF')!.attributes('title')
    expect(tip).toMatch(/UNICEF \(Tang et al\.\): Fast turnaround .* Export: Slurm site factor, PBS not exportable\./)
  })
})
