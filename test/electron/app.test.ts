// The few checks only a real Electron can make (test/main/* covers the main process on fakes):
// the app starts and shows its window on app://easytune; the preload exposes window.easytune with
// exactly the API's methods and nothing of Electron (no ipcRenderer, require or process);
// navigating to another origin or opening a window is refused; an engine worker started as a
// utility process answers 'ready'.
//
// Runs where Electron's binary exists (and, on Linux, a display: run under xvfb-run otherwise).
// Elsewhere it is SKIPPED with the reason printed, CI included: the binary cannot be downloaded
// there (.ci/run sets ELECTRON_SKIP_BINARY_DOWNLOAD=1), so CI does not require this suite.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { _electron, type ElectronApplication, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OPERATION_NAMES, STREAM_NAMES, subscribeName } from '../../src/shared/contract'
import { skipSuite } from '../support/tools'

/** What window.easytune must expose: every operation of the API contract and one subscription per stream. */
const API_METHODS = [...OPERATION_NAMES, ...STREAM_NAMES.map(subscribeName)]

/** The page's window, typed here: the Node tsconfig has no DOM library. */
interface PageWindow { open(url: string): unknown; location: { href: string } }

const ELECTRON = resolve('node_modules/electron')
const DIST = join(ELECTRON, 'dist')

/** The Electron executable without asking require('electron'), which would try to download it. */
function electronExecutable(): { path: string | null; why: string | null } {
  if (!existsSync(DIST)) return { path: null, why: `Electron's binary is not installed (node_modules/electron/dist missing): install it with \`node node_modules/electron/install.js\` where it can be downloaded` }
  const pathTxt = join(ELECTRON, 'path.txt')
  const path = join(DIST, existsSync(pathTxt) ? readFileSync(pathTxt, 'utf8').trim() : 'electron')
  if (!existsSync(path)) return { path: null, why: `Electron's binary is not installed (${path} missing)` }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return { path: null, why: 'no display (DISPLAY unset): run the suite under xvfb-run' }
  return { path, why: null }
}

const electron = electronExecutable()
const skip = skipSuite('the real-Electron suite', electron.why, false)

describe.skipIf(skip)('the desktop app in a real Electron', () => {
  let work = ''
  let app: ElectronApplication
  let page: Page

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'easytune-electron-'))
    const out = join(work, 'out') // a private build: other suites read out/ while this one runs
    execFileSync(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build', '--outDir', out, '--logLevel', 'warn'], { stdio: 'pipe' })
    app = await _electron.launch({
      executablePath: electron.path!,
      args: [join(out, 'main/index.js'), '--no-sandbox'],
      // settings, autosave and the last project go to a fresh folder, not the user's
      env: { ...process.env, XDG_CONFIG_HOME: join(work, 'config'), HOME: work },
      timeout: 60_000,
    })
    page = await app.firstWindow()
    await page.waitForLoadState('domcontentloaded')
  })

  afterAll(async () => {
    await app?.close()
    if (work) rmSync(work, { recursive: true, force: true })
  })

  it('shows its window on app://easytune', async () => {
    expect(new URL(page.url()).origin).toBe('app://easytune')
    expect(await page.title()).not.toBe('')
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().filter((w) => w.isVisible()).length)).toBeGreaterThan(0)
  })

  it('exposes exactly the API on window.easytune, and nothing of Electron', async () => {
    const seen = await page.evaluate(() => {
      const w = globalThis as unknown as Record<string, unknown>
      const api = w.easytune as Record<string, unknown> | undefined
      return {
        methods: api ? Object.keys(api).sort() : null,
        allFunctions: api ? Object.values(api).every((v) => typeof v === 'function') : false,
        leaked: ['ipcRenderer', 'require', 'process', 'module', 'Buffer', 'electron'].filter((k) => k in w),
      }
    })
    expect(seen.methods).toEqual([...API_METHODS].sort())
    expect(seen.allFunctions).toBe(true)
    expect(seen.leaked).toEqual([])
  })

  // http, not https: an https link would be handed to the system browser (security/external.ts)
  it('refuses to navigate to another origin or to open a window', async () => {
    const before = page.url()
    const refused = await page.evaluate(() => (globalThis as unknown as PageWindow).open('http://example.com/') === null)
    expect(refused).toBe(true)
    await page.evaluate(() => { (globalThis as unknown as PageWindow).location.href = 'http://example.com/' })
    await page.waitForTimeout(1000)
    expect(page.url()).toBe(before)
    expect(app.windows()).toHaveLength(1)
  })

  it('starts an engine worker as a utility process, which answers ready', async () => {
    const worker = join(work, 'out/main/engine-worker.js')
    const first = await app.evaluate(async ({ utilityProcess }, path) => {
      const child = utilityProcess.fork(path, [], { serviceName: 'EasyTune engine (test)' })
      try {
        return await new Promise<unknown>((resolve, reject) => {
          child.once('message', resolve)
          child.once('exit', (code) => reject(new Error(`the worker exited (${code}) before saying anything`)))
          setTimeout(() => reject(new Error('no message from the worker in 20 s')), 20_000)
        })
      } finally {
        child.kill()
      }
    }, worker)
    expect(first).toMatchObject({ type: 'ready' })
  })
})
