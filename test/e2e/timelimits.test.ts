// The Time limits step end to end in a real browser (Debian's Chromium through playwright-core)
// against the real browser-mode server (`easytune serve`), as wizard.test.ts drives it: an
// administrator opens the bundled KTH-SP2 log, goes from Inspect to Time limits, sees every user
// of the log under a pseudonym (the count from a plain reading of the file, not from EasyTune),
// both charts painted, real names only after asking, and runs the what-if to its sentence; then
// deploys (a), ordering by predicted runtime: computes its fidelity with the 20 h threshold, sees
// it in a table with units, and saves the files, which are those of
// `easytune export <log> --predicted-order --threshold 20h`, byte for byte.
// Screenshots go to test-artifacts/timelimits/. Without /usr/bin/chromium the suite is skipped,
// unless EASYTUNE_CI=1 (CI), where it fails.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { skipWithoutChromium } from '../support/chromium'
import { paintedPixels, servedBrowser } from '../support/served-browser'
import { plainClean, plainSwf } from '../support/plain-reading'
import { SAMPLE_LOG } from '../support/sample'
import { runCli } from '../support/cli'

const skip = skipWithoutChromium('time limits e2e')
const OUT = resolve('test-artifacts/timelimits')
/** SWF field 12 (user id), 0-based. */
const USER = 11

/** The users of the jobs the cleaning keeps, read plainly: one table row each (plus one for jobs of
 * no known user, if any). */
function plainUsers(): { rows: number; ids: Set<string> } {
  const log = plainSwf(SAMPLE_LOG)
  const removed = new Set(Object.values(plainClean(log, Number(log.header.get('MaxProcs'))).lines).flat())
  const ids = new Set<string>()
  let unknown = false
  log.jobs.forEach((f, i) => {
    if (removed.has(log.lineNumbers[i]!)) return
    if (f[USER]! < 0) unknown = true
    else ids.add(String(f[USER]))
  })
  return { rows: ids.size + (unknown ? 1 : 0), ids }
}

const PAINTED = paintedPixels()

describe.skipIf(skip)('the Time limits step in Chromium against easytune serve', () => {
  const served = servedBrowser('easytune-timelimits-e2e-', OUT)

  it('imports the sample, shows every user pseudonymised, real names on request, the what-if, and deploys ordering by predicted runtime', async () => {
    const context = await served.browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true })
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()) })
    await page.goto(served.app.url)
    await page.waitForSelector('html[data-easytune-ready]', { timeout: 30_000 })

    await page.click('[data-testid="open-sample"]')
    await page.waitForSelector('text=Import report: KTH-SP2', { timeout: 30_000 })
    await page.click('text=Next: inspect the log')
    await page.click('[data-testid="to-timelimits"]')
    await expect.poll(() => page.getAttribute('nav [data-step="timelimits"]', 'aria-current')).toBe('step')
    await page.waitForSelector('#tl-users-h', { timeout: 30_000 })

    const users = plainUsers()
    // The first 15 users, then every one on request.
    expect(await page.$$eval('section[aria-labelledby="tl-users-h"] tbody tr', (trs) => trs.length)).toBe(Math.min(15, users.rows))
    if (users.rows > 15) await page.click('[data-testid="all-users"]')
    const names = () => page.$$eval('section[aria-labelledby="tl-users-h"] tbody tr td:nth-child(2)', (tds) => tds.map((td) => td.textContent!.trim()))
    const shown = await names()
    expect(shown).toHaveLength(users.rows)
    const named = shown.filter((n) => n !== 'unknown')
    expect(named.every((n) => /^user-\d{3}$/.test(n))).toBe(true)
    expect(new Set(named).size).toBe(users.ids.size)
    expect(named[0]).toBe('user-001')
    await expect.poll(async () => {
      const px = await page.evaluate(PAINTED) as number[]
      return px.length === 2 && px.every((n) => n > 1500)
    }, { timeout: 10_000 }).toBe(true)
    expect(await page.textContent('[data-testid="names-note"]')).toContain('pseudonyms')
    await page.screenshot({ path: join(OUT, 'timelimits-pseudonyms.png') })

    await page.check('[data-testid="show-real-names"]')
    const real = (await names()).filter((n) => n !== 'unknown')
    expect(real.every((n) => users.ids.has(n))).toBe(true) // the log's own user ids
    await page.uncheck('[data-testid="show-real-names"]')
    expect(await names()).toEqual(shown)

    await page.click('[data-testid="run-whatif"]')
    await page.waitForSelector('[data-testid="whatif-sentence"]', { timeout: 120_000 })
    expect(await page.textContent('[data-testid="whatif-sentence"]')).toMatch(/^Today \(EASY-FCFS planning on the requested times\) the average wait is .+ With exact limits your average wait would be /)
    await page.locator('[data-testid="whatif"]').scrollIntoViewIfNeeded()
    await page.screenshot({ path: join(OUT, 'timelimits-whatif.png') })
    expect(await page.evaluate('document.documentElement.scrollWidth > window.innerWidth + 1')).toBe(false)

    await deployPredictedOrder(page)
    expect(errors).toEqual([])
    await context.close()
  }, 300_000)
})

/** Deployment (a) in the Time limits step the page is on: the fidelity with the 20 h threshold in a
 * table with units, then "Save the files": five downloads, each the command line's file for the
 * same log and threshold. */
async function deployPredictedOrder(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="predicted-order"]', { timeout: 30_000 })
  expect(await page.textContent('[data-testid="deployment"]')).toContain('(a) is the next panel')
  expect(await page.isChecked('[data-testid="predicted-threshold-72000"]')).toBe(true) // 20 h

  await page.click('[data-testid="run-predicted"]')
  await page.waitForSelector('[data-testid="predicted-table"]', { timeout: 120_000 })
  const rows = await page.$$eval('[data-testid="predicted-table"] tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.trim())))
  expect(rows.map((r) => r[0])).toEqual(['EASY-FCFS (today)', 'Ordered by time limit', 'Ordered by AVE₂ prediction (these files)', 'Planned with AVE₂ (thesis)', 'EASY++ (thesis)'])
  for (const r of rows) {
    expect(r[1]).toMatch(/^[\d.]+ (s|min|h|d)\b/) // average wait, with its unit
    expect(r[3]).toMatch(/^[\d.]+ (s|min|h|d)\b/) // longest wait
  }
  expect(await page.textContent('[data-testid="predicted-table"] caption')).toContain('threshold 20 h')
  expect(await page.textContent('[data-testid="predicted-cost"]')).toMatch(/^Its price is the longest wait: .+ today, .+ with the exported order/)
  await page.locator('[data-testid="predicted-order"]').scrollIntoViewIfNeeded()
  await page.screenshot({ path: join(OUT, 'timelimits-predicted-order.png') })
  expect(await page.evaluate('document.documentElement.scrollWidth > window.innerWidth + 1')).toBe(false)

  // "Save the files": five downloads, each the command line's file for the same log and threshold.
  const downloads: { name: string; path: string }[] = []
  const dir = mkdtempSync(join(tmpdir(), 'easytune-predicted-e2e-'))
  const cliOut = join(dir, 'cli')
  try {
    page.on('download', (d) => { downloads.push({ name: d.suggestedFilename(), path: join(dir, d.suggestedFilename()) }); void d.saveAs(join(dir, d.suggestedFilename())) })
    await page.click('[data-testid="save-predicted"]')
    await page.waitForSelector('text=Saved 5 files', { timeout: 30_000 })
    expect(downloads.map((d) => d.name)).toEqual(['slurm.conf.easytune', 'job_submit.lua', 'easytune-predicted-order.sh', 'README-predicted-order.txt', 'easytune-predicted-order.json'])
    const cli = await runCli(['export', SAMPLE_LOG, '--predicted-order', '--threshold', '20h', '--out', cliOut])
    expect(cli.code, cli.stderr).toBe(0)
    for (const d of downloads) {
      await expect.poll(() => { try { return readFileSync(d.path, 'utf8') } catch { return null } }, { timeout: 10_000 }).toBe(readFileSync(join(cliOut, d.name), 'utf8'))
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
