// Browser mode (`easytune serve`): the built renderer and the API contract over HTTP + WebSocket,
// on the loopback interface only, behind a random token (auth.ts has the rules; api.ts the
// protocol). The three streams' events (campaign, import, analysis) are broadcast as JSON text
// frames { stream, event } on GET /ws?token=….
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import type { Backend } from '../backend/backend'
import { STREAM_NAMES, type StreamMessage } from '../shared/contract'
import { createApi } from './api'
import { bindAddress, checkHeaders, checkToken, newToken, TOKEN_HEADER } from './auth'
import { Downloads } from './downloads'
import { indexHtml, resolveStatic, securityHeaders, sendText, serveFile } from './static'

export const DEFAULT_MAX_UPLOAD_BYTES = 2 * 1024 ** 3
export const DEFAULT_MAX_BODY_BYTES = 128 * 1024 ** 2
/** A client whose socket has this much unsent data misses progress events (not the others). */
const WS_BACKLOG_BYTES = 8 * 1024 * 1024

export interface ServerOptions {
  /** 0 = any free port. */
  port: number
  /** Must be a loopback address or localhost. */
  host: string
  backend: Backend
  /** The built renderer (out/renderer). */
  rendererDir: string
  /** Default: 32 random bytes (base64url). Tests may pass one (16+ URL-safe characters). */
  token?: string
  /** Largest log upload (default 2 GiB). */
  maxUploadBytes?: number
  /** Largest API request body (default 128 MiB). */
  maxBodyBytes?: number
  /** Where uploads go (default: a fresh folder in the system temp folder, removed on close). */
  uploadDir?: string
}

export interface RunningServer {
  /** http://HOST:PORT/?token=TOKEN */
  url: string
  origin: string
  port: number
  host: string
  token: string
  /** Closes sockets and connections (the Backend is the caller's to close). */
  close(): Promise<void>
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const address = bindAddress(opts.host)
  const token = opts.token ?? newToken()
  if (!/^[A-Za-z0-9_-]{16,128}$/.test(token)) throw new Error('the access token must be 16 to 128 URL-safe characters (A-Z, a-z, 0-9, _ and -)')
  const ownUploadDir = opts.uploadDir === undefined
  const uploadDir = opts.uploadDir ?? mkdtempSync(join(tmpdir(), 'easytune-uploads-'))
  const downloads = new Downloads()
  const api = createApi({
    impl: opts.backend, downloads, uploadDir,
    maxUploadBytes: opts.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES, maxBodyBytes: opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    securityHeaders(res)
    const bad = checkHeaders(req)
    if (bad) return sendText(res, 403, bad)
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const path = url.pathname
    const method = req.method ?? 'GET'
    const isGet = method === 'GET' || method === 'HEAD'
    const deny = (given: string | null | undefined) => {
      const c = checkToken(given, token)
      if (!c.ok) sendText(res, c.status, c.message)
      return !c.ok
    }
    if (path.startsWith('/api/')) {
      const header = req.headers[TOKEN_HEADER]
      if (deny(typeof header === 'string' ? header : null)) return
      if (method !== 'POST') return sendText(res, 405, 'API calls are POST requests.\n', { Allow: 'POST' })
      return api.call(req, res, path.slice('/api/'.length))
    }
    const prefix = /^\/s\/([^/]*)\/(.*)$/.exec(path)
    if (prefix) {
      if (deny(prefix[1])) return
      if (!isGet) return sendText(res, 405, 'Only GET here.\n', { Allow: 'GET, HEAD' })
      const file = await resolveStatic(opts.rendererDir, prefix[2])
      if (!file) return sendText(res, 404, 'Not found.\n')
      return serveFile(res, file, method === 'HEAD')
    }
    if (deny(url.searchParams.get('token'))) return
    if (!isGet) return sendText(res, 405, 'Only GET here.\n', { Allow: 'GET, HEAD' })
    const dl = /^\/download\/([A-Za-z0-9_-]{1,64})$/.exec(path)
    if (dl) {
      if (!downloads.send(res, dl[1])) sendText(res, 404, 'This download has expired or was already saved: save it again from EasyTune.\n')
      return
    }
    if (path !== '/' && path !== '/index.html') return sendText(res, 404, 'Not found.\n')
    const html = await indexHtml(opts.rendererDir, token)
    if (html === null) return sendText(res, 503, `EasyTune: the user interface is not built (${opts.rendererDir} has no index.html). Run: npx electron-vite build\n`)
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(html) })
    res.end(method === 'HEAD' ? undefined : html)
  }

  const server = createServer({ requestTimeout: 0, headersTimeout: 30_000 }, (req, res) => {
    handle(req, res).catch((e: unknown) => sendText(res, 500, `EasyTune: internal error: ${(e as Error).message}\n`))
  })

  // WebSocket: the streams' events, server to page only.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096 })
  const clients = new Set<WebSocket>()
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const refuse = (status: number, text: string) => {
      socket.end(`HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 404 ? 'Not Found' : 'Forbidden'}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`)
    }
    socket.on('error', () => {})
    const bad = checkHeaders(req)
    if (bad) return refuse(403, bad)
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const c = checkToken(url.searchParams.get('token'), token)
    if (!c.ok) return refuse(c.status, c.message)
    if (url.pathname !== '/ws') return refuse(404, 'Not found.\n')
    wss.handleUpgrade(req, socket, head, (ws) => {
      clients.add(ws)
      ws.on('close', () => clients.delete(ws))
      ws.on('error', () => ws.terminate())
      ws.on('message', () => {}) // the page sends nothing; anything it sends is ignored
    })
  })
  const broadcast = (message: StreamMessage) => {
    const text = JSON.stringify(message)
    for (const ws of clients) {
      if (ws.readyState !== ws.OPEN) continue
      if (message.event.kind === 'progress' && ws.bufferedAmount > WS_BACKLOG_BYTES) continue
      ws.send(text)
    }
  }
  const unsubscribes = STREAM_NAMES.map((stream) => opts.backend.subscribe(stream, (event) => broadcast({ stream, event } as StreamMessage)))
  const unsubscribe = () => { for (const u of unsubscribes) u() }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port, address, () => { server.off('error', reject); resolve() })
  }).catch((e: NodeJS.ErrnoException) => {
    unsubscribe()
    if (ownUploadDir) rmSync(uploadDir, { recursive: true, force: true })
    if (e.code === 'EADDRINUSE') throw new Error(`port ${opts.port} on ${address} is already in use: choose another with --port (or --port 0 for any free port)`)
    throw e
  })
  const port = (server.address() as { port: number }).port
  const hostInUrl = address.includes(':') ? `[${address}]` : address
  const origin = `http://${hostInUrl}:${port}`
  let closing: Promise<void> | null = null
  return {
    url: `${origin}/?token=${token}`, origin, port, host: address, token,
    close: () => closing ??= (async () => {
      unsubscribe()
      for (const ws of clients) ws.close(1001, 'EasyTune is stopping')
      const closed = new Promise<void>((r) => server.close(() => r()))
      server.closeIdleConnections()
      setTimeout(() => { server.closeAllConnections(); for (const ws of clients) ws.terminate() }, 1000).unref()
      await closed
      wss.close()
      downloads.clear()
      if (ownUploadDir) rmSync(uploadDir, { recursive: true, force: true })
    })(),
  }
}
