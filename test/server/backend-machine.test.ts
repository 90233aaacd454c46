// The Inspect step's Cluster panel behind the API: the app's campaign on the site's slurm.conf as it
// runs today (MachineChoice 'current') is `easytune evaluate --current-conf` on the same log with the
// same settings, document for document; the 'machine' analysis answers the chosen machine's summary
// and fidelity (with progress, and cancel), and a file that cannot be read is refused with its line.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Backend } from '../../src/backend/backend'
import type { AnalysisEvent, MachineChoice, WorkloadSummary } from '../../src/shared/api'
import { runCli } from '../support/cli'
import { SAMPLE_LOG } from '../support/sample'
import { KTH_SITE_CONF as SITE_CONF } from '../support/site-conf' // KTH's 100 processors with the site's own scheduling
import { buildWorker, removeWorker } from '../engine/support'
import { collect, request, tempDir } from './support'


/** Runs one 'machine' analysis to its end: its events and the last one. */
async function machineAnalysis(backend: Backend, workloadId: string, options: MachineChoice, cancelAtFirstProgress = false): Promise<AnalysisEvent[]> {
  const events: AnalysisEvent[] = []
  let id = ''
  const finished = new Promise<void>((resolve) => {
    const off = backend.subscribe('analysis', (e) => {
      events.push(e)
      if (cancelAtFirstProgress && e.kind === 'progress') backend.cancel(id)
      if (e.kind !== 'progress') { off(); resolve() }
    })
  })
  id = backend.startAnalysis({ workloadId, kind: 'machine', options }).analysisId
  await finished
  return events
}

describe('the Cluster panel behind the API', () => {
  let workerPath = ''
  let tmp: ReturnType<typeof tempDir>
  let backend: Backend
  let sample: WorkloadSummary

  beforeAll(async () => {
    workerPath = await buildWorker()
    tmp = tempDir()
    backend = new Backend({ mode: 'browser', stateDir: join(tmp.dir, 'state'), cacheDir: null, workerPath })
    sample = await backend.importLog({ kind: 'sample' }, {})
  }, 60_000)
  afterAll(async () => {
    await backend?.close()
    removeWorker(workerPath)
    tmp?.remove()
  })

  it('a campaign on "our slurm.conf, as it runs today" is evaluate --current-conf\'s document', async () => {
    const conf = join(tmp.dir, 'site.conf')
    writeFileSync(conf, SITE_CONF)
    const out = join(tmp.dir, 'cli.json')
    const cli = await runCli(['evaluate', SAMPLE_LOG, '--current-conf', conf, '--primaries', 'SPF,LQF', '--thresholds', 'none', '--weeks', '3', '--seed', '1',
      '--objective', 'avgWait', '--tau', '10', '--max-wait-ratio', 'none', '--min-gain', '0.05', '--confidence', '0.95', '--min-weeks', '8', '--criterion', 'ratio-of-means',
      '--workers', '1', '--no-cache', '--json', out])
    expect(cli.code, cli.stderr).toBe(0)
    const { finished } = collect(backend)
    backend.startCampaign(request(sample.id, { machine: { source: 'current', file: { name: 'site.conf', text: SITE_CONF } } }))
    const done = await finished
    expect(done.kind, JSON.stringify(done)).toBe('done')
    if (done.kind !== 'done') return
    const app = JSON.parse(JSON.stringify(done.result)) as Record<string, unknown> & { machine: { conf: { file: string; text: string; current: boolean } } }
    // The app records the file by the name it was given under (it has no path); the CLI by its path.
    // The CLI adds the data's citation to its file.
    const { citation: _c, ...fromCli } = JSON.parse(readFileSync(out, 'utf8').replaceAll(conf, 'site.conf')) as Record<string, unknown>
    expect(app.machine.conf).toEqual({ file: 'site.conf', text: SITE_CONF, current: true })
    expect((app.candidates as { label: string }[])[0]!.label).toBe('current configuration')
    expect(app).toEqual(fromCli)
  }, 240_000)

  it('the machine analysis: the inferred pool, then a machine file\'s nodes and Slurm\'s scheduling; cancel stops it', async () => {
    const pool = await machineAnalysis(backend, sample.id, { source: 'inferred' })
    const last = pool.at(-1)!
    expect(last.kind, JSON.stringify(last)).toBe('done')
    expect(pool.some((e) => e.kind === 'progress')).toBe(true)
    if (last.kind === 'done') expect(last.result).toMatchObject({ machine: { kind: 'pool', cpus: 100 } })
    const file = await machineAnalysis(backend, sample.id, { source: 'file', file: { name: 'kth.conf', text: SITE_CONF }, scheduler: 'slurm' })
    const f = file.at(-1)!
    expect(f.kind, JSON.stringify(f)).toBe('done')
    if (f.kind === 'done') {
      expect(f.result).toMatchObject({ machine: { kind: 'cluster', scheduler: 'slurm', nodes: 100, cpus: 100, gpus: 0, source: 'slurm.conf', partitions: [{ name: 'sp2', nodes: 100, cpus: 100, gpus: 0 }] } })
      expect((f.result as { machine: { description: string } }).machine.description).toMatch(/from kth\.conf$/)
    }
    // A slurm.conf with its scheduling, not the one running today (--slurm-conf): Slurm's own by
    // default, the file recorded as not current (the baseline is then EASY-FCFS set up on it).
    const other = await machineAnalysis(backend, sample.id, { source: 'conf', file: { name: 'site.conf', text: SITE_CONF } })
    const o = other.at(-1)!
    expect(o.kind, JSON.stringify(o)).toBe('done')
    if (o.kind === 'done') expect(o.result).toMatchObject({ machine: { kind: 'cluster', scheduler: 'slurm', conf: { file: 'site.conf', text: SITE_CONF, current: false } } })
    const cancelled = await machineAnalysis(backend, sample.id, { source: 'current', file: { name: 'site.conf', text: SITE_CONF } }, true)
    expect(cancelled.at(-1)!.kind).toBe('cancelled')
  }, 120_000)

  it('a machine file that cannot be read: the analysis and the campaign say which line, in words', async () => {
    const broken = 'NodeName=k[001-100] CPUs=1\nPartitionName=sp2 Nodes=z[1-4] Default=YES\n'
    const events = await machineAnalysis(backend, sample.id, { source: 'file', file: { name: 'broken.conf', text: broken } })
    const last = events.at(-1)!
    expect(last.kind).toBe('error')
    if (last.kind === 'error') expect(last.message).toMatch(/^broken\.conf line 2: /)
    // The campaign is refused before any worker starts, in the same words, by the checks its
    // estimate makes (the Candidates step shows them and disables Start).
    const req = request(sample.id, { machine: { source: 'current', file: { name: 'broken.conf', text: broken } } })
    expect(() => backend.estimateCampaign(req)).toThrow(/^broken\.conf line 2: /)
    expect(() => backend.startCampaign(req)).toThrow(/^broken\.conf line 2: /)
  }, 60_000)
})
