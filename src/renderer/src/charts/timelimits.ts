// Chart.js configurations for the Time limits step (docs/PREDICTIONS.md §Time limits), built from
// the walltimes report. Pure (no DOM); every axis has a title with its unit. The charts carry no
// names at all (the tables name the users), so a saved chart never names anyone.
import type { ChartConfiguration } from 'chart.js'
import type { WalltimesReport } from '../../../shared/api'
import { PALETTE, type Theme } from '../../../shared/charts'
import { base } from './inspect'
import { int, num } from '../format'

type Cfg = ChartConfiguration<'scatter' | 'bar'>

/** "2×", "1.5×": a ratio bound as the axis shows it. */
const ratio = (v: number) => `${num(v, 1)}×`

/** The distribution of requested / actual runtime over the jobs: one bar per bin, in % of the jobs. */
export function ratioDistributionChart(r: WalltimesReport, theme: Theme): Cfg {
  const p = PALETTE[theme]
  const labels = r.distribution.map((b) => (b.to === null ? `≥ ${ratio(b.from)}` : `${ratio(b.from)}–${ratio(b.to)}`))
  const o = base(theme, 'Requested time ÷ actual runtime, per job (×)', 'Jobs (% of the log)', 'category')
  o.plugins.legend = { ...o.plugins.legend, display: false } as typeof o.plugins.legend
  return { type: 'bar', data: { labels, datasets: [{ label: 'Jobs (%)', data: r.distribution.map((b) => b.share * 100), backgroundColor: p.series[0] }] }, options: o } as Cfg
}

/** Hours in the report's unit, for axis titles and tables: "node·h" or "CPU·h". */
export function hoursUnit(r: WalltimesReport): string {
  return r.hours === 'node-hours' ? 'node·h' : 'CPU·h'
}

/** A group's over-requested hours in the report's unit. */
export function overHours(r: WalltimesReport, g: { overRequestedNodeHours: number | null; overRequestedCpuHours: number }): number {
  return r.hours === 'node-hours' ? g.overRequestedNodeHours ?? 0 : g.overRequestedCpuHours
}

/** One point per user: the hours they asked for and never used (x, log) against their median
 * requested / actual ratio (y, log). Up and to the right: the limits to fix first. */
export function usersChart(r: WalltimesReport, theme: Theme): Cfg {
  const p = PALETTE[theme], unit = hoursUnit(r)
  const pts = r.users.filter((u) => !u.unknown).map((u) => ({ x: Math.max(0.1, overHours(r, u)), y: Math.max(1, u.ratio.p50) }))
  const o = base(theme, `Over-requested time per user (${unit}, log scale)`, 'Median requested ÷ actual (×, log)', 'logarithmic', 'logarithmic')
  ;(o.scales.x.ticks as Record<string, unknown>).callback = (v: number | string) => (Number(v) < 1 ? num(Number(v), 1) : int(Number(v)))
  ;(o.scales.y.ticks as Record<string, unknown>).callback = (v: number | string) => ratio(Number(v))
  return {
    type: 'scatter',
    data: { datasets: [{ label: `Users (${int(pts.length)})`, data: pts, backgroundColor: p.series[1], borderColor: p.series[1], pointRadius: 3 }] },
    options: o,
  } as Cfg
}
