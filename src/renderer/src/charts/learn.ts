// The score-convergence chart of "Learn a policy for this site" (docs/LEARN.md §Trials, stop rule):
// the pooled normalised standard deviation of the eq. 3 scores (the `convergence[]` series of
// `easytune learn --json`: at each number of trials per tuple, the mean over the tuples of |Q| times
// the RMS standard error of their scores; a tuple that stopped early keeps its last value) against
// the trials run per tuple, with the early-stop level as a dashed line. Pure (no DOM).
import type { ChartConfiguration } from 'chart.js'
import { PALETTE, type Theme } from '../../../shared/charts'
import { base } from './inspect'
import { int, num } from '../format'

type Cfg = ChartConfiguration<'scatter'>

export const CONVERGENCE_X = 'Trials per (S, Q) tuple (random orders of Q simulated)'
export const CONVERGENCE_Y = 'Normalised std of the scores (eq. 3; no unit, log scale)'

/** Points of the series with a defined value (null = fewer than two trials: not drawn). */
export function convergencePoints(series: readonly { trials: number; normStd: number | null }[]): { x: number; y: number }[] {
  return series.filter((c) => c.normStd !== null && c.normStd > 0 && Number.isFinite(c.normStd)).map((c) => ({ x: c.trials, y: c.normStd as number }))
}

export function convergenceChart(series: readonly { trials: number; normStd: number | null }[], stopAt: number, theme: Theme): Cfg {
  const p = PALETTE[theme]
  const pts = convergencePoints(series)
  const o = base(theme, CONVERGENCE_X, CONVERGENCE_Y, 'linear', 'logarithmic')
  ;(o.scales.x.ticks as Record<string, unknown>).callback = (v: number | string) => int(Number(v))
  ;(o.scales.y.ticks as Record<string, unknown>).callback = (v: number | string) => num(Number(v), 3)
  const datasets: Cfg['data']['datasets'] = [
    { label: 'Pooled over the tuples', data: pts, borderColor: p.series[0], backgroundColor: p.series[0], showLine: true, borderWidth: 2, pointRadius: pts.length <= 80 ? 3 : 0 },
  ]
  if (stopAt > 0 && pts.length > 0) {
    const xs = pts.map((q) => q.x)
    datasets.push({ label: `Early stop below ${num(stopAt, 3)} (the paper's Fig. 2)`, data: [{ x: Math.min(...xs), y: stopAt }, { x: Math.max(...xs), y: stopAt }], borderColor: p.muted, backgroundColor: p.muted, showLine: true, borderDash: [6, 4], borderWidth: 1, pointRadius: 0 })
  }
  return { type: 'scatter', data: { datasets }, options: o } as Cfg
}
