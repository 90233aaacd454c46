// "Save report as PDF" in the desktop app (the contract's saveReportPdf): main generates the
// report's HTML itself from the result (the Backend's generateReport) and prints it with
// Electron's printToPDF in a hidden window; the page never hands main HTML to render.
// The hidden window: sandboxed, no preload, its own in-memory session whose only reachable URL is
// the report itself (every other request is cancelled), the report's CSP (inline script for the
// charts, no network), external links never opened (security/external.ts: noExternalLinks).
import { randomBytes } from 'node:crypto'
import { BrowserWindow, session, type Session } from 'electron'
import { REPORT_CSP } from '../node/report/html'
import { setSessionCsp } from './security/csp'
import { noExternalLinks } from './security/external'
import { APP_SCHEME } from './security/origin'

export const REPORT_PARTITION = 'easytune-report'
const REPORT_HOST = 'report'

/** Only the report page itself (and data: images inside it) may load in the report session. */
export function isAllowedReportRequest(url: string, reportUrl: string): boolean {
  return url === reportUrl || url.startsWith('data:')
}

let reportSession: Session | null = null
const documents = new Map<string, string>()
let queue: Promise<unknown> = Promise.resolve()

function getReportSession(): Session {
  if (reportSession) return reportSession
  const ses = session.fromPartition(REPORT_PARTITION) // no "persist:": in memory only
  setSessionCsp(ses, REPORT_CSP)
  ses.protocol.handle(APP_SCHEME, (request) => {
    const html = documents.get(request.url)
    return html === undefined
      ? new Response('not found', { status: 404 })
      : new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': REPORT_CSP, 'X-Content-Type-Options': 'nosniff' } })
  })
  ses.webRequest.onBeforeRequest((details, callback) => {
    callback({ cancel: ![...documents.keys()].some((u) => isAllowedReportRequest(details.url, u)) })
  })
  ses.setPermissionRequestHandler((_c, _p, callback) => callback(false))
  ses.setPermissionCheckHandler(() => false)
  reportSession = ses
  return ses
}

/** Prints the report HTML to PDF bytes (one report at a time). */
export function renderPdf(html: string, timeoutMs = 60_000): Promise<Buffer> {
  const job = queue.then(() => printOnce(html, timeoutMs))
  queue = job.catch(() => undefined)
  return job
}

async function printOnce(html: string, timeoutMs: number): Promise<Buffer> {
  const url = `${APP_SCHEME}://${REPORT_HOST}/${randomBytes(12).toString('hex')}.html`
  documents.set(url, html)
  const win = new BrowserWindow({
    show: false,
    width: 1000,
    height: 1400,
    webPreferences: { session: getReportSession(), sandbox: true, contextIsolation: true, nodeIntegration: false, webSecurity: true, spellcheck: false },
  })
  noExternalLinks.add(win.webContents)
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    const work = (async () => {
      await win.loadURL(url)
      // The charts draw synchronously (animation off) once the inline scripts ran; give layout a frame.
      await new Promise((r) => setTimeout(r, 200))
      return win.webContents.printToPDF({ printBackground: true, preferCSSPageSize: true, generateDocumentOutline: true })
    })()
    const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('the PDF took too long to print')), timeoutMs) })
    return await Promise.race([work, timeout])
  } finally {
    clearTimeout(timer)
    documents.delete(url)
    if (!win.isDestroyed()) win.destroy()
  }
}
