// The Inspect step's Cluster panel end to end in a real browser (Debian's Chromium through
// playwright-core) against the real browser-mode server (`easytune serve`): an administrator
// uploads a small Slurm accounting log (the Rackham jobcomp excerpt of test/fixtures/slurm, whose
// 8 nodes are all the log names), sees the machine inferred from it, gives the cluster's
// slurm.conf (test/fixtures/clusters/rackham.conf: 486 nodes of 20 CPUs in 4 partitions) with the
// panel's file picker, checks it, and sees the machine summary change to the file's. Then a file
// that cannot be read is refused with its line. Screenshots go to test-artifacts/cluster/.
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { skipWithoutChromium } from '../support/chromium'
import { servedBrowser } from '../support/served-browser'

const skip = skipWithoutChromium('cluster panel e2e')
const OUT = resolve('test-artifacts/cluster')
const LOG = resolve('test/fixtures/slurm/rackham-jobcomp-excerpt.txt')
const CONF = resolve('test/fixtures/clusters/rackham.conf')

describe.skipIf(skip)('the Cluster panel in Chromium against easytune serve', () => {
  const served = servedBrowser('easytune-cluster-e2e-', OUT)

  it('a cluster file changes the machine summary from the inferred 8 nodes to the file\'s 486', async () => {
    const context = await served.browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await page.goto(served.app.url)
    await page.waitForSelector('html[data-easytune-ready]', { timeout: 30_000 })
    await page.setInputFiles('.dropzone input[type="file"]', LOG)
    await page.waitForSelector('text=Import report: rackham-jobcomp-excerpt.txt', { timeout: 30_000 })
    await page.click('text=Next: inspect the log')
    await page.waitForSelector('[data-testid="cluster-panel"]', { timeout: 30_000 })

    // The log's own machine: the 8 nodes it names, one CPU each as far as the log tells.
    expect(await page.textContent('[data-testid="log-machine"]')).toContain('Machine: 8 nodes (8 CPUs), 1 partition (core), inferred from the log')
    expect(await page.textContent('[data-testid="cluster-panel"]')).toContain('Inferred from the log (8 nodes (8 CPUs), 1 partition (core), inferred from the log')

    await page.check('[data-testid="machine-source-file"]')
    await page.setInputFiles('[data-testid="machine-file-pick"]', CONF)
    await expect.poll(() => page.textContent('[data-testid="machine-file-name"]')).toBe('rackham.conf')
    await page.click('[data-testid="machine-check"]')
    await page.waitForSelector('[data-testid="machine-summary"]', { timeout: 60_000 })
    const summary = (await page.textContent('[data-testid="machine-summary"]')) ?? ''
    // 486 nodes × 20 CPUs = 9,720 CPUs; core and node on r1..r482, devel and devcore on r483..r486.
    expect(summary).toContain('Machine: 486 nodes (9,720 CPUs), 4 partitions (core, node, devel, devcore), from rackham.conf.')
    expect(summary).toContain('486 nodes, 9,720 CPUs, 0 GPUs; scheduling: the research\'s EASY.')
    const rows = await page.$$eval('[data-testid="machine-summary"] tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.trim())))
    expect(rows.slice(0, 4)).toEqual([['core', '482', '9,640', '0'], ['node', '482', '9,640', '0'], ['devel', '4', '80', '0'], ['devcore', '4', '80', '0']])
    // The inferred machine's panel gives way to the checked one's.
    expect(await page.$('[data-testid="log-machine"]')).toBeNull()
    await page.screenshot({ path: join(OUT, 'cluster-file.png'), fullPage: true })

    // A partition on nodes the file never declares: refused, naming the file and its line.
    const broken = join(served.app.work, 'broken.conf')
    writeFileSync(broken, 'NodeName=r[1-4] CPUs=20\nPartitionName=core Nodes=x[1-4] Default=YES\n')
    await page.setInputFiles('[data-testid="machine-file-pick"]', broken)
    await expect.poll(() => page.textContent('[data-testid="machine-file-name"]')).toBe('broken.conf')
    await page.click('[data-testid="machine-check"]')
    await page.waitForSelector('[data-testid="machine-error"]', { timeout: 60_000 })
    expect(await page.textContent('[data-testid="machine-error"]')).toMatch(/^broken\.conf line 2: /)
    expect(errors).toEqual([])
    await context.close()
  }, 180_000)
})
