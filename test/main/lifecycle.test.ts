// src/main/index.ts end to end on a mocked Electron: one instance, the app:// protocol and the
// security rules installed, settings in userData, every IPC channel registered, the menu set, one
// sandboxed window opened on the sample the first time (not the next), engine workers stopped
// before quitting, and a second instance refused.
import { EventEmitter } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'

const h = vi.hoisted(() => ({ userData: '', windows: [] as { options: { webPreferences: Record<string, unknown> }; url: string }[], handled: [] as string[], menus: 0, lock: true, quit: 0, protocols: [] as string[], privileged: [] as unknown[] }))
h.userData = mkdtempSync(join(tmpdir(), 'easytune-life-'))
afterAll(() => rmSync(h.userData, { recursive: true, force: true }))

vi.mock('electron', async () => {
  const { FakeContents, FakeSession } = await import('./fake-electron')
  const { EventEmitter } = await import('node:events')
  class App extends EventEmitter {
    isPackaged = false
    setName = vi.fn()
    setPath = vi.fn()
    getPath = (k: string) => (k === 'appData' ? h.userData : h.userData)
    getVersion = () => '0.1.0'
    requestSingleInstanceLock = () => h.lock
    whenReady = () => Promise.resolve()
    quit = vi.fn(() => { h.quit++; this.emit('quit-called') })
    exit = vi.fn()
  }
  const app = new App()
  class BrowserWindow extends EventEmitter {
    static all: BrowserWindow[] = []
    static getAllWindows = () => BrowserWindow.all
    webContents = new FakeContents()
    constructor(public options: { webPreferences: Record<string, unknown> }) {
      super()
      BrowserWindow.all.push(this)
      app.emit('web-contents-created', {}, this.webContents)
    }
    loadURL(url: string) { h.windows.push({ options: this.options, url }); return Promise.resolve() }
    isDestroyed() { return false }
  }
  const defaultSession = Object.assign(new FakeSession(), { protocol: { handle: (scheme: string) => { h.protocols.push(scheme) } } })
  const e = {
    app,
    BrowserWindow,
    ipcMain: { on: vi.fn(), removeAllListeners: vi.fn(), handle: (ch: string) => { h.handled.push(ch) }, removeHandler: vi.fn() },
    protocol: { registerSchemesAsPrivileged: (s: unknown) => { h.privileged.push(s) } },
    session: { defaultSession, fromPartition: () => new FakeSession() },
    Menu: { buildFromTemplate: (t: unknown) => t, setApplicationMenu: () => { h.menus++ } },
    dialog: { showErrorBox: vi.fn() },
    shell: { openExternal: vi.fn() },
    utilityProcess: { fork: vi.fn() },
    MessageChannelMain: class {},
  }
  return { default: e, ...e }
})

const electron = await import('electron')
const app = electron.app as unknown as EventEmitter & { setPath: ReturnType<typeof vi.fn>; quit: ReturnType<typeof vi.fn> }
const settle = () => new Promise((r) => setTimeout(r, 20))

describe('the main process', () => {
  it('starts: protocol, security, IPC, menu, one sandboxed window on the sample', async () => {
    await import('../../src/main/index')
    await settle()
    expect(app.setPath).toHaveBeenCalledWith('userData', join(h.userData, 'EasyTune'))
    expect(h.privileged).toEqual([[{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]])
    expect(h.protocols).toEqual(['app'])
    const { OPERATION_NAMES } = await import('../../src/shared/contract')
    expect(h.handled.sort()).toEqual([...OPERATION_NAMES, 'events'].map((m) => `easytune:${m}`).sort())
    expect(h.menus).toBe(1)
    expect(h.windows).toHaveLength(1)
    expect(h.windows[0]!.url).toBe('app://easytune/index.html?sample=1')
    expect(h.windows[0]!.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true })
    expect(String(h.windows[0]!.options.webPreferences.preload)).toMatch(/[/\\]preload[/\\]index\.cjs$/)
    const win = (electron.BrowserWindow as unknown as { all: { webContents: EventEmitter & { windowOpenHandler: unknown } }[] }).all[0]!
    expect(win.webContents.windowOpenHandler).not.toBeNull()
    expect(win.webContents.listenerCount('will-navigate')).toBe(1)
  })

  it('opens the next window without the sample (first run is over)', async () => {
    (electron.BrowserWindow as unknown as { all: unknown[] }).all.length = 0
    app.emit('activate')
    expect(h.windows.at(-1)!.url).toBe('app://easytune/index.html')
  })

  it('stops the back end before quitting', async () => {
    const event = { preventDefault: vi.fn() }
    app.emit('before-quit', event)
    expect(event.preventDefault).toHaveBeenCalled()
    await settle()
    expect(app.quit).toHaveBeenCalled()
    const again = { preventDefault: vi.fn() }
    app.emit('before-quit', again)
    expect(again.preventDefault).not.toHaveBeenCalled()
  })
})

describe('a second instance', () => {
  it('quits at once when the lock is taken', async () => {
    vi.resetModules()
    h.lock = false
    h.handled.length = 0
    const before = app.quit.mock.calls.length
    await import('../../src/main/index')
    await settle()
    expect(app.quit.mock.calls.length).toBe(before + 1)
    expect(h.handled).toHaveLength(0)
  })
})
