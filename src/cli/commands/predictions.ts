// `easytune predictions <log>…`: the runtime-prediction campaign of thesis ch. 4 (docs/PREDICTIONS.md
// §Campaign): every (prediction × correction × backfill order) triple on each log, on the engine
// pool, and the triple chosen for each log by leave-one-out across the others. `--list-losses`
// prints the 20 losses of Table 4.5.
import { bool, jsonTarget, parseArgs, positiveInt, positiveNumber, str, thresholdFlag, UsageError } from '../args'
import { citation, IMPORT_FLAGS, IMPORT_HELP, importOptions, loadWorkload } from '../common'
import { int, num, pct, INTERRUPTED, Progress, table, untilInterrupted, writeJson, type Io } from '../output'
import { shown, whyDefaults } from '../defaults-help'
import { DEFAULTS } from '../../core/defaults'
import { CLAIRVOYANT_ID, CLAIRVOYANT_SJBF_ID, EASY_ID, EASY_PP_ID, THESIS_CHOICE_ID, leaveOneOut, logCorrelations, TRIPLES, type PredictionCampaignOptions, type Triple, type TripleMetrics } from '../../core/predict/campaign'
import { ELOSS_ID, LOSSES, WEIGHTS } from '../../core/predict/losses'
import { PREDICTOR_IDS } from '../../core/predict/predictors'
import type { PredictorId } from '../../core/predict/types'
import { findPolicy, POLICIES } from '../../core/sim/policies'
import { formatDuration, formatThreshold } from '../../core/util/duration'
import type { Workload } from '../../core/workload/import'
import { DEFAULT_CACHE_DIR, hashFile } from '../../engine/cache'
import { defaultWorkerCount, EnginePool } from '../../engine/pool'
import { PredictionCache, predictionCampaignOnPool } from '../../engine/predictions'
import { resolve } from 'node:path'

export const PREDICTIONS_SCHEMA_VERSION = 1

export const predictionsHelp = `easytune predictions <log>… [options]

The runtime-prediction campaign of the thesis (ch. 4): every triple (prediction × correction ×
backfill order) simulated on each log (each path is one log), and for each log the triple chosen by
leave-one-out across the others: the least sum of the average bounded slowdown on the other logs,
reported with how it does on the log left out. ${TRIPLES.length} triples per log:
  predictions  requested time and clairvoyant (no correction: they never fall short); AVE₂ and the
               learned regression under each of the ${LOSSES.length} losses (see --list-losses), each
               with the corrections requested, incremental and doubling
  backfill     same (the queue order: plain EASY with FCFS) or sjbf (shortest prediction first)
EASY = requested + none + same; EASY++ = ave2 + incremental + sjbf.

Per log and triple: AvgBsld, AvgWait, the share of jobs with an extreme bounded slowdown (above
plain EASY's ${pct(DEFAULTS.extremeBsld.value, 1)} quantile on the same log), and the predictor's
MAE and mean E-Loss.

Options:
  --list-losses            print the ${LOSSES.length} losses (Table 4.5) with their formulas and exit
  --predictors LIST        only the triples of these predictors, comma-separated from
                           ${PREDICTOR_IDS.join(', ')} (default: all)
  --primary P              the queue order the triples combine with (default ${shown('primary')}, the thesis's)
  --threshold none|D       waiting-time threshold of the queue (default ${shown('threshold')})
  --tau S                  bound of the bounded slowdown in seconds (default ${shown('tau')})
  --workers N              worker processes (default ${defaultWorkerCount()}: cores − 1); the result is the same
                           for any number
  --cache-dir D            where finished (log, triple) results are kept (default ${DEFAULT_CACHE_DIR});
                           a re-run only computes what is missing
  --no-cache               compute everything, keep nothing
${IMPORT_HELP}
  --json [file]            print the result as JSON (to stdout, or to the file)

Ctrl-C stops cleanly: finished triples stay in the cache and the command exits 130.

${whyDefaults([['primary', 'primary'], ['threshold', 'threshold'], ['tau', 'tau']])}
`

export async function predictionsCommand(argv: string[], io: Io): Promise<number> {
  const a = parseArgs(argv, {
    ...IMPORT_FLAGS, 'list-losses': 'boolean', predictors: 'string', primary: 'string', threshold: 'string', tau: 'string',
    workers: 'string', 'cache-dir': 'string', 'no-cache': 'boolean', json: 'optional', help: 'boolean',
  })
  if (bool(a, 'help')) { io.out(predictionsHelp); return 0 }
  if (bool(a, 'list-losses')) {
    if (a.positionals.length > 0) throw new UsageError('--list-losses takes no log')
    io.out(listLosses())
    return 0
  }
  if (a.positionals.length === 0) throw new UsageError('predictions needs at least one log: easytune predictions <log>… (each path is one log; leave-one-out needs three or more)')
  const seen = new Set<string>()
  for (const p of a.positionals) {
    if (seen.has(resolve(p))) throw new UsageError(`${p} is given twice: each path is one log`)
    seen.add(resolve(p))
  }
  const predictors = predictorList(str(a, 'predictors'))
  const primaryText = str(a, 'primary') ?? DEFAULTS.primary.value
  const primary = findPolicy(primaryText)
  if (!primary) throw new UsageError(`--primary: unknown policy "${primaryText}"; known: ${POLICIES.map((x) => x.id).join(', ')}`)
  const options: PredictionCampaignOptions = { primary: primary.id, threshold: thresholdFlag(a, 'threshold', DEFAULTS.threshold.value), tau: positiveNumber(a, 'tau') ?? DEFAULTS.tau.value }
  const triples = TRIPLES.filter((t) => predictors.includes(t.predictor.id))
  const json = jsonTarget(a)
  const pool = new EnginePool({ workers: positiveInt(a, 'workers') })
  const cache = bool(a, 'no-cache') ? undefined : new PredictionCache(str(a, 'cache-dir') ?? DEFAULT_CACHE_DIR)
  const imports = importOptions(a)

  const logs: { path: string; w: Workload }[] = []
  for (const path of a.positionals) {
    const w = await loadWorkload(io, { paths: [path], label: path }, imports)
    if (w.jobs.count === 0) { io.err(`easytune: ${path}: no job is left after cleaning, nothing to simulate.\n`); return 1 }
    logs.push({ path, w })
  }
  io.err(`predictions: ${triples.length} triples on ${logs.length} log${logs.length === 1 ? '' : 's'} (${int(logs.reduce((s, l) => s + l.w.jobs.count, 0))} jobs), on ${pool.workers} worker${pool.workers === 1 ? '' : 's'}\n`)

  const progress = new Progress(io)
  const t0 = performance.now()
  let logsReported = 0
  const run = await untilInterrupted(io, progress, async (signal) => predictionCampaignOnPool(pool, await Promise.all(logs.map(async (l) => ({
    setup: { logPath: resolve(l.path), importOptions: imports, split: DEFAULTS.split.value, resample: { method: DEFAULTS.resample.value, weeks: 1, seed: DEFAULTS.seed.value }, tau: options.tau },
    jobs: l.w.jobs.count,
    workloadHash: cache ? await hashFile(l.path) : undefined,
  }))), triples.map((t) => t.id), options, {
    signal, cache,
    onProgress: (p) => {
      const eta = p.etaSeconds !== null && p.etaSeconds > 0 ? ` ETA ${formatDuration(p.etaSeconds)}` : ''
      progress.update(`simulating ${logs[p.log].w.name}`, p.fraction, `${int(p.unitsDone)}/${int(p.unitsTotal)} triples${p.cachedUnits ? ` (${int(p.cachedUnits)} cached)` : ''}${eta}`)
      // Off a terminal (a log file, a batch job) one line per finished log.
      if (!io.tty && p.unitsDone === (p.log + 1) * triples.length && logsReported <= p.log) {
        logsReported = p.log + 1
        io.err(`${logs[p.log].w.name}: ${triples.length} triples done after ${formatDuration((performance.now() - t0) / 1000)}; ${pct(p.fraction, 0)} of the campaign${eta}\n`)
      }
    },
    onWorkerCrash: (c) => { progress.done(); io.err(`warning: ${c.message}\n`) },
    onWarning: (m) => { progress.done(); io.err(`warning: ${m}\n`) },
  }), 'interrupted: finished triples are kept in the cache; run the same command again to resume.')
  if (run === INTERRUPTED) return 130
  const seconds = (performance.now() - t0) / 1000
  io.err(`simulated ${int(run.computedUnits)} (log, triple) pairs (${int(run.cachedUnits)} from the cache) on ${pool.workers} worker${pool.workers === 1 ? '' : 's'} in ${seconds.toFixed(1)} s\n`)

  const result = predictionsJson(logs, triples, options, run.metrics)
  if (json) writeJson(io, json, result)
  if (!json || json.file !== null) io.out(formatReport(result))
  return 0
}

function predictorList(text: string | undefined): PredictorId[] {
  if (text === undefined) return [...PREDICTOR_IDS]
  const ids = text.split(',').map((s) => s.trim().toLowerCase()).filter((s) => s !== '')
  for (const id of ids) if (!(PREDICTOR_IDS as readonly string[]).includes(id)) throw new UsageError(`--predictors: unknown predictor "${id}"; known: ${PREDICTOR_IDS.join(', ')}`)
  if (ids.length === 0) throw new UsageError(`--predictors needs at least one of ${PREDICTOR_IDS.join(', ')}`)
  return ids as PredictorId[]
}

/** The 20 losses of Table 4.5 with their formulas (f = prediction, p = runtime, q = processors). */
export function listLosses(): string {
  return [
    `The ${LOSSES.length} losses of the learned regression (thesis Table 4.5): f is the prediction, p the runtime,`,
    'q the processors; log is log10 and γ is floored at 0. Use one as --predictor eloss:<id> (simulate).',
    '',
    table([['id', 'formula'], ...LOSSES.map((l) => [l.id + (l.id === ELOSS_ID ? ' (E-Loss, the default)' : ''), l.formula])], ['l', 'l']).trimEnd(),
    '',
    'Weights γ (Table 4.3):',
    table(WEIGHTS.map((w) => [`  ${w.id}`, w.formula, w.explain]), ['l', 'l', 'l']).trimEnd(),
    '',
  ].join('\n')
}

type Row = { triple: string } & TripleMetrics

/** `easytune predictions --json` (schemaVersion 1). */
export function predictionsJson(logs: readonly { path: string; w: Workload }[], triples: readonly Triple[], options: PredictionCampaignOptions, metrics: TripleMetrics[][]) {
  const table = metrics.map((row) => row.map((m) => m.avgBsld))
  const loo = leaveOneOut(table, triples.map((t) => t.selectable))
  const learned = triples.map((t, i) => [t, i] as const).filter(([t]) => t.learned)
  const extremes = (row: TripleMetrics[]) => {
    if (learned.length === 0) return { bestLearned: null, worstLearned: null }
    let best = learned[0][1], worst = learned[0][1]
    for (const [, i] of learned) {
      if (row[i].avgBsld < row[best].avgBsld) best = i
      if (row[i].avgBsld > row[worst].avgBsld) worst = i
    }
    return { bestLearned: triples[best].id, worstLearned: triples[worst].id }
  }
  return {
    schemaVersion: PREDICTIONS_SCHEMA_VERSION,
    options: { ...options, extremeQuantile: DEFAULTS.extremeBsld.value },
    named: { easy: EASY_ID, easyPlusPlus: EASY_PP_ID, clairvoyant: CLAIRVOYANT_ID, clairvoyantSjbf: CLAIRVOYANT_SJBF_ID, thesisChoice: THESIS_CHOICE_ID },
    triples: triples.map((t) => ({ id: t.id, label: t.label, predictor: t.predictor, correction: t.correction, backfill: t.backfill, learned: t.learned, selectable: t.selectable })),
    logs: logs.map(({ path, w }, l) => ({
      name: w.name, file: path, machineProcs: w.machineProcs, jobs: w.jobs.count, citation: citation(w),
      extremeBound: metrics[l][0]?.extremeBound ?? null,
      ...extremes(metrics[l]),
      results: triples.map((t, i): Row => ({ triple: t.id, ...metrics[l][i] })),
    })),
    selection: {
      method: 'leave-one-out' as const,
      criterion: 'least sum of AvgBsld on the other logs, among the triples a site can run (not the clairvoyant ones)',
      folds: loo.folds.map((f) => ({
        heldOut: logs[f.log].w.name, chosen: triples[f.chosen].id, otherLogsAvgBsldSum: f.otherLogsSum, heldOutAvgBsld: f.heldOutAvgBsld,
        heldOutRank: f.heldOutRank, of: loo.candidates, hindsightBest: triples[f.hindsightBest].id, hindsightAvgBsld: f.hindsightAvgBsld,
      })),
      notes: loo.notes,
      /** Pearson r of the selectable triples' AvgBsld between two logs (null: no variation). */
      correlations: logCorrelations(table, triples.map((t) => t.selectable)),
    },
  }
}

type Result = ReturnType<typeof predictionsJson>

function formatReport(r: Result): string {
  const o = r.options
  const lines = [
    `Runtime-prediction campaign: ${r.triples.length} triples on ${r.logs.length} log${r.logs.length === 1 ? '' : 's'}, queue order ${o.primary}, threshold ${formatThreshold(o.threshold)}, τ = ${o.tau} s.`,
    `AvgBsld = mean bounded slowdown; extreme = share of jobs above plain EASY's ${pct(o.extremeQuantile, 1)} quantile of bounded slowdown on the same log;`,
    'MAE and E-Loss are the initial predictions\' (s; E-Loss weighted s² and s).',
  ]
  const label = new Map(r.triples.map((t) => [t.id, t.label]))
  const selectable = new Set(r.triples.filter((t) => t.selectable).map((t) => t.id))
  for (const log of r.logs) {
    const by = new Map(log.results.map((x) => [x.triple, x]))
    const rows: [string, string | null][] = [
      ['EASY', r.named.easy], ['Clairvoyant EASY', r.named.clairvoyant], ['Clairvoyant EASY-SJBF', r.named.clairvoyantSjbf], ['EASY++', r.named.easyPlusPlus],
      ['Best learned', log.bestLearned], ['Worst learned', log.worstLearned], ['Thesis choice', r.named.thesisChoice],
    ]
    const present = rows.filter(([, id]) => id !== null && by.has(id))
    lines.push('', `${log.name}: ${int(log.machineProcs)} processors, ${int(log.jobs)} jobs; extreme bounded slowdown above ${num(log.extremeBound ?? NaN, 1)}.`)
    lines.push(table([
      ['', 'AvgBsld', 'AvgWait', 'extreme', 'MAE', 'mean E-Loss', 'corrections', 'triple'],
      ...present.map(([name, id]) => {
        const m = by.get(id!)!
        return [name, num(m.avgBsld, 2), formatDuration(m.avgWait), pct(m.extremeShare, 2), formatDuration(m.mae), m.meanELoss.toExponential(2), int(m.corrections), id!]
      }),
    ], ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'l']).trimEnd())
    if (log.bestLearned === null) lines.push('(no learned triple in this run)')
    const sorted = log.results.filter((x) => selectable.has(x.triple)).sort((x, y) => x.avgBsld - y.avgBsld)
    if (sorted.length > 0) lines.push(`Best non-clairvoyant triple here (in hindsight, not a selection): ${sorted[0].triple}, AvgBsld ${num(sorted[0].avgBsld, 2)}.`)
  }
  lines.push('', 'Leave-one-out selection (least sum of AvgBsld on the other logs, judged on the log left out;')
  lines.push('the clairvoyant triples are a bound, never chosen; rank and hindsight best are among the other triples):')
  if (r.selection.folds.length === 0) lines.push('  none: see the note below.')
  else {
    lines.push(table([
      ['held-out log', 'chosen on the others', 'AvgBsld there', 'rank there', 'best there in hindsight'],
      ...r.selection.folds.map((f) => [f.heldOut, f.chosen, num(f.heldOutAvgBsld, 2), `${f.heldOutRank}/${f.of}`, `${f.hindsightBest} (${num(f.hindsightAvgBsld, 2)})`]),
    ], ['l', 'l', 'r', 'r', 'l']).trimEnd())
    const chosen = new Set(r.selection.folds.map((f) => f.chosen))
    for (const id of chosen) lines.push(`  ${id}: ${label.get(id)}`)
  }
  if (r.logs.length >= 2) {
    const c = r.selection.correlations
    lines.push('', 'How alike the logs rank the triples (Pearson r of AvgBsld over the non-clairvoyant triples):')
    lines.push(table([['', ...r.logs.map((_, i) => `(${i + 1})`)], ...r.logs.map((l, a) => [`(${a + 1}) ${l.name}`, ...c[a].map((v) => (v === null ? '–' : num(v, 2)))])], ['l', ...r.logs.map(() => 'r' as const)]).trimEnd())
  }
  for (const n of r.selection.notes) lines.push('', n)
  const cites = [...new Set(r.logs.map((l) => l.citation).filter((c): c is string => c !== null))]
  if (cites.length > 0) lines.push('', 'Data:', ...cites.map((c) => `  ${c}`))
  return lines.join('\n') + '\n'
}
