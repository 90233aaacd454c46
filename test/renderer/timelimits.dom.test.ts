// The Time limits step (issue #22 item 5; docs/PREDICTIONS.md §Time limits) mounted with Pinia and
// the fake back end (charts stubbed): pseudonyms by default and the local "Show real names" switch
// (never in what is saved), units on the charts and the tables, an empty log, the what-if run in
// the background (progress, Cancel, outcome in words), and the step's place in the wizard and in
// project files (files from before it name their step by the old index).
import { describe, expect, it, vi } from 'vitest'
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import ChartPanel from '../../src/renderer/src/components/ChartPanel.vue'
import TimeLimitsStep from '../../src/renderer/src/steps/TimeLimitsStep.vue'
import InspectStep from '../../src/renderer/src/steps/InspectStep.vue'
import { useWorkloadStore } from '../../src/renderer/src/stores/workload'
import { LEGACY_STEP_IDS, STEPS, stepIndex, useWizardStore } from '../../src/renderer/src/stores/wizard'
import { useTimeLimitsStore } from '../../src/renderer/src/stores/timelimits'
import { fromProject, toProject } from '../../src/renderer/src/stores/project'
import { ProjectStateSchema } from '../../src/shared/schemas'
import type { WalltimesWhatIf, WhatIfOutcome } from '../../src/shared/api'
import { freshApp, group, makeTimeLimits, makeWorkload } from './fake-api'

const app = freshApp()

const mountStep = (): VueWrapper => mount(TimeLimitsStep, { global: { plugins: [app.pinia], stubs: { ChartPanel: true } }, attachTo: document.body })
type Axis = { title: { text: string } }
const axisTitles = (config: unknown) => Object.values((config as { options: { scales: Record<string, Axis> } }).options.scales).map((s) => s.title.text)
const firstCells = (w: VueWrapper, heading: string) => {
  const panel = w.findAll('section.panel').find((p) => p.find('h3').text() === heading)!
  return panel.findAll('tbody tr').map((r) => r.findAll('td')[1]!.text())
}

async function opened(): Promise<VueWrapper> {
  await useWorkloadStore().importSample()
  const w = mountStep()
  await flushPromises()
  return w
}

function outcome(id: WhatIfOutcome['id'], label: string, avgWait: number, avgBsld: number, today: { avgWait: number; avgBsld: number } | null): WhatIfOutcome {
  return {
    id, label, prediction: { predictor: { id: 'requested' }, correction: 'none' }, avgWait, avgBsld, maxBsld: avgBsld * 50, mae: 1800, corrections: 0,
    waitVsToday: today ? avgWait / today.avgWait : 1, bsldVsToday: today ? avgBsld / today.avgBsld : 1, error: null,
  }
}

/** Today: 2 h and 20; exact limits: 1 h and 5 (half the wait, a quarter of the slowdown); the
 * learner unavailable (an outcome with its reason, not a failure). */
const WHATIF: WalltimesWhatIf = {
  order: 'EASY-FCFS', machineProcs: 100, tau: 10, jobs: 600,
  outcomes: [
    outcome('requested', 'Today\'s limits', 7200, 20, null),
    outcome('clairvoyant', 'Exact limits', 3600, 5, { avgWait: 7200, avgBsld: 20 }),
    { id: 'eloss', label: 'Learned predictions', prediction: { predictor: { id: 'eloss' }, correction: 'incremental', sjbf: true }, avgWait: null, avgBsld: null, maxBsld: null, mae: null, corrections: null, waitVsToday: null, bsldVsToday: null, error: 'the learned regression is not available yet' },
  ],
}

describe('Time limits step: names', () => {
  it('shows pseudonyms by default: no real user or account name anywhere on the page', async () => {
    const w = await opened()
    expect(app.api.getTimeLimits).toHaveBeenCalledWith('w1')
    expect(firstCells(w, 'Users')).toEqual(['user-001', 'user-002', 'user-003'])
    expect(firstCells(w, 'Accounts')).toEqual(['account-001', 'account-002'])
    expect(firstCells(w, 'Partitions')).toEqual(['batch'])
    for (const real of ['alice', 'bob', 'carol', 'physics', 'chemistry']) expect(w.text()).not.toContain(real)
    expect((w.get('[data-testid="show-real-names"]').element as HTMLInputElement).checked).toBe(false)
    expect(w.get('[data-testid="names-note"]').text()).toContain('pseudonyms')
    w.unmount()
  })

  it('"Show real names" shows them in the window, start-with list included, and back; partitions keep their names', async () => {
    const w = await opened()
    await w.get('[data-testid="show-real-names"]').setValue(true)
    expect(firstCells(w, 'Users')).toEqual(['alice', 'bob', 'carol'])
    expect(firstCells(w, 'Accounts')).toEqual(['physics', 'chemistry'])
    expect(firstCells(w, 'Partitions')).toEqual(['batch'])
    expect(w.get('[data-testid="deployment"]').text()).toContain('the users alice')
    expect(w.get('[data-testid="names-note"]').text()).toContain('in this window only')
    await w.get('[data-testid="show-real-names"]').setValue(false)
    expect(firstCells(w, 'Users')).toEqual(['user-001', 'user-002', 'user-003'])
    expect(w.get('[data-testid="deployment"]').text()).toContain('the users user-001')
    w.unmount()
  })

  it('what is saved stays pseudonymised with real names on: the JSON and the project file', async () => {
    const w = await opened()
    await w.get('[data-testid="show-real-names"]').setValue(true)
    await w.get('[data-testid="save-timelimits-json"]').trigger('click')
    await flushPromises()
    expect(app.api.saveText).toHaveBeenCalledTimes(1)
    const [name, content, mime] = vi.mocked(app.api.saveText).mock.calls[0]!
    expect(name).toBe('KTH-SP2-1996-2.1-cln.swf.gz-time-limits.json')
    expect(mime).toBe('application/json')
    const doc = JSON.parse(content) as { names: string; users: { name: string }[]; accounts: { name: string }[] }
    expect(doc.names).toBe('pseudonyms')
    expect(doc.users.map((u) => u.name)).toEqual(['user-001', 'user-002', 'user-003'])
    expect(doc.accounts.map((u) => u.name)).toEqual(['account-001', 'account-002'])
    for (const real of ['alice', 'bob', 'carol', 'physics', 'chemistry', 'realNames']) expect(content).not.toContain(real)
    // The switch is the window's: the project file neither keeps it nor any name.
    const project = JSON.stringify(toProject())
    for (const real of ['alice', 'physics', 'showRealNames']) expect(project).not.toContain(real)
    w.unmount()
  })
})

describe('Time limits step: units and an empty log', () => {
  it('labels every axis and column with its unit (node-hours when the log has nodes, else CPU-hours)', async () => {
    const w = await opened()
    const charts = w.findAllComponents(ChartPanel)
    expect(charts.map((c) => c.props('title'))).toEqual(['Requested against actual time, per job', 'Users: how much and how often they over-request'])
    expect(axisTitles(charts[0]!.props('config'))).toEqual(['Requested time ÷ actual runtime, per job (×)', 'Jobs (% of the log)'])
    expect(axisTitles(charts[1]!.props('config'))).toEqual(['Over-requested time per user (node·h, log scale)', 'Median requested ÷ actual (×, log)'])
    // The distribution in % of the jobs: 200, 250 and 150 of 600.
    const data = (charts[0]!.props('config') as { data: { labels: string[]; datasets: { data: number[] }[] } }).data
    expect(data.labels).toEqual(['1×–2×', '2×–10×', '≥ 10×'])
    expect(data.datasets[0]!.data.map((v) => Math.round(v * 10) / 10)).toEqual([33.3, 41.7, 25])
    const heads = w.findAll('th').map((h) => h.text())
    expect(heads).toContain('Over-requested (node·h)')
    // user-001: 600 node-h, 60 %; median 12×, middle half 6×–24×.
    const row = w.findAll('tbody tr')[0]!.findAll('td').map((c) => c.text())
    expect(row).toEqual(['1', 'user-001', '300', '12×', '6×–24×', '48×', '600', '60.0%', '8%'])
    const lead = w.get('[data-testid="timelimits-lead"]').text()
    expect(lead).toContain('The median job asks for 3× the time it runs; 25% of the jobs ask for at least 2× what they use.') // 150 of 600
    expect(lead).toContain('1,000 node·h that the jobs never used (75% of the requested time)')
    w.unmount()
  })

  it('speaks CPU-hours for a log without node counts', async () => {
    app.api.getTimeLimits = vi.fn(async () => makeTimeLimits({ hours: 'cpu-hours', recorded: { users: true, accounts: false, partitions: false, nodes: false }, accounts: [], partitions: [] }))
    const w = await opened()
    expect(w.findAll('th').map((h) => h.text())).toContain('Over-requested (CPU·h)')
    expect(axisTitles(w.findAllComponents(ChartPanel)[1]!.props('config'))[0]).toBe('Over-requested time per user (CPU·h, log scale)')
    // user-001 over-requested 4 × 600 = 2,400 CPU-hours in the fixture.
    expect(w.findAll('tbody tr')[0]!.findAll('td')[6]!.text()).toBe('2,400')
    expect(w.findAll('h3').map((h) => h.text())).not.toContain('Accounts')
    w.unmount()
  })

  it('lists the 15 users with the most over-requested time, and all of them on request', async () => {
    const many = Array.from({ length: 20 }, (_, i) => group(`user-${String(i + 1).padStart(3, '0')}`, i + 1, 10, 2, 100 - i, 0.05))
    app.api.getTimeLimits = vi.fn(async () => makeTimeLimits({ users: many }))
    const w = await opened()
    expect(firstCells(w, 'Users')).toEqual(many.slice(0, 15).map((u) => u.name))
    await w.get('[data-testid="all-users"]').trigger('click')
    expect(firstCells(w, 'Users')).toEqual(many.map((u) => u.name))
    expect(w.get('[data-testid="all-users"]').text()).toBe('Show the first 15 only')
    w.unmount()
  })

  it('an empty log says there is nothing to show, with no chart, table or what-if', async () => {
    app.api.getTimeLimits = vi.fn(async () => makeTimeLimits({
      site: { jobs: 0, ratio: null, overRequestedNodeHours: 0, overRequestedCpuHours: 0, usedShare: 0, jobsWithoutNodes: 0, poorJobs: 0 },
      distribution: [], users: [], accounts: [], partitions: [], startWith: { users: [], partitions: [] },
    }))
    const w = await opened()
    expect(w.get('[data-testid="timelimits-empty"]').text()).toContain('nothing to show')
    expect(w.findAllComponents(ChartPanel)).toHaveLength(0)
    expect(w.find('table').exists()).toBe(false)
    expect(w.find('[data-testid="run-whatif"]').exists()).toBe(false)
    w.unmount()
  })

  it('a back-end error is shown in words', async () => {
    app.api.getTimeLimits = vi.fn(async () => { throw new Error('this workload is no longer loaded: import the log again') })
    const w = await opened()
    expect(w.get('[role="alert"]').text()).toBe('this workload is no longer loaded: import the log again')
    w.unmount()
  })
})

describe('Time limits step: the what-if', () => {
  it('runs on the analysis stream with progress and Cancel, and ignores another analysis\'s events', async () => {
    const w = await opened()
    await w.get('[data-testid="run-whatif"]').trigger('click')
    await flushPromises()
    expect(app.api.startAnalysis).toHaveBeenCalledWith({ workloadId: 'w1', kind: 'walltimes', options: {} })
    app.api.emitAnalysis({ analysisId: 'a1', kind: 'progress', analysis: 'walltimes', fraction: 0.5 })
    app.api.emitAnalysis({ analysisId: 'other', kind: 'progress', analysis: 'online', fraction: 0.9 })
    await flushPromises()
    expect(w.text()).toContain('What-if: 50%')
    expect(w.get('[data-testid="run-whatif"]').attributes('disabled')).toBeDefined()
    await w.get('[data-testid="cancel-whatif"]').trigger('click')
    expect(app.api.cancel).toHaveBeenCalledWith('a1')
    app.api.emitAnalysis({ analysisId: 'a1', kind: 'cancelled' })
    await flushPromises()
    expect(w.text()).toContain('What-if cancelled.')
    expect(w.find('[data-testid="whatif-sentence"]').exists()).toBe(false)
    w.unmount()
  })

  it('says the outcome in words against today, and a scenario that cannot run with its reason', async () => {
    const w = await opened()
    await w.get('[data-testid="run-whatif"]').trigger('click')
    await flushPromises()
    app.api.emitAnalysis({ analysisId: 'a1', kind: 'done', analysis: 'walltimes', result: WHATIF })
    await flushPromises()
    expect(w.get('[data-testid="whatif-sentence"]').text()).toBe(
      'Today (EASY-FCFS planning on the requested times) the average wait is 2 h and the average bounded slowdown 20. '
      + 'With exact limits your average wait would be 60 min (−50% against today) and your average bounded slowdown 5 (−75% against today). '
      + 'Learned predictions cannot be computed here: the learned regression is not available yet.',
    )
    const rows = w.get('[data-testid="whatif-table"]').findAll('tbody tr').map((r) => r.findAll('td').map((c) => c.text()))
    expect(rows[0]).toEqual(['Today\'s limits', '2 h', '20', '1,000', '30 min', '0']) // today is not compared with itself
    expect(rows[1]).toEqual(['Exact limits', '60 min (−50%)', '5 (−75%)', '250', '30 min', '0'])
    expect(rows[2]).toEqual(['Learned predictions', 'the learned regression is not available yet'])
    // The saved JSON carries the what-if.
    await w.get('[data-testid="save-timelimits-json"]').trigger('click')
    await flushPromises()
    expect(JSON.parse(vi.mocked(app.api.saveText).mock.calls[0]![1]).whatIf).toEqual(WHATIF)
    w.unmount()
  })

  it('a refused start is an error in words; a new log clears the what-if', async () => {
    app.api.startAnalysis = vi.fn(async () => { throw new Error('an analysis (online selection, mixed policy or time-limits what-if) is already running: wait for it or cancel it first') })
    const w = await opened()
    await w.get('[data-testid="run-whatif"]').trigger('click')
    await flushPromises()
    expect(w.text()).toContain('What-if failed: an analysis (online selection, mixed policy or time-limits what-if) is already running')
    const t = useTimeLimitsStore()
    t.whatIf = WHATIF
    app.api.importLog = vi.fn(async () => makeWorkload({ id: 'w2' }))
    await useWorkloadStore().importSample()
    await flushPromises()
    expect(app.api.getTimeLimits).toHaveBeenLastCalledWith('w2')
    expect(t.whatIf).toBeNull()
    expect(t.run.status).toBe('idle')
    w.unmount()
  })
})

describe('the Time limits step in the wizard and in project files', () => {
  it('comes right after Inspect, needs a log, and Inspect leads to it', async () => {
    expect(STEPS.map((s) => s.id)).toEqual(['import', 'inspect', 'timelimits', 'split', 'candidates', 'run', 'results', 'export'])
    const z = useWizardStore()
    expect(z.goTo('timelimits')).toBe(false)
    await useWorkloadStore().importSample()
    const w = mount(InspectStep, { global: { plugins: [app.pinia], stubs: { ChartPanel: true } } })
    await w.get('[data-testid="to-timelimits"]').trigger('click')
    expect(z.current.id).toBe('timelimits')
    w.unmount()
  })

  it('a file names its step by id; a file from before the step (no stepId) keeps the step it was on', () => {
    // Every old index names the same step as before.
    LEGACY_STEP_IDS.forEach((id, i) => expect(STEPS[stepIndex(i)]!.id).toBe(id))
    expect(stepIndex(99)).toBe(STEPS.findIndex((s) => s.id === 'export'))
    expect(stepIndex(3, 'timelimits')).toBe(2)
    expect(stepIndex(3, 'nosuchstep')).toBe(4) // unknown id: the old index (candidates)
    const z = useWizardStore()
    useWorkloadStore().restore(makeWorkload(), {}, null)
    z.goTo('timelimits')
    const saved = toProject()
    expect(saved).toMatchObject({ step: 2, stepId: 'timelimits' })
    expect(ProjectStateSchema.parse(JSON.parse(JSON.stringify(saved))).stepId).toBe('timelimits')
    expect(() => ProjectStateSchema.parse({ ...saved, stepId: '<script>' })).toThrow(/step id/)
    z.goTo('import')
    fromProject(saved, makeWorkload())
    expect(z.current.id).toBe('timelimits')
    const old: Record<string, unknown> = { ...saved, step: 2 }
    delete old.stepId
    fromProject(ProjectStateSchema.parse(old), makeWorkload())
    expect(z.current.id).toBe('split') // the old file's third step
  })
})
