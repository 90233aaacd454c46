import { bool, jsonTarget, oneOf, parseArgs, positiveInt, positiveNumber, str, UsageError, wholeNumber, type ParsedArgs } from '../args'
import { citation, IMPORT_FLAGS, IMPORT_HELP, importOptions, loadWorkload, logArg, setupFiles } from '../common'
import { int, INTERRUPTED, pct, Progress, sliceProgress, table, untilInterrupted, writeJson, type Io } from '../output'
import { parseSplit } from '../split-arg'
import { CH5_POLICIES, findPolicy, FN_LOWER_FIRST, mentionsFn, unknownPolicyMessage } from '../../core/sim/policies'
import type { PolicySpec } from '../../core/sim/types'
import { candidateSetNote, PRESET_IDS, type Candidate, type CampaignSpec, type Objective, type PresetId } from '../../core/tune/campaign'
import { presetCandidates, presetInfo } from '../../core/tune/presets'
import { RESAMPLE_METHODS, type ResampleMethod } from '../../core/tune/resample'
import { baselineName, WAIT_STAGE_TEXT, type Criterion, type EvaluationResult } from '../../core/tune/result'
import { formatDuration, formatThreshold, parseThreshold } from '../../core/util/duration'
import { CellCache, DEFAULT_CACHE_DIR } from '../../engine/cache'
import { evaluate, InsufficientDataError, type RunPhase } from '../../engine/evaluate'
import { defaultVerdictOptions, type VerdictOptions } from '../../core/tune/select'
import { EnginePool, defaultWorkerCount, hashLogFiles } from '../../engine/pool'
import { DEFAULTS } from '../../core/defaults'
import { shown, whyDefaults } from '../defaults-help'
import { whoPaysLines } from '../impact-text'
import { fidelityLines } from '../fidelity-text'
import { MACHINE_FLAGS, MACHINE_HELP, machineInputs } from '../machine-args'
import { MachineInputError } from '../../core/cluster/model'
import { ClusterConfigError } from '../../core/cluster/config'
import { ClusterJobsError } from '../../core/cluster/jobs'
import { COMPAT_FLAGS, compatFlag, compatHelp } from '../compat-arg'
import { easytuneCommand, writeSlurmArray, type SlurmArrayRequest } from '../../backend/slurm-array'
import { ARRAY_SCRIPT, LOGS_DIR, RESULT_FILE, submitSlurmArray, SubmitError } from '../../backend/slurm-array-scripts'
import { ShardPlanError } from '../../engine/shards'
import type { Workload } from '../../core/workload/import'
import { join } from 'node:path'

export const evaluateHelp = `easytune evaluate <log>… [options]

The research's protocol (thesis ch. 5): split the log in time, resample weeks in each part,
simulate EASY under every candidate order and threshold on every week, pick the best on the
training part within your risk limit, and report honestly how it does on the test part.

Protocol:
  --split midpoint|<fraction>|<YYYY-MM-DD>
                           where test starts (default ${shown('split')} of the submit times)
  --weeks N                weeks resampled in each part (default ${shown('weeks')})
  --resample user-weeks|week-shuffle|none
                           user-weeks: each week takes every user's jobs of a random original
                           week; week-shuffle: whole weeks; none: the real weeks once
                           (default ${shown('resample')})
  --seed S                 random seed (default ${shown('seed')}); the same seed gives the same result
${compatHelp(true)}
Candidates:
  --preset slurm|ch5|ch6   slurm: every declared order Slurm runs exactly as evaluated (natively,
                           by job_submit.lua or by a site-factor script), each backfilling in
                           its own order; the list is in docs/POLICIES.md (no F1-F4);
                           ch5, ${presetInfo('ch5').note}: the thesis's 7×7
                           grid of ${CH5_POLICIES.join(', ')} with pure backfill orders,
                           EASY-P-P on the diagonal; exporting one says what is lost;
                           ch6: the 12 single-queue policies (default ${shown('preset')})
  --primaries P,P,...      instead of a preset: these primary orders ...
  --backfills P,...|same   ... combined with these backfill orders (default ${shown('backfill')})
                           (mixed policies: mixed:w1/w2/w3/w4/w5/w6, see easytune policies;
                           a learned function: fn:<expression> in r, n, s, where a LOWER value
                           runs first, see easytune learn --help and docs/LEARN.md)
  --thresholds T,T,...     none and/or positive durations (default ${shown('thresholds')})
Selection:
  --objective avgWait|avgBsld   what to minimise (default ${shown('objective')})
  --max-wait-ratio R|none  risk limit: the longest wait on train at most R× EASY-FCFS's; none
                           lifts it (default ${shown('maxWaitRatio')})
Verdict (docs/STATISTICS.md): switch, keep or insufficient-data
  --min-gain G             smallest train gain that justifies a switch, 5% or 0.05 (default ${fraction('minGain')})
  --confidence C           confidence of every interval, 95% or 0.95 (default ${fraction('confidence')})
  --min-weeks N            fewest real weeks in each part for a verdict (default ${shown('minWeeks')});
                           fewer than ${shown('minFullWeeks')} full weeks in a part: nothing runs (exit 2)
  --criterion ratio-of-means|mean-ratio
                           how gains compare weeks: the ratio of the part's means, or the mean of
                           the weekly ratios (default ${shown('criterion')})
  --tau S                  bounded-slowdown bound in seconds (default ${shown('tau')})
Engine:
  --workers N              worker processes (default ${defaultWorkerCount()}: cores − 1); with --slurm-array,
                           the CPUs of each array task (default ${shown('shardCpus')})
  --cache-dir D            where finished cells are kept (default ${DEFAULT_CACHE_DIR}); a re-run
                           only computes new cells, an interrupted run resumes
  --no-cache               compute everything, keep nothing
${MACHINE_HELP}
  --current-conf FILE      --slurm-conf plus "this is what runs today": the baseline is this
                           configuration as simulated ("current configuration"), every candidate
                           a change to it, and export merges into it without being given it again
  --slurm-search-budget N  with --current-conf under Slurm's scheduling: how many settings
                           points the search of the site's own settings (backfill parameters,
                           PriorityMaxAge, the weights, several at once) evaluates on train before
                           its best change joins the candidates; 0 turns it off (default ${shown('slurmSearch')})
${IMPORT_HELP}
  --json [file]            the full result (docs/RESULT-SCHEMA.md) to stdout, or to the file
Slurm job array (docs/CLI.md, Running on a Slurm cluster):
  --slurm-array DIR        run nothing here: write the campaign's plan into DIR (a folder on a
                           filesystem the cluster's nodes share), with campaign.sbatch (one array
                           task per shard: easytune run-shard) and merge.sbatch (easytune merge,
                           after the array), and print the commands that submit them
  --shards N               how many shards (array tasks) the cells are dealt to
  --submit                 submit both scripts with sbatch now (the merge depends on the array)

Ctrl-C stops cleanly: finished cells stay in the cache and the command exits 130.

${whyDefaults([['split', 'split'], ['weeks', 'weeks'], ['resample', 'resample'], ['seed', 'seed'], ['preset', 'preset'], ['thresholds', 'thresholds'], ['objective', 'objective'], ['max-wait-ratio', 'maxWaitRatio'], ['min-gain', 'minGain'], ['confidence', 'confidence'], ['min-weeks', 'minWeeks'], ['criterion', 'criterion'], ['tau', 'tau'], ['slurm-search-budget', 'slurmSearch'], ['compat', 'compat'], ['overrun', 'overrun'], ['requested-fallback', 'requestedFallback']])}
`

const FLAGS = {
  ...IMPORT_FLAGS, ...COMPAT_FLAGS, split: 'string', weeks: 'string', resample: 'string', seed: 'string', preset: 'string', primaries: 'string',
  backfills: 'string', thresholds: 'string', objective: 'string', 'max-wait-ratio': 'string', 'min-gain': 'string', confidence: 'string', 'min-weeks': 'string', criterion: 'string', tau: 'string', workers: 'string',
  'cache-dir': 'string', 'no-cache': 'boolean', json: 'optional', help: 'boolean', ...MACHINE_FLAGS, 'current-conf': 'string',
  'slurm-array': 'string', shards: 'string', submit: 'boolean', 'slurm-search-budget': 'string',
} as const

export async function evaluateCommand(argv: string[], io: Io): Promise<number> {
  const a = parseArgs(argv, FLAGS)
  if (bool(a, 'help')) { io.out(evaluateHelp); return 0 }
  const log = await logArg(a, 'evaluate', io)
  const path = log.label
  const opts = importOptions(a)
  const machine = machineInputs(a, str(a, 'current-conf'))
  const json = jsonTarget(a)
  const workers = positiveInt(a, 'workers')
  const arrayDir = str(a, 'slurm-array')
  const shards = positiveInt(a, 'shards')
  if (arrayDir === undefined && (shards !== undefined || bool(a, 'submit'))) throw new UsageError('--shards and --submit go with --slurm-array <dir>')
  if (arrayDir !== undefined && shards === undefined) throw new UsageError('--slurm-array needs --shards N: how many array tasks share the cells')
  if (arrayDir !== undefined && json) throw new UsageError('--slurm-array runs nothing here, so there is no result yet: give --json to easytune merge')
  const ratioText = str(a, 'max-wait-ratio')
  const ratio = ratioText !== undefined && ratioText.trim().toLowerCase() === 'none' ? null : positiveNumber(a, 'max-wait-ratio') ?? DEFAULTS.maxWaitRatio.value
  const verdict: VerdictOptions = {
    ...defaultVerdictOptions({ maxWaitRatio: ratio }),
    minGain: fractionArg(a, 'min-gain', 0, 1) ?? DEFAULTS.minGain.value,
    confidence: fractionArg(a, 'confidence', 0.5, 0.999) ?? DEFAULTS.confidence.value,
    minWeeks: positiveInt(a, 'min-weeks') ?? DEFAULTS.minWeeks.value,
    criterion: oneOf<Criterion>(a, 'criterion', ['ratio-of-means', 'mean-ratio']) ?? DEFAULTS.criterion.value,
  }
  const ths = thresholds(a)
  const preset = presetArg(a)
  const partial = {
    candidates: candidates(a, ths),
    ...(preset ? { preset } : {}),
    thresholds: ths,
    resample: { method: oneOf<ResampleMethod>(a, 'resample', RESAMPLE_METHODS) ?? DEFAULTS.resample.value, weeks: positiveInt(a, 'weeks') ?? DEFAULTS.weeks.value, seed: wholeNumber(a, 'seed') ?? DEFAULTS.seed.value },
    objective: oneOf<Objective>(a, 'objective', ['avgWait', 'avgBsld']) ?? DEFAULTS.objective.value,
    tau: positiveNumber(a, 'tau') ?? DEFAULTS.tau.value,
    compat: compatFlag(a),
    ...(searchBudget(a) === undefined ? {} : { slurmSearch: { budget: searchBudget(a)! } }),
  }

  const w = await loadWorkload(io, log, opts)
  const spec: CampaignSpec = { ...partial, split: parseSplit(str(a, 'split') ?? shown('split'), w.unixStartTime, w.jobs.count ? { first: w.jobs.submit[0], last: w.jobs.submit[w.jobs.count - 1] } : undefined) }
  if (arrayDir !== undefined) {
    const files = setupFiles(log)
    return slurmArray(io, path, { dir: arrayDir, shards: shards!, workers: workers ?? DEFAULTS.shardCpus.value, command: easytuneCommand(), evaluate: { ...files, importOptions: opts, spec, verdict, machine } }, w, bool(a, 'submit'))
  }
  const pool = new EnginePool({ workers })
  const cache = bool(a, 'no-cache') ? undefined : new CellCache(str(a, 'cache-dir') ?? DEFAULT_CACHE_DIR)
  const progress = new Progress(io, 0)
  const show = sliceProgress(io, progress)
  const t0 = performance.now()
  const runs: { phase: RunPhase; cells: number; cached: number }[] = []
  const files = setupFiles(log)
  let evaluated
  try {
    evaluated = await untilInterrupted(io, progress, async (signal) => {
      const sha = await hashLogFiles(files.logPaths ?? [files.logPath])
      // The search of the site's Slurm settings (with --current-conf: a few small runs), the
      // campaign's cells, then (a last run) the recommendation's as deployed on Slurm.
      return evaluate({ ...files, importOptions: opts, spec, verdict, machine }, (setup, cells, phase = 'campaign') => {
        runs.push({ phase, cells: cells.length, cached: 0 })
        const searchRun = runs.filter((r) => r.phase === 'search').length
        const label = phase === 'search' ? `searching Slurm settings (batch ${searchRun})` : phase === 'deployed' ? 'as deployed' : 'simulating'
        return pool.run(setup, cells, {
          signal, cache, workloadHash: sha,
          onProgress: (p) => {
            runs[runs.length - 1].cached = p.cachedCells
            // A bar on a terminal, a line every few seconds on a pipe (a batch job's output file).
            show(label, p.cellsTotal ? p.cellsDone / p.cellsTotal : null, () => {
              const eta = p.etaSeconds === null ? '' : `, ${formatDuration(p.etaSeconds)} left`
              return `${int(p.cellsDone)}/${int(p.cellsTotal)} cells${p.cachedCells ? ` (${int(p.cachedCells)} cached)` : ''}${eta}`
            })
          },
          onWorkerCrash: (c) => { progress.done(); io.err(`warning: ${c.message}\n`) },
          onWarning: (m) => { progress.done(); io.err(`warning: ${m}\n`) },
        })
      }, sha, w, pool.side({ signal, onWorkerCrash: (c) => { progress.done(); io.err(`warning: ${c.message}\n`) } }),
      (stage) => progress.update(stage === 'fidelity' ? 'fidelity' : 'impact', null, WAIT_STAGE_TEXT[stage]))
    }, 'interrupted: finished cells are kept in the cache; run the same command again to resume.')
  } catch (e) {
    if (e instanceof InsufficientDataError || e instanceof MachineInputError || e instanceof ClusterConfigError || e instanceof ClusterJobsError) {
      io.err(`${path}: ${e.message}\n`)
      return 2
    }
    throw e
  }
  if (evaluated === INTERRUPTED) return 130
  const { result } = evaluated
  const seconds = (performance.now() - t0) / 1000
  const campaign = runs.find((r) => r.phase === 'campaign')
  const deployed = runs.find((r) => r.phase === 'deployed')
  const searched = runs.filter((r) => r.phase === 'search')
  const asDeployed = deployed ? `, and the recommendation as deployed on Slurm: ${int(deployed.cells)} cells (${int(deployed.cached)} from the cache)` : ''
  const search = result.protocol.slurmSearch
  const searchText = search ? `, after searching the site's Slurm settings: ${int(search.evaluations)} points, ${int(searched.reduce((a, r) => a + r.cells, 0))} cells (${int(searched.reduce((a, r) => a + r.cached, 0))} from the cache)` : ''
  io.err(`evaluated ${int(result.protocol.cells)} cells (${int(campaign?.cached ?? 0)} from the cache)${searchText}${asDeployed} on ${pool.workers} worker${pool.workers === 1 ? '' : 's'} in ${seconds.toFixed(1)} s\n`)
  if (json) writeJson(io, json, { ...result, citation: citation(w) })
  if (!json || json.file !== null) io.out(formatEvaluation(result, citation(w)))
  return 0
}

/** evaluate --slurm-array: writes the plan folder, prints the commands (or submits them). */
async function slurmArray(io: Io, path: string, req: SlurmArrayRequest, w: Workload, submit: boolean): Promise<number> {
  let folder
  try {
    folder = await writeSlurmArray(req, w)
  } catch (e) {
    if (e instanceof ShardPlanError) {
      io.err(`${e.message}\n`)
      return 2
    }
    if (e instanceof InsufficientDataError || e instanceof MachineInputError || e instanceof ClusterConfigError || e instanceof ClusterJobsError) {
      io.err(`${path}: ${e.message}\n`)
      return 2
    }
    throw e
  }
  const { plan } = folder
  const r = plan.resources
  io.out(`Wrote the plan of ${int(plan.cells.length)} cells in ${plan.shards} shard${plan.shards === 1 ? '' : 's'} into ${folder.dir}:\n`)
  for (const f of folder.files) io.out(`  ${f}\n`)
  io.out(`Each array task: ${r.cpusPerTask} CPU${r.cpusPerTask === 1 ? '' : 's'}, ${r.memMB} MB, ${r.timeMinutes} min (estimates: edit the #SBATCH lines if your nodes are slower).\n`)
  if (folder.note) io.out(`Note: ${folder.note} (the merged result equals a local run with --slurm-search-budget 0).\n`)
  if (!submit) {
    io.out(`\nSubmit the array, then the merge after it (on a login node of the cluster):\n${folder.submit.map((c) => `  ${c}\n`).join('')}`)
    io.out(`\nThe result: ${join(folder.dir, RESULT_FILE)} and ${join(folder.dir, LOGS_DIR, 'merge.out')}. A failed shard i re-runs alone: sbatch --array=i ${join(folder.dir, ARRAY_SCRIPT)}\n`)
    return 0
  }
  try {
    const ids = await submitSlurmArray(folder.dir)
    io.out(`\nSubmitted: array job ${ids.arrayJob} (${plan.shards} task${plan.shards === 1 ? '' : 's'}), merge job ${ids.mergeJob} after it (afterok). The result: ${join(folder.dir, RESULT_FILE)}.\n`)
    return 0
  } catch (e) {
    if (!(e instanceof SubmitError)) throw e
    io.err(`${e.message}\nThe plan folder is written; submit it by hand:\n${folder.submit.map((c) => `  ${c}\n`).join('')}`)
    return 1
  }
}

/** A fraction given as 5% or 0.05, within [lo, hi]. */
export function parseFraction(text: string, flag: string, lo: number, hi: number): number {
  const t = text.trim()
  const m = /^(-?[0-9]*\.?[0-9]+(?:e-?[0-9]+)?)\s*(%?)$/i.exec(t)
  const v = m ? Number(m[1]) / (m[2] ? 100 : 1) : NaN
  if (!Number.isFinite(v) || v < lo || v > hi) throw new UsageError(`--${flag} must be a fraction between ${lo} and ${hi} (e.g. ${lo === 0 ? '5% or 0.05' : '95% or 0.95'}), got "${text}"`)
  return v
}

function fractionArg(a: ParsedArgs, flag: string, lo: number, hi: number): number | undefined {
  const v = str(a, flag)
  return v === undefined ? undefined : parseFraction(v, flag, lo, hi)
}

/** A fraction default shown as a percentage. */
function fraction(key: 'minGain' | 'confidence'): string {
  return `${Math.round(DEFAULTS[key].value * 1000) / 10}%`
}

function policyList(text: string, flag: string, allowSame: boolean): (PolicySpec | 'same')[] {
  return text.split(',').map((s) => s.trim()).filter(Boolean).map((s): PolicySpec | 'same' => {
    if (allowSame && s.toLowerCase() === 'same') return 'same'
    const m = /^mixed:(.*)$/i.exec(s)
    if (m) {
      const weights = m[1].split('/').map(Number)
      if (weights.length !== 6 || weights.some((x) => !Number.isFinite(x))) throw new UsageError(`--${flag}: a mixed policy is mixed:w1/w2/w3/w4/w5/w6 with 6 numbers, got "${s}"`)
      return { kind: 'mixed', weights }
    }
    const p = findPolicy(s)
    if (!p) throw new UsageError(`--${flag}: ${unknownPolicyMessage(s)}${allowSame ? ', same' : ''}`)
    return p.id
  })
}

/** The preset the candidates come from: the one given, the default without --primaries, else none. */
function presetArg(a: ParsedArgs): PresetId | undefined {
  return oneOf(a, 'preset', PRESET_IDS) ?? (str(a, 'primaries') ? undefined : DEFAULTS.preset.value)
}

function candidates(a: ParsedArgs, ths: (number | null)[]): Candidate[] {
  const preset = oneOf(a, 'preset', PRESET_IDS)
  const primaries = str(a, 'primaries')
  if (preset && (primaries || str(a, 'backfills'))) throw new UsageError('give either --preset or --primaries/--backfills, not both')
  if (!primaries) {
    if (str(a, 'backfills')) throw new UsageError('--backfills needs --primaries')
    return presetCandidates(preset ?? DEFAULTS.preset.value, ths)
  }
  const ps = policyList(primaries, 'primaries', false) as PolicySpec[]
  const bs = policyList(str(a, 'backfills') ?? DEFAULTS.backfill.value, 'backfills', true)
  if (ps.length === 0) throw new UsageError('--primaries lists no policy')
  return ps.flatMap((primary) => bs.map((backfill) => ({ primary, backfill })))
}

function thresholds(a: ParsedArgs): (number | null)[] {
  const t = str(a, 'thresholds')
  if (t === undefined) return [...DEFAULTS.thresholds.value]
  const list = t.split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
    try { return parseThreshold(s) } catch (e) { throw new UsageError(`--thresholds: ${(e as Error).message}`) }
  })
  if (list.length === 0) throw new UsageError('--thresholds lists no threshold')
  return [...new Set(list)]
}

export function formatEvaluation(r: EvaluationResult, cite: string | null): string {
  const p = r.protocol
  const lines: string[] = []
  lines.push(r.machine.kind === 'pool' ? `${r.log.name}: ${int(r.log.jobsKept)} jobs on ${int(r.log.machineProcs)} processors` : `${r.log.name}: ${int(r.log.jobsKept)} jobs on ${r.machine.description}; scheduling: ${r.machine.scheduler === 'slurm' ? 'Slurm\'s (priority, main scheduler, backfill cycle)' : 'EASY with each candidate order'}`)
  for (const n of r.machine.notes) lines.push(`  ${n}`)
  lines.push(`Split at ${p.split.atIso ? p.split.atIso.slice(0, 10) : formatDuration(p.split.at)}: train ${int(p.split.train.jobs)} jobs (${formatDuration(p.split.train.seconds)}, load ${pct(p.split.train.load)}), test ${int(p.split.test.jobs)} jobs (${formatDuration(p.split.test.seconds)}, load ${pct(p.split.test.load)})`)
  lines.push(`Weeks: ${p.resample.method}, ${int(p.resample.trainSamples)} train and ${int(p.resample.testSamples)} test samples from ${p.resample.trainOriginalWeeks} and ${p.resample.testOriginalWeeks} original weeks, seed ${p.resample.seed}; objective ${p.objective}${p.risk.maxWaitRatio === null ? '; no risk limit' : `; risk limit: longest wait ≤ ${p.risk.maxWaitRatio}× EASY-FCFS`}; switch needs a train gain ≥ ${pct(p.minGain)} with its ${Math.round(p.confidence * 100)}% interval above 0`)
  const note = candidateSetNote(p.candidates)
  if (note) lines.push(`Candidates: ${p.preset ? `preset ${p.preset}, ` : ''}${int(p.candidates.length)} orders (${note}; exporting one says what is lost)`)
  if (p.candidates.some((c) => mentionsFn(c.primary) || mentionsFn(c.backfill))) lines.push(`Candidates: ${FN_LOWER_FIRST}`)
  if (p.compat === 'ocst') lines.push('Compatibility: ocst (the seeds\' simulator\'s shadow-time rule; first and last partial weeks of each part dropped)')
  lines.push('')
  const rec = r.recommendation
  lines.push(`Verdict: ${rec.verdict}. ${rec.sentence}`)
  if (rec.equivalent.length) lines.push(`Equivalent (as good on train, harder to deploy): ${rec.equivalent.map((i) => r.candidates[i].label).join(', ')}.`)
  const best = r.candidates[r.bestOnTest]
  if (r.recommended !== undefined && r.bestOnTest !== r.recommended) lines.push(`In hindsight, the best on test was ${best.label} (test gain ${pct(best.test.gain)}): the gap between choosing on train and knowing the future.`)
  lines.push('')
  const conf = `${Math.round(p.confidence * 100)}%`
  const limited = p.risk.maxWaitRatio !== null
  const rows = [['candidate', 'train gain (real weeks)', `${conf} interval`, 'test gain', `${conf} interval`, 'longest wait vs FCFS (train)', 'p99 wait vs FCFS', ...(limited ? ['in limit'] : [])]]
  const show = r.ranking.slice(0, 10)
  if (!show.includes(0)) show.push(0)
  const baseP99 = r.candidates[0].train.maxP99Wait
  for (const i of show) {
    const c = r.candidates[i]
    const tr = c.train.real, te = c.test.real
    const p99 = c.train.maxP99Wait !== null && baseP99 ? `${(c.train.maxP99Wait / baseP99).toFixed(2)}× (${formatDuration(c.train.maxP99Wait)})` : 'n/a'
    rows.push([`${i === r.recommended ? '* ' : '  '}${c.label}`, pct(tr.gain), `${pct(tr.ci[0])} to ${pct(tr.ci[1])}`, pct(te.gain), `${pct(te.ci[0])} to ${pct(te.ci[1])}`,
      `${c.train.maxMaxWaitRatio.toFixed(2)}× (${formatDuration(c.train.maxMaxWait)})`, p99, ...(limited ? [c.admissible ? 'yes' : 'no'] : [])])
  }
  lines.push(`Top ${show.length} of ${r.candidates.length} by train ${p.objective} over the resampled weeks (the thesis's ranking); gains and intervals on the real weeks (${p.statistics ? `${p.statistics.trainWeeks} train, ${p.statistics.testWeeks} test` : 'version-1 result: resampled weeks'}), ${p.criterion}; * = recommended:`)
  lines.push(table(rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r', ...(limited ? ['l' as const] : [])]).trimEnd())
  const dep = r.recommendation.asDeployed
  if (r.recommendation.asDeployedNote) lines.push(`As deployed on Slurm: ${r.recommendation.asDeployedNote}.`)
  if (dep && !dep.same) lines.push(`As deployed on Slurm (the exported configuration simulated under Slurm's scheduling): ${dep.label} ${pct(dep.train.real.gain)} on train (${conf} interval ${pct(dep.train.real.ci[0])} to ${pct(dep.train.real.ci[1])}), ${pct(dep.test.real.gain)} on test${dep.differs ? ' — outside the idealised interval; the verdict uses this figure' : ''}.`)
  lines.push(`${baselineName(r.machine)} baseline: ${p.objective === 'avgWait' ? `${formatDuration(r.candidates[0].train.mean)} average wait on train, ${formatDuration(r.candidates[0].test.mean)} on test` : `${r.candidates[0].train.mean.toFixed(2)} average bounded slowdown on train, ${r.candidates[0].test.mean.toFixed(2)} on test`}.`)
  lines.push(...whoPaysLines(r.recommendation.impact, p.risk.maxWaitRatio, baselineName(r.machine)))
  if (r.calibration) lines.push('', ...fidelityLines(r.calibration))
  lines.push('', `Thresholds tried: ${p.thresholds.map(formatThreshold).join(', ')}.`)
  if (cite) lines.push('', `Data: ${cite}`)
  return lines.join('\n') + '\n'
}

/** --slurm-search-budget: a whole number from 0 (off) to 10,000; absent = the default. */
function searchBudget(a: ParsedArgs): number | undefined {
  if (str(a, 'slurm-search-budget') === undefined) return undefined
  const n = wholeNumber(a, 'slurm-search-budget')
  if (n === undefined || n > 10_000) throw new UsageError('--slurm-search-budget takes a whole number from 0 (no search) to 10000')
  return n
}
