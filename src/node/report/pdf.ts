// The report as PDF from the command line: headless Chromium's --print-to-pdf on the HTML file
// (the desktop app uses Electron's printToPDF instead). Chromium is optional: without it the
// caller gets a plain message and still has the HTML.
import { spawn } from 'node:child_process'
import { accessSync, constants, promises as fsp } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

export type PdfOutcome = { ok: true; browser: string; seconds: number } | { ok: false; message: string }

const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome', 'microsoft-edge']
const FIXED = [
  '/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium', '/usr/bin/google-chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe', 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe',
]

function executable(p: string): boolean {
  try { accessSync(p, constants.X_OK); return true } catch { return false }
}

/** A Chromium-family browser: $EASYTUNE_CHROMIUM, else the usual places and $PATH; null if none. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.EASYTUNE_CHROMIUM) return executable(env.EASYTUNE_CHROMIUM) ? env.EASYTUNE_CHROMIUM : null
  for (const p of FIXED) if (executable(p)) return p
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) for (const n of NAMES) if (executable(join(dir, n))) return join(dir, n)
  return null
}

export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-extensions', '--no-default-browser-check', '--mute-audio']

/** Prints an HTML file to PDF with headless Chromium (A4 from the page's @page rule, no header or
 * footer). Resolves to { ok: false, message } when no browser is found or printing fails. */
export async function printToPdf(htmlPath: string, pdfPath: string, opts: { browser?: string | null; timeoutMs?: number } = {}): Promise<PdfOutcome> {
  const browser = opts.browser === undefined ? findChromium() : opts.browser
  if (!browser) return { ok: false, message: 'no Chromium or Chrome found for the PDF (set EASYTUNE_CHROMIUM to its path, or print the HTML report from a browser)' }
  const profile = await fsp.mkdtemp(join(tmpdir(), 'easytune-pdf-'))
  const out = resolve(pdfPath)
  const t0 = performance.now()
  try {
    await fsp.rm(out, { force: true })
    const args = [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, '--run-all-compositor-stages-before-draw', '--virtual-time-budget=5000',
      `--print-to-pdf=${out}`, '--no-pdf-header-footer', pathToFileURL(resolve(htmlPath)).href]
    const { code, stderr } = await run(browser, args, opts.timeoutMs ?? 90_000)
    const head = await fsp.readFile(out).then((b) => b.subarray(0, 5).toString('latin1'), () => '')
    if (head !== '%PDF-') {
      const why = stderr.split('\n').map((l) => l.trim()).filter((l) => l && !/dbus|unexpected operator|NameHasOwner/i.test(l)).slice(-3).join(' | ')
      return { ok: false, message: `${browser} did not write the PDF (exit ${code}${why ? `: ${why}` : ''})` }
    }
    return { ok: true, browser, seconds: (performance.now() - t0) / 1000 }
  } finally {
    await fsp.rm(profile, { recursive: true, force: true }).catch(() => undefined)
  }
}

/** Runs the browser in its own process group, so a timeout ends it and every child it started. */
function run(cmd: string, args: string[], timeoutMs: number): Promise<{ code: number | string; stderr: string }> {
  return new Promise((done) => {
    const posix = process.platform !== 'win32'
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: posix })
    let stderr = ''
    child.stderr.on('data', (b: Buffer) => { if (stderr.length < 20_000) stderr += b.toString() })
    const timer = setTimeout(() => {
      stderr += `\ntimed out after ${Math.round(timeoutMs / 1000)} s`
      try { if (posix && child.pid) process.kill(-child.pid, 'SIGKILL'); else child.kill('SIGKILL') } catch { /* already gone */ }
    }, timeoutMs)
    child.on('error', (e) => { clearTimeout(timer); done({ code: (e as NodeJS.ErrnoException).code ?? 'error', stderr: e.message }) })
    child.on('close', (code, signal) => { clearTimeout(timer); done({ code: code ?? signal ?? 'unknown', stderr }) })
  })
}
