// The whole evaluation's result document (src/engine/evaluate.ts) is the same bytes whatever the
// number of engine workers, and the same as with every cell computed in this process: the pool's
// scheduling (which worker runs which cell, in which order, cache entries read several at a time,
// the as-deployed run started while the impact is computed) never shows in the result
// (docs/PERFORMANCE.md §The pool at full speed).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { DEFAULTS } from '../../src/core/defaults'
import { campaignMachine } from '../../src/core/cluster/model'
import { cellKey, runCell, type CampaignSpec, type CellResult, type CellSpec } from '../../src/core/tune/campaign'
import { prepare } from '../../src/core/tune/prepare'
import { defaultVerdictOptions } from '../../src/core/tune/select'
import { CellCache } from '../../src/engine/cache'
import { evaluate, type CellRunner, type SideRunnerFactory } from '../../src/engine/evaluate'
import { EnginePool } from '../../src/engine/pool'
import type { WorkloadSetup } from '../../src/engine/protocol'
import { readLogs } from '../../src/node/read-log'
import { buildWorker, KTH, removeWorker, tracked } from './support'

let workerPath = ''
let tmp = ''
beforeAll(async () => {
  workerPath = await buildWorker()
  tmp = mkdtempSync(join(tmpdir(), 'easytune-pool-doc-'))
})
afterAll(() => {
  removeWorker(workerPath)
  rmSync(tmp, { recursive: true, force: true })
})

/** Three candidates with two thresholds on 8 resampled weeks a part: 14 cells plus the real weeks. */
const spec: CampaignSpec = {
  candidates: [{ primary: 'SPF', backfill: 'same' }, { primary: 'SAF', backfill: 'same' }, { primary: 'LQF', backfill: 'SPF' }],
  thresholds: [null, 72000], split: { kind: 'midpoint' }, resample: { method: 'user-weeks', weeks: 8, seed: 7 },
  objective: 'avgWait', tau: DEFAULTS.tau.value,
}
const request = { logPath: KTH, importOptions: {}, spec, verdict: defaultVerdictOptions() }

/** Every cell computed in this process, the way a worker computes it (read, prepare, machine, runCell). */
const inProcess: CellRunner = async (setup: WorkloadSetup, cells: CellSpec[]) => {
  const w = await readLogs(setup.logPaths ?? [setup.logPath], setup.importOptions)
  const p = prepare(w.jobs, w.machineProcs, setup.split, setup.resample, setup.compat ?? 'none')
  const machine = campaignMachine(setup.machine, w)
  const out = new Map<string, CellResult>()
  for (const c of cells) {
    const samples = c.samples === 'real' ? (c.part === 'train' ? p.trainReal : p.testReal) : c.part === 'train' ? p.train : p.test
    out.set(cellKey(c), runCell(samples, w.machineProcs, c, setup.tau, undefined, machine))
  }
  return out
}

const documentOf = async (runner: CellRunner, side?: SideRunnerFactory) => JSON.stringify((await evaluate(request, runner, 'f'.repeat(64), undefined, side)).result)

test('the result document is the same bytes with 1 and 2 workers, cached or not, and as computed in-process', async () => {
  const expected = await documentOf(inProcess)
  // The as-deployed run took place (a second runner call, on Slurm's scheduling): it is in the document.
  const parsed = JSON.parse(expected) as { recommendation: { asDeployed: unknown; impact: unknown }; calibration: unknown }
  expect(parsed.recommendation.asDeployed).toMatchObject({ same: false })
  // The whole-log work ran too (in this process here, on a worker of its own below): KTH records its waits.
  expect(parsed.calibration).toMatchObject({ spearman: expect.any(Number) })
  expect(parsed.recommendation.impact).toMatchObject({ train: expect.anything(), test: expect.anything() })
  // 1 worker; then 2 workers filling a cache; then 2 workers reading every cell back from it (32 at a time).
  const cache = new CellCache(join(tmp, 'cache'))
  // Each pooled run also forks one worker for the fidelity and the impact (pool.side), which then
  // never run in this process.
  for (const [workers, withCache, forks] of [[1, false, 3], [2, true, 5], [2, true, 1]] as const) {
    const { t, fork } = tracked()
    const pool = new EnginePool({ workers, workerPath, fork })
    const calls: number[] = []
    const doc = await documentOf((setup, cells) => { calls.push(cells.length); return pool.run(setup, cells, withCache ? { cache } : {}) }, pool.side())
    expect(doc).toBe(expected)
    expect(calls.length).toBe(2)
    expect(t.forks).toBe(forks)
  }
}, 300_000)
