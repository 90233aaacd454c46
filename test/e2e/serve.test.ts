// Browser mode end to end in Debian's Chromium (playwright-core): the real server and back end
// (in this process, engine workers as child processes) serve the renderer built here from
// src/renderer with the renderer section of electron.vite.config.ts (plain Vite: electron-vite
// would also need the Electron binary's main and preload). The page must load without console
// errors or failed requests; then the browser API client (src/renderer/src/api/browser.ts,
// bundled here and evaluated in the page, so it runs under the page's origin and CSP) round-trips
// calls, uploads a file, saves a download, and runs a tiny campaign whose progress events arrive
// over the WebSocket. Screenshots: test-artifacts/serve/. Without /usr/bin/chromium the suite is
// skipped, unless EASYTUNE_CI=1 (CI), where it fails.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { build, type InlineConfig, type Rolldown } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, CHROMIUM_ARGS, requireChromium, skipWithoutChromium, stopwatch } from '../support/chromium'
import { Backend } from '../../src/backend/backend'
import { startServer, type RunningServer } from '../../src/server/server'
import type { CampaignEvent, CampaignRequest, EasyTuneApi } from '../../src/shared/api'
import { buildWorker, removeWorker } from '../engine/support'
import { tempDir } from '../server/support'

const skip = skipWithoutChromium('serve e2e')

const OUT = resolve('test-artifacts/serve')
const ARGS = CHROMIUM_ARGS

/** Builds the renderer into `outDir` with electron.vite.config.ts's renderer section. */
async function buildRenderer(outDir: string): Promise<void> {
  const { default: config } = await import('../../electron.vite.config')
  const renderer = (config as { renderer: InlineConfig }).renderer
  await build({
    ...renderer, configFile: false, logLevel: 'warn', base: './', mode: 'production',
    build: { ...renderer.build, outDir, emptyOutDir: true, reportCompressedSize: false },
  })
}

/** The browser API client as a classic script defining the global EasyTuneBrowser. */
async function clientScript(): Promise<string> {
  const out = await build({
    configFile: false, logLevel: 'warn',
    build: { write: false, minify: false, lib: { entry: resolve('src/renderer/src/api/browser.ts'), formats: ['iife'], name: 'EasyTuneBrowser', fileName: 'client' } },
  }) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[]
  const chunk = (Array.isArray(out) ? out[0] : out).output[0]
  return chunk.code
}

/** A small SWF log (made up: 3 weeks, 60 jobs on 16 processors), for the upload. */
function tinySwf(): string {
  const lines = ['; MaxProcs: 16']
  for (let i = 0; i < 60; i++) lines.push([i + 1, i * 30000, 0, 600 + i * 10, 1 + (i % 8), -1, -1, 1 + (i % 8), 3600, -1, 1, 1 + (i % 3), 1, -1, 1, -1, -1, -1].join(' '))
  return lines.join('\n') + '\n'
}

type PageGlobals = { __api: EasyTuneApi }

describe.skipIf(skip)('browser mode in Chromium (easytune serve)', () => {
  let tmp: ReturnType<typeof tempDir>
  let workerPath = ''
  let backend: Backend
  let server: RunningServer
  let browser: Browser
  let page: Page
  let client = ''
  const problems: string[] = []
  const { timings, timed } = stopwatch()

  beforeAll(async () => {
    requireChromium()
    rmSync(OUT, { recursive: true, force: true })
    mkdirSync(OUT, { recursive: true })
    tmp = tempDir('easytune-serve-e2e-')
    const rendererDir = join(tmp.dir, 'renderer')
    await timed('build', async () => {
      ;[workerPath, client] = await Promise.all([buildWorker(), clientScript()])
      await buildRenderer(rendererDir)
    })
    backend = new Backend({ mode: 'browser', stateDir: join(tmp.dir, 'state'), cacheDir: join(tmp.dir, 'cache'), workerPath })
    server = await startServer({ port: 0, host: '127.0.0.1', backend, rendererDir })
    browser = await timed('launch', () => chromium.launch({ executablePath: CHROMIUM, args: ARGS }))
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, acceptDownloads: true })
    page = await context.newPage()
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`) })
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
    page.on('requestfailed', (r) => { if (!r.url().includes('/download/')) problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`) })
    page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`) })
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await backend?.close()
    removeWorker(workerPath)
    tmp?.remove()
    console.info(`serve e2e timings (ms): ${JSON.stringify(timings)}`)
  })

  it('loads the app from the printed URL without console errors or failed requests', async () => {
    await timed('load', () => page.goto(server.url, { waitUntil: 'networkidle' }))
    await page.waitForFunction(() => (globalThis as unknown as { document: { querySelector(s: string): { childElementCount: number } | null } }).document.querySelector('#app')?.childElementCount ?? 0)
    await page.waitForTimeout(500) // let the start-up calls (settings, restore) settle
    await page.screenshot({ path: join(OUT, 'app.png'), fullPage: true })
    expect(problems).toEqual([])
    expect(await page.title()).toMatch(/EasyTune/)
  })

  it('round-trips API calls through the browser client, under the page\'s CSP', async () => {
    await page.evaluate(`${client}\nglobalThis.__api = EasyTuneBrowser.createBrowserApi({ token: EasyTuneBrowser.tokenFromLocation() });`)
    const info = await page.evaluate(() => (globalThis as unknown as PageGlobals).__api.getAppInfo())
    expect(info).toMatchObject({ mode: 'browser', version: '0.1.0' })
    const settings = await page.evaluate(() => (globalThis as unknown as PageGlobals).__api.setSettings({ theme: 'dark' }))
    expect(settings.theme).toBe('dark')
    const refused = await page.evaluate(() => (globalThis as unknown as PageGlobals).__api.previewSplit('w-unknown', { kind: 'midpoint' }).then(() => 'accepted', (e: Error) => e.message))
    expect(refused).toMatch(/no longer loaded/)
    problems.length = 0 // that refusal was a deliberate 400
  })

  it('uploads a file with progress, imports it, and saves a download', async () => {
    const r = await page.evaluate(async (swf) => {
      const api = (globalThis as unknown as PageGlobals).__api
      const progress: number[] = []
      const File_ = (globalThis as unknown as { File: new (parts: string[], name: string) => File }).File
      const { handle, name } = await api.addLogFile(new File_([swf], 'tiny.swf'), (sent) => progress.push(sent))
      const w = await api.importLog({ kind: 'handle', handle }, {})
      return { name, jobs: w.report.jobsKept, weeks: w.inspect.weeks.start.length, progress }
    }, tinySwf())
    expect(r).toMatchObject({ name: 'tiny.swf', jobs: 60, weeks: 3 })
    expect(r.progress.length).toBeGreaterThan(0)
    const [download, saved] = await Promise.all([
      page.waitForEvent('download'),
      page.evaluate(() => (globalThis as unknown as PageGlobals).__api.saveText('slurm.conf', 'PriorityType=priority/multifactor\n', 'text/plain')),
    ])
    expect(saved).toBe(true)
    expect(download.suggestedFilename()).toBe('slurm.conf')
    await download.saveAs(join(OUT, 'slurm.conf'))
    expect(problems).toEqual([])
  })

  it('runs a tiny campaign from the page; progress events arrive over the WebSocket', async () => {
    const req: Omit<CampaignRequest, 'workloadId'> = {
      split: { kind: 'midpoint' }, resample: { method: 'user-weeks', weeks: 3, seed: 1 }, candidates: { preset: 'ch6' },
      thresholds: [null], objective: 'avgWait', tau: 10, maxWaitRatio: null, workers: 1,
      minGain: 0.05, confidence: 0.95, minWeeks: 8, criterion: 'ratio-of-means',
    }
    const r = await timed('campaign', () => page.evaluate(async (partial) => {
      const api = (globalThis as unknown as PageGlobals).__api
      const events: CampaignEvent[] = []
      const done = new Promise<CampaignEvent>((resolve) => api.onCampaignEvent((e) => {
        events.push(e)
        if (e.kind === 'done' || e.kind === 'error' || e.kind === 'cancelled') resolve(e)
      }))
      const w = await api.importLog({ kind: 'sample' }, {})
      const estimate = await api.estimateCampaign({ ...partial, workloadId: w.id })
      const { campaignId } = await api.startCampaign({ ...partial, workloadId: w.id })
      const last = await done
      return {
        campaignId, estimate, last: last.kind, error: last.kind === 'error' ? last.message : null,
        progress: events.filter((e) => e.kind === 'progress').length, cells: events.filter((e) => e.kind === 'cell').length,
        ours: events.every((e) => e.campaignId === campaignId), candidates: last.kind === 'done' ? last.result.candidates.length : 0,
      }
    }, req))
    expect(r.error).toBeNull()
    expect(r.last).toBe('done')
    // 2 parts × (baseline + 11 ch6 orders), on resampled and on real weeks; only the resampled
    // cells are shown as they finish (the real-week ones feed the verdict's statistics).
    expect(r.estimate.cells).toBe(2 * 2 * 12)
    expect(r.progress).toBeGreaterThan(0)
    expect(r.cells).toBe(2 * 12)
    expect(r.ours).toBe(true)
    expect(r.candidates).toBe(12)
    await page.screenshot({ path: join(OUT, 'after-campaign.png'), fullPage: true })
    writeFileSync(join(OUT, 'campaign.json'), JSON.stringify(r, null, 1))
    expect(problems).toEqual([])
  })

  it('refuses the page, the API and the socket without the token, in the browser too', async () => {
    const other = await browser.newPage()
    try {
      const res = await other.goto(`${server.origin}/`)
      expect(res?.status()).toBe(401)
      expect(await other.textContent('body')).toMatch(/access token/)
      expect((await other.goto(`${server.origin}/?token=wrong-token-0123456789`))?.status()).toBe(403)
    } finally {
      await other.close()
    }
  })
})
