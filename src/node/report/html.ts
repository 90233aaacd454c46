// The offline report as one self-contained HTML file: inline CSS, the chart configurations and
// the result as inline JSON, chart.js inlined, a CSP that allows nothing but inline script and
// style (no network at all). Every text from the result (file names, header lines, labels) is
// HTML-escaped; JSON inside <script> is escaped against "</script>" and U+2028/2029.
import { showControl } from '../../core/util/control'
import { exportConfig } from '../../core/export/index'
import { buildReportModel, validateResult, type Block, type ReportExport } from '../../core/export/report-model'
import type { EvaluationResult } from '../../core/tune/result'
import { verdictOf } from '../../core/export/verdict-card'
import { buildChart, CHART_CAPTIONS, CHART_IDS, CHART_TITLES, type ChartId } from '../../shared/charts'
import { formatUtcMinute } from '../../core/util/format'
import { chartJsSource, REPORT_CSS } from './assets'

export const REPORT_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'"

export function escapeHtml(s: unknown): string {
  // Control characters (a log's header may hold an ANSI escape) are shown as escapes, never raw.
  return showControl(String(s)).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string)
}

/** JSON safe inside a <script> element: no "<", ">", "&" or line separators left raw. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

export interface ReportOptions {
  /** Shown under the title, e.g. "2025-01-31 14:02 UTC". Default: now. */
  generatedAt?: string
  /** The walltimes analysis (easytune walltimes --json): adds the time-limits section. */
  walltimes?: unknown
  /** Show the user names the analysis holds (for local eyes only); pseudonyms otherwise. */
  names?: boolean
}

/** The SLURM and PBS exports of the recommendation (an error becomes a note in the report); none
 * when the verdict is not `switch` (nothing to change, or not enough data: the report says so). */
export function defaultExports(result: EvaluationResult): ReportExport[] {
  if (verdictOf(result) !== 'switch') return []
  return (['slurm', 'pbs'] as const).map((target): ReportExport => {
    try {
      return exportConfig(result, target)
    } catch (e) {
      return { target, error: (e as Error).message }
    }
  })
}

function block(b: Block, figure: { n: number }): string {
  const e = escapeHtml
  switch (b.kind) {
    case 'text': return `<p${b.tone ? ` class="tone-${b.tone}"` : ''}>${e(b.text)}</p>`
    case 'heading': return `<h3>${e(b.text)}</h3>`
    case 'list': return `<ul>${b.items.map((i) => `<li>${e(i)}</li>`).join('')}</ul>`
    case 'facts': return `<dl class="facts">${b.rows.map(([k, v]) => `<dt>${e(k)}</dt><dd>${e(v)}</dd>`).join('')}</dl>`
    case 'table': {
      const nowrap = new Set(b.nowrap ?? []), marked = new Set(b.marked ?? [])
      const cls = (i: number, td: boolean) => {
        const c = [b.align[i] === 'r' && 'r', td && nowrap.has(i) && 'nowrap'].filter(Boolean).join(' ')
        return c ? ` class="${c}"` : ''
      }
      return `<div class="table-wrap"><table><caption>${e(b.caption)}</caption><thead><tr>${b.head.map((h, i) => `<th${cls(i, false)}>${e(h)}</th>`).join('')}</tr></thead><tbody>` +
        b.rows.map((r, k) => `<tr${marked.has(k) ? ' class="marked"' : ''}>${r.map((c, i) => `<td${cls(i, true)}>${e(c)}</td>`).join('')}</tr>`).join('\n') + '</tbody></table></div>'
    }
    case 'chart': {
      const id: ChartId = b.id
      figure.n++
      return `<figure class="chart" id="figure-${id}"><div class="chart-box"><canvas data-chart="${id}" role="img" aria-label="${e(CHART_TITLES[id])}"></canvas></div>` +
        `<figcaption><b>Figure ${figure.n}. ${e(CHART_TITLES[id])}.</b> ${e(CHART_CAPTIONS[id])}</figcaption></figure>`
    }
    case 'verdict': {
      const c = b.card
      const tone = (t?: string) => (t ? ` class="tone-${e(t)}"` : '')
      return `<div class="verdict-card verdict-${e(c.verdict)}" data-verdict="${e(c.verdict)}"><p class="verdict-title">${e(c.title)}</p><p class="verdict-reason">${e(c.reason)}</p>` +
        `<dl class="facts verdict-rows">${c.rows.map((r) => `<dt${tone(r.tone)}>${e(r.label)}</dt><dd${tone(r.tone)} data-row="${e(r.key)}">${e(r.text)}</dd>`).join('')}</dl></div>`
    }
    case 'file': return `<div class="file"><div><span class="file-name">${e(b.name)}</span>: ${e(b.description)}</div><pre>${e(b.content)}</pre></div>`
  }
}

// Runs in the page: draws every canvas[data-chart] from the inline configurations, in the colour
// scheme of the moment (light when printing), and marks <html data-charts="n"> when done.
const INIT = `(function () {
  var data = JSON.parse(document.getElementById('easytune-charts').textContent);
  var charts = [];
  var dark = window.matchMedia('(prefers-color-scheme: dark)'), print = window.matchMedia('print');
  function label(ctx) { var raw = ctx.raw; return raw && raw.label ? raw.label : (ctx.dataset.label || '') + ': ' + ctx.formattedValue; }
  function draw(theme) {
    charts.forEach(function (c) { c.destroy(); });
    charts = [];
    document.querySelectorAll('canvas[data-chart]').forEach(function (canvas) {
      var cfg = data[theme][canvas.getAttribute('data-chart')];
      if (!cfg) return;
      cfg = JSON.parse(JSON.stringify(cfg));
      cfg.options.devicePixelRatio = Math.max(2, window.devicePixelRatio || 1);
      cfg.options.plugins.tooltip = { callbacks: { label: label } };
      charts.push(new Chart(canvas, cfg));
    });
    document.documentElement.setAttribute('data-charts', String(charts.length));
  }
  function current() { return dark.matches && !print.matches ? 'dark' : 'light'; }
  if (typeof Chart === 'undefined') { document.documentElement.setAttribute('data-charts', 'error'); return; }
  Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
  draw(current());
  dark.addEventListener('change', function () { draw(current()); });
  print.addEventListener('change', function () { draw(current()); });
  window.addEventListener('beforeprint', function () { draw('light'); charts.forEach(function (c) { c.resize(); }); });
  window.addEventListener('afterprint', function () { draw(current()); });
})();`

/** The report as one HTML string. `exports`: the exported configurations to show; undefined =
 * export the recommendation to SLURM and PBS now; null = none. Throws an Error in plain words when
 * the result is not a valid schema-1 EvaluationResult. */
export function renderReportHtml(result: unknown, exports?: ReportExport[] | null, opts: ReportOptions = {}): string {
  const generatedAt = opts.generatedAt ?? formatUtcMinute(new Date())
  const r = validateResult(result)
  const model = buildReportModel(r, exports === undefined ? defaultExports(r) : exports ?? [], { generatedAt, walltimes: opts.walltimes, names: opts.names })
  const charts = Object.fromEntries((['light', 'dark'] as const).map((theme) => [theme, Object.fromEntries(CHART_IDS.map((id) => [id, buildChart(id, r, { theme })]))]))
  const figure = { n: 0 }
  const e = escapeHtml
  const sections = model.sections.map((s) => `<section id="${e(s.id)}"><h2>${e(s.title)}</h2>\n${s.blocks.map((b) => block(b, figure)).join('\n')}\n</section>`).join('\n')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="${e(r.generator)}">
<title>${e(model.title)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header><h1>${e(model.title)}</h1><p class="subtitle">${e(model.subtitle)}</p>
<nav aria-label="Contents"><ol>${model.sections.map((s) => `<li><a href="#${e(s.id)}">${e(s.title)}</a></li>`).join('')}</ol></nav></header>
<main>
${sections}
</main>
<footer>Made offline by ${e(r.generator)}: this file holds everything it shows (styles, data, chart code) and loads nothing from the network. The evaluation result it was made from is embedded below as JSON (element #easytune-result).</footer>
<noscript><p class="tone-warning">The charts need JavaScript; the tables above hold the same numbers.</p></noscript>
<script type="application/json" id="easytune-charts">${scriptJson(charts)}</script>
<script type="application/json" id="easytune-result">${scriptJson(result)}</script>
<script>${chartJsSource()}</script>
<script>${INIT}</script>
</body>
</html>
`
}
