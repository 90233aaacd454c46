// Test doubles for the parts of Electron that src/main uses (the binary is not available here,
// and importing 'electron' in plain Node throws). Each test file mocks 'electron' with
// `vi.mock('electron', async () => (await import('./fake-electron')).electronModule())`.
import { EventEmitter } from 'node:events'
import { vi } from 'vitest'

export const shell = { openExternal: vi.fn(async (_url: string) => {}) }

type HeadersListener = (details: { url: string; responseHeaders?: Record<string, string | string[]> }, cb: (r: { responseHeaders: Record<string, string | string[]> }) => void) => void

export class FakeSession {
  headersListener: HeadersListener | null = null
  requestHandler: ((contents: unknown, permission: string, cb: (granted: boolean) => void, details: { requestingUrl?: string }) => void) | null = null
  checkHandler: ((contents: unknown, permission: string, origin: string) => boolean) | null = null
  deviceHandler: (() => boolean) | null = null
  webRequest = { onHeadersReceived: vi.fn((l: HeadersListener) => { this.headersListener = l }) }
  setPermissionRequestHandler = vi.fn((h: FakeSession['requestHandler']) => { this.requestHandler = h })
  setPermissionCheckHandler = vi.fn((h: FakeSession['checkHandler']) => { this.checkHandler = h })
  setDevicePermissionHandler = vi.fn((h: FakeSession['deviceHandler']) => { this.deviceHandler = h })
}

let nextId = 1

/** A WebContents: an EventEmitter with the methods the rules call. */
export class FakeContents extends EventEmitter {
  readonly id = nextId++
  session = new FakeSession()
  windowOpenHandler: ((d: { url: string }) => { action: string }) | null = null
  mainFrame = { url: 'app://easytune/index.html' }
  posted: { channel: string; message: unknown; transfer: unknown[] }[] = []
  setWindowOpenHandler(h: (d: { url: string }) => { action: string }): void { this.windowOpenHandler = h }
  postMessage(channel: string, message: unknown, transfer: unknown[] = []): void { this.posted.push({ channel, message, transfer }) }
  isDestroyed(): boolean { return false }
}

/** An event as Electron passes to will-navigate and friends. */
export function navEvent(url: string, isMainFrame = true): { url: string; isMainFrame: boolean; preventDefault: ReturnType<typeof vi.fn>; defaultPrevented: () => boolean } {
  const preventDefault = vi.fn()
  return { url, isMainFrame, preventDefault, defaultPrevented: () => preventDefault.mock.calls.length > 0 }
}

export const app = new (class extends EventEmitter {
  getPath = () => '/tmp'
  getVersion = () => '0.1.0'
  getName = () => 'EasyTune'
  isPackaged = false
})()

export function electronModule(): Record<string, unknown> {
  const e = {
    app,
    shell,
    ipcMain: { on: vi.fn(), handle: vi.fn(), removeHandler: vi.fn(), removeAllListeners: vi.fn() },
    protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
    session: { defaultSession: new FakeSession(), fromPartition: vi.fn(() => new FakeSession()) },
    utilityProcess: { fork: vi.fn() },
    MessageChannelMain: class {},
    BrowserWindow: class {},
    dialog: {},
    Menu: {},
  }
  return { default: e, ...e }
}
