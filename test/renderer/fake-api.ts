// A fake back end for the renderer's DOM tests: every EasyTuneApi method (the type derived from
// the contract: a missing operation is a type error here) is a vi.fn with a plain in-memory
// answer, the streams' events are pushed by the test (emit, emitImport, emitAnalysis), and
// fixtures build a small workload summary and evaluation result with the real shapes.
import { beforeEach, expect, vi } from 'vitest'
import { createPinia, setActivePinia, type Pinia } from 'pinia'
import { setApi } from '../../src/renderer/src/apiRef'
import type { AnalysisEvent, CampaignEvent, EasyTuneApi, ImportEvent, ProjectState, Settings, TimeLimitsView, WalltimesGroup, WalltimesReport, WorkloadSummary } from '../../src/shared/api'
import type { EvaluationResult } from '../../src/core/tune/result'
import type { PartSummary } from '../../src/core/tune/select'

export function part(gain: number, maxRatio = 1, mean = 1000): PartSummary {
  return {
    mean, baselineMean: mean / (1 - gain || 1), gain, gainCi: [gain - 0.05, gain + 0.05],
    meanRatio: 1 - gain, p10Ratio: 1 - gain - 0.1, p90Ratio: 1 - gain + 0.1, ratioWeeks: 3, ratioOfSums: 1 - gain,
    meanMaxWait: 40000 * maxRatio, meanMaxWaitRatio: maxRatio, maxMaxWait: 60000 * maxRatio, maxMaxWaitRatio: maxRatio,
    meanP99Wait: 30000 * maxRatio, maxP99Wait: 50000 * maxRatio,
    real: { weeks: 23, gain, ci: [gain - 0.05, gain + 0.05], vsBest: null, selectionCi: [gain - 0.08, gain + 0.04] },
  }
}

export function makeWorkload(over: Partial<WorkloadSummary> = {}): WorkloadSummary {
  return {
    id: 'w1', name: 'KTH-SP2-1996-2.1-cln.swf.gz', sha256: 'a'.repeat(64), unixStartTime: 843480031,
    report: {
      schemaVersion: 1, name: 'KTH-SP2-1996-2.1-cln.swf.gz', format: 'swf', formatSource: 'detected', linesRead: 28500, jobsRead: 28476, jobsKept: 28000, jobsRemoved: 476,
      machine: { procs: 100, source: 'header-maxprocs', note: '100 processors, from the log header (MaxProcs)' },
      rules: [
        { rule: 'C7-overrun', description: 'ran longer than requested: removed (C7)', effect: 'removed', count: 475, exampleLines: [137, 138] },
        { rule: 'C3-too-big', description: 'more processors than the machine: removed (C3)', effect: 'removed', count: 0, exampleLines: [] },
      ],
      badLines: { count: 0, examples: [] },
      warnings: ['requested time missing for 11,290 jobs: backfilling uses their runtime'],
      span: { firstSubmit: 600000, lastSubmit: 600000 + 40 * 604800, seconds: 40 * 604800, unixStartTime: 843480031, startIso: '1996-09-30T10:38:01.000Z', endIso: '1997-08-29T08:34:09.000Z' },
      users: 212, requestedMissing: 0, recordedWaits: 28000,
      options: { overrun: 'drop', requestedFallback: 'drop', procs: null },
      header: { Computer: 'IBM SP2', Installation: 'KTH', TimeZoneString: 'Europe/Stockholm' },
    },
    inspect: {
      weeks: { start: Array.from({ length: 40 }, (_, i) => 600000 + i * 604800), submittedLoad: Array.from({ length: 40 }, (_, i) => 0.5 + (i % 5) / 10), utilization: Array.from({ length: 40 }, () => 0.6) },
      procsHistogram: { edges: [1, 2, 4, 8], counts: [100, 50, 20] },
      requestedHistogram: { edges: [1, 60, 3600, 86400], counts: [10, 20, 30] },
      overEstimation: { requested: [3600, 7200], runtime: [600, 7000], medianRatio: 2.5 },
      topUsers: [{ user: 'u1', jobs: 10, procSeconds: 7200 }, { user: 'u2', jobs: 30, procSeconds: 3600 }, { user: 'u3', jobs: 5, procSeconds: 36000 }],
      recordedWaits: { edges: [1, 60, 3600], counts: [5, 6], mean: 15000, median: 300 },
    },
    ...over,
  }
}

/** One group of the walltimes report: `over` node-hours asked for and never used, ratios around `median`. */
export function group(name: string, rank: number, jobs: number, median: number, over: number, share: number): WalltimesGroup {
  return {
    name, unknown: false, rank, jobs, ratio: { p10: 1, p25: median / 2, p50: median, p75: median * 2, p90: median * 4, max: median * 10 },
    overRequestedNodeHours: over, overRequestedCpuHours: over * 4, shareOfOverRequest: share, usedShare: 1 / median,
    commonLimit: { seconds: 14400, share: 0.6 }, runtimeP90: 7200,
  }
}

/** The Time limits step's data: three users (pseudonyms, real names alice/bob/carol), two
 * accounts, one partition; no what-if yet. */
export function makeTimeLimits(over: Partial<WalltimesReport> = {}): TimeLimitsView {
  const report: WalltimesReport = {
    schemaVersion: 1, log: 'KTH-SP2-1996-2.1-cln.swf.gz', names: 'pseudonyms', ratioFloor: 60, hours: 'node-hours',
    recorded: { users: true, accounts: true, partitions: true, nodes: true },
    site: { jobs: 600, ratio: { p10: 1, p25: 1.5, p50: 3, p75: 8, p90: 20, max: 400 }, overRequestedNodeHours: 1000, overRequestedCpuHours: 4000, usedShare: 0.25, jobsWithoutNodes: 0, poorJobs: 150 },
    distribution: [{ from: 1, to: 2, jobs: 200, share: 1 / 3 }, { from: 2, to: 10, jobs: 250, share: 250 / 600 }, { from: 10, to: null, jobs: 150, share: 0.25 }],
    users: [group('user-001', 1, 300, 12, 600, 0.6), group('user-002', 2, 200, 4, 300, 0.3), group('user-003', 3, 100, 1.5, 100, 0.1)],
    accounts: [group('account-001', 1, 400, 8, 800, 0.8), group('account-002', 2, 200, 2, 200, 0.2)],
    partitions: [group('batch', 1, 600, 3, 1000, 1)],
    startWith: { users: [{ name: 'user-001', rank: 1, reason: 'asks for 12× the time its jobs run, 60 % of the over-requested node-hours' }], partitions: [{ name: 'batch', rank: 1, reason: '60 % of its jobs keep the 4 h default' }] },
    deployment: 'Slurm plans its backfill on the time limits: a prediction cannot replace them there.',
    whatIf: null,
    ...over,
  }
  return { report, realNames: { users: { 'user-001': 'alice', 'user-002': 'bob', 'user-003': 'carol' }, accounts: { 'account-001': 'physics', 'account-002': 'chemistry' } } }
}

type Cand = EvaluationResult['candidates'][number]
function cand(label: string, primary: string, threshold: number | null, train: PartSummary, test: PartSummary, baseline = false): Cand {
  return { label, candidate: { primary, backfill: 'same' }, primary, backfill: 'same', threshold, baseline, admissible: true, train, test }
}

/** A small result: EASY-FCFS, SPF, SAF and LQF with a 40 h threshold, recommended SPF, best on test SAF. */
export function makeResult(over: Partial<EvaluationResult> = {}): EvaluationResult {
  const w = makeWorkload()
  const candidates = [
    cand('EASY-FCFS', 'FCFS', null, part(0), part(0), true),
    cand('EASY-SPF Θ=40 h', 'SPF', 144000, part(0.4, 0.7), part(0.27, 0.7)),
    cand('EASY-SAF Θ=40 h', 'SAF', 144000, part(0.31, 1.1), part(0.41, 1.14)),
    cand('EASY-LQF Θ=40 h', 'LQF', 144000, part(-0.1, 2.5), part(-0.02, 2.57)),
  ]
  return {
    schemaVersion: 2, kind: 'easytune-evaluation', generator: 'easytune 0.1.0',
    log: { name: w.name, sha256: w.sha256, format: 'swf', machineProcs: 100, machineSource: 'header-maxprocs', jobsRead: 28476, jobsKept: 28000, unixStartTime: 843480031, importReport: w.report },
    protocol: {
      split: { spec: { kind: 'midpoint' }, at: 14981734, atIso: '1997-03-15T21:36:05.000Z', train: { jobs: 13480, start: 0, end: 1, seconds: 1, load: 0.7 }, test: { jobs: 14520, start: 1, end: 2, seconds: 1, load: 0.67 } },
      resample: { method: 'user-weeks', weeks: 3, seed: 1, trainOriginalWeeks: 23, testOriginalWeeks: 23, trainSamples: 3, testSamples: 3 },
      objective: 'avgWait', tau: 10, thresholds: [144000],
      candidates: ['FCFS', 'LCFS', 'SPF', 'LPF', 'LQF', 'SQF', 'LEXP', 'SEXP', 'LRF', 'SRF', 'LAF', 'SAF'].map((p) => ({ primary: p, backfill: 'same' })),
      risk: { maxWaitRatio: null }, cells: 48,
      minGain: 0.05, confidence: 0.95, minWeeks: 8, minJobs: 1000, criterion: 'ratio-of-means',
      statistics: { method: 'real-week paired bootstrap, choice redone per replicate', criterion: 'ratio-of-means', confidence: 0.95, replicates: 2000, trainWeeks: 23, testWeeks: 23, optimism: [-0.01, 0.03] },
    },
    calibration: null, candidates, recommended: 1, bestOnTest: 2, bestOnTrain: 1, ranking: [1, 2, 0, 3],
    recommendation: { label: 'EASY-SPF Θ=40 h', sentence: "EASY with SPF order and a 40 h threshold cut the average wait on the test months by 27% (90% CI 22% to 32%), with the longest wait 0.7× today's (11.7 h).", testDisagrees: false,
      verdict: 'switch', reason: 'switch to EASY-SPF Θ=40 h: train gain 40.0 % on the real weeks ≥ 5.0 %, its interval above 0, no risk limit set', equivalent: [],
      export: { target: 'slurm', fidelity: 'job_submit.lua', lost: [] }, impact: null, asDeployed: null },
    machine: { kind: 'pool', scheduler: 'easy', description: '100 interchangeable processors (header-maxprocs)', source: 'header-maxprocs', nodes: 0, cpus: 100, gpus: 0, partitions: [], notes: [], conf: null },
    weekly: [{ label: 'EASY-FCFS', train: [1, 2, 3], test: [1, 2, 3] }, { label: 'EASY-SPF Θ=40 h', train: [1, 1, 2], test: [1, 1, 2] }],
    ...over,
  }
}

/** importLog's third argument as the workload store sends it: a fresh import id. */
export const tracked = { importId: expect.stringMatching(/^[A-Za-z0-9_-]{1,64}$/) }

export type FakeApi = EasyTuneApi & {
  /** A campaign event, to the onCampaignEvent listeners. */
  emit(e: CampaignEvent): void
  emitImport(e: ImportEvent): void
  emitAnalysis(e: AnalysisEvent): void
  listeners: Set<(e: CampaignEvent) => void>
  importListeners: Set<(e: ImportEvent) => void>
  analysisListeners: Set<(e: AnalysisEvent) => void>
}

export function fakeApi(over: Partial<EasyTuneApi> = {}): FakeApi {
  const listeners = new Set<(e: CampaignEvent) => void>()
  const importListeners = new Set<(e: ImportEvent) => void>()
  const analysisListeners = new Set<(e: AnalysisEvent) => void>()
  let settings: Settings = { theme: 'system', workers: null, recentProjects: [] }
  const api: FakeApi = {
    listeners, importListeners, analysisListeners,
    emit: (e) => { for (const l of [...listeners]) l(e) },
    emitImport: (e) => { for (const l of [...importListeners]) l(e) },
    emitAnalysis: (e) => { for (const l of [...analysisListeners]) l(e) },
    getAppInfo: vi.fn(async () => ({ version: '0.1.0', mode: 'browser' as const, versions: {}, citations: ['KTH-SP2 log: courtesy of Lars Malinowsky, KTH.'] })),
    addLogFile: vi.fn(async (file: File, onProgress?: (s: number, t: number) => void) => {
      onProgress?.(file.size / 2, file.size)
      onProgress?.(file.size, file.size)
      return { handle: 'h1', name: file.name }
    }),
    importLog: vi.fn(async () => makeWorkload()),
    getImportReport: vi.fn(async () => makeWorkload().report),
    previewSplit: vi.fn(async (_id, split) => ({
      at: split.kind === 'time' ? split.at : 600000 + 20 * 604800, atIso: null,
      train: { jobs: 13480, seconds: 166 * 86400, load: 0.7, originalWeeks: 23 }, test: { jobs: 14520, seconds: 166 * 86400, load: 0.67, originalWeeks: 23 },
    })),
    estimateCampaign: vi.fn(async () => ({ cells: 24, weekSimulations: 72, seconds: 0.4, workers: 1 })),
    startCampaign: vi.fn(async () => ({ campaignId: 'c1' })),
    startAnalysis: vi.fn(async () => ({ analysisId: 'a1' })),
    getTimeLimits: vi.fn(async () => makeTimeLimits()),
    cancel: vi.fn(async () => {}),
    clearCellCache: vi.fn(async () => ({ cells: 3, bytes: 4_500 })),
    writeSlurmArray: vi.fn(async (_req, options) => ({
      folder: '/scratch/alice/easytune-plan', cells: 20, shards: options.shards, cpusPerTask: options.cpusPerTask, memMB: 448, timeMinutes: 90,
      submit: ['jobid=$(sbatch --parsable /scratch/alice/easytune-plan/campaign.sbatch)', 'sbatch --dependency=afterok:${jobid%%;*} /scratch/alice/easytune-plan/merge.sbatch'],
      resultFile: '/scratch/alice/easytune-plan/result.json',
    })),
    onCampaignEvent: vi.fn((l: (e: CampaignEvent) => void) => { listeners.add(l); return () => { listeners.delete(l) } }),
    onImportEvent: vi.fn((l: (e: ImportEvent) => void) => { importListeners.add(l); return () => { importListeners.delete(l) } }),
    onAnalysisEvent: vi.fn((l: (e: AnalysisEvent) => void) => { analysisListeners.add(l); return () => { analysisListeners.delete(l) } }),
    exportConfig: vi.fn(async (_r, target) => ({
      target, files: [{ name: 'slurm.conf.easytune', content: 'PriorityType=priority/multifactor\n', description: 'slurm.conf fragment' }],
      items: [{ feature: 'queue order SPF', fidelity: 'site factor' as const, note: 'via easytune-site-factor.sh' }], gaps: ['One reservation per partition'],
    })),
    exportPredictedOrder: vi.fn(async () => ({
      target: 'slurm' as const, items: [], gaps: [],
      files: ['slurm.conf.easytune', 'job_submit.lua', 'easytune-predicted-order.sh', 'README-predicted-order.txt', 'easytune-predicted-order.json'].map((name) => ({ name, content: `${name}\n`, description: name })),
    })),
    saveText: vi.fn(async () => true),
    generateReport: vi.fn(async () => '<!doctype html><title>report</title>'),
    saveReportPdf: vi.fn(async () => true),
    saveProject: vi.fn(async () => true),
    openProject: vi.fn(async () => null as ProjectState | null),
    autosave: vi.fn(async () => {}),
    restoreLastProject: vi.fn(async () => null),
    getSettings: vi.fn(async () => settings),
    setSettings: vi.fn(async (s: Partial<Settings>) => { settings = { ...settings, ...s }; return settings }),
    ...over,
  }
  return api
}

/** Lets pending promises and Vue updates settle. */
export async function settle(ms = 0): Promise<void> {
  await new Promise((r) => setTimeout(r, ms))
  await Promise.resolve()
}

/** A fresh Pinia and fake back end for each test: `const app = freshApp()` at file level, then
 * `app.api` / `app.pinia` inside the tests. */
export function freshApp(): { readonly api: FakeApi; readonly pinia: Pinia } {
  const app = { api: undefined as unknown as FakeApi, pinia: undefined as unknown as Pinia }
  beforeEach(() => {
    app.pinia = createPinia()
    setActivePinia(app.pinia)
    app.api = fakeApi()
    setApi(app.api)
  })
  return app
}
