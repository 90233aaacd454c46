// The types of the API between the renderer and the back end. The operations themselves are
// declared once in src/shared/contract.ts with their zod schemas, which also give the argument
// types below (docs/ARCHITECTURE.md §The API contract); this file holds the answers' and the streams' types. Plain data only
// (structured-clone and JSON safe, no typed arrays).
import type { z } from 'zod'
import type { ImportReport } from '../core/workload/import'
import type { EvaluationResult, WaitStage } from '../core/tune/result'
import type { InspectData } from '../core/workload/inspect'
import type { WalltimesReport } from '../core/predict/walltimes'
import type { AnalysisRequestSchema, MachineChoiceSchema, LearnAnalysisOptionsSchema, LearnedStateSchema, CampaignRequestSchema, CampaignSettingsSchema, CandidateSchema, ImportOptionsSchema, ImportTrackingSchema, LogSourceSchema, MixedAnalysisOptionsSchema, OnlineAnalysisOptionsSchema, PredictedExportOptionsSchema, PredictedOrderOptionsSchema, ProjectStateSchema, SlurmArrayOptionsSchema } from './schemas'

export type { InspectData } from '../core/workload/inspect'
export type { WalltimesGroup, WalltimesReport, WalltimesWhatIf, WhatIfOutcome } from '../core/predict/walltimes'
export type { ExportBundle, ExportFile, ExportTarget, Fidelity, SettingChange } from '../core/export/types'
export type { PredictedOrderFidelity, ScheduleFigures } from '../core/export/predicted-fidelity'
export type { EasyTuneApi, StreamEvents, StreamName, StreamMessage } from './contract'

export const API_VERSION = 1

/** Where a log comes from (LogSourceSchema). */
export type LogSource = z.output<typeof LogSourceSchema>
export type ImportOptionsDto = z.output<typeof ImportOptionsSchema>
export type ImportTracking = z.output<typeof ImportTrackingSchema>
export type CandidateDto = z.output<typeof CandidateSchema>
export type CampaignRequest = z.output<typeof CampaignRequestSchema>
/** The machine a campaign runs on, as the Inspect step's Cluster panel chooses it. */
export type MachineChoice = z.output<typeof MachineChoiceSchema>
export type SlurmArrayOptions = z.output<typeof SlurmArrayOptionsSchema>
export type CampaignSettings = z.output<typeof CampaignSettingsSchema>
export type OnlineAnalysisOptions = z.output<typeof OnlineAnalysisOptionsSchema>
export type MixedAnalysisOptions = z.output<typeof MixedAnalysisOptionsSchema>
export type AnalysisRequest = z.output<typeof AnalysisRequestSchema>
export type LearnAnalysisOptions = z.output<typeof LearnAnalysisOptionsSchema>
/** What the Candidates step learned, as the project file keeps it. */
export type LearnedState = z.output<typeof LearnedStateSchema>
export type { LearnDocument } from '../core/learn/report'
export type PredictedOrderOptions = z.output<typeof PredictedOrderOptionsSchema>
export type PredictedExportOptions = z.output<typeof PredictedExportOptionsSchema>
/** Everything needed to restore the wizard: saved as one project file. */
export type ProjectState = z.output<typeof ProjectStateSchema>
export type { Settings } from './settings'

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

export interface CampaignEstimate {
  cells: number
  weekSimulations: number
  /** Rough wall-clock estimate on this machine, seconds. */
  seconds: number
  workers: number
  /** What the estimate cannot measure, in words (a machine of nodes, Slurm's own scheduling, the
   * search of the site's settings); absent or null when it is the single pool's own measure. */
  note?: string | null
}

/** A plan folder written for a Slurm job array (writeSlurmArray): where, what, and the shell
 * commands that submit it (sbatch's own options: code for the cluster, shown as is). */
export interface SlurmArrayWritten {
  folder: string
  cells: number
  shards: number
  cpusPerTask: number
  memMB: number
  timeMinutes: number
  /** Run on a login node: the array, then the merge after it. */
  submit: string[]
  /** The result the merge job writes. */
  resultFile: string
  /** What the plan leaves out of a run here, in words (src/backend/slurm-array.ts ARRAY_SEARCH_NOTE); absent or null if nothing. */
  note?: string | null
}

/** A campaign's events (startCampaign), named by its `campaignId`: progress, partial cells,
 * warnings, then exactly one of done / error / cancelled. */
export type CampaignEvent =
  | { campaignId: string; kind: 'progress'; cellsDone: number; cellsTotal: number; cachedCells: number; samplesDone: number; samplesTotal: number; etaSeconds: number | null; perWorker: { worker: number; pid: number | null; state: string; cell: string | null }[]
      /** 'search': a batch of the search of the site's own Slurm settings, before the campaign
       * (with our slurm.conf as it runs today); the counts are the batch's. 'fidelity' and
       * 'impact': every cell is done and the run waits for the baseline's comparison with the
       * recorded history, then for who gains and who loses (whole-log simulations, the counts are
       * the campaign's last). Absent: the campaign. */
      phase?: 'search' | WaitStage }
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
/** `simulated`: the whole-log EASY-FCFS run's jobs started, on the single pool, then (`nodes`) on the nodes the log names. */
export type ImportEvent = { importId: string; kind: 'progress'; bytesRead: number; totalBytes: number; jobsRead: number; simulated?: { jobs: number; of: number; nodes?: number } }

/** An analysis's events (startAnalysis), named by its `analysisId`: progress (the share done, at
 * most ~5 per second), then exactly one of done / error / cancelled. `result` is exactly the JSON
 * document of `easytune online|mixed --json` (read like an opened file); for 'walltimes', the
 * what-if (WalltimesWhatIf, the `whatIf` of `easytune walltimes --json`); for 'predicted-order',
 * the fidelity (PredictedOrderFidelity, the `predictedOrder` of `easytune export --predicted-order --json`);
 * for 'learn', the document of `easytune learn --json` (LearnDocument), with `learn` on its progress. */
export type AnalysisEvent =
  | { analysisId: string; kind: 'progress'; analysis: AnalysisRequest['kind']; fraction: number; learn?: LearnProgressDetail }
  | { analysisId: string; kind: 'done'; analysis: AnalysisRequest['kind']; result: unknown }
  | { analysisId: string; kind: 'error'; message: string }
  | { analysisId: string; kind: 'cancelled' }


/** A 'learn' analysis's progress beyond its fraction: the trials (src/engine/learn.ts LearnProgress),
 * then the regression over ℱ. */
export interface LearnProgressDetail {
  phase: 'trials' | 'regression'
  tuplesDone: number
  tuplesTotal: number
  cachedTuples: number
  /** Trials simulated so far in this run. */
  trials: number
  /** Trials per second of this run's computing; null until there is one. */
  trialsPerSecond: number | null
  /** Seconds left for the trials (an upper bound: tuples may stop early); null until there is a rate. */
  etaSeconds: number | null
  /** Members of ℱ fitted so far, of `functionsTotal` (regression phase). */
  functionsDone: number
  functionsTotal: number
}

export interface AppInfo {
  version: string
  mode: 'desktop' | 'browser'
  versions: Record<string, string>
  citations: string[]
}


/** The Time limits step's data (getTimeLimits): the report of `easytune walltimes` without its
 * what-if (src/core/predict/walltimes.ts), pseudonymised, and the real user and account names by
 * pseudonym, which the step shows only when asked and never saves or exports (partitions keep
 * their names: they are the site's configuration, not people). */
export interface TimeLimitsView {
  report: WalltimesReport
  realNames: { users: Record<string, string>; accounts: Record<string, string> }
}
