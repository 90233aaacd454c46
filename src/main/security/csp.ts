// Rule: a strict Content Security Policy on every response the app's sessions receive. Scripts,
// fonts and data requests only from the app itself (no inline script, no eval, no remote
// anything); styles from the app plus inline styles; images also from data:/blob: (chart
// snapshots); no plugins, frames, workers, forms or <base>. The app:// protocol handler sends the
// same header (../app-protocol.ts), and this installer covers every other response of the session
// (belt and braces: webRequest does not see every custom-protocol response in every version).
import type { Session, WebContents } from 'electron'

export const CSP_DIRECTIVES: Readonly<Record<string, string>> = {
  'default-src': "'none'",
  'script-src': "'self'",
  // Inline style attributes are allowed (the wizard's SVG charts and Vue style bindings use them);
  // scripts stay strict: no inline script, no eval.
  'style-src': "'self' 'unsafe-inline'",
  'img-src': "'self' data: blob:",
  'font-src': "'self'",
  'connect-src': "'self'",
  'object-src': "'none'",
  'frame-src': "'none'",
  'worker-src': "'none'",
  'base-uri': "'none'",
  'form-action': "'none'",
  'frame-ancestors': "'none'",
}

export function cspHeader(): string {
  return Object.entries(CSP_DIRECTIVES).map(([k, v]) => `${k} ${v}`).join('; ')
}

type Headers = Record<string, string | string[]>

/** The response headers with our CSP replacing any the response carried (whatever its case). */
export function withCsp(headers: Headers | undefined, header: string = cspHeader()): Headers {
  const out: Headers = {}
  for (const [k, v] of Object.entries(headers ?? {})) {
    const lower = k.toLowerCase()
    if (lower === 'content-security-policy' || lower === 'content-security-policy-report-only') continue
    out[k] = v
  }
  out['Content-Security-Policy'] = [header]
  return out
}

const installed = new WeakSet<Session>()
const overrides = new WeakMap<Session, string>()

/** Gives a session another policy than cspHeader() (the hidden report window's, ../pdf.ts);
 * call before its contents are created. */
export function setSessionCsp(session: Session, header: string): void {
  overrides.set(session, header)
}

/** Installs the header on every response of the session (once per session). */
export function installCsp(session: Session): void {
  if (installed.has(session)) return
  installed.add(session)
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withCsp(details.responseHeaders, overrides.get(session)) })
  })
}

export function apply(contents: WebContents): void {
  installCsp(contents.session)
}
