// The fidelity of the deployable form of walltime prediction (docs/PREDICTIONS.md §Deployment):
// the whole log replayed under EASY-FCFS as today, under the queue ordered by AVE₂ with planning on
// the time limits (what the exported script deploys: SimConfig.prediction use 'order'), under the
// queue ordered by the time limits themselves (SPF, deployable without prediction), and under
// the thesis's planning with AVE₂ predictions (what is lost because Slurm plans on time limits).
// Pure: the simulator and the metrics only.
import { EasySimulator, SimulationStopped } from '../sim/easy'
import { computeMetrics, DEFAULT_TAU } from '../sim/metrics'
import type { SimConfig, SimJobs } from '../sim/types'
import { DEFAULTS } from '../defaults'

/** One replay's figures: seconds, and the bounded slowdown (τ = `tau`). */
export interface ScheduleFigures { readonly avgWait: number; readonly avgBsld: number; readonly maxWait: number }

export interface PredictedOrderFidelity {
  readonly jobs: number
  readonly machineProcs: number
  /** τ of the bounded slowdown, seconds. */
  readonly tau: number
  /** EASY-FCFS planning on the time limits: the site today. */
  readonly today: ScheduleFigures
  /** EASY-SPF: the queue by shortest time limit (deployable without any prediction, job_submit.lua):
   * what the prediction adds over ordering by the limits themselves. */
  readonly byLimit: ScheduleFigures
  /** The exported form: the whole queue by shortest AVE₂ prediction, planning on the time limits. */
  readonly deployable: ScheduleFigures
  /** The thesis's EASY planning with AVE₂ (FCFS order, incremental correction): needs a scheduler
   * that plans on predictions, which Slurm is not. */
  readonly planned: ScheduleFigures
  /** EASY++ (AVE₂, incremental, SJBF backfill), the thesis's reference triple. */
  readonly easyPlusPlus: ScheduleFigures
  /** Share of jobs (0..1) whose user the log records: AVE₂ predicts the others by their limits. */
  readonly withUser: number
  /** Θ (seconds) of the two deployable orders (SPF and the exported one), or null: none. */
  readonly threshold: number | null
  /** The accounting history the exported script reads (days before now). */
  readonly historyDays: number
  /** Share of jobs (0..1) whose prediction the script's history window changes: the user's last or
   * second-last job ended (in the deployable replay) more than `historyDays` before the submission. */
  readonly outsideWindow: number
}

/** The replays behind the fidelity. `jobs.user` must be set (AVE₂ reads it; -1 = unknown user). */
export const FIDELITY_CONFIGS = {
  today: { primary: 'FCFS', backfill: 'same', threshold: null },
  byLimit: { primary: 'SPF', backfill: 'same', threshold: null },
  deployable: { primary: 'FCFS', backfill: 'same', threshold: null, prediction: { predictor: { id: 'ave2' }, correction: 'none', use: 'order' } },
  planned: { primary: 'FCFS', backfill: 'same', threshold: null, prediction: { predictor: { id: 'ave2' }, correction: 'incremental' } },
  easyPlusPlus: { primary: 'FCFS', backfill: 'same', threshold: null, prediction: { predictor: { id: 'ave2' }, correction: 'incremental', sjbf: true } },
} as const satisfies Record<string, SimConfig>

/** One of the replays: its figures, and for the exported order the history-window share. */
export type FidelityReplayId = keyof typeof FIDELITY_CONFIGS
export const FIDELITY_REPLAYS: readonly FidelityReplayId[] = ['today', 'byLimit', 'deployable', 'planned', 'easyPlusPlus']
export interface FidelityReplay { readonly id: FidelityReplayId; readonly figures: ScheduleFigures; readonly outsideWindow: number | null }

/** One replay of the whole log (the app runs them on separate engine workers); `threshold` applies
 * to the two deployable orders only, and `outsideWindow` is measured on the exported one's schedule.
 * `onCheck` is the simulator's progress hook (docs/SIMULATOR.md §Progress); it never changes the schedule. */
export function fidelityReplay(jobs: SimJobs & { readonly user: Int32Array }, machineProcs: number, id: FidelityReplayId, historyDays: number, threshold: number | null, tau = DEFAULT_TAU, onCheck?: (jobsStarted: number) => boolean): FidelityReplay {
  const sim = fidelitySimulator(jobs, machineProcs, id, threshold, onCheck ? { onCheck } : {})
  if (sim.runUntil(Infinity)) throw new SimulationStopped()
  return fidelityOf(jobs, machineProcs, id, historyDays, sim.start, tau)
}

/** The simulator of one replay, not yet run: the CLI runs it in slices (runUntil resumes the same
 * schedule after `hooks.onCheck` stops it), the workers in one go (fidelityReplay). */
export function fidelitySimulator(jobs: SimJobs & { readonly user: Int32Array }, machineProcs: number, id: FidelityReplayId, threshold: number | null, hooks: { onCheck?: (jobsStarted: number) => boolean; checkEvery?: number } = {}): EasySimulator {
  const config: SimConfig = id === 'deployable' || id === 'byLimit' ? { ...FIDELITY_CONFIGS[id], threshold } : FIDELITY_CONFIGS[id]
  return new EasySimulator(jobs, machineProcs, config, hooks)
}

/** One replay's result from its finished schedule (`start`, seconds). */
export function fidelityOf(jobs: SimJobs & { readonly user: Int32Array }, machineProcs: number, id: FidelityReplayId, historyDays: number, start: Float64Array, tau = DEFAULT_TAU): FidelityReplay {
  const x = computeMetrics(jobs, machineProcs, start, tau, false)
  return { id, figures: { avgWait: x.avgWait, avgBsld: x.avgBsld, maxWait: x.maxWait }, outsideWindow: id === 'deployable' ? outsideWindowShare(jobs, start, historyDays) : null }
}

/** The fidelity from its five replays (any order). */
export function fidelityFrom(jobs: SimJobs & { readonly user: Int32Array }, machineProcs: number, historyDays: number, threshold: number | null, tau: number, replays: readonly FidelityReplay[]): PredictedOrderFidelity {
  const get = (id: FidelityReplayId) => {
    const r = replays.find((x) => x.id === id)
    if (!r) throw new Error(`the ${id} replay is missing`)
    return r
  }
  return {
    jobs: jobs.count, machineProcs, tau, threshold, withUser: shareWithUser(jobs.user),
    today: get('today').figures,
    byLimit: get('byLimit').figures,
    deployable: get('deployable').figures,
    planned: get('planned').figures,
    easyPlusPlus: get('easyPlusPlus').figures,
    historyDays,
    outsideWindow: get('deployable').outsideWindow ?? 0,
  }
}

/**
 * The share of jobs whose AVE₂ prediction a history of `days` days changes: per job, the end times
 * (start + runtime in `start`'s schedule) of its user's last two jobs that ended by its submission;
 * the prediction differs when one of those ended more than `days` before it.
 */
export function outsideWindowShare(jobs: SimJobs & { readonly user: Int32Array }, start: Float64Array, days: number): number {
  const n = jobs.count
  if (n === 0) return 0
  const window = days * 86_400
  const end = new Float64Array(n)
  for (let j = 0; j < n; j++) end[j] = start[j] + jobs.runtime[j]
  const byEnd = Int32Array.from({ length: n }, (_, j) => j).sort((a, b) => end[a] - end[b] || a - b)
  let users = 0
  for (let j = 0; j < n; j++) if (jobs.user[j] + 1 > users) users = jobs.user[j] + 1
  const last1 = new Float64Array(users).fill(NaN), last2 = new Float64Array(users).fill(NaN)
  let k = 0, changed = 0
  for (let j = 0; j < n; j++) { // jobs are in submit order
    while (k < n && end[byEnd[k]] <= jobs.submit[j]) {
      const u = jobs.user[byEnd[k++]]
      if (u >= 0) { last2[u] = last1[u]; last1[u] = end[byEnd[k - 1]] }
    }
    const u = jobs.user[j]
    if (u < 0) continue
    const cut = jobs.submit[j] - window
    if (last1[u] < cut || last2[u] < cut) changed++ // NaN (no such job) compares false
  }
  return changed / n
}

function shareWithUser(user: Int32Array): number {
  let k = 0
  for (let j = 0; j < user.length; j++) if (user[j] >= 0) k++
  return user.length ? k / user.length : 0
}

/** The five replays and the history share; `historyDays` is the exported script's window and
 * `threshold` the exported order's Θ (seconds; null: none), applied to both deployable orders. */
export function predictedOrderFidelity(jobs: SimJobs & { readonly user: Int32Array }, machineProcs: number, historyDays: number = DEFAULTS.predictedOrderHistoryDays.value, threshold: number | null = null, tau = DEFAULT_TAU): PredictedOrderFidelity {
  return fidelityFrom(jobs, machineProcs, historyDays, threshold, tau, FIDELITY_REPLAYS.map((id) => fidelityReplay(jobs, machineProcs, id, historyDays, threshold, tau)))
}
