// `easytune mixed <log>`: search a mixed linear policy (RR-9212) on the train part of the log and
// evaluate it on the test part against EASY-FCFS, beside the pure policies at the vertices.
import { bool, jsonTarget, oneOf, parseArgs, positiveInt, positiveNumber, str, thresholdFlag, UsageError, wholeNumber } from '../args'
import { citation, IMPORT_FLAGS, IMPORT_HELP, importOptions, loadWorkload, logArg, setupFiles } from '../common'
import { int, num, pct, INTERRUPTED, Progress, table, untilInterrupted, writeJson, type Io } from '../output'
import { parseSplit } from '../split-arg'
import { DEFAULT_TAU } from '../../core/sim/metrics'
import { findPolicy, FN_LOWER_FIRST, mentionsFn, MIXED_FEATURES, unknownPolicyMessage } from '../../core/sim/policies'
import type { Objective } from '../../core/tune/campaign'
import { MIXED_DEFAULT_BUDGET, VERTEX_POLICIES, type MixedMethod, type MixedOptions, type MixedReport } from '../../core/tune/mixed'
import { prepare, type Prepared } from '../../core/tune/prepare'
import { mixedJson } from '../../core/tune/reports'
import { RESAMPLE_METHODS, type ResampleMethod } from '../../core/tune/resample'
import type { PartSummary } from '../../core/tune/select'
import { formatDuration, formatThreshold } from '../../core/util/duration'
import { formatObjective, objectiveName } from '../../core/util/format'
import type { Workload } from '../../core/workload/import'
import { DEFAULTS } from '../../core/defaults'
import { shown } from '../defaults-help'
import { COMPAT_FLAGS, compatFlag, compatHelp } from '../compat-arg'
import { mixedOnPool } from '../../engine/analyses'
import { defaultWorkerCount, EnginePool } from '../../engine/pool'

export { MIXED_SCHEMA_VERSION } from '../../core/tune/reports'
/** The weeks, resampling and seed of `evaluate` (so the vertex policies' numbers match its
 * candidates'), and the core's budget: about 20 s of one core on the bundled KTH log. */
export const MIXED_CLI_DEFAULTS = { ...DEFAULTS.mixed.value, budget: MIXED_DEFAULT_BUDGET, weeks: DEFAULTS.weeks.value, resample: DEFAULTS.resample.value, seed: DEFAULTS.seed.value, objective: DEFAULTS.objective.value } as const

export const mixedHelp = `easytune mixed <log>… [options]

Searches a mixed queue order: the jobs' score is w·x over the features
  ${MIXED_FEATURES.map((f) => `${f.name} (${f.meaning})`).join(', ')},
highest first, with ‖w‖₁ = 1 (Inria RR-9212). Features are standardised by their mean and standard
deviation on the train part. The weights are chosen on the train part of the log (resampled weeks)
and then evaluated on the test part against EASY-FCFS, like the candidates of a campaign.

Options:
  --features 3|6           3 = −q, −p̃, wait (default); 6 = all six features
  --method xnes|grid       xnes (default): evolution strategy from FCFS; grid: every point of the
                           ‖w‖₁ = 1 sphere on a lattice with step 1/k, k as large as the budget allows
  --budget N               weight vectors to try on train (default ${MIXED_CLI_DEFAULTS.budget})
  --objective avgWait|avgBsld  what to minimise: mean weekly average wait (default) or bounded slowdown
  --threshold none|D       waiting-time threshold of the mixed and vertex policies (default ${shown('threshold')})
  --compare P,P,...        also evaluate these orders beside the vertices, with the same threshold
                           and statistics: policy ids or learned functions fn:<expression> (a LOWER
                           f runs first; easytune learn --help)
  --split midpoint|F|DATE  train = before the split, test = after (default ${shown('split')}; F in (0,1))
  --weeks N                resampled weeks per part (default ${MIXED_CLI_DEFAULTS.weeks})
  --resample user-weeks|week-shuffle|none  how weeks are drawn (default ${shown('resample')})
  --seed S                 seed of the resampling, the search and the bootstrap (default ${MIXED_CLI_DEFAULTS.seed})
  --tau S                  bound of the bounded slowdown in seconds (default ${DEFAULT_TAU})
${compatHelp(true)}
  --workers N              worker processes evaluating the weight vectors of each XNES generation (or
                           the grid) in parallel (default ${defaultWorkerCount()}: cores − 1); the result is the
                           same for any number
${IMPORT_HELP}
  --json [file]            print the result as JSON (to stdout, or to the file)
`

export async function mixedCommand(argv: string[], io: Io): Promise<number> {
  const a = parseArgs(argv, {
    ...IMPORT_FLAGS, ...COMPAT_FLAGS, features: 'string', method: 'string', budget: 'string', objective: 'string', threshold: 'string', compare: 'string',
    split: 'string', weeks: 'string', resample: 'string', seed: 'string', tau: 'string', workers: 'string', json: 'optional', help: 'boolean',
  })
  if (bool(a, 'help')) { io.out(mixedHelp); return 0 }
  const log = await logArg(a, 'mixed', io)
  const path = log.label
  const features = oneOf(a, 'features', ['3', '6']) ?? String(MIXED_CLI_DEFAULTS.features)
  const seed = wholeNumber(a, 'seed')
  const threshold = thresholdFlag(a, 'threshold', DEFAULTS.threshold.value)
  const o: MixedOptions = {
    features: features === '6' ? 6 : 3,
    method: oneOf<MixedMethod>(a, 'method', ['xnes', 'grid']) ?? MIXED_CLI_DEFAULTS.method,
    budget: positiveInt(a, 'budget') ?? MIXED_CLI_DEFAULTS.budget,
    objective: oneOf<Objective>(a, 'objective', ['avgWait', 'avgBsld']) ?? MIXED_CLI_DEFAULTS.objective,
    threshold, tau: positiveNumber(a, 'tau') ?? DEFAULT_TAU,
    seed: seed !== undefined ? seed >>> 0 : MIXED_CLI_DEFAULTS.seed,
    compat: compatFlag(a),
    ...(str(a, 'compare') ? { compare: compareList(str(a, 'compare')!) } : {}),
  }
  const resample = { method: oneOf<ResampleMethod>(a, 'resample', RESAMPLE_METHODS) ?? MIXED_CLI_DEFAULTS.resample, weeks: positiveInt(a, 'weeks') ?? MIXED_CLI_DEFAULTS.weeks, seed: o.seed }
  const splitText = str(a, 'split') ?? shown('split')
  const json = jsonTarget(a)
  const pool = new EnginePool({ workers: positiveInt(a, 'workers') })
  const imports = importOptions(a)

  const w = await loadWorkload(io, log, imports)
  if (w.jobs.count === 0) { io.err(`easytune: ${path}: no job is left after cleaning, nothing to tune.\n`); return 1 }
  const split = parseSplit(splitText, w.unixStartTime, { first: w.jobs.submit[0], last: w.jobs.submit[w.jobs.count - 1] })
  let p: Prepared
  try { p = prepare(w.jobs, w.machineProcs, split, resample, o.compat) } catch (e) { throw new UsageError((e as Error).message) }
  io.err(`mixed: ${o.method === 'xnes' ? 'XNES' : 'grid'} over ${o.features} features, budget ${o.budget} evaluations, ${p.train.count} train and ${p.test.count} test weeks (${resample.method}); use --budget and --weeks to change\n`)

  const progress = new Progress(io)
  const t0 = performance.now()
  // The workers read the log and build the same train/test samples themselves.
  const report = await untilInterrupted(io, progress, (signal) => mixedOnPool(pool, { ...setupFiles(log), importOptions: imports, split, resample, tau: o.tau, compat: o.compat }, o, {
    signal,
    onProgress: (phase, done, total) => {
      const el = (performance.now() - t0) / 1000
      const eta = phase === 'search' && done > 0 ? ` ETA ${formatDuration((el / done) * (total - done))}` : ''
      progress.update(phase === 'search' ? 'searching' : 'evaluating', done / total, `${done}/${total}${eta}`)
    },
    onWorkerCrash: (c) => { progress.done(); io.err(`warning: ${c.message}\n`) },
  }))
  if (report === INTERRUPTED) return 130
  const seconds = (performance.now() - t0) / 1000
  io.err(`searched and evaluated in ${seconds.toFixed(1)} s (${report.search.simulations} distinct weight vectors simulated on ${p.train.count} weeks)\n`)

  const result = mixedJson(w, p, o, split, resample, report, seconds)
  if (json) writeJson(io, json, result)
  if (!json || json.file !== null) io.out(formatReport(w, p, o, report))
  return 0
}

function formatReport(w: Workload, p: Prepared, o: MixedOptions, r: MixedReport): string {
  const unit = objectiveName(o.objective)
  const val = (v: number) => formatObjective(o.objective, v)
  const gain = (s: PartSummary) => `${pct(s.gain)} [${pct(s.gainCi[0])}, ${pct(s.gainCi[1])}]`
  const s = r.search
  const lines = [
    `Mixed policy on ${w.name}, ${int(w.machineProcs)} processors: ${o.method === 'xnes' ? 'XNES' : `grid (step ${num(s.gridStep ?? 0, 3)})`} over ${o.features} features,`,
    `${s.evaluations} of ${o.budget} evaluations (${s.simulations} simulated), ${p.train.count} train / ${p.test.count} test weeks, threshold ${formatThreshold(o.threshold)}, objective ${unit}${o.compat === 'ocst' ? '; compat ocst (the seeds\' simulator\'s rules)' : ''}.`,
    '',
    `Best weights on train (‖w‖₁ = 1, features ${s.standardization ? 'standardised by train mean and std' : 'in raw units'}; higher score runs first):`,
    table([['feature', 'weight', 'meaning'], ...MIXED_FEATURES.slice(0, o.features).map((f, i) => [f.name, s.weights[i].toFixed(3), f.meaning])], ['l', 'r', 'l']).trimEnd(),
    ...(s.weights.some((v) => v === 1) ? [`This is a vertex of the polytope: the pure policy ${VERTEX_POLICIES[s.weights.indexOf(1)]}; no mix did better on train.`] : []),
    '',
    `Relative to EASY-FCFS on the same weeks (gain = share of the ${unit} removed, 90% bootstrap CI):`,
    table([
      ['policy', 'train', 'train gain', 'test', 'test gain'],
      ...[r.best, r.baseline, ...r.vertices].map((e) => [e.label, val(e.train.mean), gain(e.train), val(e.test.mean), gain(e.test)]),
    ], ['l', 'r', 'r', 'r', 'r']).trimEnd(),
    ...(r.vertices.some((e) => mentionsFn(e.candidate.primary)) ? [`(${FN_LOWER_FIRST})`] : []),
    '',
    `Convergence (best train ${unit} after n evaluations): ${checkpoints(s.trace).map(([n, v]) => `${n}: ${val(v)}`).join(', ')}`,
  ]
  const cite = citation(w)
  if (cite) lines.push('', `Data: ${cite}`)
  return lines.join('\n') + '\n'
}

function checkpoints(trace: number[]): [number, number][] {
  const ns = [...new Set([1, 10, 25, 50, 100, 200, 500, 1000, trace.length].filter((n) => n <= trace.length))].sort((x, y) => x - y)
  return ns.map((n) => [n, trace[n - 1]])
}

/** --compare: policy ids or fn: learned functions, made canonical (a mistake names its position). */
function compareList(text: string): string[] {
  const ids = text.split(',').map((x) => x.trim()).filter(Boolean).map((x) => {
    const p = findPolicy(x)
    if (!p) throw new UsageError(`--compare: ${unknownPolicyMessage(x)}`)
    return p.id
  })
  if (ids.length === 0) throw new UsageError('--compare lists no policy')
  return [...new Set(ids)]
}
