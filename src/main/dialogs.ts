// Native file dialogs, parented to the main window. Paths chosen here stay in main: the page gets
// a handle (logs), a boolean (saves) or the parsed project, never the path.
import { app, dialog, type BrowserWindow, type FileFilter } from 'electron'
import { extname, join } from 'node:path'

export const PROJECT_EXTENSION = 'easytune'
const LOG_EXTENSIONS = ['swf', 'gz', 'log', 'txt', 'csv', 'out', 'acct', 'dat']

const BY_MIME: Record<string, FileFilter> = {
  'application/pdf': { name: 'PDF document', extensions: ['pdf'] },
  'text/html': { name: 'HTML page', extensions: ['html', 'htm'] },
  'application/json': { name: 'JSON', extensions: ['json'] },
  'text/csv': { name: 'CSV table', extensions: ['csv'] },
  'image/svg+xml': { name: 'SVG image', extensions: ['svg'] },
  'text/x-lua': { name: 'Lua script', extensions: ['lua'] },
}

/** The save dialog's filters for a suggested file name and content type. */
export function saveFilters(suggestedName: string, mime: string): FileFilter[] {
  const base = mime.split(';')[0]!.trim().toLowerCase()
  const known = BY_MIME[base]
  const ext = extname(suggestedName).slice(1)
  const first = known ?? (ext ? { name: `${ext.toUpperCase()} file`, extensions: [ext] } : null)
  return first ? [first, { name: 'All files', extensions: ['*'] }] : [{ name: 'All files', extensions: ['*'] }]
}

/** `path` with `.ext` appended when it has no extension (the user typed a bare name). */
export function withExtension(path: string, ext: string): string {
  return extname(path) ? path : `${path}.${ext}`
}

export interface Dialogs {
  /** One or several files (several are read as one log: docs/SIMULATOR.md §Several files). */
  openLog(): Promise<string | readonly string[] | null>
  openProject(): Promise<string | null>
  saveProject(defaultName: string): Promise<string | null>
  saveFile(suggestedName: string, mime: string): Promise<string | null>
  /** A folder (created if need be), e.g. for a Slurm job array's plan; null when cancelled. */
  chooseFolder(title: string): Promise<string | null>
}

export function electronDialogs(getWindow: () => BrowserWindow | null): Dialogs {
  const open = async (options: Electron.OpenDialogOptions): Promise<string | null> => {
    const win = getWindow()
    const r = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options)
    return r.canceled || r.filePaths.length === 0 ? null : r.filePaths[0]!
  }
  const save = async (options: Electron.SaveDialogOptions): Promise<string | null> => {
    const win = getWindow()
    const r = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options)
    return r.canceled || !r.filePath ? null : r.filePath
  }
  const documents = () => { try { return app.getPath('documents') } catch { return app.getPath('home') } }
  return {
    openLog: async () => {
      const win = getWindow()
      const options: Electron.OpenDialogOptions = { title: 'Import a job log (several files of one log may be chosen)', properties: ['openFile', 'multiSelections'], filters: [{ name: 'Job logs (SWF, sacct, jobcomp, PBS)', extensions: LOG_EXTENSIONS }, { name: 'All files', extensions: ['*'] }] }
      const r = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options)
      return r.canceled || r.filePaths.length === 0 ? null : r.filePaths.length === 1 ? r.filePaths[0]! : [...r.filePaths].sort()
    },
    openProject: () => open({ title: 'Open an EasyTune project', properties: ['openFile'], filters: [{ name: 'EasyTune project', extensions: [PROJECT_EXTENSION] }, { name: 'All files', extensions: ['*'] }] }),
    saveProject: async (defaultName) => {
      const p = await save({ title: 'Save the EasyTune project', defaultPath: join(documents(), defaultName), filters: [{ name: 'EasyTune project', extensions: [PROJECT_EXTENSION] }] })
      return p === null ? null : withExtension(p, PROJECT_EXTENSION)
    },
    chooseFolder: (title) => open({ title, defaultPath: documents(), properties: ['openDirectory', 'createDirectory', 'promptToCreate'] }),
    saveFile: async (suggestedName, mime) => {
      const filters = saveFilters(suggestedName, mime)
      const p = await save({ title: `Save ${suggestedName}`, defaultPath: join(documents(), suggestedName), filters })
      const ext = filters[0]!.extensions[0]!
      return p === null ? null : ext === '*' ? p : withExtension(p, ext)
    },
  }
}
