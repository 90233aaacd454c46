// Electron main: app lifecycle (one instance, one main window), the security rules on every web
// contents, the app:// protocol, settings, the Backend with engine workers as utility processes,
// the IPC handlers derived from the API contract (ipc.ts, with main's own services: services.ts),
// the events MessagePort of the three streams and the engine workers' progress ports, the menus See docs/ARCHITECTURE.md §Processes, §Electron security rules.
//
// __dirname is electron-vite's ESM shim (never redeclare it: docs/TOOLCHAIN.md §Build layout). Built layout:
// out/main/index.js, out/main/engine-worker.js, out/main/parse-worker.js, out/preload/index.cjs, out/renderer/.
import { join, resolve } from 'node:path'
import { app, BrowserWindow, dialog, ipcMain, Menu, session } from 'electron'
import { Backend } from '../backend/backend'
import { writeFileAtomic } from '../backend/project'
import { SAMPLE_FILE } from '../backend/paths'
import { aboutText, ARCHIVE_URL, desktopAppInfo } from './app-info'
import { installAppProtocol, registerAppScheme } from './app-protocol'
import { electronDialogs, PROJECT_EXTENSION } from './dialogs'
import { engineWorkerPath, utilityFork } from './engine-fork'
import { EventPorts, type ContentsLike } from './events-port'
import { WorkerPorts } from './worker-ports'
import { registerIpc, unregisterIpc } from './ipc'
import { menuTemplate, type MenuCommand } from './menu'
import { renderPdf } from './pdf'
import { desktopImplementation } from './services'
import { STREAM_NAMES, type StreamMessage } from '../shared/contract'
import { DesktopProject } from './project'
import { openExternalVetted } from './security/external'
import { installSecurity } from './security/index'
import { AppSettings } from './settings'
import { createMainWindow } from './window'

let mainWindow: BrowserWindow | null = null
let backend: Backend | null = null
let channels: string[] = []
let quitting = false
/** Opens a project file named from outside the page (Recent menu, second instance, macOS). */
let openFromOutside: ((path: string) => void) | null = null

// One name and one settings folder whether started as `electron out/main/index.js` (npm start) or
// packaged (productName EasyTune): ~/.config/EasyTune on Linux.
app.setName('EasyTune')
app.setPath('userData', join(app.getPath('appData'), 'EasyTune'))
registerAppScheme() // before 'ready'
installSecurity(app) // every web contents, from the first one

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  // A second launch focuses this window (and opens the project file it was given, if any).
  app.on('second-instance', (_e, argv, workingDirectory) => {
    if (!mainWindow) return
    if (mainWindow.isMinimized()) mainWindow.restore()
    mainWindow.focus()
    const project = argv.slice(1).find((a) => a.endsWith(`.${PROJECT_EXTENSION}`))
    if (project) openFromOutside?.(resolve(workingDirectory, project))
  })
  app.whenReady().then(start).catch((e: unknown) => {
    dialog.showErrorBox('EasyTune could not start', e instanceof Error ? e.message : String(e))
    app.exit(1)
  })
}

app.on('open-file', (event, path) => {
  event.preventDefault()
  if (path.endsWith(`.${PROJECT_EXTENSION}`)) openFromOutside?.(path)
})

async function start(): Promise<void> {
  const userData = app.getPath('userData')
  installAppProtocol(session.defaultSession, join(__dirname, '../renderer'))
  const settings = new AppSettings()
  const samplePath = app.isPackaged ? join(process.resourcesPath, 'sample', SAMPLE_FILE) : undefined
  // Each engine worker posts its per-sample progress straight to the window on its own port
  // (worker-ports.ts); main posts only the cell-level events and the pool's aggregate (events-port.ts).
  const workerPorts = new WorkerPorts()
  const be = new Backend({
    mode: 'desktop',
    stateDir: join(userData, 'state'),
    cacheDir: join(userData, 'cells'),
    fork: utilityFork(undefined, workerPorts),
    workerPath: engineWorkerPath(),
    ...(samplePath ? { samplePath } : {}),
  })
  backend = be
  const ports = new EventPorts()
  for (const stream of STREAM_NAMES) be.subscribe(stream, (event) => ports.emit({ stream, event } as StreamMessage))
  const dialogs = electronDialogs(() => mainWindow)
  const send = (command: MenuCommand) => { if (mainWindow && !mainWindow.isDestroyed()) mainWindow.webContents.send('easytune:menu', command) }
  const project = new DesktopProject({ backend: be, recent: settings, dialogs, onRecentChanged: () => buildMenu() })
  const impl = desktopImplementation(be, { project, settings, dialogs, renderPdf })
  const appInfo = () => desktopAppInfo(be.getAppInfo())
  openFromOutside = (path) => { project.queueOpen(path); send('open-project') }

  const buildMenu = () => {
    Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate({
      command: (c) => { if (c === 'new-project') project.reset(); send(c) },
      openRecent: (path) => openFromOutside?.(path),
      clearRecent: () => { settings.set({ recentProjects: [] }); buildMenu() },
      about: () => {
        const { message, detail } = aboutText(appInfo())
        const options = { type: 'info' as const, title: 'About EasyTune', message, detail, buttons: ['OK'] }
        void (mainWindow ? dialog.showMessageBox(mainWindow, options) : dialog.showMessageBox(options))
      },
      openLink: (url) => { void openExternalVetted(url) },
    }, settings.get().recentProjects, { platform: process.platform, devTools: !app.isPackaged, archiveUrl: ARCHIVE_URL })))
  }

  channels = registerIpc(ipcMain, {
    impl,
    dialogs,
    openEventsPort: (sender) => {
      ports.open(sender as ContentsLike)
      workerPorts.attach(sender as ContentsLike)
    },
    writeFile: writeFileAtomic,
    getWindow: () => (mainWindow && !mainWindow.isDestroyed() ? mainWindow : null),
  })
  buildMenu()

  app.on('child-process-gone', (_e, details) => {
    if (details.type === 'Utility' && details.reason !== 'clean-exit') console.warn(`EasyTune: an engine worker process ended (${details.reason}, exit code ${details.exitCode}).`)
  })

  const openWindow = () => {
    const first = settings.isFirstRun()
    mainWindow = createMainWindow({ preloadPath: join(__dirname, '../preload/index.cjs'), sample: first, devTools: !app.isPackaged })
    if (first) settings.markFirstRunDone()
    mainWindow.on('closed', () => { mainWindow = null })
  }
  openWindow()
  app.on('activate', () => { if (BrowserWindow.getAllWindows().length === 0) openWindow() })
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})

// Stop every campaign and its engine workers before leaving (finished cells are in the cache).
app.on('before-quit', (event) => {
  if (quitting || !backend) return
  event.preventDefault()
  quitting = true
  unregisterIpc(ipcMain, channels)
  const timeout = new Promise((r) => setTimeout(r, 5000))
  void Promise.race([backend.close().catch(() => undefined), timeout]).finally(() => app.quit())
})
