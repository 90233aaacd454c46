// The Inspect step's Cluster panel (issue #21; docs/CLUSTER.md §Inputs) mounted with Pinia and the
// fake back end: the three machines in the GUI's words (never a flag), a pasted machine file
// checked in the background (progress, Cancel) and its summary shown, a file the back end cannot
// read said with its line, QOS priorities when the log has QOS, the choice carried by the
// campaign request and the project file (older files open as inferred), and a result computed
// on another machine marked stale.
import { describe, expect, it } from 'vitest'
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import ClusterPanel from '../../src/renderer/src/components/ClusterPanel.vue'
import ExportStep from '../../src/renderer/src/steps/ExportStep.vue'
import { useWorkloadStore } from '../../src/renderer/src/stores/workload'
import { useMachineStore, type MachineView } from '../../src/renderer/src/stores/machine'
import { useCampaignStore } from '../../src/renderer/src/stores/campaign'
import { useResultsStore } from '../../src/renderer/src/stores/results'
import { blankProject, fromProject, toProject } from '../../src/renderer/src/stores/project'
import { freshApp, makeResult, makeWorkload } from './fake-api'

const app = freshApp()
const CONF = 'NodeName=n[1-4] CPUs=8 Gres=gpu:2\nPartitionName=batch Nodes=n[1-4] Default=YES\n'
/** Four nodes of 8 CPUs and 2 GPUs: 32 CPUs, 8 GPUs, one partition. */
const VIEW: MachineView = {
  machine: {
    kind: 'cluster', scheduler: 'easy', description: '4 nodes (32 CPUs, 8 GPUs), 1 partition (batch), from machine.conf', source: 'slurm.conf',
    nodes: 4, cpus: 32, gpus: 8, partitions: [{ name: 'batch', nodes: 4, cpus: 32, gpus: 8 }], notes: ['Memory per node not given: not a constraint.'], conf: null,
  },
  fidelity: null,
}

async function opened(qosNames?: string[]): Promise<VueWrapper> {
  if (qosNames) app.api.importLog = (async () => { const w = makeWorkload(); return { ...w, inspect: { ...w.inspect, qosNames } } }) as typeof app.api.importLog
  await useWorkloadStore().importSample()
  const w = mount(ClusterPanel, { global: { plugins: [app.pinia] }, attachTo: document.body })
  await flushPromises()
  return w
}

describe('the Cluster panel', () => {
  it('offers the three machines in words, the log\'s own by default with what it was inferred from; never a flag', async () => {
    const w = await opened()
    expect((w.find('[data-testid="machine-source-inferred"]').element as HTMLInputElement).checked).toBe(true)
    expect(w.text()).toContain('Inferred from the log (one pool of 100 processors (header-maxprocs))')
    expect(w.text()).toContain('Machine from a file')
    expect(w.text()).toContain('Slurm\'s own scheduling from our slurm.conf, as it runs today')
    expect(w.text()).not.toMatch(/--[a-z]/)
    expect(w.find('[data-testid="qos-table"]').exists()).toBe(false) // the log has no QOS
    expect(useMachineStore().choice).toBeUndefined() // the default: requests stay as before
  })

  it('checks a pasted machine file in the background with progress and Cancel, then shows its nodes, CPUs, GPUs and partitions', async () => {
    const w = await opened()
    await w.find('[data-testid="machine-source-file"]').setValue(true)
    expect(w.find('[data-testid="machine-check"]').attributes('disabled')).toBeDefined()
    expect(w.text()).toContain('Give the machine file (choose it or paste it).')
    await w.find('textarea[data-testid="machine-file"]').setValue(CONF)
    await w.find('[data-testid="machine-check"]').trigger('click')
    await flushPromises()
    expect(app.api.startAnalysis).toHaveBeenLastCalledWith({ workloadId: 'w1', kind: 'machine', options: { source: 'file', file: { name: 'machine.conf', text: CONF } } })
    app.api.emitAnalysis({ analysisId: 'a1', kind: 'progress', analysis: 'machine', fraction: 0.25 })
    await flushPromises()
    expect(w.find('[role="progressbar"]').attributes('aria-valuenow')).toBe('25')
    await w.find('[data-testid="machine-cancel"]').trigger('click')
    expect(app.api.cancel).toHaveBeenCalledWith('a1')
    app.api.emitAnalysis({ analysisId: 'a1', kind: 'cancelled' })
    await flushPromises()
    expect(w.text()).toContain('Check cancelled.')
    await w.find('[data-testid="machine-check"]').trigger('click')
    await flushPromises()
    app.api.emitAnalysis({ analysisId: 'a1', kind: 'done', analysis: 'machine', result: VIEW })
    await flushPromises()
    const s = w.find('[data-testid="machine-summary"]')
    expect(s.text()).toContain('Machine: 4 nodes (32 CPUs, 8 GPUs), 1 partition (batch), from machine.conf.')
    expect(s.text()).toContain('4 nodes, 32 CPUs, 8 GPUs; scheduling: the research\'s EASY.')
    expect(s.findAll('tbody tr')[0]!.findAll('td').map((t) => t.text())).toEqual(['batch', '4', '32', '8'])
    expect(s.text()).toContain('Memory per node not given')
    // Another choice: the summary is no longer this choice's.
    await w.find('[data-testid="scheduler-slurm"]').setValue(true)
    expect(w.find('[data-testid="machine-summary"]').exists()).toBe(false)
    expect(w.text()).toContain('The choice changed since the last check')
  })

  it('says which line of the file the back end could not read', async () => {
    const w = await opened()
    await w.find('[data-testid="machine-source-current"]').setValue(true)
    await w.find('textarea[data-testid="machine-file"]').setValue('PartitionName=p Nodes=z[1-4]\n')
    await w.find('[data-testid="machine-check"]').trigger('click')
    await flushPromises()
    app.api.emitAnalysis({ analysisId: 'a1', kind: 'error', message: 'slurm.conf line 1: partition p names node z1, which no NodeName line declares' })
    await flushPromises()
    expect(w.find('[data-testid="machine-error"]').text()).toBe('slurm.conf line 1: partition p names node z1, which no NodeName line declares')
  })

  it('our slurm.conf runs Slurm\'s own scheduling by default; another scheduling and QOS priorities go with the choice', async () => {
    const w = await opened(['normal', 'high'])
    const m = useMachineStore()
    await w.find('[data-testid="machine-source-current"]').setValue(true)
    expect((w.find('[data-testid="scheduler-slurm"]').element as HTMLInputElement).checked).toBe(true)
    await w.find('textarea[data-testid="machine-file"]').setValue(CONF)
    expect(m.choice).toEqual({ source: 'current', file: { name: 'slurm.conf', text: CONF } })
    const inputs = w.find('[data-testid="qos-table"]').findAll('input')
    expect(inputs).toHaveLength(2)
    await inputs[1]!.setValue('4294967296')
    expect(w.text()).toContain('the priority of QOS high must be a whole number from 0 to 4,294,967,295')
    expect(w.find('[data-testid="machine-check"]').attributes('disabled')).toBeDefined()
    expect(useCampaignStore().problems.some((p) => p.startsWith('Cluster (Inspect step): QOS priorities'))).toBe(true)
    await inputs[1]!.setValue('1000')
    await w.find('[data-testid="scheduler-easy"]').setValue(true)
    expect(m.choice).toEqual({ source: 'current', file: { name: 'slurm.conf', text: CONF }, scheduler: 'easy', qosPriority: { high: 1000 } })
    // The campaign request carries it, as the project file does.
    const req = useCampaignStore().request('w1', { kind: 'midpoint' }, { method: 'user-weeks', weeks: 3, seed: 1 })
    expect(req.machine).toEqual(m.choice)
    expect(toProject().campaign.machine).toEqual(m.choice)
  })

  it('a slurm.conf with its scheduling (not the one running today) runs Slurm\'s own scheduling by default and is recorded as such', async () => {
    const w = await opened()
    const m = useMachineStore()
    await w.find('[data-testid="machine-source-conf"]').setValue(true)
    expect((w.find('[data-testid="scheduler-slurm"]').element as HTMLInputElement).checked).toBe(true)
    expect(w.text()).toContain('Give the slurm.conf (choose the file or paste it).')
    await w.find('textarea[data-testid="machine-file"]').setValue(CONF)
    expect(m.choice).toEqual({ source: 'conf', file: { name: 'slurm.conf', text: CONF } })
    // A result of that file as today's configuration is another campaign (its baseline differs): stale.
    const results = useResultsStore()
    const base = makeResult()
    const withConf = (current: boolean) => ({ ...base, machine: { ...base.machine, kind: 'cluster' as const, scheduler: 'slurm' as const, source: 'slurm.conf', conf: { file: 'slurm.conf', text: CONF, current } } })
    results.setResult(withConf(true))
    expect(results.staleBecause.filter((r) => r.includes('machine'))).toHaveLength(1)
    results.setResult(withConf(false))
    expect(results.staleBecause.filter((r) => r.includes('machine'))).toEqual([])
  })

  it('comes back from a project file; an older file without it opens on the log\'s own machine', async () => {
    await opened()
    const m = useMachineStore()
    const p = blankProject()
    fromProject({ ...p, campaign: { ...p.campaign, machine: { source: 'file', file: { name: 'rack.conf', text: CONF }, qosPriority: { normal: 5 } } } }, null)
    expect(m.source).toBe('file')
    expect(m.file).toEqual({ name: 'rack.conf', text: CONF })
    expect(m.qos).toEqual({ normal: '5' })
    expect(m.choice).toEqual({ source: 'file', file: { name: 'rack.conf', text: CONF }, qosPriority: { normal: 5 } })
    fromProject(p, null)
    expect(m.source).toBe('inferred')
    expect(m.choice).toBeUndefined()
    expect(toProject().campaign).not.toHaveProperty('machine')
  })

  it('a result computed on another machine is stale, and current again once the choice is undone', async () => {
    const w = await opened()
    const results = useResultsStore()
    results.setResult(makeResult()) // the single pool under EASY (the fake result's machine)
    const machineReasons = () => results.staleBecause.filter((r) => r.includes('machine'))
    expect(machineReasons()).toEqual([])
    await w.find('[data-testid="machine-source-current"]').setValue(true)
    await w.find('textarea[data-testid="machine-file"]').setValue(CONF)
    expect(machineReasons()).toEqual(['the machine or its scheduling (Cluster, Inspect step) changed'])
    // A result from our slurm.conf as it runs today, with this very text: current.
    const base = makeResult()
    results.setResult({ ...base, machine: { ...base.machine, kind: 'cluster', scheduler: 'slurm', source: 'slurm.conf', conf: { file: 'slurm.conf', text: CONF, current: true } } })
    expect(machineReasons()).toEqual([])
    await w.find('textarea[data-testid="machine-file"]').setValue(CONF + 'PriorityWeightAge=100\n')
    expect(machineReasons()).toHaveLength(1)
    await w.find('[data-testid="machine-source-inferred"]').setValue(true)
    expect(machineReasons()).toHaveLength(1) // the result ran on the slurm.conf, not the log's own machine
    results.setResult(base)
    expect(machineReasons()).toEqual([])
  })

  it('the Export step merges into the slurm.conf the campaign ran on without asking for it again', async () => {
    const base = makeResult()
    useResultsStore().setResult({ ...base, machine: { ...base.machine, kind: 'cluster', scheduler: 'slurm', source: 'slurm.conf', conf: { file: 'site.conf', text: CONF, current: true } } })
    const w = mount(ExportStep, { global: { plugins: [app.pinia] }, attachTo: document.body })
    await flushPromises()
    // No text sent: the back end merges into the result's machine.conf (core/export recordedConf).
    expect(app.api.exportConfig).toHaveBeenCalledWith(expect.objectContaining({ kind: 'easytune-evaluation' }), 'slurm', { slurmVersion: '22.05' })
    expect(w.find('[data-testid="recorded-conf"]').text()).toBe('Merged into site.conf, the slurm.conf the campaign ran on (give another file here to merge into it instead).')
    await w.find('[data-testid="current-conf"]').setValue('ClusterName=other\n')
    expect(w.find('[data-testid="recorded-conf"]').exists()).toBe(false)
    w.unmount()
  })
})
