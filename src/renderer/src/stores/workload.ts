// The log: where it comes from, how it was imported (upload progress, the back end's reading
// progress, cancel), the import report and the inspect data. A new or re-imported log bumps
// `revision`, which downstream steps watch.
// Every import is tracked: the store names it (importId), listens for its progress on the import
// stream (bytes read, jobs parsed so far) and cancels it with api.cancel(importId).
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { ImportOptionsDto, LogSource, WorkloadSummary } from '../../../shared/api'
import { errorMessage, useApi } from '../apiRef'
import { useSplitStore } from './split'

/** The back end may name the file by its path ("/tmp/…/upload-…:1: …") or its name ("site.swf:1:");
 * the UI already names the file, so keep only the line number. */
export function importMessage(message: string, name = ''): string {
  const own = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const m = own ? message.replace(new RegExp(`^${own}:(\\d+):\\s*`), 'line $1: ').replace(new RegExp(`^${own}:\\s+`), '') : message
  return m
    .replace(/(?:[A-Za-z]:)?[\\/][^\s:]*[\\/][^\s:]+:(\d+):\s*/g, 'line $1: ')
    .replace(/(?:[A-Za-z]:)?[\\/][^\s:]*[\\/][^\s:]+:\s+/g, '')
}

export type ImportStatus = 'idle' | 'uploading' | 'importing' | 'ready' | 'error'

/** What the back end reported last about reading the log. */
export interface ReadingProgress { bytesRead: number; totalBytes: number; jobsRead: number; simulated?: { jobs: number; of: number; nodes?: number } }

/** A fresh import id (an id like the back end's: letters, digits, '-' and '_'). */
export function newImportId(): string {
  const c = globalThis.crypto
  if (typeof c.randomUUID === 'function') return c.randomUUID()
  const b = c.getRandomValues(new Uint8Array(16))
  return `i${Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')}`
}

export const useWorkloadStore = defineStore('workload', () => {
  const status = ref<ImportStatus>('idle')
  const fileName = ref<string | null>(null)
  /** Upload progress (browser mode; the desktop app reports the file as sent at once). */
  const progress = ref<{ sent: number; total: number } | null>(null)
  /** The back end reading the log (null until its first report). */
  const reading = ref<ReadingProgress | null>(null)
  /** A calm note about the last import (e.g. "Import cancelled."). */
  const notice = ref<string | null>(null)
  const source = ref<LogSource | null>(null)
  const options = ref<ImportOptionsDto>({})
  const summary = shallowRef<WorkloadSummary | null>(null)
  const error = ref<string | null>(null)
  /** A project opened without its log: the log it needs (name and hash). */
  const expectedLog = ref<{ name: string; sha256: string } | null>(null)
  const revision = ref(0)
  /** The last import that failed once its file was with the back end: what "Import again with…"
   * (a cleaning option named by the error) re-runs, since no import report is there to change it. */
  const failed = shallowRef<{ source: LogSource; options: ImportOptionsDto; name: string } | null>(null)
  let generation = 0
  let upload: AbortController | null = null
  /** The running import's id (what Cancel passes to api.cancel). */
  let importId: string | null = null

  const ready = computed(() => summary.value !== null)
  const busy = computed(() => status.value === 'uploading' || status.value === 'importing')
  const machineProcs = computed(() => summary.value?.report.machine.procs ?? null)
  /** The loaded log is not the one the opened project was made with. */
  const mismatch = computed(() => expectedLog.value !== null && summary.value !== null && summary.value.sha256 !== expectedLog.value.sha256)

  async function run(src: LogSource, opts: ImportOptionsDto, name: string, file?: File | File[]): Promise<void> {
    const gen = ++generation
    const api = useApi()
    error.value = null
    notice.value = null
    failed.value = null
    fileName.value = name
    progress.value = null
    reading.value = null
    const id = newImportId()
    importId = id
    let attempted: LogSource | null = null
    const off = api.onImportEvent((e) => {
      if (e.kind === 'progress' && e.importId === id && gen === generation) reading.value = { bytesRead: e.bytesRead, totalBytes: e.totalBytes, jobsRead: e.jobsRead, ...(e.simulated ? { simulated: e.simulated } : {}) }
    })
    try {
      let s = src
      if (file) {
        // Several files are one log (docs/SIMULATOR.md §Several files): each is handed over in turn,
        // then imported together ('handles'); progress counts the bytes of all of them.
        const files = Array.isArray(file) ? file : [file]
        const total = files.reduce((n, f) => n + f.size, 0)
        status.value = 'uploading'
        progress.value = { sent: 0, total }
        // Cancel aborts the upload (browser mode); the desktop app only passes a path, nothing to abort.
        const ctl = new AbortController()
        upload = ctl
        const added: { handle: string; name: string }[] = []
        try {
          let before = 0
          for (const f of files) {
            added.push(await api.addLogFile(f, (sent, fileTotal) => {
              // One file: its upload's own count; several: the bytes of all files.
              if (gen === generation) progress.value = files.length === 1 ? { sent, total: fileTotal } : { sent: before + sent, total }
            }, ctl.signal))
            before += f.size
            if (gen !== generation) return
          }
        } finally {
          if (upload === ctl) upload = null
        }
        if (gen !== generation) return
        s = added.length === 1 ? { kind: 'handle', handle: added[0].handle } : { kind: 'handles', handles: added.map((a) => a.handle) }
        fileName.value = added.length === 1 ? added[0].name : name
      }
      status.value = 'importing'
      attempted = s
      const result = await api.importLog(s, opts, { importId: id })
      if (gen !== generation) return
      // A different log: a split date on the old one means nothing here (same log: keep it).
      const previous = summary.value?.sha256 ?? expectedLog.value?.sha256 ?? null
      if (previous !== null && previous !== result.sha256) useSplitStore().resetForNewLog()
      source.value = s
      options.value = { ...opts }
      summary.value = result
      if (expectedLog.value?.sha256 === result.sha256) expectedLog.value = null
      status.value = 'ready'
      revision.value++
    } catch (e) {
      if (gen !== generation) return
      status.value = 'error'
      error.value = `Could not import ${name}: ${importMessage(errorMessage(e), name)}`
      if (attempted) failed.value = { source: attempted, options: { ...opts }, name: fileName.value ?? name }
    } finally {
      off()
      if (importId === id) importId = null
      if (gen === generation) reading.value = null
    }
  }

  function importSample(): Promise<void> {
    return run({ kind: 'sample' }, {}, 'the bundled sample (KTH-SP2)')
  }

  function importFile(file: File): Promise<void> {
    return run({ kind: 'handle', handle: '' }, {}, file.name, file)
  }

  /** Several files (daily jobcomp files, monthly sacct dumps) read as one log, in name order. */
  function importFiles(files: File[]): Promise<void> {
    if (files.length === 1) return importFile(files[0])
    const sorted = [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    return run({ kind: 'handles', handles: [] }, {}, `${sorted.length} files (${sorted[0].name} … ${sorted[sorted.length - 1].name})`, sorted)
  }

  /** Desktop only: the back end shows its own open dialog. */
  function importFromDialog(): Promise<void> {
    return run({ kind: 'dialog' }, {}, 'the chosen file')
  }

  /** Re-imports the same log with changed options (e.g. a corrected machine size). */
  function reimport(patch: Partial<ImportOptionsDto>): Promise<void> {
    if (!source.value) return Promise.resolve()
    const opts = { ...options.value, ...patch }
    for (const k of Object.keys(opts) as (keyof ImportOptionsDto)[]) if (opts[k] === undefined) delete opts[k]
    return run(source.value, opts, summary.value?.name ?? fileName.value ?? 'the log')
  }

  /** Imports the log that just failed again, with changed options (e.g. requested-time fallback). */
  function retryFailed(patch: Partial<ImportOptionsDto>): Promise<void> {
    const f = failed.value
    if (!f) return Promise.resolve()
    return run(f.source, { ...f.options, ...patch }, f.name)
  }

  /** Cancels the running upload (aborted here) or import (the back end stops reading: api.cancel
   * with its id); the previous log (if any) stays loaded. */
  function cancel(): void {
    const wasBusy = busy.value
    const running = status.value === 'importing' ? importId : null
    generation++
    if (upload) upload.abort()
    else if (running) useApi().cancel(running).catch(() => { /* it had just finished: nothing to stop */ })
    upload = null
    importId = null
    progress.value = null
    reading.value = null
    status.value = summary.value ? 'ready' : 'idle'
    error.value = null
    if (wasBusy) notice.value = 'Import cancelled.'
  }

  /** From a restored project: the workload the back end kept, or the log it asks for again. */
  function restore(s: WorkloadSummary | null, opts: ImportOptionsDto, log: { name: string; sha256: string } | null): void {
    generation++
    notice.value = null
    options.value = { ...opts }
    expectedLog.value = s === null ? log : null
    summary.value = s
    source.value = null
    status.value = s ? 'ready' : 'idle'
    if (s) fileName.value = s.name
  }

  return {
    status, fileName, progress, reading, notice, source, options, summary, error, expectedLog, revision, failed, retryFailed,
    ready, busy, machineProcs, mismatch,
    importSample, importFile, importFiles, importFromDialog, reimport, cancel, restore,
  }
})
