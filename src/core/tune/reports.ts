// The JSON documents of `easytune online --json` and `easytune mixed --json`, built in one place so
// that the CLI and the app's "Run online selection" / "Search a mixed policy" (src/backend/
// analysis.ts) produce the same document, which the Results step's ExtrasPanel reads.
// Pure: the caller passes what it measured (the elapsed seconds of the mixed search).
import { MIXED_FEATURES } from '../sim/policies'
import type { Workload } from '../workload/import'
import { PENALTY_LAMBDA, XNES_SIGMA0, type MixedEntry, type MixedOptions, type MixedReport } from './mixed'
import { ONLINE_SCHEMA_VERSION, type OnlineResult, type OnlineSpec } from './online'
import type { Prepared } from './prepare'
import type { ResampleSpec } from './resample'
import type { SplitSpec } from './split'

export const MIXED_SCHEMA_VERSION = 1

/** The data citation to show with results on a PWA log (null for other formats). */
export function workloadCitation(w: Pick<Workload, 'format' | 'report'>): string | null {
  const ack = w.report.header['Acknowledge']
  if (w.format !== 'swf') return null
  const parts = ['Parallel Workloads Archive: D. G. Feitelson, D. Tsafrir, D. Krakov, "Experience with using the Parallel Workloads Archive", JPDC 74(10):2967-2982, 2014']
  if (ack) parts.unshift(`Log courtesy of ${ack}${w.report.header['Installation'] ? ` (${w.report.header['Installation']})` : ''}`)
  return parts.join('. ') + '.'
}

/** `easytune online --json`: totals per trace, cumulative gain curves, policies chosen per period. */
export function onlineJson(w: Workload, spec: OnlineSpec, result: OnlineResult) {
  return {
    schemaVersion: ONLINE_SCHEMA_VERSION,
    log: { name: w.name, format: w.format, machineProcs: w.machineProcs, machineSource: w.report.machine.source, jobsRead: w.report.jobsRead, jobsKept: w.jobs.count },
    config: { ...spec, backfill: 'same' as const },
    traces: result.traces, jobsPerTrace: result.jobs, periods: result.periods, periodEnds: result.periodEnds,
    runs: result.runs,
    citation: workloadCitation(w),
  }
}

/** `easytune mixed --json`: the options, parts, search trace, and the best weights, EASY-FCFS and
 * the vertex policies on train and test. `seconds`: the wall-clock time of the search. */
export function mixedJson(w: Workload, p: Prepared, o: MixedOptions, split: SplitSpec, resample: ResampleSpec, report: MixedReport, seconds: number) {
  const entry = (e: MixedEntry) => ({ label: e.label, weights: e.weights, candidate: e.candidate, threshold: e.threshold, train: e.train, test: e.test })
  return {
    schemaVersion: MIXED_SCHEMA_VERSION,
    log: { name: w.name, format: w.format, machineProcs: w.machineProcs, jobs: w.jobs.count },
    options: { ...o, split, splitAt: p.split.at, resample, sigma0: o.method === 'xnes' ? XNES_SIGMA0 : null, penaltyLambda: o.method === 'xnes' ? PENALTY_LAMBDA : null },
    parts: { train: { ...p.split.trainStats, weeks: p.train.count, originalWeeks: p.train.originalWeeks }, test: { ...p.split.testStats, weeks: p.test.count, originalWeeks: p.test.originalWeeks } },
    features: MIXED_FEATURES.map((f, i) => ({ ...f, searched: i < o.features })),
    standardization: report.search.standardization,
    search: { evaluations: report.search.evaluations, simulations: report.search.simulations, gridStep: report.search.gridStep, trainObjective: report.search.trainObjective, trace: report.search.trace },
    best: entry(report.best), baseline: entry(report.baseline), vertices: report.vertices.map(entry),
    seconds, citation: workloadCitation(w),
  }
}
