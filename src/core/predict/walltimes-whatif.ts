// The what-if of the time limits (docs/PREDICTIONS.md §Time limits): the site's order, EASY-FCFS
// without threshold, replayed on the whole log with today's limits (the requested times), with
// exact limits (clairvoyant), with learned predictions (the thesis's selected triple: E-Loss +
// incremental + SJBF) and with EASY++ (AVE₂ + incremental + SJBF). The callers run each scenario's
// EasySimulator (the CLI in slices with progress and Ctrl-C); runWalltimesWhatIf runs them all in one go.
import type { SimConfig, SimJobs } from '../sim/types'
import type { WalltimesWhatIf, WhatIfOutcome, WhatIfScenario } from './walltimes'

/** A bounded slowdown above this counts as extreme (the thesis's 0.1 % problem; docs/PREDICTIONS.md §Time limits). */
export const WHATIF_EXTREME_BSLD = 1000

/** The scenarios, in the order they are shown. */
export declare const WHATIF_SCENARIOS: readonly WhatIfScenario[]

/** The simulator configuration of one scenario: FCFS, backfill 'same', no threshold, its prediction. */
export declare function whatIfConfig(scenario: WhatIfScenario): SimConfig

/** The outcome of one scenario from its schedule; `today` is the requested scenario's outcome (null for itself). */
export declare function whatIfOutcome(scenario: WhatIfScenario, jobs: SimJobs, start: Float64Array, sim: { readonly predictions: Float64Array; readonly corrections: number }, tau: number, today: WhatIfOutcome | null): WhatIfOutcome

/** An outcome that could not be computed, with the reason in words. */
export declare function whatIfFailed(scenario: WhatIfScenario, error: string): WhatIfOutcome

/** Every scenario (or those named) on the whole log, synchronously. */
export declare function runWalltimesWhatIf(jobs: SimJobs & { readonly user: Int32Array }, machineProcs: number, options?: { readonly tau?: number; readonly scenarios?: readonly WhatIfScenario['id'][] }): WalltimesWhatIf
