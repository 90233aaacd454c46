// The built renderer (out/renderer), served read-only. A request path is decoded, normalised and
// resolved with symlinks inside the renderer folder, so nothing outside it can be read. The page
// gets <base href="/s/TOKEN/">: every relative URL it loads (scripts, styles, chunks, images)
// then carries the token in its path, and no cookie is needed.
import { createReadStream, promises as fsp } from 'node:fs'
import { extname, join, posix, resolve, sep } from 'node:path'
import type { ServerResponse } from 'node:http'

export const CSP = "default-src 'self'; connect-src 'self' ws://127.0.0.1:* ws://localhost:*; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; script-src 'self'"

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8', '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp',
  '.ico': 'image/x-icon', '.woff': 'font/woff', '.woff2': 'font/woff2', '.ttf': 'font/ttf', '.otf': 'font/otf',
  '.txt': 'text/plain; charset=utf-8', '.wasm': 'application/wasm', '.webmanifest': 'application/manifest+json',
}

export function contentType(path: string): string {
  return TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream'
}

/** Headers every response carries. */
export function securityHeaders(res: ServerResponse): void {
  res.setHeader('Content-Security-Policy', CSP)
  res.setHeader('X-Content-Type-Options', 'nosniff')
  res.setHeader('Referrer-Policy', 'no-referrer')
  res.setHeader('X-Frame-Options', 'DENY')
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin')
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin')
  res.setHeader('Cache-Control', 'no-store')
}

export function sendText(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  if (res.headersSent) { res.destroy(); return }
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text), ...extra })
  res.end(text)
}

/** The file under `root` that URL path `rel` names, or null when it is not a file inside it. */
export async function resolveStatic(root: string, rel: string): Promise<string | null> {
  let decoded: string
  try {
    decoded = decodeURIComponent(rel)
  } catch {
    return null
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null
  const parts = decoded.split('/')
  if (parts.some((p) => p === '..' || p === '.')) return null
  const norm = posix.normalize('/' + decoded).replace(/^\/+/, '')
  if (norm === '' || norm.endsWith('/')) return null
  try {
    const realRoot = await fsp.realpath(resolve(root))
    const real = await fsp.realpath(join(realRoot, ...norm.split('/')))
    if (!real.startsWith(realRoot + sep)) return null
    const st = await fsp.stat(real)
    return st.isFile() ? real : null
  } catch {
    return null
  }
}

export async function serveFile(res: ServerResponse, path: string, head: boolean): Promise<void> {
  const st = await fsp.stat(path)
  res.writeHead(200, { 'Content-Type': contentType(path), 'Content-Length': st.size })
  if (head) { res.end(); return }
  const stream = createReadStream(path)
  stream.on('error', () => res.destroy())
  stream.pipe(res)
}

/** index.html with <base href> to the token's static prefix (and an empty favicon, so the
 * browser does not ask for /favicon.ico without the token). */
export async function indexHtml(root: string, token: string): Promise<string | null> {
  let html: string
  try {
    html = await fsp.readFile(join(root, 'index.html'), 'utf8')
  } catch {
    return null
  }
  const inject = `<base href="/s/${token}/">` + (/<link[^>]+rel=["']?(shortcut )?icon/i.test(html) ? '' : '<link rel="icon" href="data:,">')
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (m) => m + inject) : inject + html
}
