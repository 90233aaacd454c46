// The browser-mode API client (src/renderer/src/api/browser.ts) without a server: the token from
// the URL, the request shape, and errors in plain words. (The real round trips are in
// test/e2e/serve.test.ts, in Chromium.)
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createBrowserApi, tokenFromLocation } from '../../src/renderer/src/api/browser'
import { startupFlags } from '../../src/renderer/src/api/index'

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
})
