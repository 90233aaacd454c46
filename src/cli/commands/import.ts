import { bool, jsonTarget, parseArgs } from '../args'
import { citation, IMPORT_FLAGS, IMPORT_HELP, importOptions, loadWorkload, logArg } from '../common'
import { int, table, writeJson, type Io } from '../output'
import { formatDuration } from '../../core/util/duration'
import { showControl } from '../../core/util/control'
import type { ImportReport } from '../../core/workload/import'
import { nameMachineSizeControl } from '../../core/workload/load'

export const importHelp = `easytune import <log>… [options]

Reads a job log (SWF, SLURM sacct/CSV/jobcomp, PBS accounting; plain or .gz), cleans it with the
research's rules and prints the import report: every rule with its count and example lines.
Several files, or a folder (its files, by name), are read as one log: they must share a format;
a job in several files (same job id, submit time and record) is kept once; a gap of more than a
day between the files' submissions is reported (a file may be missing). Every command that reads
a log does so.

Options:
${IMPORT_HELP}
  --json [file]            print the report as JSON (to stdout, or to the file)
`

export async function importCommand(argv: string[], io: Io): Promise<number> {
  const a = parseArgs(argv, { ...IMPORT_FLAGS, json: 'optional', help: 'boolean' })
  if (bool(a, 'help')) { io.out(importHelp); return 0 }
  const log = await logArg(a, 'import', io)
  const opts = importOptions(a)
  const json = jsonTarget(a)
  const w = await loadWorkload(io, log, opts)
  if (json) writeJson(io, json, { ...w.report, citation: citation(w) })
  if (!json || json.file !== null) io.out(formatReport(w.report, citation(w)))
  return 0
}

export function formatReport(r: ImportReport, cite: string | null): string {
  const lines: string[] = []
  lines.push(`${r.name}: ${r.format.toUpperCase()} log (${r.formatSource === 'given' ? 'format given' : 'format detected'}), ${int(r.linesRead)} lines`)
  lines.push('')
  const span = r.span.startIso
    ? `${r.span.startIso.slice(0, 10)} to ${r.span.endIso!.slice(0, 10)} (${formatDuration(r.span.seconds)} of submissions)`
    : `${formatDuration(r.span.seconds)} of submissions`
  lines.push(table([
    ['Machine', `${r.machine.note}`],
    ['Jobs', `${int(r.jobsRead)} read, ${int(r.jobsKept)} kept, ${int(r.jobsRemoved)} removed`],
    ['Span', span],
    ['Users', r.users > 0 ? int(r.users) : 'not in the log'],
    ['Recorded waits', r.recordedWaits > 0 ? `${int(r.recordedWaits)} jobs (used to calibrate the simulator)` : 'not in the log'],
  ]).trimEnd())
  if (r.files && r.files.length > 1) {
    lines.push('')
    lines.push(`Files (${r.files.length}, read as one log${r.duplicates ? `; ${int(r.duplicates)} jobs found in several files kept once` : ''}):`)
    const day = (iso: string | null, t: number | null) => (iso ? iso.slice(0, 16).replace('T', ' ') : t === null ? '–' : `${formatDuration(t)}`)
    const rows = [['file', 'jobs', 'in an earlier file', 'first submit', 'last submit']]
    for (const f of r.files) rows.push([f.name, int(f.jobsRead), int(f.duplicates), day(f.startIso, f.firstSubmit), day(f.endIso, f.lastSubmit)])
    lines.push(table(rows, ['l', 'r', 'r']).trimEnd())
    for (const g of r.gaps ?? []) lines.push(`Gap: the files' submissions leave ${formatDuration(g.seconds)} uncovered between ${g.before} and ${g.after}${g.fromIso && g.toIso ? ` (${g.fromIso.slice(0, 16).replace('T', ' ')} to ${g.toIso.slice(0, 16).replace('T', ' ')})` : ''}.`)
  }
  lines.push('')
  lines.push('Cleaning (in this order; a job is counted under the first rule that removes it):')
  const rows = [['rule', 'jobs', 'effect', 'example lines', 'what it means']]
  for (const rule of r.rules) {
    rows.push([rule.rule, int(rule.count), rule.effect, rule.exampleLines.join(', '), rule.description])
  }
  lines.push(table(rows, ['l', 'r']).trimEnd())
  if (r.badLines.count > 0) {
    lines.push('')
    lines.push(`Unreadable lines: ${int(r.badLines.count)} skipped. First ones:`)
    for (const ex of r.badLines.examples) lines.push(`  line ${ex.line} (${ex.code}): ${ex.message}`)
  }
  if (r.warnings.length > 0) {
    lines.push('')
    lines.push('Warnings:')
    for (const w of r.warnings) lines.push(`- ${nameMachineSizeControl(w, 'with --procs')}`)
  }
  const res = r.resources
  if (res && res.lacks.length > 0) {
    lines.push('')
    lines.push(`For simulating the cluster as configured (docs/CLUSTER.md), the log gives: ${res.has.length ? res.has.join(', ') : 'none of the resource fields'}. It lacks:`)
    for (const l of res.lacks) lines.push(`- ${l.field}: ${l.cost}`)
    if (res.sacctMissing?.length) lines.push(`The recommended sacct command (docs/SIMULATOR.md §The sacct command to run) adds: ${res.sacctMissing.join(', ')}.`)
  }
  if (cite) {
    lines.push('')
    lines.push(`Data: ${cite}`)
  }
  return showControl(lines.join('\n')) + '\n' // the header, warnings and excerpts quote the log: no control character reaches the terminal
}
