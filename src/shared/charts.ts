// Chart.js 4 configurations for the results step and the offline report, built from an
// EvaluationResult (docs/RESULT-SCHEMA.md). Pure and JSON-safe: plain data only (no functions, no
// DOM, chart.js imported for types only), so the wizard hands them to Chart.js (ChartPanel.vue) and the report
// inlines them as JSON. Every chart is a 'scatter' chart (lines are `showLine` datasets, whiskers
// are line datasets broken by null points), with `animation: false` and
// `maintainAspectRatio: false` (give the canvas's box a height). A point's tooltip text is its
// `label`: wrap a config with withTooltips() to show it. Colours: PALETTE (Okabe-Ito based,
// light and dark variants): build one config per theme and swap on a theme change.
import type { ChartConfiguration, ChartDataset, PointStyle, TooltipItem } from 'chart.js'
import type { EvaluationResult } from '../core/tune/result'
import { formatDuration, formatThreshold } from '../core/util/duration'
import { formatObjective, formatPercent, formatRatio, objectiveName } from '../core/util/format'
import { confidenceOf } from '../core/export/verdict-card'

export type Theme = 'light' | 'dark'
export type Part = 'train' | 'test'

export interface Palette {
  text: string; muted: string; grid: string
  baseline: string; recommended: string; bestOnTest: string
  candidate: string; outside: string; whisker: string
  /** Distinct line colours (the threshold curves, extra weekly lines). */
  series: string[]
}

export const PALETTE: Record<Theme, Palette> = {
  light: {
    text: '#1f2328', muted: '#59636e', grid: 'rgba(31,35,40,0.12)',
    baseline: '#1f2328', recommended: '#d55e00', bestOnTest: '#0072b2',
    candidate: 'rgba(89,99,110,0.6)', outside: 'rgba(204,121,167,0.75)', whisker: 'rgba(89,99,110,0.3)',
    series: ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#b07d00', '#56b4e9', '#6a3d9a'],
  },
  dark: {
    text: '#e6edf3', muted: '#9198a1', grid: 'rgba(230,237,243,0.14)',
    baseline: '#e6edf3', recommended: '#ff8c42', bestOnTest: '#56b4e9',
    candidate: 'rgba(145,152,161,0.65)', outside: 'rgba(229,143,196,0.8)', whisker: 'rgba(145,152,161,0.35)',
    series: ['#56b4e9', '#ff8c42', '#2ed3a0', '#e58fc4', '#f5b935', '#9ad3f5', '#b89cff'],
  },
}

export const CHART_IDS = ['risk', 'trainVsTest', 'thresholds', 'weekly'] as const
export type ChartId = (typeof CHART_IDS)[number]

export const CHART_TITLES: Record<ChartId, string> = {
  risk: 'Gain against longest wait, relative to EASY-FCFS',
  trainVsTest: 'Gain on the training months against gain on the test months',
  thresholds: 'Threshold trade-off for the best orders',
  weekly: 'Weekly objective, weeks sorted, for the chosen configurations',
}

/** One sentence per chart saying what the axes are (for captions and screen readers). */
export const CHART_CAPTIONS: Record<ChartId, string> = {
  risk: 'One point per candidate (order × threshold). x: longest wait as a multiple of EASY-FCFS\'s (1 = the same); y: share of EASY-FCFS\'s objective removed, in %, with its confidence interval (its level named in the legend) as a whisker (or the weekly ratio with its p10–p90 whisker). Up and to the left is better.',
  trainVsTest: 'One point per candidate. x: gain on the training months, y: gain on the test months, both in % of EASY-FCFS\'s objective removed. On the diagonal the test confirms the training; below it the choice generalized worse.',
  thresholds: 'For the best orders on train, each threshold as one point (marker shape = threshold). x: longest wait on test as a multiple of EASY-FCFS\'s; y: gain on test in %. Lower thresholds usually trade some gain for a shorter longest wait.',
  weekly: 'Each week\'s objective for EASY-FCFS, the recommendation and the best on test, sorted from the best week to the worst. x: share of weeks (%); y: the weekly objective.',
}

/** A point; `label` is its tooltip text (absent on whisker and guide lines). */
export interface ChartPoint { x: number | null; y: number | null; label?: string }
export type EasyTuneChart = ChartConfiguration<'scatter', ChartPoint[]>
type Dataset = ChartDataset<'scatter', ChartPoint[]>

export interface ChartOptions { theme?: Theme; part?: Part; /** Show the title inside the canvas (default true). */ title?: boolean }
export interface RiskOptions extends ChartOptions {
  /** 'max' (default): the longest wait of any week, ratio to EASY-FCFS's (the risk limit's measure);
   * 'mean': the mean over weeks of each week's longest wait, ratio to EASY-FCFS's. */
  x?: 'max' | 'mean'
  /** 'gain' (default): % removed, whiskers = the gain's interval at the protocol's confidence; 'ratio': mean weekly ratio, whiskers p10–p90. */
  y?: 'gain' | 'ratio'
  /** Draw the whiskers (default true). */
  whiskers?: boolean
}
export interface ThresholdOptions extends ChartOptions { /** How many orders (best on train first), default 5. */ orders?: number }

const finite = (...v: number[]) => v.every((x) => Number.isFinite(x))
const pct = (r: number) => formatPercent(r, 1)
const times = (r: number) => formatRatio(r)
const objectiveWords = (r: EvaluationResult) => objectiveName(r.protocol.objective)
const partWords = (p: Part) => (p === 'train' ? 'train' : 'test')
const gainTitle = (part: Part, what: string): AxisTitle => [`Gain on ${partWords(part)} (%)`, `share of EASY-FCFS's ${what} removed`]
const longestTitle = (part: Part) => `Longest wait on ${partWords(part)} (× EASY-FCFS's, worst week)`

/** Axis titles: "what (unit)" then an optional second line ("× EASY-FCFS's, worst week"). */
type AxisTitle = string | [string, string]

function options(title: string | null, x: AxisTitle, y: AxisTitle, p: Palette, xRange: { min?: number; max?: number } = {}): EasyTuneChart['options'] {
  const axis = (text: AxisTitle) => ({
    type: 'linear' as const, grace: '4%', title: { display: true, text, color: p.text, font: { size: 12 } },
    ticks: { color: p.muted }, grid: { color: p.grid }, border: { color: p.grid },
  })
  return {
    animation: false, responsive: true, maintainAspectRatio: false,
    scales: { x: { ...axis(x), ...xRange }, y: axis(y) },
    plugins: {
      title: { display: title !== null, text: title ?? '', color: p.text, font: { size: 14, weight: 'bold' } },
      legend: { position: 'bottom', labels: { color: p.text, usePointStyle: true, boxWidth: 8, boxHeight: 8, padding: 12 } },
    },
  }
}

function points(label: string, data: ChartPoint[], color: string, extra: Partial<Dataset> = {}): Dataset {
  return { label, data, borderColor: color, backgroundColor: color, pointRadius: 3, pointHoverRadius: 5, showLine: false, order: 2, ...extra }
}

/** Vertical segments (x, lo)–(x, hi), one line dataset broken by null points. */
function whiskerSet(label: string, segs: [number, number, number][], color: string): Dataset {
  const data: ChartPoint[] = segs.flatMap(([x, lo, hi]) => [{ x, y: lo }, { x, y: hi }, { x, y: null }])
  return { label, data, borderColor: color, backgroundColor: color, showLine: true, spanGaps: false, pointStyle: 'line', pointRadius: 0, pointHitRadius: 0, pointHoverRadius: 0, borderWidth: 1.5, order: 3 }
}

function roles(r: EvaluationResult, i: number): string[] {
  const out: string[] = []
  if (r.candidates[i]?.baseline) out.push('baseline')
  if (i === r.recommended) out.push('recommended')
  if (i === r.bestOnTest) out.push('best on test')
  return out
}

/** Baseline, recommendation and best on test as highlighted datasets (drawn on top). */
function highlights(r: EvaluationResult, p: Palette, at: (i: number) => ChartPoint | null): Dataset[] {
  const spec: [number, string, string, PointStyle, number][] = [
    [0, 'EASY-FCFS (baseline)', p.baseline, 'crossRot', 7],
    [r.recommended ?? 0, `Recommended: ${r.candidates[r.recommended ?? 0]?.label}`, p.recommended, 'rectRot', 8],
    [r.bestOnTest, `Best on test (hindsight): ${r.candidates[r.bestOnTest]?.label}`, p.bestOnTest, 'triangle', 7],
  ]
  const seen = new Set<number>()
  return spec.filter(([i]) => !seen.has(i) && seen.add(i) && r.candidates[i]).map(([i, label, color, pointStyle, radius]) => {
    const pt = at(i)
    return points(roles(r, i).length > 1 ? `${r.candidates[i].label} (${roles(r, i).join(', ')})` : label, pt ? [pt] : [], color,
      { pointStyle, pointRadius: radius, pointHoverRadius: radius + 2, borderWidth: 2, order: 0 })
  })
}

function isHighlighted(r: EvaluationResult, i: number): boolean {
  return i === 0 || i === r.recommended || i === r.bestOnTest
}

/** Thesis Fig. 5.2/5.3: every candidate's gain (or mean weekly ratio) against its longest-wait
 * ratio on one part, relative to EASY-FCFS on the same weeks; whiskers: the gain's interval (or
 * p10–p90 of the weekly ratios); the risk limit as a dashed vertical line when one was set. */
export function scatterRisk(r: EvaluationResult, opts: RiskOptions = {}): EasyTuneChart {
  const p = PALETTE[opts.theme ?? 'light'], part = opts.part ?? 'test', xk = opts.x ?? 'max', yk = opts.y ?? 'gain'
  const what = objectiveWords(r)
  const level = formatPercent(confidenceOf(r), 0)
  const at = (i: number): ChartPoint | null => {
    const s = r.candidates[i][part]
    const x = xk === 'max' ? s.maxMaxWaitRatio : s.meanMaxWaitRatio, y = yk === 'gain' ? s.gain * 100 : s.meanRatio
    if (!finite(x, y)) return null
    const yText = yk === 'gain' ? `gain ${pct(s.gain)} (${level} interval ${pct(s.gainCi[0])} to ${pct(s.gainCi[1])})` : `weekly ratio ${times(s.meanRatio)} (p10–p90 ${times(s.p10Ratio)}–${times(s.p90Ratio)})`
    const xText = xk === 'max' ? `longest wait ${times(x)} (${formatDuration(s.maxMaxWait)})` : `weekly longest wait ${times(x)} (mean ${formatDuration(s.meanMaxWait)})`
    return { x, y, label: `${r.candidates[i].label}: ${yText}, ${xText}` }
  }
  const whisk = (i: number): [number, number, number] | null => {
    const s = r.candidates[i][part], pt = at(i)
    const [lo, hi] = yk === 'gain' ? [s.gainCi[0] * 100, s.gainCi[1] * 100] : [s.p10Ratio, s.p90Ratio]
    return pt && pt.x !== null && finite(lo, hi) ? [pt.x, lo, hi] : null
  }
  const idx = r.candidates.map((_, i) => i)
  const limit = r.protocol.risk.maxWaitRatio
  const inside = idx.filter((i) => !isHighlighted(r, i) && (limit === null || r.candidates[i].admissible))
  const outside = idx.filter((i) => !isHighlighted(r, i) && limit !== null && !r.candidates[i].admissible)
  const pts = (list: number[]) => list.map(at).filter((x): x is ChartPoint => x !== null)
  const datasets: Dataset[] = [...highlights(r, p, at), points('Other candidates', pts(inside), p.candidate)]
  if (outside.length) datasets.push(points('Outside the risk limit (on train)', pts(outside), p.outside, { pointStyle: 'rect' }))
  const segs = opts.whiskers === false ? [] : idx.map(whisk).filter((s): s is [number, number, number] => s !== null)
  if (segs.length) datasets.push(whiskerSet(yk === 'gain' ? `${level} confidence interval` : 'p10–p90 of weekly ratios', segs, p.whisker))
  if (limit !== null && xk === 'max') {
    const ys = [...segs.flatMap((s) => [s[1], s[2]]), ...pts(idx).map((q) => q.y as number)]
    datasets.push({ ...whiskerSet(`Risk limit: ${limit}× (applies on train)`, [[limit, Math.min(...ys), Math.max(...ys)]], p.outside), borderDash: [6, 4], order: 1 })
  }
  const xTitle = xk === 'max' ? longestTitle(part) : `Weekly longest wait on ${partWords(part)} (× EASY-FCFS's, mean over weeks)`
  const yTitle: AxisTitle = yk === 'gain' ? gainTitle(part, what) : [`Weekly ${what} (× EASY-FCFS's)`, `on ${partWords(part)}, mean over weeks`]
  return { type: 'scatter', data: { datasets }, options: options(opts.title === false ? null : CHART_TITLES.risk, xTitle, yTitle, p) }
}

/** Thesis Fig. 5.8: train gain (x, %) against test gain (y, %) per candidate, with the diagonal. */
export function trainVsTest(r: EvaluationResult, opts: ChartOptions = {}): EasyTuneChart {
  const p = PALETTE[opts.theme ?? 'light']
  const at = (i: number): ChartPoint | null => {
    const c = r.candidates[i]
    return finite(c.train.gain, c.test.gain) ? { x: c.train.gain * 100, y: c.test.gain * 100, label: `${c.label}: train gain ${pct(c.train.gain)}, test gain ${pct(c.test.gain)}` } : null
  }
  const all = r.candidates.map((_, i) => at(i)).filter((x): x is ChartPoint => x !== null)
  const others = r.candidates.map((_, i) => i).filter((i) => !isHighlighted(r, i))
  const limit = r.protocol.risk.maxWaitRatio
  const pts = (keep: (i: number) => boolean) => others.filter(keep).map(at).filter((x): x is ChartPoint => x !== null)
  const datasets: Dataset[] = [...highlights(r, p, at), points('Other candidates', pts((i) => limit === null || r.candidates[i].admissible), p.candidate)]
  const out = pts((i) => limit !== null && !r.candidates[i].admissible)
  if (out.length) datasets.push(points('Outside the risk limit (on train)', out, p.outside, { pointStyle: 'rect' }))
  const vals = all.flatMap((q) => [q.x as number, q.y as number])
  if (vals.length) {
    const lo = Math.min(0, ...vals), hi = Math.max(0, ...vals)
    datasets.push({ ...whiskerSet('Test gain = train gain', [], p.muted), data: [{ x: lo, y: lo }, { x: hi, y: hi }], borderDash: [6, 4], borderWidth: 1, order: 4 })
  }
  const what = objectiveWords(r)
  return { type: 'scatter', data: { datasets }, options: options(opts.title === false ? null : CHART_TITLES.trainVsTest, `Gain on train (%, share of EASY-FCFS's ${what} removed)`, gainTitle('test', what), p) }
}

const SHAPES: PointStyle[] = ['circle', 'triangle', 'rect', 'rectRot', 'star', 'crossRot', 'rectRounded', 'cross']

/** Thesis Fig. 5.6/5.7: for the best few orders on train (primary × backfill), one curve across
 * the thresholds: longest-wait ratio (x, ×) against gain (y, %) on one part (default test). */
export function thresholdTradeoff(r: EvaluationResult, opts: ThresholdOptions = {}): EasyTuneChart {
  const p = PALETTE[opts.theme ?? 'light'], part = opts.part ?? 'test'
  const byOrder = new Map<string, number[]>()
  for (const i of new Set([...r.ranking, ...r.candidates.map((_, k) => k)])) {
    const c = r.candidates[i]
    if (!c || c.baseline) continue
    const key = c.backfill === 'same' ? `EASY-${c.primary}` : `EASY-${c.primary}-${c.backfill}`
    byOrder.set(key, [...(byOrder.get(key) ?? []), i])
  }
  // No threshold first, then the largest to the smallest: the curve runs from "never promote" on.
  const rank = (t: number | null) => (t === null ? -Infinity : -t)
  const thresholds = [...new Set(r.candidates.filter((c) => !c.baseline).map((c) => c.threshold))].sort((a, b) => rank(a) - rank(b))
  const shape = (t: number | null) => SHAPES[thresholds.indexOf(t) % SHAPES.length]
  const datasets: Dataset[] = [...byOrder].slice(0, opts.orders ?? 5).map(([name, list], k) => {
    const sorted = list.slice().sort((a, b) => rank(r.candidates[a].threshold) - rank(r.candidates[b].threshold))
      .filter((i) => finite(r.candidates[i][part].maxMaxWaitRatio, r.candidates[i][part].gain))
    const color = p.series[k % p.series.length]
    return points(name, sorted.map((i) => {
      const c = r.candidates[i], s = c[part]
      return { x: s.maxMaxWaitRatio, y: s.gain * 100, label: `${name} Θ=${formatThreshold(c.threshold)}: gain ${pct(s.gain)}, longest wait ${times(s.maxMaxWaitRatio)} (${formatDuration(s.maxMaxWait)})` }
    }), color, { showLine: true, borderWidth: 2, pointRadius: 5, pointStyle: sorted.map((i) => shape(r.candidates[i].threshold)), order: 1 })
  })
  const base = r.candidates[0]
  if (base) datasets.push(points('EASY-FCFS (baseline)', [{ x: 1, y: 0, label: 'EASY-FCFS: the reference (gain 0%, longest wait 1×)' }], p.baseline, { pointStyle: 'crossRot', pointRadius: 7, borderWidth: 2, order: 0 }))
  for (const t of thresholds) datasets.push(points(`Θ = ${formatThreshold(t)}`, [], p.muted, { pointStyle: shape(t), pointRadius: 5 }))
  const what = objectiveWords(r)
  return { type: 'scatter', data: { datasets }, options: options(opts.title === false ? null : CHART_TITLES.thresholds, longestTitle(part), gainTitle(part, what), p) }
}

/** result.weekly on one part (default test): each configuration's weekly objective sorted from
 * the best week to the worst; x = share of weeks (%), y = the objective (min or h for waits). */
export function weeklyDistribution(r: EvaluationResult, opts: ChartOptions = {}): EasyTuneChart {
  const p = PALETTE[opts.theme ?? 'light'], part = opts.part ?? 'test'
  const wait = r.protocol.objective === 'avgWait'
  const all = r.weekly.flatMap((w) => w[part]).filter((v) => Number.isFinite(v))
  const [unit, div] = !wait ? ['no unit', 1] : Math.max(0, ...all) < 7200 ? ['min', 60] : ['h', 3600]
  const fmt = (v: number) => formatObjective(r.protocol.objective, v)
  const colorOf = (label: string, k: number) => {
    const i = r.candidates.findIndex((c) => c.label === label)
    return i === 0 ? p.baseline : i === r.recommended ? p.recommended : i === r.bestOnTest ? p.bestOnTest : p.series[(k + 2) % p.series.length]
  }
  const datasets: Dataset[] = r.weekly.map((w, k) => {
    const v = w[part].filter((x) => Number.isFinite(x)).slice().sort((a, b) => a - b)
    const i = r.candidates.findIndex((c) => c.label === w.label)
    const role = i < 0 ? [] : roles(r, i)
    const mean = v.reduce((a, b) => a + b, 0) / (v.length || 1)
    const name = `${w.label}${role.length ? ` (${role.join(', ')})` : ''}, mean ${fmt(mean)}`
    return points(name, v.map((y, j) => ({ x: ((j + 0.5) / v.length) * 100, y: y / div, label: `${w.label}: ${fmt(y)} (week ${j + 1} of ${v.length}, sorted)` })), colorOf(w.label, k),
      { showLine: true, borderWidth: 2, pointRadius: v.length <= 60 ? 3 : 0, borderDash: i === 0 ? [6, 4] : undefined, order: i === 0 ? 2 : 1 })
  })
  const what = wait ? 'average wait' : 'average bounded slowdown'
  // x spans the weeks drawn (no empty margin past the first and last week); y starts at 0: a wait
  // or a slowdown is never negative, so the axis never shows negative values.
  const xs = datasets.flatMap((s) => s.data.map((q) => q.x)).filter((x): x is number => typeof x === 'number')
  const xRange = xs.length ? { min: Math.min(...xs), max: Math.max(...xs) } : { min: 0, max: 100 }
  const o = options(opts.title === false ? null : CHART_TITLES.weekly, `Weeks on ${partWords(part)}, sorted from best to worst (% of weeks)`, [`Weekly ${what} (${unit})`, `on ${partWords(part)}`], p, xRange)
  if (o?.scales?.y) Object.assign(o.scales.y, { min: 0 })
  return { type: 'scatter', data: { datasets }, options: o }
}

/** Any chart by id, e.g. for a loop over CHART_IDS. */
export function buildChart(id: ChartId, r: EvaluationResult, opts: ChartOptions = {}): EasyTuneChart {
  return { risk: scatterRisk, trainVsTest, thresholds: thresholdTradeoff, weekly: weeklyDistribution }[id](r, opts)
}

/** The tooltip text of a point: its `label`, else "dataset: value". */
export function tooltipLabel(ctx: TooltipItem<'scatter'>): string {
  const raw = ctx.raw as ChartPoint | null
  return raw?.label ?? `${ctx.dataset.label ?? ''}: ${ctx.formattedValue}`
}

/** A copy of a config whose tooltips show each point's `label` (adds a function: not JSON-safe). */
export function withTooltips(c: EasyTuneChart): EasyTuneChart {
  const plugins = c.options?.plugins ?? {}
  return { ...c, options: { ...c.options, plugins: { ...plugins, tooltip: { ...plugins.tooltip, callbacks: { ...plugins.tooltip?.callbacks, label: tooltipLabel } } } } }
}
