// The evaluation result: one JSON document (versioned) that export and the report read. Built
// from plain data only; see docs/RESULT-SCHEMA.md.
import type { ImportReport } from '../workload/import'
import { formatThreshold } from '../util/duration'
import { formatPercent, objectiveName } from '../util/format'
import { mentionsFn, policyLabel } from '../sim/policies'
import type { Calibration } from './calibrate'
import { candidateLabel, candidateSetNote, type CampaignSpec, type CellResult, type Candidate, type PresetId } from './campaign'
import type { Selection, CandidateSummary, PartSummary, SelectionStatistics } from './select'
import { slurmDeployment } from '../export/deploy'
import { slurmChangeLabel } from '../cluster/slurm-family'
import type { PartStats } from './split'
import type { Fidelity } from '../export/types'
import type { Impact } from './impact'
import type { SlurmSearchRecord } from '../cluster/slurm-search'
import type { Compat, PolicySpec } from '../sim/types'
import { DEFAULTS } from '../defaults'

/** What an evaluation waits for once its cells are back, when it has to wait (whole-log runs on a
 * side worker): the baseline against the recorded history, then who gains and who loses. Long on a
 * big log under Slurm's scheduling: the CLI's and the app's progress say so instead of standing at
 * 100 % (src/engine/evaluate.ts). */
export type WaitStage = 'fidelity' | 'impact'
/** What each stage is doing, in words (the CLI's progress line, the app's Run step). */
export const WAIT_STAGE_TEXT: Readonly<Record<WaitStage, string>> = {
  fidelity: 'every cell is done; replaying the whole log under the baseline to compare it with the recorded starts',
  impact: 'simulating the whole log under the recommendation to see who gains and who loses',
}

export const RESULT_SCHEMA_VERSION = 3

export interface EvaluationResult {
  schemaVersion: number
  kind: 'easytune-evaluation'
  generator: string
  log: {
    name: string
    sha256: string
    format: string
    machineProcs: number
    machineSource: string
    jobsRead: number
    jobsKept: number
    unixStartTime: number | null
    importReport: ImportReport
    /** The longest requested time (time limit) of a kept job, seconds; null when no job has one.
     * Export sizes Slurm's bf_window from it (absent in documents written before issue #19). */
    maxRequestedSeconds?: number | null
  }
  protocol: {
    split: { spec: CampaignSpec['split']; at: number; atIso: string | null; train: PartStats; test: PartStats }
    resample: CampaignSpec['resample'] & { trainOriginalWeeks: number; testOriginalWeeks: number; trainSamples: number; testSamples: number }
    objective: CampaignSpec['objective']
    tau: number
    thresholds: (number | null)[]
    /** `slurm`: a change of the site's own Slurm settings (docs/CLUSTER.md §Site settings as candidates). */
    candidates: { primary: string; backfill: string; slurm?: string }[]
    /** The preset the candidates came from (null: an explicit list); absent before issue #19. */
    preset?: PresetId | null
    /** RESEARCH_GRID_NOTE when some candidate has a backfill order of its own, else null. */
    candidateNote?: string | null
    risk: Selection['risk']
    cells: number
    /** The compatibility mode: 'none' (EasyTune's rules) or 'ocst' (the seeds' simulator's shadow-time
     * rule and rule C13 on the weeks). Always written; absent in documents written before it
     * existed, which read as 'none'. */
    compat?: Compat
    /** Smallest train gain that justifies a switch (fraction). */
    minGain: number
    /** Two-sided confidence of every interval (fraction). */
    confidence: number
    /** Fewest real weeks (and minJobs jobs) in each part for a verdict. */
    minWeeks: number
    minJobs: number
    criterion: Criterion
    /** The real-week statistics (docs/STATISTICS.md); null in documents upgraded from version 1. */
    statistics: SelectionStatistics | null
    /** The search of the site's own Slurm settings (evaluate --current-conf; docs/CLUSTER.md
     * §Site settings as candidates); absent when it did not run. */
    slurmSearch?: SlurmSearchRecord | null
  }
  calibration: Calibration | null
  /** The machine and scheduling simulated (schema v3; docs/CLUSTER.md). Documents of versions 1
   * and 2 read as the single pool under the research's EASY. */
  machine: MachineSummary
  candidates: (CandidateSummary & { primary: string; backfill: string })[]
  /** The recommendation's index: the switch target, the baseline's (0) for `keep`, absent for
   * `insufficient-data`. */
  recommended?: number
  bestOnTest: number
  bestOnTrain: number
  ranking: number[]
  recommendation: Recommendation
  /** Weekly objective values (index = sample) for the baseline, the recommendation and the best on test. */
  weekly: { label: string; train: number[]; test: number[] }[]
}

/** What the evaluation concludes (docs/PROTOCOL.md §Statistics): switch to the recommended order, keep the
 * baseline, or not enough data to say. */
export type Verdict = 'switch' | 'keep' | 'insufficient-data'

/** How the queue is compared, week by week: the ratio of the part's mean objectives (default), or
 * the mean of the weekly ratios (as the thesis draws its weekly figures). */
export type Criterion = 'ratio-of-means' | 'mean-ratio'

export interface Recommendation {
  label: string
  /** The verdict in one sentence: verdict, train and test gain with intervals, the longest-wait
   * ratio, export fidelity and how well the simulator matches this log's history. */
  sentence: string
  testDisagrees: boolean
  /** Schema v2 (v1 documents are upgraded by upgradeResult when read). */
  verdict: Verdict
  /** Why, in plain words (what passed or failed: gain, interval, risk, data). */
  reason: string
  /** How the recommended candidate deploys on Slurm: the weakest fidelity among its parts, and
   * what is lost (empty when everything is exported as evaluated); null for insufficient-data. */
  export: { target: 'slurm'; fidelity: Fidelity; lost: string[] } | null
  /** Candidates as good as the recommended one (every switch condition passed, paired difference
   * not significant): indices into `candidates`. */
  equivalent: number[]
  /** Who gains and who loses; null for `insufficient-data` (and until computed). */
  impact: Impact | null
  /** The recommendation (the baseline for `keep`) as Slurm would run it once exported, simulated
   * under Slurm's scheduling (schema v3): null for `insufficient-data` and in upgraded documents. */
  asDeployed: AsDeployed | null
  /** Why `asDeployed` is null although there is a recommendation (e.g. a pool too large to run as
   * one-CPU nodes); absent otherwise. */
  asDeployedNote?: string
}

/** The machine of a result (schema v3). */
export interface MachineSummary {
  /** 'pool': the research's single pool of processors; 'cluster': nodes and partitions. */
  kind: 'pool' | 'cluster'
  scheduler: 'easy' | 'slurm'
  /** In words: nodes, CPUs, GPUs, partitions and where they came from. */
  description: string
  /** 'slurm.conf' | 'scontrol' | 'inferred' for a cluster; the pool's machineSource otherwise. */
  source: string
  nodes: number
  cpus: number
  gpus: number
  partitions: { name: string; nodes: number; cpus: number; gpus: number }[]
  notes: string[]
  /** The slurm.conf given (--slurm-conf, or --current-conf with current true): every candidate
   * was simulated exported onto it, and `easytune export` merges into it without being given it again. */
  conf: { file: string; text: string; current: boolean } | null
}

/** The exported configuration itself, simulated (docs/CLUSTER.md §As deployed). */
export interface AsDeployed {
  /** The order as exported ('EASY-FCFS' = nothing exported). */
  label: string
  /** Gains are against the baseline as Slurm runs it on the same machine. */
  train: PartSummary
  test: PartSummary
  /** True when the candidates were already simulated as deployed (--scheduler slurm): these are
   * the recommendation's own figures. */
  same: boolean
  /** The deployable train gain lies outside the idealised order's interval: the verdict says so
   * and uses the deployable figure. */
  differs: boolean
}

export function specLabel(p: Candidate['primary'] | Candidate['backfill']): string {
  return p === 'same' ? 'same' : policyLabel(p)
}

export function buildResult(args: {
  generator: string; sha256: string; report: ImportReport; machineProcs: number; unixStartTime: number | null
  spec: CampaignSpec; selection: Selection; results: Map<string, CellResult>; cellKeyOf: (c: CandidateSummary, part: 'train' | 'test') => string
  split: { at: number; train: PartStats; test: PartStats }; weeks: { trainOriginal: number; testOriginal: number; train: number; test: number }
  calibration: Calibration | null; cells: number; maxRequestedSeconds?: number | null; impact?: Impact | null
  machine?: MachineSummary; slurmSearch?: SlurmSearchRecord | null
}): EvaluationResult {
  const { spec, selection: s, report } = args
  const iso = (t: number) => (args.unixStartTime === null ? null : new Date((args.unixStartTime + t) * 1000).toISOString())
  const objectiveOf = (r: CellResult) => Array.from(spec.objective === 'avgWait' ? r.avgWait : r.avgBsld)
  const weeklyFor = (i: number) => {
    const c = s.candidates[i]
    return { label: c.label, train: objectiveOf(args.results.get(args.cellKeyOf(c, 'train'))!), test: objectiveOf(args.results.get(args.cellKeyOf(c, 'test'))!) }
  }
  const chosen = [...new Set([0, s.recommended ?? s.bestAdmissible, s.bestOnTest])]
  const o = s.options
  const result: EvaluationResult = {
    schemaVersion: RESULT_SCHEMA_VERSION, kind: 'easytune-evaluation', generator: args.generator,
    log: {
      name: report.name, sha256: args.sha256, format: report.format, machineProcs: args.machineProcs, machineSource: report.machine.source,
      jobsRead: report.jobsRead, jobsKept: report.jobsKept, unixStartTime: args.unixStartTime, importReport: report,
      maxRequestedSeconds: args.maxRequestedSeconds ?? null,
    },
    protocol: {
      split: { spec: spec.split, at: args.split.at, atIso: iso(args.split.at), train: args.split.train, test: args.split.test },
      resample: { ...spec.resample, trainOriginalWeeks: args.weeks.trainOriginal, testOriginalWeeks: args.weeks.testOriginal, trainSamples: args.weeks.train, testSamples: args.weeks.test },
      objective: spec.objective, tau: spec.tau, thresholds: spec.thresholds,
      candidates: spec.candidates.map((c) => ({ primary: specLabel(c.primary), backfill: specLabel(c.backfill), ...(c.slurm ? { slurm: slurmChangeLabel(c.slurm) } : {}) })),
      preset: spec.preset ?? null, candidateNote: candidateSetNote(spec.candidates),
      risk: s.risk, cells: args.cells, compat: spec.compat ?? DEFAULTS.compat.value,
      minGain: o.minGain, confidence: o.confidence, minWeeks: o.minWeeks, minJobs: o.minJobs, criterion: o.criterion, statistics: s.statistics,
      ...(args.slurmSearch ? { slurmSearch: args.slurmSearch } : {}),
    },
    calibration: args.calibration,
    machine: args.machine ?? poolMachine(args.machineProcs, report.machine.source),
    candidates: s.candidates.map((c) => ({ ...c, ...(c.baseline && args.machine?.conf ? { label: baselineName(args.machine) } : {}), primary: specLabel(c.candidate.primary), backfill: specLabel(c.candidate.backfill) })),
    ...(s.recommended === null ? {} : { recommended: s.recommended }),
    bestOnTest: s.bestOnTest, bestOnTrain: s.bestOnTrain, ranking: s.ranking,
    recommendation: {
      label: '', sentence: '', testDisagrees: false, verdict: s.verdict, reason: s.reason, equivalent: s.equivalent,
      export: s.recommended === null ? null : exportOf(s.candidates[s.recommended]), impact: args.impact ?? null, asDeployed: null,
    },
    weekly: chosen.map(weeklyFor),
  }
  Object.assign(result.recommendation, recommendationSentence(result))
  return result
}

/** The result with its `recommendation.impact` set, and the sentence redone so that it names the
 * groups whose mean wait rises beyond the risk ratio (the engine's impact step calls this). */
export function withImpact(r: EvaluationResult, impact: Impact | null): EvaluationResult {
  const out: EvaluationResult = { ...r, recommendation: { ...r.recommendation, impact } }
  Object.assign(out.recommendation, recommendationSentence(out))
  return out
}

/** The research's single pool of `procs` processors (documents before schema v3, SWF logs). */
export function poolMachine(procs: number, source: string): MachineSummary {
  return {
    kind: 'pool', scheduler: 'easy', description: `${procs.toLocaleString('en-US')} interchangeable processors (${source})`, source,
    nodes: 0, cpus: procs, gpus: 0, partitions: [], notes: [], conf: null,
  }
}

/** What the baseline is called: the site's configuration when one was given, else EASY-FCFS. */
export function baselineName(m: MachineSummary | undefined): string {
  if (m?.conf) return m.conf.current ? 'current configuration' : `configuration in ${m.conf.file}`
  return 'EASY-FCFS'
}

/**
 * The result with `recommendation.asDeployed` set (docs/CLUSTER.md §As deployed). When the
 * deployable train gain lies outside the idealised order's interval, `differs` is set, the
 * sentence says so, and the verdict uses the deployable figure: a switch stands only if the
 * deployed order's train gain is at least the minimum gain with its interval above 0.
 */
export function withAsDeployed(r: EvaluationResult, deployed: AsDeployed | string | null): EvaluationResult {
  const rec = r.recommendation
  const a = typeof deployed === 'string' ? null : deployed
  const out: EvaluationResult = { ...r, recommendation: { ...rec, asDeployed: a, ...(typeof deployed === 'string' ? { asDeployedNote: deployed } : {}) } }
  if (a !== null && rec.verdict === 'switch' && r.recommended !== undefined) {
    const t = r.candidates[r.recommended].train
    const ideal = t.real ?? { gain: t.gain, ci: t.gainCi } // hand-made or early documents may lack `real`
    const dep = a.train.real
    a.differs = !a.same && (dep.gain < ideal.ci[0] || dep.gain > ideal.ci[1])
    if (a.differs && !(dep.gain >= r.protocol.minGain && dep.ci[0] > 0)) {
      out.recommendation.verdict = 'keep'
      out.recommendation.reason = `keep ${baselineName(r.machine)}: as deployed on Slurm (whole-node reservations, its backfill and priority arithmetic), ` +
        `${a.label} gains ${formatPercent(dep.gain, 1)} on the real train weeks (interval ${formatPercent(dep.ci[0], 1)} to ${formatPercent(dep.ci[1], 1)}), ` +
        `not the ${formatPercent(ideal.gain, 1)} of the idealised order: not enough to switch`
      out.recommended = 0
      out.recommendation.export = exportOf(r.candidates[0])
    }
  }
  Object.assign(out.recommendation, recommendationSentence(out))
  return out
}

/** How a candidate deploys on Slurm (core/export/deploy.ts): the baseline needs no change. */
export function exportOf(c: { candidate: Candidate; threshold: number | null }): { target: 'slurm'; fidelity: Fidelity; lost: string[] } {
  const d = slurmDeployment(c.candidate, c.threshold)
  return { target: 'slurm', fidelity: d.fidelity, lost: d.lost }
}

/** How well the simulator matched this log's history, in words with its numbers. */
export function calibrationWords(c: Calibration | null): string {
  if (!c) return 'the log records no waits, so how well the simulator matches its history is unknown'
  const level = c.spearman >= 0.6 ? 'closely' : c.spearman >= 0.3 ? 'loosely' : 'poorly'
  const ratio = c.recordedMean > 0 ? c.simulatedMean / c.recordedMean : NaN
  const scale = !Number.isFinite(ratio) ? '' : `, simulated mean wait ${ratio.toFixed(1)}× the recorded`
  return `the simulator follows this log's recorded waits ${level} (rank correlation ${c.spearman.toFixed(2)}${scale})`
}

const FIDELITY_WORDS: Record<Fidelity, string> = {
  native: 'exports to Slurm natively',
  'job_submit.lua': 'exports to Slurm with a job_submit.lua script',
  'site factor': 'exports to Slurm with a site-factor script',
  'not exportable': 'cannot be exported to Slurm as evaluated',
}

/** The verdict in one sentence (docs/RESULT-SCHEMA.md, `recommendation.sentence`): the verdict, the train gain
 * on the real weeks with its selection-corrected interval (the evidence), the test gain with its
 * interval (reported, never the evidence), the longest-wait ratio, the export fidelity and the
 * calibration in words; the groups whose mean wait rises beyond the risk ratio, when known. */
export function recommendationSentence(r: EvaluationResult): { label: string; sentence: string; testDisagrees: boolean } {
  const rec = r.recommendation
  const pct = (x: number) => formatPercent(x, 1)
  const conf = `${Math.round(r.protocol.confidence * 100)}%`
  const calib = calibrationWords(r.calibration)
  const what = objectiveName(r.protocol.objective)
  const base = baselineName(r.machine)
  const dep = rec.asDeployed
  const deployed = dep && !dep.same
    ? `; as deployed on Slurm${dep.differs ? ' (outside the idealised interval: the verdict uses this figure)' : ''}: ${formatPercent(dep.train.real.gain, 1)} on train (interval ${formatPercent(dep.train.real.ci[0], 1)} to ${formatPercent(dep.train.real.ci[1], 1)}), ${formatPercent(dep.test.real.gain, 1)} on test`
    : ''
  if (rec.verdict === 'insufficient-data') return { label: '', testDisagrees: false, sentence: `Insufficient data: ${rec.reason.replace(/^Not enough data for a verdict: /, '')} ${cap(calib)}.` }
  const shown = rec.verdict === 'switch' ? r.recommended! : r.ranking.find((i) => r.candidates[i].admissible && !r.candidates[i].baseline)
  const c = shown === undefined ? null : r.candidates[shown]
  const evidence = (x: CandidateSummary) => {
    const tr = x.train.real, te = x.test.real
    const sel = tr.selectionCi ?? tr.ci
    const ratio = Number.isFinite(x.train.maxMaxWaitRatio) ? `${x.train.maxMaxWaitRatio.toFixed(2)}×` : 'unbounded ×'
    const p99 = x.train.maxP99Wait !== null && r.candidates[0].train.maxP99Wait ? `, 99th percentile ${(x.train.maxP99Wait / r.candidates[0].train.maxP99Wait).toFixed(2)}×` : ''
    const change = tr.gain >= 0 ? `${pct(tr.gain)} lower` : `${pct(-tr.gain)} higher`
    return `${what} ${change} than ${base} on the ${tr.weeks} real train weeks (${conf} interval ${pct(sel[0])} to ${pct(sel[1])}, corrected for choosing among ${r.candidates.length - 1} candidates), ` +
      `${pct(te.gain)} on the ${te.weeks} test weeks (${conf} interval ${pct(te.ci[0])} to ${pct(te.ci[1])}; reported, not the evidence); ` +
      `longest train wait ${ratio} ${base}'s${p99}`
  }
  const over = rec.impact?.overRisk ?? []
  // Named as the impact tables name them ("user 3", "account chem"), at most six; the rest counted.
  const who = (g: (typeof over)[number]) => (g.dimension === 'account' ? `${rec.impact?.[g.part]?.accountKind ?? 'account'} ${g.label}` : g.label)
  const named = over.slice(0, 6).map((g) => `${who(g)} (${g.part}, ${g.meanRatio === null ? 'up from no wait' : `${g.meanRatio.toFixed(1)}×`}, ${g.jobs} jobs)`)
  if (over.length > 6) named.push(`${over.length - 6} more group${over.length === 7 ? '' : 's'} (see who gains and who loses)`)
  const groups = over.length ? `; mean wait rises beyond ${r.protocol.risk.maxWaitRatio ?? ''}× for ${named.join(', ')}` : ''
  if (rec.verdict === 'switch' && c) {
    const fid = rec.export ? FIDELITY_WORDS[rec.export.fidelity] + (rec.export.lost.length ? ` (lost: ${rec.export.lost.join('; ')})` : '') : ''
    const eq = rec.equivalent.length ? `; ${rec.equivalent.length} other candidate${rec.equivalent.length === 1 ? ' is' : 's are'} as good on train (no significant difference), none simpler to deploy` : ''
    return {
      label: candidateLabel(c.candidate) + (c.threshold === null ? '' : ` Θ=${formatThreshold(c.threshold)}`), testDisagrees: c.test.real.gain <= 0,
      sentence: `Switch to ${orderWords(c)}: ${evidence(c)}; ${fid}${eq}${deployed}${groups}; ${calib}.`,
    }
  }
  const best = c ? `; ${c.label}: ${evidence(c)}` : ''
  return { label: r.candidates[0].label, testDisagrees: false, sentence: `Keep ${base} (no change to export): ${rec.reason.replace(/^keep [^:]*: /, '')}${best}${deployed}${groups}; ${calib}.` }
}

function orderWords(c: CandidateSummary): string {
  if (c.candidate.slurm) return `the current configuration with ${slurmChangeLabel(c.candidate.slurm)}`
  // A learned function runs the LOWER value first (docs/LEARN.md §Expressions): said where it is named.
  const said = (p: PolicySpec | 'same') => (mentionsFn(p) ? `${specLabel(p)} (lower f first)` : specLabel(p))
  const order = c.candidate.backfill === 'same' ? `${said(c.candidate.primary)} order` : `${said(c.candidate.primary)} order and ${said(c.candidate.backfill)} backfilling`
  const theta = c.threshold === null ? 'no threshold' : `a ${formatThreshold(c.threshold)} threshold`
  return `EASY with ${order} and ${theta}`
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1)
}

/** Reads a result document of any supported version as the current one. Version 1 documents
 * (before issue #19) had no verdict: they are given the one their recommendation implied ('keep'
 * when the recommended candidate is the baseline, else 'switch'), with a reason saying the v2 checks were not made, and
 * the v2 protocol fields of that time (90 % intervals over the resampled weeks, no minimum gain). */
export function upgradeResult<T>(doc: T): T {
  const obj = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x)
  if (!obj(doc)) return doc
  if (doc.schemaVersion === 2) return upgradeV2(doc) as T
  if (doc.schemaVersion !== 1) return doc
  // Defensive: a broken v1 document stays broken (its readers refuse it in words), never throws here.
  // Copies of the objects it fills in (the caller's document is left as it was).
  const r: Record<string, unknown> = { ...doc, schemaVersion: 2 }
  if (obj(r.protocol)) r.protocol = { ...r.protocol }
  r.recommendation = obj(r.recommendation) ? { ...r.recommendation } : {}
  if (Array.isArray(r.candidates)) {
    r.candidates = r.candidates.map((c: unknown) => (obj(c) ? { ...c, ...(obj(c.train) ? { train: { ...c.train } } : {}), ...(obj(c.test) ? { test: { ...c.test } } : {}) } : c))
  }
  if (obj(r.protocol)) {
    const p = r.protocol
    p.minGain ??= 0
    p.confidence ??= 0.9
    p.minWeeks ??= 0
    p.minJobs ??= 0
    p.criterion ??= 'ratio-of-means'
    p.statistics ??= null
  }
  const candidates = Array.isArray(r.candidates) ? r.candidates : []
  for (const c of candidates) {
    if (!obj(c)) continue
    for (const part of [c.train, c.test]) {
      if (!obj(part)) continue
      part.meanP99Wait ??= null
      part.maxP99Wait ??= null
      part.real ??= { weeks: 0, gain: part.gain, ci: part.gainCi, vsBest: null, selectionCi: null }
    }
  }
  if (obj(r.recommendation)) {
    const rec = r.recommendation
    const i = typeof r.recommended === 'number' ? r.recommended : 0
    const chosen = candidates[i]
    rec.verdict ??= obj(chosen) && chosen.baseline === true ? 'keep' : 'switch'
    rec.reason ??= 'a version-1 result: it was chosen on resampled weeks without the minimum gain, the real-week interval or the risk limit of version 2; run the evaluation again for a verdict'
    rec.equivalent ??= []
    rec.impact ??= null
    if (rec.export === undefined) {
      const c = candidates[i]
      try {
        rec.export = obj(c) && obj(c.candidate) ? exportOf(c as unknown as CandidateSummary) : null
      } catch {
        rec.export = null
      }
    }
  }
  return upgradeV2(r) as T
}

/** Version 2 → 3: the single pool under the research's EASY (all there was), nothing simulated as deployed. */
function upgradeV2(doc: Record<string, unknown>): Record<string, unknown> {
  const obj = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x)
  const r: Record<string, unknown> = { ...doc, schemaVersion: RESULT_SCHEMA_VERSION }
  const log = obj(r.log) ? r.log : {}
  const procs = typeof log.machineProcs === 'number' && Number.isFinite(log.machineProcs) ? log.machineProcs : 0
  r.machine ??= poolMachine(procs, typeof log.machineSource === 'string' ? log.machineSource : 'unknown')
  if (obj(r.recommendation)) r.recommendation = { asDeployed: null, ...r.recommendation }
  return r
}
