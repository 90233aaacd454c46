// The document of a learning run (docs/LEARN.md §Command line): what `easytune learn --json`
// writes and what the app's 'learn' analysis answers, built once here from the trials and the
// regression. Plain JSON data (Infinity written as null).
import { FAMILY } from './family'
import { LM_SETTINGS, type RegressionResult } from './regression'
import type { TrialsConfig, TrialsResult } from './types'

export const LEARN_SCHEMA_VERSION = 1

/** The JSON document of `easytune learn --json` (docs/LEARN.md §Command line). */
export function learnJson(log: string, config: TrialsConfig, trials: TrialsResult, regression: RegressionResult) {
  const { functions, samples: usable, dropped, undefinedForms } = regression
  // Infinity (the normalised std before two trials) is not JSON: null.
  const finite = (x: number) => Number.isFinite(x) ? x : null
  return {
    schemaVersion: LEARN_SCHEMA_VERSION,
    log,
    options: { ...config },
    order: 'a LOWER value of a learned function runs first (use it as --primary fn:<expression>)',
    machineProcs: trials.machineProcs,
    trainingJobs: trials.trainingJobs,
    trials: trials.trials,
    tuples: trials.tuples.map((t) => ({ tuple: t.tuple, firstJob: t.firstJob, trials: t.trials, stoppedEarly: t.stoppedEarly })),
    convergence: trials.convergence.map((c) => ({ trials: c.trials, normStd: finite(c.normStd) })),
    regression: {
      family: FAMILY.length, samples: usable, dropped, undefinedForms,
      optimiser: { package: 'ml-levenberg-marquardt', ...LM_SETTINGS },
    },
    functions: functions.map((f) => ({
      position: f.position, id: f.id, kind: f.kind, expression: f.expression, rank: f.rank, weightedError: f.weightedError,
      form: f.form, coefficients: f.coefficients, simplified: f.simplified, sameFormAs: f.sameFormAs, iterations: f.iterations,
    })),
  }
}

/** The learning run as a JSON document. */
export type LearnDocument = ReturnType<typeof learnJson>
