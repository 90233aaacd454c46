// Online-selection emulations and mixed-policy searches on the engine pool, in parallel over their
// independent units, for the CLI (`easytune online|mixed`) and the app (src/backend/analysis.ts):
//   - online: one unit per trace (each trace is one continuous run of every strategy and policy,
//     src/core/tune/online.ts emulateTrace), merged by `summarize` in trace order;
//   - mixed: the search's batches (the start point and the vertices, then one XNES generation at a
//     time, or the whole grid: mixedSearchSteps) one unit per weight vector, then the report's
//     cells (mixedReportCells) on the same workers, merged by mixedReportFrom.
// Results are the same bit for bit whatever the number of workers: the core decides what to
// compute and merges in a fixed order; the workers only evaluate.
import { mixedReportCells, mixedReportFrom, mixedSearchSteps, type MixedOptions, type MixedProgress, type MixedReport } from '../core/tune/mixed'
import { summarize, validateSpec, type OnlineResult, type OnlineSpec } from '../core/tune/online'
import type { CrashInfo } from './lifecycle'
import type { EnginePool } from './pool'
import type { WorkloadSetup, WorkUnit } from './protocol'

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
