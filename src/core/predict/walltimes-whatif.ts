// The what-if of the time limits (docs/PREDICTIONS.md §Time limits): the site's order, EASY-FCFS
// without threshold, replayed on the whole log with today's limits (the requested times), with
// exact limits (clairvoyant), with learned predictions (the thesis's selected triple: E-Loss +
// incremental + SJBF), with EASY++ (AVE₂ + incremental + SJBF) and with the triple the prediction
// campaign selects on the thesis's logs (campaign.ts CAMPAIGN_CHOICE). The callers run each scenario's
// EasySimulator (the CLI in slices with progress and Ctrl-C); runWalltimesWhatIf runs them all in one go.
import { DEFAULTS } from '../defaults'
import { EasySimulator, SimulationError } from '../sim/easy'
import { computeMetrics } from '../sim/metrics'
import type { SimConfig, SimJobs } from '../sim/types'
import { PredictionConfigError } from './predictors'
import type { WalltimesCampaign, WalltimesWhatIf, WhatIfId, WhatIfOutcome, WhatIfScenario } from './walltimes'
import { CAMPAIGN_CHOICE, DEFAULT_CAMPAIGN_OPTIONS, findTriple, tripleConfig } from './campaign'

const CHOSEN = findTriple(CAMPAIGN_CHOICE.triple)!

/** The scenarios, in the order they are shown; `requested` (today) comes first: the others are compared with it. */
export const WHATIF_SCENARIOS: readonly WhatIfScenario[] = [
  { id: 'requested', label: 'Today\'s limits', explain: 'EASY-FCFS planning with the time limits the users asked for (what the site runs)',
    prediction: { predictor: { id: 'requested' }, correction: 'none' } },
  { id: 'clairvoyant', label: 'Exact limits', explain: 'EASY-FCFS planning with each job\'s actual runtime as its limit: perfect limits (not always shorter waits: with exact limits the backfilling picks other jobs)',
    prediction: { predictor: { id: 'clairvoyant' }, correction: 'none' } },
  { id: 'eloss', label: 'Learned predictions', explain: 'the thesis\'s selected triple: the regression learned online under the E-Loss, incremental corrections, shortest-predicted-first backfilling (SJBF)',
    prediction: { predictor: { id: 'eloss' }, correction: 'incremental', sjbf: true } },
  { id: 'easy++', label: 'EASY++', explain: 'the mean of the user\'s last two runtimes (AVE₂), incremental corrections, shortest-predicted-first backfilling (SJBF)',
    prediction: { predictor: { id: 'ave2' }, correction: 'incremental', sjbf: true } },
  { id: 'campaign', label: 'Campaign\'s choice', explain: `the triple the prediction campaign selects by leave-one-out on the thesis's logs (${CAMPAIGN_CHOICE.logs.join(', ')}): every fold chose it without the log it held out, so it was chosen on other logs than this one: ${CHOSEN.label}`,
    prediction: tripleConfig(CHOSEN, DEFAULT_CAMPAIGN_OPTIONS).prediction! },
]

/** The report's `campaign`: the selected triple, the logs it was selected on, and its outcome on
 * this log when the what-if ran it. */
export function campaignOf(whatIf: WalltimesWhatIf | null): WalltimesCampaign {
  const scenario = findWhatIf('campaign')!
  return { label: CHOSEN.label, prediction: scenario.prediction, logs: [...CAMPAIGN_CHOICE.logs], outcome: whatIf?.outcomes.find((o) => o.id === 'campaign') ?? null }
}

export function findWhatIf(id: string): WhatIfScenario | undefined {
  return WHATIF_SCENARIOS.find((s) => s.id === id)
}

/** The simulator configuration of one scenario: FCFS, backfill 'same', no threshold, its prediction. */
export function whatIfConfig(scenario: WhatIfScenario): SimConfig {
  return { primary: 'FCFS', backfill: 'same', threshold: null, prediction: scenario.prediction }
}

/** The outcome of one scenario from its schedule; `today` is the requested scenario's outcome (null for itself). */
export function whatIfOutcome(scenario: WhatIfScenario, jobs: SimJobs, machineProcs: number, start: Float64Array, sim: { readonly predictions: Float64Array; readonly corrections: number }, tau: number, today: WhatIfOutcome | null): WhatIfOutcome {
  const m = computeMetrics(jobs, machineProcs, start, tau, false)
  let err = 0
  for (let j = 0; j < jobs.count; j++) err += Math.abs(sim.predictions[j] - jobs.runtime[j])
  const vs = (v: number, base: number | null | undefined) => today === null ? (scenario.id === 'requested' ? 1 : null) : base !== null && base !== undefined && base > 0 ? v / base : null
  return {
    id: scenario.id, label: scenario.label, prediction: scenario.prediction,
    avgWait: m.avgWait, avgBsld: m.avgBsld, maxBsld: m.maxBsld,
    mae: jobs.count > 0 ? err / jobs.count : 0, corrections: sim.corrections,
    waitVsToday: vs(m.avgWait, today?.avgWait), bsldVsToday: vs(m.avgBsld, today?.avgBsld), error: null,
  }
}

/** An outcome that could not be computed, with the reason in words. */
export function whatIfFailed(scenario: WhatIfScenario, error: string): WhatIfOutcome {
  return { id: scenario.id, label: scenario.label, prediction: scenario.prediction, avgWait: null, avgBsld: null, maxBsld: null, mae: null, corrections: null, waitVsToday: null, bsldVsToday: null, error }
}

/** Builds one scenario's simulator, or says in words why it cannot run (a predictor not available,
 * a configuration refused): the what-if then shows the others. Other errors are thrown. */
export function whatIfSimulator(scenario: WhatIfScenario, jobs: SimJobs & { readonly user: Int32Array }, machineProcs: number, options: ConstructorParameters<typeof EasySimulator>[3] = {}): EasySimulator | string {
  try {
    return new EasySimulator(jobs, machineProcs, whatIfConfig(scenario), options)
  } catch (e) {
    if (e instanceof PredictionConfigError || e instanceof SimulationError || (e instanceof Error && /not (yet )?(available|implemented)/i.test(e.message))) return e.message
    throw e
  }
}

/** The what-if from the outcomes in scenario order. */
export function whatIfReport(jobs: SimJobs, machineProcs: number, tau: number, outcomes: readonly WhatIfOutcome[]): WalltimesWhatIf {
  return { order: 'EASY-FCFS', machineProcs, tau, jobs: jobs.count, outcomes }
}

/** Every scenario (or those named, today's always first) on the whole log, synchronously. */
export function runWalltimesWhatIf(jobs: SimJobs & { readonly user: Int32Array }, machineProcs: number, options: { readonly tau?: number; readonly scenarios?: readonly WhatIfId[] } = {}): WalltimesWhatIf {
  const tau = options.tau ?? DEFAULTS.tau.value
  const wanted = options.scenarios
  let today: WhatIfOutcome | null = null
  const outcomes: WhatIfOutcome[] = []
  for (const s of WHATIF_SCENARIOS) {
    if (wanted !== undefined && s.id !== 'requested' && !wanted.includes(s.id)) continue
    const sim = whatIfSimulator(s, jobs, machineProcs)
    if (typeof sim === 'string') { outcomes.push(whatIfFailed(s, sim)); continue }
    try {
      sim.runUntil(Infinity)
    } catch (e) {
      if (e instanceof Error && /not (yet )?(available|implemented)/i.test(e.message)) { outcomes.push(whatIfFailed(s, e.message)); continue }
      throw e
    }
    const o = whatIfOutcome(s, jobs, machineProcs, sim.start, sim, tau, today)
    if (s.id === 'requested') today = o
    outcomes.push(o)
  }
  return whatIfReport(jobs, machineProcs, tau, outcomes)
}
