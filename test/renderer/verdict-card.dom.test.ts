// The verdict card in happy-dom, on hand-written schema-2 results (test/fixtures/results): the
// three verdicts in words, the evidence rows with their units, and the Results and Export steps
// around it (the card first, everything else folded; nothing to export for keep / not enough data).
import { describe, expect, it } from 'vitest'
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import type { Component } from 'vue'
import VerdictCard from '../../src/renderer/src/components/VerdictCard.vue'
import ResultsStep from '../../src/renderer/src/steps/ResultsStep.vue'
import ExportStep from '../../src/renderer/src/steps/ExportStep.vue'
import { useResultsStore } from '../../src/renderer/src/stores/results'
import { buildVerdictCard } from '../../src/core/export/verdict-card'
import { freshApp } from './fake-api'
import { insufficientResult, keepResult, switchResult } from '../fixtures/results/results'
import type { EvaluationResult } from '../../src/core/tune/result'

const app = freshApp()
const mountIt = (c: Component, props: Record<string, unknown> = {}): VueWrapper =>
  mount(c, { props, global: { plugins: [app.pinia], stubs: { ChartPanel: true } }, attachTo: document.body })
const row = (w: VueWrapper, key: string) => w.get(`[data-testid="verdict-${key}"]`).text()

describe('the verdict card', () => {
  it('switch: the order, gains with their 95% intervals on train and test, the risk with p99, who loses, the export, the calibration', () => {
    const w = mountIt(VerdictCard, { result: switchResult() })
    expect(w.get('[data-testid="verdict-card"]').attributes('data-verdict')).toBe('switch')
    expect(w.get('[data-testid="verdict-title"]').text()).toBe('Switch to EASY-SPF Θ=20 h')
    expect(w.get('[data-testid="verdict-reason"]').text()).toContain('at least 5%')
    expect(row(w, 'train')).toBe('26.0% less average wait than EASY-FCFS (95% interval 17.0% to 34.0%).')
    expect(row(w, 'test')).toContain('23.0% less average wait than EASY-FCFS (95% interval 12.0% to 33.0%)')
    expect(row(w, 'test')).toContain('not the evidence')
    // 806,000 s = 9 d 7.9 h... the duration formatter's words; the ratio and the limit are what matter here.
    expect(row(w, 'risk')).toMatch(/^1\.30× EASY-FCFS's on the training weeks \(.+, 99th percentile .+; limit 1\.5×: held\); 1\.30× on the test weeks/)
    // No group over the risk ratio: the largest rises are named with job counts and waits in time.
    expect(row(w, 'losers')).toMatch(/^No group's mean wait rises beyond the limit\. Largest rises on the training weeks: user 117 \(212 jobs\): mean wait .+ → .+ \(1\.39×\)/)
    expect(row(w, 'export')).toBe('Native settings plus a job_submit.lua script. Nothing is lost: Slurm runs the order as it was evaluated.')
    expect(row(w, 'equivalent')).toContain('EASY-SQF Θ=20 h')
    expect(row(w, 'calibration')).toMatch(/^Simulated EASY-FCFS follows the recorded waits closely: rank correlation 0\.64 per job, mean wait .+ simulated against .+ recorded \(0\.87×\).* on 27,992 jobs \(100% of the log\)\.$/)
    w.unmount()
  })

  it('the recommendation as deployed on Slurm: its gains with intervals, and a warning when the verdict uses it', () => {
    const r = switchResult()
    const part = (gain: number, ci: [number, number]) => ({ ...r.candidates[r.recommended!].train, real: { weeks: 23, gain, ci, vsBest: null, selectionCi: null } })
    r.recommendation.asDeployed = { label: 'EASY-SPF Θ=20 h', train: part(0.18, [0.1, 0.25]), test: part(0.15, [0.05, 0.24]), same: false, differs: false }
    const w = mountIt(VerdictCard, { result: r })
    expect(row(w, 'deployed')).toBe("The exported configuration, simulated with Slurm's own priority, main scheduler and backfill on the processors as one-CPU nodes: 18.0% (interval 10.0% to 25.0%) on the training weeks, 15.0% (interval 5.0% to 24.0%) on the test weeks, against the baseline as Slurm runs it.")
    w.unmount()
    r.recommendation.asDeployed.differs = true
    const w2 = mountIt(VerdictCard, { result: r })
    expect(row(w2, 'deployed')).toContain('the verdict uses this figure')
    expect(w2.get('[data-testid="verdict-deployed"]').classes().join(' ')).toMatch(/warning/)
    w2.unmount()
    // Already simulated as deployed (--scheduler slurm): no separate row.
    r.recommendation.asDeployed.same = true
    const w3 = mountIt(VerdictCard, { result: r })
    expect(w3.find('[data-testid="verdict-deployed"]').exists()).toBe(false)
    w3.unmount()
  })

  it('switch with a group over the risk ratio and a lost part: both said as warnings', () => {
    const r = switchResult()
    r.recommendation.impact!.overRisk = [{ part: 'train', dimension: 'size', label: '65–100 processors', meanRatio: 1.62, jobs: 82 }]
    r.recommendation.export = { target: 'slurm', fidelity: 'not exportable', lost: ['the separate backfill order SPF (Slurm backfills in the priority order)'] }
    const w = mountIt(VerdictCard, { result: r })
    expect(row(w, 'losers')).toBe('Mean wait rises by more than 1.5× for 65–100 processors (size class, 82 jobs, training weeks): mean wait 1.62×.')
    expect(w.get('[data-testid="verdict-losers"]').classes()).toContain('tone-warning')
    expect(row(w, 'export')).toContain('Not exported as evaluated: the separate backfill order SPF')
    w.unmount()
  })

  it('keep, caused by an interval touching 0: "no significant difference" said plainly, nothing to change', () => {
    const w = mountIt(VerdictCard, { result: keepResult() })
    expect(w.get('[data-testid="verdict-card"]').attributes('data-verdict')).toBe('keep')
    expect(w.get('[data-testid="verdict-title"]').text()).toBe('Keep what you have (EASY-FCFS)')
    expect(w.get('[data-testid="verdict-reason"]').text()).toMatch(/^No significant difference: the best candidate, EASY-SAF Θ=40 h/)
    expect(row(w, 'train')).toBe('EASY-SAF Θ=40 h: 5.0% less average wait than EASY-FCFS (95% interval −3.0% to 12.0%): no significant difference.')
    expect(row(w, 'export')).toBe('Nothing to change: keep your current configuration.')
    expect(w.find('[data-testid="verdict-losers"]').exists()).toBe(false)
    w.unmount()
  })

  it('insufficient data: what is missing, no gains, nothing to export', () => {
    const w = mountIt(VerdictCard, { result: insufficientResult() })
    expect(w.get('[data-testid="verdict-card"]').attributes('data-verdict')).toBe('insufficient-data')
    expect(w.get('[data-testid="verdict-title"]').text()).toBe('Not enough data to recommend a change')
    expect(row(w, 'data')).toBe('Training part: 5 weeks, 912 jobs; test part: 5 weeks, 948 jobs (at least 8 weeks and 1,000 jobs per part are needed). Nothing to export.')
    expect(w.find('[data-testid="verdict-train"]').exists()).toBe(false)
    expect(w.find('[data-testid="verdict-export"]').exists()).toBe(false)
    w.unmount()
  })

  it('speaks the wizard\'s controls, never CLI flags, even when the reason comes from the CLI\'s words', () => {
    const r = keepResult()
    r.recommendation.reason = 'EASY-SAF Θ=40 h gains 5.0%, below --min-gain 10%; lower --min-gain or add weeks with --weeks.'
    const w = mountIt(VerdictCard, { result: r })
    const reason = w.get('[data-testid="verdict-reason"]').text()
    expect(reason).not.toMatch(/--/)
    expect(reason).toContain('below the minimum gain (Candidates step) 10%')
    expect(reason).toContain('the weeks per part (Split step)')
    w.unmount()
  })

  it('a schema-1 result (no verdict, 90% intervals) still gets a card: baseline recommended = keep, else switch', () => {
    const r = switchResult() as EvaluationResult & { protocol: { confidence?: number } }
    const v1 = { ...r, schemaVersion: 1, protocol: { ...r.protocol, confidence: undefined }, recommendation: { label: r.recommendation.label, sentence: r.recommendation.sentence, testDisagrees: false } } as unknown as EvaluationResult
    const card = buildVerdictCard(v1)
    expect(card.verdict).toBe('switch')
    expect(card.rows.find((x) => x.key === 'train')!.text).toContain('(90% interval 17.0% to 34.0%)')
    expect(card.rows.find((x) => x.key === 'losers')!.text).toMatch(/predates/)
    expect(buildVerdictCard({ ...v1, recommended: 0 }).verdict).toBe('keep')
  })
})

describe('the Results step around the card', () => {
  it('opens with the card; charts, tables, impact and calibration are folded and built only when unfolded; "In limit" only with a limit', async () => {
    useResultsStore().setResult(switchResult())
    const w = mountIt(ResultsStep)
    const first = w.get('.step').element.querySelector('.panel')!
    expect(first.getAttribute('data-testid')).toBe('verdict-card')
    const folds = w.findAll('details')
    expect(folds.map((d) => d.attributes('data-testid'))).toEqual(['fold-details', 'fold-charts', 'fold-impact', 'fold-candidates', 'fold-calibration', 'fold-extras'])
    expect(folds.every((d) => !(d.element as HTMLDetailsElement).open)).toBe(true)
    expect(w.find('table').exists()).toBe(false)
    const table = w.get('[data-testid="fold-candidates"]')
    ;(table.element as HTMLDetailsElement).open = true
    table.element.dispatchEvent(new Event('toggle'))
    await flushPromises()
    const heads = table.findAll('th').map((t) => t.text())
    expect(heads).toContain('In limit')
    expect(heads.some((h) => h.startsWith('95% interval (train)'))).toBe(true)
    expect(heads.some((h) => h.startsWith('99th pct. wait'))).toBe(true)
    w.unmount()
    const r = switchResult()
    useResultsStore().setResult({ ...r, protocol: { ...r.protocol, risk: { maxWaitRatio: null } } })
    const w2 = mountIt(ResultsStep)
    const t2 = w2.get('[data-testid="fold-candidates"]')
    ;(t2.element as HTMLDetailsElement).open = true
    t2.element.dispatchEvent(new Event('toggle'))
    await flushPromises()
    expect(t2.findAll('th').map((t) => t.text())).not.toContain('In limit')
    // Who gains, who loses: per size, requested time and user, with job counts and waits in time.
    const imp = w2.get('[data-testid="fold-impact"]')
    ;(imp.element as HTMLDetailsElement).open = true
    imp.element.dispatchEvent(new Event('toggle'))
    await flushPromises()
    expect(imp.get('[data-testid="impact-size"]').text()).toContain('65–100 processors')
    expect(imp.get('[data-testid="impact-account"] caption').text()).toBe('Users whose mean wait grows most')
    w2.unmount()
  })
})

describe('the Export step and the verdict', () => {
  it('keep: "Nothing to change", and no export is asked for', async () => {
    useResultsStore().setResult(keepResult())
    const w = mountIt(ExportStep)
    await flushPromises()
    expect(w.get('[data-testid="export-keep"]').text()).toContain('Nothing to change: keep your current configuration')
    expect(app.api.exportConfig).not.toHaveBeenCalled()
    expect(w.find('[data-testid="export-file"]').exists()).toBe(false)
    w.unmount()
  })

  it('insufficient data: the reason, and no export', async () => {
    useResultsStore().setResult(insufficientResult())
    const w = mountIt(ExportStep)
    await flushPromises()
    expect(w.get('[data-testid="export-insufficient"]').text()).toContain('at least 8 weeks and 1,000 jobs per part are needed')
    expect(app.api.exportConfig).not.toHaveBeenCalled()
    w.unmount()
  })

  it('switch with a pasted slurm.conf: sent as the current configuration; the changes and the "approximate" note shown', async () => {
    const changes = [
      { setting: 'PriorityWeightAge', from: '1000', to: '0', why: 'the order decides, not the age' },
      { setting: 'SchedulerParameters', from: 'bf_continue', to: 'bf_continue,bf_window=43200', why: 'backfill looks as far ahead as the longest request' },
    ]
    // As the back end answers: the changes only when merging into a current configuration.
    app.api.exportConfig = (async (_r: unknown, target: 'slurm' | 'pbs', o?: { currentConf?: string }) => ({
      target, files: [{ name: 'slurm.conf', content: 'PriorityType=priority/multifactor\n', description: 'your slurm.conf, merged' }],
      items: [{ feature: 'queue order SPF', fidelity: 'job_submit.lua' as const, note: o?.currentConf ? 'approximate: fair-share and QOS also act' : 'sched/backfill: approximate, see the known gaps' }], gaps: [],
      ...(o?.currentConf ? { changes } : {}),
    })) as never
    const calls: unknown[] = []
    const inner = app.api.exportConfig
    app.api.exportConfig = (async (...a: Parameters<typeof inner>) => { calls.push(a[2]); return inner(...a) }) as typeof inner
    useResultsStore().setResult(switchResult())
    const w = mountIt(ExportStep)
    await flushPromises()
    expect(w.find('[data-testid="changes"]').exists()).toBe(false)
    expect(w.find('[data-testid="approximate"]').exists()).toBe(false)
    await w.get('[data-testid="current-conf"]').setValue('ClusterName=kth\nPriorityWeightAge=1000\n')
    await w.get('[data-testid="current-conf"]').trigger('change')
    await flushPromises()
    expect(calls.at(-1)).toEqual({ slurmVersion: '22.05', currentConf: 'ClusterName=kth\nPriorityWeightAge=1000\n' })
    const rows = w.findAll('[data-testid="changes"] tbody tr').map((r) => r.findAll('td').map((d) => d.text()))
    expect(rows).toEqual([
      ['PriorityWeightAge', '1000', '0', 'the order decides, not the age'],
      ['SchedulerParameters', 'bf_continue', 'bf_continue,bf_window=43200', 'backfill looks as far ahead as the longest request'],
    ])
    expect(w.get('[data-testid="approximate"]').text()).toContain('Approximate: fair-share and QOS also act')
    w.unmount()
  })
})
