// Messages between the engine pool (CLI, Electron main, browser-mode server) and its workers
// (Node child processes or Electron utility processes). Plain data only: they cross a process
// boundary with structured clone (typed arrays included).
//
// Desktop app only: main may hand a utility-process worker a second channel, the progress port
// ('progress-port', the port itself travels in the message's transfer list and arrives as
// `event.ports[0]` on process.parentPort). The worker then posts its per-sample progress
// (WorkerProgressMessage) straight to the window on that port and sends the pool only a coarse
// 'progress' (see worker.ts). The CLI and browser mode never send it: nothing changes there.
import type { CellResult, CellSpec } from '../core/tune/campaign'
import type { MixedOptions } from '../core/tune/mixed'
import type { OnlineSpec } from '../core/tune/online'
import type { ResampleSpec } from '../core/tune/resample'
import type { SplitSpec } from '../core/tune/split'
import type { ImportOptions } from '../core/workload/import'
import type { ImportedLog } from './import'

/** What every worker needs to build the campaign's week samples itself. */
export interface WorkloadSetup {
  /** Absolute path of the log file (the worker reads it; plain or gzip). */
  logPath: string
  importOptions: ImportOptions
  split: SplitSpec
  resample: ResampleSpec
  tau: number
  /** false: only read the log, do not split and resample it (an online-selection analysis uses
   * the whole cleaned log). Absent for campaigns, so their cache keys are unchanged. */
  prepare?: false
}

/** The options of an analysis run by one worker after its 'setup' (src/backend/analysis.ts).
 * Online: OnlineSpec of src/core/tune/online.ts (the whole log). Mixed: MixedOptions of
 * src/core/tune/mixed.ts, on the setup's train/test week samples. */
export type AnalysisOptions =
  | { kind: 'online'; spec: OnlineSpec }
  | { kind: 'mixed'; options: MixedOptions }

export type ToWorker =
  | { type: 'setup'; setup: WorkloadSetup }
  | { type: 'cell'; id: number; cell: CellSpec }
  | { type: 'exit' }
  /** Runs an online-selection emulation or a mixed-policy search on the workload of the last
   * 'setup'; answered by 'analysis-progress' (throttled) then 'analysis-done' or 'error'. */
  | { type: 'analysis'; id: number; analysis: AnalysisOptions }
  /** Carries a transferred port (utilityProcess only); `worker` is the pool's worker number,
   * echoed in every message posted on that port. A later one replaces the earlier port (a reload
   * of the window hands fresh ports). */
  | { type: 'progress-port'; worker: number }
  /** Imports one log (src/engine/import.ts), no 'setup' needed: answered by 'import-progress'
   * (one per 1 MiB read) then 'import-done' or 'error' (the FileInputError's file
   * and line). The Backend forks one worker per import and stops it once answered. `options`
   * carries the name the report shows (ImportOptions.name). */
  | { type: 'import'; id: number; path: string; options: ImportOptions }

/** Posted by a worker on its progress port: one cell's progress, straight to the window. */
export interface WorkerProgressMessage {
  kind: 'worker-progress'
  worker: number
  pid: number
  /** The cell's label, as the pool labels it (cellLabel): "EASY-SPF Θ=20 h (train)". */
  cell: string
  samplesDone: number
  samples: number
}

export type FromWorker =
  /** First message of every worker; `transport` says which branch of the port adapter is in use. */
  | { type: 'ready'; transport?: 'parentPort' | 'process' }
  | { type: 'setup-done'; trainWeeks: number; testWeeks: number }
  | { type: 'progress'; id: number; samplesDone: number; samples: number }
  | { type: 'cell-done'; id: number; result: CellResult }
  /** `fraction` of the analysis done, 0..1. */
  | { type: 'analysis-progress'; id: number; fraction: number }
  /** `result`: exactly the JSON document `easytune online|mixed --json` prints (src/core/tune/reports.ts). */
  | { type: 'analysis-done'; id: number; kind: 'online' | 'mixed'; result: unknown }
  | { type: 'import-progress'; id: number; bytesRead: number; totalBytes: number; jobsRead: number }
  /** The workload's typed arrays arrive as copies (structured clone). */
  | ({ type: 'import-done'; id: number } & ImportedLog)
  /** `input`: the user can fix it (bad file or option); `file`/`line` locate it when known.
   * `id` is the cell's (analysis's, import's) id, or null for a setup or protocol error. */
  | { type: 'error'; id: number | null; message: string; input: boolean; file?: string; line?: number | null }
