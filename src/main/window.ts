// The one main window. Its page runs sandboxed with context isolation and no Node, gets the typed
// API from the preload only, and is served from app://easytune (app-protocol.ts). On the first
// run the URL carries ?sample=1 so the wizard opens on the bundled sample.
import { BrowserWindow, type WebPreferences } from 'electron'
import { APP_ENTRY } from './security/origin'

export function mainWebPreferences(preloadPath: string, devTools: boolean): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
    devTools,
  }
}

export function entryUrl(opts: { sample: boolean }): string {
  return opts.sample ? `${APP_ENTRY}?sample=1` : APP_ENTRY
}

export interface MainWindowOptions {
  preloadPath: string
  sample: boolean
  devTools: boolean
}

export function createMainWindow(opts: MainWindowOptions): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 860,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'EasyTune',
    webPreferences: mainWebPreferences(opts.preloadPath, opts.devTools),
  })
  win.once('ready-to-show', () => win.show())
  win.webContents.on('render-process-gone', (_e, details) => {
    if (details.reason === 'clean-exit') return
    console.error(`EasyTune: the window's page stopped (${details.reason}); reloading it.`)
    if (!win.isDestroyed()) win.webContents.reload()
  })
  void win.loadURL(entryUrl({ sample: opts.sample }))
  return win
}
