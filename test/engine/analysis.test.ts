// Online-selection and mixed-policy analyses on one engine worker ('analysis' after 'setup'), and
// the back end's startAnalysis around it: progress, then the CLI's JSON document; cancel kills
// the worker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Backend } from '../../src/backend/backend'
import { analysisPlan } from '../../src/backend/analysis'
import { runOnline } from '../../src/core/tune/online'
import { runMixed } from '../../src/core/tune/mixed'
import { prepare } from '../../src/core/tune/prepare'
import { mixedJson, onlineJson } from '../../src/core/tune/reports'
import { forkNode } from '../../src/engine/pool'
import type { AnalysisOptions, FromWorker, WorkloadSetup } from '../../src/engine/protocol'
import { readLog } from '../../src/node/read-log'
import type { AnalysisRequest, CampaignEvent } from '../../src/shared/api'
import { alive, buildWorker, KTH, removeWorker } from './support'

let workerPath = ''
beforeAll(async () => { workerPath = await buildWorker() }, 120_000)
afterAll(() => removeWorker(workerPath))

const ONLINE: AnalysisRequest = { workloadId: 'w1', kind: 'online', options: { strategies: ['full', 'random'], period: 'week', weeks: 3, traces: 1, seed: 2 } }
const MIXED: AnalysisRequest = { workloadId: 'w1', kind: 'mixed', options: { features: 3, method: 'xnes', budget: 6, weeks: 2, objective: 'avgWait', seed: 1 }, split: { kind: 'midpoint' } }

/** Runs one analysis on a fresh worker; returns every message after 'ready'/'setup-done'. */
async function runWorker(setup: WorkloadSetup, analysis: AnalysisOptions): Promise<FromWorker[]> {
  const h = forkNode(workerPath)
  const got: FromWorker[] = []
  const end = new Promise<void>((resolve) => {
    h.onMessage((m) => {
      if (m.type === 'ready' || m.type === 'setup-done') return
      got.push(m)
      if (m.type === 'analysis-done' || m.type === 'error') { h.send({ type: 'exit' }); resolve() }
    })
    h.onExit(() => resolve())
  })
  h.send({ type: 'setup', setup })
  h.send({ type: 'analysis', id: 7, analysis })
  await end
  return got
}

describe('engine worker: analysis', () => {
  it('runs an online emulation on the whole log: progress, then exactly the CLI\'s JSON document', async () => {
    const plan = analysisPlan(ONLINE, { path: KTH, importOptions: {} })
    expect(plan.setup.prepare).toBe(false)
    const got = await runWorker(plan.setup, plan.analysis)
    const last = got[got.length - 1]
    expect(got[0]).toMatchObject({ type: 'analysis-progress', id: 7, fraction: 0 })
    expect(last.type).toBe('analysis-done')
    if (last.type !== 'analysis-done' || plan.analysis.kind !== 'online') return
    const w = await readLog(KTH, {})
    const spec = plan.analysis.spec
    expect(last.result).toEqual(JSON.parse(JSON.stringify(onlineJson(w, spec, runOnline(w.jobs, w.machineProcs, spec)))))
    expect(last.result).toMatchObject({ periods: 3, config: { weeks: 3, traces: 1, strategies: ['full', 'random'] } })
  }, 60_000)

  it('runs a mixed search on the setup\'s train/test samples', async () => {
    const plan = analysisPlan(MIXED, { path: KTH, importOptions: {} })
    const got = await runWorker(plan.setup, plan.analysis)
    const last = got[got.length - 1]
    expect(got.filter((m) => m.type === 'analysis-progress').length).toBeGreaterThanOrEqual(1)
    expect(last.type).toBe('analysis-done')
    if (last.type !== 'analysis-done' || plan.analysis.kind !== 'mixed') return
    const w = await readLog(KTH, {})
    const p = prepare(w.jobs, w.machineProcs, plan.setup.split, plan.setup.resample)
    const doc = JSON.parse(JSON.stringify(mixedJson(w, p, plan.analysis.options, plan.setup.split, plan.setup.resample, runMixed(p, w.machineProcs, plan.analysis.options), 0)))
    expect({ ...(last.result as object), seconds: 0 }).toEqual(doc)
  }, 60_000)

  it('answers an analysis before any setup with an error, not a crash', async () => {
    const h = forkNode(workerPath)
    const msg = await new Promise<FromWorker>((resolve) => {
      h.onMessage((m) => { if (m.type === 'error') resolve(m) })
      h.send({ type: 'analysis', id: 1, analysis: { kind: 'mixed', options: { features: 3, method: 'grid', budget: 2, objective: 'avgWait', threshold: null, tau: 10, seed: 1 } } })
    })
    h.kill()
    expect(msg).toMatchObject({ type: 'error', id: 1, message: expect.stringMatching(/before a successful setup/) })
  }, 30_000)
})

describe('Backend.startAnalysis', () => {
  let dir = ''
  let backend: Backend
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'easytune-analysis-'))
    backend = new Backend({ mode: 'browser', stateDir: join(dir, 'state'), cacheDir: null, workerPath, samplePath: KTH })
  })
  afterAll(async () => { await backend.close(); rmSync(dir, { recursive: true, force: true }) })

  function collect(): { events: CampaignEvent[]; end: Promise<CampaignEvent> } {
    const events: CampaignEvent[] = []
    let off = () => {}
    const end = new Promise<CampaignEvent>((resolve) => {
      off = backend.onCampaignEvent((e) => {
        if (e.kind === 'import-progress') return
        events.push(e)
        if (['analysis-done', 'error', 'cancelled'].includes(e.kind)) { off(); resolve(e) }
      })
    })
    return { events, end }
  }

  it('emits progress and then the online JSON document under the returned id', async () => {
    const w = await backend.importLog({ kind: 'sample' }, {})
    const { events, end } = collect()
    const { campaignId } = backend.startAnalysis({ ...ONLINE, workloadId: w.id })
    const last = await end
    expect(events.every((e) => e.campaignId === campaignId)).toBe(true)
    expect(events[0]).toMatchObject({ kind: 'analysis-progress', analysis: 'online' })
    expect(last).toMatchObject({ kind: 'analysis-done', analysis: 'online', result: { schemaVersion: 1, periods: 3 } })
  }, 60_000)

  it('refuses a second analysis while one runs; cancel kills the worker and emits cancelled', async () => {
    const pids: number[] = []
    const b = new Backend({
      mode: 'browser', stateDir: join(dir, 'state2'), cacheDir: null, workerPath, samplePath: KTH,
      fork: (p) => { const h = forkNode(p); if (h.pid !== undefined) pids.push(h.pid); return h },
    })
    try {
      const w2 = await b.importLog({ kind: 'sample' }, {})
      const importForks = pids.length // the import ran in a worker of its own, gone by now
      const events: CampaignEvent[] = []
      const end = new Promise<CampaignEvent>((resolve) => b.onCampaignEvent((e) => { events.push(e); if (e.kind === 'cancelled' || e.kind === 'error' || e.kind === 'analysis-done') resolve(e) }))
      const big: AnalysisRequest = { workloadId: w2.id, kind: 'online', options: { strategies: ['full', 'noisy', 'egreedy', 'random'], period: 'day', weeks: 200, traces: 20, seed: 1 } }
      const { campaignId } = b.startAnalysis(big)
      expect(() => b.startAnalysis(big)).toThrow(/already running/)
      await new Promise<void>((resolve) => { const off = b.onCampaignEvent((e) => { if (e.kind === 'analysis-progress') { off(); resolve() } }) })
      b.cancel(campaignId)
      expect(await end).toEqual({ campaignId, kind: 'cancelled' })
      expect(pids).toHaveLength(importForks + 1)
      expect(pids.some(alive)).toBe(false)
      expect(() => b.startAnalysis({ ...MIXED, workloadId: 'nope' })).toThrow(/no longer loaded/)
    } finally {
      await b.close()
    }
  }, 60_000)
})
