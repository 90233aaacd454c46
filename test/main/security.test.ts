// Every security rule of src/main/security, on fake web contents (electron is mocked: no binary
// here). Each rule's pure helper is checked directly, then its apply(contents) is checked to hook
// the right Electron event and to act on it.
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeContents, FakeSession, navEvent, shell, app } from './fake-electron'

vi.mock('electron', async () => (await import('./fake-electron')).electronModule())

const { vetExternalUrl, openExternalVetted, noExternalLinks } = await import('../../src/main/security/external')
const navigation = await import('../../src/main/security/navigation')
const windowOpen = await import('../../src/main/security/window-open')
const webview = await import('../../src/main/security/webview')
const csp = await import('../../src/main/security/csp')
const permissions = await import('../../src/main/security/permissions')
const { applySecurity, installSecurity, RULES } = await import('../../src/main/security/index')
const { senderProblem, assertTrustedSender } = await import('../../src/main/security/sender')
const { mainWebPreferences, entryUrl } = await import('../../src/main/window')

beforeEach(() => { shell.openExternal.mockClear() })
const asContents = (c: FakeContents) => c as unknown as Electron.WebContents
const flush = () => new Promise((r) => setTimeout(r, 0))

describe('openExternal vetting', () => {
  it('accepts plain https URLs', () => {
    expect(vetExternalUrl('https://www.cs.huji.ac.il/labs/parallel/workload/')).toEqual({ ok: true, url: 'https://www.cs.huji.ac.il/labs/parallel/workload/' })
    expect(vetExternalUrl('https://doi.org/10.1007/978-3-319-77398-8_3?x=1#y').ok).toBe(true)
  })
  it.each([
    ['javascript:alert(1)', /https/], ['JavaScript:alert(1)', /https/], ['file:///etc/passwd', /https/], ['http://example.org/', /https/],
    ['data:text/html,<script>alert(1)</script>', /https/], ['smb://server/share', /https/], ['ms-msdt:/id', /https/], ['vbscript:msgbox', /https/],
    ['https://user:pass@example.org/', /credentials/], ['https://user@example.org/', /credentials/],
    ['https://example.org/a b', /spaces or control/], ['https://example.org/\n--flag', /spaces or control/], ['https://exa\u0000mple.org', /control/],
    ['/relative/path', /absolute/], ['not a url', /spaces|absolute/], ['', /not a URL/], [`https://example.org/${'a'.repeat(3000)}`, /too long/],
  ])('refuses %s', (url, reason) => {
    const v = vetExternalUrl(url)
    expect(v.ok).toBe(false)
    if (!v.ok) expect(v.reason).toMatch(reason)
  })
  it('refuses what is not a string', () => {
    for (const v of [null, undefined, 42, {}, ['https://x.org']]) expect(vetExternalUrl(v).ok).toBe(false)
  })
  it('opens only vetted URLs, through shell.openExternal', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    expect(await openExternalVetted('javascript:alert(1)')).toBe(false)
    expect(await openExternalVetted('file:///etc/passwd')).toBe(false)
    expect(shell.openExternal).not.toHaveBeenCalled()
    expect(await openExternalVetted('https://example.org/')).toBe(true)
    expect(shell.openExternal).toHaveBeenCalledWith('https://example.org/')
    warn.mockRestore()
  })
})

describe('navigation is blocked', () => {
  it('allows only the app origin', () => {
    expect(navigation.isAllowedNavigation('app://easytune/index.html?sample=1')).toBe(true)
    for (const u of ['app://evil/index.html', 'file:///etc/passwd', 'https://example.org/', 'http://127.0.0.1:8080/', 'javascript:alert(1)', 'about:blank', 'data:text/html,x', 'garbage'])
      expect(navigation.isAllowedNavigation(u), u).toBe(false)
  })
  it('cancels will-navigate away from the app and offers https links to the system browser only', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const c = new FakeContents()
    navigation.apply(asContents(c))
    const inside = navEvent('app://easytune/index.html')
    c.emit('will-navigate', inside)
    expect(inside.preventDefault).not.toHaveBeenCalled()
    for (const url of ['https://example.org/', 'file:///home/u/log.swf', 'javascript:alert(1)', 'http://example.org/']) {
      const e = navEvent(url)
      c.emit('will-navigate', e)
      expect(e.preventDefault, url).toHaveBeenCalled()
    }
    await flush()
    expect(shell.openExternal.mock.calls).toEqual([['https://example.org/']])
    warn.mockRestore()
  })
  it('cancels redirects and subframe navigations without opening anything', async () => {
    const c = new FakeContents()
    navigation.apply(asContents(c))
    const r = navEvent('https://example.org/')
    c.emit('will-redirect', r)
    const f = navEvent('https://example.org/frame', false)
    c.emit('will-frame-navigate', f)
    expect(r.preventDefault).toHaveBeenCalled()
    expect(f.preventDefault).toHaveBeenCalled()
    await flush()
    expect(shell.openExternal).not.toHaveBeenCalled()
  })
  it('never opens links from contents marked noExternalLinks (the report window)', async () => {
    const c = new FakeContents()
    noExternalLinks.add(c)
    navigation.apply(asContents(c))
    const e = navEvent('https://example.org/')
    c.emit('will-navigate', e)
    expect(e.preventDefault).toHaveBeenCalled()
    await flush()
    expect(shell.openExternal).not.toHaveBeenCalled()
  })
})

describe('window.open is denied', () => {
  it('denies every new window and opens https links externally', async () => {
    const c = new FakeContents()
    windowOpen.apply(asContents(c))
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    for (const url of ['https://example.org/', 'app://easytune/index.html', 'file:///etc/passwd', 'javascript:alert(1)', 'about:blank'])
      expect(c.windowOpenHandler!({ url }), url).toEqual({ action: 'deny' })
    await flush()
    expect(shell.openExternal.mock.calls).toEqual([['https://example.org/']])
    warn.mockRestore()
  })
})

describe('webviews cannot attach', () => {
  it('prevents will-attach-webview', () => {
    const c = new FakeContents()
    webview.apply(asContents(c))
    const e = { preventDefault: vi.fn() }
    c.emit('will-attach-webview', e, {}, { src: 'https://example.org/' })
    expect(e.preventDefault).toHaveBeenCalled()
  })
})

describe('Content Security Policy', () => {
  it('is strict: nothing by default, scripts only from the app, no eval, no objects or frames', () => {
    const h = csp.cspHeader()
    expect(h).toMatch(/default-src 'none'/)
    expect(h).toMatch(/script-src 'self'(;|$)/)
    expect(h).not.toMatch(/unsafe-eval/)
    expect(h).not.toMatch(/script-src[^;]*unsafe-inline/)
    for (const d of ["object-src 'none'", "frame-src 'none'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'", "connect-src 'self'"]) expect(h).toContain(d)
    expect(h).not.toMatch(/https?:|\*/)
  })
  it('replaces any policy a response carried, whatever the header case', () => {
    const out = csp.withCsp({ 'content-security-policy': ['default-src *'], 'CONTENT-SECURITY-POLICY-REPORT-ONLY': ['x'], 'Content-Type': ['text/html'] })
    expect(out).toEqual({ 'Content-Type': ['text/html'], 'Content-Security-Policy': [csp.cspHeader()] })
  })
  it('is set on every response of the session, once per session', () => {
    const c = new FakeContents()
    csp.apply(asContents(c))
    csp.apply(asContents(c))
    expect(c.session.webRequest.onHeadersReceived).toHaveBeenCalledTimes(1)
    for (const [url, headers] of [['app://easytune/index.html', { 'Content-Type': ['text/html'] }], ['app://easytune/assets/a.js', undefined], ['https://example.org/', { 'content-security-policy': ['default-src *'] }]] as const) {
      let got: Record<string, string | string[]> | undefined
      c.session.headersListener!({ url, responseHeaders: headers as never }, (r) => { got = r.responseHeaders })
      expect(got!['Content-Security-Policy'], url).toEqual([csp.cspHeader()])
      expect(Object.keys(got!).filter((k) => k.toLowerCase() === 'content-security-policy')).toHaveLength(1)
    }
  })
  it('lets a session use its own policy (the report window)', () => {
    const ses = new FakeSession()
    csp.setSessionCsp(ses as unknown as Electron.Session, "default-src 'none'")
    csp.installCsp(ses as unknown as Electron.Session)
    let got: Record<string, string | string[]> | undefined
    ses.headersListener!({ url: 'app://report/x.html' }, (r) => { got = r.responseHeaders })
    expect(got!['Content-Security-Policy']).toEqual(["default-src 'none'"])
  })
})

describe('permissions are denied', () => {
  it('denies every permission request and check', () => {
    const c = new FakeContents()
    permissions.apply(asContents(c))
    const s = c.session
    for (const p of ['media', 'geolocation', 'notifications', 'midi', 'midiSysex', 'hid', 'serial', 'usb', 'clipboard-read', 'fullscreen', 'pointerLock', 'openExternal', 'display-capture', 'unknown']) {
      const cb = vi.fn()
      s.requestHandler!(c, p, cb, { requestingUrl: 'app://easytune/index.html' })
      expect(cb, p).toHaveBeenCalledWith(false)
      expect(s.checkHandler!(c, p, 'app://easytune'), p).toBe(false)
    }
    expect(s.deviceHandler!()).toBe(false)
  })
  it('allows only sanitized clipboard writes, and only to the app itself', () => {
    expect(permissions.isPermissionAllowed('clipboard-sanitized-write', 'app://easytune/index.html')).toBe(true)
    expect(permissions.isPermissionAllowed('clipboard-sanitized-write', 'https://example.org/')).toBe(false)
    expect(permissions.isPermissionAllowed('clipboard-read', 'app://easytune/index.html')).toBe(false)
  })
})

describe('every rule on every web contents', () => {
  it('applySecurity hooks each rule; installSecurity runs it for each new web contents', () => {
    expect(RULES).toHaveLength(5)
    installSecurity(app as unknown as Electron.App)
    const c = new FakeContents()
    app.emit('web-contents-created', {}, c)
    expect(c.windowOpenHandler).not.toBeNull()
    expect(c.listenerCount('will-navigate')).toBe(1)
    expect(c.listenerCount('will-redirect')).toBe(1)
    expect(c.listenerCount('will-frame-navigate')).toBe(1)
    expect(c.listenerCount('will-attach-webview')).toBe(1)
    expect(c.session.webRequest.onHeadersReceived).toHaveBeenCalled()
    expect(c.session.setPermissionRequestHandler).toHaveBeenCalled()
    const d = new FakeContents()
    applySecurity(asContents(d))
    expect(d.listenerCount('will-navigate')).toBe(1)
  })
})

describe('IPC sender check', () => {
  const main = new FakeContents()
  const win = { webContents: main }
  it('trusts only the main window\'s top frame on the app origin', () => {
    expect(senderProblem({ sender: main, senderFrame: main.mainFrame }, win)).toBeNull()
    expect(senderProblem({ sender: new FakeContents(), senderFrame: main.mainFrame }, win)).toMatch(/not the main window/)
    expect(senderProblem({ sender: main, senderFrame: { url: 'app://easytune/index.html' } }, win)).toMatch(/top frame/)
    expect(senderProblem({ sender: main, senderFrame: null }, win)).toMatch(/gone/)
    expect(senderProblem({ sender: main, senderFrame: main.mainFrame }, null)).toMatch(/no main window/)
    const moved = new FakeContents()
    moved.mainFrame = { url: 'https://evil.example/' }
    expect(senderProblem({ sender: moved, senderFrame: moved.mainFrame }, { webContents: moved })).toMatch(/outside the app \(https:\/\/evil\.example\)/)
    expect(() => assertTrustedSender('easytune:getSettings', { sender: moved, senderFrame: moved.mainFrame }, { webContents: moved })).toThrow(/refused easytune:getSettings/)
  })
})

describe('the main window', () => {
  it('is isolated, sandboxed, without Node, with web security on and the CJS preload', () => {
    const p = mainWebPreferences('/app/out/preload/index.cjs', false)
    expect(p).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, nodeIntegrationInWorker: false, nodeIntegrationInSubFrames: false, webSecurity: true, allowRunningInsecureContent: false, webviewTag: false, navigateOnDragDrop: false, devTools: false })
    expect(p.preload).toMatch(/index\.cjs$/)
  })
  it('opens the wizard on the sample on first run', () => {
    expect(entryUrl({ sample: true })).toBe('app://easytune/index.html?sample=1')
    expect(entryUrl({ sample: false })).toBe('app://easytune/index.html')
  })
})
