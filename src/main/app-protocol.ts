// Serves the built renderer (out/renderer) at app://easytune/ instead of loading it from file://.
// Why a custom scheme:
//   - one real origin (app://easytune) that the IPC sender check, the navigation rule and the
//     permission rule compare against; file:// pages all share an opaque origin, so "is this our
//     page?" could only be answered by comparing paths;
//   - the page can reach only the files under out/renderer (the handler refuses anything outside
//     it), whereas a file:// page may ask for any file:// URL on the disk;
//   - the handler sets the CSP and nosniff headers on every response itself: webRequest's
//     onHeadersReceived never runs for file:// responses.
// The scheme is registered as standard + secure before `ready` (required for origin, fetch,
// ES modules and a secure context).
import { readFile } from 'node:fs/promises'
import { extname, isAbsolute, relative, resolve, sep } from 'node:path'
import { protocol, type Session } from 'electron'
import { cspHeader } from './security/csp'
import { APP_HOST, APP_SCHEME } from './security/origin'

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
}

/** Must run before app `ready`. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ])
}

/** The file under `root` that an app:// URL names, or null when it names nothing we serve. */
export function resolveAppPath(url: string, root: string): string | null {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return null
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return null
  let path: string
  try {
    path = decodeURIComponent(u.pathname)
  } catch {
    return null
  }
  if (path.includes('\0') || path.includes('\\')) return null
  if (path === '/' || path === '') path = '/index.html'
  const base = resolve(root)
  const file = resolve(base, '.' + path)
  const rel = relative(base, file)
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || rel.split(sep).includes('..')) return null
  return file
}

export function securityHeaders(contentType: string): Record<string, string> {
  return {
    'Content-Type': contentType,
    'Content-Security-Policy': cspHeader(),
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Referrer-Policy': 'no-referrer',
  }
}

/** Answers one app:// request from the files under `root`. */
export async function serveApp(request: { url: string; method: string }, root: string): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('method not allowed', { status: 405, headers: securityHeaders('text/plain') })
  const file = resolveAppPath(request.url, root)
  if (!file) return new Response('not found', { status: 404, headers: securityHeaders('text/plain') })
  try {
    const body = await readFile(file)
    const type = MIME[extname(file).toLowerCase()] ?? 'application/octet-stream'
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers: securityHeaders(type) })
  } catch {
    return new Response('not found', { status: 404, headers: securityHeaders('text/plain') })
  }
}

export function installAppProtocol(session: Session, root: string): void {
  session.protocol.handle(APP_SCHEME, (request) => serveApp(request, root))
}
