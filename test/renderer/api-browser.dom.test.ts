// The browser-mode API client (src/renderer/src/api/browser.ts) without a server: the token from
// the URL, the request shape per kind (every contract operation reachable, derived from the
// contract), the streams' messages to their own listeners, and errors in plain words. (The real
// round trips are in test/e2e/serve.test.ts, in Chromium.)
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createBrowserApi, tokenFromLocation } from '../../src/renderer/src/api/browser'
import { startupFlags } from '../../src/renderer/src/api/index'
import { CONTRACT, OPERATION_NAMES, STREAM_NAMES, subscribeName } from '../../src/shared/contract'

const TOKEN = 'abcdefghijklmnopqrstuvwxyz012345'

describe('browser API client', () => {
  afterEach(() => { vi.unstubAllGlobals() })

  it('reads the token and the sample flag from the URL', () => {
    expect(tokenFromLocation(`?token=${TOKEN}&sample=1`)).toBe(TOKEN)
    expect(tokenFromLocation('?token=short')).toBeNull()
    expect(tokenFromLocation('?token=<script>alert(1)</script>xxxxxxxx')).toBeNull()
    expect(tokenFromLocation('')).toBeNull()
    expect(startupFlags(`?token=${TOKEN}&sample=1`)).toEqual({ sample: true })
    expect(startupFlags(`?token=${TOKEN}`)).toEqual({ sample: false })
  })

  it('explains a missing token instead of calling the server', async () => {
    const fetch = vi.fn()
    vi.stubGlobal('fetch', fetch)
    await expect(createBrowserApi({ token: null }).getAppInfo()).rejects.toThrow(/opened without its access token/)
    expect(fetch).not.toHaveBeenCalled()
  })

  it('POSTs the arguments as JSON with the token header, and unwraps answers and errors', async () => {
    const fetch = vi.fn(async (_url: string, init: RequestInit) => {
      const args = JSON.parse(String(init.body)) as unknown[]
      if (args.length === 0) return new Response('EasyTune: wrong access token.\n', { status: 403 })
      if ((args[0] as { kind: string }).kind === 'dialog') return new Response(JSON.stringify({ ok: false, error: 'there is no file dialog in browser mode' }), { status: 400 })
      return new Response(JSON.stringify({ ok: true, value: { id: 'w1' } }), { status: 200 })
    })
    vi.stubGlobal('fetch', fetch)
    const api = createBrowserApi({ token: TOKEN })
    await expect(api.importLog({ kind: 'sample' }, {})).resolves.toEqual({ id: 'w1' })
    const [url, init] = fetch.mock.calls[0]
    expect(url).toBe('/api/importLog')
    expect(init.method).toBe('POST')
    expect((init.headers as Record<string, string>)['x-easytune-token']).toBe(TOKEN)
    expect(JSON.parse(String(init.body))).toEqual([{ kind: 'sample' }, {}])
    await expect(api.importLog({ kind: 'dialog' }, {})).rejects.toThrow('there is no file dialog in browser mode')
    await expect(api.getSettings()).rejects.toThrow(/^wrong access token\.$/)
    await api.saveProject({ version: 1 } as never, undefined).catch(() => {})
    expect(JSON.parse(String(fetch.mock.calls[fetch.mock.calls.length - 1][1].body))).toHaveLength(1) // trailing undefined dropped
  })

  it('reaches every contract operation at /api/<operation>, by kind (derived, not listed)', async () => {
    const fetch = vi.fn(async (url: string) => new Response(JSON.stringify({ ok: true, value: url.includes('save') ? { download: 'd1', name: 'f.txt' } : null }), { status: 200 }))
    vi.stubGlobal('fetch', fetch)
    const sent: { url: string; body: unknown }[] = []
    class FakeXhr {
      status = 200
      responseText = JSON.stringify({ ok: true, value: { handle: 'h1', name: 'x' } })
      upload = { onprogress: null }
      onload: (() => void) | null = null
      onerror = null
      onabort = null
      private url = ''
      open(_m: string, url: string) { this.url = url }
      setRequestHeader() {}
      send(body: unknown) { sent.push({ url: this.url, body }); setTimeout(() => this.onload?.(), 0) }
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr)
    const clicks: string[] = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) { clicks.push(this.getAttribute('href')!) })
    const api = createBrowserApi({ token: TOKEN }) as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>
    expect(Object.keys(api).sort()).toEqual([...OPERATION_NAMES, ...STREAM_NAMES.map(subscribeName)].sort())
    for (const name of OPERATION_NAMES) {
      const kind = CONTRACT[name].kind
      if (kind === 'file-in') {
        const file = new File(['abc'], 'my log.swf')
        await api[name]!(file)
        expect(sent[sent.length - 1]).toEqual({ url: `/api/${name}?name=my%20log.swf`, body: file })
      } else {
        const value = await api[name]!('x')
        expect(fetch.mock.calls[fetch.mock.calls.length - 1]![0]).toBe(`/api/${name}`)
        if (kind === 'save') {
          expect(value).toBe(true)
          expect(clicks[clicks.length - 1]).toBe(`/download/d1?token=${TOKEN}`)
        }
      }
    }
  })

  it('refuses a project file over the contract\'s limit before uploading it', async () => {
    const xhr = vi.fn()
    vi.stubGlobal('XMLHttpRequest', xhr)
    const api = createBrowserApi({ token: TOKEN })
    await expect(api.openProject({ name: 'huge.easytune', size: 1e9 } as File)).rejects.toThrow(/^huge\.easytune is too large \(1000000000 bytes, at most 67108864\)$/)
    expect(xhr).not.toHaveBeenCalled()
  })

  it('hands each stream\'s WebSocket messages to that stream\'s listeners only', async () => {
    const sockets: { onmessage: ((m: { data: string }) => void) | null; onopen: (() => void) | null; close: () => void; readyState: number }[] = []
    class FakeSocket {
      static OPEN = 1
      readyState = 1
      onmessage = null
      onopen = null
      onclose = null
      constructor(readonly url: string) { sockets.push(this as never); setTimeout(() => (this as unknown as { onopen?: () => void }).onopen?.(), 0) }
      close() {}
    }
    vi.stubGlobal('WebSocket', FakeSocket)
    const api = createBrowserApi({ token: TOKEN, location: { protocol: 'http:', host: '127.0.0.1:1' } })
    const campaign = vi.fn()
    const imports = vi.fn()
    const analyses = vi.fn()
    api.onCampaignEvent(campaign)
    api.onImportEvent(imports)
    api.onAnalysisEvent(analyses)
    expect(sockets).toHaveLength(1) // one socket for every stream
    const send = (m: unknown) => sockets[0]!.onmessage!({ data: JSON.stringify(m) })
    send({ stream: 'campaign', event: { campaignId: 'c1', kind: 'cancelled' } })
    send({ stream: 'import', event: { importId: 'i1', kind: 'progress', bytesRead: 1, totalBytes: 2, jobsRead: 0 } })
    send({ stream: 'analysis', event: { analysisId: 'a1', kind: 'cancelled' } })
    send({ stream: 'elsewhere', event: {} })
    send({ campaignId: 'c1', kind: 'cancelled' })
    expect(campaign.mock.calls).toEqual([[{ campaignId: 'c1', kind: 'cancelled' }]])
    expect(imports.mock.calls).toEqual([[{ importId: 'i1', kind: 'progress', bytesRead: 1, totalBytes: 2, jobsRead: 0 }]])
    expect(analyses.mock.calls).toEqual([[{ analysisId: 'a1', kind: 'cancelled' }]])
  })
})
