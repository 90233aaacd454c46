// The Candidates step's "Learn a policy for this site" in the back end (docs/LEARN.md §The app): the
// 'learn' analysis runs the trials of `easytune learn` on the engine workers and the regression,
// and answers exactly the document the CLI builds in one process (the trials in this thread, then
// regress), with 1 and 2 workers; progress from 0 with the trials' detail, then the regression;
// finished tuples cached as the CLI's (a second run reads them); a cancel stops every worker; and
// the request refused in words when it is hostile (the contract's schema). And an fn: candidate as
// the GUI sends it ("Add to candidates") goes through the campaign like every order.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AnalysisRunner, type AnalysisWorkload } from '../../src/backend/analysis'
import { DEFAULTS } from '../../src/core/defaults'
import { regress } from '../../src/core/learn/regression'
import { learnJson } from '../../src/core/learn/report'
import { runTrials, TRIALS_BATCH } from '../../src/core/learn/trials'
import type { TrialsConfig } from '../../src/core/learn/types'
import { splitWorkload } from '../../src/core/tune/split'
import type { Workload } from '../../src/core/workload/import'
import { readLog } from '../../src/node/read-log'
import { parseArgs } from '../../src/shared/contract'
import type { AnalysisEvent, AnalysisRequest } from '../../src/shared/api'
import { ApiInputError } from '../../src/shared/errors'
import { LearnedFunctionSchema } from '../../src/shared/schemas'
import { alive, buildWorker, KTH, removeWorker, tracked } from './support'
import { Backend } from '../../src/backend/backend'
import { collect as collectCampaign, request, tempDir } from '../server/support'

let workerPath = ''
let w: Workload
let cacheRoot = ''
beforeAll(async () => {
  workerPath = await buildWorker()
  w = await readLog(KTH, {})
  cacheRoot = mkdtempSync(join(tmpdir(), 'easytune-learn-analysis-'))
}, 120_000)
afterAll(() => { removeWorker(workerPath); rmSync(cacheRoot, { recursive: true, force: true }) })

/** A tiny budget: one batch of trials per tuple (below the ~75,000 the early stop needs), 3 tuples. */
const REQ: AnalysisRequest = { workloadId: 'w1', kind: 'learn', options: { trials: TRIALS_BATCH, tuples: 3, seed: 7 }, split: { kind: 'midpoint' } }
const workload = (): AnalysisWorkload => ({ workload: w, path: KTH, importOptions: {}, sha256: 'c'.repeat(64) })

function collect(): { events: AnalysisEvent[]; emit: (e: AnalysisEvent) => void; end: Promise<AnalysisEvent> } {
  const events: AnalysisEvent[] = []
  let settle!: (e: AnalysisEvent) => void
  const end = new Promise<AnalysisEvent>((r) => { settle = r })
  return { events, end, emit: (e) => { events.push(e); if (e.kind !== 'progress') settle(e) } }
}

/** What `easytune learn` computes for the request in one process, through JSON. */
function expected(): unknown {
  const config: TrialsConfig = { ...DEFAULTS.learnTrials.value, trials: TRIALS_BATCH, tuples: 3, seed: 7 }
  const train = splitWorkload(w.jobs, w.machineProcs, { kind: 'midpoint' }).train
  const trials = runTrials(train, w.machineProcs, config)
  return JSON.parse(JSON.stringify(learnJson(w.name, config, trials, regress(trials.samples))))
}

describe('the learn analysis in the AnalysisRunner', () => {
  it('answers the document of `easytune learn` with 1 and 2 workers, with progress from 0 and the trials detail', async () => {
    const want = expected() as { trials: number; functions: { expression: string }[]; convergence: unknown[] }
    // 3 tuples of one batch each, none stopping early.
    expect(want.trials).toBe(3 * TRIALS_BATCH)
    expect(want.functions.length).toBeGreaterThan(100)
    // Every ranked function is one the project file keeps as it is (the app saves them there).
    for (const f of want.functions) expect(LearnedFunctionSchema.parse(f)).toEqual(f)
    for (const workers of [1, 2]) {
      const c = collect()
      const runner = new AnalysisRunner({ workerPath, workers, emit: c.emit })
      const analysisId = runner.start(REQ, workload())
      const last = await c.end
      await runner.close()
      expect(last).toEqual({ analysisId, kind: 'done', analysis: 'learn', result: want })
      const progress = c.events.filter((e): e is Extract<AnalysisEvent, { kind: 'progress' }> => e.kind === 'progress')
      expect(progress[0]).toEqual({ analysisId, kind: 'progress', analysis: 'learn', fraction: 0 })
      const fractions = progress.map((e) => e.fraction)
      expect(fractions).toEqual([...fractions].sort((a, b) => a - b))
      // The regression phase is announced once the trials are all done (90 % of the bar).
      const reg = progress.find((e) => e.learn?.phase === 'regression')
      expect(reg).toMatchObject({ fraction: 0.9, learn: { tuplesDone: 3, tuplesTotal: 3, trials: 3 * TRIALS_BATCH, functionsTotal: 400 } })
    }
  }, 180_000)

  it('keeps finished tuples in the cache, as the CLI does: a second run computes none', async () => {
    const dir = join(cacheRoot, 'cache')
    const first = collect()
    const r1 = new AnalysisRunner({ workerPath, workers: 1, cacheDir: dir, emit: first.emit })
    r1.start(REQ, workload())
    const a = await first.end
    await r1.close()
    expect(readdirSync(dir).filter((f) => f.endsWith('.learn.json'))).toHaveLength(3)
    const { t, fork } = tracked()
    const second = collect()
    const r2 = new AnalysisRunner({ workerPath, workers: 1, fork, cacheDir: dir, emit: second.emit })
    r2.start(REQ, workload())
    const b = await second.end
    await r2.close()
    // No trial computed again: the only work sent is the regression's, 400 members of ℱ in units of 16.
    expect(t.sentByKind).toEqual({ 'learn-fit': 25 })
    expect(t.unitsSent).toBe(25)
    expect((b as { result: unknown }).result).toEqual((a as { result: unknown }).result)
    expect(second.events.find((e) => e.kind === 'progress' && e.learn?.phase === 'regression')).toMatchObject({ learn: { cachedTuples: 3 } })
  }, 180_000)

  it('cancel stops its workers before "cancelled"', async () => {
    const { t, fork } = tracked()
    const c = collect()
    const runner = new AnalysisRunner({ workerPath, workers: 1, fork, emit: c.emit })
    const id = runner.start({ ...REQ, options: { trials: 1_000_000, tuples: 64, seed: 1 } }, workload())
    while (t.forks === 0) await new Promise((r) => setTimeout(r, 5))
    runner.cancel(id)
    expect(await c.end).toEqual({ analysisId: id, kind: 'cancelled' })
    expect(t.pids.some(alive)).toBe(false)
    expect(runner.active).toBe(0)
  }, 60_000)
})

describe('the learn request is hostile input', () => {
  const ok = { workloadId: 'w1', kind: 'learn', options: { trials: 4096, tuples: 2, seed: 1 }, split: { kind: 'midpoint' } }
  it('accepts the budget within its bounds', () => {
    expect(parseArgs('startAnalysis', [ok])).toEqual([ok])
  })
  it('refuses a budget out of bounds, NaN, an unknown field, a missing split, in words', () => {
    const bad = (options: unknown, rest: Record<string, unknown> = {}) => () => parseArgs('startAnalysis', [{ ...ok, options, ...rest }])
    expect(bad({ trials: 0, tuples: 2, seed: 1 })).toThrow(/startAnalysis: request's options.trials must be at least 1, got 0/)
    expect(bad({ trials: 1_024_001, tuples: 2, seed: 1 })).toThrow(/options.trials must be at most 1024000/)
    expect(bad({ trials: 4096, tuples: 1025, seed: 1 })).toThrow(/options.tuples must be at most 1024/)
    expect(bad({ trials: 4096.5, tuples: 2, seed: 1 })).toThrow(/options.trials must be a whole number/)
    expect(bad({ trials: NaN, tuples: 2, seed: 1 })).toThrow(ApiInputError)
    expect(bad({ trials: 4096, tuples: 2, seed: 1, tau: 5 })).toThrow(/has an unknown field "tau"/)
    expect(bad({ trials: 4096, tuples: 2, seed: -1 })).toThrow(/options.seed must be at least 0/)
    expect(() => parseArgs('startAnalysis', [{ workloadId: 'w1', kind: 'learn', options: ok.options }])).toThrow(/split/)
    expect(() => parseArgs('startAnalysis', [{ ...ok, kind: 'learn-more' }])).toThrow(/must be online, mixed, walltimes, predicted-order, learn or machine/)
    expect(() => parseArgs('startAnalysis', [JSON.parse('{"workloadId":"w1","kind":"learn","options":{"trials":1,"tuples":1,"seed":1,"__proto__":{}},"split":{"kind":"midpoint"}}')])).toThrow(/forbidden key "__proto__"/)
  })
})

describe('an fn: candidate from the app goes through the campaign like every order', () => {
  it('startCampaign takes it as the GUI sends it (canonicalised), and F1 written as fn: schedules exactly as F1', async () => {
    const tmp = tempDir()
    const backend = new Backend({ mode: 'browser', stateDir: join(tmp.dir, 'state'), cacheDir: null, workerPath, importInProcess: true })
    try {
      const s = await backend.importLog({ kind: 'sample' }, {})
      // F1 = −(log₁₀(r)·n + 870·log₁₀(s)) (docs/LEARN.md §Expressions): the same order, typed with spaces and "·".
      const raw = request(s.id, { candidates: { list: [{ primary: 'F1', backfill: 'same' }, { primary: 'fn: log10( r ) · n + 870·log10(s)', backfill: 'same' }] } })
      const [req] = parseArgs('startCampaign', [raw])
      expect(req.candidates).toEqual({ list: [{ primary: 'F1', backfill: 'same' }, { primary: 'fn:log10(r)*n+870*log10(s)', backfill: 'same' }] })
      expect(backend.estimateCampaign(req).cells).toBeGreaterThan(0)
      const { finished } = collectCampaign(backend)
      backend.startCampaign(req)
      const last = await finished
      expect(last.kind, JSON.stringify(last)).toBe('done')
      if (last.kind !== 'done') return
      const [, f1, fn] = last.result.candidates
      expect(fn!.primary).toBe('fn:log10(r)*n+870*log10(s)')
      expect(fn!.label).toContain('fn:log10(r)*n+870*log10(s)')
      expect(fn!.train.mean).toBe(f1!.train.mean)
      expect(fn!.test.mean).toBe(f1!.test.mean)
      // A malformed expression is refused in the parser's words before any worker starts.
      expect(() => parseArgs('startCampaign', [request(s.id, { candidates: { list: [{ primary: 'fn:log10(r)*x', backfill: 'same' }] } })])).toThrow(/character 10: unknown name "x"/)
    } finally {
      await backend.close()
      tmp.remove()
    }
  }, 180_000)
})
