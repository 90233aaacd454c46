// Chart.js configurations for the Inspect and Split steps, built from the back end's InspectData.
// Pure (no DOM): every axis has a title with its unit. `base` is shared with charts/timelimits.ts.
import type { ChartConfiguration } from 'chart.js'
import type { InspectData } from '../../../shared/api'
import { PALETTE, type Theme } from '../../../shared/charts'
import { formatDuration } from '../../../core/util/duration'
import { int, num, shortDuration } from '../format'

type Cfg = ChartConfiguration<'scatter' | 'bar'>

export function base(theme: Theme, x: string, y: string, xType: 'linear' | 'logarithmic' | 'category' = 'linear', yType: 'linear' | 'logarithmic' = 'linear') {
  const p = PALETTE[theme]
  const axis = (text: string, type: string) => ({
    type, title: { display: true, text, color: p.text, font: { size: 12 } },
    ticks: { color: p.muted, maxTicksLimit: 9 }, grid: { color: p.grid }, border: { color: p.grid },
  })
  return {
    animation: false as const, responsive: true, maintainAspectRatio: false,
    scales: { x: axis(x, xType), y: axis(y, yType) },
    plugins: { legend: { position: 'bottom' as const, labels: { color: p.text, usePointStyle: true, boxWidth: 8, boxHeight: 8 } }, title: { display: false } },
  }
}

const DAY = 86400
const isoDay = (days: number) => new Date(days * DAY * 1000).toISOString().slice(0, 10)

/** x of a log time: calendar days since 1970 when the log has a start date, else days of the log. */
export function dayAxis(unixStartTime: number | null): { of: (t: number) => number; label: (v: number) => string; title: string } {
  return unixStartTime === null
    ? { of: (t) => t / DAY, label: (v) => `day ${int(v)}`, title: 'Time (days since the log starts)' }
    : { of: (t) => (unixStartTime + t) / DAY, label: (v) => isoDay(v), title: 'Date (week starts, UTC)' }
}

const WEEK = 7 * DAY

/** Days the last week of the log covers (its start to the last submit), when it is shorter than a
 * week; null when every week is full (or the log has a single week: nothing to tell apart). */
export function partialLastWeekDays(d: InspectData, lastSubmit: number | undefined): number | null {
  const n = d.weeks.start.length
  if (lastSubmit === undefined || n < 2) return null
  const covered = lastSubmit - d.weeks.start[n - 1]
  return covered < WEEK - DAY / 24 ? Math.max(0, covered) / DAY : null
}

/** Weekly submitted load and EASY-FCFS utilization, in % of the machine. The last week of a log
 * usually ends early (the log stops mid-week): its share of a whole week's capacity is low for that
 * reason alone, so it is drawn apart (a thin dotted segment, a hollow point) and named partial with
 * the days it covers, never as one more full week. `lastSubmit` is the report's span.lastSubmit. */
export function weeklyLoadChart(d: InspectData, unixStartTime: number | null, theme: Theme, lastSubmit?: number): Cfg {
  const p = PALETTE[theme], ax = dayAxis(unixStartTime)
  const partial = partialLastWeekDays(d, lastSubmit)
  const n = d.weeks.start.length, full = partial === null ? n : n - 1
  const pts = (values: number[], from: number, to: number) => d.weeks.start.slice(from, to).map((t, k) => ({ x: ax.of(t), y: values[from + k] * 100 }))
  const line = (label: string, values: number[], color: string, dash?: number[]) => ({
    label, data: pts(values, 0, full), borderColor: color, backgroundColor: color,
    showLine: true, pointRadius: 0, borderWidth: 2, borderDash: dash,
  })
  const tail = (label: string, values: number[], color: string) => ({
    label: `${label}, last week partial (${num(partial ?? 0, 1)} of 7 days)`, data: pts(values, n - 2, n), borderColor: color, backgroundColor: 'transparent',
    showLine: true, pointRadius: [0, 4], pointStyle: 'circle', borderWidth: 1, borderDash: [2, 3],
  })
  const o = base(theme, ax.title, 'Share of the machine (%)')
  ;(o.scales.x.ticks as Record<string, unknown>).callback = (v: number | string) => ax.label(Number(v))
  // The x axis ends where the weeks end (no empty margin past the data).
  if (n > 0) Object.assign(o.scales.x, { min: ax.of(d.weeks.start[0]), max: ax.of(d.weeks.start[n - 1]) })
  Object.assign(o.scales.y, { min: 0 })
  const load = 'Submitted load (work submitted that week ÷ machine capacity)', util = 'Utilization under simulated EASY-FCFS'
  const datasets: object[] = [line(load, d.weeks.submittedLoad, p.series[0]), line(util, d.weeks.utilization, p.series[1], [6, 3])]
  if (partial !== null) datasets.push(tail('Submitted load', d.weeks.submittedLoad, p.series[0]), tail('Utilization', d.weeks.utilization, p.series[1]))
  return { type: 'scatter', data: { datasets }, options: o } as Cfg
}

/** Power-of-two bins: [1,2) → "1", [2,4) → "2–3", [64,128) → "64–127". */
export function procsBinLabel(lo: number, hi: number): string {
  return hi - lo <= 1 ? int(lo) : `${int(lo)}–${int(hi - 1)}`
}

export function procsHistogram(d: InspectData, theme: Theme): Cfg {
  const p = PALETTE[theme], h = d.procsHistogram
  const labels = h.counts.map((_, i) => procsBinLabel(h.edges[i], h.edges[i + 1]))
  const o = base(theme, 'Processors requested per job', 'Jobs', 'category')
  o.plugins.legend = { ...o.plugins.legend, display: false } as typeof o.plugins.legend
  return { type: 'bar', data: { labels, datasets: [{ label: 'Jobs', data: h.counts, backgroundColor: p.series[0] }] }, options: o } as Cfg
}

/** A log-binned duration histogram (requested time, recorded waits). */
export function durationHistogram(h: { edges: number[]; counts: number[] }, axisTitle: string, theme: Theme, colorIndex = 0): Cfg {
  const p = PALETTE[theme]
  const labels = h.counts.map((_, i) => `${shortDuration(h.edges[i])}–${shortDuration(h.edges[i + 1])}`)
  const o = base(theme, axisTitle, 'Jobs', 'category')
  o.plugins.legend = { ...o.plugins.legend, display: false } as typeof o.plugins.legend
  return { type: 'bar', data: { labels, datasets: [{ label: 'Jobs', data: h.counts, backgroundColor: p.series[colorIndex % p.series.length] }] }, options: o } as Cfg
}

const NICE = [1, 10, 60, 600, 3600, 4 * 3600, DAY, 7 * DAY, 30 * DAY]

/** Requested against actual runtime (log–log, seconds), with the "runtime = requested" diagonal. */
export function overEstimationChart(d: InspectData, theme: Theme): Cfg {
  const p = PALETTE[theme], o = d.overEstimation
  const pts = o.requested.map((r, i) => ({ x: Math.max(1, r), y: Math.max(1, o.runtime[i]) }))
  const hi = Math.max(1, ...pts.map((q) => Math.max(q.x, q.y)))
  const opts = base(theme, 'Requested time (log scale)', 'Actual runtime (log scale)', 'logarithmic', 'logarithmic')
  // Log axes in seconds get ticks at durations people read (1 min, 1 h, 10 h, 1 d…), not 10^k s.
  const niceTicks = (scale: { min: number; max: number; ticks: { value: number }[] }) => {
    scale.ticks = NICE.filter((v) => v >= scale.min && v <= scale.max).map((value) => ({ value }))
  }
  for (const ax of [opts.scales.x, opts.scales.y] as Record<string, unknown>[]) {
    ax.afterBuildTicks = niceTicks
    ;(ax.ticks as Record<string, unknown>).callback = (v: number | string) => formatDuration(Number(v))
    ;(ax.ticks as Record<string, unknown>).autoSkip = false
  }
  return {
    type: 'scatter',
    data: {
      datasets: [
        { label: `Jobs (sample of ${int(pts.length)})`, data: pts, backgroundColor: p.candidate, borderColor: p.candidate, pointRadius: 1.5 },
        { label: 'Runtime = requested (perfect estimate)', data: [{ x: 1, y: 1 }, { x: hi, y: hi }], showLine: true, pointRadius: 0, borderColor: p.recommended, borderDash: [6, 4], borderWidth: 1.5 },
      ],
    },
    options: opts,
  } as Cfg
}
