// Online-selection emulations and mixed-policy searches on the engine pool (src/engine/analyses.ts),
// in parallel over their traces and weight vectors: the JSON documents are the same byte for byte
// with 1 and 2 workers and equal to the in-process computation; and the back end's AnalysisRunner
// around them: progress, then the CLI's JSON document under the analysis's id; cancel stops every
// worker it started.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { analysisPlan, AnalysisRunner, type AnalysisWorkload } from '../../src/backend/analysis'
import { runOnline, DEFAULT_ONLINE, type OnlineSpec } from '../../src/core/tune/online'
import { runMixed, type MixedOptions } from '../../src/core/tune/mixed'
import { prepare } from '../../src/core/tune/prepare'
import { mixedJson, onlineJson } from '../../src/core/tune/reports'
import type { Workload } from '../../src/core/workload/import'
import { mixedOnPool, onlineOnPool } from '../../src/engine/analyses'
import { EnginePool, forkNode } from '../../src/engine/pool'
import type { FromWorker, WorkloadSetup } from '../../src/engine/protocol'
import { readLog } from '../../src/node/read-log'
import type { AnalysisEvent, AnalysisRequest } from '../../src/shared/api'
import { alive, buildWorker, KTH, kthSetup, removeWorker, tracked } from './support'

let workerPath = ''
let w: Workload
beforeAll(async () => {
  workerPath = await buildWorker()
  w = await readLog(KTH, {})
}, 120_000)
afterAll(() => removeWorker(workerPath))

const ONLINE: AnalysisRequest = { workloadId: 'w1', kind: 'online', options: { strategies: ['full', 'random'], period: 'week', weeks: 3, traces: 1, seed: 2 } }
const MIXED: AnalysisRequest = { workloadId: 'w1', kind: 'mixed', options: { features: 3, method: 'xnes', budget: 6, weeks: 2, objective: 'avgWait', seed: 1 }, split: { kind: 'midpoint' } }
const json = (doc: unknown) => JSON.stringify(doc)

describe('online selection on the pool', () => {
  const spec: OnlineSpec = { ...DEFAULT_ONLINE, strategies: ['full', 'noisy', 'egreedy', 'random'], weeks: 3, traces: 3, seed: 4 }
  const setup: WorkloadSetup = { ...kthSetup(), prepare: false }

  it('gives the same document byte for byte with 1 and 2 workers, equal to runOnline in process', async () => {
    const expected = json(onlineJson(w, spec, runOnline(w.jobs, w.machineProcs, spec)))
    for (const workers of [1, 2]) {
      const { t, fork } = tracked()
      const fractions: number[] = []
      const r = await onlineOnPool(new EnginePool({ workers, workerPath, fork }), setup, spec, { onProgress: (f) => fractions.push(f) })
      expect(json(onlineJson(w, spec, r))).toBe(expected)
      expect(t.forks).toBe(workers) // the traces really were spread
      expect(t.unitsSent).toBe(spec.traces)
      expect(t.pids.some(alive)).toBe(false)
      expect(fractions[0]).toBe(0)
      expect(fractions[fractions.length - 1]).toBe(1)
      expect(fractions).toEqual([...fractions].sort((a, b) => a - b))
    }
  }, 60_000)
})

describe('mixed search on the pool', () => {
  const setup = kthSetup(4, 3)
  const base = { features: 3, objective: 'avgWait', threshold: null, tau: 10, seed: 3 } as const
  it.each<MixedOptions>([
    { ...base, method: 'xnes', budget: 17 },
    { ...base, method: 'grid', budget: 12, features: 6, objective: 'avgBsld', threshold: 72000 },
  ])('$method: the same document with 1 and 2 workers, equal to runMixed in process', async (o) => {
    const p = prepare(w.jobs, w.machineProcs, setup.split, setup.resample)
    const doc = (r: ReturnType<typeof runMixed>) => json(mixedJson(w, p, o, setup.split, setup.resample, r, 0))
    const expected = doc(runMixed(p, w.machineProcs, o))
    for (const workers of [1, 2]) {
      const { t, fork } = tracked()
      const phases: string[] = []
      const r = await mixedOnPool(new EnginePool({ workers, workerPath, fork }), setup, o, { onProgress: (phase, done, total) => phases.push(`${phase} ${done}/${total}`) })
      expect(doc(r)).toBe(expected)
      expect(t.forks).toBe(workers)
      expect(t.pids.some(alive)).toBe(false)
      expect(phases).toContain(`search ${o.budget}/${o.budget}`)
      expect(phases[phases.length - 1]).toBe(`evaluate ${2 * (2 + o.features - 1)}/${2 * (2 + o.features - 1)}`)
    }
  }, 60_000)
})

it('a worker answers a unit sent before any setup with an error, not a crash', async () => {
  const h = forkNode(workerPath)
  const msg = await new Promise<FromWorker>((resolve) => {
    h.onMessage((m) => { if (m.type === 'error') resolve(m) })
    h.send({ type: 'run', id: 1, unit: { kind: 'mixed-stats' } })
  })
  h.kill()
  expect(msg).toMatchObject({ type: 'error', id: 1, message: expect.stringMatching(/before a successful setup/) })
}, 30_000)

describe('AnalysisRunner', () => {
  const workload = (): AnalysisWorkload => ({ workload: w, path: KTH, importOptions: {} })

  function collect(): { events: AnalysisEvent[]; emit: (e: AnalysisEvent) => void; end: Promise<AnalysisEvent> } {
    const events: AnalysisEvent[] = []
    let settle!: (e: AnalysisEvent) => void
    const end = new Promise<AnalysisEvent>((r) => { settle = r })
    return { events, end, emit: (e) => { events.push(e); if (e.kind !== 'progress') settle(e) } }
  }

  it.each([ONLINE, MIXED])('$kind: progress from 0, then exactly the CLI\'s JSON document under the returned id', async (req) => {
    const c = collect()
    const runner = new AnalysisRunner({ workerPath, workers: 2, emit: c.emit })
    const analysisId = runner.start(req, workload())
    const last = await c.end
    await runner.close()
    expect(c.events.every((e) => e.analysisId === analysisId)).toBe(true)
    expect(c.events[0]).toEqual({ analysisId, kind: 'progress', analysis: req.kind, fraction: 0 })
    expect(c.events.filter((e) => e.kind !== 'progress')).toHaveLength(1)
    if (last.kind !== 'done') throw new Error(`expected done, got ${JSON.stringify(last)}`)
    const plan = analysisPlan(req, workload())
    let expected: unknown
    if (plan.analysis.kind === 'online') {
      expected = onlineJson(w, plan.analysis.spec, runOnline(w.jobs, w.machineProcs, plan.analysis.spec))
    } else if (plan.analysis.kind === 'mixed') {
      const p = prepare(w.jobs, w.machineProcs, plan.setup.split, plan.setup.resample)
      expected = mixedJson(w, p, plan.analysis.options, plan.setup.split, plan.setup.resample, runMixed(p, w.machineProcs, plan.analysis.options), 0)
      last.result = { ...(last.result as object), seconds: 0 }
    }
    expect(last).toEqual({ analysisId, kind: 'done', analysis: req.kind, result: JSON.parse(json(expected)) })
  }, 60_000)

  it('refuses a second analysis while one runs; cancel stops every worker it started, then emits cancelled', async () => {
    const { t, fork } = tracked()
    const c = collect()
    let pidsAtCancel: number[] = []
    const runner = new AnalysisRunner({ workerPath, workers: 2, fork, emit: (e) => {
      c.emit(e)
      // Cancel once both workers are computing (their traces report progress).
      if (e.kind === 'progress' && e.fraction > 0 && pidsAtCancel.length === 0 && t.forks === 2) { pidsAtCancel = [...t.pids]; runner.cancel(e.analysisId) }
    } })
    const big: AnalysisRequest = { workloadId: 'w1', kind: 'online', options: { strategies: ['full', 'noisy', 'egreedy', 'random'], period: 'day', weeks: 200, traces: 20, seed: 1 } }
    const id = runner.start(big, workload())
    expect(() => runner.start(big, workload())).toThrow(/already running/)
    expect(await c.end).toEqual({ analysisId: id, kind: 'cancelled' })
    expect(pidsAtCancel).toHaveLength(2)
    expect(t.pids.some(alive)).toBe(false) // gone before 'cancelled' was emitted
    expect(runner.active).toBe(0)
    expect(runner.cancel(id)).toBe(false)
  }, 60_000)

  it('an analysis that cannot run ends with an error event naming the problem', async () => {
    const c = collect()
    const runner = new AnalysisRunner({ workerPath, workers: 1, emit: c.emit })
    runner.start(ONLINE, { ...workload(), path: '/nonexistent/missing.swf' })
    expect(await c.end).toMatchObject({ kind: 'error', message: '/nonexistent/missing.swf: no such file' })
  }, 30_000)
})
