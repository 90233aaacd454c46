// The wizard's stores with a fake back end: the campaign event reducer, stale marking when an
// upstream step changes, the project round trip, the recommendation text, imports (progress,
// cancel, errors), step gating and start-up (restore, sample=1, autosave).
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import { setApi } from '../../src/renderer/src/apiRef'
import { fractionDone, initialRun, partialRanking, reduceRun, workerSamples, type RunState } from '../../src/renderer/src/stores/campaignReducer'
import { crossCandidates, parseThresholdList, thresholdText, useCampaignStore } from '../../src/renderer/src/stores/campaign'
import { describeResult, parseEvaluation, riskText, useResultsStore } from '../../src/renderer/src/stores/results'
import { importMessage, useWorkloadStore } from '../../src/renderer/src/stores/workload'
import { useSplitStore } from '../../src/renderer/src/stores/split'
import { useWizardStore } from '../../src/renderer/src/stores/wizard'
import { thresholdProblem } from '../../src/core/util/duration'
import { MIXED_DEFAULTS, ONLINE_DEFAULTS } from '../../src/renderer/src/stores/analysis'
import { blankProject, fromProject, toProject } from '../../src/renderer/src/stores/project'
import { boot, startAutosave } from '../../src/renderer/src/boot'
import type { CampaignEvent, WorkloadSummary } from '../../src/shared/api'
import { fakeApi, freshApp, tracked, makeResult, makeWorkload, settle, type FakeApi } from './fake-api'

let api: FakeApi
beforeEach(() => {
  setActivePinia(createPinia())
  api = fakeApi()
  setApi(api)
})

const progress = (id: string, cellsDone: number): CampaignEvent => ({ campaignId: id, kind: 'progress', cellsDone, cellsTotal: 4, cachedCells: 0, samplesDone: cellsDone * 3, samplesTotal: 12, etaSeconds: 5, perWorker: [{ worker: 1, pid: 42, state: 'busy', cell: 'x' }] })

describe('campaign events reducer', () => {
  const running: RunState = { ...initialRun(), campaignId: 'c1', status: 'running' }

  it('follows progress, upserts finished cells, keeps warnings and ends on done', () => {
    let s = reduceRun(running, progress('c1', 1))
    expect(s.status).toBe('running')
    expect(fractionDone(s.progress)).toBeCloseTo(0.25)
    s = reduceRun(s, { campaignId: 'c1', kind: 'cell', label: 'EASY-SPF Θ=40 h', part: 'train', meanObjective: 50 })
    s = reduceRun(s, { campaignId: 'c1', kind: 'cell', label: 'EASY-SPF Θ=40 h', part: 'train', meanObjective: 40 })
    s = reduceRun(s, { campaignId: 'c1', kind: 'cell', label: 'EASY-FCFS Θ=none', part: 'train', meanObjective: 80 })
    expect(s.cells).toHaveLength(2)
    expect(partialRanking(s.cells, 'train')).toEqual([{ label: 'EASY-SPF Θ=40 h', mean: 40, ratio: 0.5 }, { label: 'EASY-FCFS Θ=none', mean: 80, ratio: 1 }])
    s = reduceRun(s, { campaignId: 'c1', kind: 'warning', message: 'worker 2 restarted' })
    expect(s.warnings).toEqual(['worker 2 restarted'])
    const result = makeResult()
    s = reduceRun(s, { campaignId: 'c1', kind: 'done', result })
    expect(s.status).toBe('done')
    expect(s.result).toBe(result)
    // A late progress message after the result changes nothing.
    expect(reduceRun(s, progress('c1', 3))).toBe(s)
  })

  it('ignores events of another campaign and records errors and cancellation', () => {
    expect(reduceRun(running, progress('other', 1))).toBe(running)
    expect(reduceRun(initialRun(), progress('c1', 1)).status).toBe('idle')
    expect(reduceRun(running, { campaignId: 'c1', kind: 'error', message: 'boom' })).toMatchObject({ status: 'error', error: 'boom' })
    expect(reduceRun(running, { campaignId: 'c1', kind: 'cancelled' }).status).toBe('cancelled')
  })

  it('keeps each worker\'s own progress and refines the matching worker row with it', () => {
    const wp = (worker: number, pid: number, cell: string, samplesDone: number): CampaignEvent => ({ campaignId: 'c1', kind: 'worker-progress', worker, pid, cell, samplesDone, samples: 40 })
    let s = reduceRun(running, progress('c1', 1))
    s = reduceRun(s, wp(1, 42, 'x', 10))
    s = reduceRun(s, wp(1, 42, 'x', 25))
    s = reduceRun(s, wp(2, 43, 'y', 5))
    expect(s.workers).toEqual({ 1: { pid: 42, cell: 'x', samplesDone: 25, samples: 40 }, 2: { pid: 43, cell: 'y', samplesDone: 5, samples: 40 } })
    expect(s.progress?.cellsDone).toBe(1)
    const row = s.progress!.perWorker[0]!
    expect(workerSamples(s, row)).toEqual({ pid: 42, cell: 'x', samplesDone: 25, samples: 40 })
    expect(workerSamples(s, { ...row, cell: 'z' })).toBeNull() // the row moved on to another cell
    expect(workerSamples(s, { ...row, pid: 99 })).toBeNull() // a replaced worker with the same number
    expect(workerSamples(s, { ...row, pid: null })).not.toBeNull()
    expect(workerSamples(s, { ...row, worker: 3 })).toBeNull()
    expect(reduceRun(s, { ...wp(1, 42, 'x', 30), campaignId: 'other' })).toBe(s)
    const done = reduceRun(s, { campaignId: 'c1', kind: 'cancelled' })
    expect(reduceRun(done, wp(1, 42, 'x', 30))).toBe(done)
  })

  it('partial results have no ratio until the baseline of that part is done', () => {
    expect(partialRanking([{ label: 'EASY-SPF', part: 'test', meanObjective: 3 }], 'test')[0].ratio).toBeNull()
  })
})

describe('campaign store', () => {
  it('buffers events that arrive before the campaign id, then hands the result to the results store', async () => {
    let release: (v: { campaignId: string }) => void = () => {}
    api.startCampaign = vi.fn(() => new Promise<{ campaignId: string }>((r) => { release = r }))
    const c = useCampaignStore()
    const started = c.start(c.request('w1', { kind: 'midpoint' }, { method: 'user-weeks', weeks: 3, seed: 1 }))
    expect(c.run.status).toBe('starting')
    api.emit(progress('c1', 2))
    api.emit({ campaignId: 'c1', kind: 'done', result: makeResult() })
    release({ campaignId: 'c1' })
    expect(await started).toBe(true)
    expect(c.run.status).toBe('done')
    expect(useResultsStore().result?.recommendation.label).toBe('EASY-SPF Θ=40 h')
  })

  it('builds the request from the pickers and cancels a running campaign', async () => {
    const c = useCampaignStore()
    c.preset = 'custom'
    c.customPrimaries = ['SPF', 'LQF']
    c.customBackfills = ['same', 'SPF']
    c.standardThresholds = [144000]
    c.customThresholds = '10h, none'
    c.capEnabled = true
    c.capValue = 2
    const r = c.request('w1', { kind: 'midpoint' }, { method: 'none', weeks: 1, seed: 7 })
    expect(r.candidates).toEqual({ list: [{ primary: 'SPF', backfill: 'same' }, { primary: 'LQF', backfill: 'same' }, { primary: 'LQF', backfill: 'SPF' }] })
    expect(r.thresholds).toEqual([null, 36000, 144000])
    expect(r.maxWaitRatio).toBe(2)
    await c.start(r)
    api.emit(progress('c1', 1))
    await c.cancel()
    expect(api.cancel).toHaveBeenCalledWith('c1')
    expect(c.run.status).toBe('cancelled')
  })

  it('parses threshold lists and refuses 0, which would make every order FCFS', () => {
    expect(parseThresholdList('20h, 200000 ; 1.5d none')).toEqual([72000, 200000, 129600, null])
    // The one threshold rule, in the same words as the CLI (thresholdProblem).
    expect(() => parseThresholdList('0')).toThrow(thresholdProblem(0)!)
    expect(() => parseThresholdList('20h, 0m')).toThrow(thresholdProblem(0)!)
    expect(parseThresholdList('none')).toEqual([null])
    expect(parseThresholdList('1')).toEqual([1])
    expect(() => parseThresholdList('soon')).toThrow(/not a duration/)
    expect([72000, 90, 5400, null].map(thresholdText)).toEqual(['20h', '90', '90m', 'none'])
    const c = useCampaignStore()
    c.customThresholds = '0'
    expect(c.problems).toContain(`Thresholds: ${thresholdProblem(0)}`)
    c.customThresholds = ''
    c.standardThresholds = []
    expect(c.problems.join(' ')).toMatch(/at least one threshold/)
    expect(crossCandidates(['FCFS'], ['FCFS', 'SPF'])).toEqual([{ primary: 'FCFS', backfill: 'same' }, { primary: 'FCFS', backfill: 'SPF' }])
  })
})

/** The stores set up to match makeResult()'s protocol exactly. */
function matchResult(): void {
  useWorkloadStore().restore(makeWorkload(), {}, null)
  const s = useSplitStore()
  s.resample = { method: 'user-weeks', weeks: 3, seed: 1 }
  const c = useCampaignStore()
  c.preset = 'ch6'
  c.standardThresholds = [144000]
  c.capEnabled = false // makeResult() has no limit on the longest wait
  useResultsStore().setResult(makeResult())
}

describe('initial state: the thesis protocol, from the one declaration of the defaults', () => {
  it('a fresh wizard and File > New start on 250 user-weeks per part, seed 1, the slurm preset, none/20h/40h/200000 s, average wait, τ = 10 s, longest wait ≤ 1.5×, 5 % gain at 95 %, 8 weeks', () => {
    const s = useSplitStore(), c = useCampaignStore()
    expect(s.spec).toEqual({ kind: 'midpoint' })
    expect(s.resample).toEqual({ method: 'user-weeks', weeks: 250, seed: 1 })
    expect([c.preset, c.objective, c.tau, c.maxWaitRatio, c.workers]).toEqual(['slurm', 'avgWait', 10, 1.5, null])
    expect([c.minGain, c.confidence, c.minWeeks, c.criterion]).toEqual([0.05, 0.95, 8, 'ratio-of-means'])
    expect(c.thresholds).toEqual([null, 72000, 144000, 200000])
    const blank = blankProject()
    expect(blank.split).toEqual({ kind: 'midpoint' })
    expect(blank.campaign).toEqual({ resample: { method: 'user-weeks', weeks: 250, seed: 1 }, candidates: { preset: 'slurm' }, thresholds: [null, 72000, 144000, 200000], objective: 'avgWait', tau: 10, maxWaitRatio: 1.5, workers: null, minGain: 0.05, confidence: 0.95, minWeeks: 8, criterion: 'ratio-of-means' })
    // The blank project is what the fresh stores say (File > New then Save gives the same file).
    expect(toProject().campaign).toEqual(blank.campaign)
    // Copies, not the declaration itself: editing the wizard cannot change the defaults.
    s.resample.weeks = 5
    c.standardThresholds.pop()
    expect(useSplitStore().resample.weeks).toBe(5)
    expect(blankProject().campaign.resample.weeks).toBe(250)
    expect(blankProject().campaign.thresholds).toHaveLength(4)
  })

  it('the analyses start on the quick looks (online 26 weeks × 3 traces, mixed budget 60 on 20 weeks)', () => {
    expect(ONLINE_DEFAULTS).toEqual({ strategies: ['full', 'noisy', 'egreedy', 'random'], period: 'week', weeks: 26, traces: 3, seed: 1 })
    expect(MIXED_DEFAULTS).toEqual({ features: 3, method: 'xnes', budget: 60, weeks: 20, objective: 'avgWait', seed: 1 })
  })
})

describe('stale results', () => {
  it('a result matching the current settings is current; each upstream change marks it stale, undoing it clears that', () => {
    matchResult()
    const r = useResultsStore(), s = useSplitStore(), c = useCampaignStore()
    expect(r.staleBecause).toEqual([])
    s.setAt(20_000_000)
    expect(r.staleBecause).toEqual(['the split point moved'])
    s.resetToMidpoint()
    expect(r.stale).toBe(false)
    s.resample.weeks = 4
    c.standardThresholds = [72000, 144000]
    c.preset = 'ch5'
    c.objective = 'avgBsld'
    c.capEnabled = true
    expect(r.staleBecause).toEqual([
      'the resampling (method, weeks or seed) changed', 'the objective changed', 'the thresholds changed', 'the candidate orders changed', 'the limit on the longest wait changed',
    ])
  })

  it('a schema-2 result is stale when the minimum gain, confidence, minimum weeks or criterion changed; a schema-1 result has none to compare', () => {
    matchResult()
    const r = useResultsStore(), c = useCampaignStore()
    const base = makeResult()
    r.setResult({ ...base, protocol: { ...base.protocol, minGain: 0.05, confidence: 0.95, minWeeks: 8, criterion: 'ratio-of-means' } as typeof base.protocol })
    expect(r.staleBecause).toEqual([])
    c.confidence = 0.9
    expect(r.staleBecause).toEqual(['the minimum gain, confidence, minimum weeks or criterion changed'])
    c.confidence = 0.95
    c.minWeeks = 12
    expect(r.stale).toBe(true)
    // A schema-1 result has no verdict settings to compare with.
    const { minGain: _g, confidence: _c, minWeeks: _w, criterion: _k, ...v1protocol } = base.protocol as typeof base.protocol & Record<string, unknown>
    r.setResult({ ...base, schemaVersion: 1, protocol: v1protocol as typeof base.protocol })
    expect(r.staleBecause).toEqual([])
  })

  it('another log, or the same log with another machine size, makes it stale', () => {
    matchResult()
    const w = useWorkloadStore(), r = useResultsStore()
    w.restore(makeWorkload({ sha256: 'b'.repeat(64) }), {}, null)
    expect(r.staleBecause).toEqual(['a different log is loaded'])
    const bigger = makeWorkload()
    bigger.report = { ...bigger.report, machine: { ...bigger.report.machine, procs: 128 } }
    w.restore(bigger, {}, null)
    expect(r.staleBecause).toEqual(['the machine size or the cleaning of the log changed'])
  })
})

describe('project round trip', () => {
  it('toProject → fromProject in a fresh app gives back the same state', () => {
    matchResult()
    const s = useSplitStore(), c = useCampaignStore()
    s.setAt(16_000_000)
    s.resample = { method: 'week-shuffle', weeks: 9, seed: 5 }
    c.preset = 'custom'
    c.customPrimaries = ['SAF', 'LEXP']
    c.customBackfills = ['same', 'SPF']
    c.standardThresholds = [null, 72000]
    c.customThresholds = '10h, 90000'
    c.objective = 'avgBsld'
    c.tau = 60
    c.capEnabled = true
    c.capValue = 1.75
    c.workers = 3
    useWizardStore().step = 3
    const saved = JSON.parse(JSON.stringify(toProject()))
    expect(saved.log).toEqual({ name: 'KTH-SP2-1996-2.1-cln.swf.gz', sha256: 'a'.repeat(64) })

    setActivePinia(createPinia())
    fromProject(saved, makeWorkload())
    expect(JSON.parse(JSON.stringify(toProject()))).toEqual(saved)
    expect(useCampaignStore().customThresholds).toBe('10h, 25h')
    expect(useWizardStore().step).toBe(3)
  })

  it('a project without its log keeps the result, asks for the log, and falls back to a step it can show', () => {
    const state = { version: 1 as const, log: { name: 'site.swf', sha256: 'c'.repeat(64) }, importOptions: { procs: 64 }, split: { kind: 'midpoint' as const },
      campaign: { resample: { method: 'user-weeks' as const, weeks: 5, seed: 1 }, candidates: { preset: 'ch5' as const }, thresholds: [null], objective: 'avgWait' as const, tau: 10, maxWaitRatio: null, workers: null, minGain: 0.05, confidence: 0.95, minWeeks: 8, criterion: 'ratio-of-means' as const },
      result: makeResult(), step: 2 }
    fromProject(state, null)
    const w = useWorkloadStore()
    expect(w.expectedLog).toEqual(state.log)
    expect(w.options).toEqual({ procs: 64 })
    expect(useWizardStore().step).toBe(0) // Split needs a log
    expect(useWizardStore().enabled).toEqual([true, false, false, false, false, false, true, true])
    expect(toProject().log).toEqual(state.log)
    expect(() => fromProject({ ...state, version: 2 as unknown as 1 }, null)).toThrow(/version 2/)
  })
})

describe('recommendation text', () => {
  it('says the recommendation, its risk, the hindsight best and the scope in sentences', () => {
    const r = makeResult()
    const t = describeResult(r)
    expect(t.headline).toBe(r.recommendation.sentence)
    expect(t.hindsight).toMatch(/In hindsight, EASY-SAF Θ=40 h was best on the test months \(41% less average wait than EASY-FCFS, against 27% for the recommendation\)/)
    expect(t.scope).toMatch(/Chosen among 4 configurations \(thresholds: 40 h\) on 3 training weeks and judged on 3 test weeks \(user-weeks, seed 1\)/)
    expect(riskText(r)).toMatch(/^Longest wait: 0\.7× EASY-FCFS's on the training weeks \(11\.7 h\), 0\.7× on the test weeks \(11\.7 h\)\. No limit/)
    const same = describeResult({ ...r, bestOnTest: 1 })
    expect(same.hindsight).toMatch(/also the best on the test months/)
    const limited = riskText({ ...r, protocol: { ...r.protocol, risk: { maxWaitRatio: 1.5 } }, candidates: r.candidates.map((c, i) => ({ ...c, admissible: i !== 3 })) })
    expect(limited).toMatch(/Your limit: 1\.5× on the training weeks; 1 configurations exceeded it\./)
  })

  it('reads CLI JSON: evaluation results (known schema only), online and mixed results', () => {
    expect(() => parseEvaluation(JSON.stringify({ ...makeResult(), schemaVersion: 9 }))).toThrow(/schema version 9/)
    const r = useResultsStore()
    expect(r.loadJson(JSON.stringify(makeResult()))).toBe('evaluation')
    expect(r.loadJson(JSON.stringify({ schemaVersion: 1, log: {}, config: { period: 604800, threshold: null, policies: [] }, traces: 1, periods: 3, runs: [] }))).toBe('online')
    expect(r.loadJson(JSON.stringify({ schemaVersion: 1, best: {}, baseline: {}, vertices: [] }))).toBe('mixed')
    expect(() => r.loadJson('{"hello": 1}')).toThrow(/not an EasyTune/)
    expect(() => r.loadJson('not json')).toThrow()
    expect(r.loadError).toMatch(/not JSON/)
  })
})

describe('workload store', () => {
  it('uploads with progress, imports, and keeps the options', async () => {
    const w = useWorkloadStore()
    const seen: number[] = []
    api.addLogFile = vi.fn(async (f: File, on?: (s: number, t: number) => void) => {
      on?.(5, 10); seen.push(w.progress!.sent); on?.(10, 10); seen.push(w.progress!.sent)
      expect(w.status).toBe('uploading')
      return { handle: 'h9', name: f.name }
    })
    await w.importFile(new File(['0123456789'], 'site.swf'))
    expect(seen).toEqual([5, 10])
    expect(api.importLog).toHaveBeenCalledWith({ kind: 'handle', handle: 'h9' }, {}, tracked)
    expect(w.status).toBe('ready')
    await w.reimport({ procs: 128 })
    expect(api.importLog).toHaveBeenLastCalledWith({ kind: 'handle', handle: 'h9' }, { procs: 128 }, tracked)
  })

  it('cancel stops waiting: a late answer is ignored and the previous log stays', async () => {
    const w = useWorkloadStore()
    await w.importSample()
    let answer: (v: ReturnType<typeof makeWorkload>) => void = () => {}
    api.importLog = vi.fn(() => new Promise<ReturnType<typeof makeWorkload>>((r) => { answer = r }))
    const p = w.importFile(new File(['x'], 'big.swf'))
    await settle()
    expect(w.busy).toBe(true)
    w.cancel()
    expect(w.status).toBe('ready')
    answer(makeWorkload({ name: 'big.swf', sha256: 'd'.repeat(64) }))
    await p
    expect(w.summary?.name).toBe('KTH-SP2-1996-2.1-cln.swf.gz')
  })

  it('cancel during an upload aborts it (the signal handed to addLogFile)', async () => {
    let signal: AbortSignal | undefined
    api.addLogFile = vi.fn((_f: File, _p?: unknown, s?: AbortSignal) => {
      signal = s
      return new Promise<{ handle: string; name: string }>((_, reject) => s?.addEventListener('abort', () => reject(new Error('the upload was cancelled'))))
    }) as FakeApi['addLogFile']
    const w = useWorkloadStore()
    const p = w.importFile(new File(['x'], 'big.swf'))
    await settle()
    expect(w.status).toBe('uploading')
    w.cancel()
    await p
    expect(signal?.aborted).toBe(true)
    expect(w.status).toBe('idle')
    expect(w.error).toBeNull()
    expect(api.importLog).not.toHaveBeenCalled()
  })

  it('a broken file gives a clear message without the back end\'s temporary path', async () => {
    api.importLog = vi.fn(async () => { throw new Error('/tmp/easytune-uploads-sKiEdX/upload-9a4b75322ceaf767:1: the file contains NUL bytes: it is binary, not a text job log') })
    const w = useWorkloadStore()
    await w.importFile(new File([new Uint8Array([0, 1, 2])], 'broken.swf'))
    expect(w.status).toBe('error')
    expect(w.error).toBe('Could not import broken.swf: line 1: the file contains NUL bytes: it is binary, not a text job log')
    expect(importMessage('C:\\Users\\me\\log.swf: empty file')).toBe('empty file')
    expect(importMessage('broken.swf:1: the file contains NUL bytes', 'broken.swf')).toBe('line 1: the file contains NUL bytes')
    expect(importMessage('site (1).swf: no job could be read', 'site (1).swf')).toBe('no job could be read')
  })

  it('a different log resets the split to the midpoint; the same log keeps it', async () => {
    const w = useWorkloadStore(), s = useSplitStore()
    await w.importSample()
    s.setAt(123456)
    await w.reimport({ procs: 100 })
    expect(s.spec).toEqual({ kind: 'time', at: 123456 })
    api.importLog = vi.fn(async () => makeWorkload({ sha256: 'e'.repeat(64) }))
    await w.importFile(new File(['x'], 'other.swf'))
    expect(s.spec).toEqual({ kind: 'midpoint' })
  })
})

describe('wizard and start-up', () => {
  it('steps need a log, results need a result; go() refuses the others', async () => {
    const z = useWizardStore()
    expect(z.enabled).toEqual([true, false, false, false, false, false, false, false])
    expect(z.goTo('split')).toBe(false)
    await useWorkloadStore().importSample()
    expect(z.goTo('split')).toBe(true)
    expect(z.goTo('results')).toBe(false)
    useResultsStore().setResult(makeResult())
    expect(z.goTo('export')).toBe(true)
  })

  it('restores the last project on start, and autosaves (debounced) after changes', async () => {
    const r = makeResult()
    api.restoreLastProject = vi.fn(async () => ({ state: { version: 1 as const, log: { name: r.log.name, sha256: r.log.sha256 }, importOptions: {}, split: { kind: 'midpoint' as const }, campaign: { resample: { method: 'user-weeks' as const, weeks: 3, seed: 1 }, candidates: { preset: 'ch6' as const }, thresholds: [144000], objective: 'avgWait' as const, tau: 10, maxWaitRatio: null, workers: null, minGain: 0.05, confidence: 0.95, minWeeks: 8, criterion: 'ratio-of-means' as const }, result: r, step: 5 }, workload: makeWorkload(), logMissing: false }))
    await boot('?token=x', 30)
    // A file from before the Time limits step (no stepId): its step 5 was Results.
    expect(useWizardStore().current.id).toBe('results')
    expect(useResultsStore().stale).toBe(false)
    expect(api.importLog).not.toHaveBeenCalled()
    useSplitStore().resample.seed = 2
    useSplitStore().resample.seed = 3
    await settle(80)
    expect(api.autosave).toHaveBeenCalledTimes(1)
    expect(vi.mocked(api.autosave).mock.calls[0][0].campaign.resample.seed).toBe(3)
    startAutosave(30)() // stop
  })

  it('sample=1 opens the bundled sample instead of restoring', async () => {
    await boot('?token=x&sample=1', 30)
    expect(api.restoreLastProject).not.toHaveBeenCalled()
    expect(api.importLog).toHaveBeenCalledWith({ kind: 'sample' }, {}, tracked)
    expect(useWorkloadStore().ready).toBe(true)
  })
})

describe('start-up against a late restore (issue #20)', () => {
  const app = freshApp()
  const late = () => {
    type Restored = Awaited<ReturnType<typeof app.api.restoreLastProject>>
    let resolve!: (v: Restored) => void
    app.api.restoreLastProject = vi.fn(() => new Promise<Restored>((r) => { resolve = r }))
    const r = makeResult()
    const restored = makeWorkload({ id: 'w-old', name: 'old.swf', sha256: 'b'.repeat(64) })
    const project = { state: { version: 1 as const, log: { name: 'old.swf', sha256: 'b'.repeat(64) }, importOptions: {}, split: { kind: 'midpoint' as const }, campaign: { resample: { method: 'user-weeks' as const, weeks: 3, seed: 1 }, candidates: { preset: 'ch6' as const }, thresholds: [144000], objective: 'avgWait' as const, tau: 10, maxWaitRatio: null, workers: null, minGain: 0.05, confidence: 0.95, minWeeks: 8, criterion: 'ratio-of-means' as const }, result: r, step: 5 }, workload: restored, logMissing: false }
    return { finish: () => resolve(project) }
  }

  it('an upload chosen while the restore is on its way is kept: the late restore does not replace it', async () => {
    const { finish } = late()
    const booting = boot('', 30)
    await settle()
    const w = useWorkloadStore()
    const importing = w.importFile(new File(['1 0 0 10 1 -1 -1 1 100 -1 1 1 1 -1 1 -1 -1 -1\n'], 'mine.swf'))
    await importing
    expect(w.summary?.id).toBe('w1')
    finish() // ~0.7 s later in the real app
    await booting
    expect(w.summary?.id).toBe('w1') // still the user's log
    expect(w.expectedLog).toBeNull()
    expect(useWizardStore().step).toBe(0)
    expect(useResultsStore().result).toBeNull()
    startAutosave(30)()
  })

  it('an upload still running when the restore arrives is kept too', async () => {
    const { finish } = late()
    let release!: () => void
    app.api.importLog = vi.fn(() => new Promise<WorkloadSummary>((r) => { release = () => r(makeWorkload()) }))
    const booting = boot('', 30)
    await settle()
    const w = useWorkloadStore()
    const importing = w.importFile(new File(['x'], 'mine.swf'))
    await settle()
    expect(w.busy).toBe(true)
    finish()
    await booting
    expect(w.busy).toBe(true)
    expect(useWizardStore().step).toBe(0)
    release()
    await importing
    expect(w.summary?.id).toBe('w1')
    startAutosave(30)()
  })

  it('with nothing chosen, the late restore still restores', async () => {
    const { finish } = late()
    const booting = boot('', 30)
    await settle()
    finish()
    await booting
    expect(useWorkloadStore().summary?.id).toBe('w-old')
    expect(useWizardStore().current.id).toBe('results') // the old file's step 5
    startAutosave(30)()
  })
})
