// EasyTuneApi over HTTP + WebSocket, for browser mode (`easytune serve`, src/server). The access
// token comes from the page's URL (?token=…) and is kept in memory only (never in storage).
//   calls      POST /api/<method>, JSON array of the arguments, header x-easytune-token
//   uploads    POST /api/upload?name=…, the raw bytes (XMLHttpRequest, for upload progress)
//   events     WebSocket /ws?token=…, one JSON CampaignEvent per message (campaigns and tracked
//              imports' progress); reconnects
//   downloads  saveText/saveProject answer a download id; the page opens /download/<id>?token=…
import type { CampaignEvent, EasyTuneApi } from '../../../shared/api'

export const TOKEN_HEADER = 'x-easytune-token'
/** Largest project file the page reads (the server checks it again). */
const MAX_PROJECT_BYTES = 64 * 1024 * 1024

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

  async function call<T>(method: string, args: unknown[]): Promise<T> {
    while (args.length && args[args.length - 1] === undefined) args = args.slice(0, -1)
    const res = await fetch(`/api/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [TOKEN_HEADER]: need() },
      body: JSON.stringify(args),
    })
    return answer<T>(res.status, await res.text())
  }

  // Campaign events: one socket, opened on demand, reopened while anyone listens.
  const listeners = new Set<(e: CampaignEvent) => void>()
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
        let e: CampaignEvent
        try { e = JSON.parse(String(m.data)) as CampaignEvent } catch { return }
        for (const f of [...listeners]) {
          try { f(e) } catch (err) { console.error('EasyTune: a campaign event listener threw', err) }
        }
      }
      ws.onclose = () => {
        clearTimeout(timer)
        resolve()
        if (socket === ws) socket = null
        opening = null
        if (listeners.size > 0) {
          setTimeout(() => { if (listeners.size > 0 && !socket) void ensureSocket() }, retryMs)
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

  return {
    getAppInfo: () => call('getAppInfo', []),
    addLogFile: (file, onProgress, signal) => new Promise((resolve, reject) => {
      if (signal?.aborted) { reject(new Error('the upload was cancelled')); return }
      const xhr = new XMLHttpRequest()
      signal?.addEventListener('abort', () => xhr.abort(), { once: true })
      xhr.open('POST', `/api/upload?name=${encodeURIComponent(file.name || 'log')}`)
      xhr.setRequestHeader(TOKEN_HEADER, need())
      xhr.setRequestHeader('content-type', 'application/octet-stream')
      xhr.upload.onprogress = (e) => onProgress?.(e.loaded, e.lengthComputable ? e.total : file.size)
      xhr.onload = () => {
        try { resolve(answer(xhr.status, xhr.responseText)) } catch (e) { reject(e) }
      }
      xhr.onerror = () => reject(new Error(`the upload of ${file.name} failed (the connection to EasyTune was lost${file.size > 1e9 ? ', or the file is too large' : ''})`))
      xhr.onabort = () => reject(new Error('the upload was cancelled'))
      xhr.send(file)
    }),
    importLog: async (source, options, tracking) => {
      // A tracked import's progress comes on the socket: have it open first when someone listens.
      if (tracking && listeners.size > 0) await ensureSocket()
      return call('importLog', [source, options, tracking])
    },
    getImportReport: (id) => call('getImportReport', [id]),
    previewSplit: (id, split) => call('previewSplit', [id, split]),
    estimateCampaign: (request) => call('estimateCampaign', [request]),
    startCampaign: async (request) => {
      await ensureSocket() // subscribe first, so no event of the new campaign is missed
      return call('startCampaign', [request])
    },
    startAnalysis: async (request) => {
      await ensureSocket() // subscribe first, so no event of the new analysis is missed
      return call('startAnalysis', [request])
    },
    cancel: async (id) => { await call('cancel', [id]) },
    onCampaignEvent: (listener) => {
      listeners.add(listener)
      void ensureSocket()
      return () => {
        listeners.delete(listener)
        if (listeners.size === 0 && socket) { const s = socket; socket = null; opening = null; s.close() }
      }
    },
    exportConfig: (result, target, options) => call('exportConfig', [result, target, options]),
    saveText: async (name, content, mime) => download((await call<{ download: string }>('saveText', [name, content, mime])).download, name),
    generateReport: (result) => call('generateReport', [result]),
    saveProject: async (state, options) => {
      const { download: id } = await call<{ download: string }>('saveProject', [state, options])
      return download(id, `${(state.log?.name ?? 'project').replace(/\.(gz|swf|csv|txt|log)$/gi, '').replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'project'}.easytune.json`)
    },
    openProject: async (file) => {
      const f = file ?? (await pickFile('.json,application/json'))
      if (!f) return null
      if (f.size > MAX_PROJECT_BYTES) throw new Error(`${f.name} is too large for an EasyTune project file`)
      return call('openProject', [{ text: await f.text() }])
    },
    autosave: async (state) => { await call('autosave', [state]) },
    restoreLastProject: () => call('restoreLastProject', []),
    getSettings: () => call('getSettings', []),
    setSettings: (settings) => call('setSettings', [settings]),
  }
}

/** The value of an API answer, or an Error with the server's plain-words message. */
function answer<T>(status: number, text: string): T {
  const body = parseAnswer(text)
  if (body && body.ok === true && status === 200) return body.value as T
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
    input.addEventListener('cancel', () => resolve(null))
    input.click()
  })
}
