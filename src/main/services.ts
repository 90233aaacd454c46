// The desktop app's implementation of the API contract: the Backend's method for every operation,
// except where the desktop app has a service of its own in main:
//   getAppInfo      the Backend's, plus the research citations (app-info.ts)
//   importLog       { kind: 'dialog' }: main's open dialog picks the log (the page never sees it)
//   saveReportPdf   main prints the report it generates itself (pdf.ts), never HTML from the page
//   saveProject / openProject / autosave   the project file main remembers (project.ts)
//   getSettings / setSettings              electron-store (settings.ts)
//   writeSlurmArray main's folder dialog picks where the plan folder goes
// The IPC handlers (ipc.ts) call this table generically, by the operation's name.
import type { Backend } from '../backend/backend'
import { OPERATION_NAMES, type Implementation, type OperationName } from '../shared/contract'
import { ApiInputError } from '../shared/errors'
import type { Settings } from '../shared/settings'
import { desktopAppInfo } from './app-info'
import type { Dialogs } from './dialogs'
import type { DesktopProject } from './project'

export interface DesktopServices {
  project: Pick<DesktopProject, 'save' | 'open' | 'autosave'>
  settings: { get(): Settings; set(patch: Partial<Settings>): Settings }
  dialogs: Pick<Dialogs, 'openLog' | 'chooseFolder'>
  renderPdf(html: string): Promise<Uint8Array>
}

export type DesktopBackend = Pick<Backend, OperationName | 'importFromPath' | 'writeSlurmArrayIn'>

export function desktopImplementation(backend: DesktopBackend, s: DesktopServices): Implementation {
  const own: Partial<Implementation> = {
    getAppInfo: () => desktopAppInfo(backend.getAppInfo()),
    // With tracking, the import reports on the import stream and cancel(importId) stops it, the
    // dialog case included (once a file is chosen).
    importLog: async (source, options, tracking) => {
      if (source.kind !== 'dialog') return backend.importLog(source, options, tracking)
      const picked = await s.dialogs.openLog()
      if (!picked || picked.length === 0) throw new ApiInputError('no file was chosen (the dialog was cancelled)')
      // Several files chosen: one log (docs/SIMULATOR.md §Several files).
      return backend.importFromPath(typeof picked === 'string' ? picked : [...picked], options ?? {}, tracking)
    },
    saveReportPdf: async (result) => ({ name: 'easytune-report.pdf', mime: 'application/pdf', content: await s.renderPdf(backend.generateReport(result)) }),
    saveProject: (state, options) => s.project.save(state, options ?? {}),
    openProject: (file) => s.project.open(file),
    autosave: (state) => s.project.autosave(state),
    writeSlurmArray: async (req, options) => {
      const dir = await s.dialogs.chooseFolder('Choose a folder the cluster\'s nodes share, for the plan of the job array')
      return dir === null ? null : backend.writeSlurmArrayIn(dir, req, options)
    },
    getSettings: () => s.settings.get(),
    setSettings: (patch) => s.settings.set(patch),
  }
  const impl: Record<string, unknown> = {}
  for (const name of OPERATION_NAMES) {
    impl[name] = own[name] ?? (backend[name] as (...a: unknown[]) => unknown).bind(backend)
  }
  return impl as Implementation
}
