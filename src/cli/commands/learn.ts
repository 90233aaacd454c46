// `easytune learn <log>`: learn the site's own priority function by the SC'17 method (docs/LEARN.md
// §Command line): the trials on the engine pool (src/engine/learn.ts), then the regression over the
// family ℱ (src/core/learn/regression.ts), fitted in slices so that Ctrl-C stops it too.
import { bool, jsonTarget, parseArgs, positiveInt, positiveNumber, str, UsageError, wholeNumber } from '../args'
import { FN_GRAMMAR } from '../../core/sim/fn'
import { IMPORT_FLAGS, IMPORT_HELP, importOptions, logArg, setupFiles } from '../common'
import { int, INTERRUPTED, num, Progress, table, untilInterrupted, writeJson, type Io } from '../output'
import { DEFAULTS } from '../../core/defaults'
import { FAMILY } from '../../core/learn/family'
import { learnJson, type LearnDocument } from '../../core/learn/report'
import type { TrialsConfig } from '../../core/learn/types'
import { formatDuration } from '../../core/util/duration'
import { DEFAULT_CACHE_DIR } from '../../engine/cache'
import { LearnCache, learnRegressionOnPool, learnTrialsOnPool } from '../../engine/learn'
import { defaultWorkerCount, EnginePool } from '../../engine/pool'

/** The trials' budget when no flag is given (docs/LEARN.md §Command line). */
const LEARN_DEFAULTS: TrialsConfig = DEFAULTS.learnTrials.value

/** How many learned functions the text lists (the JSON has all). */
const SHOWN = 10

export const learnHelp = `easytune learn <log>… [options]

Learns this site's own priority function by the SC'17 method (docs/LEARN.md): draws task sets S
(${LEARN_DEFAULTS.sizeS} tasks started first) and Q (${LEARN_DEFAULTS.sizeQ} tasks) from the training part of the log, simulates
random orders of Q under EASY on the log's machine, scores each task by the average bounded slowdown
of the orders that start with it (eq. 3), then fits the ${FAMILY.length} distinct members of the family ℱ
(α, β, γ ∈ {id, log10, sqrt, inv} of r, n, s; two operators among + · ÷) by weighted least squares
(weight r·n, eq. 4) and ranks them by their mean absolute error (eq. 5).

A learned function f is a queue order where a LOWER value runs first: use it as
  easytune simulate <log> --primary 'fn:<expression>'
with the expression printed here. The grammar accepted after fn: (nothing else is):
${FN_GRAMMAR}

Options:
  --trials N               ceiling of trials per (S, Q) tuple (default ${int(LEARN_DEFAULTS.trials)}, the paper's); a tuple
                           stops earlier when the normalised std of its scores falls below ${LEARN_DEFAULTS.stopAt}
  --tuples K               number of (S, Q) tuples pooled (default ${LEARN_DEFAULTS.tuples})
  --seed S                 seed of the tuples and permutations (default ${LEARN_DEFAULTS.seed})
  --tau S                  bound of the bounded slowdown in seconds (default ${LEARN_DEFAULTS.tau})
  --workers N              worker processes (default ${defaultWorkerCount()}: cores − 1); the result is the same
                           for any number
  --cache-dir D            where finished tuples, and a checkpoint of running ones, are kept (default
                           ${DEFAULT_CACHE_DIR}); a re-run or a larger --tuples only computes what is missing
  --no-cache               compute everything, keep nothing
${IMPORT_HELP}
  --json [file]            print the result as JSON (to stdout, or to the file)

Ctrl-C stops cleanly: finished tuples and a checkpoint of the running ones (at most a second old)
stay in the cache and the command exits 130; the same command resumes them, with the same result.

Why these defaults:
  --trials ${LEARN_DEFAULTS.trials} --tuples ${LEARN_DEFAULTS.tuples}
                           ${DEFAULTS.learnTrials.why}
`

export async function learnCommand(argv: string[], io: Io): Promise<number> {
  const a = parseArgs(argv, {
    ...IMPORT_FLAGS, trials: 'string', tuples: 'string', seed: 'string', tau: 'string',
    workers: 'string', 'cache-dir': 'string', 'no-cache': 'boolean', json: 'optional', help: 'boolean',
  })
  if (bool(a, 'help')) { io.out(learnHelp); return 0 }
  const log = await logArg(a, 'learn', io)
  const trials = positiveInt(a, 'trials') ?? LEARN_DEFAULTS.trials
  const tuples = positiveInt(a, 'tuples') ?? LEARN_DEFAULTS.tuples
  if (trials > 1e9) throw new UsageError(`--trials must be at most 1,000,000,000, got ${trials}`)
  if (tuples > 1e6) throw new UsageError(`--tuples must be at most 1,000,000, got ${tuples}`)
  const config: TrialsConfig = { ...LEARN_DEFAULTS, trials, tuples, seed: wholeNumber(a, 'seed') ?? LEARN_DEFAULTS.seed, tau: positiveNumber(a, 'tau') ?? LEARN_DEFAULTS.tau }
  const json = jsonTarget(a)
  const imports = importOptions(a)
  const pool = new EnginePool({ workers: positiveInt(a, 'workers') })
  const cache = bool(a, 'no-cache') ? undefined : new LearnCache(str(a, 'cache-dir') ?? DEFAULT_CACHE_DIR)
  io.err(`learn: ${int(tuples)} tuple${tuples === 1 ? '' : 's'} of ${config.sizeS} + ${config.sizeQ} tasks, up to ${int(trials)} trials each, on ${pool.workers} worker${pool.workers === 1 ? '' : 's'}\n`)

  const progress = new Progress(io)
  const t0 = performance.now()
  let tenthsReported = 0
  const run = await untilInterrupted(io, progress, async (signal) => {
    const trialsRun = await learnTrialsOnPool(pool, {
      setup: { ...setupFiles(log), importOptions: imports, split: DEFAULTS.split.value, resample: { method: DEFAULTS.resample.value, weeks: 1, seed: config.seed }, tau: config.tau },
    }, config, {
      signal, cache,
      onProgress: (p) => {
        const rate = p.trialsPerSecond !== null ? ` ${int(p.trialsPerSecond)} trials/s` : ''
        const eta = p.etaSeconds !== null && p.etaSeconds > 0 ? ` ETA ≤ ${formatDuration(p.etaSeconds)}` : ''
        progress.update('trials', p.fraction, `${int(p.tuplesDone)}/${int(p.tuplesTotal)} tuples${p.cachedTuples ? ` (${int(p.cachedTuples)} cached)` : ''}${rate}${eta}`)
        // Off a terminal (a log file, a batch job) one line per tenth of the tuples.
        const tenth = Math.floor((10 * p.tuplesDone) / p.tuplesTotal)
        if (!io.tty && tenth > tenthsReported && p.tuplesDone < p.tuplesTotal) {
          tenthsReported = tenth
          io.err(`${int(p.tuplesDone)}/${int(p.tuplesTotal)} tuples, ${int(p.trials)} trials after ${formatDuration((performance.now() - t0) / 1000)}${rate ? `,${rate}` : ''}${eta}\n`)
        }
      },
      onWorkerCrash: (c) => { progress.done(); io.err(`warning: ${c.message}\n`) },
      onWarning: (m) => { progress.done(); io.err(`warning: ${m}\n`) },
    })
    const trialSeconds = (performance.now() - t0) / 1000
    // The regression on the workers too, slice by slice of ℱ (Ctrl-C stops them).
    const regression = await learnRegressionOnPool(pool, trialsRun.result.samples, {
      signal,
      onProgress: (fitted, total) => progress.update('regression', fitted / total, `${fitted}/${total} functions`),
      onWorkerCrash: (c) => { progress.done(); io.err(`warning: ${c.message}\n`) },
    })
    return { ...trialsRun, trialSeconds, regression }
  }, 'interrupted: finished tuples and a checkpoint of the running ones are kept in the cache; run the same command again to resume.')
  if (run === INTERRUPTED) return 130
  const seconds = (performance.now() - t0) / 1000
  io.err(`simulated ${int(run.result.trials)} trials in all (${int(run.computedTuples)} tuple${run.computedTuples === 1 ? '' : 's'} computed${run.resumedTuples ? `, ${int(run.resumedTuples)} of them continued from a checkpoint` : ''}, ${int(run.cachedTuples)} from the cache) in ${run.trialSeconds.toFixed(1)} s; fitted ${FAMILY.length} functions in ${(seconds - run.trialSeconds).toFixed(1)} s\n`)

  const result = learnJson(log.label, config, run.result, run.regression)
  if (json) writeJson(io, json, result)
  if (!json || json.file !== null) io.out(formatLearn(result))
  if (result.functions.length === 0) { io.err('easytune: no function of ℱ could be fitted to these samples.\n'); return 1 }
  return 0
}

export { learnJson, LEARN_SCHEMA_VERSION } from '../../core/learn/report'

export function formatLearn(r: LearnDocument): string {
  const last = r.convergence.at(-1)
  const lines = [
    `${r.log}: ${int(r.trainingJobs)} training jobs, ${int(r.machineProcs)} processors`,
    `${int(r.trials)} trials in all over ${int(r.tuples.length)} tuples (${int(r.tuples.filter((t) => t.stoppedEarly).length)} stopped early at a normalised std below ${r.options.stopAt})${last && last.normStd !== null ? `; pooled normalised std ${num(last.normStd, 4)}` : ''}`,
    `${int(r.regression.samples)} task samples${r.regression.dropped ? ` (${int(r.regression.dropped)} dropped)` : ''}; ${int(r.functions.length)} of the ${r.regression.family} functions of ℱ fitted${r.regression.undefinedForms.length ? `, ${r.regression.undefinedForms.length} undefined on these tasks` : ''}`,
    '',
    `The best learned functions (eq. 5 error: mean |f − score|, the mean score is ${num(1 / r.options.sizeQ, 4)}). A LOWER value runs first:`,
    table([['#', 'fn:expression', 'error', 'form'], ...r.functions.slice(0, SHOWN).map((f) => [
      String(f.position), f.expression, f.rank.toPrecision(4), `${f.form}${f.sameFormAs ? ` (the form of ${f.sameFormAs}; coefficient learned here)` : ''}`,
    ])], ['r', 'l', 'r', 'l']).trimEnd(),
    '',
    r.functions.length > 0 ? `Try the best: easytune simulate <log> --primary 'fn:${r.functions[0].expression}'` : 'No function could be fitted.',
    '',
  ]
  return lines.join('\n')
}
