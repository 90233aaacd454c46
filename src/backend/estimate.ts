// How long a campaign will take, before it starts (the wizard shows it next to the Run button).
//
// seconds ≈ Σ over cells (week samples × average jobs per week of the cell's part)
//           × seconds per simulated job × POLICY_FACTOR / parallelSpeedup(workers)
//           + reading the log + worker set-up.
//
// Seconds per simulated job is MEASURED on this machine at import: the EASY-FCFS simulation of
// the whole log that the Inspect step needs anyway is timed (twice, keeping the faster run, so
// the JIT's warm-up does not count). A campaign simulates the same jobs week by week, under
// every candidate order; POLICY_FACTOR covers what FCFS does not: dynamic orders (LEXP, SEXP are
// ~1.5× FCFS) and the per-week metrics, and what a week gains over the whole log: each starts
// from an empty machine, so its queue stays short and a job costs less than in the whole-log run
// (the more so the emptier the machine: LLNL-Atlas). It was calibrated on three real logs
// (docs/PERFORMANCE.md, 2026-11-25): campaign cost per job ÷ whole-log FCFS cost per job was
// 0.43–1.4, geometric mean ≈ 0.8; the earlier 1.25 made every estimate about 1.6× too long. Two
// workers run 1.65–1.75× as fast as one on this machine kind, not 2× (PARALLEL_EFFICIENCY). For
// logs too small to time reliably (< 5,000 jobs) the KTH constant is used instead of the measurement.
import { campaignCells, type Candidate } from '../core/tune/campaign'
import { dataProblem } from '../core/tune/prepare'
import { WEEK } from '../core/tune/resample'
import { partWeeks, splitWorkload, type Split } from '../core/tune/split'
import type { JobTable } from '../core/workload/types'
import { defaultWorkerCount } from '../engine/pool'
import type { CampaignEstimate, CampaignRequest, SplitPreview } from '../shared/api'
import { ApiInputError } from '../shared/errors'
import { campaignSpec } from './campaigns'

export const POLICY_FACTOR = 0.8
/** What each worker beyond the first adds to the speed (2 workers: 1.7×; docs/PERFORMANCE.md). */
export const PARALLEL_EFFICIENCY = 0.7
/** Seconds per simulated job measured on KTH-SP2 (campaign rate on this project's machine kind). */
export const KTH_SECONDS_PER_JOB = 0.45e-6
const MIN_TIMED_JOBS = 5000
/** Starting a worker and reading the log in it, beyond the measured read time. */
export const WORKER_START_SECONDS = 0.3

/** How many times faster than one worker `workers` workers run `cells` cells (never more workers than cells). */
export function parallelSpeedup(workers: number, cells: number): number {
  const n = Math.max(1, Math.min(workers, cells))
  return 1 + (n - 1) * PARALLEL_EFFICIENCY
}

/** Seconds per simulated job from a timed whole-log simulation. */
export function secondsPerJob(jobs: number, simSeconds: number): number {
  if (jobs < MIN_TIMED_JOBS || !(simSeconds > 0)) return KTH_SECONDS_PER_JOB
  return Math.min(Math.max(simSeconds / jobs, KTH_SECONDS_PER_JOB / 4), KTH_SECONDS_PER_JOB * 20)
}

export function split(jobs: JobTable, machineProcs: number, spec: CampaignRequest['split']): Split {
  try {
    return splitWorkload(jobs, machineProcs, spec)
  } catch (e) {
    throw new ApiInputError((e as Error).message)
  }
}

/** Full weeks of a part (src/core/tune/split.ts partWeeks: under compat 'ocst', without the first and last). */
function fullWeeks(part: JobTable, compat: CampaignRequest['compat'] = 'none'): number {
  return partWeeks(part, compat).full
}

export function previewSplit(jobs: JobTable, machineProcs: number, spec: CampaignRequest['split'], unixStartTime: number | null): SplitPreview {
  const s = split(jobs, machineProcs, spec)
  const part = (p: JobTable, st: Split['trainStats']) => ({ jobs: st.jobs, seconds: st.seconds, load: st.load, originalWeeks: fullWeeks(p) })
  return {
    at: s.at,
    atIso: unixStartTime === null ? null : new Date((unixStartTime + s.at) * 1000).toISOString(),
    train: part(s.train, s.trainStats),
    test: part(s.test, s.testStats),
  }
}

export interface CostInput {
  jobs: JobTable
  machineProcs: number
  /** Measured seconds per simulated job (secondsPerJob). */
  perJob: number
  /** Seconds it took to read the log (each worker reads it again). */
  readSeconds: number
}

/** The machine a campaign runs on, as the estimate needs it (none: the single pool). */
export interface EstimateMachine {
  /** Slurm's own scheduling (else the research's EASY on nodes). */
  slurm: boolean
  /** The site's own settings as candidates (our slurm.conf as it runs today): the one-setting changes. */
  family: Candidate[]
  /** Train cells the search of the site's settings evaluates at most (0: none). */
  searchBudget: number
}

export function estimateCampaign(c: CostInput, req: CampaignRequest, machine?: EstimateMachine): CampaignEstimate {
  // The same words as `easytune evaluate`'s exit 2: the wizard disables Start with them.
  const problem = dataProblem(c.jobs, c.machineProcs, req.split)
  if (problem) throw new ApiInputError(problem)
  const s = split(c.jobs, c.machineProcs, req.split)
  const parts = { train: s.train, test: s.test }
  const perPart = {} as Record<'train' | 'test', { samples: number; realWeeks: number; jobsPerWeek: number }>
  for (const name of ['train', 'test'] as const) {
    const p = parts[name]
    const grid = partWeeks(p, req.compat)
    const W = grid.full
    if (W < 1) throw new ApiInputError(`the ${name} part spans less than one full week${req.compat === 'ocst' ? ' once its first and last partial weeks are dropped (compat ocst)' : ''}: move the split so that both parts have at least a week`)
    const span = p.submit[p.count - 1] - p.submit[0]
    perPart[name] = { samples: req.resample.method === 'none' ? grid.count : req.resample.weeks, realWeeks: grid.count, jobsPerWeek: (p.count * WEEK) / Math.max(span, WEEK) }
  }
  // The cells evaluate runs (src/engine/evaluate.ts campaignOf): with the site's configuration, its
  // one-setting changes too, and before them up to the search's budget of train cells.
  const spec = campaignSpec(req)
  const cells = campaignCells(machine && machine.family.length ? { ...spec, candidates: [...spec.candidates, ...machine.family] } : spec)
  let weekSimulations = 0, jobSimulations = 0
  for (const cell of cells) {
    const p = perPart[cell.part]
    const n = cell.samples === 'real' ? p.realWeeks : p.samples
    weekSimulations += n
    jobSimulations += n * p.jobsPerWeek
  }
  const search = machine?.searchBudget ?? 0
  weekSimulations += search * perPart.train.samples
  jobSimulations += search * perPart.train.samples * perPart.train.jobsPerWeek
  const workers = req.workers ?? defaultWorkerCount()
  const seconds = (jobSimulations * c.perJob * POLICY_FACTOR) / parallelSpeedup(workers, cells.length) + c.readSeconds + WORKER_START_SECONDS
  const notes: string[] = []
  if (machine) {
    notes.push(machine.slurm
      ? 'The time per job was measured with the research\'s simulator on one pool of processors: Slurm\'s own scheduling on your nodes costs several times more per job (6 to 80 times in our measurements, the more the larger the machine and its queue), so expect this run to take much longer than shown'
      : 'The time per job was measured with the research\'s simulator on one pool of processors: on your nodes each job costs about 3 to 13 times more, so expect this run to take longer than shown')
  }
  if (search > 0) notes.push(`It includes up to ${search} training cells for the search of your Slurm settings, before the campaign`)
  return { cells: cells.length + search, weekSimulations, seconds, workers, note: notes.length ? `${notes.join('. ')}.` : null }
}
