// The Inspect charts' builders, the SVG serializer's markers and the number formats: pure helpers.
import { describe, expect, it } from 'vitest'
import { durationHistogram, overEstimationChart, procsBinLabel, weeklyLoadChart, dayAxis } from '../../src/renderer/src/charts/inspect'
import { marker } from '../../src/renderer/src/charts/svg'
import { bytes, int, logDate, pct, shortDuration, signedPct, times } from '../../src/renderer/src/format'
import { makeWorkload } from './fake-api'

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
