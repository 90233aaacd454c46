// The Time limits step's "Deploy on Slurm: order by predicted runtime" (issue #22 item 5, deployment
// (a); docs/PREDICTIONS.md §Deployment) mounted with Pinia and the fake back end: what it is and
// what it costs, the waiting-time threshold in the Candidates step's choices and words (never a
// flag), the fidelity computed in the background (progress, Cancel), its table with units against
// today (figures worked by hand below), and "Save the files": the operation's files saved in turn
// under their names, the current slurm.conf passed on, a cancelled save said, a stale fidelity
// never saved.
import { describe, expect, it, vi } from 'vitest'
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import PredictedOrderPanel from '../../src/renderer/src/components/PredictedOrderPanel.vue'
import TimeLimitsStep from '../../src/renderer/src/steps/TimeLimitsStep.vue'
import { useWorkloadStore } from '../../src/renderer/src/stores/workload'
import type { PredictedOrderFidelity } from '../../src/shared/api'
import { freshApp } from './fake-api'

const app = freshApp()

async function opened(): Promise<VueWrapper> {
  await useWorkloadStore().importSample()
  const w = mount(PredictedOrderPanel, { global: { plugins: [app.pinia] }, attachTo: document.body })
  await flushPromises()
  return w
}

/** Today: 2 h average wait, slowdown 20, longest wait 2 d. By limit: half the wait (1 h), 8, 4 d.
 * Exported: 90 min (−25 %), 10 (−50 %), 3 d (+50 %, 1.5× today's). */
const FID: PredictedOrderFidelity = {
  jobs: 600, machineProcs: 100, tau: 10, threshold: 72_000, withUser: 1,
  today: { avgWait: 7200, avgBsld: 20, maxWait: 172_800 },
  byLimit: { avgWait: 3600, avgBsld: 8, maxWait: 345_600 },
  deployable: { avgWait: 5400, avgBsld: 10, maxWait: 259_200 },
  planned: { avgWait: 7920, avgBsld: 18, maxWait: 172_800 },
  easyPlusPlus: { avgWait: 6480, avgBsld: 15, maxWait: 216_000 },
  historyDays: 30, outsideWindow: 0.015,
}
const FILES = ['slurm.conf.easytune', 'job_submit.lua', 'easytune-predicted-order.sh', 'README-predicted-order.txt', 'easytune-predicted-order.json']
const cells = (w: VueWrapper, row: string) => w.find(`[data-row="${row}"]`).findAll('td').map((td) => td.text())

async function computed(w: VueWrapper, f: PredictedOrderFidelity = FID): Promise<void> {
  await w.find('[data-testid="run-predicted"]').trigger('click')
  await flushPromises()
  app.api.emitAnalysis({ analysisId: 'a1', kind: 'done', analysis: 'predicted-order', result: f })
  await flushPromises()
}

describe('Deploy on Slurm: order by predicted runtime', () => {
  it('says what it is and offers the Candidates step\'s thresholds in words, 20 h by default; never a command-line flag', async () => {
    const w = await opened()
    expect(w.find('h3').text()).toBe('Deploy on Slurm: order by predicted runtime')
    expect(w.find('[data-testid="predicted-what"]').text()).toMatch(/Slurm plans its reservations and its backfilling on the time limits.*ranked by its predicted runtime, shortest first, through its site factor.*AVE₂.*every minute as root reads the accounting history/s)
    expect(w.find('fieldset legend').text()).toBe('Risk: waiting-time threshold')
    const labels = w.findAll('.check-row strong').map((s) => s.text())
    expect(labels).toEqual(['None', '20 h', '40 h', '200,000 s (2.31 d)', 'Custom'])
    expect((w.find('[data-testid="predicted-threshold-72000"]').element as HTMLInputElement).checked).toBe(true)
    expect(w.text()).toContain('thesis ch. 5: longest waits stay under 1.75× EASY-FCFS\'s')
    expect(w.find('[data-testid="predicted-history"]').element).toHaveProperty('value', '30')
    expect(w.text()).toContain('days')
    expect(w.text()).not.toMatch(/--[a-z]/)
    expect(w.find('[data-testid="save-predicted"]').attributes('disabled')).toBeDefined()
  })

  it('sends the threshold chosen in seconds; a custom one is read as the Candidates step reads it, a bad one refused in words', async () => {
    const w = await opened()
    await w.find('[data-testid="predicted-threshold-custom"]').setValue(true)
    await w.find('[data-testid="predicted-threshold-text"]').setValue('soon')
    expect(w.find('[data-testid="predicted-threshold-error"]').text()).toMatch(/none for no threshold/)
    expect(w.find('[data-testid="run-predicted"]').attributes('disabled')).toBeDefined()
    await w.find('[data-testid="predicted-threshold-text"]').setValue('10h')
    expect(w.find('[data-testid="predicted-threshold-error"]').exists()).toBe(false)
    await w.find('[data-testid="predicted-history"]').setValue('14')
    await w.find('[data-testid="run-predicted"]').trigger('click')
    expect(app.api.startAnalysis).toHaveBeenLastCalledWith({ workloadId: 'w1', kind: 'predicted-order', options: { threshold: 36_000, historyDays: 14 } })
    await w.find('[data-testid="predicted-threshold-null"]').setValue(true)
    await w.find('[data-testid="predicted-history"]').setValue('0')
    expect(w.text()).toContain('the history must be a whole number of days from 1 to 3,650')
    expect(w.find('[data-testid="run-predicted"]').attributes('disabled')).toBeDefined()
  })

  it('computes in the background with progress and Cancel', async () => {
    const w = await opened()
    await w.find('[data-testid="run-predicted"]').trigger('click')
    await flushPromises()
    app.api.emitAnalysis({ analysisId: 'a1', kind: 'progress', analysis: 'predicted-order', fraction: 0.4 })
    app.api.emitAnalysis({ analysisId: 'other', kind: 'progress', analysis: 'walltimes', fraction: 0.9 })
    await flushPromises()
    expect(w.text()).toContain('Fidelity: 40%')
    expect(w.find('[data-testid="run-predicted"]').attributes('disabled')).toBeDefined()
    await w.find('[data-testid="cancel-predicted"]').trigger('click')
    expect(app.api.cancel).toHaveBeenCalledWith('a1')
    app.api.emitAnalysis({ analysisId: 'a1', kind: 'cancelled' })
    await flushPromises()
    expect(w.find('[data-testid="predicted-cancelled"]').text()).toBe('Fidelity cancelled.')
    expect(w.find('[data-testid="predicted-table"]').exists()).toBe(false)
  })

  it('shows the fidelity with units against today, and its price: the longest wait', async () => {
    const w = await opened()
    await computed(w)
    expect(w.find('caption').text()).toMatch(/EASY on all 600 jobs of the log \(100 processors\); bounded slowdowns with τ = 10 s.*threshold 20 h/s)
    expect(w.findAll('thead th').map((t) => t.text())).toEqual(['Order', 'Average wait', 'Average bounded slowdown', 'Longest wait'])
    expect(cells(w, 'today')).toEqual(['EASY-FCFS (today)', '2 h', '20', '2 d'])
    expect(cells(w, 'byLimit')).toEqual(['Ordered by time limit', '60 min (−50%)', '8 (−60%)', '4 d (+100%)'])
    expect(cells(w, 'deployable')).toEqual(['Ordered by AVE₂ prediction (these files)', '90 min (−25%)', '10 (−50%)', '3 d (+50%)'])
    expect(cells(w, 'easyPlusPlus')).toEqual(['EASY++ (thesis)', '108 min (−10%)', '15 (−25%)', '2.5 d (+25%)'])
    expect(w.find('[data-testid="predicted-cost"]').text()).toBe('Its price is the longest wait: 2 d today, 3 d with the exported order (1.5× today\'s). With the threshold, a job that waited longer than 20 h runs first, oldest first.')
    expect(w.text()).toContain('With 30 days of accounting history, 1.5% of the jobs would be predicted differently')
  })

  it('without a threshold, says the longest wait grows unbounded', async () => {
    const w = await opened()
    await w.find('[data-testid="predicted-threshold-null"]').setValue(true)
    await computed(w, { ...FID, threshold: null })
    expect(w.find('[data-testid="predicted-cost"]').text()).toContain('Without a waiting-time threshold, short predicted jobs keep overtaking long ones')
    expect(w.find('caption').text()).toContain('No waiting-time threshold.')
  })

  it('"Save the files" saves the operation\'s files in turn under their names, with the current slurm.conf when given', async () => {
    const w = await opened()
    await computed(w)
    await w.find('[data-testid="predicted-conf"]').setValue('ClusterName=site\n')
    await w.find('[data-testid="save-predicted"]').trigger('click')
    await flushPromises()
    expect(app.api.exportPredictedOrder).toHaveBeenCalledWith('w1', { threshold: 72_000, historyDays: 30, fidelity: FID, currentConf: 'ClusterName=site\n' })
    expect(vi.mocked(app.api.saveText).mock.calls.map((c) => c[0])).toEqual(FILES)
    expect(vi.mocked(app.api.saveText).mock.calls.map((c) => c[2])).toEqual(['text/plain', 'text/plain', 'text/plain', 'text/plain', 'application/json'])
    expect(w.find('[data-testid="predicted-status"]').text()).toBe(`Saved 5 files: ${FILES.join(', ')}.`)
    expect(w.find('[data-testid="predicted-files"]').text()).toContain('slurm.conf (your slurm.conf with the changes merged in)')
  })

  it('a save the person cancels stops there and says so; without a slurm.conf no currentConf is sent', async () => {
    const w = await opened()
    await computed(w)
    app.api.saveText = vi.fn(async (name: string) => name !== 'job_submit.lua')
    await w.find('[data-testid="save-predicted"]').trigger('click')
    await flushPromises()
    expect(app.api.exportPredictedOrder).toHaveBeenCalledWith('w1', { threshold: 72_000, historyDays: 30, fidelity: FID })
    expect(vi.mocked(app.api.saveText).mock.calls.map((c) => c[0])).toEqual(['slurm.conf.easytune', 'job_submit.lua'])
    expect(w.find('[data-testid="predicted-status"]').text()).toBe('Stopped: job_submit.lua was not saved.')
    expect(w.find('[data-testid="predicted-files"]').text()).toContain('slurm.conf.easytune (the settings to add to your slurm.conf)')
  })

  it('a fidelity computed with another threshold is never saved: compute it again first', async () => {
    const w = await opened()
    await computed(w)
    await w.find('[data-testid="predicted-threshold-144000"]').setValue(true)
    expect(w.find('[data-testid="predicted-stale"]').text()).toContain('compute it again before saving')
    expect(w.find('[data-testid="save-predicted"]').attributes('disabled')).toBeDefined()
    await w.find('[data-testid="save-predicted"]').trigger('click')
    expect(app.api.exportPredictedOrder).not.toHaveBeenCalled()
  })

  it('an error of the export is said in words', async () => {
    const w = await opened()
    await computed(w)
    app.api.exportPredictedOrder = vi.fn(async () => { throw new Error('the fidelity was measured on another log') })
    await w.find('[data-testid="save-predicted"]').trigger('click')
    await flushPromises()
    expect(w.find('[data-testid="predicted-status"]').text()).toBe('Could not export: the fidelity was measured on another log')
    expect(app.api.saveText).not.toHaveBeenCalled()
  })
})

describe('in the Time limits step', () => {
  it('the deployment statement points at the panel below, not at the Export step', async () => {
    await useWorkloadStore().importSample()
    const w = mount(TimeLimitsStep, { global: { plugins: [app.pinia], stubs: { ChartPanel: true } }, attachTo: document.body })
    await flushPromises()
    const deploy = w.find('[data-testid="deployment"]').text()
    expect(deploy).toContain('(a) is the next panel, with its fidelity on this log and its files')
    expect(deploy).not.toContain('Export step')
    expect(w.find('[data-testid="predicted-order"]').exists()).toBe(true)
  })
})
