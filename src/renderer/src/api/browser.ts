// The renderer's API over HTTP + WebSocket, for browser mode (`easytune serve`, src/server),
// derived from the API contract (src/shared/contract.ts): one loop builds a method per operation
// and one subscription per stream; nothing here names an operation, the KIND decides. The access
// token comes from the page's URL (?token=…) and is kept in memory only (never in storage).
//   'call'     POST /api/<operation>, JSON array of the arguments, header x-easytune-token
//   'file-in'  POST /api/<operation>?name=…, the File's raw bytes (XMLHttpRequest, for upload
//              progress); with no File (optional ones), the page's file picker asks for one
//   'save'     like 'call'; the answer names a one-time download, which the page opens
//              (/download/<id>?token=…) so the browser saves it
//   streams    WebSocket /ws?token=…, one JSON { stream, event } per message; reconnects. Before
//              a call that reports on a stream (the contract's `events`), the socket is opened
//              when anyone listens to that stream, so no early event is missed.
import { CONTRACT, OPERATION_NAMES, STREAM_NAMES, subscribeName, type EasyTuneApi, type OperationDecl, type StreamMessage, type StreamName } from '../../../shared/contract'

export const TOKEN_HEADER = 'x-easytune-token'

export interface BrowserApiOptions {
  /** The access token; null when the page was opened without one (every call then explains). */
  token: string | null
  /** Default: the page's location. */
  location?: { protocol: string; host: string }
}

/** The token in the page's URL, or null. */
export function tokenFromLocation(search: string = globalThis.location?.search ?? ''): string | null {
  const t = new URLSearchParams(search).get('token')
  return t && /^[A-Za-z0-9_-]{16,128}$/.test(t) ? t : null
}

const NO_TOKEN = 'EasyTune: this page was opened without its access token. Open the full URL that `easytune serve` printed (it ends with ?token=...).'

export function createBrowserApi(opts: BrowserApiOptions): EasyTuneApi {
  const token = opts.token
  const loc = () => opts.location ?? globalThis.location
  const need = (): string => {
    if (!token) throw new Error(NO_TOKEN)
    return token
  }

  async function call(operation: string, args: unknown[]): Promise<unknown> {
    while (args.length && args[args.length - 1] === undefined) args = args.slice(0, -1)
    const res = await fetch(`/api/${operation}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [TOKEN_HEADER]: need() },
      body: JSON.stringify(args),
    })
    return answer(res.status, await res.text())
  }

  function upload(operation: string, file: File, onProgress?: (sent: number, total: number) => void, signal?: AbortSignal): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) { reject(new Error('the upload was cancelled')); return }
      const xhr = new XMLHttpRequest()
      signal?.addEventListener('abort', () => xhr.abort(), { once: true })
      xhr.open('POST', `/api/${operation}?name=${encodeURIComponent(file.name || 'file')}`)
      xhr.setRequestHeader(TOKEN_HEADER, need())
      xhr.setRequestHeader('content-type', 'application/octet-stream')
      xhr.upload.onprogress = (e) => onProgress?.(e.loaded, e.lengthComputable ? e.total : file.size)
      xhr.onload = () => {
        try { resolve(answer(xhr.status, xhr.responseText)) } catch (e) { reject(e) }
      }
      xhr.onerror = () => reject(new Error(`the upload of ${file.name} failed (the connection to EasyTune was lost${file.size > 1e9 ? ', or the file is too large' : ''})`))
      xhr.onabort = () => reject(new Error('the upload was cancelled'))
      xhr.send(file)
    })
  }

  // The streams: one socket, opened on demand, reopened while anyone listens.
  const listeners = Object.fromEntries(STREAM_NAMES.map((s) => [s, new Set<(e: unknown) => void>()])) as Record<StreamName, Set<(e: unknown) => void>>
  const listening = () => STREAM_NAMES.some((s) => listeners[s].size > 0)
  let socket: WebSocket | null = null
  let opening: Promise<void> | null = null
  let retryMs = 500

  function ensureSocket(): Promise<void> {
    if (socket && socket.readyState === WebSocket.OPEN) return Promise.resolve()
    if (opening) return opening
    const l = loc()
    const ws = new WebSocket(`${l.protocol === 'https:' ? 'wss' : 'ws'}://${l.host}/ws?token=${encodeURIComponent(need())}`)
    socket = ws
    opening = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 5000) // never block a call on the socket for long
      ws.onopen = () => { clearTimeout(timer); retryMs = 500; resolve() }
      ws.onmessage = (m) => {
        let msg: StreamMessage
        try { msg = JSON.parse(String(m.data)) as StreamMessage } catch { return }
        const set = listeners[msg?.stream as StreamName]
        if (!set) return
        for (const f of [...set]) {
          try { f(msg.event) } catch (err) { console.error(`EasyTune: a ${msg.stream} event listener threw`, err) }
        }
      }
      ws.onclose = () => {
        clearTimeout(timer)
        resolve()
        if (socket === ws) socket = null
        opening = null
        if (listening()) {
          setTimeout(() => { if (listening() && !socket) void ensureSocket() }, retryMs)
          retryMs = Math.min(retryMs * 2, 10_000)
        }
      }
    }).finally(() => { if (socket === ws && ws.readyState === WebSocket.OPEN) opening = null })
    return opening
  }

  function download(id: string, name: string): boolean {
    const a = document.createElement('a')
    a.href = `/download/${encodeURIComponent(id)}?token=${encodeURIComponent(need())}`
    a.download = name
    a.rel = 'noopener'
    a.style.display = 'none'
    document.body.appendChild(a)
    a.click()
    a.remove()
    return true
  }

  const BY_KIND: { [K in OperationDecl['kind']]: (name: string, d: Extract<OperationDecl, { kind: K }>) => (...a: never[]) => Promise<unknown> } = {
    'call': (name, d) => async (...args: unknown[]) => {
      // What this call starts reports on a stream: have its socket open first (when anyone
      // listens there), so none of its first events is missed.
      if (d.events && listeners[d.events].size > 0) await ensureSocket()
      return call(name, args)
    },
    'save': (name) => async (...args: unknown[]) => {
      const value = await call(name, args)
      if (typeof value === 'boolean') return value
      const d = value as { download: string; name: string }
      return download(d.download, d.name)
    },
    'file-in': (name, d) => async (file?: File | null, onProgress?: (sent: number, total: number) => void, signal?: AbortSignal) => {
      const f = file ?? (d.optional ? await pickFile(d.accept) : null)
      if (!f) {
        if (d.optional) return null
        throw new Error('no file was given')
      }
      if (d.maxBytes !== undefined && f.size > d.maxBytes) throw new Error(`${f.name} is too large (${f.size} bytes, at most ${d.maxBytes})`)
      return upload(name, f, onProgress, signal)
    },
  }

  const api: Record<string, unknown> = {}
  for (const name of OPERATION_NAMES) {
    const d: OperationDecl = CONTRACT[name]
    api[name] = (BY_KIND[d.kind] as (n: string, d: OperationDecl) => unknown)(name, d)
  }
  for (const stream of STREAM_NAMES) {
    api[subscribeName(stream)] = (listener: (e: unknown) => void) => {
      listeners[stream].add(listener)
      void ensureSocket()
      return () => {
        listeners[stream].delete(listener)
        if (!listening() && socket) { const s = socket; socket = null; opening = null; s.close() }
      }
    }
  }
  return api as EasyTuneApi
}

/** The value of an API answer, or an Error with the server's plain-words message. */
function answer(status: number, text: string): unknown {
  const body = parseAnswer(text)
  if (body && body.ok === true && status === 200) return body.value
  const message = body?.error ?? (text.trim() || `HTTP ${status}`)
  throw new Error(message.replace(/^EasyTune: /, ''))
}

function parseAnswer(text: string): { ok?: boolean; value?: unknown; error?: string } | null {
  try {
    const v: unknown = JSON.parse(text)
    return typeof v === 'object' && v !== null ? (v as { ok?: boolean; value?: unknown; error?: string }) : null
  } catch {
    return null // a plain-text answer (401, 403, 413)
  }
}

/** Asks for a file with the browser's picker (needs a user gesture); null when cancelled. */
function pickFile(accept: string): Promise<File | null> {
  return new Promise((resolve) => {
    const input = document.createElement('input')
    input.type = 'file'
    input.accept = accept
    input.onchange = () => resolve(input.files?.[0] ?? null)
    input.oncancel = () => resolve(null) // the picker was closed without a file
    input.click()
  })
}
