// The Inspect charts' builders, the SVG serializer's markers and the number formats: pure helpers.
import { describe, expect, it } from 'vitest'
import { durationHistogram, overEstimationChart, partialLastWeekDays, procsBinLabel, weeklyLoadChart, dayAxis } from '../../src/renderer/src/charts/inspect'
import { weeklyDistribution } from '../../src/shared/charts'
import { marker } from '../../src/renderer/src/charts/svg'
import { bytes, int, logDate, pct, shortDuration, signedPct, times } from '../../src/renderer/src/format'
import { makeResult, makeWorkload } from './fake-api'

type Cfg = { options: { scales: Record<string, { type: string; title: { text: string } }> }; data: { labels?: string[]; datasets: { label: string; data: unknown[] }[] } }

describe('inspect charts', () => {
  const d = makeWorkload().inspect

  it('weekly load: dates on x, % of the machine on y, one line per series', () => {
    const c = weeklyLoadChart(d, 843480031, 'light') as unknown as Cfg
    expect(c.options.scales.y.title.text).toBe('Share of the machine (%)')
    expect(c.data.datasets.map((s) => s.label)).toEqual(['Submitted load (work submitted that week ÷ machine capacity)', 'Utilization under simulated EASY-FCFS'])
    expect((c.data.datasets[0].data[0] as { y: number }).y).toBeCloseTo(50)
    expect(dayAxis(null).title).toBe('Time (days since the log starts)')
    expect(dayAxis(0).label(10)).toBe('1970-01-11')
  })

  it('histograms label their bins with units; the over-estimation plot is log–log with the diagonal', () => {
    expect(procsBinLabel(1, 2)).toBe('1')
    expect(procsBinLabel(64, 128)).toBe('64–127')
    const h = durationHistogram(d.requestedHistogram, 'Requested time per job (log bins)', 'dark') as unknown as Cfg
    expect(h.data.labels).toEqual(['1s–1m', '1m–1h', '1h–1d'])
    const o = overEstimationChart(d, 'light') as unknown as Cfg
    expect([o.options.scales.x.type, o.options.scales.y.type]).toEqual(['logarithmic', 'logarithmic'])
    expect(o.data.datasets[1].label).toMatch(/perfect estimate/)
  })
})

describe('SVG markers', () => {
  it('draws chart.js point styles as SVG shapes', () => {
    expect(marker('circle', 10, 20, 3, '#fff', '#000', 1)).toBe('<circle cx="10" cy="20" r="3" fill="#fff" stroke="#000" stroke-width="1"/>')
    expect(marker('rectRot', 0, 0, 2, 'red', 'red', 1)).toMatch(/^<polygon points="0,-2 2,0 0,2 -2,0"/)
    expect(marker('crossRot', 0, 0, 4, 'a', 'b', 2).match(/<line/g)).toHaveLength(2)
    expect(marker('triangle', 0, 0, 2, 'a"<', 'b', 1)).toContain('fill="a&quot;&lt;"')
  })
})

describe('formats', () => {
  it('numbers carry units and true minus signs', () => {
    expect(int(28000)).toBe('28,000')
    expect(pct(0.314)).toBe('31%')
    expect(pct(-0.02)).toBe('−2%')
    expect(pct(-0.0001)).toBe('0%')
    expect(signedPct(0.3678, 1)).toBe('+36.8%')
    expect(signedPct(-0.254, 1)).toBe('−25.4%')
    expect(times(0.714)).toBe('0.71×')
    expect(bytes(2_000_000)).toBe('2.0 MB')
    expect(bytes(512)).toBe('512 B')
    expect(shortDuration(130)).toBe('2.2m')
    expect(shortDuration(8200)).toBe('2.3h')
    expect(logDate(843480031, 0)).toBe('1996-09-23')
    expect(logDate(null, 86400 * 3)).toBe('day 3')
  })
})

describe('chart axes fit the data (issue #20)', () => {
  const d = makeWorkload().inspect // 40 weeks from t = 600,000 s
  type Scale = { min?: number; max?: number }
  type Full = { options: { scales: { x: Scale; y: Scale } }; data: { datasets: { label: string; data: { x: number; y: number }[] }[] } }

  it('weekly load: a partial last week is drawn apart and named with its days, the x axis ends at the last week, y starts at 0', () => {
    const lastStart = d.weeks.start[39]
    const c = weeklyLoadChart(d, null, 'light', lastStart + 2.5 * 86400) as unknown as Full
    const labels = c.data.datasets.map((s) => s.label)
    expect(labels).toHaveLength(4)
    expect(labels[2]).toBe('Submitted load, last week partial (2.5 of 7 days)')
    expect(labels[3]).toBe('Utilization, last week partial (2.5 of 7 days)')
    expect(c.data.datasets[0].data).toHaveLength(39) // the full weeks only
    expect(c.data.datasets[2].data.map((q) => q.x)).toEqual([d.weeks.start[38] / 86400, lastStart / 86400])
    expect(c.options.scales.x.max).toBe(lastStart / 86400)
    expect(c.options.scales.x.min).toBe(d.weeks.start[0] / 86400)
    expect(c.options.scales.y.min).toBe(0)
    // A log ending on a week's last day: every week full, two datasets.
    expect((weeklyLoadChart(d, null, 'light', lastStart + 7 * 86400 - 60) as unknown as Full).data.datasets).toHaveLength(2)
    expect(partialLastWeekDays(d, undefined)).toBeNull()
  })

  it('weekly distribution: the wait axis starts at 0 and x spans the weeks drawn, not 0 to 100', () => {
    // 4 weeks per configuration: x at 12.5, 37.5, 62.5, 87.5 % (each week at the middle of its quarter).
    const r = makeResult({ weekly: [{ label: 'EASY-FCFS', train: [1, 2, 3, 4], test: [60, 120, 180, 240] }, { label: 'EASY-SPF Θ=40 h', train: [1, 1, 2, 2], test: [30, 60, 90, 600] }] })
    const c = weeklyDistribution(r) as unknown as Full
    expect(c.options.scales.y.min).toBe(0)
    expect(c.options.scales.x.min).toBe(12.5)
    expect(c.options.scales.x.max).toBe(87.5)
    const xs = c.data.datasets.flatMap((s) => s.data.map((q) => q.x))
    expect(Math.max(...xs)).toBe(c.options.scales.x.max)
  })
})
