// The fast readers of timeparse.ts (a sacct import reads several time stamps and durations per
// line) against plain reference readers written here from their documented grammar: the regular
// expression, split on ':' and '-', and the date checked by Date itself. Strings drawn near the
// grammar (digits, separators, fractions, zones, impossible dates, leap seconds, short years), so
// that every branch of the fast paths and of their fall-backs is reached.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TimeReader, parsePbsDate, parseSlurmDuration } from '../../src/core/workload/timeparse'

/** utcSeconds as first written: Date decides whether the date exists. */
function refUtc(y: number, mo: number, d: number, h: number, mi: number, s: number): number {
  if (!(mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h <= 23 && mi <= 59 && s <= 60)) return NaN
  const ms = Date.UTC(y, mo - 1, d, h, mi, s)
  return new Date(ms).getUTCDate() !== d ? NaN : ms / 1000
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/
/** The zone-less ISO reading (the local time) as the regular expression gives it; null when it is not one. */
function refIsoLocal(s: string): number | null {
  const m = ISO.exec(s)
  if (m === null || m[7] !== undefined) return null
  return refUtc(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]))
}

const unit = (s: string) => (/^\d+$/.test(s) ? Number(s) : NaN)
const secs = (s: string) => (/^\d+(\.\d*)?$/.test(s) ? Number(s) : NaN)
/** parseSlurmDuration as first written (split on '-' and ':'), for text that is not an unknown word. */
function refDuration(s: string): number {
  const dash = s.indexOf('-')
  if (dash < 0) {
    const p = s.split(':')
    if (p.length === 1) { const m = unit(p[0]); return m === 0xfffffffe || m === 0xffffffff ? -1 : m * 60 }
    if (p.length === 2) return unit(p[0]) * 60 + secs(p[1])
    if (p.length === 3) return unit(p[0]) * 3600 + unit(p[1]) * 60 + secs(p[2])
    return NaN
  }
  const days = unit(s.slice(0, dash))
  const p = s.slice(dash + 1).split(':')
  const rest = p.length === 1 ? unit(p[0]) * 3600 : p.length === 2 ? unit(p[0]) * 3600 + unit(p[1]) * 60
    : p.length === 3 ? unit(p[0]) * 3600 + unit(p[1]) * 60 + secs(p[2]) : NaN
  return days * 86400 + rest
}

const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom('0', '1', '2', '3', '5', '9'), minLength: min, maxLength: max })

describe('the fast time-stamp reader', () => {
  it('worked by hand: impossible days, leap years (short years as Date.UTC reads them), the leap second', () => {
    const t = new TimeReader()
    expect(t.parse('2024-02-29T12:00:00')).toBe(Date.UTC(2024, 1, 29, 12) / 1000)
    expect(t.parse('2023-02-29T12:00:00')).toBeNaN()
    expect(t.parse('2100-02-29 00:00:00')).toBeNaN() // not a leap year
    expect(t.parse('2000-02-29 00:00:00')).toBe(Date.UTC(2000, 1, 29) / 1000)
    expect(t.parse('0096-02-29T00:00:00')).toBe(Date.UTC(96, 1, 29) / 1000) // 1996 for Date.UTC: a leap year
    expect(t.parse('0100-02-29T00:00:00')).toBeNaN()
    expect(t.parse('2024-04-31T00:00:00')).toBeNaN()
    expect(t.parse('2024-06-30T12:00:60')).toBe(Date.UTC(2024, 5, 30, 12, 1) / 1000)
    expect(t.parse('2024-06-30T23:59:60')).toBeNaN() // would be 1 July
    expect(parsePbsDate('02/29/2023 10:00:00')).toBeNaN()
    expect(parsePbsDate('12/31/2024 23:59:60')).toBeNaN()
    expect(t.naiveIsoCount).toBe(9) // every zone-less ISO text counts, readable or not
  })

  it('equals the regular expression and Date on strings near the grammar', () => {
    const iso = fc.tuple(digits(3, 5), fc.constantFrom('-', '/'), digits(1, 3), fc.constant('-'), digits(2, 2), fc.constantFrom('T', ' ', 't'),
      digits(2, 2), fc.constant(':'), digits(2, 2), fc.constantFrom(':', ''), digits(1, 3), fc.constantFrom('', '', '.5', 'Z', '+02:00'))
      .map((p) => p.join(''))
    fc.assert(fc.property(iso, (s) => {
      const t = new TimeReader()
      const got = t.parse(s)
      const ref = refIsoLocal(s)
      if (ref !== null) expect(got).toBe(ref)
      else if (!ISO.test(s)) expect(got).toBeNaN()
    }), { numRuns: 3000, seed: 11 })
  })
})

describe('the fast SLURM duration reader', () => {
  it('worked by hand', () => {
    expect(parseSlurmDuration('7-04:00:00')).toBe(7 * 86400 + 4 * 3600)
    expect(parseSlurmDuration('2-12')).toBe(2 * 86400 + 12 * 3600)
    expect(parseSlurmDuration('1-00:30')).toBe(86400 + 1800)
    expect(parseSlurmDuration('05:30')).toBe(330)
    expect(parseSlurmDuration('10320')).toBe(10320 * 60)
    expect(parseSlurmDuration('4294967295')).toBe(-1) // INFINITE minutes
    expect(parseSlurmDuration('00:00:01.5')).toBe(1.5) // a fraction: the general reader
    expect(parseSlurmDuration('1:2:3:4')).toBeNaN()
    expect(parseSlurmDuration('1-2-3')).toBeNaN()
    expect(parseSlurmDuration('5-')).toBeNaN()
    expect(parseSlurmDuration('UNLIMITED')).toBe(-1)
  })

  it('equals the split reader on strings near the grammar', () => {
    const part = fc.oneof(digits(0, 3), digits(14, 17), fc.constantFrom('4294967294', '4294967295', '1.5', '2.', 'x', ''))
    const text = fc.tuple(fc.oneof(fc.constant(''), part.map((d) => d + '-')), fc.array(part, { minLength: 1, maxLength: 5 }))
      .map(([days, parts]) => days + parts.join(':'))
    fc.assert(fc.property(text, (s) => {
      fc.pre(s.trim() !== '')
      expect(parseSlurmDuration(s)).toBe(refDuration(s.trim()))
    }), { numRuns: 5000, seed: 12 })
  })
})
