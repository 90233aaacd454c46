// The run's state as a pure reducer over the back end's campaign events, so the store stays thin
// and the event handling is tested without a back end. Events of another campaign are ignored.
import type { CampaignEvent } from '../../../shared/api'
import type { EvaluationResult } from '../../../core/tune/result'
import { controlWords } from '../format'

export type ProgressEvent = Extract<CampaignEvent, { kind: 'progress' }>
export type WorkerRow = ProgressEvent['perWorker'][number]

/** A worker's progress through its cell, from its own stream ('worker-progress', desktop app). */
export interface WorkerSamples {
  pid: number
  cell: string
  samplesDone: number
  samples: number
}

export interface CellRow {
  label: string
  part: 'train' | 'test'
  meanObjective: number
}

export type RunStatus = 'idle' | 'starting' | 'running' | 'done' | 'error' | 'cancelled'

export interface RunState {
  campaignId: string | null
  status: RunStatus
  progress: ProgressEvent | null
  /** The latest 'worker-progress' of each worker, by worker number (empty in browser mode). */
  workers: Record<number, WorkerSamples>
  /** Finished cells, in the order they finished (partial results). */
  cells: CellRow[]
  warnings: string[]
  error: string | null
  result: EvaluationResult | null
}

export function initialRun(): RunState {
  return { campaignId: null, status: 'idle', progress: null, workers: {}, cells: [], warnings: [], error: null, result: null }
}

export function isActive(s: RunState): boolean {
  return s.status === 'starting' || s.status === 'running'
}

export function reduceRun(s: RunState, e: CampaignEvent): RunState {
  if (s.campaignId === null || e.campaignId !== s.campaignId) return s
  // A finished campaign ignores late progress (a worker's last message can trail the result).
  if (!isActive(s)) return s
  switch (e.kind) {
    case 'progress':
      return { ...s, status: 'running', progress: e }
    case 'cell': {
      const row: CellRow = { label: e.label, part: e.part, meanObjective: e.meanObjective }
      const i = s.cells.findIndex((c) => c.label === e.label && c.part === e.part)
      const cells = i < 0 ? [...s.cells, row] : s.cells.map((c, k) => (k === i ? row : c))
      return { ...s, status: 'running', cells }
    }
    case 'worker-progress': {
      const w: WorkerSamples = { pid: e.pid, cell: e.cell, samplesDone: e.samplesDone, samples: e.samples }
      return { ...s, workers: { ...s.workers, [e.worker]: w } }
    }
    case 'warning': {
      // In the GUI's words, and once: the same warning from several workers is one line.
      const text = controlWords(e.message)
      return s.warnings.includes(text) ? s : { ...s, warnings: [...s.warnings, text] }
    }
    case 'done':
      return { ...s, status: 'done', result: e.result, error: null }
    case 'error':
      return { ...s, status: 'error', error: controlWords(e.message) }
    case 'cancelled':
      return { ...s, status: 'cancelled' }
  }
}

/** The finer progress of a worker row of the last 'progress' event: its worker's own latest
 * report, when it is about the cell the row shows (and the same process, when the row knows its
 * pid); null otherwise (browser mode, a cell just handed over, a replaced worker). */
export function workerSamples(s: RunState, row: WorkerRow): WorkerSamples | null {
  const w = s.workers[row.worker]
  if (!w || row.cell === null || w.cell !== row.cell) return null
  return row.pid === null || row.pid === w.pid ? w : null
}

/** Share of the campaign done, from 0 to 1 (samples are finer-grained than cells). */
export function fractionDone(p: ProgressEvent | null): number {
  if (!p) return 0
  if (p.samplesTotal > 0) return Math.min(1, p.samplesDone / p.samplesTotal)
  return p.cellsTotal > 0 ? Math.min(1, p.cellsDone / p.cellsTotal) : 0
}

/** The baseline cell, as the engine labels it ("EASY-FCFS", "EASY-FCFS Θ=none", "EASY-FCFS-FCFS"). */
export function isBaselineLabel(label: string): boolean {
  return /^EASY-FCFS(-FCFS)?( Θ=none)?$/.test(label.trim())
}

/** Partial results: each finished cell of one part relative to EASY-FCFS on the same part, best
 * first (null ratio while the baseline of that part is not finished). */
export function partialRanking(cells: CellRow[], part: 'train' | 'test'): { label: string; mean: number; ratio: number | null }[] {
  const base = cells.find((c) => c.part === part && isBaselineLabel(c.label))
  return cells
    .filter((c) => c.part === part)
    .map((c) => ({ label: c.label, mean: c.meanObjective, ratio: base && base.meanObjective > 0 ? c.meanObjective / base.meanObjective : null }))
    .sort((a, b) => a.mean - b.mean)
}
