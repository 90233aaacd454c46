// The API's argument schemas (zod): every rule a call's input must meet, declared once. The
// contract (contract.ts) names them per operation; the transports parse with them, so no handler
// ever sees input that broke one of these rules. Hostile input is expected: wrong types, extra
// keys, NaN/Infinity, huge arrays, over-long strings, prototype-pollution keys, unknown policies.
// Pure: zod and core only (no Node, no DOM).
//
// Three rules hold for every argument before its schema runs (parseArgs): it is inert plain data
// (plain objects and arrays, no class instances or functions), nested at most MAX_DEPTH deep, and
// no object anywhere has a key __proto__, constructor or prototype. Then the schemas add, field by
// field: strict objects (an unknown key is refused), finite numbers within bounds, ids matching
// ID_PATTERN, absolute paths without NUL, plain file names, bounded lists and texts, policies that
// exist (findPolicy), thresholds that pass thresholdProblem (the one threshold rule).
import { z } from 'zod'
import { MAX_CONF_CHARS } from '../core/export/slurm-conf'
import { FN_MAX_LENGTH, FN_PREFIX, fnSpec, isFnSpec } from '../core/sim/fn'
import { findPolicy, unknownPolicyMessage } from '../core/sim/policies'
import { PRESET_IDS } from '../core/tune/campaign'
import { COMPAT_MODES } from '../core/sim/types'
import { RESAMPLE_METHODS } from '../core/tune/resample'
import { upgradeResult, type EvaluationResult } from '../core/tune/result'
import { DEFAULTS } from '../core/defaults'
import { thresholdProblem } from '../core/util/duration'
import { LOG_FORMATS } from '../core/workload/types'
import { ApiInputError } from './errors'
import { MAX_WORKERS, SettingsSchema } from './settings'

/** Handles, workload ids, campaign / analysis / import ids. */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/
export const MAX_WEEKS = 5000
export const MAX_TEXT_CHARS = 64 * 1024 * 1024
export const MAX_PATH_CHARS = 4096
export const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype'])
/** Deepest nesting of any argument (the result document allows RESULT_LIMITS.depth). */
const MAX_DEPTH = 64
/** Bounds of startAnalysis's options: a run the app starts should end within minutes. */
export const ANALYSIS_LIMITS = { onlineWeeks: 260, traces: 20, mixedWeeks: 500, budget: 1000, learnTrials: 1_024_000, learnTuples: 1024 } as const
/** An evaluation result's inertness limits (it came from us, but went through the renderer). */
export const RESULT_LIMITS = { depth: 24, nodes: 2_000_000, chars: 1 << 20 } as const

// ---------------------------------------------------------------- building blocks

const int = (min: number, max: number) => z.number().int().min(min).max(max)
export const IdSchema = z.string().min(1).max(64).regex(ID_PATTERN, 'is not a valid id')
/** An absolute file path (Electron hands these from dialogs and drops; never shown to the page). */
export const PathSchema = z.string().min(1).max(MAX_PATH_CHARS)
  .refine((s) => !s.includes('\0'), 'contains a NUL character')
  .refine((s) => s.startsWith('/') || /^[A-Za-z]:[\\/]/.test(s) || s.startsWith('\\\\'), 'must be an absolute path')
/** A file name to save under: no folders, no control characters. */
export const FileNameSchema = z.string().min(1).max(255)
  .refine((s) => !/[/\\\u0000-\u001f\u007f]/.test(s) && s !== '.' && s !== '..', 'must be a plain file name (no folders or control characters)')
export const MimeSchema = z.string().max(100).regex(/^[a-z]+\/[a-z0-9.+-]+(;\s?charset=utf-8)?$/i, 'is not a valid MIME type')
const seed = int(0, 2 ** 32 - 1)
const objective = z.enum(['avgWait', 'avgBsld'])
/** The compatibility mode (docs/SIMULATOR.md §Shadow-time rules): 'none' = EasyTune's rules, 'ocst' =
 * the seeds' simulator's. Optional: absent means DEFAULTS.compat (src/core/defaults.ts, 'none'), so
 * project files and callers from before it existed stay valid. */
const compat = z.enum(COMPAT_MODES as [string, ...string[]]).optional() as z.ZodOptional<z.ZodType<(typeof COMPAT_MODES)[number]>>

// ---------------------------------------------------------------- import

export const ImportOptionsSchema = z.strictObject({
  format: z.enum(LOG_FORMATS as [string, ...string[]]).optional() as z.ZodOptional<z.ZodType<(typeof LOG_FORMATS)[number]>>,
  /** The machine size (processors). */
  procs: int(1, 1e8).optional(),
  overrun: z.enum(['drop', 'clamp', 'keep']).optional(),
  requestedFallback: z.union([z.literal('drop'), z.literal('runtime'), z.strictObject({ seconds: z.number().min(1).max(1e9) })], {
    error: 'must be drop, runtime or { seconds }',
  }).optional(),
})

/** Where a log comes from. The renderer never sends a filesystem path it invented: files are
 * chosen in a native dialog, dropped, or uploaded, and then referred to by an opaque handle. */
export const LogSourceSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('sample') }),
  /** Electron: main shows an open-file dialog. Browser mode: not available (use upload). */
  z.strictObject({ kind: z.literal('dialog') }),
  /** A handle issued by the back end for a dropped (Electron) or uploaded (browser) file. */
  z.strictObject({ kind: z.literal('handle'), handle: IdSchema }),
  /** Several handed-over files read as one log (daily jobcomp files, monthly sacct dumps: docs/SIMULATOR.md §Several files), in this order. */
  z.strictObject({ kind: z.literal('handles'), handles: z.array(IdSchema).min(1).max(10_000) }),
], { error: 'must be sample, dialog, handle or handles' })

/** Lets the caller follow and cancel one import: the renderer picks the id (e.g.
 * crypto.randomUUID()), listens on the import stream and may pass it to `cancel`. */
export const ImportTrackingSchema = z.strictObject({ importId: IdSchema })

// ---------------------------------------------------------------- campaign

export const SplitSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('midpoint') }),
  z.strictObject({ kind: z.literal('fraction'), fraction: z.number().gt(0, 'must be strictly between 0 and 1').lt(1, 'must be strictly between 0 and 1') }),
  z.strictObject({ kind: z.literal('time'), at: z.number().min(-1e11).max(1e11) }),
], { error: 'must be midpoint, fraction or time' })

/** A policy id as the registry knows it (any case), or a learned function fn:<expression> that
 * parses (docs/LEARN.md §Expressions), made canonical; 'same' where allowed. */
const policyId = (allowSame: boolean) => z.string().min(1).max(FN_PREFIX.length + FN_MAX_LENGTH + 8).transform((s, ctx) => {
  if (allowSame && s === 'same') return s
  const p = findPolicy(s)
  if (p) return p.id
  ctx.addIssue({ code: 'custom', message: isFnSpec(s.trim()) ? unknownPolicyMessage(s) : `"${s.slice(0, 40)}" is not a known policy` })
  return z.NEVER
})

export const CandidateSchema = z.strictObject({ primary: policyId(false), backfill: policyId(true) })

/** One threshold: null = none, else it must pass thresholdProblem (0 is refused). */
export const ThresholdSchema = z.number().nullable().superRefine((t, ctx) => {
  const problem = thresholdProblem(t)
  if (problem) ctx.addIssue({ code: 'custom', message: problem })
})

/** Most QOS priorities the Cluster panel takes (far above any site's QOS list). */
export const MAX_QOS_PRIORITIES = 1000
/** QOS priorities by name (`--qos-priority name=value,…`: Slurm keeps them in its database):
 * the names and whole numbers the CLI's qosPriorities accepts (src/cli/machine-args.ts). */
export const QosPrioritySchema = z.record(z.string(), int(0, 4294967295)).superRefine((r, ctx) => {
  const names = Object.keys(r)
  if (names.length > MAX_QOS_PRIORITIES) { ctx.addIssue({ code: 'custom', message: `must list at most ${MAX_QOS_PRIORITIES} QOS`, abort: true }); return }
  for (const k of names) if (!/^[A-Za-z0-9_.-]{1,64}$/.test(k)) ctx.addIssue({ code: 'custom', message: `has "${k.slice(0, 40)}", which is not a QOS name (letters, digits, "_", "." or "-", at most 64)` })
})
/** A configuration file the Cluster panel took (picked, uploaded or pasted): its name, which the
 * machine's description and the result's `machine.conf` record, and its text. */
export const ConfTextSchema = z.strictObject({
  name: FileNameSchema,
  text: z.string().min(1, 'is empty').max(MAX_CONF_CHARS, `must be a file of at most ${MAX_CONF_CHARS} characters`),
})
const machineTuning = {
  /** Which scheduling runs on the machine: the research's EASY, or Slurm's own; absent = the
   * default (Slurm's own with the current slurm.conf, EASY otherwise). */
  scheduler: z.enum(['easy', 'slurm']).optional(),
  qosPriority: QosPrioritySchema.optional(),
}
/** The machine a campaign runs on (the Inspect step's Cluster panel; docs/CLUSTER.md §Inputs):
 * inferred from the log (the CLI without a machine flag), a machine file (a slurm.conf with an
 * optional gres.conf, or scontrol output: --cluster), or the site's slurm.conf as it runs today
 * (the machine and Slurm's scheduling, the baseline being that configuration: --current-conf).
 * Absent (older project files and requests) = inferred. */
export const MachineChoiceSchema = z.discriminatedUnion('source', [
  z.strictObject({ source: z.literal('inferred'), ...machineTuning }),
  z.strictObject({ source: z.literal('file'), file: ConfTextSchema, gres: ConfTextSchema.optional(), ...machineTuning }),
  z.strictObject({ source: z.literal('conf'), file: ConfTextSchema, gres: ConfTextSchema.optional(), ...machineTuning }),
  z.strictObject({ source: z.literal('current'), file: ConfTextSchema, gres: ConfTextSchema.optional(), ...machineTuning }),
], { error: 'must be inferred, file, conf or current' })

/** The campaign's settings (what a project file keeps besides the workload and the split). */
export const CampaignSettingsShape = {
  resample: z.strictObject({ method: z.enum(RESAMPLE_METHODS as [string, ...string[]]) as z.ZodType<(typeof RESAMPLE_METHODS)[number]>, weeks: int(1, MAX_WEEKS), seed }),
  /** A preset, or an explicit list. */
  candidates: z.union([z.strictObject({ preset: z.enum(PRESET_IDS) }), z.strictObject({ list: z.array(CandidateSchema).min(1).max(500) })], { error: `must be { preset: ${PRESET_IDS.join(' | ')} } or { list: [...] }` }),
  /** Seconds; null = no threshold. */
  thresholds: z.array(ThresholdSchema).min(1).max(64),
  objective,
  /** The bounded-slowdown bound, seconds. */
  tau: z.number().min(1e-9).max(1e6),
  /** Longest wait on train at most this many times EASY-FCFS's; null = no limit. Absent (older
   * project files) = the default, 1.5. */
  maxWaitRatio: z.number().min(0).max(1e6).nullable().default(DEFAULTS.maxWaitRatio.value),
  /** The verdict (docs/STATISTICS.md); absent (older project files) = the defaults of core/defaults.ts. */
  /** Smallest train gain that justifies a switch, a fraction (0.05 = 5 %). */
  minGain: z.number().min(0).max(1).default(DEFAULTS.minGain.value),
  /** Two-sided confidence of the intervals, a fraction. */
  confidence: z.number().min(0.5).max(0.999).default(DEFAULTS.confidence.value),
  /** Fewest real weeks in each part for a verdict. */
  minWeeks: int(1, MAX_WEEKS).default(DEFAULTS.minWeeks.value),
  criterion: z.enum(['ratio-of-means', 'mean-ratio']).default(DEFAULTS.criterion.value),
  /** Engine workers; null = default (cores − 1). */
  workers: int(1, MAX_WORKERS).nullable(),
  compat,
  /** The machine (the Inspect step's Cluster panel); absent = inferred from the log. */
  machine: MachineChoiceSchema.optional(),
}
export const CampaignSettingsSchema = z.strictObject(CampaignSettingsShape)
export const CampaignRequestSchema = z.strictObject({ workloadId: IdSchema, split: SplitSchema, ...CampaignSettingsShape })

/** A campaign written as a Slurm job array (docs/CLI.md §Running on a Slurm cluster): how many array
 * tasks share the cells, and the CPUs (engine workers) of each. */
export const SlurmArrayOptionsSchema = z.strictObject({
  shards: z.number().int().min(1).max(10_000),
  cpusPerTask: z.number().int().min(1).max(1024),
})

// ---------------------------------------------------------------- analyses

const STRATEGY_IDS = ['full', 'noisy', 'egreedy', 'random'] as const
/** What the Results step can run beside the evaluation: the work of `easytune online` and
 * `easytune mixed` (a small subset of their options; the rest are the CLI's defaults). */
export const OnlineAnalysisOptionsSchema = z.strictObject({
  strategies: z.array(z.enum(STRATEGY_IDS)).min(1).max(STRATEGY_IDS.length)
    .refine((s) => new Set(s).size === s.length, 'lists a strategy twice'),
  period: z.enum(['day', 'week']),
  /** Length of each resampled trace, weeks. */
  weeks: int(1, ANALYSIS_LIMITS.onlineWeeks),
  /** Independent traces. */
  traces: int(1, ANALYSIS_LIMITS.traces),
  seed,
  compat,
})
export const MixedAnalysisOptionsSchema = z.strictObject({
  features: z.union([z.literal(3), z.literal(6)], { error: 'must be 3 or 6' }),
  method: z.enum(['xnes', 'grid']),
  /** Weight vectors to try. */
  budget: int(1, ANALYSIS_LIMITS.budget),
  /** Resampled weeks per part. */
  weeks: int(1, ANALYSIS_LIMITS.mixedWeeks),
  objective,
  seed,
  compat,
})
/** The Time limits step's what-if (docs/PREDICTIONS.md §Time limits): EASY-FCFS on the whole log
 * with today's limits, exact limits, learned predictions and EASY++ (WHATIF_SCENARIOS). Nothing to
 * choose yet (the CLI's defaults); the object is there so that choices can come. */
export const WalltimesAnalysisOptionsSchema = z.strictObject({})
/** Longest accounting history the predicted-order script may read, days (ten years). */
export const MAX_HISTORY_DAYS = 3650
/** The predicted-order export's fidelity (docs/PREDICTIONS.md §Deployment): Θ of the two deployable
 * orders (seconds, null = none) and the days of accounting history the exported script reads. */
export const PredictedOrderOptionsSchema = z.strictObject({
  threshold: ThresholdSchema,
  historyDays: int(1, MAX_HISTORY_DAYS),
})
/** The Candidates step's "Learn a policy for this site" (docs/LEARN.md §The app): the budget of
 * `easytune learn` (the rest is DEFAULTS.learnTrials: |S|, |Q|, the early stop, τ). Bounded so that
 * a run the app starts ends within minutes to an hour on a small machine (tuples stop early). */
export const LearnAnalysisOptionsSchema = z.strictObject({
  /** Ceiling of trials per (S, Q) tuple. */
  trials: int(1, ANALYSIS_LIMITS.learnTrials),
  /** Number of (S, Q) tuples. */
  tuples: int(1, ANALYSIS_LIMITS.learnTuples),
  seed,
})
export const AnalysisRequestSchema = z.discriminatedUnion('kind', [
  z.strictObject({ workloadId: IdSchema, kind: z.literal('online'), options: OnlineAnalysisOptionsSchema }),
  /** `split`: the wizard's train/test split (the search is on train, judged on test). */
  z.strictObject({ workloadId: IdSchema, kind: z.literal('mixed'), options: MixedAnalysisOptionsSchema, split: SplitSchema }),
  z.strictObject({ workloadId: IdSchema, kind: z.literal('walltimes'), options: WalltimesAnalysisOptionsSchema }),
  z.strictObject({ workloadId: IdSchema, kind: z.literal('predicted-order'), options: PredictedOrderOptionsSchema }),
  /** `split`: the wizard's train/test split (the tuples are drawn from its training part). */
  z.strictObject({ workloadId: IdSchema, kind: z.literal('learn'), options: LearnAnalysisOptionsSchema, split: SplitSchema }),
  /** The Cluster panel's machine: its summary and the baseline's fidelity against the recorded history. */
  z.strictObject({ workloadId: IdSchema, kind: z.literal('machine'), options: MachineChoiceSchema }),
], { error: 'must be online, mixed, walltimes, predicted-order, learn or machine' })

// ---------------------------------------------------------------- result and project documents

/** Checks a value is inert plain data (JSON-like) within `limits`; the problem in words, or null. */
export function plainDataProblem(v: unknown, limits: { depth: number; nodes: number; chars: number }): string | null {
  let nodes = 0
  const walk = (x: unknown, depth: number): string | null => {
    if (++nodes > limits.nodes) return 'is too large'
    if (x === null || x === undefined || typeof x === 'boolean') return null
    if (typeof x === 'number') return null // the schemas say where a number must be finite
    if (typeof x === 'string') return x.length > limits.chars ? `contains a text that is too long (${x.length} characters, at most ${limits.chars})` : null
    if (typeof x !== 'object') return `contains ${typeof x}, which is not plain data`
    if (depth >= limits.depth) return 'is nested too deeply'
    if (Array.isArray(x)) {
      for (const e of x) { const p = walk(e, depth + 1); if (p) return p }
      return null
    }
    const proto = Object.getPrototypeOf(x)
    if (proto !== Object.prototype && proto !== null) return 'contains an object that is not a plain object'
    for (const k of Object.keys(x)) {
      if (FORBIDDEN_KEYS.has(k)) return `contains the forbidden key "${k}"`
      const v = (x as Record<string, unknown>)[k]
      if (v === undefined) continue
      const p = walk(v, depth + 1)
      if (p) return p
    }
    return null
  }
  return walk(v, 0)
}

const loose = z.looseObject({})
/** An evaluation result document (it came from us, but went through the renderer). Fields may
 * be added within a schema version (docs/RESULT-SCHEMA.md), so unknown keys are allowed here;
 * the data must still be inert and small (RESULT_LIMITS) and the fields everything reads must
 * hold up. The report and export check the rest (core/export/report-model.ts). */
export const EvaluationResultSchema = z.unknown().superRefine((v, ctx) => {
  const problem = plainDataProblem(v, RESULT_LIMITS)
  if (problem) ctx.addIssue({ code: 'custom', message: problem, abort: true })
}).pipe(z.looseObject({
  kind: z.literal('easytune-evaluation', 'is not an EasyTune evaluation result'),
  schemaVersion: z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'must be 1, 2 or 3 (no other schema version is supported)' }),
  log: z.looseObject({ name: z.string().max(1024), machineProcs: int(1, 1e8) }),
  protocol: loose,
  candidates: z.array(z.looseObject({ label: z.string().max(1000), train: loose, test: loose })).min(1).max(100_000),
  /** Absent for an insufficient-data verdict (version 2). */
  recommended: int(0, 100_000).optional(),
  bestOnTest: int(0, 100_000),
  bestOnTrain: int(0, 100_000),
  ranking: z.array(int(0, 100_000)).max(100_000),
  recommendation: z.looseObject({
    sentence: z.string().max(10_000),
    verdict: z.enum(['switch', 'keep', 'insufficient-data']).optional(),
    reason: z.string().max(10_000).optional(),
    equivalent: z.array(int(0, 100_000)).max(100_000).optional(),
  }),
  weekly: z.array(z.unknown()).max(100),
}).superRefine((r, ctx) => {
  const n = r.candidates.length
  if (r.schemaVersion >= 2 && r.recommendation.verdict === undefined) ctx.addIssue({ code: 'custom', path: ['recommendation', 'verdict'], message: `is required in version ${r.schemaVersion}` })
  if (r.recommended === undefined && !(r.schemaVersion >= 2 && r.recommendation.verdict === 'insufficient-data')) {
    ctx.addIssue({ code: 'custom', path: ['recommended'], message: 'is required unless the verdict is insufficient-data' })
  }
  for (const k of ['recommended', 'bestOnTest', 'bestOnTrain'] as const) {
    const v = r[k]
    if (v !== undefined && v >= n) ctx.addIssue({ code: 'custom', path: [k], message: `must be a candidate's index, between 0 and ${n - 1}, got ${v}` })
  }
  for (const [at, i] of (r.recommendation.equivalent ?? []).entries()) if (i >= n) ctx.addIssue({ code: 'custom', path: ['recommendation', 'equivalent', at], message: `must be a candidate's index, between 0 and ${n - 1}, got ${i}` })
  if (r.ranking.length > n) ctx.addIssue({ code: 'custom', path: ['ranking'], message: `has more entries (${r.ranking.length}) than there are candidates (${n})` })
  r.ranking.forEach((i, at) => { if (i >= n) ctx.addIssue({ code: 'custom', path: ['ranking', at], message: `must be a candidate's index, between 0 and ${n - 1}, got ${i}` }) })
})).transform((r) => upgradeResult(r as unknown as EvaluationResult))

/** An fn: expression (after the prefix) that parses, kept in its canonical writing. */
const FnExpressionSchema = z.string().min(1).max(FN_MAX_LENGTH).transform((s, ctx) => {
  try {
    return fnSpec(s).slice(FN_PREFIX.length)
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: (e as Error).message })
    return z.NEVER
  }
})
/** An fn: order (`fn:<expression>`) that parses, kept as its canonical spec. */
const FnOrderSchema = z.string().max(FN_PREFIX.length + FN_MAX_LENGTH).transform((s, ctx) => {
  if (!isFnSpec(s)) {
    ctx.addIssue({ code: 'custom', message: 'must be an fn: order (fn:<expression>)' })
    return z.NEVER
  }
  try {
    return fnSpec(s.slice(FN_PREFIX.length))
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: (e as Error).message })
    return z.NEVER
  }
})
const finiteNumber = z.number().min(-1e300).max(1e300)
/** One learned function as the 'learn' analysis ranks it (the `functions[]` of `easytune learn --json`). */
export const LearnedFunctionSchema = z.strictObject({
  position: int(1, 10_000),
  id: z.string().max(64).regex(/^learned:[a-z0-9*+/]+$/, 'must be a learned id such as learned:log10*id+log10'),
  kind: z.literal('learned'),
  expression: FnExpressionSchema,
  /** eq. 5 error (score units). */
  rank: z.number().min(0).max(1e300),
  /** eq. 4 weighted error. */
  weightedError: z.number().min(0).max(1e300),
  form: z.string().max(200),
  coefficients: z.strictObject({ c1: finiteNumber, c2: finiteNumber, c3: finiteNumber }),
  simplified: z.strictObject({ expression: FnExpressionSchema, coefficient: finiteNumber.nullable() }).nullable(),
  sameFormAs: z.enum(['F1', 'F2', 'F3', 'F4']).nullable(),
  iterations: int(0, 1_000_000),
})
/** What the Candidates step learned (docs/LEARN.md §The app): the run's budget and split, what the
 * trials gave (their count and the score-convergence series), the ranked functions, and the fn:
 * orders added to the candidates from it. Kept in the project file. */
export const LearnedStateSchema = z.strictObject({
  /** The log it was learned on. */
  log: z.strictObject({ name: z.string().max(1024), sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hexadecimal digits') }),
  options: LearnAnalysisOptionsSchema,
  split: SplitSchema,
  machineProcs: int(1, 1e8),
  trainingJobs: int(0, 1e9),
  /** Trials simulated in all. */
  trials: int(0, 1e15),
  /** Pooled normalised standard deviation of the scores against the trials per tuple (null: not yet defined). */
  convergence: z.array(z.strictObject({ trials: int(0, 1e9), normStd: z.number().min(0).max(1e300).nullable() })).max(100_000),
  functions: z.array(LearnedFunctionSchema).max(1000),
  /** fn: orders (canonical specs) added to the candidates from this list. */
  added: z.array(FnOrderSchema).max(500),
})

export const ProjectStateSchema = z.strictObject({
  version: z.literal(1, 'must be 1 (no other project file version is supported)'),
  log: z.strictObject({ name: z.string().max(1024), sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hexadecimal digits') }).nullable(),
  importOptions: ImportOptionsSchema,
  split: SplitSchema,
  campaign: CampaignSettingsSchema,
  result: EvaluationResultSchema.nullable(),
  /** Wizard step the user was on (0-based). */
  step: int(0, 100),
  /** The same step by its id (the renderer's STEPS); absent in files written before the Time
   * limits step, whose `step` counts the steps without it. */
  stepId: z.string().max(32).regex(/^[a-z]+$/, 'must be a step id such as "inspect"').optional(),
  /** What "Learn a policy for this site" learned; absent in files from before it (or null: nothing learned). */
  learned: LearnedStateSchema.nullable().optional(),
})

export const ExportOptionsSchema = z.strictObject({
  slurmVersion: z.string().max(16).regex(/^\d{1,3}(\.\d{1,3}){0,2}$/, 'must look like 23.11 or 24.05.1').optional(),
  /** The site's current slurm.conf, as text: the Slurm export then writes the whole merged file. */
  currentConf: z.string().max(MAX_CONF_CHARS, `must be a slurm.conf of at most ${MAX_CONF_CHARS} characters`).optional(),
})
const figures = z.strictObject({ avgWait: z.number().min(0).max(1e12), avgBsld: z.number().min(0).max(1e12), maxWait: z.number().min(0).max(1e12) })
const share = z.number().min(0).max(1)
/** A predicted-order fidelity as the 'predicted-order' analysis answered it (PredictedOrderFidelity),
 * back from the renderer: finite numbers within bounds, nothing else. Its keys in the order
 * fidelityFrom writes them: the parsed object keeps this order, and the exported JSON file lists
 * them so (the files must be the CLI's byte for byte). */
export const PredictedOrderFidelitySchema = z.strictObject({
  jobs: int(0, 1e9), machineProcs: int(1, 1e9), tau: z.number().min(1e-9).max(1e6), threshold: ThresholdSchema, withUser: share,
  today: figures, byLimit: figures, deployable: figures, planned: figures, easyPlusPlus: figures,
  historyDays: int(1, MAX_HISTORY_DAYS), outsideWindow: share,
})
/** exportPredictedOrder's options: the fidelity's own Θ and history (they must match it), and the
 * Slurm version and current slurm.conf as the Export step takes them. */
export const PredictedExportOptionsSchema = z.strictObject({
  ...PredictedOrderOptionsSchema.shape,
  fidelity: PredictedOrderFidelitySchema,
  slurmVersion: ExportOptionsSchema.shape.slurmVersion,
  currentConf: ExportOptionsSchema.shape.currentConf,
})
export const SaveProjectOptionsSchema = z.strictObject({ saveAs: z.boolean().optional() })
/** setSettings takes any part of the settings (src/shared/settings.ts has the one schema). */
export const SettingsPatchSchema = SettingsSchema.partial()

// ---------------------------------------------------------------- parsing and messages

/** `what` in words: "a text of 12 characters", "NaN", "a list"… (never the whole value). */
export function describeValue(v: unknown): string {
  if (v === null) return 'null'
  if (v === undefined) return 'nothing'
  if (Array.isArray(v)) return 'a list'
  if (typeof v === 'number') return String(v)
  if (typeof v === 'string') return v.length > 40 ? `a text of ${v.length} characters` : JSON.stringify(v)
  return typeof v === 'object' ? 'an object' : typeof v
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a text', number: 'a finite number', int: 'a whole number', boolean: 'true or false', object: 'an object', array: 'a list',
  tuple: 'a list', null: 'null', literal: 'a fixed value',
}

/** One zod issue in plain words, without the field (issueMessage adds it). */
function issueText(issue: z.core.$ZodIssue & { input?: unknown }): string {
  const got = 'input' in issue ? `, got ${describeValue(issue.input)}` : ''
  // A message the schema gave (not one of zod's defaults) says it best.
  if (!/^(Invalid|Too (big|small)|Unrecognized)/.test(issue.message) && issue.code !== 'unrecognized_keys') return issue.message
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.expected === 'int') return `must be a whole number${got}`
      if (issue.expected === 'number' && typeof issue.input === 'number') return `must be a finite number${got}`
      return `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}${issue.input === undefined ? ' (it is missing)' : got}`
    }
    case 'too_big': case 'too_small': {
      const big = issue.code === 'too_big'
      const bound = Number(big ? (issue as { maximum: number | bigint }).maximum : (issue as { minimum: number | bigint }).minimum)
      const exclusive = (issue as { inclusive?: boolean }).inclusive === false
      if (issue.origin === 'array' || issue.origin === 'set') {
        const n = Array.isArray(issue.input) ? issue.input.length : null
        return big ? `has too many entries (${n ?? 'more than ' + bound}, at most ${bound})` : `needs at least ${bound} entr${bound === 1 ? 'y' : 'ies'}`
      }
      if (issue.origin === 'string') {
        const n = typeof issue.input === 'string' ? issue.input.length : null
        return big ? `is too long (${n ?? 'more than ' + bound} characters, at most ${bound})` : bound === 1 ? 'must not be empty' : `is too short (at least ${bound} characters)`
      }
      return `must be ${big ? (exclusive ? 'below' : 'at most') : (exclusive ? 'above' : 'at least')} ${bound}${got}`
    }
    case 'unrecognized_keys': {
      const k = issue.keys.find((x) => FORBIDDEN_KEYS.has(x))
      return k ? `contains the forbidden key "${k}"` : `has an unknown field "${issue.keys[0]!.slice(0, 40)}"`
    }
    case 'invalid_value': return `must be one of ${issue.values.map(String).join(', ')}${got}`
    case 'invalid_union': {
      const options = (issue as { options?: unknown[] }).options
      return issue.message.startsWith('Invalid') && options ? `must be one of ${options.map(String).join(', ')}${got}` : issue.message
    }
    case 'invalid_format': return `${issue.message.startsWith('Invalid') ? 'has the wrong format' : issue.message}`
    default: return issue.message
  }
}

/** Where an issue is, in words: "options.weeks", "candidates.list[3].primary". */
function fieldPath(path: readonly PropertyKey[]): string {
  let s = ''
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : `${s ? '.' : ''}${String(p)}`
  return s
}

/** The first issue of a failed parse as one message naming the field, e.g. "startAnalysis:
 * request's options.weeks must be at most 260, got 261". `what` names the whole value; `names`
 * name a tuple's items (an operation's arguments), so the path starts with the argument's name. */
export function issueMessage(error: z.ZodError, what: string, names?: readonly string[]): string {
  let issue = error.issues[0]! as z.core.$ZodIssue & { input?: unknown }
  // A union none of whose options fit: the option the input went furthest into says what is
  // wrong ({ list: [...] } with a bad policy: that policy), unless none got past the first step.
  while (issue.code === 'invalid_union' && issue.errors.length > 0) {
    // Furthest = longest path; on a tie, a field that is there beats one that is missing.
    const depth = (e: z.core.$ZodIssue & { input?: unknown }) => e.path.length + (e.input === undefined ? 0 : 0.5)
    const best = issue.errors.map((e) => e[0]).filter((e) => e !== undefined).reduce((a, b) => (depth(b) > depth(a) ? b : a))
    if (!best || best.path.length === 0) break
    issue = { ...best, path: [...issue.path, ...best.path] } as typeof issue
  }
  let path: readonly PropertyKey[] = issue.path
  let head = what
  if (names && typeof path[0] === 'number') {
    head = `${what}: ${names[path[0]] ?? `argument ${path[0] + 1}`}`
    path = path.slice(1)
  }
  const field = fieldPath(path)
  return `${head}${field ? `${head.endsWith('s') ? "'" : "'s"} ${field}` : ''} ${issueText(issue)}`
}

/** Parses `v` with `schema` or throws ApiInputError in plain words (see issueMessage). Plain data
 * only: a class instance, a function or a forbidden key anywhere is refused before the schema. */
export function parseOrThrow<S extends z.ZodType>(schema: S, v: unknown, what: string, names?: readonly string[]): z.output<S> {
  const problem = plainDataProblem(v, { depth: MAX_DEPTH, nodes: 10_000_000, chars: MAX_TEXT_CHARS })
  if (problem) throw new ApiInputError(`${what} ${problem}`)
  const r = schema.safeParse(v, { reportInput: true })
  if (!r.success) throw new ApiInputError(issueMessage(r.error, what, names))
  return r.data
}

/** A project file's text (JSON) → the validated state. */
export function parseProjectText(s: string): z.output<typeof ProjectStateSchema> {
  if (typeof s !== 'string' || s.length > MAX_TEXT_CHARS) throw new ApiInputError('the project file is too large')
  let v: unknown
  try {
    v = JSON.parse(s.charCodeAt(0) === 0xfeff ? s.slice(1) : s) // a byte-order mark (editors on Windows add one)
  } catch {
    throw new ApiInputError('this is not an EasyTune project file (it is not JSON)')
  }
  return parseOrThrow(ProjectStateSchema, v, 'the project')
}
