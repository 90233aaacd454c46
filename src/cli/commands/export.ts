// `easytune export <result.json> --target slurm|pbs --out <dir>`: turns the recommendation of an
// evaluation into the batch system's configuration, with each item's fidelity and the known gaps.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { bool, jsonTarget, oneOf, parseArgs, positiveInt, str, thresholdFlag, UsageError, type ParsedArgs } from '../args'
import { IMPORT_FLAGS, IMPORT_HELP, importOptions, loadWorkload, logArg } from '../common'
import { INTERRUPTED, int, Progress, SLICE_CHECK_EVERY, SLICE_MS, sliceProgress, table, untilInterrupted, writeJson, type Io } from '../output'
import { checkSlurmVersion, DEFAULT_SLURM_VERSION, EXPORT_TARGETS, ExportInputError, exportConfig, exportPredictedOrder } from '../../core/export/index'
import { DEFAULTS } from '../../core/defaults'
import { lostParts } from '../../core/export/lost'
import { fidelityLines } from '../../core/export/predicted'
import { FIDELITY_REPLAYS, fidelityFrom, fidelityOf, fidelitySimulator, type PredictedOrderFidelity } from '../../core/export/predicted-fidelity'
import { DEFAULT_TAU } from '../../core/sim/metrics'
import type { Workload } from '../../core/workload/import'
import { MAX_CONF_CHARS, SlurmConfError } from '../../core/export/slurm-conf'
import type { EvaluationResult } from '../../core/tune/result'
import type { ExportBundle, ExportTarget } from '../../shared/api'
import { NotRegularFileError, readRegularFileSync, statRegularFileSync } from '../../node/regular-file'

/** 2: changes[], notes[], approximate; a keep verdict writes no file. */
export const EXPORT_SCHEMA_VERSION = 2

export const exportHelp = `easytune export <result.json> --target slurm|pbs --out <dir> [--current-conf slurm.conf] [options]

Writes the configuration that puts the recommended queue order of an evaluation
(easytune evaluate --json result.json) into your batch system, and says how faithfully each
part can be expressed there: native, job_submit.lua, site factor, or not exportable.

Options:
  --target slurm|pbs       slurm: slurm.conf fragment, job_submit.lua and a site-factor script
                           when the order needs them; pbs: job_sort_formula, strict_ordering,
                           backfill_depth=1 (PBS Professional / OpenPBS)
  --slurm-version V        the Slurm version the fragment is written for (default ${DEFAULT_SLURM_VERSION})
  --current-conf FILE      your slurm.conf: writes the WHOLE merged slurm.conf instead of a fragment,
                           keeping every setting the order does not need (fair-share, QOS,
                           association weights, PriorityDecayHalfLife, other SchedulerParameters
                           entries, nodes, partitions), and lists every change with why.
                           Include lines are kept but not read: check the included files by hand.
                           Without it, the fragment's first lines list the site policies it overrides.
  --out DIR                folder for the files (created if missing; files there are replaced)
  --json [file]            print the bundle (files, fidelity, gaps, changes) as JSON (to stdout, or to the file)

Every target also gets easytune-recommendation.json, the recommendation for other tools.

easytune export <log> --predicted-order --out <dir> [--current-conf slurm.conf] [options]

Orders Slurm's queue by PREDICTED runtime (AVE2: the mean runtime of the user's last two jobs,
at most the time limit), shortest first, through the site factor; reservations and backfill stay
on the time limits, as Slurm plans on them. Writes job_submit.lua, easytune-predicted-order.sh
(run as root every minute: reads sacct, sets each pending job's SiteFactor), the slurm.conf
settings (merged into --current-conf, keeping fair-share and QOS), a README and
easytune-predicted-order.json. The log is replayed to state the fidelity (progress on stderr):
average wait and bounded slowdown of EASY-FCFS today, of the exported order, and of the thesis's
planning with predictions (what is lost because Slurm plans on time limits).
  --predicted-order        the positional argument is a job log (several files or a folder: one log)
  --threshold T            jobs that waited longer than T (e.g. 20h, 72000) run first, oldest first,
                           against the starvation of long jobs (default none)
  --history-days N         days of sacct history the script reads (default ${DEFAULTS.predictedOrderHistoryDays.value}; ${DEFAULTS.predictedOrderHistoryDays.why})
${IMPORT_HELP}

A candidate the target cannot run as it was evaluated (a separate backfill order, as in the
research grid --preset ch5) is still exported, but never silently: what is lost is printed on
stderr, listed in the JSON's "lost" and first among its gaps, and opens each generated file.
A queue order that cannot be expressed at all (F1-F4) writes no file (exit 1).
A result whose verdict is keep exports nothing (exit 0, no change); insufficient-data exits 2.
`

export async function exportCommand(argv: string[], io: Io): Promise<number> {
  const a = parseArgs(argv, { target: 'string', 'slurm-version': 'string', 'current-conf': 'string', out: 'string', json: 'optional', help: 'boolean', 'predicted-order': 'boolean', 'history-days': 'string', threshold: 'string', ...IMPORT_FLAGS })
  if (bool(a, 'help')) { io.out(exportHelp); return 0 }
  if (bool(a, 'predicted-order')) return exportPredicted(a, io)
  for (const f of ['history-days', 'threshold', ...Object.keys(IMPORT_FLAGS)]) if (a.flags.has(f)) throw new UsageError(`--${f} only applies with --predicted-order`)
  if (a.positionals.length !== 1) throw new UsageError('export needs one result file: easytune export <result.json> --target slurm|pbs --out <dir>')
  const path = a.positionals[0]
  const target = oneOf<ExportTarget>(a, 'target', EXPORT_TARGETS)
  if (!target) throw new UsageError('--target is required: slurm or pbs')
  const out = str(a, 'out')
  if (!out) throw new UsageError('--out <dir> is required: the folder to write the files into')
  const version = str(a, 'slurm-version')
  if (version !== undefined) {
    if (target !== 'slurm') throw new UsageError('--slurm-version only applies to --target slurm')
    try { checkSlurmVersion(version) } catch (e) { throw new UsageError(`--slurm-version: ${(e as Error).message}`) }
  }
  const json = jsonTarget(a)
  const confPath = str(a, 'current-conf')
  if (confPath !== undefined && target !== 'slurm') throw new UsageError('--current-conf only applies to --target slurm')
  const currentConf = readCurrentConf(confPath, io)
  if (currentConf === null) return 2

  let result: unknown
  try {
    result = JSON.parse(readRegularFileSync(path))
  } catch (e) {
    const err = e as NodeJS.ErrnoException
    io.err(`easytune: ${path}: ${e instanceof NotRegularFileError ? e.reason : err.code ? err.message : `not a JSON file (${err.message})`}\n`)
    return 2
  }
  let bundle: ExportBundle
  try {
    bundle = exportConfig(result as EvaluationResult, target, { slurmVersion: version, currentConf })
  } catch (e) {
    if (!(e instanceof ExportInputError)) throw e
    io.err(e instanceof SlurmConfError ? `easytune: ${confPath}: ${e.message}\n` : `easytune: ${path}: cannot export this result: ${e.message}\n`)
    return 2
  }
  const document = (files: { name: string; path: string; description: string }[]) => ({
    schemaVersion: EXPORT_SCHEMA_VERSION, target, out, files, items: bundle.items, gaps: bundle.gaps,
    changes: bundle.changes ?? [], notes: bundle.notes ?? [], approximate: bundle.approximate ?? null,
  })
  if (bundle.files.length === 0) { // a keep verdict: nothing to write
    if (json) writeJson(io, json, { ...document([]), lost: [] })
    if (!json || json.file !== null) io.out(`${(bundle.notes ?? []).join('\n')}\nNo file written to ${out}.\n`)
    return 0
  }
  const order = bundle.items[0]
  const lost = bundle.lost ?? lostParts(bundle.items)
  if (order.fidelity === 'not exportable') {
    io.err(`easytune export: the recommended ${order.feature} cannot be expressed in ${target}: ${order.note}. No file written.\n`)
    io.err(formatLost(lost, false))
    io.err(formatBundle(bundle, null))
    return 1
  }
  // Written anyway (exit 0), but never without saying what is lost.
  if (lost.length) io.err(formatLost(lost, true))
  const written = writeBundle(bundle, out)
  if (json) writeJson(io, json, { ...document(written), lost })
  if (!json || json.file !== null) io.out(formatBundle(bundle, out, currentConf !== undefined))
  return 0
}

/** What the export does not run as evaluated, for stderr (nothing when nothing is lost). */
function formatLost(lost: string[], written: boolean): string {
  if (lost.length === 0) return ''
  const head = written
    ? 'easytune export: warning: this export does NOT run the evaluated candidate as it was simulated. Lost:'
    : 'Not exportable as evaluated:'
  return [head, ...lost.map((l) => `  - ${l}`), ''].join('\n')
}

function formatBundle(b: ExportBundle, out: string | null, merged = false): string {
  const lines: string[] = []
  if (out !== null) {
    lines.push(`Wrote ${b.files.length} files to ${out}:`)
    lines.push(table(b.files.map((f) => [`  ${f.name}`, f.description])).trimEnd(), '')
  }
  lines.push('What is exported, and how faithfully:')
  lines.push(table([['  item', 'fidelity', 'note'], ...b.items.map((i) => [`  ${i.feature}`, i.fidelity, i.note])]).trimEnd(), '')
  lines.push(`Known gaps between ${b.target === 'slurm' ? 'Slurm' : 'PBS'} and the simulated EASY:`)
  for (const g of b.gaps) lines.push(`  - ${g}`)
  if (b.approximate) lines.push('', `Fidelity: ${b.approximate}`)
  if (b.changes?.length) {
    lines.push('', merged ? 'Settings changed (from → to: why):' : 'Settings the fragment sets (your current values are unknown without --current-conf):')
    for (const c of b.changes) lines.push(`  - ${c.setting}: ${c.from ?? '—'} → ${c.to}: ${c.why}`)
  }
  if (b.notes?.length) { lines.push('', 'Notes:'); for (const n of b.notes) lines.push(`  - ${n}`) }
  return lines.join('\n') + '\n'
}

/** The --current-conf file's text (undefined without the flag), or null after saying why it cannot be read. */
function readCurrentConf(confPath: string | undefined, io: Io): string | undefined | null {
  if (confPath === undefined) return undefined
  try {
    if (statRegularFileSync(confPath).size > MAX_CONF_CHARS * 4) throw new Error(`larger than ${MAX_CONF_CHARS} characters: is this really a slurm.conf?`)
    return readRegularFileSync(confPath)
  } catch (e) {
    io.err(`easytune: ${confPath}: ${e instanceof NotRegularFileError ? e.reason : (e as Error).message}\n`)
    return null
  }
}

/** `export <log> --predicted-order`: the order by predicted runtime, its fidelity replayed on the log. */
async function exportPredicted(a: ParsedArgs, io: Io): Promise<number> {
  const target = oneOf<ExportTarget>(a, 'target', EXPORT_TARGETS)
  if (target !== undefined && target !== 'slurm') throw new UsageError('--predicted-order exports to Slurm only (its site factor); PBS has no counterpart here')
  const out = str(a, 'out')
  if (!out) throw new UsageError('--out <dir> is required: the folder to write the files into')
  const version = str(a, 'slurm-version')
  if (version !== undefined) {
    try { checkSlurmVersion(version) } catch (e) { throw new UsageError(`--slurm-version: ${(e as Error).message}`) }
  }
  const historyDays = positiveInt(a, 'history-days') ?? DEFAULTS.predictedOrderHistoryDays.value
  const threshold = thresholdFlag(a, 'threshold', null)
  const json = jsonTarget(a)
  const confPath = str(a, 'current-conf')
  const log = await logArg(a, 'export --predicted-order', io)
  const currentConf = readCurrentConf(confPath, io)
  if (currentConf === null) return 2
  const w = await loadWorkload(io, log, importOptions(a))
  if (w.jobs.count === 0) { io.err(`easytune: ${log.label}: no job is left after cleaning: nothing to replay.\n`); return 1 }
  let maxRequested = 0
  for (let j = 0; j < w.jobs.count; j++) if (w.jobs.requested[j] > maxRequested) maxRequested = w.jobs.requested[j]
  const progress = new Progress(io)
  const fidelity = await untilInterrupted(io, progress, (signal) => replayFidelity(io, progress, w, historyDays, threshold, signal))
  if (fidelity === INTERRUPTED) return 130
  let bundle: ExportBundle
  try {
    bundle = exportPredictedOrder({ slurmVersion: version, currentConf, fidelity, maxRequested, historyDays, threshold })
  } catch (e) {
    if (!(e instanceof ExportInputError)) throw e
    io.err(`easytune: ${e instanceof SlurmConfError ? confPath : log.label}: ${e.message}\n`)
    return 2
  }
  const written = writeBundle(bundle, out)
  if (json) {
    writeJson(io, json, {
      schemaVersion: EXPORT_SCHEMA_VERSION, target: 'slurm', out, files: written, items: bundle.items, gaps: bundle.gaps,
      changes: bundle.changes ?? [], notes: bundle.notes ?? [], approximate: bundle.approximate ?? null, lost: [], predictedOrder: fidelity,
    })
  }
  if (!json || json.file !== null) io.out(formatBundle(bundle, out, currentConf !== undefined) + `\n${fidelityLines(fidelity).join('\n')}\n`)
  return 0
}

/** The fidelity's replays of the whole log (predictedOrderFidelity's, the same figures), one after
 * the other in slices: progress on stderr (docs/CLI.md §Output), and Ctrl-C heard between two slices. */
async function replayFidelity(io: Io, progress: Progress, w: Workload, historyDays: number, threshold: number | null, signal: AbortSignal): Promise<PredictedOrderFidelity> {
  const show = sliceProgress(io, progress)
  const n = w.jobs.count
  const replays = []
  for (const [k, id] of FIDELITY_REPLAYS.entries()) {
    let sliceEnd = 0
    const sim = fidelitySimulator(w.jobs, w.machineProcs, id, threshold, { checkEvery: SLICE_CHECK_EVERY, onCheck: () => performance.now() >= sliceEnd })
    for (;;) {
      sliceEnd = performance.now() + SLICE_MS
      if (!sim.runUntil(Infinity)) break
      await new Promise((resolve) => setImmediate(resolve))
      signal.throwIfAborted()
      show(`fidelity replay ${k + 1} of ${FIDELITY_REPLAYS.length} (${id})`, (k + sim.jobsStarted / Math.max(1, n)) / FIDELITY_REPLAYS.length, `${int(sim.jobsStarted)} of ${int(n)} jobs started`)
    }
    replays.push(fidelityOf(w.jobs, w.machineProcs, id, historyDays, sim.start, DEFAULT_TAU))
  }
  return fidelityFrom(w.jobs, w.machineProcs, historyDays, threshold, DEFAULT_TAU, replays)
}

/** Writes the bundle's files into `out` (created if missing; scripts made executable). */
function writeBundle(bundle: ExportBundle, out: string): { name: string; path: string; description: string }[] {
  mkdirSync(out, { recursive: true })
  return bundle.files.map((f) => {
    const file = join(out, f.name)
    writeFileSync(file, f.content)
    if (f.name.endsWith('.sh')) chmodSync(file, 0o755)
    return { name: f.name, path: file, description: f.description }
  })
}
