// The transport-neutral back end of the desktop app (Electron main's IPC handlers) and of browser
// mode (src/server): it holds the imported workloads (by id), the files the user handed over (by
// opaque handle), the campaigns, the settings and the autosave. Callers validate arguments with
// src/shared/validate.ts first; everything here trusts the types but not the files.
import { randomBytes } from 'node:crypto'
import { existsSync, promises as fsp } from 'node:fs'
import { basename, join } from 'node:path'
import { exportConfig as exportBundle } from '../core/export/index'
import type { EvaluationResult } from '../core/tune/result'
import type { ImportOptions, Workload } from '../core/workload/import'
import { hashFile } from '../engine/cache'
import { GENERATOR } from '../engine/evaluate'
import type { ForkWorker } from '../engine/pool'
import { importLogFile, type ImportedLog } from '../engine/import'
import { FileInputError } from '../node/read-log'
import { renderReportHtml } from '../node/report'
import type { AnalysisRequest, AppInfo, CampaignEstimate, CampaignEvent, CampaignRequest, ExportBundle, ExportTarget, ImportOptionsDto, ImportTracking, LogSource, ProjectState, Settings, SplitPreview, WorkloadSummary } from '../shared/api'
import { ApiInputError, validateSettings } from '../shared/validate'
import { AnalysisRunner } from './analysis'
import { CampaignRunner, type CampaignListener } from './campaigns'
import { estimateCampaign, previewSplit, secondsPerJob } from './estimate'
import { ImportCancelledError, importInWorker, ImportTracker, type TrackedImport } from './imports'
import { bundledSamplePath } from './paths'
import { readAutosave, readProjectFile, saveProjectFile, writeAutosave, writeFileAtomic } from './project'

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

interface StoredFile { path: string; name: string; temporary: boolean }
interface StoredWorkload {
  summary: WorkloadSummary
  workload: Workload
  path: string
  importOptions: ImportOptions
  perJob: number
  readSeconds: number
}

export const DEFAULT_SETTINGS: Settings = { theme: 'system', workers: null, recentProjects: [] }
const SETTINGS_FILE = 'settings.json'
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
  private readonly listeners = new Set<CampaignListener>()
  private readonly campaigns: CampaignRunner
  private readonly analyses: AnalysisRunner
  // D (issue #18): ImportEvent / AnalysisEvent now; helper A wires one listener set per stream.
  private readonly imports = new ImportTracker((e) => this.emit(e as unknown as CampaignEvent))
  private closed = false
  private readonly closing = new AbortController()
  private readonly importWorkers = new Set<Promise<unknown>>()

  constructor(private readonly opts: BackendOptions) {
    this.mode = opts.mode
    this.stateDir = opts.stateDir
    this.campaigns = new CampaignRunner({
      fork: opts.fork, workerPath: opts.workerPath, cacheDir: opts.cacheDir,
      emit: (e) => this.emit(e),
    })
    this.analyses = new AnalysisRunner({ fork: opts.fork, workerPath: opts.workerPath, emit: (e) => this.emit(e as unknown as CampaignEvent) })
  }

  /** Campaign events and tracked imports' progress, to every onCampaignEvent listener. */
  private emit(e: CampaignEvent): void {
    for (const l of [...this.listeners]) { try { l(e) } catch { /* one listener's failure is not the others' */ } }
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

  /** Imports the sample or a handed-over file. 'dialog' is the caller's job (Electron main).
   * With `tracking`, the import emits 'import-progress' events under its id and cancel(importId)
   * stops it (it then rejects with ImportCancelledError and keeps no workload). */
  async importLog(source: LogSource, options: ImportOptionsDto, tracking?: ImportTracking): Promise<WorkloadSummary> {
    if (source.kind === 'sample') return this.importFromPath(this.samplePath, options, tracking)
    if (source.kind === 'dialog') throw new ApiInputError(this.mode === 'browser' ? 'there is no file dialog in browser mode: upload the file instead' : 'the open dialog is shown by the app, not the back end')
    const f = this.files.get(source.handle)
    if (!f) throw new ApiInputError('this file handle is unknown or has expired: choose the file again')
    return this.importFromPath(f.path, options, tracking, f.name)
  }

  /** Reads, cleans and inspects a log; times its EASY-FCFS simulation for the campaign estimate.
   * The work runs in a forked engine worker (importInWorker) unless `importInProcess`. */
  async importFromPath(path: string, options: ImportOptionsDto, tracking?: ImportTracking, name = basename(path)): Promise<WorkloadSummary> {
    const tracked = tracking ? this.imports.start(tracking.importId) : null
    try {
      return await this.readAndInspect(path, { ...options, name }, tracked)
    } finally {
      tracked?.finish()
    }
  }

  private async readAndInspect(path: string, importOptions: ImportOptions & { name: string }, tracked: TrackedImport | null): Promise<WorkloadSummary> {
    const name = importOptions.name
    let imported: ImportedLog
    try {
      imported = await this.importWork(path, importOptions, tracked)
    } catch (e) {
      tracked?.check() // cancelled: that, not the error the read or the worker ended with
      // Messages name the file as the user knows it (an upload's temp path means nothing to them).
      throw e instanceof FileInputError && e.file === path ? new FileInputError(name, e.line, e.message) : e
    }
    tracked?.check()
    const { workload, sha256, inspect, simSeconds, readSeconds } = imported
    const id = newId('w')
    const summary: WorkloadSummary = { id, name, sha256, report: workload.report, unixStartTime: workload.unixStartTime, inspect }
    this.workloads.set(id, { summary, workload, path, importOptions, perJob: secondsPerJob(workload.jobs.count, simSeconds), readSeconds })
    for (const old of [...this.workloads.keys()].slice(0, Math.max(0, this.workloads.size - (this.opts.maxWorkloads ?? 4)))) this.workloads.delete(old)
    return summary
  }

  /** The import's heavy part: in an engine worker (default), or here with `importInProcess`.
   * close() stops the running import workers (tracked or not) and waits for them. */
  private async importWork(path: string, importOptions: ImportOptions, tracked: TrackedImport | null): Promise<ImportedLog> {
    if (this.opts.importInProcess) return importLogFile(path, importOptions, tracked?.onProgress, tracked?.signal)
    if (this.closed) throw new ImportCancelledError()
    const signal = tracked ? AbortSignal.any([tracked.signal, this.closing.signal]) : this.closing.signal
    const running = importInWorker(path, importOptions, { fork: this.opts.fork, workerPath: this.opts.workerPath, onProgress: tracked?.onProgress, signal })
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
    return estimateCampaign({ jobs: w.workload.jobs, machineProcs: w.workload.machineProcs, perJob: w.perJob, readSeconds: w.readSeconds }, req)
  }

  /** Starts a campaign; its events go to every onCampaignEvent listener. */
  startCampaign(req: CampaignRequest): { campaignId: string } {
    if (this.closed) throw new ApiInputError('EasyTune is shutting down')
    const w = this.workload(req.workloadId)
    this.estimateCampaign(req) // the same checks (split, full weeks) with a plain message, before any worker starts
    const campaignId = this.campaigns.start(req, { workload: w.workload, path: w.path, sha256: w.summary.sha256, importOptions: w.importOptions })
    return { campaignId }
  }

  /** Starts an online-selection emulation or a mixed-policy search (src/backend/analysis.ts) on one
   * engine worker; its events go to every onCampaignEvent listener under the returned id. */
  startAnalysis(req: AnalysisRequest): { campaignId: string } {
    if (this.closed) throw new ApiInputError('EasyTune is shutting down')
    const w = this.workload(req.workloadId)
    if (req.kind === 'mixed') this.previewSplit(req.workloadId, req.split) // a bad split in plain words, before any worker starts
    return { campaignId: this.analyses.start(req, { workload: w.workload, path: w.path, importOptions: w.importOptions }) }
  }

  /** Cancels a campaign, an analysis or a tracked import (importLog's importId); unknown ids are ignored. */
  cancel(campaignId: string): void {
    if (this.imports.cancel(campaignId)) return
    if (this.analyses.cancel(campaignId)) return
    this.campaigns.cancel(campaignId)
  }

  onCampaignEvent(listener: CampaignListener): () => void {
    this.listeners.add(listener)
    return () => { this.listeners.delete(listener) }
  }

  exportConfig(result: EvaluationResult, target: ExportTarget, options: { slurmVersion?: string } = {}): ExportBundle {
    return exportBundle(result, target, options)
  }

  /** The offline HTML report (with the SLURM and PBS exports of the recommendation). */
  generateReport(result: EvaluationResult): string {
    return renderReportHtml(result)
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
    await writeAutosave(this.stateDir, state, w?.path ?? null)
  }

  /** The last autosave; its log is re-imported when the recorded file still has the same sha256. */
  async restoreLastProject(): Promise<{ state: ProjectState; workload: WorkloadSummary | null; logMissing: boolean } | null> {
    const rec = await readAutosave(this.stateDir)
    if (!rec) return null
    const { state, logPath } = rec
    if (!state.log) return { state, workload: null, logMissing: false }
    if (logPath && existsSync(logPath)) {
      try {
        if ((await hashFile(logPath)) === state.log.sha256) {
          return { state, workload: await this.importFromPath(logPath, state.importOptions, undefined, state.log.name), logMissing: false }
        }
      } catch { /* unreadable now: ask for it again */ }
    }
    return { state, workload: null, logMissing: true }
  }

  async getSettings(): Promise<Settings> {
    try {
      const raw = JSON.parse(await fsp.readFile(join(this.stateDir, SETTINGS_FILE), 'utf8')) as unknown
      return { ...DEFAULT_SETTINGS, ...validateSettings(raw) }
    } catch {
      return { ...DEFAULT_SETTINGS }
    }
  }

  async setSettings(partial: Partial<Settings>): Promise<Settings> {
    const next = { ...(await this.getSettings()), ...validateSettings(partial) }
    await writeFileAtomic(join(this.stateDir, SETTINGS_FILE), JSON.stringify(next, null, 1) + '\n')
    return next
  }

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
