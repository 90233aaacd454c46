// The one typed API between the renderer and the back end (docs/ARCHITECTURE.md §The API contract): declared once
// here, implemented by Electron's preload over IPC and by browser mode over HTTP + WebSocket.
// Every method's arguments are validated on the back end side (src/shared/validate.ts): the
// renderer is never trusted. Plain data only (structured-clone and JSON safe, no typed arrays).
import type { LogFormat } from '../core/workload/types'
import type { ImportReport } from '../core/workload/import'
import type { Objective } from '../core/tune/campaign'
import type { ResampleMethod } from '../core/tune/resample'
import type { SplitSpec } from '../core/tune/split'
import type { EvaluationResult } from '../core/tune/result'
import type { InspectData } from '../core/workload/inspect'
import type { ExportBundle, ExportTarget } from '../core/export/types'
import type { Settings } from './settings'

export type { InspectData } from '../core/workload/inspect'
export type { ExportBundle, ExportFile, ExportTarget, Fidelity } from '../core/export/types'

export const API_VERSION = 1

/** Where a log comes from. The renderer never sends a filesystem path it invented: files are
 * chosen in a native dialog, dropped, or uploaded, and then referred to by an opaque handle. */
export type LogSource =
  | { kind: 'sample' }
  /** Electron: main shows an open-file dialog. Browser mode: not available (use upload). */
  | { kind: 'dialog' }
  /** A handle issued by the back end for a dropped (Electron) or uploaded (browser) file. */
  | { kind: 'handle'; handle: string }

export interface ImportOptionsDto {
  format?: LogFormat
  procs?: number
  overrun?: 'drop' | 'clamp' | 'keep'
  requestedFallback?: 'drop' | 'runtime' | { seconds: number }
}

export interface WorkloadSummary {
  id: string
  name: string
  sha256: string
  report: ImportReport
  inspect: InspectData
  /** Epoch seconds of submit time 0, when known (to show dates). */
  unixStartTime: number | null
}

/** Train/test split preview for the "Split" step. */
export interface SplitPreview {
  at: number
  atIso: string | null
  train: { jobs: number; seconds: number; load: number; originalWeeks: number }
  test: { jobs: number; seconds: number; load: number; originalWeeks: number }
}

export interface CandidateDto {
  primary: string
  /** 'same' = the thresholded primary order. */
  backfill: string
}

export interface CampaignRequest {
  workloadId: string
  split: SplitSpec
  resample: { method: ResampleMethod; weeks: number; seed: number }
  /** A preset, or an explicit list. */
  candidates: { preset: 'ch5' | 'ch6' } | { list: CandidateDto[] }
  /** Seconds; null = no threshold. */
  thresholds: (number | null)[]
  objective: Objective
  tau: number
  /** Longest wait on train at most this many times EASY-FCFS's; null = no limit. */
  maxWaitRatio: number | null
  /** Engine workers; null = default (cores − 1). */
  workers: number | null
}

/** What the Results step can run beside the evaluation: the work of `easytune online` and
 * `easytune mixed` (a small subset of their options; the rest are the CLI's defaults). */
export interface OnlineAnalysisOptions {
  strategies: ('full' | 'noisy' | 'egreedy' | 'random')[]
  period: 'day' | 'week'
  /** Length of each resampled trace, weeks (≤ 260). */
  weeks: number
  /** Independent traces (≤ 20). */
  traces: number
  seed: number
}
export interface MixedAnalysisOptions {
  features: 3 | 6
  method: 'xnes' | 'grid'
  /** Weight vectors to try (≤ 1000). */
  budget: number
  /** Resampled weeks per part (≤ 500). */
  weeks: number
  objective: Objective
  seed: number
}
export type AnalysisRequest =
  | { workloadId: string; kind: 'online'; options: OnlineAnalysisOptions }
  /** `split`: the wizard's train/test split (the search is on train, judged on test). */
  | { workloadId: string; kind: 'mixed'; options: MixedAnalysisOptions; split: SplitSpec }

export interface CampaignEstimate {
  cells: number
  weekSimulations: number
  /** Rough wall-clock estimate on this machine, seconds. */
  seconds: number
  workers: number
}

/** Lets the caller follow and cancel one import: the renderer picks the id (an id like the
 * others, e.g. crypto.randomUUID()), listens for its 'import-progress' events and may pass it to
 * `cancel`. */
export interface ImportTracking {
  importId: string
}

/** A campaign's events (startCampaign), named by its `campaignId`: progress, partial cells,
 * warnings, then exactly one of done / error / cancelled. */
export type CampaignEvent =
  | { campaignId: string; kind: 'progress'; cellsDone: number; cellsTotal: number; cachedCells: number; samplesDone: number; samplesTotal: number; etaSeconds: number | null; perWorker: { worker: number; pid: number | null; state: string; cell: string | null }[] }
  /** A finished cell (for partial results): label and its weekly mean objective. */
  | { campaignId: string; kind: 'cell'; label: string; part: 'train' | 'test'; meanObjective: number }
  | { campaignId: string; kind: 'warning'; message: string }
  | { campaignId: string; kind: 'done'; result: EvaluationResult }
  | { campaignId: string; kind: 'error'; message: string }
  | { campaignId: string; kind: 'cancelled' }
  /** Desktop app only: one engine worker's progress through the cell it runs, posted by the worker
   * straight to the window on its own MessagePort (main does not relay it; src/main/worker-ports.ts).
   * Finer than the 'progress' event's perWorker rows, which it refines when `worker`, `pid` and
   * `cell` match the row. The workers do not know the campaign: the preload stamps `campaignId`
   * with the campaign of the last campaign event main sent, and drops worker messages before any.
   * Browser mode never sends it. */
  | { campaignId: string; kind: 'worker-progress'; worker: number; pid: number; cell: string; samplesDone: number; samples: number }

/** A tracked import's events (importLog with an ImportTracking), named by its `importId`: at most
 * ~5 per second plus a final one once the log is read and cleaned: bytes read from disk
 * (compressed bytes for a .gz) of the file's size, and jobs parsed so far (0 until the format is
 * detected, in the first 64 KiB). The import's outcome is importLog's answer. */
export type ImportEvent = { importId: string; kind: 'progress'; bytesRead: number; totalBytes: number; jobsRead: number }

/** An analysis's events (startAnalysis), named by its `analysisId`: progress (the share done, at
 * most ~5 per second), then exactly one of done / error / cancelled. `result` is exactly the JSON
 * document of `easytune online|mixed --json` (read like an opened file). */
export type AnalysisEvent =
  | { analysisId: string; kind: 'progress'; analysis: 'online' | 'mixed'; fraction: number }
  | { analysisId: string; kind: 'done'; analysis: 'online' | 'mixed'; result: unknown }
  | { analysisId: string; kind: 'error'; message: string }
  | { analysisId: string; kind: 'cancelled' }

/** Everything needed to restore the wizard: saved as one project file. */
export interface ProjectState {
  version: 1
  log: { name: string; sha256: string } | null
  importOptions: ImportOptionsDto
  split: SplitSpec
  campaign: Omit<CampaignRequest, 'workloadId' | 'split'>
  result: EvaluationResult | null
  /** Wizard step the user was on (0-based). */
  step: number
}

export type { Settings } from './settings'

export interface AppInfo {
  version: string
  mode: 'desktop' | 'browser'
  versions: Record<string, string>
  citations: string[]
}

/** The API the renderer sees. One function per operation; no generic send/invoke. */
export interface EasyTuneApi {
  getAppInfo(): Promise<AppInfo>
  /** A file the user dropped on the window or picked with a file input: the desktop app takes
   * its path (preload, webUtils) and browser mode uploads it (streamed, size-limited). Either
   * way the renderer gets an opaque handle back, never a path. */
  addLogFile(file: File, onProgress?: (sentBytes: number, totalBytes: number) => void, signal?: AbortSignal): Promise<{ handle: string; name: string }>
  /** With `tracking`, the import reports 'import-progress' events under `tracking.importId`, and
   * `cancel(importId)` stops it: importLog then rejects with "the import was cancelled". */
  importLog(source: LogSource, options: ImportOptionsDto, tracking?: ImportTracking): Promise<WorkloadSummary>
  getImportReport(workloadId: string): Promise<ImportReport>
  previewSplit(workloadId: string, split: SplitSpec): Promise<SplitPreview>
  estimateCampaign(request: CampaignRequest): Promise<CampaignEstimate>
  startCampaign(request: CampaignRequest): Promise<{ campaignId: string }>
  /** Runs an online-selection emulation or a mixed-policy search on one engine worker; its events
   * ('analysis-progress', then 'analysis-done' | 'error' | 'cancelled') come on onCampaignEvent
   * under the returned id, and cancel(id) stops it. */
  startAnalysis(request: AnalysisRequest): Promise<{ campaignId: string }>
  /** Cancels a running campaign, an analysis, or a tracked import (by its importId); unknown ids are ignored. */
  cancel(campaignId: string): Promise<void>
  /** Subscribes to campaign events (progress, partial cells, done) and tracked imports' progress;
   * returns an unsubscribe. */
  onCampaignEvent(listener: (event: CampaignEvent) => void): () => void
  exportConfig(result: EvaluationResult, target: ExportTarget, options: { slurmVersion?: string }): Promise<ExportBundle>
  /** Saves text the user asked for (an exported file, a report, a chart): a save dialog in the
   * desktop app, a download in browser mode. Returns false when the user cancelled. */
  saveText(suggestedName: string, content: string, mime: string): Promise<boolean>
  generateReport(result: EvaluationResult): Promise<string>
  /** Desktop: save to the project's file (asks where the first time, or with `saveAs`); browser:
   * a download. Returns false when the user cancelled. */
  saveProject(state: ProjectState, options?: { saveAs?: boolean }): Promise<boolean>
  /** Desktop: an open dialog (or `file` from a drop); browser: `file` from a file input. */
  openProject(file?: File): Promise<ProjectState | null>
  /** Keeps the state safe against a crash (written atomically, debounced by the caller). */
  autosave(state: ProjectState): Promise<void>
  /** The state autosaved last, restored when the app starts; null when there is none. A project
   * whose log file moved comes back with `log` set and `logMissing: true`: ask for it again. */
  restoreLastProject(): Promise<{ state: ProjectState; workload: WorkloadSummary | null; logMissing: boolean } | null>
  getSettings(): Promise<Settings>
  setSettings(settings: Partial<Settings>): Promise<Settings>
}
