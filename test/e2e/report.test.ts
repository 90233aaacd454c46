// The offline report in a real browser (Debian's Chromium through playwright-core): made by the
// CLI from a real evaluation of the bundled log, opened from file:// with every network request
// refused; every chart must paint, with no console error and no request leaving the file; the
// report opens with the verdict card on its first screen. The PDF (headless Chromium) must be
// valid; its first page becomes a PNG when pdftoppm exists.
// Artifacts: test-artifacts/report/. Without /usr/bin/chromium the suite is skipped, unless
// EASYTUNE_CI=1 (CI), where it fails.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, CHROMIUM_ARGS, requireChromium, skipWithoutChromium, stopwatch } from '../support/chromium'
import { runCli } from '../support/cli'
import { requireTool } from '../support/tools'

const skip = skipWithoutChromium('report e2e')

const OUT = resolve('test-artifacts/report')
const HTML = join(OUT, 'report.html')
const PDF = join(OUT, 'report.pdf')
const ARGS = CHROMIUM_ARGS

describe.skipIf(skip)('offline report in Chromium', () => {
  let browser: Browser
  const { timings, timed } = stopwatch()

  beforeAll(async () => {
    requireChromium()
    rmSync(OUT, { recursive: true, force: true })
    mkdirSync(OUT, { recursive: true })
    const json = join(OUT, 'result.json')
    // A risk limit, so the report shows candidates outside it and the limit line.
    const ev = await timed('evaluate', () => runCli(['evaluate', 'resources/KTH-SP2-1996-2.1-cln.swf.gz', '--weeks', '6', '--preset', 'ch5', '--max-wait-ratio', '1.5', '--no-cache', '--workers', '1', '--json', json]))
    expect(ev.code, ev.stderr).toBe(0)
    const rep = await timed('report+pdf', () => runCli(['report', json, '--out', HTML, '--pdf', PDF]))
    expect(rep.code, rep.stderr).toBe(0)
    expect(rep.stdout).toContain(`Report: ${HTML}`)
    browser = await timed('launch', () => chromium.launch({ executablePath: CHROMIUM, args: ARGS }))
  })

  afterAll(async () => {
    await browser?.close()
    console.info(`report e2e timings (ms): ${JSON.stringify(timings)}`)
  })

  async function open(colorScheme: 'light' | 'dark'): Promise<{ page: Page; errors: string[]; external: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, colorScheme })
    const errors: string[] = [], external: string[] = []
    await context.route('**/*', (route) => {
      const url = route.request().url()
      if (/^(file|data|blob|about):/.test(url)) return route.continue()
      external.push(url)
      return route.abort()
    })
    const page = await context.newPage()
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`) })
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`))
    page.on('request', (r) => { if (!/^(file|data|blob|about):/.test(r.url())) external.push(r.url()) })
    await page.goto(pathToFileURL(HTML).href)
    await page.waitForSelector('html[data-charts]', { timeout: 15_000 })
    return { page, errors, external }
  }

  /** Non-transparent pixels per canvas, by chart id (types spelled out: no DOM lib here). */
  type Canvas = { width: number; height: number; dataset: Record<string, string>; getContext(k: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } }
  const painted = (page: Page) => page.$$eval('canvas[data-chart]', (list) => list.map((c) => {
    const canvas = c as unknown as Canvas
    const d = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data
    let n = 0
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++
    return { id: canvas.dataset.chart, n, w: canvas.width, h: canvas.height }
  }))

  it('draws every chart, loads nothing from the network and logs no error (light)', async () => {
    const { page, errors, external } = await timed('light', () => open('light'))
    expect(await page.getAttribute('html', 'data-charts')).toBe('4')
    const px = await painted(page)
    expect(px.map((p) => p.id)).toEqual(['risk', 'trainVsTest', 'thresholds', 'weekly'])
    for (const p of px) expect(p.n, `chart ${p.id} (${p.w}×${p.h}) is empty`).toBeGreaterThan(2000)
    expect(errors).toEqual([])
    expect(external).toEqual([])
    // Every section the issue asks for, in the page as rendered.
    const titles = await page.$$eval('h2', (h) => h.map((x) => x.textContent))
    expect(titles).toEqual(['Verdict', 'The log and its cleaning', 'Split, protocol and seed', 'Risk: the longest wait', 'Charts', 'All candidates', 'Exported configuration', 'Calibration against recorded waits', 'Citations'])
    expect(await page.textContent('#citations')).toContain('Lars Malinowsky')
    // The report opens with the verdict card (the Results step's words), on the first screen.
    const first = await page.$eval('main > section', (s) => ({ id: s.id, next: s.children[1]?.className ?? '' }))
    expect(first).toEqual({ id: 'recommendation', next: expect.stringMatching(/^verdict-card verdict-(switch|keep|insufficient-data)$/) })
    const box = (await page.locator('.verdict-card').boundingBox())!
    expect(box.y + 60).toBeLessThan(900)
    expect(await page.textContent('.verdict-card .verdict-title')).toMatch(/^(Switch to EASY-|Keep what you have|Not enough data)/)
    expect(await page.textContent('.verdict-card')).toMatch(/Simulator against history/)
    await page.screenshot({ path: join(OUT, 'report-top-light.png') })
    await page.screenshot({ path: join(OUT, 'report-light.png'), fullPage: true })
    await page.locator('#charts').screenshot({ path: join(OUT, 'charts-light.png') })
    await page.context().close()
  })

  it('redraws the charts in the dark colour scheme', async () => {
    const { page, errors, external } = await timed('dark', () => open('dark'))
    const bg = await page.evaluate('getComputedStyle(document.documentElement).backgroundColor')
    expect(bg).toBe('rgb(13, 17, 23)')
    for (const p of await painted(page)) expect(p.n, `chart ${p.id}`).toBeGreaterThan(2000)
    expect(errors).toEqual([])
    expect(external).toEqual([])
    await page.locator('#recommendation').screenshot({ path: join(OUT, 'recommendation-dark.png') })
    await page.locator('#charts').screenshot({ path: join(OUT, 'charts-dark.png') })
    await page.context().close()
  })

  it('printed a valid multi-page A4 PDF', () => {
    const pdf = readFileSync(PDF)
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    const pages = pdf.toString('latin1').match(/\/Type\s*\/Page(?![s\w])/g) ?? []
    expect(pages.length).toBeGreaterThan(1)
    expect(pdf.toString('latin1')).toMatch(/\/MediaBox\s*\[\s*0 0 59[45](\.\d+)? 84[12](\.\d+)?\s*\]/)
  })

  it('renders the first page of the PDF as PNG (pdftoppm)', (ctx) => {
    const pdftoppm = requireTool(ctx, ['pdftoppm'], 'apt-get install -y poppler-utils')
    const t0 = performance.now()
    const r = spawnSync(pdftoppm, ['-f', '1', '-l', '1', '-r', '80', '-png', '-singlefile', PDF, join(OUT, 'report-page1')], { encoding: 'utf8' })
    timings.pdftoppm = Math.round(performance.now() - t0)
    expect(r.status, r.stderr).toBe(0)
    const png = readFileSync(join(OUT, 'report-page1.png'))
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG')
    expect(png.length).toBeGreaterThan(10_000)
  })
})
