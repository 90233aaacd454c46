// The transport-neutral back end of the desktop app (Electron main's IPC handlers) and of browser
// mode (src/server): the implementation of the API contract (src/shared/contract.ts), one method
// per operation under the operation's name. It holds the imported workloads (by id), the files the
// user handed over (by opaque handle), the campaigns and analyses, the settings and the autosave,
// and the three event streams (campaign, import, analysis: subscribe). The transports parse the
// arguments with the contract's schemas first; everything here trusts the types but not the files.
import { randomBytes } from 'node:crypto'
import { existsSync, promises as fsp } from 'node:fs'
import type { Stats } from 'node:fs'
import { basename, join } from 'node:path'
import { exportConfig as exportBundle, type ExportOptions } from '../core/export/index'
import type { EvaluationResult } from '../core/tune/result'
import type { ImportOptions, Workload } from '../core/workload/import'
import { hashLogFiles } from '../engine/log-hash'
import { EvaluationError, GENERATOR, siteSettings } from '../engine/evaluate'
import { ShardPlanError } from '../engine/shards'
import type { ForkWorker } from '../engine/pool'
import { importLogFile, type ImportedLog } from '../engine/import'
import { expandLogPaths, FileInputError } from '../node/read-log'
import { renderReportHtml } from '../node/report'
import { analyzeWalltimes } from '../core/predict/walltimes'
import { nonRegularKind } from '../node/regular-file'
import type { AnalysisRequest, AppInfo, CampaignEstimate, CampaignRequest, ExportBundle, ExportTarget, ImportOptionsDto, ImportTracking, LogSource, PredictedExportOptions, ProjectState, Settings, SlurmArrayOptions, SlurmArrayWritten, SplitPreview, TimeLimitsView, WorkloadSummary } from '../shared/api'
import type { ReceivedFile, SaveFile, StreamEvents, StreamName } from '../shared/contract'
import { ApiInputError } from '../shared/errors'
import { AnalysisRunner } from './analysis'
import { timeLimitsView } from './timelimits'
import { predictedOrderBundle } from './predicted'
import { CampaignRunner, campaignSpec, evaluateRequest } from './campaigns'
import { easytuneCommand, writeSlurmArray } from './slurm-array'
import { RESULT_FILE } from './slurm-array-scripts'
import { estimateCampaign, previewSplit, secondsPerJob, type EstimateMachine } from './estimate'
import { campaignMachine } from '../core/cluster/model'
import { machineInputsOf } from './machine'
import { ImportCancelledError, importInWorker, ImportTracker, type TrackedImport } from './imports'
import { bundledSamplePath } from './paths'
import { projectFileName, projectText, readAutosave, readProjectFile, saveProjectFile, writeAutosave } from './project'
import { SettingsFile } from './settings'

export interface BackendOptions {
  mode: 'desktop' | 'browser'
  /** Autosave and settings live here. */
  stateDir: string
  /** Finished campaign cells are kept here; null = no cache. */
  cacheDir: string | null
  /** Starts an engine worker: Electron passes a utilityProcess fork; default child_process. */
  fork?: ForkWorker
  /** The engine worker bundle (default: out/engine/worker.js of the package). */
  workerPath?: string
  /** Import logs in this process instead of a forked engine worker (tests). */
  importInProcess?: boolean
  /** The bundled sample log (default: resources/ of the package). */
  samplePath?: string
  /** Imported workloads kept in memory (oldest dropped first). */
  maxWorkloads?: number
  /** Handed-over temporary files (uploads) kept; the oldest is deleted beyond it. */
  maxTemporaryFiles?: number
}

/** A handed-over file; `files`: a dropped folder (desktop), its log files by name, read as one log. */
interface StoredFile { path: string; name: string; temporary: boolean; files?: string[] }
interface StoredWorkload {
  summary: WorkloadSummary
  workload: Workload
  path: string
  /** A log kept as several files: every path, in order (path is the first); absent for one file. */
  paths?: string[]
  importOptions: ImportOptions
  perJob: number
  readSeconds: number
}

const CITATIONS = [
  'D. G. Feitelson, D. Tsafrir, D. Krakov, "Experience with using the Parallel Workloads Archive", Journal of Parallel and Distributed Computing 74(10):2967-2982, 2014.',
  'KTH-SP2 log: courtesy of Lars Malinowsky, KTH (Swedish Royal Institute of Technology).',
]

export const newId = (prefix: string, bytes = 12) => `${prefix}${randomBytes(bytes).toString('base64url')}`

export class Backend {
  readonly mode: 'desktop' | 'browser'
  readonly stateDir: string
  private readonly files = new Map<string, StoredFile>()
  private readonly workloads = new Map<string, StoredWorkload>()
  private readonly listeners: { [S in StreamName]: Set<(e: StreamEvents[S]) => void> } = { campaign: new Set(), import: new Set(), analysis: new Set() }
  private readonly campaigns: CampaignRunner
  private readonly analyses: AnalysisRunner
  private readonly imports = new ImportTracker((e) => this.emit('import', e))
  private closed = false
  private readonly closing = new AbortController()
  private readonly importWorkers = new Set<Promise<unknown>>()
  private readonly settings: SettingsFile

  constructor(private readonly opts: BackendOptions) {
    this.mode = opts.mode
    this.stateDir = opts.stateDir
    this.settings = new SettingsFile(opts.stateDir)
    this.campaigns = new CampaignRunner({
      fork: opts.fork, workerPath: opts.workerPath, cacheDir: opts.cacheDir,
      emit: (e) => this.emit('campaign', e),
    })
    this.analyses = new AnalysisRunner({ fork: opts.fork, workerPath: opts.workerPath, cacheDir: opts.cacheDir, emit: (e) => this.emit('analysis', e) })
  }

  /** One stream's event, to each of its listeners. */
  private emit<S extends StreamName>(stream: S, e: StreamEvents[S]): void {
    for (const l of [...this.listeners[stream]]) { try { l(e) } catch { /* one listener's failure is not the others' */ } }
  }

  /** Subscribes to one stream (campaign events, tracked imports' progress, analyses' events);
   * returns the unsubscribe. */
  subscribe<S extends StreamName>(stream: S, listener: (e: StreamEvents[S]) => void): () => void {
    const set = this.listeners[stream] as Set<(e: StreamEvents[S]) => void>
    set.add(listener)
    return () => { set.delete(listener) }
  }

  get samplePath(): string {
    return this.opts.samplePath ?? bundledSamplePath()
  }

  getAppInfo(): AppInfo {
    const versions: Record<string, string> = { easytune: GENERATOR.replace(/^easytune /, ''), node: process.versions.node, v8: process.versions.v8 }
    for (const k of ['electron', 'chrome'] as const) if (process.versions[k]) versions[k] = process.versions[k]!
    return { version: versions.easytune, mode: this.mode, versions, citations: CITATIONS }
  }

  /** Registers a file the user handed over (a drop, a dialog, an upload); returns its handle. */
  addFile(path: string, name = basename(path), opts: { temporary?: boolean } = {}): { handle: string; name: string } {
    const handle = newId('h', 24)
    this.files.set(handle, { path, name, temporary: opts.temporary ?? false })
    const temps = [...this.files].filter(([, f]) => f.temporary)
    for (const [h, f] of temps.slice(0, Math.max(0, temps.length - (this.opts.maxTemporaryFiles ?? 8)))) {
      this.files.delete(h)
      void fsp.rm(f.path, { force: true })
    }
    return { handle, name }
  }

  /** addLogFile: a file the user dropped or picked (desktop: its path, checked here; browser mode:
   * the upload's temporary file, deleted when no longer needed) becomes an opaque handle. */
  async addLogFile(file: ReceivedFile): Promise<{ handle: string; name: string }> {
    if (!file.temporary && this.mode === 'desktop' && (await isFolder(file.path))) return this.addFolder(file.path)
    if (!file.temporary) await checkDroppedFile(file.path)
    return this.addFile(file.path, file.name ?? basename(file.path), { temporary: file.temporary ?? false })
  }

  /** A folder dropped in the desktop app: its regular files (not hidden ones), by name, are one log
   * (docs/SIMULATOR.md §Several files); the handle stands for all of them. */
  private async addFolder(path: string): Promise<{ handle: string; name: string }> {
    let files: string[]
    try {
      files = (await expandLogPaths([path])).paths
    } catch (e) {
      throw new ApiInputError(e instanceof FileInputError ? `${basename(path)} ${e.message}` : `${basename(path)} cannot be read`)
    }
    for (const f of files) await checkDroppedFile(f)
    const handle = newId('h', 24)
    const name = `${basename(path)} (${files.length} file${files.length === 1 ? '' : 's'})`
    this.files.set(handle, { path, name, temporary: false, files })
    return { handle, name }
  }

  /** Imports the sample or a handed-over file. 'dialog' is the caller's job (Electron main).
   * With `tracking`, the import emits on the import stream under its id and cancel(importId)
   * stops it (it then rejects with ImportCancelledError and keeps no workload). */
  async importLog(source: LogSource, options: ImportOptionsDto = {}, tracking?: ImportTracking): Promise<WorkloadSummary> {
    if (source.kind === 'sample') return this.importFromPath(this.samplePath, options, tracking)
    if (source.kind === 'dialog') throw new ApiInputError(this.mode === 'browser' ? 'there is no file dialog in browser mode: upload the file instead' : 'the open dialog is shown by the app, not the back end')
    const handles = source.kind === 'handles' ? source.handles : [source.handle]
    const files = handles.map((h) => {
      const f = this.files.get(h)
      if (!f) throw new ApiInputError('this file handle is unknown or has expired: choose the file again')
      return f
    })
    if (files.length === 1 && !files[0].files) return this.importFromPath(files[0].path, options, tracking, files[0].name)
    // Several files as one log (a dropped folder's files too): messages name each file as the user
    // knows it (docs/SIMULATOR.md §Several files).
    const each = files.flatMap((f) => (f.files ? f.files.map((p) => ({ path: p, name: basename(p) })) : [{ path: f.path, name: f.name }]))
    const name = files.length === 1 ? files[0].name : `${each[0].name} … ${each[each.length - 1].name} (${each.length} files)`
    if (each.length === 1) return this.importFromPath(each[0].path, options, tracking, each[0].name)
    return this.importFromPath(each.map((f) => f.path), options, tracking, name, each.map((f) => f.name))
  }

  /** Reads, cleans and inspects a log; times its EASY-FCFS simulation for the campaign estimate.
   * The work runs in a forked engine worker (importInWorker) unless `importInProcess`. */
  async importFromPath(path: string | readonly string[], options: ImportOptionsDto, tracking?: ImportTracking, name = basename(typeof path === 'string' ? path : path[0]), fileNames?: readonly string[]): Promise<WorkloadSummary> {
    const tracked = tracking ? this.imports.start(tracking.importId) : null
    try {
      return await this.readAndInspect(typeof path === 'string' ? [path] : [...path], { ...options, name }, tracked, fileNames)
    } finally {
      tracked?.finish()
    }
  }

  private async readAndInspect(paths: string[], importOptions: ImportOptions & { name: string }, tracked: TrackedImport | null, fileNames?: readonly string[]): Promise<WorkloadSummary> {
    const name = importOptions.name
    let imported: ImportedLog
    try {
      imported = await this.importWork(paths.length === 1 ? paths[0] : paths, importOptions, tracked, fileNames)
    } catch (e) {
      tracked?.check() // cancelled: that, not the error the read or the worker ended with
      // Messages name the file as the user knows it (an upload's temp path means nothing to them).
      if (!(e instanceof FileInputError)) throw e
      const i = paths.indexOf(e.file)
      const shown = paths.length === 1 ? name : i >= 0 ? fileNames?.[i] ?? basename(e.file) : null
      throw shown !== null ? new FileInputError(shown, e.line, paths.length === 1 ? e.message : renameFiles(e.message, paths, fileNames)) : e
    }
    tracked?.check()
    const { workload, sha256, inspect, simSeconds, readSeconds } = imported
    const id = newId('w')
    const summary: WorkloadSummary = { id, name, sha256, report: workload.report, unixStartTime: workload.unixStartTime, inspect }
    this.workloads.set(id, { summary, workload, path: paths[0], ...(paths.length > 1 ? { paths } : {}), importOptions, perJob: secondsPerJob(workload.jobs.count, simSeconds), readSeconds })
    for (const old of [...this.workloads.keys()].slice(0, Math.max(0, this.workloads.size - (this.opts.maxWorkloads ?? 4)))) this.workloads.delete(old)
    return summary
  }

  /** The import's heavy part: in an engine worker (default), or here with `importInProcess`.
   * close() stops the running import workers (tracked or not) and waits for them. */
  private async importWork(path: string | string[], importOptions: ImportOptions, tracked: TrackedImport | null, names?: readonly string[]): Promise<ImportedLog> {
    if (this.opts.importInProcess) return importLogFile(path, importOptions, tracked?.onProgress, tracked?.signal, undefined, names)
    if (this.closed) throw new ImportCancelledError()
    const signal = tracked ? AbortSignal.any([tracked.signal, this.closing.signal]) : this.closing.signal
    const running = importInWorker(path, importOptions, { fork: this.opts.fork, workerPath: this.opts.workerPath, onProgress: tracked?.onProgress, signal, ...(names ? { names } : {}) })
    this.importWorkers.add(running)
    try {
      return await running
    } finally {
      this.importWorkers.delete(running)
    }
  }

  private workload(id: string): StoredWorkload {
    const w = this.workloads.get(id)
    if (!w) throw new ApiInputError('this workload is no longer loaded: import the log again')
    return w
  }

  getImportReport(workloadId: string): WorkloadSummary['report'] {
    return this.workload(workloadId).summary.report
  }

  previewSplit(workloadId: string, split: CampaignRequest['split']): SplitPreview {
    const w = this.workload(workloadId)
    return previewSplit(w.workload.jobs, w.workload.machineProcs, split, w.workload.unixStartTime)
  }

  estimateCampaign(req: CampaignRequest): CampaignEstimate {
    const w = this.workload(req.workloadId)
    return estimateCampaign({ jobs: w.workload.jobs, machineProcs: w.workload.machineProcs, perJob: w.perJob, readSeconds: w.readSeconds }, req, estimateMachine(req, w.workload))
  }

  /** Starts a campaign; its events go on the campaign stream. */
  startCampaign(req: CampaignRequest): { campaignId: string } {
    if (this.closed) throw new ApiInputError('EasyTune is shutting down')
    const w = this.workload(req.workloadId)
    this.estimateCampaign(req) // the same checks (split, full weeks) with a plain message, before any worker starts
    const campaignId = this.campaigns.start(req, { workload: w.workload, path: w.path, ...(w.paths ? { paths: w.paths } : {}), sha256: w.summary.sha256, importOptions: w.importOptions })
    return { campaignId }
  }

  /** writeSlurmArray in browser mode: a new folder `easytune-slurm-<date>-<id>` in the folder the
   * server was started in (on a login node, a shared filesystem). The desktop app asks for the
   * folder instead (src/main/services.ts) and calls writeSlurmArrayIn. */
  async writeSlurmArray(req: CampaignRequest, options: SlurmArrayOptions): Promise<SlurmArrayWritten | null> {
    const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')
    return this.writeSlurmArrayIn(join(process.cwd(), `easytune-slurm-${stamp}-${randomBytes(3).toString('hex')}`), req, options)
  }

  /** Writes the plan folder of the campaign `req` into `dir` (docs/CLI.md §Running on a Slurm cluster). */
  async writeSlurmArrayIn(dir: string, req: CampaignRequest, options: SlurmArrayOptions): Promise<SlurmArrayWritten> {
    const w = this.workload(req.workloadId)
    this.estimateCampaign(req) // the same checks (split, full weeks) with a plain message
    try {
      const folder = await writeSlurmArray({
        dir, shards: options.shards, workers: options.cpusPerTask, command: easytuneCommand(), workerPath: this.opts.workerPath,
        evaluate: evaluateRequest(req, w),
      }, w.workload)
      const r = folder.plan.resources
      return { folder: folder.dir, cells: folder.plan.cells.length, shards: folder.plan.shards, cpusPerTask: r.cpusPerTask, memMB: r.memMB, timeMinutes: r.timeMinutes, submit: folder.submit, resultFile: join(folder.dir, RESULT_FILE), note: folder.note }
    } catch (e) {
      if (e instanceof ShardPlanError || e instanceof EvaluationError) throw new ApiInputError(e.message)
      throw e
    }
  }

  /** Starts an online-selection emulation, a mixed-policy search, the Time limits analyses or the
   * learning of a policy (src/backend/analysis.ts) on the engine workers; its events go on the
   * analysis stream under the returned id. */
  startAnalysis(req: AnalysisRequest): { analysisId: string } {
    if (this.closed) throw new ApiInputError('EasyTune is shutting down')
    const w = this.workload(req.workloadId)
    if (req.kind === 'mixed' || req.kind === 'learn') this.previewSplit(req.workloadId, req.split) // a bad split in plain words, before any worker starts
    return { analysisId: this.analyses.start(req, { workload: w.workload, path: w.path, ...(w.paths ? { paths: w.paths } : {}), importOptions: w.importOptions, sha256: w.summary.sha256 }) }
  }

  /** getTimeLimits: the walltimes report of the workload without its what-if (startAnalysis
   * 'walltimes' runs that), pseudonymised, plus the real names by pseudonym for the step's local
   * "Show real names" (src/backend/timelimits.ts). */
  getTimeLimits(workloadId: string): TimeLimitsView {
    const w = this.workload(workloadId)
    return timeLimitsView({ ...w.workload, name: w.summary.name })
  }

  /** Cancels a campaign, an analysis or a tracked import (importLog's importId); unknown ids are ignored. */
  cancel(id: string): void {
    if (this.imports.cancel(id)) return
    if (this.analyses.cancel(id)) return
    this.campaigns.cancel(id)
  }

  /** clearCellCache: deletes the finished cells cached in cacheDir (only the cache's own `.cell`
   * files: a folder given with --cache-dir may hold other things). A running campaign reads and
   * writes them, so it is refused then. */
  async clearCellCache(): Promise<{ cells: number; bytes: number }> {
    const dir = this.opts.cacheDir
    if (this.campaigns.active > 0) throw new ApiInputError('a campaign is running: cancel it or wait for it before clearing the cache')
    let names: string[] = []
    try {
      names = dir ? await fsp.readdir(dir) : []
    } catch { /* no cache folder yet: nothing cached */ }
    let cells = 0, bytes = 0
    for (const name of names.filter((n) => n.endsWith('.cell'))) {
      const path = join(dir!, name)
      try {
        const { size } = await fsp.stat(path)
        await fsp.rm(path)
        cells++
        bytes += size
      } catch { /* gone meanwhile */ }
    }
    return { cells, bytes }
  }

  /** exportPredictedOrder: `easytune export <log> --predicted-order`'s files for the workload, with
   * the fidelity the 'predicted-order' analysis measured on it (src/backend/predicted.ts). */
  exportPredictedOrder(workloadId: string, options: PredictedExportOptions): ExportBundle {
    return predictedOrderBundle(this.workload(workloadId).workload, options)
  }

  exportConfig(result: EvaluationResult, target: ExportTarget, options: ExportOptions = {}): ExportBundle {
    return exportBundle(result, target, options)
  }

  /** The offline HTML report (with the SLURM and PBS exports of the recommendation). When the
   * evaluated log is one this back end holds (same sha256), the report also carries its time-limits
   * section, user education and default limits per partition, pseudonymised (docs/PREDICTIONS.md §Deployment). */
  generateReport(result: EvaluationResult): string {
    const sha = result.log.sha256
    const held = [...this.workloads.values()].reverse().find((x) => x.summary.sha256 === sha)
    return held ? renderReportHtml(result, undefined, { walltimes: analyzeWalltimes(held.workload, { names: false }) }) : renderReportHtml(result)
  }

  /** saveText: the text as the file to hand to the person (the transport saves or downloads it). */
  saveText(name: string, content: string, mime: string): SaveFile {
    return { name, content, mime }
  }

  /** The report as a PDF needs a browser engine to print it: the desktop app has one (main's
   * services replace this); browser mode's server has not, so it says what to do instead. */
  saveReportPdf(_result: EvaluationResult): SaveFile {
    throw new ApiInputError('browser mode cannot make a PDF: save the report as HTML, open it, and print it from the browser (Print > Save as PDF)')
  }

  /** saveProject: the project file to hand over (browser mode: a download; the desktop app saves
   * to the project's own file instead, src/main/project.ts). */
  saveProject(state: ProjectState, _options?: { saveAs?: boolean }): SaveFile {
    return { name: projectFileName(state.log?.name), content: projectText(state), mime: 'application/json' }
  }

  /** openProject: reads and validates the file handed over (an upload's temporary file is deleted
   * once read). Without a file there is nothing to open: the page picks one. */
  async openProject(file: ReceivedFile | null): Promise<ProjectState | null> {
    if (!file) throw new ApiInputError('pick the project file in the page (there is no open dialog in browser mode)')
    try {
      return await readProjectFile(file.path, file.name)
    } finally {
      if (file.temporary) await fsp.rm(file.path, { force: true })
    }
  }

  saveProjectFile(path: string, state: ProjectState): Promise<void> {
    return saveProjectFile(path, state)
  }

  readProjectFile(path: string): Promise<ProjectState> {
    return readProjectFile(path)
  }

  /** Autosaves the state with the path of its log (when it is one this back end imported). */
  async autosave(state: ProjectState): Promise<void> {
    const sha = state.log?.sha256
    const w = sha ? [...this.workloads.values()].reverse().find((x) => x.summary.sha256 === sha) : undefined
    await writeAutosave(this.stateDir, state, w ? w.paths ?? w.path : null)
  }

  /** The last autosave; its log is re-imported when the recorded file still has the same sha256. */
  async restoreLastProject(): Promise<{ state: ProjectState; workload: WorkloadSummary | null; logMissing: boolean } | null> {
    const rec = await readAutosave(this.stateDir)
    if (!rec) return null
    const { state, logPath } = rec
    if (!state.log) return { state, workload: null, logMissing: false }
    // Every file of the log must still be there, with the same content (a log of several files: all of them).
    const paths = rec.logPaths ?? (logPath ? [logPath] : [])
    if (paths.length > 0 && paths.every((p) => existsSync(p))) {
      try {
        if ((await hashLogFiles(paths)) === state.log.sha256) {
          return { state, workload: await this.importFromPath(paths.length === 1 ? paths[0] : paths, state.importOptions, undefined, state.log.name), logMissing: false }
        }
      } catch { /* unreadable now: ask for it again */ }
    }
    return { state, workload: null, logMissing: true }
  }

  getSettings(): Promise<Settings> { return this.settings.get() }

  setSettings(partial: Partial<Settings>): Promise<Settings> { return this.settings.set(partial) }

  /** Stops every campaign (and its workers) and deletes temporary files. */
  async close(): Promise<void> {
    this.closed = true
    this.imports.cancelAll()
    this.closing.abort()
    await Promise.all([this.campaigns.close(), this.analyses.close(), ...[...this.importWorkers].map((p) => p.catch(() => {}))])
    const temps = [...this.files.values()].filter((f) => f.temporary)
    this.files.clear()
    this.workloads.clear()
    await Promise.all(temps.map((f) => fsp.rm(f.path, { force: true })))
  }
}

/** A message that names files by path, with each named as the user knows it. */
function renameFiles(message: string, paths: readonly string[], names?: readonly string[]): string {
  let m = message
  paths.forEach((p, i) => { m = m.split(p).join(names?.[i] ?? basename(p)) })
  return m
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await fsp.stat(path)).isDirectory()
  } catch {
    return false // checkDroppedFile names the problem
  }
}

/** Checks that a dropped path is a readable regular file; errors name only the file. */
export async function checkDroppedFile(path: string): Promise<void> {
  const name = basename(path)
  let s: Stats
  try {
    s = await fsp.stat(path)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    throw new ApiInputError(code === 'ENOENT' ? `${name} no longer exists` : code === 'EACCES' ? `${name} cannot be read (permission denied)` : `${name} cannot be read`)
  }
  if (s.isDirectory()) throw new ApiInputError(`${name} is a folder: drop a log file`)
  const kind = nonRegularKind(s) // a FIFO or device would block the import (src/node/regular-file.ts)
  if (kind) throw new ApiInputError(`${name} is ${kind}, not a regular file`)
}

/** The machine of a campaign as its estimate needs it, read as evaluate reads it (campaignMachine,
 * siteSettings); undefined for the single pool. A machine file that cannot be read is the user's to fix. */
function estimateMachine(req: CampaignRequest, w: Workload): EstimateMachine | undefined {
  let m
  try {
    m = campaignMachine(machineInputsOf(req.machine), w)
  } catch (e) {
    throw new ApiInputError(e instanceof Error ? e.message : String(e))
  }
  return m === undefined ? undefined : { slurm: m.model.scheduler === 'slurm', ...siteSettings(m, campaignSpec(req), w) }
}
