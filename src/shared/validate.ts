// Argument validators for every EasyTuneApi method (ARCHITECTURE.md §6: every handler validates
// its arguments). Shared by Electron main's IPC handlers and browser mode's HTTP handlers: each
// turns `unknown` (whatever arrived) into the typed DTO, or throws ApiInputError with a message a
// person can read. Pure: no Node, no DOM. Hostile input is expected: wrong types, extra keys,
// NaN/Infinity, huge arrays, over-long strings, prototype-pollution keys, unknown policy ids.
// Outputs are fresh objects holding only the known keys (the input object is never passed on).
import { findPolicy } from '../core/sim/policies'
import { RESAMPLE_METHODS } from '../core/tune/resample'
import type { SplitSpec } from '../core/tune/split'
import type { EvaluationResult } from '../core/tune/result'
import { LOG_FORMATS } from '../core/workload/types'
import type { AnalysisRequest, CampaignRequest, CandidateDto, EasyTuneApi, ExportTarget, ImportOptionsDto, ImportTracking, LogSource, ProjectState, Settings } from './api'
import { args, describe, fail, list, MAX_TEXT_CHARS, MAX_WEEKS, MAX_WORKERS, num, oneOf, optional, plainData, record, text, validateFileName, validateId, validatePath } from './validate-basics'

export { ApiInputError, FORBIDDEN_KEYS, ID_PATTERN, MAX_PATH_CHARS, MAX_TEXT_CHARS, MAX_WEEKS, MAX_WORKERS, plainData, validateFileName, validateId, validatePath } from './validate-basics'

export function validateImportOptions(v: unknown): ImportOptionsDto {
  const o = record(v, 'the import options', ['format', 'procs', 'overrun', 'requestedFallback'])
  const out: ImportOptionsDto = {}
  if (!optional(o.format)) out.format = oneOf(o.format, 'the log format', LOG_FORMATS)
  if (!optional(o.procs)) out.procs = num(o.procs, 'the machine size (processors)', 1, 1e8, true)
  if (!optional(o.overrun)) out.overrun = oneOf(o.overrun, 'the overrun rule', ['drop', 'clamp', 'keep'] as const)
  if (!optional(o.requestedFallback)) {
    const f = o.requestedFallback
    if (f === 'drop' || f === 'runtime') out.requestedFallback = f
    else if (typeof f === 'object') out.requestedFallback = { seconds: num(record(f, 'the requested-time fallback', ['seconds']).seconds, 'the fallback requested time (seconds)', 1, 1e9) }
    else fail(`the requested-time fallback must be drop, runtime or { seconds }, got ${describe(f)}`)
  }
  return out
}

export function validateLogSource(v: unknown): LogSource {
  const kind = record(v, 'the log source', ['kind', 'handle']).kind
  const o = v as Record<string, unknown>
  if (kind === 'handle') return { kind, handle: validateId(o.handle, 'the file handle') }
  if (kind === 'sample' || kind === 'dialog') {
    if (o.handle !== undefined) fail(`a ${kind} log source has no handle`)
    return { kind }
  }
  fail(`the log source must be sample, dialog or handle, got ${describe(kind)}`)
}

/** importLog's optional third argument: the id the renderer follows (and may cancel) it by. */
export function validateImportTracking(v: unknown): ImportTracking {
  return { importId: validateId(record(v, 'the import tracking', ['importId']).importId, 'the import id') }
}

export function validateSplit(v: unknown): SplitSpec {
  const o = record(v, 'the split', ['kind', 'fraction', 'at'])
  const only = (key: string) => { for (const k of ['fraction', 'at']) if (k !== key && o[k] !== undefined) fail(`a ${String(o.kind)} split has no "${k}"`) }
  switch (o.kind) {
    case 'midpoint': only(''); return { kind: 'midpoint' }
    case 'fraction': {
      only('fraction')
      const f = num(o.fraction, 'the split fraction', 0, 1)
      if (f <= 0 || f >= 1) fail(`the split fraction must be strictly between 0 and 1, got ${f}`)
      return { kind: 'fraction', fraction: f }
    }
    case 'time': only('at'); return { kind: 'time', at: num(o.at, 'the split time (seconds)', -1e11, 1e11) }
    default: fail(`the split must be midpoint, fraction or time, got ${describe(o.kind)}`)
  }
}

function policyId(v: unknown, what: string, allowSame: boolean): string {
  const s = text(v, what, 32, 1)
  if (allowSame && s === 'same') return s
  const p = findPolicy(s)
  if (!p) fail(`${what} "${s.slice(0, 32)}" is not a known policy`)
  return p.id
}

function validateCandidates(v: unknown): CampaignRequest['candidates'] {
  const o = record(v, 'the candidates', ['preset', 'list'])
  if (o.preset !== undefined) {
    if (o.list !== undefined) fail('give the candidates as a preset or as a list, not both')
    return { preset: oneOf(o.preset, 'the candidate preset', ['ch5', 'ch6'] as const) }
  }
  const items = list(o.list, 'the candidate list', 500, 1)
  return {
    list: items.map((c, i): CandidateDto => {
      const r = record(c, `candidate ${i + 1}`, ['primary', 'backfill'])
      return { primary: policyId(r.primary, `candidate ${i + 1}'s primary order`, false), backfill: policyId(r.backfill, `candidate ${i + 1}'s backfill order`, true) }
    }),
  }
}

type CampaignSettings = Omit<CampaignRequest, 'workloadId' | 'split'>

function campaignSettings(o: Record<string, unknown>): CampaignSettings {
  const r = record(o.resample, 'the resampling', ['method', 'weeks', 'seed'])
  return {
    resample: {
      method: oneOf(r.method, 'the resampling method', RESAMPLE_METHODS),
      weeks: num(r.weeks, 'the number of weeks', 1, MAX_WEEKS, true),
      seed: num(r.seed, 'the random seed', 0, 2 ** 32 - 1, true),
    },
    candidates: validateCandidates(o.candidates),
    thresholds: list(o.thresholds, 'the thresholds', 64, 1).map((t, i) => (t === null ? null : num(t, `threshold ${i + 1} (seconds)`, 0, 1e9))),
    objective: oneOf(o.objective, 'the objective', ['avgWait', 'avgBsld'] as const),
    tau: num(o.tau, 'tau (the bounded-slowdown bound, seconds)', 1e-9, 1e6),
    maxWaitRatio: o.maxWaitRatio === null ? null : num(o.maxWaitRatio, 'the longest-wait limit (ratio)', 0, 1e6),
    workers: o.workers === null ? null : num(o.workers, 'the number of engine workers', 1, MAX_WORKERS, true),
  }
}

const SETTINGS_KEYS = ['resample', 'candidates', 'thresholds', 'objective', 'tau', 'maxWaitRatio', 'workers'] as const

export function validateCampaignRequest(v: unknown): CampaignRequest {
  const o = record(v, 'the campaign request', ['workloadId', 'split', ...SETTINGS_KEYS])
  return { workloadId: validateId(o.workloadId, 'the workload id'), split: validateSplit(o.split), ...campaignSettings(o) }
}

/** Bounds of startAnalysis's options: a run the app starts should end within minutes. */
export const ANALYSIS_LIMITS = { onlineWeeks: 260, traces: 20, mixedWeeks: 500, budget: 1000 } as const
const STRATEGY_IDS = ['full', 'noisy', 'egreedy', 'random'] as const

export function validateAnalysisRequest(v: unknown): AnalysisRequest {
  const o = record(v, 'the analysis request', ['workloadId', 'kind', 'options', 'split'])
  const workloadId = validateId(o.workloadId, 'the workload id')
  const seed = (x: unknown) => num(x, 'the random seed', 0, 2 ** 32 - 1, true)
  if (o.kind === 'online') {
    if (o.split !== undefined) fail('an online-selection analysis has no split (it uses the whole log)')
    const r = record(o.options, 'the online-selection options', ['strategies', 'period', 'weeks', 'traces', 'seed'])
    const strategies = list(r.strategies, 'the strategies', STRATEGY_IDS.length, 1).map((x) => oneOf(x, 'a strategy', STRATEGY_IDS))
    if (new Set(strategies).size !== strategies.length) fail('the strategies list a strategy twice')
    return {
      workloadId, kind: 'online',
      options: {
        strategies, period: oneOf(r.period, 'the period', ['day', 'week'] as const),
        weeks: num(r.weeks, 'the trace length (weeks)', 1, ANALYSIS_LIMITS.onlineWeeks, true),
        traces: num(r.traces, 'the number of traces', 1, ANALYSIS_LIMITS.traces, true), seed: seed(r.seed),
      },
    }
  }
  if (o.kind === 'mixed') {
    const r = record(o.options, 'the mixed-policy options', ['features', 'method', 'budget', 'weeks', 'objective', 'seed'])
    if (r.features !== 3 && r.features !== 6) fail(`the number of features must be 3 or 6, got ${describe(r.features)}`)
    return {
      workloadId, kind: 'mixed', split: validateSplit(o.split),
      options: {
        features: r.features, method: oneOf(r.method, 'the search method', ['xnes', 'grid'] as const),
        budget: num(r.budget, 'the search budget', 1, ANALYSIS_LIMITS.budget, true),
        weeks: num(r.weeks, 'the number of weeks', 1, ANALYSIS_LIMITS.mixedWeeks, true),
        objective: oneOf(r.objective, 'the objective', ['avgWait', 'avgBsld'] as const), seed: seed(r.seed),
      },
    }
  }
  fail(`the analysis must be online or mixed, got ${describe(o.kind)}`)
}

/** Any plain object (its keys were checked by plainData). */
const loose = (v: unknown, what: string) => record(v, what, typeof v === 'object' && v !== null ? Object.keys(v) : [])

/** An evaluation result document (it came from us, but went through the renderer). Fields may
 * be added within a schema version (docs/RESULT-SCHEMA.md), so unknown keys are allowed here;
 * the data must still be inert (plainData) and the fields everything reads must hold up. The
 * report and export check the rest (core/export/report-model.ts). */
export function validateResult(v: unknown): EvaluationResult {
  const r = loose(plainData(v, 'the evaluation result'), 'the evaluation result')
  if (r.kind !== 'easytune-evaluation') fail('this is not an EasyTune evaluation result')
  if (r.schemaVersion !== 1) fail(`evaluation results of schema version ${describe(r.schemaVersion)} are not supported (expected 1)`)
  const log = loose(r.log, 'the result\'s log')
  text(log.name, 'the log name', 1024)
  num(log.machineProcs, 'the machine size', 1, 1e8, true)
  loose(r.protocol, 'the result\'s protocol')
  const n = list(r.candidates, 'the result\'s candidates', 100_000, 1).length
  ;(r.candidates as unknown[]).forEach((c, i) => {
    const cr = loose(c, `result candidate ${i + 1}`)
    text(cr.label, `result candidate ${i + 1}'s label`, 200)
    loose(cr.train, `result candidate ${i + 1}'s train summary`)
    loose(cr.test, `result candidate ${i + 1}'s test summary`)
  })
  for (const k of ['recommended', 'bestOnTest', 'bestOnTrain']) num(r[k], `the result's ${k} index`, 0, n - 1, true)
  for (const i of list(r.ranking, 'the result\'s ranking', n)) num(i, 'a ranking index', 0, n - 1, true)
  text(loose(r.recommendation, 'the recommendation').sentence, 'the recommendation sentence', 10_000)
  list(r.weekly, 'the weekly series', 100)
  return r as unknown as EvaluationResult
}

export function validateProjectState(v: unknown): ProjectState {
  const o = record(v, 'the project', ['version', 'log', 'importOptions', 'split', 'campaign', 'result', 'step'])
  if (o.version !== 1) fail(`project files of version ${describe(o.version)} are not supported (expected 1)`)
  let log: ProjectState['log'] = null
  if (o.log !== null) {
    const l = record(o.log, 'the project\'s log', ['name', 'sha256'])
    const sha = text(l.sha256, 'the log\'s sha256', 64)
    if (!/^[0-9a-f]{64}$/.test(sha)) fail('the log\'s sha256 must be 64 lowercase hexadecimal digits')
    log = { name: text(l.name, 'the log name', 1024), sha256: sha }
  }
  const c = record(o.campaign, 'the project\'s campaign settings', SETTINGS_KEYS)
  return {
    version: 1, log, importOptions: validateImportOptions(o.importOptions), split: validateSplit(o.split),
    campaign: campaignSettings(c), result: o.result === null ? null : validateResult(o.result), step: num(o.step, 'the wizard step', 0, 100, true),
  }
}

/** A project file's text (JSON) → the validated state. */
export function parseProjectText(s: string): ProjectState {
  text(s, 'the project file', MAX_TEXT_CHARS)
  let v: unknown
  try {
    v = JSON.parse(s)
  } catch {
    fail('this is not an EasyTune project file (it is not JSON)')
  }
  return validateProjectState(v)
}

export function validateSettings(v: unknown): Partial<Settings> {
  const o = record(v, 'the settings', ['theme', 'workers', 'recentProjects'])
  const out: Partial<Settings> = {}
  if (o.theme !== undefined) out.theme = oneOf(o.theme, 'the theme', ['system', 'light', 'dark'] as const)
  if (o.workers !== undefined) out.workers = o.workers === null ? null : num(o.workers, 'the number of engine workers', 1, MAX_WORKERS, true)
  if (o.recentProjects !== undefined) out.recentProjects = list(o.recentProjects, 'the recent projects', 20).map((p) => validatePath(p, 'a recent project path'))
  return out
}


export type OpenProjectArg = { path: string } | { text: string }

/** Typed arguments per method, as they cross IPC or HTTP. Two differ from EasyTuneApi's
 * signature because a File cannot cross: addLogFile carries the dropped file's path (Electron;
 * browser mode uploads to POST /api/upload instead) and openProject carries a path (Electron
 * drop) or the file's text (browser mode), or nothing (Electron's open dialog). */
export interface ValidatedArgs {
  getAppInfo: []
  addLogFile: [path: string]
  importLog: [LogSource, ImportOptionsDto, ImportTracking?]
  getImportReport: [workloadId: string]
  previewSplit: [workloadId: string, SplitSpec]
  estimateCampaign: [CampaignRequest]
  startCampaign: [CampaignRequest]
  startAnalysis: [AnalysisRequest]
  cancel: [campaignId: string]
  exportConfig: [EvaluationResult, ExportTarget, { slurmVersion?: string }]
  saveText: [suggestedName: string, content: string, mime: string]
  generateReport: [EvaluationResult]
  saveProject: [ProjectState, { saveAs?: boolean }]
  openProject: [OpenProjectArg | null]
  autosave: [ProjectState]
  restoreLastProject: []
  getSettings: []
  setSettings: [Partial<Settings>]
}
export type ApiMethod = keyof ValidatedArgs

export const VALIDATORS: { [K in ApiMethod]: (a: unknown[]) => ValidatedArgs[K] } & { [K in keyof EasyTuneApi]?: (a: unknown[]) => unknown } = {
  getAppInfo: (a) => { args(a, 'getAppInfo', 0); return [] },
  addLogFile: (a) => [validatePath(args(a, 'addLogFile', 1)[0], 'the dropped file\'s path')],
  importLog: (a) => {
    const [s, o, t] = args(a, 'importLog', 3, 1)
    const source = validateLogSource(s), options = optional(o) ? {} : validateImportOptions(o)
    // No tracking: two arguments, not a trailing undefined (handlers pass them on as they are).
    return optional(t) ? [source, options] : [source, options, validateImportTracking(t)]
  },
  getImportReport: (a) => [validateId(args(a, 'getImportReport', 1)[0], 'the workload id')],
  previewSplit: (a) => { const [w, s] = args(a, 'previewSplit', 2); return [validateId(w, 'the workload id'), validateSplit(s)] },
  estimateCampaign: (a) => [validateCampaignRequest(args(a, 'estimateCampaign', 1)[0])],
  startCampaign: (a) => [validateCampaignRequest(args(a, 'startCampaign', 1)[0])],
  startAnalysis: (a) => [validateAnalysisRequest(args(a, 'startAnalysis', 1)[0])],
  cancel: (a) => [validateId(args(a, 'cancel', 1)[0], 'the campaign or import id')],
  exportConfig: (a) => {
    const [r, t, o] = args(a, 'exportConfig', 3, 2)
    const opts = optional(o) ? {} : record(o, 'the export options', ['slurmVersion'])
    const out: { slurmVersion?: string } = {}
    if (opts.slurmVersion !== undefined) {
      out.slurmVersion = text(opts.slurmVersion, 'the SLURM version', 16)
      if (!/^\d{1,3}(\.\d{1,3}){0,2}$/.test(out.slurmVersion)) fail(`the SLURM version must look like 23.11 or 24.05.1, got ${describe(out.slurmVersion)}`)
    }
    return [validateResult(r), oneOf(t, 'the export target', ['slurm', 'pbs'] as const), out]
  },
  saveText: (a) => {
    const [n, c, m] = args(a, 'saveText', 3)
    const mime = text(m, 'the content type', 100)
    if (!/^[a-z]+\/[a-z0-9.+-]+(;\s?charset=utf-8)?$/i.test(mime)) fail(`the content type ${describe(mime)} is not a valid MIME type`)
    return [validateFileName(n, 'the suggested file name'), text(c, 'the content', MAX_TEXT_CHARS), mime]
  },
  generateReport: (a) => [validateResult(args(a, 'generateReport', 1)[0])],
  saveProject: (a) => {
    const [s, o] = args(a, 'saveProject', 2, 1)
    const opts: { saveAs?: boolean } = {}
      if (!optional(o)) {
      const saveAs = record(o, 'the save options', ['saveAs']).saveAs
      if (saveAs !== undefined && typeof saveAs !== 'boolean') fail(`saveAs must be true or false, got ${describe(saveAs)}`)
      if (saveAs !== undefined) opts.saveAs = saveAs
    }
    return [validateProjectState(s), opts]
  },
  openProject: (a) => {
    const [f] = args(a, 'openProject', 1, 0)
    if (optional(f)) return [null]
    const r = record(f, 'the project to open', ['path', 'text'])
    if ((r.path === undefined) === (r.text === undefined)) fail('the project to open needs either a path or a text')
    return [r.path !== undefined ? { path: validatePath(r.path, 'the project path') } : { text: text(r.text, 'the project file', MAX_TEXT_CHARS) }]
  },
  autosave: (a) => [validateProjectState(args(a, 'autosave', 1)[0])],
  restoreLastProject: (a) => { args(a, 'restoreLastProject', 0); return [] },
  getSettings: (a) => { args(a, 'getSettings', 0); return [] },
  setSettings: (a) => [validateSettings(args(a, 'setSettings', 1)[0])],
}

/** Looks a method name up safely (own keys only: "__proto__" or "toString" are not methods). */
export function isApiMethod(name: unknown): name is ApiMethod {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(VALIDATORS, name)
}

/** Validates one call: the method must exist and its arguments must be valid. */
export function validateCall<K extends ApiMethod>(method: K, a: unknown): ValidatedArgs[K] {
  if (!isApiMethod(method)) fail(`unknown method ${describe(method)}`)
  if (!Array.isArray(a)) fail(`${method}: the arguments must be a list`)
  return (VALIDATORS[method] as (x: unknown[]) => ValidatedArgs[K])(a)
}
