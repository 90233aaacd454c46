// The native menus. Commands that act on the wizard's state are sent to the page: main posts
// 'easytune:menu' with the command name and the preload re-dispatches it as a DOM event
// `easytune-menu` (detail: the command), so the page's API stays exactly EasyTuneApi:
//   new-project, open-project, save-project, save-project-as, import-log, export.
// On open-project the page calls openProject(); File > Recent queues the file in main first
// (project.ts), so that call opens it without a dialog and the path never reaches the page.
// Help > About shows versions and citations natively; links open through the vetted openExternal.
import { homedir } from 'node:os'
import type { MenuItemConstructorOptions } from 'electron'

export const MENU_COMMANDS = ['new-project', 'open-project', 'save-project', 'save-project-as', 'import-log', 'export'] as const
export type MenuCommand = (typeof MENU_COMMANDS)[number]

export interface MenuActions {
  command(c: MenuCommand): void
  openRecent(path: string): void
  clearRecent(): void
  about(): void
  openLink(url: string): void
}

export interface MenuOptions {
  platform: NodeJS.Platform
  devTools: boolean
  archiveUrl: string
}

/** A recent path as the menu shows it (home folder as ~). */
export function recentLabel(path: string, home: string = homedir()): string {
  return home && path.startsWith(home + '/') ? `~${path.slice(home.length)}` : path
}

export function menuTemplate(actions: MenuActions, recent: readonly string[], opts: MenuOptions): MenuItemConstructorOptions[] {
  const mac = opts.platform === 'darwin'
  const recentItems: MenuItemConstructorOptions[] = recent.length === 0
    ? [{ label: 'No recent projects', enabled: false }]
    : [...recent.map((p, i): MenuItemConstructorOptions => ({ label: `${i + 1 < 10 ? `&${i + 1} ` : ''}${recentLabel(p).replace(/&/g, '&&')}`, click: () => actions.openRecent(p) })),
      { type: 'separator' }, { label: 'Clear recent projects', click: () => actions.clearRecent() }]
  const file: MenuItemConstructorOptions = {
    label: '&File',
    submenu: [
      { label: '&New project', accelerator: 'CmdOrCtrl+N', click: () => actions.command('new-project') },
      { label: '&Open project…', accelerator: 'CmdOrCtrl+O', click: () => actions.command('open-project') },
      { label: 'Open &recent', submenu: recentItems },
      { type: 'separator' },
      { label: '&Save project', accelerator: 'CmdOrCtrl+S', click: () => actions.command('save-project') },
      { label: 'Save project &as…', accelerator: 'CmdOrCtrl+Shift+S', click: () => actions.command('save-project-as') },
      { type: 'separator' },
      { label: '&Import log…', accelerator: 'CmdOrCtrl+I', click: () => actions.command('import-log') },
      { label: '&Export…', accelerator: 'CmdOrCtrl+E', click: () => actions.command('export') },
      { type: 'separator' },
      mac ? { role: 'close' } : { role: 'quit' },
    ],
  }
  const view: MenuItemConstructorOptions = {
    label: '&View',
    submenu: [
      { role: 'reload' },
      ...(opts.devTools ? [{ role: 'toggleDevTools' } as MenuItemConstructorOptions] : []),
      { type: 'separator' }, { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { type: 'separator' }, { role: 'togglefullscreen' },
    ],
  }
  const help: MenuItemConstructorOptions = {
    role: 'help',
    label: '&Help',
    submenu: [
      { label: 'The Parallel Workloads Archive (web)', click: () => actions.openLink(opts.archiveUrl) },
      { type: 'separator' },
      { label: '&About EasyTune', click: () => actions.about() },
    ],
  }
  return [
    ...(mac ? [{ role: 'appMenu' } as MenuItemConstructorOptions] : []),
    file,
    { role: 'editMenu', label: '&Edit' },
    view,
    { role: 'windowMenu', label: '&Window' },
    help,
  ]
}
