// A tiny SVG serializer for the wizard's charts: chart.js has no SVG renderer, so this redraws a
// laid-out chart from its geometry (axes, grid, tick labels, axis titles, title, legend, points
// with their shapes, lines with gaps and dashes, bars). It covers scatter, line and bar charts and
// nothing else; charts drawn by custom plugins are not used in the wizard.
import type { Chart } from 'chart.js'

interface Pt { x: number; y: number; skip?: boolean; options?: Record<string, unknown> }

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
const n = (v: number) => (Math.round(v * 10) / 10).toString()
const pick = <T>(v: T | T[] | undefined, i: number, fallback: T): T => (Array.isArray(v) ? (v[i % v.length] ?? fallback) : (v ?? fallback))
const colorOf = (v: unknown, fallback: string) => (typeof v === 'string' ? v : fallback)

/** One point marker as SVG, for chart.js's point styles (star and rounded shapes approximated). */
export function marker(style: string, x: number, y: number, r: number, fill: string, stroke: string, width: number): string {
  const a = `fill="${esc(fill)}" stroke="${esc(stroke)}" stroke-width="${n(width)}"`
  const line = (x1: number, y1: number, x2: number, y2: number) => `<line x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}" stroke="${esc(stroke)}" stroke-width="${n(Math.max(width, 1.5))}"/>`
  const d = r * Math.SQRT1_2
  switch (style) {
    case 'rect': case 'rectRounded': return `<rect x="${n(x - d)}" y="${n(y - d)}" width="${n(2 * d)}" height="${n(2 * d)}" ${a}/>`
    case 'rectRot': return `<polygon points="${n(x)},${n(y - r)} ${n(x + r)},${n(y)} ${n(x)},${n(y + r)} ${n(x - r)},${n(y)}" ${a}/>`
    case 'triangle': return `<polygon points="${n(x)},${n(y - r)} ${n(x + r * 0.866)},${n(y + r / 2)} ${n(x - r * 0.866)},${n(y + r / 2)}" ${a}/>`
    case 'cross': return line(x - r, y, x + r, y) + line(x, y - r, x, y + r)
    case 'crossRot': return line(x - d, y - d, x + d, y + d) + line(x - d, y + d, x + d, y - d)
    case 'star': return line(x - r, y, x + r, y) + line(x, y - r, x, y + r) + line(x - d, y - d, x + d, y + d) + line(x - d, y + d, x + d, y - d)
    case 'line': case 'dash': return line(x - r, y, x + r, y)
    default: return `<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" ${a}/>`
  }
}

function axes(chart: Chart, text: string, grid: string): string[] {
  const out: string[] = []
  const area = chart.chartArea
  for (const scale of Object.values(chart.scales)) {
    const opts = scale.options as unknown as { display?: boolean; title?: { display?: boolean; text?: string | string[] }; ticks?: { color?: string }; grid?: { color?: string } }
    if (opts.display === false) continue
    const horizontal = scale.isHorizontal()
    const tickColor = colorOf(opts.ticks?.color, text), gridColor = colorOf(opts.grid?.color, grid)
    scale.ticks.forEach((t, i) => {
      const p = scale.getPixelForTick(i)
      const label = Array.isArray(t.label) ? t.label.join(' ') : String(t.label ?? '')
      if (horizontal) {
        out.push(`<line x1="${n(p)}" y1="${n(area.top)}" x2="${n(p)}" y2="${n(area.bottom)}" stroke="${esc(gridColor)}"/>`)
        out.push(`<text x="${n(p)}" y="${n(area.bottom + 16)}" text-anchor="middle" fill="${esc(tickColor)}" font-size="11">${esc(label)}</text>`)
      } else {
        out.push(`<line x1="${n(area.left)}" y1="${n(p)}" x2="${n(area.right)}" y2="${n(p)}" stroke="${esc(gridColor)}"/>`)
        out.push(`<text x="${n(area.left - 6)}" y="${n(p + 4)}" text-anchor="end" fill="${esc(tickColor)}" font-size="11">${esc(label)}</text>`)
      }
    })
    const lines = opts.title?.display ? (Array.isArray(opts.title.text) ? opts.title.text : [opts.title.text ?? '']).filter((l) => l) : []
    lines.forEach((line, k) => {
      // Multi-line titles as chart.js draws them: the last line nearest the axis.
      const off = (lines.length - 1 - k) * 14
      out.push(horizontal
        ? `<text x="${n((area.left + area.right) / 2)}" y="${n(scale.bottom - 4 - off)}" text-anchor="middle" fill="${esc(text)}" font-size="12">${esc(line)}</text>`
        : `<text transform="translate(${n(scale.left + 12 + k * 14)},${n((area.top + area.bottom) / 2)}) rotate(-90)" text-anchor="middle" fill="${esc(text)}" font-size="12">${esc(line)}</text>`)
    })
  }
  out.push(`<rect x="${n(area.left)}" y="${n(area.top)}" width="${n(area.right - area.left)}" height="${n(area.bottom - area.top)}" fill="none" stroke="${esc(grid)}"/>`)
  return out
}

function datasets(chart: Chart): string[] {
  const out: string[] = []
  const area = chart.chartArea
  chart.data.datasets.forEach((ds, i) => {
    const meta = chart.getDatasetMeta(i)
    if (!chart.isDatasetVisible(i)) return
    const d = ds as unknown as Record<string, unknown>
    const stroke = colorOf(pick(d.borderColor as string | string[] | undefined, 0, '#888'), '#888')
    const els = meta.data as unknown as (Pt & { base?: number; width?: number; height?: number; horizontal?: boolean })[]
    if (meta.type === 'bar') {
      els.forEach((e, k) => {
        const fill = colorOf(pick(d.backgroundColor as string | string[] | undefined, k, stroke), stroke)
        const w = e.width ?? 0, base = e.base ?? area.bottom
        out.push(`<rect x="${n(e.x - w / 2)}" y="${n(Math.min(e.y, base))}" width="${n(w)}" height="${n(Math.abs(base - e.y))}" fill="${esc(fill)}"/>`)
      })
      return
    }
    if (d.showLine || meta.type === 'line') {
      const dash = Array.isArray(d.borderDash) && d.borderDash.length ? ` stroke-dasharray="${(d.borderDash as number[]).join(' ')}"` : ''
      const width = typeof d.borderWidth === 'number' ? d.borderWidth : 2
      let run: string[] = []
      const flush = () => { if (run.length > 1) out.push(`<polyline points="${run.join(' ')}" fill="none" stroke="${esc(stroke)}" stroke-width="${n(width)}"${dash}/>`); run = [] }
      for (const e of els) { if (e.skip || !Number.isFinite(e.x) || !Number.isFinite(e.y)) flush(); else run.push(`${n(e.x)},${n(e.y)}`) }
      flush()
    }
    els.forEach((e, k) => {
      if (e.skip || !Number.isFinite(e.x) || !Number.isFinite(e.y)) return
      const o = (e.options ?? {}) as { radius?: number; pointStyle?: string; backgroundColor?: string; borderColor?: string; borderWidth?: number }
      const r = o.radius ?? 3
      if (!(r > 0)) return
      const style = typeof o.pointStyle === 'string' ? o.pointStyle : String(pick(d.pointStyle as string | string[] | undefined, k, 'circle'))
      out.push(marker(style, e.x, e.y, r, colorOf(o.backgroundColor, stroke), colorOf(o.borderColor, stroke), o.borderWidth ?? 1))
    })
  })
  return out
}

function legendAndTitle(chart: Chart, text: string): string[] {
  const out: string[] = []
  const titleBox = (chart as unknown as { titleBlock?: unknown }).titleBlock as { options?: { display?: boolean; text?: string | string[] }; top?: number; bottom?: number } | undefined
  if (titleBox?.options?.display && titleBox.options.text) {
    const t = Array.isArray(titleBox.options.text) ? titleBox.options.text.join(' ') : titleBox.options.text
    out.push(`<text x="${n(chart.width / 2)}" y="${n(((titleBox.top ?? 0) + (titleBox.bottom ?? 20)) / 2 + 5)}" text-anchor="middle" fill="${esc(text)}" font-size="14" font-weight="bold">${esc(t)}</text>`)
  }
  const legend = chart.legend as unknown as { legendItems?: { text: string; fillStyle?: string; strokeStyle?: string; pointStyle?: string; hidden?: boolean }[]; legendHitBoxes?: { left: number; top: number; width: number; height: number }[]; options?: { display?: boolean } } | undefined
  if (legend?.options?.display !== false && legend?.legendItems && legend.legendHitBoxes) {
    legend.legendItems.forEach((item, i) => {
      const box = legend.legendHitBoxes![i]
      if (!box || item.hidden) return
      const fill = colorOf(item.fillStyle, '#888'), stroke = colorOf(item.strokeStyle, fill)
      out.push(marker(item.pointStyle ?? 'circle', box.left + 5, box.top + box.height / 2, 4, fill, stroke, 1.5))
      out.push(`<text x="${n(box.left + 14)}" y="${n(box.top + box.height / 2 + 4)}" fill="${esc(text)}" font-size="12">${esc(item.text)}</text>`)
    })
  }
  return out
}

/** The chart as a standalone SVG document (same size as the canvas, CSS pixels). */
export function chartToSvg(chart: Chart, colors: { background: string; text: string; grid: string }): string {
  const w = chart.width, h = chart.height
  const parts = [
    `<rect width="${n(w)}" height="${n(h)}" fill="${esc(colors.background)}"/>`,
    ...axes(chart, colors.text, colors.grid),
    `<g clip-path="url(#area)">`, ...datasets(chart), `</g>`,
    ...legendAndTitle(chart, colors.text),
  ]
  const a = chart.chartArea
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${n(w)}" height="${n(h)}" viewBox="0 0 ${n(w)} ${n(h)}" font-family="system-ui, sans-serif">`,
    `<defs><clipPath id="area"><rect x="${n(a.left - 8)}" y="${n(a.top - 8)}" width="${n(a.right - a.left + 16)}" height="${n(a.bottom - a.top + 16)}"/></clipPath></defs>`,
    ...parts, '</svg>',
  ].join('\n')
}
