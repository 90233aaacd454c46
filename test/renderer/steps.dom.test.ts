// Each wizard step mounted with Pinia and a fake back end (charts stubbed: chart.js cannot paint in
// happy-dom): what it shows, what it asks the back end, and where it goes next.
import { describe, expect, it, vi } from 'vitest'
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import type { Component } from 'vue'
import App from '../../src/renderer/src/App.vue'
import ChartPanel from '../../src/renderer/src/components/ChartPanel.vue'
import ImportStep from '../../src/renderer/src/steps/ImportStep.vue'
import InspectStep from '../../src/renderer/src/steps/InspectStep.vue'
import SplitStep from '../../src/renderer/src/steps/SplitStep.vue'
import CandidatesStep from '../../src/renderer/src/steps/CandidatesStep.vue'
import RunStep from '../../src/renderer/src/steps/RunStep.vue'
import ResultsStep from '../../src/renderer/src/steps/ResultsStep.vue'
import ExportStep from '../../src/renderer/src/steps/ExportStep.vue'
import { useWorkloadStore } from '../../src/renderer/src/stores/workload'
import { useSplitStore } from '../../src/renderer/src/stores/split'
import { useCampaignStore } from '../../src/renderer/src/stores/campaign'
import { useResultsStore } from '../../src/renderer/src/stores/results'
import { useWizardStore } from '../../src/renderer/src/stores/wizard'
import { useSettingsStore } from '../../src/renderer/src/stores/settings'
import { freshApp, tracked, makeResult, makeWorkload, settle } from './fake-api'
import { sacctCommand } from '../../src/core/workload/sacct-command'

const app = freshApp()

const mountStep = (c: Component): VueWrapper => mount(c, { global: { plugins: [app.pinia], stubs: { ChartPanel: true } }, attachTo: document.body })
const charts = (w: VueWrapper) => w.findAllComponents(ChartPanel)
type Axis = { title: { text: string | string[] } }
const axisTitles = (config: unknown) => {
  const scales = (config as { options: { scales: Record<string, Axis> } }).options.scales
  return Object.values(scales).map((s) => [s.title.text].flat().join(' '))
}

/** Unfolds every folded section (as a click on its summary does: open, then the toggle event). */
async function unfoldAll(w: VueWrapper): Promise<void> {
  for (const d of w.findAll('details')) {
    (d.element as HTMLDetailsElement).open = true
    d.element.dispatchEvent(new Event('toggle'))
  }
  await flushPromises()
}

async function withLog(): Promise<void> {
  await useWorkloadStore().importSample()
}

describe('Import step', () => {
  it('opens the bundled sample and shows the import report with every rule that matched, warnings and provenance', async () => {
    const w = mountStep(ImportStep)
    await w.get('[data-testid="open-sample"]').trigger('click')
    await flushPromises()
    expect(app.api.importLog).toHaveBeenCalledWith({ kind: 'sample' }, {}, tracked)
    const text = w.text()
    expect(text).toContain('Imported KTH-SP2-1996-2.1-cln.swf.gz: 28,000 jobs on 100 processors.')
    expect(text).toContain('C7-overrun')
    expect(text).toContain('137, 138')
    // Only rules that matched get a row; the others are listed by name.
    expect(w.findAll('tbody tr').map((r) => r.find('td').text())).toEqual(['C7-overrun'])
    expect(text).toContain('No job matched: C3-too-big.')
    expect(text).toContain('requested time missing for 11,290 jobs')
    expect(text).toContain('Time zone')
    w.unmount()
  })

  it('shows the sacct command that gives EasyTune everything, exactly as declared, and what a log lacks', async () => {
    const w = mountStep(ImportStep)
    const box = w.get('[data-testid="sacct-command"]')
    expect(box.get('pre code').text()).toBe(sacctCommand('2024-01-01', '2024-06-30'))
    expect(box.text()).toContain('--duplicates')
    const s = useWorkloadStore()
    await s.importSample()
    await flushPromises()
    s.summary = { ...s.summary!, report: { ...s.summary!.report, resources: { has: ['partition'], lacks: [{ field: 'node list', cost: 'no NodeList: the machine\'s nodes cannot be inferred; give --cluster' }] } } }
    await flushPromises()
    const lacks = w.get('[data-testid="import-resources"]').text()
    expect(lacks).toContain('node list')
    expect(lacks).toContain('a cluster file (command line only)') // the GUI's words, never a flag
    expect(lacks).not.toContain('--cluster')
    w.unmount()
  })

  it('re-imports with a corrected machine size', async () => {
    const w = mountStep(ImportStep)
    await w.get('[data-testid="open-sample"]').trigger('click')
    await flushPromises()
    await w.get('#procs').setValue('128')
    await w.get('form.inline-form').trigger('submit')
    await flushPromises()
    expect(app.api.importLog).toHaveBeenLastCalledWith({ kind: 'sample' }, { procs: 128 }, tracked)
    w.unmount()
  })

  it('shows upload progress with a cancel button, and a clear message for a broken file', async () => {
    let fail: (e: Error) => void = () => {}
    app.api.addLogFile = vi.fn((f: File, on?: (s: number, t: number) => void) => { on?.(500_000, 2_000_000); return new Promise<{ handle: string; name: string }>((_, rej) => { fail = rej }) })
    const w = mountStep(ImportStep)
    const input = w.get('.dropzone input[type="file"]')
    Object.defineProperty(input.element, 'files', { value: [new File(['x'.repeat(10)], 'broken.swf')], configurable: true })
    await input.trigger('change')
    await flushPromises()
    expect(w.get('[role="progressbar"]').attributes('aria-valuenow')).toBe('25')
    expect(w.text()).toContain('Uploading broken.swf: 0.5 MB of 2.0 MB (25%)')
    fail(new Error('no job could be read: the file is not SWF, sacct, jobcomp or PBS'))
    await flushPromises()
    expect(w.get('[role="alert"]').text()).toContain('Could not import broken.swf: no job could be read')
    expect(w.find('[data-testid="retry-runtime"]').exists()).toBe(false)
    w.unmount()
  })

  it('a log without requested times: the message names the GUI\'s option, and a button imports it again with it (issue #20)', async () => {
    // The core's words (src/core/workload/import.ts noJobKept), as the back end sends them.
    app.api.importLog = vi.fn().mockRejectedValueOnce(new Error('no job was kept: all 50 jobs read were removed by cleaning: 50 requested-missing (requested time missing or ≤ 0). The log has no requested time (time limit) for these jobs, and EASY backfilling needs one. Import again with --requested-fallback runtime (each job\'s actual runtime as its estimate) or --requested-fallback <duration> (e.g. 24h, one limit for every job).'))
      .mockResolvedValueOnce(makeWorkload())
    const w = mountStep(ImportStep)
    const input = w.get('.dropzone input[type="file"]')
    Object.defineProperty(input.element, 'files', { value: [new File(['x'], 'no-limits.swf')], configurable: true })
    await input.trigger('change')
    await flushPromises()
    const alert = w.get('[data-testid="import-error"]').text()
    expect(alert).toContain('Import again with "Jobs without a requested time: use their actual runtime"')
    expect(alert).not.toMatch(/--[a-z]/)
    await w.get('[data-testid="retry-runtime"]').trigger('click')
    await flushPromises()
    expect(app.api.importLog).toHaveBeenLastCalledWith({ kind: 'handle', handle: 'h1' }, { requestedFallback: 'runtime' }, tracked)
    expect(app.api.addLogFile).toHaveBeenCalledTimes(1) // the file is not sent again
    expect(w.find('[data-testid="import-error"]').exists()).toBe(false)
    expect(w.text()).toContain('Import report')
    w.unmount()
  })

  it('every job larger than the machine: a Machine size field next to the message imports the file again with it', async () => {
    app.api.importLog = vi.fn().mockRejectedValueOnce(new Error('no job was kept: all 20 jobs read were removed by cleaning: 20 C3-too-big (more processors than the machine). Every job is larger than the machine: give the real machine size with --procs.'))
      .mockResolvedValueOnce(makeWorkload())
    const w = mountStep(ImportStep)
    await w.get('[data-testid="open-sample"]').trigger('click')
    await flushPromises()
    const alert = w.get('[data-testid="import-error"]').text()
    expect(alert).toContain('give the real machine size in the Machine size field.')
    expect(alert).not.toMatch(/--[a-z]/)
    await w.get('#retry-procs').setValue('512')
    await w.get('[data-testid="retry-procs"]').trigger('submit')
    await flushPromises()
    expect(app.api.importLog).toHaveBeenLastCalledWith({ kind: 'sample' }, { procs: 512 }, tracked)
    expect(w.find('[data-testid="import-error"]').exists()).toBe(false)
    w.unmount()
  })
})

describe('Inspect step', () => {
  it('draws load, sizes, requested times, over-estimation and recorded waits with unit-labelled axes; users sort', async () => {
    await withLog()
    const w = mountStep(InspectStep)
    const list = charts(w)
    expect(list.map((c) => c.props('title'))).toEqual(['Weekly submitted load and utilization', 'Job sizes', 'Requested times', 'Requested against actual runtime', 'Waits recorded by the real scheduler'])
    expect(axisTitles(list[0].props('config'))).toEqual(['Date (week starts, UTC)', 'Share of the machine (%)'])
    expect(axisTitles(list[1].props('config'))).toEqual(['Processors requested per job', 'Jobs'])
    expect(axisTitles(list[3].props('config'))).toEqual(['Requested time (log scale)', 'Actual runtime (log scale)'])
    const users = () => w.findAll('tbody tr').map((r) => r.find('td').text())
    expect(users()).toEqual(['u3', 'u1', 'u2']) // by work, largest first
    await w.findAll('th button').find((b) => b.text().startsWith('Jobs'))!.trigger('click')
    expect(users()).toEqual(['u2', 'u1', 'u3'])
    expect(w.text()).toContain('2.5×')
    w.unmount()
  })

  it('says which machine the log runs on and how closely the simulation follows its history', async () => {
    await withLog()
    const s = useWorkloadStore()
    s.summary!.inspect.machine = '404 nodes (8,080 CPUs), 4 partitions (core, devel, node, devcore), inferred from the log'
    s.summary!.inspect.fidelity = {
      jobs: 100, share: 1, recordedMean: 600, simulatedMean: 300, recordedMedian: 60, simulatedMedian: 30, recordedP90: 1200, simulatedP90: 900,
      pearson: 0.5, spearman: 0.71, meanDifference: -300, verdict: 'Follows closely.', meanWaitRatio: 0.5, within10m: 0.4, within1h: 0.8,
      backfilledShare: { recorded: 0.2, simulated: 0.25 }, movingWaitMape: null, movingWaitDays: 0, movingWaitReason: 'the log spans fewer than 14 days',
      partitions: { core: { jobs: 90, spearman: 0.7, meanWaitRatio: 0.4, within10m: 0.4, within1h: 0.8, recordedMeanWait: 600, simulatedMeanWait: 240 } }, limits: [],
    }
    const w = mountStep(InspectStep)
    await flushPromises()
    const text = w.text()
    expect(text).toContain('Machine: 404 nodes (8,080 CPUs)')
    expect(text).toContain('0.71') // rank correlation, against its aim
    expect(text).toContain('Mean wait, simulated / recorded0.5×') // the mean wait ratio, against its aim
    expect(text).toContain('the log spans fewer than 14 days')
    expect(w.findAll('tbody tr').map((r) => r.find('td').text())).toContain('core')
    w.unmount()
  })
})

describe('Split step', () => {
  it('moves the split with the keyboard, previews both parts and resets to the midpoint', async () => {
    await withLog()
    const w = mountStep(SplitStep)
    await settle(300)
    expect(app.api.previewSplit).toHaveBeenCalled()
    expect(w.text()).toContain('13,480 jobs over 166 d, offered load 70%, 23 full weeks')
    const slider = w.get('[role="slider"]')
    const before = Number(slider.attributes('aria-valuenow'))
    await slider.trigger('keydown', { key: 'PageUp' })
    const s = useSplitStore()
    expect(s.spec).toEqual({ kind: 'time', at: Math.round(before + 604800) })
    await settle(300)
    expect(app.api.previewSplit).toHaveBeenLastCalledWith('w1', s.spec)
    await w.findAll('button').find((b) => b.text() === 'Reset to the midpoint')!.trigger('click')
    expect(s.spec).toEqual({ kind: 'midpoint' })
    await w.get('#weeks').setValue('5')
    expect(s.resample.weeks).toBe(5)
    w.unmount()
  })
})

describe('Candidates step', () => {
  it('estimates the run from the chosen preset and thresholds, refuses an empty threshold list, starts and goes to Run', async () => {
    await withLog()
    const wiz = useWizardStore()
    wiz.goTo('candidates')
    const w = mountStep(CandidatesStep)
    await w.get('[data-testid="preset-ch6"]').setValue(true)
    for (const t of ['null', '72000', '200000']) await w.get(`[data-testid="threshold-${t}"]`).setValue(false)
    await settle(350)
    const req = vi.mocked(app.api.estimateCampaign).mock.calls.at(-1)![0]
    expect(req).toMatchObject({ workloadId: 'w1', candidates: { preset: 'ch6' }, thresholds: [144000], objective: 'avgWait', maxWaitRatio: 1.5, minGain: 0.05, confidence: 0.95, minWeeks: 8, criterion: 'ratio-of-means', split: { kind: 'midpoint' } })
    expect(w.get('[data-testid="estimate"]').text()).toContain('24 simulation cells, 72 week-long simulations: about 0.4 s on 1 worker')

    await w.get('[data-testid="threshold-144000"]').setValue(false)
    expect(w.text()).toContain('choose at least one threshold')
    expect(w.get('[data-testid="start-run"]').attributes('disabled')).toBeDefined()
    await w.get('#custom-thresholds').setValue('30h')
    // The longest-wait limit is on by default (1.5×) and can be lifted; the verdict's settings are typed in percent.
    expect((w.get('[data-testid="cap-enabled"]').element as HTMLInputElement).checked).toBe(true)
    expect(w.get('[data-testid="cap-default"]').text()).toContain('On by default at 1.5×')
    await w.get('[data-testid="cap-enabled"]').setValue(false)
    await w.get('[data-testid="min-gain"]').setValue('10')
    await w.get('[data-testid="confidence"]').setValue('90')
    await w.get('[data-testid="min-weeks"]').setValue('12')
    await w.get('[data-testid="criterion-mean-ratio"]').setValue(true)
    await w.get('[data-testid="start-run"]').trigger('click')
    await flushPromises()
    expect(app.api.startCampaign).toHaveBeenCalledWith(expect.objectContaining({ thresholds: [108000], maxWaitRatio: null, minGain: 0.1, confidence: 0.9, minWeeks: 12, criterion: 'mean-ratio' }))
    expect(wiz.current.id).toBe('run')
    w.unmount()
  })
})

describe('Candidates step: a log too short to evaluate', () => {
  it('Start stays disabled with the words of the back end\'s estimate (the CLI\'s exit-2 message); without a problem it is enabled', async () => {
    // The back end refuses the estimate (and the campaign) of a log too short, in evaluate's words.
    const problem = 'this log spans 9.0 days (train: 1 full week); the protocol needs at least 2 full weeks in each part: give several files, e.g. daily jobcomp files, or a longer sacct range'
    app.api.estimateCampaign = vi.fn(async () => { throw new Error(problem) }) as typeof app.api.estimateCampaign
    await withLog()
    const w = mountStep(CandidatesStep)
    await settle(350)
    expect(w.get('[data-testid="estimate-problem"]').text()).toBe(problem)
    expect(w.get('[data-testid="start-run"]').attributes('disabled')).toBeDefined()
    await w.get('[data-testid="start-run"]').trigger('click')
    expect(app.api.startCampaign).not.toHaveBeenCalled()
    app.api.estimateCampaign = vi.fn(async () => ({ cells: 24, weekSimulations: 72, seconds: 0.4, workers: 1 })) as typeof app.api.estimateCampaign
    await w.get('[data-testid="min-weeks"]').setValue('9')
    await settle(350)
    expect(w.find('[data-testid="estimate-problem"]').exists()).toBe(false)
    expect(w.get('[data-testid="start-run"]').attributes('disabled')).toBeUndefined()
    w.unmount()
  })
})

describe('Run step', () => {
  it('shows progress, workers and partial cells, cancels, and opens Results when done', async () => {
    await withLog()
    const c = useCampaignStore(), wiz = useWizardStore()
    await c.start(c.request('w1', { kind: 'midpoint' }, { method: 'user-weeks', weeks: 3, seed: 1 }))
    wiz.goTo('run')
    const w = mountStep(RunStep)
    app.api.emit({ campaignId: 'c1', kind: 'progress', cellsDone: 2, cellsTotal: 4, cachedCells: 1, samplesDone: 6, samplesTotal: 12, etaSeconds: 90, perWorker: [{ worker: 1, pid: 4242, state: 'busy', cell: 'EASY-SPF Θ=40 h (train)' }] })
    app.api.emit({ campaignId: 'c1', kind: 'cell', label: 'EASY-FCFS Θ=none', part: 'train', meanObjective: 600 })
    app.api.emit({ campaignId: 'c1', kind: 'cell', label: 'EASY-SPF Θ=40 h', part: 'train', meanObjective: 300 })
    await flushPromises()
    expect(w.text()).toContain('2 of 4 cells (1 from the cache), 6 of 12 week simulations (50%), about 90 s left')
    expect(w.text()).toContain('4242')
    // No worker has reported its weeks yet (browser mode never does): no column of dashes (issue #20).
    expect(w.find('[data-testid="worker-weeks"]').exists()).toBe(false)
    expect(w.text()).not.toContain('Weeks simulated')
    // Desktop app: the worker's own stream (its port) refines its row.
    app.api.emit({ campaignId: 'c1', kind: 'worker-progress', worker: 1, pid: 4242, cell: 'EASY-SPF Θ=40 h (train)', samplesDone: 10, samples: 40 })
    await flushPromises()
    expect(w.get('[data-testid="worker-weeks"]').text()).toBe('10 of 40 (25%)')
    expect(w.text()).toContain('Weeks simulated')
    // The worker is handed its next cell: its row says so until the worker reports on it.
    app.api.emit({ campaignId: 'c1', kind: 'progress', cellsDone: 3, cellsTotal: 4, cachedCells: 1, samplesDone: 9, samplesTotal: 12, etaSeconds: 30, perWorker: [{ worker: 1, pid: 4242, state: 'busy', cell: 'EASY-LQF Θ=40 h (train)' }] })
    await flushPromises()
    expect(w.get('[data-testid="worker-weeks"]').text()).toBe('starting the cell')
    app.api.emit({ campaignId: 'c1', kind: 'worker-progress', worker: 1, pid: 4242, cell: 'EASY-SPF Θ=40 h (train)', samplesDone: 10, samples: 40 })
    await flushPromises()
    expect(w.text()).toContain('EASY-SPF Θ=40 h5 min0.50×')
    // Every cell done, the whole-log runs still going: the page says what it waits for, not just 100 %.
    app.api.emit({ campaignId: 'c1', kind: 'progress', cellsDone: 4, cellsTotal: 4, cachedCells: 1, samplesDone: 12, samplesTotal: 12, etaSeconds: null, perWorker: [{ worker: 1, pid: 4242, state: 'idle', cell: null }], phase: 'fidelity' })
    await flushPromises()
    expect(w.text()).toContain('All 4 cells done. Replaying the whole log under the baseline to compare it with the starts your log recorded…')
    app.api.emit({ campaignId: 'c1', kind: 'progress', cellsDone: 4, cellsTotal: 4, cachedCells: 1, samplesDone: 12, samplesTotal: 12, etaSeconds: null, perWorker: [{ worker: 1, pid: 4242, state: 'idle', cell: null }], phase: 'impact' })
    await flushPromises()
    expect(w.text()).toContain('Simulating the whole log under the recommendation to see who gains and who loses…')
    await w.get('[data-testid="cancel-run"]').trigger('click')
    expect(app.api.cancel).toHaveBeenCalledWith('c1')
    w.unmount()

    await c.start(c.request('w1', { kind: 'midpoint' }, { method: 'user-weeks', weeks: 3, seed: 1 }))
    wiz.goTo('run')
    const w2 = mountStep(RunStep)
    app.api.emit({ campaignId: 'c1', kind: 'done', result: makeResult() })
    await flushPromises()
    expect(wiz.current.id).toBe('results')
    w2.unmount()
  })

  it('clears the cell cache on request and says how much it freed, or why not', async () => {
    const w = mountStep(RunStep)
    await w.get('[data-testid="clear-cache"]').trigger('click')
    await flushPromises()
    expect(app.api.clearCellCache).toHaveBeenCalledTimes(1)
    expect(w.get('[data-testid="cache-note"]').text()).toBe('Cleared 3 cached cells (4.5 kB).')
    vi.mocked(app.api.clearCellCache).mockRejectedValueOnce(new Error('a campaign is running: cancel it or wait for it before clearing the cache'))
    await w.get('[data-testid="clear-cache"]').trigger('click')
    await flushPromises()
    expect(w.get('[data-testid="cache-note"]').text()).toBe('Could not clear the cache: a campaign is running: cancel it or wait for it before clearing the cache')
    w.unmount()
  })
})

describe('Results step', () => {
  it('says the recommendation, draws the four charts of the thesis, sorts the table and flags stale results', async () => {
    await withLog()
    const s = useSplitStore(), c = useCampaignStore()
    s.resample = { method: 'user-weeks', weeks: 3, seed: 1 }
    c.preset = 'ch6'
    c.standardThresholds = [144000]
    c.capEnabled = false // the result has no limit
    useResultsStore().setResult(makeResult())
    const w = mountStep(ResultsStep)
    // The verdict card first; everything else folded (nothing built until unfolded).
    expect(w.get('[data-testid="verdict-title"]').text()).toBe('Switch to EASY-SPF Θ=40 h')
    expect(charts(w)).toHaveLength(0)
    expect(w.find('[data-testid="recommendation"]').exists()).toBe(false)
    await unfoldAll(w)
    expect(w.get('[data-testid="recommendation"]').text()).toBe(makeResult().recommendation.sentence)
    const list = charts(w)
    expect(list).toHaveLength(4)
    for (const ch of list) {
      const titles = axisTitles(ch.props('config'))
      expect(titles).toHaveLength(2)
      for (const t of titles) expect(t).toMatch(/\(|%|×/) // every axis names its unit
    }
    const order = () => w.findAll('table tbody tr').map((r) => r.findAll('td')[1].text())
    expect(order()).toEqual(['EASY-SPF', 'EASY-SAF', 'EASY-FCFS', 'EASY-LQF']) // by train rank
    await w.findAll('th button').find((b) => b.text().startsWith('Test gain'))!.trigger('click')
    expect(order()).toEqual(['EASY-SAF', 'EASY-SPF', 'EASY-FCFS', 'EASY-LQF'])
    expect(w.find('[data-testid="stale-banner"]').exists()).toBe(false)
    s.setAt(20_000_000)
    await flushPromises()
    expect(w.get('[data-testid="stale-banner"]').text()).toContain('the split point moved')
    // The charts follow the part toggle.
    await w.findAll('input[type="radio"]').find((r) => (r.element as HTMLInputElement).value === 'train')!.setValue(true)
    expect(axisTitles(charts(w)[0].props('config')).join(' ')).toContain('train')
    w.unmount()
  })
})

describe('Online and mixed results', () => {
  it('shows an opened `easytune online --json` and `easytune mixed --json` next to the evaluation', async () => {
    const r = useResultsStore()
    r.setResult(makeResult())
    const band = { mean: 0.2, p10: 0.1, p90: 0.3 }
    r.loadJson(JSON.stringify({
      schemaVersion: 1, log: { name: 'KTH', machineProcs: 100 }, config: { policies: ['FCFS', 'SPF'], period: 604800, threshold: 144000, traces: 1 }, traces: 1, periods: 4, periodEnds: [], citation: null,
      runs: [{ id: 'full', label: 'Full feedback (Δ = 1 week)', kind: 'strategy', totalWait: [1], avgWait: 5400, relative: -0.2, gain: 0.2, gainBand: band, gainCurve: { mean: [], p10: [], p90: [] } }],
    }))
    const entry = (label: string, gain: number) => ({ label, weights: [1, 0, 0], candidate: { primary: 'SQF', backfill: 'same' }, threshold: null, train: { gain, maxMaxWaitRatio: 1.2 }, test: { gain, maxMaxWaitRatio: 1.3 } })
    r.loadJson(JSON.stringify({ schemaVersion: 1, log: { name: 'KTH', machineProcs: 100, jobs: 28000 }, options: { method: 'xnes', objective: 'avgWait', budget: 10 }, features: [], best: entry('EASY-mixed(0.7, 0.3)', 0.33), baseline: entry('EASY-FCFS', 0), vertices: [entry('EASY-SQF', 0.25)] }))
    const w = mountStep(ResultsStep)
    await unfoldAll(w)
    const text = w.text()
    expect(text).toContain('Online selection on KTH: 1 trace(s), 4 periods of 7 d, Θ = 40 h')
    expect(text).toContain('Full feedback (Δ = 1 week)90 min+20.0%10% to 30%')
    expect(text).toContain('EASY-mixed(0.7, 0.3)1, 0, 0+33.0%+33.0%1.3×')
    w.unmount()
  })
})

describe('Running online and mixed analyses from the Results step', () => {
  const band = { mean: 0.2, p10: 0.1, p90: 0.3 }
  const onlineDoc = {
    schemaVersion: 1, log: { name: 'KTH', machineProcs: 100 }, config: { policies: ['FCFS'], period: 604800, threshold: 144000, traces: 3 }, traces: 3, periods: 26, periodEnds: [], citation: null,
    runs: [{ id: 'egreedy', label: 'ε-greedy bandit feedback', kind: 'strategy', totalWait: [1], avgWait: 3600, relative: -0.15, gain: 0.15, gainBand: band, gainCurve: { mean: [], p10: [], p90: [] } }],
  }

  it('runs the online emulation with the shown options: progress, then the result in the table', async () => {
    await withLog()
    useResultsStore().setResult(makeResult())
    const w = mountStep(ResultsStep)
    await unfoldAll(w)
    await w.get('[data-testid="online-traces"]').setValue('5')
    await w.get('[data-testid="online-period"]').setValue('day')
    await w.get('[data-testid="run-online"]').trigger('click')
    await flushPromises()
    expect(app.api.startAnalysis).toHaveBeenCalledWith({ workloadId: 'w1', kind: 'online', options: { strategies: ['full', 'noisy', 'egreedy', 'random'], period: 'day', weeks: 26, traces: 5, seed: 1 } })
    app.api.emitAnalysis({ analysisId: 'other', kind: 'progress', analysis: 'online', fraction: 0.9 })
    app.api.emitAnalysis({ analysisId: 'a1', kind: 'progress', analysis: 'online', fraction: 0.42 })
    await flushPromises()
    expect(w.get('[role="progressbar"]').attributes('aria-valuenow')).toBe('42')
    expect(w.text()).toContain('Online selection emulation: 42%')
    expect(w.get('[data-testid="run-mixed"]').element.closest('fieldset')!.disabled).toBe(true)
    app.api.emitAnalysis({ analysisId: 'a1', kind: 'done', analysis: 'online', result: onlineDoc })
    await flushPromises()
    expect(w.find('[role="progressbar"]').exists()).toBe(false)
    expect(w.text()).toContain('Online selection on KTH: 3 trace(s), 26 periods of 7 d')
    expect(w.text()).toContain('ε-greedy bandit feedback60 min+15.0%')
    expect(useResultsStore().extras.online).toEqual(onlineDoc)
    w.unmount()
  })

  it('searches a mixed policy on the wizard\'s split, and Cancel calls app.api.cancel', async () => {
    await withLog()
    useSplitStore().setAt(600000 + 10 * 604800)
    useResultsStore().setResult(makeResult())
    const w = mountStep(ResultsStep)
    await unfoldAll(w)
    await w.get('[data-testid="mixed-budget"]').setValue('100')
    await w.get('[data-testid="run-mixed"]').trigger('click')
    await flushPromises()
    expect(app.api.startAnalysis).toHaveBeenCalledWith({
      workloadId: 'w1', kind: 'mixed', options: { features: 3, method: 'xnes', budget: 100, weeks: 20, objective: 'avgWait', seed: 1 }, split: { kind: 'time', at: 600000 + 10 * 604800 },
    })
    await w.get('[data-testid="cancel-analysis"]').trigger('click')
    await flushPromises()
    expect(app.api.cancel).toHaveBeenCalledWith('a1')
    app.api.emit({ campaignId: 'a1', kind: 'cancelled' }) // a campaign's stream: not this analysis
    await flushPromises()
    expect(w.text()).not.toContain('Mixed policy search cancelled.')
    app.api.emitAnalysis({ analysisId: 'a1', kind: 'cancelled' })
    await flushPromises()
    expect(w.text()).toContain('Mixed policy search cancelled.')
    expect(w.find('[data-testid="cancel-analysis"]').exists()).toBe(false)
    expect(useResultsStore().extras.mixed).toBeNull()
    w.unmount()
  })
})

describe('Export step', () => {
  it('exports for SLURM with the chosen version, shows fidelity and gaps, copies, saves and generates the report', async () => {
    useResultsStore().setResult(makeResult())
    const writeText = vi.fn(async () => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    const w = mountStep(ExportStep)
    await flushPromises()
    expect(app.api.exportConfig).toHaveBeenCalledWith(expect.objectContaining({ kind: 'easytune-evaluation' }), 'slurm', { slurmVersion: '22.05' })
    expect(w.get('[data-testid="export-file"]').text()).toContain('PriorityType=priority/multifactor')
    expect(w.text()).toContain('site factor')
    expect(w.text()).toContain('One reservation per partition')
    await w.findAll('button').find((b) => b.text() === 'Copy')!.trigger('click')
    await flushPromises()
    expect(writeText).toHaveBeenCalledWith('PriorityType=priority/multifactor\n')
    await w.findAll('button').find((b) => b.text() === 'Save…')!.trigger('click')
    await flushPromises()
    expect(app.api.saveText).toHaveBeenCalledWith('slurm.conf.easytune', 'PriorityType=priority/multifactor\n', 'text/plain')
    await w.get('[data-testid="generate-report"]').trigger('click')
    await flushPromises()
    expect(app.api.generateReport).toHaveBeenCalled()
    expect(app.api.saveText).toHaveBeenLastCalledWith('easytune-report.html', '<!doctype html><title>report</title>', 'text/html')
    expect(w.find('[data-testid="report-pdf"]').exists()).toBe(false) // browser mode: its server cannot print
    await w.findAll('input[type="radio"]').find((r) => (r.element as HTMLInputElement).value === 'pbs')!.setValue(true)
    await flushPromises()
    expect(app.api.exportConfig).toHaveBeenLastCalledWith(expect.anything(), 'pbs', {})
    w.unmount()
  })
})

describe('App frame', () => {
  it('marks the current step with aria-current, disables steps that need a log, and toggles the theme', async () => {
    await useSettingsStore().load()
    const w = mountStep(App)
    const nav = () => w.findAll('nav button')
    expect(nav()[0].attributes('aria-current')).toBe('step')
    expect(nav()[2].attributes('disabled')).toBeDefined()
    await useWorkloadStore().importSample()
    await flushPromises()
    await nav()[2].trigger('click')
    expect(nav()[2].attributes('aria-current')).toBe('step')
    expect(nav()[0].attributes('aria-current')).toBeUndefined()
    const toggle = w.get('.theme-toggle')
    expect(toggle.text()).toContain('Theme: System')
    await toggle.trigger('click')
    await flushPromises()
    expect(app.api.setSettings).toHaveBeenCalledWith({ theme: 'light' })
    expect(document.documentElement.dataset.theme).toBe('light')
    await toggle.trigger('click')
    await flushPromises()
    expect(document.documentElement.dataset.theme).toBe('dark')
    w.unmount()
    expect(makeWorkload().id).toBe('w1')
  })
})
