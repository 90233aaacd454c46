// The evaluation protocol end to end (issue #3): read the log, split it, run every cell of the
// campaign on the engine (workers + cache), select within the risk limit, calibrate against the
// recorded waits, and build the versioned result document. Used by the CLI, and later by the
// desktop app and the browser mode.
import { DEFAULTS } from '../core/defaults'
import { campaignCells, cellKey, cellOf, isBaseline, settingsCandidate, BASELINE, type CampaignSpec, type CellResult, type CellSpec } from '../core/tune/campaign'
import { searchedSettings, slurmSearchSteps, type SlurmSearchRecord } from '../core/cluster/slurm-search'
import { dataProblem, prepare, type Prepared } from '../core/tune/prepare'
import { buildResult, withAsDeployed, withImpact, type AsDeployed, type EvaluationResult, type WaitStage } from '../core/tune/result'
import { recommendationImpact } from '../core/tune/impact'
import { summarize, type PartData, type Selection, type VerdictOptions } from '../core/tune/select'
import { baselineFidelity, campaignMachine, clusterJobs, describeMachine, machineSummary, MachineInputError, type MachineInputs } from '../core/cluster/model'
import type { Candidate, CellMachine } from '../core/tune/campaign'
import { EVERY_FACTOR, factorSpread, slurmChangeLabel, slurmFamily, type FactorSpread } from '../core/cluster/slurm-family'
import type { Compat } from '../core/sim/types'
import type { ImportOptions, Workload } from '../core/workload/import'
import { readLogs } from '../node/read-log'
import type { UnitResult, WorkloadSetup, WorkUnit } from './protocol'
import { trace } from './trace'

export const GENERATOR = 'easytune 0.1.0'

export interface EvaluateRequest {
  logPath: string
  /** Several files read as one log (see WorkloadSetup.logPaths). */
  logPaths?: string[]
  importOptions: ImportOptions
  spec: CampaignSpec
  /** The verdict's settings (risk limit, criterion, confidence, minimum gain and weeks). */
  verdict: VerdictOptions
  /** The machine inputs (docs/CLUSTER.md §Inputs); absent: inferred from the log, or the single pool. */
  machine?: MachineInputs
}

/** Runs cells somewhere (the worker pool, or in this process) and returns results by cellKey.
 * `phase`: what the cells are for — the search of the site's Slurm settings (several small runs
 * first), the campaign, or the recommendation as deployed (a last run); absent = the campaign. */
export type CellRunner = (setup: WorkloadSetup, cells: CellSpec[], phase?: RunPhase) => Promise<Map<string, CellResult>>
export type RunPhase = 'search' | 'campaign' | 'deployed'

/** The evaluation's whole-log work besides the cells (the baseline's fidelity, the impact): in an
 * engine worker (EnginePool.side()), so that neither the CLI's nor the app's back end thread (Electron's
 * main process) simulates; absent = in this process (tests, merges of sharded campaigns). */
export interface SideRunner {
  run<U extends SideUnit>(unit: U): Promise<UnitResult<U>>
  close(): Promise<void>
}
export type SideUnit = Extract<WorkUnit, { kind: 'baseline-fidelity' | 'impact' }>
export type SideRunnerFactory = (setup: WorkloadSetup) => SideRunner

export interface Evaluation {
  result: EvaluationResult
  workload: Workload
}

export async function evaluate(req: EvaluateRequest, runCells: CellRunner, sha256: string, workload?: Workload, side?: SideRunnerFactory, onWait?: (stage: WaitStage) => void): Promise<Evaluation> {
  const w = workload ?? (await readLogs(req.logPaths ?? [req.logPath], req.importOptions))
  trace('evaluate: start')
  const campaign = campaignOf(req, w)
  const { compat, machine, prepared, setup } = campaign
  trace('evaluate: prepared')
  // The whole-log work (the baseline's fidelity, then the impact) on one more worker, which reads
  // the log without cutting weeks; or in this process without a factory.
  const sideRunner: SideRunner = side ? side({ ...setup, prepare: false }) : localSide(w, prepared.split, machine, compat)
  try {
    return await evaluateWith(req, runCells, sha256, w, campaign, sideRunner, onWait)
  } finally {
    await sideRunner.close()
  }
}

async function evaluateWith(req: EvaluateRequest, runCells: CellRunner, sha256: string, w: Workload, c: CampaignOf, side: SideRunner, onWait?: (stage: WaitStage) => void): Promise<Evaluation> {
  const { machine, prepared, setup } = c
  // While the workers compute, the baseline on the whole log, compared with the recorded history
  // (docs/CLUSTER.md §Fidelity).
  const calibrating = side.run({ kind: 'baseline-fidelity' })
  // Awaited later: a cancel that rejects it meanwhile must not count as an unhandled rejection.
  calibrating.catch(() => {})
  let calibrated = false
  calibrating.then(() => { calibrated = true }, () => {})
  // A failed or cancelled campaign throws at once: evaluate() then closes the side worker, which stops it.
  const { spec, cells, results, search } = await runCampaign(c, runCells)
  trace('evaluate: campaign cells back')
  if (!calibrated) onWait?.('fidelity')
  const calibration = await calibrating
  trace('evaluate: calibration done')
  const data = {
    train: { weeks: prepared.trainReal.originalWeeks, jobs: prepared.split.trainStats.jobs },
    test: { weeks: prepared.testReal.originalWeeks, jobs: prepared.split.testStats.jobs },
  }
  const selection = summarize(spec, results, req.verdict, spec.resample.seed, data)
  trace('evaluate: selection done')
  const result = buildResult({
    generator: GENERATOR, sha256, report: w.report, machineProcs: w.machineProcs, unixStartTime: w.unixStartTime,
    spec, selection, results,
    cellKeyOf: (c, part) => cellKey({ part, candidate: c.baseline ? BASELINE : c.candidate, threshold: c.baseline ? null : c.threshold }),
    split: { at: prepared.split.at, train: prepared.split.trainStats, test: prepared.split.testStats },
    weeks: { trainOriginal: prepared.train.originalWeeks, testOriginal: prepared.test.originalWeeks, train: prepared.train.count, test: prepared.test.count },
    calibration, cells: cells.length, maxRequestedSeconds: maxRequested(w.jobs.requested, w.jobs.count), slurmSearch: search,
    machine: machineSummary(machine?.model ?? null, w.machineProcs, w.report.machine.source),
  })
  // The exported configuration itself, simulated under Slurm's scheduling (docs/CLUSTER.md §As deployed):
  // its workers start now and this process computes the impact meanwhile, instead of before
  // starting them (docs/PERFORMANCE.md §The pool at full speed).
  const deploying = deployedFigures(req, setup, selection, data, runCells, machine, w.machineProcs)
  deploying.catch(() => {}) // awaited below, after the impact (see calibrating)
  // Who gains, who loses (docs/IMPACT.md): two simulations of each part's real weeks; none without
  // a recommendation. The sentence then names the groups beyond the risk ratio.
  const recommended = selection.recommended === null ? null : selection.candidates[selection.recommended]
  let impact: ReturnType<typeof recommendationImpact>
  if (recommended !== null) onWait?.('impact')
  try {
    impact = recommended === null ? null : await side.run({ kind: 'impact', recommended: { candidate: recommended.candidate, threshold: recommended.threshold }, maxWaitRatio: req.verdict.risk.maxWaitRatio })
  } catch (e) {
    await deploying.catch(() => {})
    throw e
  }
  trace('evaluate: impact done')
  const asDeployed = await deploying
  trace('evaluate: as deployed done')
  return { result: withAsDeployed(withImpact(result, impact), asDeployed), workload: w }
}

/** What a campaign runs, decided before anything runs: the spec (with the site's Slurm settings
 * as candidates under --current-conf), the machine, the prepared weeks, the cells and the workers'
 * setup. evaluate() runs exactly these cells; a sharded campaign plans them (engine/shards.ts). */
export interface CampaignOf {
  spec: CampaignSpec
  compat: Compat
  machine: CellMachine | undefined
  prepared: ReturnType<typeof prepare>
  cells: CellSpec[]
  setup: WorkloadSetup
  /** Points the search of the site's settings evaluates before the campaign (siteSettings); 0 = none. */
  searchBudget: number
  /** Which priority factors differ between the log's jobs (siteSettings): the search moves only those weights. */
  spread: FactorSpread
}

export function campaignOf(req: EvaluateRequest, w: Workload): CampaignOf {
  if (w.jobs.count === 0) throw new EvaluationError(`${w.name}: no job is left after cleaning, nothing to evaluate. ${w.report.warnings.join(' ')}`)
  let spec = req.spec
  const compat = spec.compat ?? DEFAULTS.compat.value
  // Enough data, decided up front and independent of --weeks (docs/STATISTICS.md §Enough data).
  const problem = dataProblem(w.jobs, w.machineProcs, spec.split)
  if (problem) throw new InsufficientDataError(problem)
  // The machine (docs/CLUSTER.md): the same inputs give the same model here and in every worker.
  const machine = campaignMachine(req.machine, w)
  if (machine && compat !== 'none') throw new MachineInputError(`--compat ${compat} is the research's single-pool rule; it cannot run on a machine of nodes and partitions (${describeMachine(machine.model)})`)
  // With the configuration that runs today, Slurm's own settings are candidates too: one change
  // each from their current values (docs/CLUSTER.md §Site settings as candidates).
  const site = siteSettings(machine, spec, w)
  if (site.family.length) spec = { ...spec, candidates: [...spec.candidates, ...site.family] }
  const prepared = prepare(w.jobs, w.machineProcs, spec.split, spec.resample, compat)
  const cells = campaignCells(spec)
  const setup: WorkloadSetup = { logPath: req.logPath, ...(req.logPaths ? { logPaths: req.logPaths } : {}), importOptions: req.importOptions, split: spec.split, resample: spec.resample, tau: spec.tau, ...(compat === 'none' ? {} : { compat }), ...(req.machine ? { machine: req.machine } : {}) }
  return { spec, compat, machine, prepared, cells, setup, searchBudget: site.searchBudget, spread: site.spread }
}

/** What the site's own configuration adds to a campaign (evaluate --current-conf under Slurm's
 * scheduling; nothing otherwise): its one-setting changes as candidates, and the budget of the
 * search of several at once (0 also when no setting acts: it would only score today's
 * configuration, the baseline's own cell). A weight whose factor is the same for every job of the
 * log (a QOS weight on a log without QOS) acts on nothing and is left out of both. The run-time
 * estimate and the job-array plan read the same. */
export function siteSettings(machine: CellMachine | undefined, spec: Pick<CampaignSpec, 'slurmSearch'>, w: Workload): { family: Candidate[]; searchBudget: number; spread: FactorSpread } {
  const m = machine?.model
  if (!m?.current || m.scheduler !== 'slurm') return { family: [], searchBudget: 0, spread: EVERY_FACTOR }
  const spread = factorSpread(m.scheduling, m.cluster, clusterJobs(m, w.jobs), m.names.qosNames)
  return {
    family: slurmFamily(m.scheduling, spread).map(settingsCandidate),
    searchBudget: searchedSettings(m.scheduling, spread).length === 0 ? 0 : spec.slurmSearch?.budget ?? DEFAULTS.slurmSearch.value,
    spread,
  }
}

/**
 * The campaign's cells, after the search of the site's own settings when it applies: the search's
 * points are train cells of the campaign's own kind (cached like them), its best change joins the
 * candidates (unless the one-setting grid has it already), and the campaign then computes only the
 * cells the search did not. Results in campaign cell order.
 */
async function runCampaign(c: CampaignOf, runCells: CellRunner): Promise<{ spec: CampaignSpec; cells: CellSpec[]; results: Map<string, CellResult>; search: SlurmSearchRecord | null }> {
  let { spec, cells } = c
  const searched = new Map<string, CellResult>()
  let search: SlurmSearchRecord | null = null
  const budget = c.searchBudget
  if (budget > 0) {
    const objective = spec.objective
    const steps = slurmSearchSteps(c.machine!.model.scheduling, { budget, seed: spec.resample.seed }, c.spread)
    let st = steps.next(undefined as unknown as number[])
    while (!st.done) {
      const batch = st.value.map((change) => cellOf('train', change === null ? BASELINE : settingsCandidate(change), null))
      const got = await runCells(c.setup, batch, 'search')
      batch.forEach((cell) => searched.set(cellKey(cell), got.get(cellKey(cell))!))
      st = steps.next(batch.map((cell) => weightedMean(got.get(cellKey(cell))!, objective)))
    }
    search = st.value
    const best = search.best
    if (best !== null && !spec.candidates.some((x) => x.slurm && slurmChangeLabel(x.slurm) === slurmChangeLabel(best))) {
      spec = { ...spec, candidates: [...spec.candidates, settingsCandidate(best)] }
      cells = campaignCells(spec)
    }
  }
  const ran = await runCells(c.setup, cells.filter((x) => !searched.has(cellKey(x))), 'campaign')
  const results = new Map<string, CellResult>()
  for (const x of cells) {
    const k = cellKey(x)
    const r = searched.get(k) ?? ran.get(k)
    if (r) results.set(k, r)
  }
  return { spec, cells, results, search }
}

/** A cell's objective over its samples, each weighted by its week length (as trainObjective). */
function weightedMean(r: CellResult, objective: CampaignSpec['objective']): number {
  const v = objective === 'avgWait' ? r.avgWait : r.avgBsld
  let sum = 0, total = 0
  for (let k = 0; k < v.length; k++) { const w = r.weight ? r.weight[k] : 1; sum += w * v[k]; total += w }
  return total > 0 ? sum / total : 0
}

/** Most one-CPU nodes a log without nodes is simulated on under Slurm's scheduling for the
 * as-deployed figures (docs/CLUSTER.md §As deployed): the cost grows with the nodes (docs/PERFORMANCE.md). */
export const MAX_POOL_NODES = 20_000

/** The side work in this process, on the workload and split evaluate already has. */
function localSide(w: Workload, split: Prepared['split'], machine: CellMachine | undefined, compat: Compat): SideRunner {
  return {
    run: async <U extends SideUnit>(u: U): Promise<UnitResult<U>> => (u.kind === 'baseline-fidelity' ? baselineFidelity(w, machine, compat)
      : recommendationImpact(split, w.machineProcs, u.recommended, w, u.maxWaitRatio, compat === 'none' ? {} : { compat }, machine)) as UnitResult<U>,
    close: () => Promise.resolve(),
  }
}

/**
 * The recommendation (the baseline for keep) as Slurm runs it once exported: when the campaign
 * already ran under Slurm's scheduling these are its own figures; otherwise its cells and the
 * baseline's run again on the same machine under Slurm's scheduling (a log without nodes: its
 * processors as one-CPU nodes), gains against that baseline.
 */
async function deployedFigures(req: EvaluateRequest, setup: WorkloadSetup, selection: Selection, data: { train: PartData; test: PartData }, runCells: CellRunner, machine: CellMachine | undefined, procs: number): Promise<AsDeployed | string | null> {
  if (selection.recommended === null) return null
  const rec = selection.candidates[selection.recommended]
  if (machine?.model.scheduler === 'slurm') return { label: rec.label, train: rec.train, test: rec.test, same: true, differs: false }
  if (machine === undefined && procs > MAX_POOL_NODES) return `not simulated: the log names no nodes, and its ${procs.toLocaleString('en-US')} processors as one-CPU nodes are more than the ${MAX_POOL_NODES.toLocaleString('en-US')} this run simulates under Slurm's scheduling in reasonable time; a cluster file (slurm.conf or scontrol output) given to the evaluation gets the figure`
  // The real weeks only (resampling 'none'): the verdict's evidence is there, and Slurm's
  // scheduling costs more than EASY's (docs/PERFORMANCE.md).
  const resample = { method: 'none' as const, weeks: 1, seed: req.spec.resample.seed }
  // Slurm backfills in its priority order: only the primary order deploys. A recommendation that
  // differs from EASY-FCFS in its backfill order alone (FCFS then SPF, say) deploys as EASY-FCFS.
  const deployed: Candidate = { primary: rec.candidate.primary, backfill: 'same' }
  const asBaseline = rec.baseline || isBaseline(deployed)
  const spec: CampaignSpec = {
    ...req.spec, preset: undefined, resample,
    candidates: asBaseline ? [] : [deployed],
    thresholds: asBaseline ? [null] : [rec.threshold],
  }
  const slurmSetup: WorkloadSetup = { ...setup, resample, machine: { ...(req.machine ?? {}), scheduler: 'slurm', poolAsNodes: true } }
  // The baseline's cells first: EASY-FCFS keeps the longest queues, so its cells cost the most
  // (on KTH-SP2 under Slurm's scheduling, 2.1 s of CPU each against 0.2 to 0.5 s for the recommended
  // order): started first, they do not finish alone at the end (docs/PERFORMANCE.md §The pool at full speed).
  const cells = campaignCells(spec)
  const results = await runCells(slurmSetup, [...cells.filter((c) => isBaseline(c.candidate)), ...cells.filter((c) => !isBaseline(c.candidate))], 'deployed')
  const s = summarize(spec, results, req.verdict, req.spec.resample.seed, data)
  const d = s.candidates[asBaseline ? 0 : 1]
  return { label: rec.label, train: d.train, test: d.test, same: false, differs: false }
}

/** The longest requested time among the jobs, seconds (export sizes bf_window from it); null if none. */
function maxRequested(requested: Float64Array, count: number): number | null {
  let m = -Infinity
  for (let i = 0; i < count; i++) if (requested[i] > m) m = requested[i]
  return Number.isFinite(m) && m > 0 ? m : null
}

/** The command ran but cannot give an answer (exit code 1). */
export class EvaluationError extends Error {}

/** The log is too short for the protocol, found before running anything (exit code 2). */
export class InsufficientDataError extends EvaluationError {}
