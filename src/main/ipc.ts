// The IPC handlers: one `ipcMain.handle('easytune:<method>')` per EasyTuneApi method (the preload
// makes exactly one ipcRenderer.invoke per call). Every handler first checks the sender (the main
// window's top frame showing app://easytune, security/sender.ts), then validates its arguments
// with the shared validators (src/shared/validate.ts: a malformed call is rejected with the
// validator's message), and only then delegates to the Backend or to main's own services
// (dialogs, settings, the project file, the events port, PDF printing).
// Paths: a log chosen in the open dialog is imported in main, a dropped one becomes an opaque
// handle (Backend.addFile); projects come back parsed; save targets come from a save dialog. No
// handler ever returns a path.
import { stat } from 'node:fs/promises'
import { basename } from 'node:path'
import type { IpcMain } from 'electron'
import type { Backend } from '../backend/backend'
import type { AppInfo, ImportOptionsDto, ProjectState, Settings } from '../shared/api'
import { ApiInputError, VALIDATORS, type ApiMethod, type ValidatedArgs } from '../shared/validate'
import type { Dialogs } from './dialogs'
import type { DesktopProject } from './project'
import { assertTrustedSender, type SenderEvent, type TrustedWindow } from './security/sender'

export const CHANNEL_PREFIX = 'easytune:'
export const channelOf = (method: string) => `${CHANNEL_PREFIX}${method}`

export type IpcBackend = Pick<Backend, 'addFile' | 'importLog' | 'importFromPath' | 'getImportReport' | 'previewSplit' | 'estimateCampaign'
  | 'startCampaign' | 'startAnalysis' | 'cancel' | 'exportConfig' | 'generateReport' | 'restoreLastProject'>

export type IpcMainLike = Pick<IpcMain, 'handle' | 'removeHandler'>

export interface IpcDeps {
  backend: IpcBackend
  project: Pick<DesktopProject, 'save' | 'open' | 'autosave'>
  settings: { get(): Settings; set(patch: Partial<Settings>): Settings }
  dialogs: Pick<Dialogs, 'openLog' | 'saveFile'>
  /** Hands the calling window a MessagePort for campaign events (events-port.ts) and one per
   * running engine worker for its per-sample progress (worker-ports.ts). */
  openEventsPort(sender: unknown): void
  reports: { remember(html: string): void; isKnown(html: string): boolean }
  renderPdf(html: string): Promise<Uint8Array>
  writeFile(path: string, data: string | Uint8Array): Promise<void>
  appInfo(): AppInfo
  /** The main window (null while there is none): the only trusted sender. */
  getWindow(): TrustedWindow | null
}

type Handler<K extends ApiMethod> = (event: SenderEvent, ...args: ValidatedArgs[K]) => unknown

/** Checks that a dropped path is a readable regular file; errors name only the file. */
export async function checkDroppedFile(path: string): Promise<void> {
  const name = basename(path)
  let s
  try {
    s = await stat(path)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    throw new ApiInputError(code === 'ENOENT' ? `${name} no longer exists` : code === 'EACCES' ? `${name} cannot be read (permission denied)` : `${name} cannot be read`)
  }
  if (s.isDirectory()) throw new ApiInputError(`${name} is a folder: drop a log file`)
  if (!s.isFile()) throw new ApiInputError(`${name} is not a regular file`)
}

/** Registers every handler; returns the channels (to remove them on shutdown). */
export function registerIpc(ipcMain: IpcMainLike, deps: IpcDeps): string[] {
  const channels: string[] = []
  const add = (method: string, validate: (raw: unknown[]) => unknown[], fn: (event: SenderEvent, ...args: never[]) => unknown) => {
    const channel = channelOf(method)
    ipcMain.handle(channel, async (event, ...raw: unknown[]) => {
      assertTrustedSender(channel, event, deps.getWindow())
      const args = validate(raw)
      return fn(event, ...(args as never[]))
    })
    channels.push(channel)
  }
  const on = <K extends ApiMethod>(method: K, fn: Handler<K>) => add(method, (raw) => VALIDATORS[method](raw) as unknown[], fn as (event: SenderEvent, ...args: never[]) => unknown)

  on('getAppInfo', () => deps.appInfo())
  on('addLogFile', async (_e, path) => {
    await checkDroppedFile(path)
    return deps.backend.addFile(path)
  })
  // The optional tracking ({ importId }) is passed on as it came (absent stays absent): the import
  // then posts 'import-progress' on the events port and `cancel(importId)` stops it, the dialog
  // case included (once a file is chosen).
  on('importLog', async (_e, source, options: ImportOptionsDto, ...tracking) => {
    if (source.kind !== 'dialog') return deps.backend.importLog(source, options, ...tracking)
    const path = await deps.dialogs.openLog()
    if (!path) throw new ApiInputError('no file was chosen (the dialog was cancelled)')
    return deps.backend.importFromPath(path, options, ...tracking)
  })
  on('getImportReport', (_e, id) => deps.backend.getImportReport(id))
  on('previewSplit', (_e, id, split) => deps.backend.previewSplit(id, split))
  on('estimateCampaign', (_e, req) => deps.backend.estimateCampaign(req))
  on('startCampaign', (_e, req) => deps.backend.startCampaign(req))
  on('startAnalysis', (_e, req) => deps.backend.startAnalysis(req))
  on('cancel', (_e, id) => { deps.backend.cancel(id) })
  add('onCampaignEvent', (raw) => {
    if (raw.length !== 0) throw new ApiInputError(`onCampaignEvent takes no arguments, got ${raw.length}`)
    return []
  }, (e) => { deps.openEventsPort(e.sender) })
  on('exportConfig', (_e, result, target, options) => deps.backend.exportConfig(result, target, options))
  on('saveText', async (_e, name, content, mime) => {
    const pdf = mime.toLowerCase() === 'application/pdf'
    // PDF: `content` is a report's HTML; main prints only HTML it generated itself (pdf.ts).
    if (pdf && !deps.reports.isKnown(content)) throw new ApiInputError('EasyTune prints to PDF only the reports it generated: generate the report again')
    const path = await deps.dialogs.saveFile(name, mime)
    if (!path) return false
    await deps.writeFile(path, pdf ? await deps.renderPdf(content) : content)
    return true
  })
  on('generateReport', (_e, result) => {
    const html = deps.backend.generateReport(result)
    deps.reports.remember(html)
    return html
  })
  on('saveProject', (_e, state: ProjectState, options) => deps.project.save(state, options))
  on('openProject', (_e, arg) => deps.project.open(arg))
  on('autosave', (_e, state) => deps.project.autosave(state))
  on('restoreLastProject', () => deps.backend.restoreLastProject())
  on('getSettings', () => deps.settings.get())
  on('setSettings', (_e, patch) => deps.settings.set(patch))
  return channels
}

export function unregisterIpc(ipcMain: IpcMainLike, channels: string[]): void {
  for (const c of channels) ipcMain.removeHandler(c)
}
