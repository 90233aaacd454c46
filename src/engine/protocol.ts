// Messages between the engine's parent side (src/engine/lifecycle.ts, in the CLI, Electron main or
// the browser-mode server) and its workers (Node child processes or Electron utility processes).
// Plain data only: they cross a process boundary with structured clone (typed arrays included).
//
// Every kind of background work is a WorkUnit: a campaign's cell, one online-selection trace, one
// weight vector of a mixed-policy search, or one import. The parent sends { type: 'run', id, unit }
// and the worker answers { type: 'done', id, result } (or 'error'), with 'progress' /
// 'import-progress' in between, and, for an import of a big log, its job table's big columns one
// 'column' message each just before its 'done' (the parent puts them back); units that need the
// workload ('needsSetup') wait for the worker's 'setup' first. The lifecycle module is the only
// sender of these messages.
//
// Desktop app only: main may hand a utility-process worker a second channel, the progress port
// ('progress-port', the port itself travels in the message's transfer list and arrives as
// `event.ports[0]` on process.parentPort). The worker then posts its per-sample progress through
// a cell (WorkerProgressMessage) straight to the window on that port and sends the parent only a
// coarse 'progress' (see worker.ts). The CLI and browser mode never send it: nothing changes there.
import type { CellResult, CellSpec } from '../core/tune/campaign'
import type { OnlineSpec, TraceRuns } from '../core/tune/online'
import type { MixedOptions, Standardization } from '../core/tune/mixed'
import type { Compat, MixedSpec } from '../core/sim/types'
import type { MachineInputs } from '../core/cluster/model'
import type { Calibration } from '../core/tune/calibrate'
import type { Impact, RecommendedOrder } from '../core/tune/impact'
import type { ResampleSpec } from '../core/tune/resample'
import type { SplitSpec } from '../core/tune/split'
import type { ImportOptions } from '../core/workload/import'
import { isTableColumn, type ColumnArray, type TableColumn } from '../core/workload/builder'
import { exactCopy } from '../core/util/memory'
import type { JobTable } from '../core/workload/types'
import type { ImportedLog, MachineView } from './import'
import type { WhatIfId, WhatIfOutcome } from '../core/predict/walltimes'
import type { FidelityReplay, FidelityReplayId } from '../core/export/predicted-fidelity'
import type { PredictionCampaignOptions, TripleMetrics } from '../core/predict/campaign'
import type { TrialsConfig, TupleCheckpoint, TupleResult } from '../core/learn/types'
import type { FittedSlice, ScoreSample } from '../core/learn/regression'

/** What every worker needs to build the workload's week samples itself. */
export interface WorkloadSetup {
  /** Absolute path of the log file (the worker reads it; plain or gzip); the first file when the log is several. */
  logPath: string
  /** A log kept as several files (daily jobcomp files, monthly sacct dumps): every file, in the
   * order given, read as one log (src/node/read-log.ts readLogs); absent for one file. The cache
   * key covers every file's content (src/engine/pool.ts hashLogFiles). */
  logPaths?: string[]
  importOptions: ImportOptions
  split: SplitSpec
  resample: ResampleSpec
  tau: number
  /** false: only read the log, do not split and resample it (an online-selection analysis uses
   * the whole cleaned log). Absent for campaigns, so their cache keys are unchanged. */
  prepare?: false
  /** 'ocst': the parts' weeks cut by rule C13 and every cell simulated with the seeds' shadow-time
   * rule (docs/SIMULATOR.md §Shadow-time rules); absent = 'none'. Part of the cells' cache keys. */
  compat?: Compat
  /** The machine inputs (docs/CLUSTER.md §Inputs: --cluster, --slurm-conf, --current-conf,
   * --scheduler, --qos-priority, as file texts): absent = none given (the machine is then inferred
   * from the log when it names nodes or partitions). Part of the cells' cache keys. */
  machine?: MachineInputs
}

/** One independent piece of work, run by whichever worker is free. */
export type WorkUnit =
  /** A cell (src/core/tune/campaign.ts runCell) on the setup's train or test samples. `campaign`
   * false: a cell of no campaign (a mixed search's report); its progress never goes on the
   * progress port, whose messages the window takes for the running campaign's. */
  | { kind: 'cell'; cell: CellSpec; campaign?: false }
  /** Trace `trace` of an online-selection emulation on the setup's whole log (emulateTrace). */
  | { kind: 'online-trace'; spec: OnlineSpec; trace: number }
  /** The campaign's baseline on the setup's whole log against the recorded history
   * (src/core/cluster/model.ts baselineFidelity): evaluate's `calibration`. */
  | { kind: 'baseline-fidelity' }
  /** Who gains and who loses under the recommended order (src/core/tune/impact.ts
   * recommendationImpact) on the real weeks of the setup's split parts: evaluate's `impact`. */
  | { kind: 'impact'; recommended: RecommendedOrder; maxWaitRatio: number | null }
  /** The feature standardization of a mixed search (featureStats) on the setup's train samples. */
  | { kind: 'mixed-stats' }
  /** The mean train objective of one mixed policy (trainObjective) on the setup's train samples. */
  | { kind: 'mixed-objective'; primary: MixedSpec; options: Pick<MixedOptions, 'objective' | 'threshold' | 'tau' | 'compat'> }
  /** One scenario of the Time limits what-if (src/core/predict/walltimes-whatif.ts) on the setup's
   * whole log; `today` is the requested scenario's outcome, which the others are compared with
   * (null for that scenario itself). */
  | { kind: 'walltimes-whatif'; scenario: WhatIfId; today: WhatIfOutcome | null }
  /** One replay of the fidelity of the predicted-order export (src/core/export/predicted-fidelity.ts
   * fidelityReplay) on the setup's whole log: Θ (seconds or null) of the deployable orders and the
   * exported script's history window (days). */
  | { kind: 'predicted-order-replay'; replay: FidelityReplayId; threshold: number | null; historyDays: number }
  /** One triple of the runtime-prediction campaign (src/core/predict/campaign.ts, by its id) on the
   * setup's whole log (read, not split: `prepare: false`); src/engine/predictions.ts. */
  | { kind: 'prediction-triple'; triple: string; options: PredictionCampaignOptions }
  /** One (S, Q) tuple of the learned-priority trials (src/core/learn/trials.ts runTuple, all its
   * trials in batches inside the worker) on the training part of the setup's log (read with
   * `prepare: false`, split here by the setup's split); src/engine/learn.ts. */
  | { kind: 'learn-tuple'; config: TrialsConfig; tuple: number
      /** Milliseconds between two checkpoints sent with the unit's progress (none when absent). */
      checkpointMs?: number
      /** Continue from this checkpoint of the tuple (src/core/learn/trials.ts isCheckpointOf). */
      from?: TupleCheckpoint }
  /** Members [from, to) of ℱ (src/core/learn/family.ts FAMILY) fitted to the usable samples of the
   * trials (src/core/learn/regression.ts fitSlice): no setup needed; src/engine/learn.ts. */
  | { kind: 'learn-fit'; samples: ScoreSample[]; from: number; to: number }
  /** The setup's machine (its `machine` inputs, or the log's own) and the baseline's fidelity
   * there on the whole log (read, not split: `prepare: false`): src/engine/import.ts machineView. */
  | { kind: 'machine-view' }
  /** A whole import (src/engine/import.ts): no setup needed. `options.name` is the name the
   * report shows. */
  /** `paths`: a log kept as several files, read as one (path is then the first); `names`: those
   * files as the user knows them, for the report. */
  | { kind: 'import'; path: string; paths?: string[]; names?: string[]; options: ImportOptions }

/** What each kind of unit answers. */
export interface UnitResults {
  'cell': CellResult
  'online-trace': TraceRuns
  'baseline-fidelity': Calibration | null
  'impact': Impact | null
  'mixed-stats': Standardization
  'mixed-objective': number
  'walltimes-whatif': WhatIfOutcome
  'predicted-order-replay': FidelityReplay
  'prediction-triple': TripleMetrics
  /** The tuple, with the machine size and training jobs it was drawn from. */
  'learn-tuple': LearnTupleAnswer
  'learn-fit': FittedSlice
  'machine-view': MachineView
  /** The workload's typed arrays arrive as copies (structured clone). */
  'import': ImportedLog
}
export type UnitResult<U extends WorkUnit = WorkUnit> = UnitResults[U['kind']]

/** What a 'learn-tuple' unit answers. */
export interface LearnTupleAnswer {
  result: TupleResult
  machineProcs: number
  trainingJobs: number
}

/** Units that run on the workload of a 'setup' (the others need none). */
export function needsSetup(u: WorkUnit): boolean {
  return u.kind !== 'import' && u.kind !== 'learn-fit'
}

export type ToWorker =
  | { type: 'setup'; setup: WorkloadSetup }
  | { type: 'run'; id: number; unit: WorkUnit }
  | { type: 'exit' }
  /** Carries a transferred port (utilityProcess only); `worker` is the worker's number in its
   * session, echoed in every message posted on that port. A later one replaces the earlier port
   * (a reload of the window hands fresh ports). */
  | { type: 'progress-port'; worker: number }

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
  | { type: 'setup-done'; trainWeeks: number; testWeeks: number; trainRealWeeks?: number; testRealWeeks?: number }
  /** Progress through unit `id`: week samples of a cell, simulations of an online trace. */
  | { type: 'progress'; id: number; samplesDone: number; samples: number
      /** A 'learn-tuple' unit's checkpoint, at most every checkpointMs of its unit. */
      checkpoint?: TupleCheckpoint }
  /** Progress of an import: one per 1 MiB read. */
  | { type: 'import-progress'; id: number; bytesRead: number; totalBytes: number; jobsRead: number; simulated?: { jobs: number; of: number; nodes?: number } }
  /** One column of an import's job table, sent before its 'done' (which then lacks it): a big log's
   * table in one message held the parent's event loop while it was decoded (~0.4 s for 1M jobs). */
  | { type: 'column'; id: number; name: TableColumn; values: ColumnArray }
  | { type: 'done'; id: number; result: UnitResult }
  /** `input`: the user can fix it (bad file or option); `file`/`line` locate it when known.
   * `id` is the unit's id, or null for a setup or protocol error. */
  | { type: 'error'; id: number | null; message: string; input: boolean; file?: string; line?: number | null }

/** A job-table column this big or bigger crosses in a 'column' message of its own. */
export const COLUMN_MESSAGE_BYTES = 1 << 20

/**
 * An import's table as the worker sends it: the columns of COLUMN_MESSAGE_BYTES or more apart
 * (`alone`, a 'column' message each: the parent decodes a big log's table a column at a time, its
 * event loop free in between; one message of 52 MB for 1M jobs held it ~0.4 s), the rest in the
 * answer. Every column goes in a buffer of its own length: Electron's structured clone carries a
 * view's whole buffer (a builder's spare rows), where Node's IPC would send the view's bytes only.
 */
export function tableToSend(jobs: JobTable): { rest: JobTable; alone: [TableColumn, ColumnArray][] } {
  const rest: Record<string, unknown> = {}
  const alone: [TableColumn, ColumnArray][] = []
  for (const [name, v] of Object.entries(jobs)) {
    if (!ArrayBuffer.isView(v) || !isTableColumn(name)) { rest[name] = v; continue }
    const col = exactCopy(v as ColumnArray)
    if (col.byteLength < COLUMN_MESSAGE_BYTES) rest[name] = col
    else alone.push([name, col])
  }
  return { rest: rest as unknown as JobTable, alone }
}
