// Numbers for people: thousands separators, units everywhere, durations as "20 h" / "2.31 d".
// The formatters shared with the CLI and the report come from core (src/core/util/format.ts,
// duration.ts) under the GUI's short names; the ones below them only the GUI uses.
import { formatDuration, formatThreshold } from '../../core/util/duration'
import { formatInt, formatLogDate, formatNumber, formatPercent, formatRatio, plural } from '../../core/util/format'

export const duration = formatDuration
export const threshold = formatThreshold
/** 28000 → "28,000". */
export const int = formatInt
/** A plain number with up to `digits` decimals (trailing zeros kept off). */
export const num = formatNumber
/** 1.234 → "1.23×". */
export const times = formatRatio
/** "1 job" / "3 jobs". */
export { plural }

/** 0.314 → "31%" (the GUI shows whole percents unless asked); −0 is shown as 0%. */
export function pct(x: number, digits = 0): string {
  return formatPercent(x, digits)
}

/** A gain with its sign: "+31%" / "−4%". */
export function signedPct(x: number, digits = 0): string {
  if (!Number.isFinite(x)) return '–'
  const v = Number((x * 100).toFixed(digits))
  if (v === 0) return `${(0).toFixed(digits)}%`
  return `${v > 0 ? '+' : '−'}${Math.abs(v).toFixed(digits)}%`
}

/** Bytes with a decimal unit: "1.2 MB". */
export function bytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '–'
  const units = ['B', 'kB', 'MB', 'GB', 'TB']
  let v = n, u = 0
  while (v >= 1000 && u < units.length - 1) { v /= 1000; u++ }
  return `${u === 0 ? v : v.toFixed(v >= 100 ? 0 : 1)} ${units[u]}`
}

/** Bytes in megabytes with one decimal, for progress lines: 2_048_000 → "2.0 MB". */
export function mb(n: number): string {
  return Number.isFinite(n) && n >= 0 ? `${(n / 1e6).toFixed(1)} MB` : '–'
}

/** A time on the log's submit axis as a calendar date (UTC), or "day N" when the log has no date. */
export const logDate = formatLogDate

/** Processor-seconds as processor-hours. */
export function procHours(procSeconds: number): string {
  return `${int(procSeconds / 3600)} proc·h`
}

/** Days, for spans: 14,379,014 s → "166 d". */
export function days(seconds: number): string {
  return `${int(seconds / 86400)} d`
}

/** Short durations for axis labels: 32 s → "32s", 130 s → "2m", 8,200 s → "2.3h", 3 d → "3d". */
export function shortDuration(s: number): string {
  if (!Number.isFinite(s)) return '–'
  const r = (v: number) => (v >= 10 || Number.isInteger(Number(v.toFixed(1))) ? String(Math.round(v)) : v.toFixed(1))
  if (s < 60) return `${r(s)}s`
  if (s < 3600) return `${r(s / 60)}m`
  if (s < 86400) return `${r(s / 3600)}h`
  return `${r(s / 86400)}d`
}

/** The CLI's option names, as the wizard's controls are called: messages shared with the CLI
 * (an import's warnings and errors, the estimate's problem, a run's error, a verdict's reason,
 * the export's notes) speak the GUI's words here, never flags. Longer forms come first (a flag
 * with its value before the flag alone). test/renderer/control-words.test.ts checks that every
 * flag a back-end message names (src/core, src/engine, src/backend, src/shared) has its entry. */
const CONTROLS: [RegExp, string][] = [
  [/`?--max-wait-ratio none`?/g, 'no limit on the longest wait (Candidates step)'],
  [/`?--max-wait-ratio`?/g, 'the longest-wait limit (Candidates step)'],
  [/`?--min-gain`?/g, 'the minimum gain (Candidates step)'],
  [/`?--confidence`?/g, 'the confidence (Candidates step)'],
  [/`?--min-weeks`?/g, 'the minimum weeks (Candidates step)'],
  [/`?--criterion`?/g, 'how weeks are compared (Candidates step)'],
  [/`?--preset`?/g, 'the candidate orders (Candidates step)'],
  [/`?--primaries`?|`?--backfills`?/g, 'the candidate orders (Candidates step)'],
  [/`?--primary(?![a-z-])`?/g, 'the candidate orders (Candidates step)'],
  [/`?--thresholds`?/g, 'the thresholds (Candidates step)'],
  [/`?--objective`?/g, 'the objective (Candidates step)'],
  [/`?--workers`?/g, 'the worker count (Run step)'],
  [/`?--weeks`?/g, 'the weeks per part (Split step)'],
  [/`?--split`?/g, 'the split (Split step)'],
  [/`?--resample`?|`?--seed`?/g, 'the week sampling (Split step)'],
  [/`?--current-conf`?/g, 'your current slurm.conf (Export step)'],
  [/`?--slurm-conf`?/g, 'a slurm.conf with its scheduling (command line only)'],
  [/`?--cluster`?/g, 'a cluster file (command line only)'],
  [/`?--gres-conf`?/g, 'a gres.conf (command line only)'],
  [/`?--scheduler slurm`?/g, 'Slurm\'s scheduling (command line only)'],
  [/`?--scheduler`?/g, 'the scheduling simulated (command line only)'],
  [/`?--qos-priority`?/g, 'the QOS priorities (command line only)'],
  [/(?:with )?`?--procs`?/g, 'in the Machine size field'],
  [/`?--requested-fallback runtime`?/g, '"Jobs without a requested time: use their actual runtime" (a cleaning option of the import)'],
  [/`?--requested-fallback <duration>`?/g, 'a fixed requested time for every job (command line only)'],
  [/`?--requested-fallback`?/g, '"Jobs without a requested time" (a cleaning option of the import)'],
  [/`?--overrun`?/g, '"Jobs that ran longer than requested" (a cleaning option of the import)'],
  [/name one with `?--format [a-z|]+`?/g, 'check that the file is one of them (the wizard recognises the format from the content)'],
  [/`?--format`?/g, 'the log format (recognised from the content)'],
  [/with `?--compat ocst`?/g, 'under the seeds\' simulator\'s rules (compat ocst, command line only)'],
  [/`?--compat`?/g, 'the compat mode (command line only)'],
  [/`?easytune (evaluate|online|mixed) --json`?/g, 'EasyTune (a result saved from the Export step, or the command line\'s $1)'],
  [/`?--json`?/g, 'a saved result'],
  // Any flag not listed above still reads as words, never as "--name".
  [/(?<!sacct )`?--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)`?/g, 'the $1 setting'],
]
export function controlWords(text: string): string {
  let out = text
  for (const [re, words] of CONTROLS) out = out.replace(re, words)
  return out
}
