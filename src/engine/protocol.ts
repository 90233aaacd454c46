// Messages between the engine pool (CLI, Electron main, browser-mode server) and its workers
// (Node child processes or Electron utility processes). Plain data only: they cross a process
// boundary with structured clone (typed arrays included).
import type { CellResult, CellSpec } from '../core/tune/campaign'
import type { ResampleSpec } from '../core/tune/resample'
import type { SplitSpec } from '../core/tune/split'
import type { ImportOptions } from '../core/workload/import'

/** What every worker needs to build the campaign's week samples itself. */
export interface WorkloadSetup {
  /** Absolute path of the log file (the worker reads it; plain or gzip). */
  logPath: string
  importOptions: ImportOptions
  split: SplitSpec
  resample: ResampleSpec
  tau: number
}

export type ToWorker =
  | { type: 'setup'; setup: WorkloadSetup }
  | { type: 'cell'; id: number; cell: CellSpec }
  | { type: 'exit' }

export type FromWorker =
  /** First message of every worker; `transport` says which branch of the port adapter is in use. */
  | { type: 'ready'; transport?: 'parentPort' | 'process' }
  | { type: 'setup-done'; trainWeeks: number; testWeeks: number }
  | { type: 'progress'; id: number; samplesDone: number; samples: number }
  | { type: 'cell-done'; id: number; result: CellResult }
  /** `input`: the user can fix it (bad file or option); `file`/`line` locate it when known.
   * `id` is the cell's id, or null for a setup or protocol error. */
  | { type: 'error'; id: number | null; message: string; input: boolean; file?: string; line?: number | null }
