// The Time limits step's "Deploy on Slurm: order by predicted runtime" in the back end (issue #22
// item 5, deployment (a); docs/PREDICTIONS.md §Deployment): the fidelity as the 'predicted-order'
// analysis on the engine workers (src/engine/analyses.ts predictedOrderOnPool, one unit per replay)
// is exactly what the CLI replays in one process (predictedOrderFidelity), with 1 and 2 workers,
// progress from 0 to 1 and a cancel that stops every worker; exportPredictedOrder (the contract's
// operation) writes the same files as `easytune export <log> --predicted-order` for the same log,
// threshold and history, byte for byte, and as exportPredictedOrder called directly, merged into a
// current slurm.conf too; a fidelity of another log or threshold and hostile arguments are refused
// in words.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AnalysisRunner, type AnalysisWorkload } from '../../src/backend/analysis'
import { Backend } from '../../src/backend/backend'
import { exportPredictedOrder } from '../../src/core/export/index'
import { FIDELITY_REPLAYS, predictedOrderFidelity, type PredictedOrderFidelity } from '../../src/core/export/predicted-fidelity'
import type { Workload } from '../../src/core/workload/import'
import { predictedOrderOnPool } from '../../src/engine/analyses'
import { EnginePool } from '../../src/engine/pool'
import type { WorkloadSetup } from '../../src/engine/protocol'
import { readLog } from '../../src/node/read-log'
import { parseArgs } from '../../src/shared/contract'
import type { AnalysisEvent, AnalysisRequest } from '../../src/shared/api'
import { ApiInputError } from '../../src/shared/errors'
import { runCli } from '../support/cli'
import { alive, buildWorker, KTH, kthSetup, removeWorker, tracked } from './support'
import { tempDir } from '../server/support'

let workerPath = ''
let w: Workload
/** The CLI's fidelity for Θ = 20 h and 30 days (its defaults' history). */
let expected: PredictedOrderFidelity
const THETA = 20 * 3600
beforeAll(async () => {
  workerPath = await buildWorker()
  w = await readLog(KTH, {})
  expected = predictedOrderFidelity(w.jobs, w.machineProcs, 30, THETA)
}, 120_000)
afterAll(() => removeWorker(workerPath))

const REQ: AnalysisRequest = { workloadId: 'w1', kind: 'predicted-order', options: { threshold: THETA, historyDays: 30 } }
const json = (doc: unknown) => JSON.stringify(doc)

describe('the predicted-order fidelity on the pool', () => {
  const setup: WorkloadSetup = { ...kthSetup(), prepare: false, tau: 10 }

  it('equals predictedOrderFidelity in process, byte for byte, with 1 and 2 workers; one unit per replay; progress 0 to 1', async () => {
    expect(expected.threshold).toBe(72_000)
    for (const workers of [1, 2]) {
      const { t, fork } = tracked()
      const fractions: number[] = []
      const r = await predictedOrderOnPool(new EnginePool({ workers, workerPath, fork }), setup, w.jobs, w.machineProcs, { threshold: THETA, historyDays: 30 }, { onProgress: (f) => fractions.push(f) })
      expect(json(r)).toBe(json(expected))
      expect(t.unitsSent).toBe(FIDELITY_REPLAYS.length)
      expect(t.pids.some(alive)).toBe(false)
      expect(fractions[0]).toBe(0)
      expect(fractions[fractions.length - 1]).toBe(1)
      expect(fractions).toEqual([...fractions].sort((a, b) => a - b))
    }
  }, 180_000)
})

describe('the predicted-order analysis in the AnalysisRunner', () => {
  const workload = (): AnalysisWorkload => ({ workload: w, path: KTH, importOptions: {} })
  function collect(): { events: AnalysisEvent[]; emit: (e: AnalysisEvent) => void; end: Promise<AnalysisEvent> } {
    const events: AnalysisEvent[] = []
    let settle!: (e: AnalysisEvent) => void
    const end = new Promise<AnalysisEvent>((r) => { settle = r })
    return { events, end, emit: (e) => { events.push(e); if (e.kind !== 'progress') settle(e) } }
  }

  it('progress from 0, then the fidelity the CLI prints in its JSON (predictedOrder) under the returned id', async () => {
    const c = collect()
    const runner = new AnalysisRunner({ workerPath, workers: 2, emit: c.emit })
    const analysisId = runner.start(REQ, workload())
    const last = await c.end
    await runner.close()
    expect(c.events[0]).toEqual({ analysisId, kind: 'progress', analysis: 'predicted-order', fraction: 0 })
    expect(last).toEqual({ analysisId, kind: 'done', analysis: 'predicted-order', result: JSON.parse(json(expected)) })
  }, 120_000)

  it('cancel stops its workers before "cancelled"; the what-if meanwhile is refused', async () => {
    const { t, fork } = tracked()
    const c = collect()
    const runner = new AnalysisRunner({ workerPath, workers: 1, fork, emit: c.emit })
    const id = runner.start(REQ, workload())
    expect(() => runner.start({ workloadId: 'w1', kind: 'walltimes', options: {} }, workload())).toThrow(/already running/)
    while (t.forks === 0) await new Promise((r) => setTimeout(r, 5))
    runner.cancel(id)
    expect(await c.end).toEqual({ analysisId: id, kind: 'cancelled' })
    expect(t.pids.some(alive)).toBe(false)
    expect(runner.active).toBe(0)
  }, 60_000)
})

describe('exportPredictedOrder', () => {
  /** The longest time limit of the log, read from its jobs (the CLI sizes bf_window on it). */
  const maxRequested = () => w.jobs.requested.reduce((a, b) => Math.max(a, b), 0)

  it('writes the files of `easytune export <log> --predicted-order --threshold 20h`, byte for byte; merged into a current slurm.conf as exportPredictedOrder does', async () => {
    const tmp = tempDir()
    const out = mkdtempSync(join(tmpdir(), 'easytune-predicted-cli-'))
    const backend = new Backend({ mode: 'browser', stateDir: join(tmp.dir, 'state'), cacheDir: null, workerPath, importInProcess: true })
    try {
      const s = await backend.importLog({ kind: 'sample' }, {})
      expect(s.report.jobsKept).toBe(w.jobs.count)
      const options = parseArgs('exportPredictedOrder', [s.id, { threshold: THETA, historyDays: 30, fidelity: JSON.parse(json(expected)) }])[1]
      const b = backend.exportPredictedOrder(s.id, options)
      expect(b.files.map((f) => f.name)).toEqual(['slurm.conf.easytune', 'job_submit.lua', 'easytune-predicted-order.sh', 'README-predicted-order.txt', 'easytune-predicted-order.json'])
      const cli = await runCli(['export', KTH, '--predicted-order', '--threshold', '20h', '--out', out])
      expect(cli.code, cli.stderr).toBe(0)
      for (const f of b.files) expect(f.content, f.name).toBe(readFileSync(join(out, f.name), 'utf8'))
      expect(json(b)).toBe(json(exportPredictedOrder({ fidelity: expected, maxRequested: maxRequested(), historyDays: 30, threshold: THETA })))
      // The threshold is in the script, the fidelity in the README.
      expect(b.files[2]!.content).toContain('-v now="$now" -v theta=72000')
      expect(b.files[3]!.content).toContain('EASY-FCFS today')

      const conf = 'ClusterName=site\nPriorityType=priority/multifactor\nPriorityWeightFairshare=10000\nSchedulerParameters=bf_interval=30\n'
      const merged = backend.exportPredictedOrder(s.id, { ...options, currentConf: conf })
      expect(merged.files[0]!.name).toBe('slurm.conf')
      expect(merged.files[0]!.content).toContain('ClusterName=site')
      expect(json(merged)).toBe(json(exportPredictedOrder({ currentConf: conf, fidelity: expected, maxRequested: maxRequested(), historyDays: 30, threshold: THETA })))

      // A fidelity of another threshold, history or log is refused: the files would state figures they do not have.
      expect(() => backend.exportPredictedOrder(s.id, { ...options, threshold: null })).toThrow(/another waiting-time threshold or history: compute it again/)
      expect(() => backend.exportPredictedOrder(s.id, { ...options, historyDays: 7 })).toThrow(ApiInputError)
      expect(() => backend.exportPredictedOrder(s.id, { ...options, fidelity: { ...options.fidelity, jobs: 10 } })).toThrow(/measured on another log/)
      expect(() => backend.exportPredictedOrder(s.id, { ...options, currentConf: 'PriorityType\0=x\n' })).toThrow(ApiInputError)
      expect(() => backend.exportPredictedOrder('wnope', options)).toThrow(/no longer loaded/)
    } finally {
      await backend.close()
      tmp.remove()
      rmSync(out, { recursive: true, force: true })
    }
  }, 120_000)

  it('hostile arguments are refused in words by the contract, never reach the back end', () => {
    const f = JSON.parse(json(expected)) as Record<string, unknown>
    const ok = { threshold: THETA, historyDays: 30, fidelity: f }
    expect(parseArgs('exportPredictedOrder', ['w1', ok])[1]).toEqual(ok)
    const bad = (o: unknown, re: RegExp) => expect(() => parseArgs('exportPredictedOrder', ['w1', o])).toThrow(re)
    bad({ ...ok, threshold: 0 }, /threshold/)
    bad({ ...ok, historyDays: 0 }, /historyDays/)
    bad({ ...ok, historyDays: 1e9 }, /historyDays/)
    bad({ ...ok, fidelity: { ...f, today: { avgWait: Number.NaN, avgBsld: 1, maxWait: 1 } } }, /avgWait/)
    bad({ ...ok, fidelity: { ...f, withUser: 2 } }, /withUser/)
    bad({ ...ok, fidelity: { ...f, extra: 1 } }, /unknown field "extra"/)
    bad({ ...ok, slurm: '23.11' }, /unknown field "slurm"/)
    bad({ ...ok, currentConf: 'x'.repeat(2_000_001) }, /currentConf/)
    bad(JSON.parse('{"__proto__": {"polluted": 1}}'), ApiInputError as never)
    expect(() => parseArgs('exportPredictedOrder', ['../w', ok])).toThrow(/workloadId is not a valid id/)
    expect(() => parseArgs('exportPredictedOrder', ['w1'])).toThrow(ApiInputError)
    // startAnalysis's predicted-order request
    const req = { workloadId: 'w1', kind: 'predicted-order', options: { threshold: null, historyDays: 30 } }
    expect(parseArgs('startAnalysis', [req])).toEqual([req])
    expect(() => parseArgs('startAnalysis', [{ ...req, options: { threshold: -5, historyDays: 30 } }])).toThrow(/threshold/)
    expect(() => parseArgs('startAnalysis', [{ ...req, options: { threshold: null } }])).toThrow(/historyDays/)
    expect(() => parseArgs('startAnalysis', [{ ...req, kind: 'predicted' }])).toThrow(/must be online, mixed, walltimes, predicted-order, learn or machine/)
  })
})
