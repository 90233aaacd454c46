// One real-browser suite's set-up: `easytune serve` on a fresh folder and Debian's Chromium, started
// in beforeAll and stopped in afterAll, and the screenshots folder emptied; plus the page script that
// counts the painted pixels of the charts (a chart that drew nothing has none).
import { mkdirSync, rmSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { CHROMIUM, CHROMIUM_ARGS, requireChromium } from './chromium'
import { serveApp, type ServedApp } from './serve-app'

export interface ServedBrowser {
  readonly browser: Browser
  readonly app: ServedApp
}

/** Registers the suite's hooks; read `browser` and `app` inside the tests. */
export function servedBrowser(prefix: string, out: string): ServedBrowser {
  let browser: Browser | null = null
  let app: ServedApp | null = null
  beforeAll(async () => {
    requireChromium()
    rmSync(out, { recursive: true, force: true })
    mkdirSync(out, { recursive: true })
    app = await serveApp(prefix)
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
  }, 240_000)
  afterAll(async () => {
    await browser?.close()
    await app?.stop()
  })
  return {
    get browser() { if (browser === null) throw new Error('the browser is not started'); return browser },
    get app() { if (app === null) throw new Error('the app is not served'); return app },
  }
}

/** Page script: the non-transparent pixels of each canvas matching `selector`. */
export function paintedPixels(selector = 'canvas'): string {
  return `[...document.querySelectorAll(${JSON.stringify(selector)})].map((c) => {
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data
  let n = 0
  for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++
  return n
})`
}
