// The evaluation result: one JSON document (versioned) that export and the report read. Built
// from plain data only; see docs/RESULT-SCHEMA.md.
import type { ImportReport } from '../workload/import'
import { formatDuration, formatThreshold } from '../util/duration'
import { formatPercent, objectiveName } from '../util/format'
import { policyLabel } from '../sim/policies'
import type { Calibration } from './calibrate'
import { candidateLabel, candidateSetNote, type CampaignSpec, type CellResult, type Candidate, type PresetId } from './campaign'
import type { Selection, CandidateSummary } from './select'
import type { PartStats } from './split'
import type { Fidelity } from '../export/types'
import type { Impact } from './impact'
import type { Compat } from '../sim/types'
import { DEFAULTS } from '../defaults'

export const RESULT_SCHEMA_VERSION = 1

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
    candidates: { primary: string; backfill: string }[]
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
  }
  calibration: Calibration | null
  candidates: (CandidateSummary & { primary: string; backfill: string })[]
  recommended: number
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
  /** Schema v2 (absent in v1 documents: readers upgrade them). */
  verdict?: Verdict
  /** Why, in plain words (what passed or failed: gain, interval, risk, data). */
  reason?: string
  /** How the recommended candidate deploys on Slurm: the weakest fidelity among its parts, and
   * what is lost (empty when everything is exported as evaluated). */
  export?: { target: 'slurm'; fidelity: Fidelity; lost: string[] }
  /** Candidates as good as the recommended one (every switch condition passed, paired difference
   * not significant): indices into `candidates`. */
  equivalent?: number[]
  /** Who gains and who loses; null for `insufficient-data`. */
  impact?: Impact | null
}

export function specLabel(p: Candidate['primary'] | Candidate['backfill']): string {
  return p === 'same' ? 'same' : policyLabel(p)
}

export function buildResult(args: {
  generator: string; sha256: string; report: ImportReport; machineProcs: number; unixStartTime: number | null
  spec: CampaignSpec; selection: Selection; results: Map<string, CellResult>; cellKeyOf: (c: CandidateSummary, part: 'train' | 'test') => string
  split: { at: number; train: PartStats; test: PartStats }; weeks: { trainOriginal: number; testOriginal: number; train: number; test: number }
  calibration: Calibration | null; cells: number; maxRequestedSeconds?: number | null
}): EvaluationResult {
  const { spec, selection: s, report } = args
  const iso = (t: number) => (args.unixStartTime === null ? null : new Date((args.unixStartTime + t) * 1000).toISOString())
  const objectiveOf = (r: CellResult) => Array.from(spec.objective === 'avgWait' ? r.avgWait : r.avgBsld)
  const weeklyFor = (i: number) => {
    const c = s.candidates[i]
    return { label: c.label, train: objectiveOf(args.results.get(args.cellKeyOf(c, 'train'))!), test: objectiveOf(args.results.get(args.cellKeyOf(c, 'test'))!) }
  }
  const chosen = [...new Set([0, s.recommended, s.bestOnTest])]
  return {
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
      candidates: spec.candidates.map((c) => ({ primary: specLabel(c.primary), backfill: specLabel(c.backfill) })),
      preset: spec.preset ?? null, candidateNote: candidateSetNote(spec.candidates),
      risk: s.risk, cells: args.cells, compat: spec.compat ?? DEFAULTS.compat.value,
    },
    calibration: args.calibration,
    candidates: s.candidates.map((c) => ({ ...c, primary: specLabel(c.candidate.primary), backfill: specLabel(c.candidate.backfill) })),
    recommended: s.recommended, bestOnTest: s.bestOnTest, bestOnTrain: s.bestOnTrain, ranking: s.ranking,
    recommendation: recommendationSentence(s, spec.objective),
    weekly: chosen.map(weeklyFor),
  }
}

/** The recommendation in one sentence, with its test gain, CI and MaxWait risk. */
export function recommendationSentence(s: Selection, objective: CampaignSpec['objective']): { label: string; sentence: string; testDisagrees: boolean } {
  const c = s.candidates[s.recommended]
  const what = objectiveName(objective)
  const pct = (x: number) => formatPercent(x, 0)
  const limit = s.risk.maxWaitRatio === null ? '' : ` within your limit (longest wait ≤ ${s.risk.maxWaitRatio}× EASY-FCFS's)`
  if (c.baseline) {
    return {
      label: c.label, testDisagrees: false,
      sentence: `Keep EASY-FCFS: no candidate beat it on the training months${limit}.`,
    }
  }
  const order = c.candidate.backfill === 'same' ? `${specLabel(c.candidate.primary)} order` : `${specLabel(c.candidate.primary)} order and ${specLabel(c.candidate.backfill)} backfilling`
  const theta = c.threshold === null ? 'no threshold' : `a ${formatThreshold(c.threshold)} threshold`
  const t = c.test
  const ci = `90% CI ${pct(t.gainCi[0])} to ${pct(t.gainCi[1])}`
  const risk = `with the longest wait ${t.maxMaxWaitRatio.toFixed(1)}× today's (${formatDuration(t.maxMaxWait)})`
  const testDisagrees = t.gain <= 0
  const sentence = testDisagrees
    ? `EASY with ${order} and ${theta} was best on the training months${limit} (${what} ${pct(c.train.gain)} lower than EASY-FCFS), but on the test months it did not help: ${pct(-t.gain)} worse (${ci}), ${risk}. Keep EASY-FCFS or try a lower threshold.`
    : `EASY with ${order} and ${theta} cut the ${what} on the test months by ${pct(t.gain)} (${ci}), ${risk}.`
  return { label: candidateLabel(c.candidate) + (c.threshold === null ? '' : ` Θ=${formatThreshold(c.threshold)}`), sentence, testDisagrees }
}
