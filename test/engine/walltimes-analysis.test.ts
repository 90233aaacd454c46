// The Time limits step's back end (issue #22 item 5): the what-if as the 'walltimes' analysis on the
// engine workers (src/engine/analyses.ts walltimesOnPool, src/backend/analysis.ts) gives exactly
// what the CLI computes in one process (runWalltimesWhatIf), with 1 and 2 workers, with progress
// from 0 to 1 and a cancel that stops every worker; and getTimeLimits (src/backend/timelimits.ts):
// the report pseudonymised, the real names beside it joined on the rank, hostile input refused in
// words by the contract's schema.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AnalysisRunner, type AnalysisWorkload } from '../../src/backend/analysis'
import { Backend } from '../../src/backend/backend'
import { timeLimitsView } from '../../src/backend/timelimits'
import { analyzeWalltimes } from '../../src/core/predict/walltimes'
import { campaignOf } from '../../src/core/predict/walltimes-whatif'
import { runWalltimesWhatIf, WHATIF_SCENARIOS } from '../../src/core/predict/walltimes-whatif'
import type { Workload } from '../../src/core/workload/import'
import { walltimesOnPool } from '../../src/engine/analyses'
import { EnginePool } from '../../src/engine/pool'
import type { WorkloadSetup } from '../../src/engine/protocol'
import { readLog } from '../../src/node/read-log'
import { parseArgs } from '../../src/shared/contract'
import type { AnalysisEvent, AnalysisRequest } from '../../src/shared/api'
import { ApiInputError } from '../../src/shared/errors'
import { alive, buildWorker, KTH, kthSetup, removeWorker, tracked } from './support'
import { tempDir } from '../server/support'

let workerPath = ''
let w: Workload
beforeAll(async () => {
  workerPath = await buildWorker()
  w = await readLog(KTH, {})
}, 120_000)
afterAll(() => removeWorker(workerPath))

const REQ: AnalysisRequest = { workloadId: 'w1', kind: 'walltimes', options: {} }
const json = (doc: unknown) => JSON.stringify(doc)

describe('the what-if on the pool', () => {
  const setup: WorkloadSetup = { ...kthSetup(), prepare: false, tau: 10 }

  it('equals runWalltimesWhatIf in process, byte for byte, with 1 and 2 workers; today first, every scenario in order', async () => {
    const expected = json(runWalltimesWhatIf(w.jobs, w.machineProcs, { tau: 10 }))
    for (const workers of [1, 2]) {
      const { t, fork } = tracked()
      const fractions: number[] = []
      const r = await walltimesOnPool(new EnginePool({ workers, workerPath, fork }), setup, w.jobs, w.machineProcs, { onProgress: (f) => fractions.push(f) })
      expect(json(r)).toBe(expected)
      expect(r.outcomes.map((o) => o.id)).toEqual(WHATIF_SCENARIOS.map((s) => s.id))
      expect(r.outcomes[0]).toMatchObject({ id: 'requested', waitVsToday: 1, bsldVsToday: 1 })
      expect(t.unitsSent).toBe(WHATIF_SCENARIOS.length)
      expect(t.pids.some(alive)).toBe(false)
      expect(fractions[0]).toBe(0)
      expect(fractions[fractions.length - 1]).toBe(1)
      expect(fractions).toEqual([...fractions].sort((a, b) => a - b))
    }
    // Exact limits never underpredict: no correction is ever needed.
    const r = JSON.parse(expected) as ReturnType<typeof runWalltimesWhatIf>
    expect(r.outcomes[1]).toMatchObject({ id: 'clairvoyant', error: null, corrections: 0 })
  }, 120_000)
})

describe('the walltimes analysis in the AnalysisRunner', () => {
  const workload = (): AnalysisWorkload => ({ workload: w, path: KTH, importOptions: {} })
  function collect(): { events: AnalysisEvent[]; emit: (e: AnalysisEvent) => void; end: Promise<AnalysisEvent> } {
    const events: AnalysisEvent[] = []
    let settle!: (e: AnalysisEvent) => void
    const end = new Promise<AnalysisEvent>((r) => { settle = r })
    return { events, end, emit: (e) => { events.push(e); if (e.kind !== 'progress') settle(e) } }
  }

  it('progress from 0, then the what-if of `easytune walltimes` under the returned id', async () => {
    const c = collect()
    const runner = new AnalysisRunner({ workerPath, workers: 1, emit: c.emit })
    const analysisId = runner.start(REQ, workload())
    const last = await c.end
    await runner.close()
    expect(c.events[0]).toEqual({ analysisId, kind: 'progress', analysis: 'walltimes', fraction: 0 })
    expect(c.events.every((e) => e.analysisId === analysisId)).toBe(true)
    expect(last).toEqual({ analysisId, kind: 'done', analysis: 'walltimes', result: JSON.parse(json(runWalltimesWhatIf(w.jobs, w.machineProcs))) })
  }, 120_000)

  it('cancel stops its workers before "cancelled"; a second analysis meanwhile is refused', async () => {
    const { t, fork } = tracked()
    const c = collect()
    const runner = new AnalysisRunner({ workerPath, workers: 1, fork, emit: c.emit })
    const id = runner.start(REQ, workload())
    expect(() => runner.start(REQ, workload())).toThrow(/already running/)
    // Once its worker is forked (the setup reads the log), cancel.
    while (t.forks === 0) await new Promise((r) => setTimeout(r, 5))
    runner.cancel(id)
    expect(await c.end).toEqual({ analysisId: id, kind: 'cancelled' })
    expect(t.pids.some(alive)).toBe(false)
    expect(runner.active).toBe(0)
  }, 60_000)
})

describe('getTimeLimits', () => {
  it('the report is pseudonymised; the real names sit beside it, keyed by pseudonym (joined on the rank)', () => {
    const v = timeLimitsView(w)
    const real = analyzeWalltimes(w, { names: true })
    expect(v.report.names).toBe('pseudonyms')
    expect(json(v.report)).toBe(json({ ...analyzeWalltimes(w), campaign: campaignOf(null) }))
    const named = v.report.users.filter((u) => !u.unknown)
    expect(named.length).toBeGreaterThan(10)
    expect(named.every((u) => /^user-\d{3,}$/.test(u.name))).toBe(true)
    // No real name appears in the report.
    const text = json(v.report)
    for (const u of real.users.filter((x) => !x.unknown).slice(0, 20)) expect(text).not.toContain(`"${u.name}"`)
    for (const u of named) expect(v.realNames.users[u.name]).toBe(real.users.find((x) => x.rank === u.rank)!.name)
    expect(Object.keys(v.realNames.users)).toHaveLength(named.length)
    // The first user (rank 1) is the one with the most over-requested hours.
    expect(named[0]!.rank).toBe(1)
  })

  it('in the Backend: the imported log by its id; unknown ids and hostile arguments refused in words', async () => {
    const tmp = tempDir()
    const backend = new Backend({ mode: 'browser', stateDir: join(tmp.dir, 'state'), cacheDir: null, workerPath, importInProcess: true })
    try {
      const s = await backend.importLog({ kind: 'sample' }, {})
      const v = backend.getTimeLimits(s.id)
      expect(v.report.log).toBe('KTH-SP2-1996-2.1-cln.swf.gz')
      expect(v.report.site.jobs).toBe(s.report.jobsKept)
      expect(() => backend.getTimeLimits('wnope')).toThrow(/no longer loaded: import the log again/)
      for (const bad of [[], ['../etc/passwd'], [42], [{ __proto__: 1 }], ['w1', 'extra']]) expect(() => parseArgs('getTimeLimits', bad)).toThrow(ApiInputError)
      expect(() => parseArgs('getTimeLimits', ['a/b'])).toThrow(/getTimeLimits: workloadId is not a valid id/)
    } finally {
      await backend.close()
      tmp.remove()
    }
  }, 60_000)
})
