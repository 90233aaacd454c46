// Field readers shared by the SLURM (sacct, jobcomp) and PBS parsers: durations, timestamps,
// counts, `key=value` records, and making submit times relative. Unknown durations and counts are -1 (the SWF
// convention); unknown timestamps are NaN; text that is not a duration at all is NaN.

import { plural } from '../util/format'
import type { RawJobsBuilder } from './builder'
import { FieldError } from './errors'
import { MAX_DURATION_SECONDS, MAX_EPOCH_SECONDS } from './limits'

/** Words SLURM prints where a duration or limit is not known or not set. */
const UNKNOWN_DURATION_WORDS = new Set(['', 'unlimited', 'partition_limit', 'invalid', 'none', 'unknown', 'n/a', '(null)'])
/** Words SLURM and PBS print where a timestamp is not set. */
const UNKNOWN_TIME_WORDS = new Set(['', 'unknown', 'none', 'n/a', '(null)'])
/** SLURM's NO_VAL and INFINITE (0xfffffffe, 0xffffffff) as raw minute counts. */
const SLURM_NO_VAL_MINUTES = 0xfffffffe
const SLURM_INFINITE_MINUTES = 0xffffffff

/** False when `s` starts with a digit, as every time and duration does: no unknown-value word does
 * (the lower-case copy to look one up is then not made, a line's most frequent allocation). */
function maybeWord(s: string): boolean {
  const c = s.charCodeAt(0)
  return !(c >= 48 && c <= 57)
}

/** True when `s` is a non-empty run of ASCII digits. */
export function isDigits(s: string): boolean {
  if (s.length === 0) return false
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 48 || c > 57) return false
  }
  return true
}

/** `1 job`, `29,898 jobs`: a count with its noun, for warnings (one definition for every surface). */
export { plural }

/** A non-negative integer count (CPUs, nodes, raw seconds), or -1 when empty or not a number. */
export function parseCount(text: string): number {
  const s = text.trim()
  return isDigits(s) ? Number(s) : -1
}

/** A value as the import report quotes it: at most 40 characters. */
export function quote(text: string): string {
  return `"${text.length > 40 ? text.slice(0, 37) + '...' : text}"`
}

/**
 * A strict count: empty gives -1 (unknown); digits up to `max` give their value; more digits
 * throw `out-of-range`; anything else (`1e3`, `NaN`, `abc`) throws `not-a-number`.
 */
export function readCount(name: string, text: string, max: number): number {
  const s = text.trim()
  if (s === '') return -1
  if (!isDigits(s)) throw new FieldError('not-a-number', `${name} ${quote(s)} is not a whole number`)
  const v = Number(s)
  if (!(v <= max)) throw new FieldError('out-of-range', `${name} ${quote(s)} is beyond its range (at most ${max})`)
  return v
}

/**
 * A strict duration in seconds read by `parse` (parseSlurmDuration or parsePbsDuration): -1 when
 * unknown; throws `bad-duration` when the text is not a duration, `out-of-range` beyond
 * MAX_DURATION_SECONDS.
 */
export function readDuration(name: string, text: string, parse: (text: string) => number): number {
  const v = parse(text)
  if (Number.isNaN(v)) throw new FieldError('bad-duration', `${name} ${quote(text.trim())} is not a duration`)
  if (!(v <= MAX_DURATION_SECONDS)) throw new FieldError('out-of-range', `${name} ${quote(text.trim())} is beyond the longest duration read (${MAX_DURATION_SECONDS} s)`)
  return v
}

/** Digits with an optional fractional part (`12`, `12.5`), else NaN. */
function parseSecondsPart(s: string): number {
  const dot = s.indexOf('.')
  if (dot < 0) return isDigits(s) ? Number(s) : NaN
  const whole = s.slice(0, dot)
  const frac = s.slice(dot + 1)
  return isDigits(whole) && (frac === '' || isDigits(frac)) ? Number(s) : NaN
}

/** Whole units (`hh`, `mm`), else NaN. */
function parseUnit(s: string): number {
  return isDigits(s) ? Number(s) : NaN
}

/**
 * A SLURM duration in seconds. Accepts `MM:SS`, `HH:MM:SS`, `D-HH`, `D-HH:MM`, `D-HH:MM:SS`, and
 * a bare integer, which SLURM means as MINUTES (TimelimitRaw, jobcomp `TimeLimit=60`).
 * `UNLIMITED`, `Partition_Limit`, `INVALID`, empty and SLURM's NO_VAL/INFINITE give -1 (unknown);
 * anything else that is not a duration gives NaN.
 */
export function parseSlurmDuration(text: string): number {
  const s = text.trim()
  if (maybeWord(s) && UNKNOWN_DURATION_WORDS.has(s.toLowerCase())) return -1
  const fast = plainSlurmDuration(s)
  if (fast !== NOT_PLAIN) return fast
  const dash = s.indexOf('-')
  if (dash < 0) {
    const parts = s.split(':')
    if (parts.length === 1) {
      const minutes = parseUnit(parts[0])
      return minutes === SLURM_NO_VAL_MINUTES || minutes === SLURM_INFINITE_MINUTES ? -1 : minutes * 60
    }
    if (parts.length === 2) return parseUnit(parts[0]) * 60 + parseSecondsPart(parts[1])
    if (parts.length === 3) return parseUnit(parts[0]) * 3600 + parseUnit(parts[1]) * 60 + parseSecondsPart(parts[2])
    return NaN
  }
  const days = parseUnit(s.slice(0, dash))
  const parts = s.slice(dash + 1).split(':')
  let rest: number
  if (parts.length === 1) rest = parseUnit(parts[0]) * 3600
  else if (parts.length === 2) rest = parseUnit(parts[0]) * 3600 + parseUnit(parts[1]) * 60
  else if (parts.length === 3) rest = parseUnit(parts[0]) * 3600 + parseUnit(parts[1]) * 60 + parseSecondsPart(parts[2])
  else return NaN
  return days * 86400 + rest
}

const NOT_PLAIN = -2

/**
 * parseSlurmDuration for the forms sacct writes (`MM:SS`, `HH:MM:SS`, `D-HH`, `D-HH:MM`,
 * `D-HH:MM:SS`, bare minutes), read in one pass over the characters: the same value, or NOT_PLAIN
 * when `s` has anything else (a fraction, an empty group, a second dash, a group of more than 15
 * digits, too many groups), which the general reader below then decides.
 */
function plainSlurmDuration(s: string): number {
  let days = -1, a = -1, b = -1, cur = 0, digits = 0, groups = 0
  for (let i = 0; i <= s.length; i++) {
    const c = i < s.length ? s.charCodeAt(i) : -1
    if (c >= 48 && c <= 57) {
      if (++digits > 15) return NOT_PLAIN
      cur = cur * 10 + (c - 48)
      continue
    }
    if (digits === 0) return NOT_PLAIN
    if (c === 45 /* - */) {
      if (groups > 0 || days >= 0) return NOT_PLAIN
      days = cur
    } else if (c === 58 /* : */ || c === -1) {
      if (groups === 0) a = cur
      else if (groups === 1) b = cur
      else if (groups > 2) return NOT_PLAIN
      groups++
      if (c === -1) {
        const sec = cur // the last group, when there are three
        if (days >= 0) return days * 86400 + (groups === 1 ? a * 3600 : groups === 2 ? a * 3600 + b * 60 : a * 3600 + b * 60 + sec)
        if (groups === 1) return a === SLURM_NO_VAL_MINUTES || a === SLURM_INFINITE_MINUTES ? -1 : a * 60
        return groups === 2 ? a * 60 + b : a * 3600 + b * 60 + sec
      }
    } else return NOT_PLAIN
    cur = 0
    digits = 0
  }
  return NOT_PLAIN
}

/**
 * A PBS duration (`Resource_List.walltime`, `resources_used.walltime`) in seconds:
 * `[[hh:]mm:]ss[.frac]`; a bare number is SECONDS in PBS. Empty gives -1, anything else NaN.
 */
export function parsePbsDuration(text: string): number {
  const s = text.trim()
  if (s === '') return -1
  const parts = s.split(':')
  if (parts.length === 1) return parseSecondsPart(parts[0])
  if (parts.length === 2) return parseUnit(parts[0]) * 60 + parseSecondsPart(parts[1])
  if (parts.length === 3) return parseUnit(parts[0]) * 3600 + parseUnit(parts[1]) * 60 + parseSecondsPart(parts[2])
  return NaN
}

/** Epoch seconds of a UTC calendar time, or NaN when a field is out of range (e.g. 31 February). */
function utcSeconds(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  if (!(month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 && second <= 60)) return NaN
  // The day must exist in its month (no 31 February) and a leap second must not carry the time into
  // the next day (23:59:60): what Date.UTC would silently move elsewhere. Date.UTC reads the years
  // 0 to 99 as 1900 to 1999, so their leap years are those.
  if (day > daysInMonth(year <= 99 ? 1900 + year : year, month) || (hour === 23 && minute === 59 && second === 60)) return NaN
  return Date.UTC(year, month - 1, day, hour, minute, second) / 1000
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** Days of `month` (1–12) of `year` in the proleptic Gregorian calendar (as Date.UTC counts them). */
function daysInMonth(year: number, month: number): number {
  if (month !== 2) return DAYS_IN_MONTH[month - 1]
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28
}

/** Two (or four) ASCII digits of `s` from `at` as a number, -1 when one is not a digit. */
function digitsAt(s: string, at: number, n: number): number {
  let v = 0
  for (let i = at; i < at + n; i++) {
    const c = s.charCodeAt(i) - 48
    if (c < 0 || c > 9) return -1
    v = v * 10 + c
  }
  return v
}

/**
 * `YYYY-MM-DDThh:mm:ss` (or a space for the T), exactly, without fraction or zone: sacct's usual
 * time stamp, read without the regular expression (a sacct import reads several per line). Its
 * local time as utcSeconds gives it (NaN for an impossible date); null when `s` is not of that
 * exact form (the regular expression then decides).
 */
function plainIsoLocal(s: string): number | null {
  if (s.length !== 19 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return null
  const t = s.charCodeAt(10)
  if (t !== 84 && t !== 32) return null
  const year = digitsAt(s, 0, 4), month = digitsAt(s, 5, 2), day = digitsAt(s, 8, 2)
  const hour = digitsAt(s, 11, 2), minute = digitsAt(s, 14, 2), second = digitsAt(s, 17, 2)
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return null
  return utcSeconds(year, month, day, hour, minute, second)
}

/**
 * The date stamp that opens every PBS accounting line, `MM/DD/YYYY hh:mm:ss`, as epoch seconds
 * read as UTC (the log is in the server's local time, which the line does not say); NaN if invalid.
 */
export function parsePbsDate(text: string): number {
  const [date, time, extra] = text.trim().split(' ')
  if (date === undefined || time === undefined || extra !== undefined) return NaN
  const d = date.split('/')
  const t = time.split(':')
  if (d.length !== 3 || t.length !== 3 || d[2].length !== 4) return NaN
  const [month, day, year] = d.map(parseUnit)
  const [hour, minute, second] = t.map(parseUnit)
  return utcSeconds(year, month, day, hour, minute, second)
}

const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/

/** Seconds to add to a local time in zone `tz` (`Z`, `+02:00`, `-0500`) to get UTC. */
function zoneOffsetSeconds(tz: string): number {
  if (tz === 'Z') return 0
  const sign = tz[0] === '-' ? 1 : -1
  const digits = tz.slice(1).replace(':', '')
  return sign * (Number(digits.slice(0, 2)) * 3600 + Number(digits.slice(2)) * 60)
}

/**
 * Reads SLURM/PBS timestamps: epoch seconds (`1703688808`) or ISO 8601 (`2024-06-24T12:33:26`).
 * `Unknown`, `None`, empty and `0` (SLURM's "not set") give NaN. An ISO time without a zone is
 * read as UTC; the reader counts those so the parser can say so in a warning.
 */
export class TimeReader {
  /** ISO times without a zone, which were read as UTC. */
  naiveIsoCount = 0
  private naiveIsoExample = ''

  parse(text: string): number {
    const s = text.trim()
    if (isDigits(s)) {
      const t = Number(s)
      return t === 0 ? NaN : t
    }
    if (maybeWord(s) && UNKNOWN_TIME_WORDS.has(s.toLowerCase())) return NaN
    let local = plainIsoLocal(s)
    if (local === null) {
      const m = ISO_TIME.exec(s)
      if (m === null) return NaN
      local = utcSeconds(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]))
      if (m[7] !== undefined) return local + zoneOffsetSeconds(m[7])
    }
    if (this.naiveIsoCount++ === 0) this.naiveIsoExample = s
    return local
  }

  /**
   * A strict timestamp: NaN when not set (empty, `Unknown`, `None`, `0`); throws `bad-time` when
   * the text is not a time (or an impossible date such as 31 February), `out-of-range` when it is
   * after year 9999 (limits.ts).
   */
  time(name: string, text: string): number {
    const s = text.trim()
    if (s === '' || (maybeWord(s) && UNKNOWN_TIME_WORDS.has(s.toLowerCase()))) return NaN
    const t = this.parse(s)
    if (Number.isNaN(t)) {
      if (s === '0') return NaN
      throw new FieldError('bad-time', `${name} ${quote(s)} is not a time (epoch seconds or YYYY-MM-DDThh:mm:ss)`)
    }
    if (!(Math.abs(t) <= MAX_EPOCH_SECONDS)) throw new FieldError('out-of-range', `${name} ${quote(s)} is after year 9999`)
    return t
  }

  /** The zone-less times read so far (a chunk's, for absorb). */
  naive(): { count: number; example: string } {
    return { count: this.naiveIsoCount, example: this.naiveIsoExample }
  }

  /** Adds a later chunk's zone-less times: the first example in file order is kept. */
  absorb(n: { count: number; example: string }): void {
    if (n.count === 0) return
    if (this.naiveIsoCount === 0) this.naiveIsoExample = n.example
    this.naiveIsoCount += n.count
  }

  /** The warning to show when some times had no zone, else null. */
  warning(): string | null {
    if (this.naiveIsoCount === 0) return null
    return `No time zone on ${plural(this.naiveIsoCount, 'time stamp')} (e.g. ${this.naiveIsoExample}): read as UTC. ` +
      'Waits and run times are right except across a daylight-saving change, but dates are shifted by the site\'s UTC offset.'
  }
}

/**
 * Makes the builder's absolute (epoch) submit times relative to the earliest one and returns that
 * earliest submit (the log's `unixStartTime`), or null when there are no jobs.
 */
export function makeSubmitsRelative(builder: RawJobsBuilder): number | null {
  if (builder.count === 0) return null
  let min = Infinity
  for (let i = 0; i < builder.count; i++) if (builder.submit[i] < min) min = builder.submit[i]
  builder.shiftSubmits(-min)
  return min
}

function isKeyChar(ch: string, first: boolean): boolean {
  if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')) return true
  return !first && ((ch >= '0' && ch <= '9') || ch === '_' || ch === '.')
}

/** A record key: a letter, then letters, digits, `_` or `.` (`jobid`, `Resource_List.walltime`). */
function isKey(s: string): boolean {
  if (s.length === 0) return false
  for (let i = 0; i < s.length; i++) if (!isKeyChar(s[i], i === 0)) return false
  return true
}

/** Splits on spaces and tabs outside double quotes; empty tokens are dropped. */
function splitTokens(text: string): string[] {
  const tokens: string[] = []
  let start = -1
  let quoted = false
  for (let i = 0; i <= text.length; i++) {
    const ch = i < text.length ? text[i] : ' '
    const gap = i === text.length || (!quoted && (ch === ' ' || ch === '\t'))
    if (gap) {
      if (start >= 0) tokens.push(text.slice(start, i))
      start = -1
    } else {
      if (start < 0) start = i
      if (ch === '"') quoted = !quoted
    }
  }
  return tokens
}

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value
}

/**
 * Reads `key=value` pairs separated by spaces into a map keyed by the LOWER-CASED key (the first
 * occurrence of a key wins). Values may be double-quoted (`account="A B"`); an unquoted word
 * without `=` after a pair continues that value (`Name=my job`); words before the first pair (a
 * leading date stamp) are ignored.
 */
export function parseKeyValues(text: string): Map<string, string> {
  const pairs = new Map<string, string>()
  let continued: string | null = null
  for (const token of splitTokens(text)) {
    const eq = token.indexOf('=')
    const key = eq > 0 ? token.slice(0, eq) : ''
    if (isKey(key)) {
      const lower = key.toLowerCase()
      continued = pairs.has(lower) ? null : lower
      if (continued !== null) pairs.set(continued, unquote(token.slice(eq + 1)))
    } else if (continued !== null) {
      pairs.set(continued, `${pairs.get(continued) ?? ''} ${token}`)
    }
  }
  return pairs
}
