// `--split midpoint | <fraction> | <date>`: where the log is cut into train (before) and test.
import type { SplitSpec } from '../core/tune/split'
import { formatLogDate } from '../core/util/format'
import { UsageError } from './args'

const HOW = 'use midpoint, a fraction strictly between 0 and 1 (e.g. 0.6) or a date YYYY-MM-DD'

/**
 * Parses a split. A date (YYYY-MM-DD, or YYYY-MM-DDTHH:MM[:SS] with an optional Z or ±HH:MM
 * offset; UTC when none is given) becomes a time on the log's submit axis, which needs the log's
 * absolute origin (`unixStartTime`, e.g. SWF UnixStartTime). With `span` (first and last submit on
 * that axis) a date outside the log is refused.
 */
export function parseSplit(text: string, unixStartTime: number | null, span?: { first: number; last: number }): SplitSpec {
  const t = text.trim()
  if (t.toLowerCase() === 'midpoint') return { kind: 'midpoint' }
  if (/^(\d+(\.\d*)?|\.\d+)$/.test(t)) {
    const fraction = Number(t)
    if (!(fraction > 0 && fraction < 1)) throw new UsageError(`--split fraction must be strictly between 0 and 1, got ${t}; ${HOW}`)
    return { kind: 'fraction', fraction }
  }
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:\d{2})?)?$/.exec(t)
  if (!m) throw new UsageError(`--split: "${text}" is not a split; ${HOW}`)
  const iso = `${m[1]}-${m[2]}-${m[3]}T${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}${m[7] ?? 'Z'}`
  const ms = Date.parse(iso)
  const check = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  if (Number.isNaN(ms) || check.getUTCMonth() !== Number(m[2]) - 1 || check.getUTCDate() !== Number(m[3])) {
    throw new UsageError(`--split: "${text}" is not a valid date`)
  }
  if (unixStartTime === null) {
    throw new UsageError(`--split ${t}: this log has no absolute time origin (no UnixStartTime), so a date cannot be placed in it; use midpoint or a fraction such as 0.5`)
  }
  const at = ms / 1000 - unixStartTime
  if (span && !(at > span.first && at <= span.last)) {
    const day = (s: number) => formatLogDate(unixStartTime, s)
    throw new UsageError(`--split ${t} is outside the log, whose jobs were submitted from ${day(span.first)} to ${day(span.last)} (UTC); pick a date in between`)
  }
  return { kind: 'time', at }
}
