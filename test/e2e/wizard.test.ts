// The wizard end to end in a real browser (Debian's Chromium through playwright-core) against the
// real browser-mode server (`easytune serve`): a new administrator opens the bundled KTH-SP2 log,
// runs a tiny campaign (12 orders of thesis ch. 6, 3 weeks per part, one threshold), reads the
// recommendation and a painted chart, and exports a SLURM snippet; another imports a broken file
// and gets a clear message; `?sample=1` opens the sample by itself. Screenshots of every step at
// 1280×800 (light) and 1920×1080 (dark) go to test-artifacts/wizard/. The renderer is built into
// a private folder (electron-vite --outDir) and served with --renderer-dir, so a concurrent build
// of out/ cannot pull files from under the page. Without /usr/bin/chromium the suite is skipped,
// unless EASYTUNE_CI=1 (CI), where it fails.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, CHROMIUM_ARGS, requireChromium, skipWithoutChromium } from '../support/chromium'
import { serveApp, type ServedApp } from '../support/serve-app'
import { SAMPLE } from '../support/sample'

const skip = skipWithoutChromium('wizard e2e')

const OUT = resolve('test-artifacts/wizard')
const ARGS = CHROMIUM_ARGS
const SIZES = { small: { width: 1280, height: 800 }, large: { width: 1920, height: 1080 } } as const

/** Non-transparent pixels of each canvas on the page (DOM types spelled out: no DOM lib here). */
const PAINTED = `[...document.querySelectorAll('canvas')].map((c) => {
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data
  let n = 0
  for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++
  return n
})`
/** Elements whose content is wider than their box (text that does not fit), except scroll areas. */
const OVERFLOW = `[...document.querySelectorAll('button, h1, h2, h3, h4, label, .facts dd, .tag, .step-title, .step-hint, .chart-title, .progress-text')].filter((e) => {
  if (e.closest('.table-wrap, pre')) return false
  return e.scrollWidth > e.clientWidth + 1
}).map((e) => e.tagName + ': ' + e.textContent.trim().slice(0, 60))`
/** Children of rows laid out side by side (headers with buttons, nav entries, forms) that overlap. */
const OVERLAP = `[...document.querySelectorAll('.panel-head, .chart-head, .step-nav button, .step-actions, .inline-form, .project-bar, .app-header, .busy-row, .cap-row')].flatMap((row) => {
  const kids = [...row.children].filter((k) => k.getClientRects().length > 0 && getComputedStyle(k).position !== 'absolute')
  const out = []
  for (let i = 0; i < kids.length; i++) for (let j = i + 1; j < kids.length; j++) {
    const a = kids[i].getBoundingClientRect(), b = kids[j].getBoundingClientRect()
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left), h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top)
    if (w > 1 && h > 1) out.push(row.className + ': ' + kids[i].textContent.trim().slice(0, 30) + ' / ' + kids[j].textContent.trim().slice(0, 30))
  }
  return out
})`
/** True when the page scrolls sideways (something is wider than the window). */
const HSCROLL = 'document.documentElement.scrollWidth > window.innerWidth + 1'

describe.skipIf(skip)('the wizard in Chromium against easytune serve', () => {
  let browser: Browser
  let app: ServedApp | null = null
  let url = ''
  let work = ''

  beforeAll(async () => {
    requireChromium()
    rmSync(OUT, { recursive: true, force: true })
    mkdirSync(OUT, { recursive: true })
    app = await serveApp('easytune-wizard-e2e-')
    work = app.work
    url = app.url
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.*token=/)
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS })
  }, 240_000)

  afterAll(async () => {
    await browser?.close()
    await app?.stop()
  })

  async function open(size: keyof typeof SIZES, colorScheme: 'light' | 'dark', query = ''): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: SIZES[size], colorScheme, acceptDownloads: true })
    const page = await context.newPage()
    const errors: string[] = []
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`) })
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`))
    await page.goto(url + query)
    // Start-up (restoring the last session, or opening the sample) is over: it may change the step.
    await page.waitForSelector('html[data-easytune-ready]', { timeout: 30_000 })
    return { context, page, errors }
  }

  /** A full-page screenshot plus the checks a person would make looking at it. */
  async function shot(page: Page, name: string): Promise<void> {
    await page.waitForTimeout(150) // let chart.js finish its first layout
    await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true })
    expect(await page.evaluate(OVERFLOW), `text cut off in ${name}`).toEqual([])
    expect(await page.evaluate(OVERLAP), `overlapping elements in ${name}`).toEqual([])
    expect(await page.evaluate(HSCROLL), `${name} scrolls sideways`).toBe(false)
  }

  async function step(page: Page, id: string): Promise<void> {
    await page.click(`nav [data-step="${id}"]`)
    await expect.poll(() => page.getAttribute(`nav [data-step="${id}"]`, 'aria-current')).toBe('step')
  }

  async function chartsPainted(page: Page, min: number): Promise<void> {
    await expect.poll(async () => {
      const px = await page.evaluate(PAINTED) as number[]
      return px.length >= min && px.every((n) => n > 1500)
    }, { timeout: 10_000 }).toBe(true)
  }

  /** The happy path, screenshotting every step as `<prefix>-<n>-<step>.png`. */
  async function happyPath(page: Page, prefix: string): Promise<void> {
    await step(page, 'import')
    await shot(page, `${prefix}-1-import`)
    await page.click('[data-testid="open-sample"]')
    await page.waitForSelector('text=Import report: KTH-SP2', { timeout: 30_000 })
    expect(await page.textContent('.done-line')).toContain(`${SAMPLE.jobsKept.toLocaleString('en-US')} jobs on ${SAMPLE.machine} processors`)
    await shot(page, `${prefix}-1-import-report`)

    await page.click('text=Next: inspect the log')
    await chartsPainted(page, 4)
    await shot(page, `${prefix}-2-inspect`)

    await page.click('text=Next: split train and test')
    await page.waitForSelector('text=Training part')
    await page.waitForSelector('.part.train >> text=jobs over')
    await page.fill('#weeks', '3')
    await shot(page, `${prefix}-3-split`)

    await page.click('text=Next: candidates and risk')
    await page.check('[data-testid="preset-ch6"]')
    for (const t of ['null', '72000', '200000']) await page.uncheck(`[data-testid="threshold-${t}"]`)
    await page.check('[data-testid="threshold-144000"]')
    await page.waitForSelector('[data-testid="estimate"]')
    expect(await page.textContent('[data-testid="estimate"]')).toMatch(/simulation cells/)
    await shot(page, `${prefix}-4-candidates`)

    await page.click('[data-testid="start-run"]')
    await page.waitForSelector('#step-run-h')
    await shot(page, `${prefix}-5-run`)
    await page.waitForSelector('[data-testid="verdict-card"]', { timeout: 120_000 })
    await shot(page, `${prefix}-6-results`)
    // Everything after the card is folded; unfolding the charts draws them.
    await unfold(page, 'details')
    const sentence = await page.textContent('[data-testid="recommendation"]')
    expect(sentence).toMatch(/EASY|Keep|Switch|Not enough/)
    await unfold(page, 'charts')
    await chartsPainted(page, 4)
    await shot(page, `${prefix}-6-results-unfolded`)
    await step(page, 'run')
    await shot(page, `${prefix}-5-run-done`)

    await step(page, 'export')
    await exportShown(page)
    await shot(page, `${prefix}-7-export`)
  }

  /** Unfolds one folded section of the Results step with the keyboard (focus its summary, Enter). */
  async function unfold(page: Page, id: string): Promise<void> {
    await page.focus(`[data-testid="fold-${id}"] > summary`)
    await page.keyboard.press('Enter')
    await expect.poll(() => page.$eval(`[data-testid="fold-${id}"]`, (d) => (d as unknown as { open: boolean }).open)).toBe(true)
  }

  /** The Export step as the verdict has it: the files for `switch`, "Nothing to change" for `keep`. */
  async function exportShown(page: Page): Promise<string> {
    const verdict = await page.evaluate('document.querySelector("[data-testid=export-keep]") ? "keep" : document.querySelector("[data-testid=export-insufficient]") ? "insufficient-data" : "switch"') as string
    if (verdict === 'switch') {
      await page.waitForSelector('[data-testid="export-file"]', { timeout: 30_000 })
      const files = await page.$$eval('[data-testid="export-file"]', (els) => els.map((e) => e.textContent ?? ''))
      expect(files.join('\n')).toMatch(/slurm|Priority/i)
    } else {
      expect(await page.$('[data-testid="export-file"]')).toBeNull()
    }
    return verdict
  }

  it('a new administrator imports the sample, runs a small campaign, sees the recommendation and exports SLURM (1280×800, light)', async () => {
    const { context, page, errors } = await open('small', 'light')
    await happyPath(page, '1280')
    // Every chart exports: PNG (the canvas) and SVG (redrawn as vectors, axis titles included).
    await step(page, 'results')
    if (!(await page.$eval('[data-testid="fold-charts"]', (d) => (d as unknown as { open: boolean }).open))) await unfold(page, 'charts')
    const risk = page.locator('.chart-panel', { hasText: 'Gain against longest wait' })
    const [png] = await Promise.all([page.waitForEvent('download'), risk.locator('button', { hasText: 'PNG' }).click()])
    expect(png.suggestedFilename()).toBe('risk-scatter.png')
    expect(readFileSync(await png.path()).subarray(1, 4).toString('latin1')).toBe('PNG')
    const [svg] = await Promise.all([page.waitForEvent('download'), risk.locator('button', { hasText: 'SVG' }).click()])
    expect(svg.suggestedFilename()).toBe('risk-scatter.svg')
    const svgText = readFileSync(await svg.path(), 'utf8')
    expect(svgText).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
    expect(svgText).toContain('Longest wait on test')
    expect((svgText.match(/<(circle|polygon|line|polyline)/g) ?? []).length).toBeGreaterThan(20)
    writeFileSync(join(OUT, 'risk-scatter.svg'), svgText)
    await step(page, 'export')
    // "Generate report" gives a download of the HTML report.
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.click('[data-testid="generate-report"]')])
    expect(download.suggestedFilename()).toMatch(/report\.html$/)
    // Going back to a step keeps its work; changing an upstream setting marks the results stale.
    await step(page, 'split')
    expect(await page.inputValue('#weeks')).toBe('3')
    await page.fill('#weeks', '4')
    await step(page, 'results')
    await page.waitForSelector('[data-testid="stale-banner"]')
    expect(await page.textContent('[data-testid="stale-banner"]')).toMatch(/resampling/)
    await shot(page, '1280-6-results-stale')
    await step(page, 'split')
    await page.fill('#weeks', '3')
    await step(page, 'results')
    expect(await page.$('[data-testid="stale-banner"]')).toBeNull()
    // The wizard autosaves (debounced): the next test starts from this session.
    await page.waitForSelector('[data-autosave="saved"]', { timeout: 15_000 })
    expect(errors).toEqual([])
    await context.close()
  }, 300_000)

  it('the same path at 1920×1080 in the dark theme, after the last session is restored', async () => {
    const { context, page, errors } = await open('large', 'dark')
    // The previous test's project comes back (autosave): the wizard opens on a step with results.
    await page.waitForSelector('text=Restored your last session')
    await shot(page, '1920-0-restored')
    await happyPath(page, '1920')
    const bg = await page.evaluate('getComputedStyle(document.body).backgroundColor')
    expect(bg).toBe('rgb(13, 17, 23)')
    expect(errors).toEqual([])
    await context.close()
  }, 300_000)

  it('every default on the bundled sample: a verdict card at the top of Results, the page at most 1,900 px before unfolding, a report that opens with the card (1280×800)', async () => {
    // sample=1 opens the sample instead of restoring the last session: every setting is its default.
    const { context, page, errors } = await open('small', 'light', '&sample=1')
    await page.waitForSelector('text=Import report: KTH-SP2', { timeout: 30_000 })
    // Nothing changed anywhere, step after step.
    await page.click('text=Next: inspect the log')
    await page.click('text=Next: split train and test')
    await page.waitForSelector('.part.train >> text=jobs over')
    await page.click('text=Next: candidates and risk')
    expect(await page.isChecked('[data-testid="cap-enabled"]')).toBe(true)
    expect(await page.inputValue('[data-testid="min-gain"]')).toBe('5')
    expect(await page.inputValue('[data-testid="confidence"]')).toBe('95')
    expect(await page.inputValue('[data-testid="min-weeks"]')).toBe('8')
    await page.waitForSelector('[data-testid="estimate"]', { timeout: 30_000 })
    await shot(page, '1280-defaults-4-candidates')
    await page.click('[data-testid="start-run"]')
    await page.waitForSelector('[data-testid="verdict-card"]', { timeout: 280_000 })
    await page.evaluate('window.scrollTo(0, 0)')
    // The card is the first thing of the step and its verdict is on the first screen.
    const card = (await page.locator('[data-testid="verdict-card"]').boundingBox())!
    const title = (await page.locator('[data-testid="verdict-title"]').boundingBox())!
    expect(title.y + title.height).toBeLessThan(SIZES.small.height)
    expect(card.y).toBeLessThan(400)
    expect(await page.textContent('[data-testid="verdict-title"]')).toMatch(/^(Switch to EASY-|Keep what you have|Not enough data)/)
    expect((await page.textContent('[data-testid="verdict-reason"]'))!.length).toBeGreaterThan(20)
    const verdictTitle = (await page.textContent('[data-testid="verdict-title"]'))!
    expect(await page.textContent('[data-testid="verdict-card"]')).toMatch(/Simulator against history/)
    const height = await page.evaluate('document.documentElement.scrollHeight') as number
    expect(height, 'the Results step before anything is unfolded').toBeLessThanOrEqual(1900)
    expect(await page.$$eval('details[open]', (d) => d.length)).toBe(0)
    await shot(page, '1280-defaults-6-results')
    // The report opens with the same card.
    await step(page, 'export')
    await exportShown(page)
    await shot(page, '1280-defaults-7-export')
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.click('[data-testid="generate-report"]')])
    const html = readFileSync(await download.path(), 'utf8')
    const main = html.slice(html.indexOf('<main>'))
    expect(main.indexOf('class="verdict-card')).toBeGreaterThan(0)
    expect(main.indexOf('class="verdict-card')).toBeLessThan(main.indexOf('</section>'))
    expect(html).toContain(verdictTitle.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'))
    expect(errors).toEqual([])
    await context.close()
  }, 400_000)

  it('a broken file gets a clear message, and the wizard stays usable', async () => {
    const { context, page } = await open('small', 'light')
    await step(page, 'import')
    const bytes = Buffer.alloc(64 * 1024)
    let x = 12345
    for (let i = 0; i < bytes.length; i++) { x = (x * 1103515245 + 12345) >>> 0; bytes[i] = x >>> 24 }
    const file = join(work, 'broken.swf')
    writeFileSync(file, bytes)
    await page.setInputFiles('.dropzone input[type="file"]', file)
    await page.waitForSelector('[data-testid="import-error"]', { timeout: 30_000 })
    const message = (await page.textContent('[data-testid="import-error"]')) ?? ''
    expect(message).toMatch(/Could not import broken\.swf: (line 1: )?the file contains NUL bytes/)
    expect(message.length).toBeLessThan(700)
    await shot(page, '1280-1-import-broken-file')
    await page.setViewportSize(SIZES.large)
    await shot(page, '1920-1-import-broken-file')
    // A log without requested times: the way out is named as the GUI's control, never a CLI flag (issue #20).
    const noLimits = join(work, 'no-limits.swf')
    writeFileSync(noLimits, Array.from({ length: 50 }, (_, i) => `${i + 1} ${i * 600} 0 100 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1`).join('\n') + '\n')
    await page.setInputFiles('.dropzone input[type="file"]', noLimits)
    await expect.poll(async () => (await page.textContent('[data-testid="import-error"]')) ?? '', { timeout: 30_000 }).toMatch(/Could not import no-limits\.swf/)
    const noLimitsMessage = (await page.textContent('[data-testid="import-error"]')) ?? ''
    expect(noLimitsMessage).toContain('"Jobs without a requested time: use their actual runtime"')
    expect(noLimitsMessage).not.toMatch(/--requested-fallback/)
    expect(noLimitsMessage).not.toMatch(/\.\./)
    // …and the button next to it imports the same file again with that option.
    await page.click('[data-testid="retry-runtime"]')
    await page.waitForSelector('text=Import report: no-limits.swf', { timeout: 30_000 })
    expect(await page.$('[data-testid="import-error"]')).toBeNull()
    // Still usable: the sample opens after the failure.
    await page.click('[data-testid="open-sample"]')
    await page.waitForSelector('text=Import report: KTH-SP2', { timeout: 30_000 })
    expect(await page.$('[data-testid="import-error"]')).toBeNull()
    await context.close()
  }, 120_000)

  it('several files chosen at once are one log: each file listed; files of two formats refused naming the odd one', async () => {
    const { context, page } = await open('small', 'light')
    await step(page, 'import')
    const T0 = 1622505600 // 2021-06-01T00:00:00Z
    const job = (id: number, hours: number) => {
      const s = T0 + hours * 3600
      return `2021-06-01 00:00:00 jobstate=COMPLETED jobid=${id} username=u${id % 2} account=acc start=${s + 60} end=${s + 660} submit=${s} nodes=r1 procs=1 batch=yes jobname=j partition=core limit=01:00:00\n`
    }
    const day1 = join(work, 'day-1.log')
    const day2 = join(work, 'day-2.log')
    const odd = join(work, 'odd.swf')
    writeFileSync(day1, job(1, 0) + job(2, 1) + job(3, 2))
    writeFileSync(day2, job(3, 2) + job(4, 3))
    writeFileSync(odd, '; MaxProcs: 8\n1 0 -1 600 1 -1 -1 1 3600 -1 1 1 1 -1 -1 -1 -1 -1\n')
    await page.setInputFiles('.dropzone input[type="file"]', [day2, day1])
    await page.waitForSelector('[data-testid="import-files"]', { timeout: 30_000 })
    const rows = await page.$$eval('[data-testid="import-files"] tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent?.trim())))
    expect(rows).toEqual([['day-1.log', '3', '0'], ['day-2.log', '2', '1']])
    await page.setInputFiles('.dropzone input[type="file"]', [day1, odd])
    await page.waitForSelector('[data-testid="import-error"]', { timeout: 30_000 })
    expect((await page.textContent('[data-testid="import-error"]')) ?? '').toMatch(/odd\.swf.*is a swf log \(detected\) while day-1\.log is a jobcomp log/)
    await context.close()
  }, 120_000)

  it('opens the bundled sample by itself when the URL has sample=1', async () => {
    const { context, page, errors } = await open('small', 'light', '&sample=1')
    await page.waitForSelector('text=Import report: KTH-SP2', { timeout: 30_000 })
    expect(errors).toEqual([])
    await context.close()
  }, 120_000)
})
