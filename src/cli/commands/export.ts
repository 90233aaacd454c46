// `easytune export <result.json> --target slurm|pbs --out <dir>`: turns the recommendation of an
// evaluation into the batch system's configuration, with each item's fidelity and the known gaps.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { bool, jsonTarget, oneOf, parseArgs, str, UsageError } from '../args'
import { table, writeJson, type Io } from '../output'
import { checkSlurmVersion, DEFAULT_SLURM_VERSION, EXPORT_TARGETS, ExportInputError, exportConfig } from '../../core/export/index'
import { lostParts } from '../../core/export/lost'
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

A candidate the target cannot run as it was evaluated (a separate backfill order, as in the
research grid --preset ch5) is still exported, but never silently: what is lost is printed on
stderr, listed in the JSON's "lost" and first among its gaps, and opens each generated file.
A queue order that cannot be expressed at all (F1-F4) writes no file (exit 1).
A result whose verdict is keep exports nothing (exit 0, no change); insufficient-data exits 2.
`

export async function exportCommand(argv: string[], io: Io): Promise<number> {
  const a = parseArgs(argv, { target: 'string', 'slurm-version': 'string', 'current-conf': 'string', out: 'string', json: 'optional', help: 'boolean' })
  if (bool(a, 'help')) { io.out(exportHelp); return 0 }
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
  let currentConf: string | undefined
  if (confPath !== undefined) {
    try {
      if (statRegularFileSync(confPath).size > MAX_CONF_CHARS * 4) throw new Error(`larger than ${MAX_CONF_CHARS} characters: is this really a slurm.conf?`)
      currentConf = readRegularFileSync(confPath)
    } catch (e) {
      io.err(`easytune: ${confPath}: ${e instanceof NotRegularFileError ? e.reason : (e as Error).message}\n`)
      return 2
    }
  }

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
  mkdirSync(out, { recursive: true })
  const written = bundle.files.map((f) => {
    const file = join(out, f.name)
    writeFileSync(file, f.content)
    if (f.name.endsWith('.sh')) chmodSync(file, 0o755)
    return { name: f.name, path: file, description: f.description }
  })
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
