// The formatters every surface shares (src/core/util/format.ts, formatDuration in duration.ts):
// values checked by hand.
import { describe, expect, it } from 'vitest'
import { formatDuration, formatThreshold } from '../../src/core/util/duration'
import { formatInt, formatLogDate, formatNumber, formatObjective, formatPercent, formatRatio, formatUtcMinute, NO_VALUE, objectiveName, plural } from '../../src/core/util/format'

describe('number formatters', () => {
  it('formatInt: thousands separators, rounded, a dash for no number', () => {
    expect(formatInt(28000)).toBe('28,000')
    expect(formatInt(1234567.4)).toBe('1,234,567')
    expect(formatInt(2.5)).toBe('3')
    expect(formatInt(0)).toBe('0')
    expect(formatInt(-1500)).toBe('-1,500')
    for (const x of [NaN, Infinity, -Infinity]) expect(formatInt(x)).toBe(NO_VALUE)
    expect(NO_VALUE).toBe('–')
  })

  it('formatNumber: up to n decimals, no trailing zeros', () => {
    expect(formatNumber(1234.567)).toBe('1,234.57')
    expect(formatNumber(2.5)).toBe('2.5')
    expect(formatNumber(93312)).toBe('93,312')
    expect(formatNumber(0.123456, 4)).toBe('0.1235')
    expect(formatNumber(3.9, 0)).toBe('4')
    expect(formatNumber(NaN)).toBe('–')
  })

  it('formatPercent: a share in percent, typographic minus, never −0', () => {
    expect(formatPercent(0.314)).toBe('31.4%')
    expect(formatPercent(0.314, 0)).toBe('31%')
    expect(formatPercent(1)).toBe('100.0%')
    expect(formatPercent(-0.02)).toBe('−2.0%')
    expect(formatPercent(-0.00001)).toBe('0.0%')
    expect(formatPercent(0.0005, 2)).toBe('0.05%')
    expect(formatPercent(NaN)).toBe('–')
  })

  it('formatRatio and plural', () => {
    expect(formatRatio(1.234)).toBe('1.23×')
    expect(formatRatio(2)).toBe('2.00×')
    expect(formatRatio(0.5, 1)).toBe('0.5×')
    expect(formatRatio(Infinity)).toBe('–')
    expect(plural(1, 'job')).toBe('1 job')
    expect(plural(0, 'job')).toBe('0 jobs')
    expect(plural(29898, 'job')).toBe('29,898 jobs')
    expect(plural(2, 'time stamp')).toBe('2 time stamps')
    expect(plural(3, 'policy', 'policies')).toBe('3 policies')
  })
})

describe('duration formatters', () => {
  it('formatDuration: s below 2 min, min below 2 h, h below 2 d, then d; 3 significant digits at most', () => {
    expect(formatDuration(90)).toBe('90 s')
    expect(formatDuration(119)).toBe('119 s')
    expect(formatDuration(120)).toBe('2 min')
    expect(formatDuration(2700)).toBe('45 min')
    expect(formatDuration(7200)).toBe('2 h')
    expect(formatDuration(72000)).toBe('20 h')
    expect(formatDuration(172800)).toBe('2 d')
    expect(formatDuration(200000)).toBe('2.31 d') // 2.3148 d
    expect(formatDuration(1.5)).toBe('1.5 s')
    expect(formatDuration(0)).toBe('0 s')
    expect(formatDuration(-3600)).toBe('-60 min')
    expect(formatDuration(86400 * 365)).toBe('365 d')
    expect(formatDuration(NaN)).toBe('NaN')
  })

  it('formatThreshold: none, or a duration', () => {
    expect(formatThreshold(null)).toBe('none')
    expect(formatThreshold(72000)).toBe('20 h')
  })
})

describe('objective formatters', () => {
  it('names the objective and formats its values: a wait as a duration, a slowdown with two decimals', () => {
    expect(objectiveName('avgWait')).toBe('average wait')
    expect(objectiveName('avgBsld')).toBe('average bounded slowdown')
    expect(formatObjective('avgWait', 72000)).toBe('20 h')
    expect(formatObjective('avgBsld', 3.14159)).toBe('3.14')
    expect(formatObjective('avgBsld', 12)).toBe('12.00')
    expect(formatObjective('avgWait', NaN)).toBe('–')
    expect(formatObjective('avgBsld', NaN)).toBe('–')
  })
})

describe('date formatters', () => {
  it('formatUtcMinute: to the minute, in UTC', () => {
    expect(formatUtcMinute(new Date(Date.UTC(2026, 10, 25, 6, 42, 59)))).toBe('2026-11-25 06:42 UTC')
  })

  it('formatLogDate: a log time as its UTC calendar date, or its day number without an origin', () => {
    // KTH-SP2's UnixStartTime 843480031 is 1996-09-23 12:00:31 UTC
    expect(formatLogDate(843480031, 0)).toBe('1996-09-23')
    expect(formatLogDate(843480031, 13 * 3600)).toBe('1996-09-24')
    expect(formatLogDate(null, 0)).toBe('day 0')
    expect(formatLogDate(null, 86400 * 1500 + 5)).toBe('day 1,500')
    // A time beyond what a Date holds (a hand-edited result file) is its day number, never a RangeError.
    expect(formatLogDate(843480031, 1e17)).toBe(`day ${formatInt(Math.floor(1e17 / 86400))}`)
  })
})
