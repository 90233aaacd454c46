// Numbers for people, each written once and shared by every surface (CLI tables, import
// warnings, the offline report, the charts' tooltips, the GUI): thousands separators (en-US), a
// typographic minus, and "–" where there is no number (NaN in a result, an empty run). Durations
// are in ./duration.ts (formatDuration, formatThreshold).
import type { Objective } from '../tune/campaign'
import { formatDuration } from './duration'

/** Shown where a value is not a finite number. */
export const NO_VALUE = '–'

const intFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })
const numberFormats = new Map<number, Intl.NumberFormat>()

/** 28000 → "28,000"; 2.5 → "3" (rounded half up). */
export function formatInt(n: number): string {
  return Number.isFinite(n) ? intFormat.format(Math.round(n)) : NO_VALUE
}

/** Up to `maxDigits` decimals, trailing zeros left off: 1234.567 → "1,234.57", 2.5 → "2.5". */
export function formatNumber(n: number, maxDigits = 2): string {
  if (!Number.isFinite(n)) return NO_VALUE
  let f = numberFormats.get(maxDigits)
  if (f === undefined) numberFormats.set(maxDigits, (f = new Intl.NumberFormat('en-US', { maximumFractionDigits: maxDigits })))
  return f.format(n)
}

/** A share as a percentage with `digits` decimals: 0.314 → "31.4%", −0.02 → "−2.0%". A value that
 * rounds to zero shows as "0.0%", never "−0.0%". */
export function formatPercent(share: number, digits = 1): string {
  if (!Number.isFinite(share)) return NO_VALUE
  const v = Number((share * 100).toFixed(digits))
  const text = `${Math.abs(v).toFixed(digits)}%`
  return v < 0 ? `−${text}` : text
}

/** A ratio: 1.234 → "1.23×". */
export function formatRatio(r: number, digits = 2): string {
  return Number.isFinite(r) ? `${r.toFixed(digits)}×` : NO_VALUE
}

/** A count with its noun: "1 job", "29,898 jobs". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatInt(n)} ${n === 1 ? one : many}`
}

/** The selection objective in words: "average wait", "average bounded slowdown". */
export function objectiveName(objective: Objective): string {
  return objective === 'avgWait' ? 'average wait' : 'average bounded slowdown'
}

/** A value of the objective: a wait as a duration ("20 h"), a bounded slowdown with two decimals
 * ("3.14"); "–" for no number. */
export function formatObjective(objective: Objective, v: number): string {
  if (!Number.isFinite(v)) return NO_VALUE
  return objective === 'avgWait' ? formatDuration(v) : v.toFixed(2)
}

/** A date to the minute in UTC: "2026-11-25 06:42 UTC". */
export function formatUtcMinute(d: Date): string {
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

/** A time on a log's submit axis (seconds after its UnixStartTime) as a calendar date in UTC,
 * "1996-09-25"; "day N" when the log has no absolute time origin. */
export function formatLogDate(unixStartTime: number | null, t: number): string {
  const d = unixStartTime === null ? null : new Date((unixStartTime + t) * 1000)
  // Imports bound every time to year 9999 (workload/limits.ts); an invalid Date (a result file
  // edited by hand) falls back to the day count instead of throwing in toISOString.
  if (d === null || Number.isNaN(d.getTime())) return `day ${formatInt(Math.floor(t / 86400))}`
  return d.toISOString().slice(0, 10)
}
