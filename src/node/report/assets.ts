// What the self-contained report inlines: chart.js (read once from node_modules) and its CSS
// (light and dark through prefers-color-scheme; print: light, A4, tables that break cleanly).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

let chartJs: string | null = null

/** chart.js's UMD build (defines window.Chart), without its source-map comment. */
export function chartJsSource(): string {
  if (chartJs === null) {
    // The package exports only ".", so resolve that (dist/chart.cjs) and take its UMD sibling.
    const main = createRequire(import.meta.url).resolve('chart.js')
    const text = readFileSync(join(dirname(main), 'chart.umd.js'), 'utf8')
    chartJs = text.replace(/\n\/\/# sourceMappingURL=\S*\s*$/, '\n').replace(/<\/(script)/gi, '<\\/$1')
  }
  return chartJs
}

export const REPORT_CSS = `
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --soft: #f6f8fa;
  --key: #fff4e5; --key-line: #d55e00; --warn: #ffebe9; --warn-line: #cf222e; --note: #ddf4ff; --note-line: #0969da; --mark: #fff8c5; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --soft: #151b23;
    --key: #2b1d10; --key-line: #ff8c42; --warn: #2d1214; --warn-line: #f85149; --note: #0c2136; --note-line: #4493f8; --mark: #2e2a12; }
}
* { box-sizing: border-box; }
html { background: var(--bg); color: var(--fg); }
body { margin: 0 auto; max-width: 50rem; padding: 1.5rem 1.25rem 3rem; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", "Liberation Sans", Arial, sans-serif; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; overflow-wrap: anywhere; }
h2 { font-size: 1.25rem; margin: 2rem 0 .6rem; padding-bottom: .2rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.05rem; margin: 1.2rem 0 .4rem; }
.subtitle { color: var(--muted); margin: 0 0 1rem; }
nav ol { columns: 2; margin: .5rem 0 0; padding-left: 1.4rem; }
nav a { color: inherit; }
p { margin: .5rem 0; }
.tone-key, .tone-warning, .tone-note { padding: .6rem .8rem; border-left: 4px solid; border-radius: 4px; }
.tone-key { background: var(--key); border-color: var(--key-line); font-size: 1.05rem; font-weight: 600; }
.tone-warning { background: var(--warn); border-color: var(--warn-line); }
.tone-note { background: var(--note); border-color: var(--note-line); }
.verdict-card { border: 1px solid var(--line); border-left: 6px solid var(--key-line); border-radius: 6px; padding: .7rem 1rem; margin: .6rem 0 1rem; break-inside: avoid; }
.verdict-card.verdict-insufficient-data { border-left-color: var(--warn-line); }
.verdict-card .verdict-title { font-size: 1.3rem; font-weight: 700; margin: 0 0 .3rem; }
.verdict-card .verdict-reason { font-size: 1.02rem; margin: 0 0 .4rem; }
.verdict-rows .tone-warning, .verdict-rows .tone-note { background: none; border: 0; padding: 0; }
.verdict-rows dd.tone-warning { font-weight: 600; }
dl.facts { display: grid; grid-template-columns: minmax(9rem, 16rem) 1fr; gap: .2rem 1rem; margin: .6rem 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.table-wrap { overflow-x: auto; margin: .6rem 0; }
table { border-collapse: collapse; width: 100%; font-size: .82rem; font-variant-numeric: tabular-nums; }
caption { text-align: left; color: var(--muted); padding-bottom: .3rem; font-size: .85rem; }
th, td { padding: .2rem .45rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--soft); text-align: left; }
th.r { text-align: right; }
td.r { text-align: right; white-space: nowrap; }
td.nowrap { white-space: nowrap; }
tr.marked td { background: var(--mark); font-weight: 600; }
figure.chart { margin: 1rem 0 1.6rem; }
.chart-box { position: relative; height: 400px; }
figcaption { color: var(--muted); font-size: .85rem; margin-top: .4rem; }
.file { margin: .6rem 0 1rem; }
.file-name { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-weight: 600; }
pre { background: var(--soft); border: 1px solid var(--line); border-radius: 4px; padding: .6rem .8rem; font-size: .78rem; line-height: 1.4;
  white-space: pre-wrap; overflow-wrap: anywhere; margin: .3rem 0; }
footer { margin-top: 2.5rem; color: var(--muted); font-size: .8rem; border-top: 1px solid var(--line); padding-top: .6rem; }
@page { size: A4; margin: 14mm 12mm; }
@media print {
  :root { --bg: #ffffff; --fg: #000000; --muted: #444c56; --line: #c8d1da; --soft: #f3f5f7; --key: #fff4e5; --warn: #ffebe9; --note: #eef7ff; --mark: #fff8c5; }
  html, body { background: #fff; }
  body { max-width: none; padding: 0; font-size: 10.5pt; }
  nav { display: none; }
  h2 { break-after: avoid; }
  h3, caption, .file > div { break-after: avoid; }
  figure.chart, .tone-key, .tone-warning, .tone-note, dl.facts, tr, pre { break-inside: avoid; }
  thead { display: table-header-group; }
  .table-wrap { overflow: visible; }
  .chart-box { height: 92mm; }
  canvas { max-width: 100% !important; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
`
