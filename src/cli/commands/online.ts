// `easytune online`: emulates online policy selection (thesis ch. 6, docs/PROTOCOL.md §Online selection)
// on long resampled traces of the log and reports each strategy's waiting-time gain over EASY-FCFS.
import { bool, jsonTarget, oneOf, parseArgs, positiveInt, str, thresholdFlag, UsageError, wholeNumber, type ParsedArgs } from '../args'
import { citation, IMPORT_FLAGS, IMPORT_HELP, importOptions, loadWorkload, logArg, setupFiles } from '../common'
import { int, pct, INTERRUPTED, Progress, table, untilInterrupted, writeJson, type Io } from '../output'
import { findPolicy } from '../../core/sim/policies'
import { RESAMPLE_METHODS, WEEK, type ResampleMethod } from '../../core/tune/resample'
import { onlineJson } from '../../core/tune/reports'
import { DAY, DEFAULT_ONLINE, STRATEGIES, type OnlineResult, type OnlineSpec, type RunSummary, type Strategy } from '../../core/tune/online'
import { formatDuration, formatThreshold, parseDuration } from '../../core/util/duration'
import type { Workload } from '../../core/workload/import'
import { DEFAULTS } from '../../core/defaults'
import { shown } from '../defaults-help'
import { COMPAT_FLAGS, compatFlag, compatHelp } from '../compat-arg'
import { partWeeks } from '../../core/tune/split'
import { DEFAULT_TAU } from '../../core/sim/metrics'
import { onlineOnPool } from '../../engine/analyses'
import { defaultWorkerCount, EnginePool } from '../../engine/pool'

/** Default number of traces (core/defaults.ts says why). */
export const DEFAULT_TRACES = DEFAULTS.onlineTraces.value

export const onlineHelp = `easytune online <log>… [options]

Emulates choosing the queue order online, period after period (thesis ch. 6): the log is resampled
per user and week into long traces (R1); on each trace one continuous EASY(P, Θ) run changes its
policy P at every period boundary, as chosen by a strategy from what it knew at that time:
  full     simulated feedback: the policy whose simulated waits on the past periods' jobs are lowest
  noisy    the same, each simulated cost multiplied by a random factor in [0.8, 1.2]
  egreedy  ε-greedy bandit: the policy with the lowest observed average wait so far (each policy is
           tried once first, in list order), or a random one with probability ε
  random   a random policy every period
Every policy is also run fixed. Gains are against EASY-FCFS with the same threshold, as the share of
the total waiting time removed (eq. 6.11: a ratio of sums over all traces).

Options:
  --strategy S             full, noisy, egreedy, random, a comma list of them, or all (default)
  --period day|week|D      policy period Δ (default week; any duration such as 12h also works)
  --epsilon E              exploration rate of egreedy, 0..1 (default ${DEFAULT_ONLINE.epsilon})
  --lambda L               discount of past periods, 0..1 (default ${DEFAULT_ONLINE.lambda} = no decay)
  --threshold none|D       waiting-time threshold Θ (default ${shown('onlineThreshold')}, as the thesis)
  --weeks N                length of each trace in weeks (default ${DEFAULT_ONLINE.weeks}, two years)
  --traces K               independent traces (default ${DEFAULT_TRACES}; the thesis used 60)
  --resample M             user-weeks, week-shuffle or none (the real weeks, repeated) (default ${shown('resample')})
  --seed S                 seed of the resampling and of the random choices (default ${DEFAULT_ONLINE.seed})
  --policies A,B,...       policies to choose from (default the thesis's 12: ${DEFAULT_ONLINE.policies.join(',')})
${compatHelp(true)}
  --workers N              worker processes, one trace each at a time (default ${defaultWorkerCount()}: cores − 1);
                           the result is the same for any number
${IMPORT_HELP}
  --json [file]            print the result as JSON (to stdout, or to the file): totals per trace,
                           cumulative gain curves and the share of policies chosen per period
`

export async function onlineCommand(argv: string[], io: Io): Promise<number> {
  const a = parseArgs(argv, {
    ...IMPORT_FLAGS, ...COMPAT_FLAGS, strategy: 'string', period: 'string', epsilon: 'string', lambda: 'string', threshold: 'string',
    weeks: 'string', traces: 'string', resample: 'string', seed: 'string', policies: 'string', workers: 'string', json: 'optional', help: 'boolean',
  })
  if (bool(a, 'help')) { io.out(onlineHelp); return 0 }
  const log = await logArg(a, 'online', io)
  const path = log.label
  const spec = onlineSpec(a)
  const opts = importOptions(a)
  const json = jsonTarget(a)
  const pool = new EnginePool({ workers: positiveInt(a, 'workers') })

  const w = await loadWorkload(io, log, opts)
  const n = w.jobs.count
  if (n === 0 || w.jobs.submit[n - 1] - w.jobs.submit[0] < WEEK) {
    io.err(`easytune online: ${path}: ${n === 0 ? 'no job is left after cleaning' : 'the log spans less than one week'}; week resampling needs at least one full week of jobs.\n`)
    return 2
  }
  if (partWeeks(w.jobs, spec.compat).full < 1) {
    io.err(`easytune online: ${path}: with --compat ocst the log's first and last (partial) weeks are dropped and no full week is left; week resampling needs at least one.\n`)
    return 2
  }
  const progress = new Progress(io)
  const t0 = performance.now()
  // The workers read the log themselves (the whole cleaned log: no split, no resampling here).
  const setup = { ...setupFiles(log), importOptions: opts, split: { kind: 'midpoint' as const }, resample: { method: spec.method, weeks: 1, seed: spec.seed }, tau: DEFAULT_TAU }
  const result = await untilInterrupted(io, progress, (signal) => onlineOnPool(pool, setup, spec, {
    signal,
    onProgress: (f) => progress.update(`online: ${spec.traces} trace(s) on ${Math.min(pool.workers, spec.traces)} worker(s)`, f),
    onWorkerCrash: (c) => { progress.done(); io.err(`warning: ${c.message}\n`) },
  }))
  if (result === INTERRUPTED) return 130
  const seconds = (performance.now() - t0) / 1000
  const jobs = result.jobs.reduce((x, y) => x + y, 0)
  io.err(`emulated ${spec.traces} trace(s), ${int(jobs)} jobs, ${int(result.periods)} periods each, in ${seconds.toFixed(1)} s\n`)

  if (json) {
    writeJson(io, json, onlineJson(w, spec, result))
  }
  if (!json || json.file !== null) io.out(formatResult(w, spec, result))
  return 0
}

function number01(a: ParsedArgs, name: string, fallback: number): number {
  const v = str(a, name)
  if (v === undefined) return fallback
  const x = Number(v)
  if (v.trim() === '' || !(x >= 0 && x <= 1)) throw new UsageError(`--${name} must be a number from 0 to 1, got "${v}"`)
  return x
}

export function onlineSpec(a: ParsedArgs): OnlineSpec {
  const s = str(a, 'strategy') ?? 'all'
  const strategies = s === 'all' ? STRATEGIES : s.split(',').map((x) => x.trim())
  for (const x of strategies) if (!(STRATEGIES as readonly string[]).includes(x)) throw new UsageError(`--strategy must be ${STRATEGIES.join(', ')}, a comma list of them, or all; got "${x}"`)
  if (new Set(strategies).size !== strategies.length) throw new UsageError('--strategy lists a strategy twice')
  const p = str(a, 'period') ?? 'week'
  let period: number
  if (p === 'day') period = DAY
  else if (p === 'week') period = WEEK
  else {
    try { period = parseDuration(p) } catch (e) { throw new UsageError(`--period must be day, week or a duration: ${(e as Error).message}`) }
    if (!(period >= 60)) throw new UsageError(`--period must be at least one minute, got "${p}"`)
  }
  const threshold = thresholdFlag(a, 'threshold', DEFAULT_ONLINE.threshold)
  const seed = wholeNumber(a, 'seed')
  const policies = (str(a, 'policies')?.split(',') ?? [...DEFAULT_ONLINE.policies]).map((x) => {
    const pol = findPolicy(x)
    if (!pol) throw new UsageError(`--policies: unknown policy "${x}" (see easytune policies)`)
    return pol.id
  })
  if (new Set(policies).size !== policies.length) throw new UsageError('--policies lists a policy twice')
  return {
    policies, strategies: strategies as Strategy[], period, threshold,
    epsilon: number01(a, 'epsilon', DEFAULT_ONLINE.epsilon), lambda: number01(a, 'lambda', DEFAULT_ONLINE.lambda), noise: DEFAULT_ONLINE.noise,
    weeks: positiveInt(a, 'weeks') ?? DEFAULT_ONLINE.weeks, traces: positiveInt(a, 'traces') ?? DEFAULT_TRACES,
    method: oneOf<ResampleMethod>(a, 'resample', RESAMPLE_METHODS) ?? DEFAULT_ONLINE.method,
    seed: seed ?? DEFAULT_ONLINE.seed,
    compat: compatFlag(a),
  }
}

function periodLabel(s: number): string {
  return s === DAY ? '1 day' : s === WEEK ? '1 week' : formatDuration(s)
}

function signedDuration(s: number): string {
  return (s < 0 ? '-' : '') + formatDuration(Math.abs(s))
}

function formatResult(w: Workload, spec: OnlineSpec, r: OnlineResult): string {
  const base = r.runs[0]
  const jobs = r.jobs.reduce((x, y) => x + y, 0)
  const lines = [
    `Online policy selection on ${w.name}, ${int(w.machineProcs)} processors: ${spec.traces} trace(s) of ${spec.weeks} weeks ` +
      `(${spec.method} resampling, seed ${spec.seed}; ${int(jobs / spec.traces)} jobs per trace on average)`,
    `EASY(P, Θ = ${formatThreshold(spec.threshold)}), period Δ = ${periodLabel(spec.period)}, ε = ${spec.epsilon}, λ = ${spec.lambda}, ${spec.policies.length} policies${spec.compat === 'ocst' ? '; compat ocst (the seeds\' simulator\'s rules)' : ''}`,
    '',
  ]
  const rows = [['', 'average wait', 'gain vs EASY-FCFS', 'wait saved per job', spec.traces > 1 ? 'gain p10 … p90 over traces' : '']]
  const row = (s: RunSummary) => {
    rows.push([
      s.label, formatDuration(s.avgWait),
      s.kind === 'baseline' ? '—' : pct(s.gain), s.kind === 'baseline' ? '' : signedDuration(base.avgWait - s.avgWait),
      spec.traces > 1 && s.kind !== 'baseline' ? `${pct(s.gainBand.p10)} … ${pct(s.gainBand.p90)}` : '',
    ])
  }
  row(base)
  for (const s of r.runs) if (s.kind === 'strategy') row(s)
  const fixed = r.runs.filter((s) => s.kind === 'fixed').sort((x, y) => x.avgWait - y.avgWait)
  rows.push(['Fixed policies (no switching):', '', '', '', ''])
  for (const s of fixed) row({ ...s, label: `  ${s.label}` })
  lines.push(table(rows, ['l', 'r', 'r', 'r', 'l']).trimEnd(), '')
  lines.push('Most chosen policies (share of all periods):')
  for (const s of r.runs) {
    if (s.kind !== 'strategy') continue
    const top = Object.entries(s.overallShare!).filter(([, v]) => v > 0).sort((x, y) => y[1] - x[1]).slice(0, 4)
    lines.push(`  ${s.label}: ${top.map(([p, v]) => `${p} ${pct(v, 0)}`).join(', ')}`)
  }
  lines.push('', 'Gain = share of EASY-FCFS\'s total waiting time removed (positive = less waiting). --json adds the',
    'cumulative gain curves and the policies chosen per period.')
  const cite = citation(w)
  if (cite) lines.push('', `Data: ${cite}`)
  return lines.join('\n') + '\n'
}
