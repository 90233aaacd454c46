// Online-selection emulations, mixed-policy searches and the Time limits what-if on the engine pool,
// in parallel over their independent units, for the CLI (`easytune online|mixed`) and the app
// (src/backend/analysis.ts):
//   - online: one unit per trace (each trace is one continuous run of every strategy and policy,
//     src/core/tune/online.ts emulateTrace), merged by `summarize` in trace order;
//   - mixed: the search's batches (the start point and the vertices, then one XNES generation at a
//     time, or the whole grid: mixedSearchSteps) one unit per weight vector, then the report's
//     cells (mixedReportCells) on the same workers, merged by mixedReportFrom.
//   - walltimes: the Time limits what-if, one unit per scenario (EASY-FCFS on the whole log with
//     today's limits first, then exact limits, learned predictions and EASY++ compared with it).
//   - predicted-order: the fidelity of the export of ordering by predicted runtime, one unit per
//     replay of the whole log (src/core/export/predicted-fidelity.ts), merged by fidelityFrom.
// Results are the same bit for bit whatever the number of workers: the core decides what to
// compute and merges in a fixed order; the workers only evaluate.
import { mixedReportCells, mixedReportFrom, mixedSearchSteps, type MixedOptions, type MixedProgress, type MixedReport } from '../core/tune/mixed'
import { summarize, validateSpec, type OnlineResult, type OnlineSpec } from '../core/tune/online'
import type { CrashInfo } from './lifecycle'
import type { EnginePool } from './pool'
import type { WorkloadSetup, WorkUnit } from './protocol'
import { findWhatIf, WHATIF_SCENARIOS, whatIfFailed, whatIfOutcome, whatIfReport, whatIfSimulator } from '../core/predict/walltimes-whatif'
import type { SimJobs } from '../core/sim/types'
import type { WalltimesWhatIf, WhatIfId, WhatIfOutcome } from '../core/predict/walltimes'
import type { Workload } from '../core/workload/import'
import type { MachineView } from './import'
import { FIDELITY_REPLAYS, fidelityFrom, type PredictedOrderFidelity } from '../core/export/predicted-fidelity'

export interface AnalysisRunOptions {
  signal?: AbortSignal
  onWorkerCrash?: (info: CrashInfo) => void
}

/** The emulation of `spec` on the setup's whole log (read, not split: `prepare: false`).
 * `onProgress(fraction)`: the share of the traces' simulations done, 0..1. */
export async function onlineOnPool(pool: EnginePool, setup: WorkloadSetup, spec: OnlineSpec, opts: AnalysisRunOptions & { onProgress?: (fraction: number) => void } = {}): Promise<OnlineResult> {
  validateSpec(spec)
  const share = new Array<number>(spec.traces).fill(0)
  const report = () => opts.onProgress?.(share.reduce((a, b) => a + b, 0) / spec.traces)
  const session = pool.session({ setup: { ...setup, prepare: false }, signal: opts.signal, cancelledMessage: 'the online emulation was cancelled', onWorkerCrash: opts.onWorkerCrash })
  try {
    report()
    const units = Array.from({ length: spec.traces }, (_, trace) => ({ kind: 'online-trace' as const, spec, trace }))
    const runs = await session.run(units, {
      onProgress: (i, m) => { if (m.type === 'progress') { share[i] = m.samplesDone / m.samples; report() } },
      onDone: (i) => { share[i] = 1; report() },
    })
    return summarize(spec, runs)
  } finally {
    await session.close()
  }
}

/** The search and its report on the setup's train/test samples (the setup's split and
 * resampling; its τ is the options'). `onProgress` as runMixed's: search evaluations, then the
 * report's cells. */
export async function mixedOnPool(pool: EnginePool, setup: WorkloadSetup, o: MixedOptions, opts: AnalysisRunOptions & { onProgress?: MixedProgress } = {}): Promise<MixedReport> {
  // The workers cut the weeks and simulate under the options' compatibility mode (the setup's).
  const compat = o.compat ?? 'none'
  const session = pool.session({ setup: { ...setup, tau: o.tau, ...(compat === 'none' ? { compat: undefined } : { compat }) }, signal: opts.signal, cancelledMessage: 'the mixed-policy search was cancelled', onWorkerCrash: opts.onWorkerCrash })
  try {
    const [st] = o.standardize === false ? [null] : await session.run([{ kind: 'mixed-stats' as const }])
    const options = { objective: o.objective, threshold: o.threshold, tau: o.tau, compat }
    const steps = mixedSearchSteps(st, o, opts.onProgress)
    let step = steps.next(undefined as unknown as number[])
    while (!step.done) {
      const units: WorkUnit[] = step.value.map((primary) => ({ kind: 'mixed-objective', primary, options }))
      step = steps.next(await session.run(units) as number[])
    }
    const search = step.value
    const cells = mixedReportCells(search, o)
    let done = 0
    const results = await session.run(cells.map((cell) => ({ kind: 'cell' as const, cell, campaign: false as const })), { onDone: () => opts.onProgress?.('evaluate', ++done, cells.length) })
    return mixedReportFrom(search, o, results)
  } finally {
    await session.close()
  }
}

/** The Time limits what-if (src/core/predict/walltimes-whatif.ts) on the setup's whole log (read,
 * not split): today's limits first, then the other scenarios in parallel, each compared with it.
 * `onProgress(fraction)`: the share of the scenarios' jobs started. */
export async function walltimesOnPool(pool: EnginePool, setup: WorkloadSetup, jobs: SimJobs, machineProcs: number, opts: AnalysisRunOptions & { onProgress?: (fraction: number) => void } = {}): Promise<WalltimesWhatIf> {
  const ids = WHATIF_SCENARIOS.map((x) => x.id)
  const share = new Array<number>(ids.length).fill(0)
  const report = () => opts.onProgress?.(share.reduce((a, b) => a + b, 0) / Math.max(1, ids.length))
  const session = pool.session({ setup: { ...setup, prepare: false }, signal: opts.signal, cancelledMessage: 'the time-limits what-if was cancelled', onWorkerCrash: opts.onWorkerCrash })
  try {
    report()
    const batch = async (at: number[], today: WhatIfOutcome | null) => session.run(at.map((i) => ({ kind: 'walltimes-whatif' as const, scenario: ids[i]!, today })), {
      onProgress: (k, m) => { if (m.type === 'progress') { share[at[k]!] = m.samplesDone / Math.max(1, m.samples); report() } },
      onDone: (k) => { share[at[k]!] = 1; report() },
    })
    const first = ids.indexOf('requested')
    const [today] = await batch([first], null)
    const rest = ids.map((_, i) => i).filter((i) => i !== first)
    const others = await batch(rest, today!)
    const outcomes = ids.map((_, i) => (i === first ? today! : others[rest.indexOf(i)]!))
    return whatIfReport(jobs, machineProcs, setup.tau, outcomes)
  } finally {
    await session.close()
  }
}

/** One what-if scenario (a worker's unit) on the workload, as the CLI runs it (walltimes-whatif.ts):
 * its EasySimulator to the end; `onProgress(jobsStarted, jobs)` every few thousand event times. A
 * scenario that cannot run (its predictor not available, a configuration refused) is an outcome
 * with its reason in words, as runWalltimesWhatIf makes it; any other error fails the unit. */
export function whatIfRun(w: Workload, id: WhatIfId, today: WhatIfOutcome | null, tau: number, onProgress?: (done: number, total: number) => void): WhatIfOutcome {
  const scenario = findWhatIf(id)
  if (!scenario) throw new Error(`engine worker: unknown what-if scenario "${id}"`)
  const jobs = w.jobs
  const sim = whatIfSimulator(scenario, jobs, w.machineProcs, onProgress ? { onCheck: (started) => { onProgress(started, jobs.count); return false } } : {})
  if (typeof sim === 'string') return whatIfFailed(scenario, sim)
  try {
    sim.runUntil(Infinity)
  } catch (e) {
    if (e instanceof Error && /not (yet )?(available|implemented)/i.test(e.message)) return whatIfFailed(scenario, e.message)
    throw e
  }
  return whatIfOutcome(scenario, jobs, w.machineProcs, sim.start, sim, tau, today)
}

/** The fidelity of the predicted-order export (docs/PREDICTIONS.md §Fidelity) on the setup's whole
 * log: its five replays in parallel, merged in a fixed order, so the same as predictedOrderFidelity
 * (the CLI's) whatever the number of workers. `onProgress(fraction)`: the share of the replays'
 * jobs started. */
export async function predictedOrderOnPool(pool: EnginePool, setup: WorkloadSetup, jobs: SimJobs & { readonly user: Int32Array }, machineProcs: number, o: { threshold: number | null; historyDays: number }, opts: AnalysisRunOptions & { onProgress?: (fraction: number) => void } = {}): Promise<PredictedOrderFidelity> {
  const share = new Array<number>(FIDELITY_REPLAYS.length).fill(0)
  const report = () => opts.onProgress?.(share.reduce((a, b) => a + b, 0) / FIDELITY_REPLAYS.length)
  const session = pool.session({ setup: { ...setup, prepare: false }, signal: opts.signal, cancelledMessage: 'the predicted-order fidelity was cancelled', onWorkerCrash: opts.onWorkerCrash })
  try {
    report()
    const replays = await session.run(FIDELITY_REPLAYS.map((replay) => ({ kind: 'predicted-order-replay' as const, replay, threshold: o.threshold, historyDays: o.historyDays })), {
      onProgress: (k, m) => { if (m.type === 'progress') { share[k] = m.samplesDone / Math.max(1, m.samples); report() } },
      onDone: (k) => { share[k] = 1; report() },
    })
    return fidelityFrom(jobs, machineProcs, o.historyDays, o.threshold, setup.tau, replays)
  } finally {
    await session.close()
  }
}

/** The Cluster panel's machine (src/backend/analysis.ts 'machine'): the setup's machine inputs
 * built on a worker as a campaign's workers build them, and the baseline on the whole log there
 * against the recorded history. `onProgress(fraction)`: the share of the log's jobs started. A
 * configuration file that cannot be read fails the setup with the reader's words (file and line). */
export async function machineOnPool(pool: EnginePool, setup: WorkloadSetup, opts: AnalysisRunOptions & { onProgress?: (fraction: number) => void } = {}): Promise<MachineView> {
  const session = pool.session({ setup: { ...setup, prepare: false }, signal: opts.signal, cancelledMessage: 'the machine\'s fidelity was cancelled', onWorkerCrash: opts.onWorkerCrash })
  try {
    opts.onProgress?.(0)
    const [view] = await session.run([{ kind: 'machine-view' as const }], {
      onProgress: (_k, m) => { if (m.type === 'progress') opts.onProgress?.(m.samplesDone / Math.max(1, m.samples)) },
      onDone: () => opts.onProgress?.(1),
    })
    return view!
  } finally {
    await session.close()
  }
}
