// A campaign is a grid of independent cells (docs/PROTOCOL.md §Campaign grid): every candidate
// (primary, backfill) pair × every threshold × every part (train, test), each simulated on all the
// part's resampled weeks from an empty machine until drained. A cell's result is the per-week
// metrics; everything else (relative gains, selection) is computed from them.
import { selectKth } from '../util/select'
import { simulate } from '../sim/easy'
import { clusterJobs, runOnMachine, type MachineModel } from '../cluster/model'
import type { DeployContext, DeployedOrder } from '../cluster/deploy-order'
import { slurmChangeLabel, type SlurmChange } from '../cluster/slurm-family'
import { computeMetrics } from '../sim/metrics'
import { policyLabel } from '../sim/policies'
import type { Compat, PolicySpec, SimConfig, SimOptions } from '../sim/types'
import { formatThreshold } from '../util/duration'
import { DEFAULTS } from '../defaults'
import type { ResampleSpec, WeekSamples } from './resample'
import type { SplitSpec } from './split'

export interface Candidate {
  primary: PolicySpec
  backfill: PolicySpec | 'same'
  /** A change of the site's own Slurm settings (evaluate --current-conf): the site's priority as
   * it is (primary FCFS), one setting changed. See docs/CLUSTER.md §Site settings as candidates. */
  slurm?: SlurmChange
}

export type Objective = 'avgWait' | 'avgBsld'
export type Part = 'train' | 'test'

export interface CampaignSpec {
  candidates: Candidate[]
  /** The preset the candidates came from, if any (recorded in the result's protocol). */
  preset?: PresetId
  /** Seconds, or null for no threshold. */
  thresholds: (number | null)[]
  split: SplitSpec
  resample: ResampleSpec
  objective: Objective
  tau: number
  /** 'ocst': the seeds' simulator's rules (its shadow-time rule, rule C13 on the weeks); absent =
   * DEFAULTS.compat ('none', EasyTune's own). docs/SIMULATOR.md §Shadow-time rules. */
  compat?: Compat
  /** The search of the site's own Slurm settings (evaluate --current-conf under Slurm's
   * scheduling; src/core/cluster/slurm-search.ts): points evaluated, 0 = off; absent =
   * DEFAULTS.slurmSearch. Ignored elsewhere. */
  slurmSearch?: { budget: number }
}

/** The thesis defaults: thresholds none, 20 h, 40 h and 200,000 s ([001] ch. 5–6, [004]); declared
 * with their reasons in core/defaults.ts. */
export const DEFAULT_THRESHOLDS: (number | null)[] = [...DEFAULTS.thresholds.value]
export const BASELINE: Candidate = { primary: 'FCFS', backfill: 'same' }
/** A change of the site's own Slurm settings as a candidate: the site's priority as it is (FCFS in
 * the research's terms, no threshold), with the change applied (docs/CLUSTER.md §Site settings as candidates). */
export const settingsCandidate = (slurm: SlurmChange): Candidate => ({ ...BASELINE, slurm })

/** The candidate presets (their lists: src/core/tune/presets.ts, which derives `slurm` from the
 * exporter; docs/PROTOCOL.md §Campaign grid). */
export const PRESET_IDS = ['slurm', 'ch5', 'ch6'] as const
export type PresetId = (typeof PRESET_IDS)[number]

/** Shown wherever a candidate set with a separate backfill order is shown (CLI help, wizard,
 * result protocol, report): Slurm's backfill walks its priority order. */
export const RESEARCH_GRID_NOTE = 'research grid: Slurm cannot backfill in another order'

/** RESEARCH_GRID_NOTE when some candidate backfills in an order of its own (even its primary's
 * policy: without the threshold's promotion, that is another order), else null. Reads the
 * protocol's labels too ({ primary, backfill } strings). */
export function candidateSetNote(candidates: readonly { backfill: unknown }[]): string | null {
  return candidates.some((c) => c.backfill !== 'same') ? RESEARCH_GRID_NOTE : null
}

export function candidateLabel(c: Candidate): string {
  if (c.slurm) return `Slurm ${slurmChangeLabel(c.slurm)}`
  return c.backfill === 'same' ? `EASY-${policyLabel(c.primary)}` : `EASY-${policyLabel(c.primary)}-${policyLabel(c.backfill)}`
}

export function configLabel(c: Candidate, threshold: number | null): string {
  if (c.slurm) return candidateLabel(c) // no threshold: the site's own priority runs
  return `${candidateLabel(c)} Θ=${formatThreshold(threshold)}`
}

/** One cell: a candidate under one threshold on every sample of one part. `samples: 'real'`
 * runs it on the part's real full weeks instead (consecutive weeks, each from an empty machine:
 * the 'none' resampling), the weeks the verdict's statistics bootstrap (docs/STATISTICS.md). */
export interface CellSpec {
  candidate: Candidate
  threshold: number | null
  part: Part
  /** Absent or 'resampled': the part's resampled weeks; 'real': its real full weeks. */
  samples?: 'resampled' | 'real'
}

/** Per-week metrics of one cell (index = sample number). */
export interface CellResult {
  avgWait: Float64Array
  maxWait: Float64Array
  avgBsld: Float64Array
  maxBsld: Float64Array
  jobs: Int32Array
  /** 99th-percentile wait of each week (seconds; nearest rank). Absent in results of older caches. */
  p99Wait?: Float64Array
  /** Each sample's week length as a fraction of 7 days (WeekSamples.weight); absent when every
   * sample is a full week (weight 1). */
  weight?: Float64Array
}

/** Runs one cell. Pure and deterministic: the same samples and spec give the same bytes. The
 * simulator runs under the compatibility mode the samples were cut under (samples.compat). */
/** The node-level machine of a campaign (docs/CLUSTER.md), absent for the single pool: the model,
 * what the export needs to deploy an order under Slurm's scheduling, and the deployed orders
 * read so far (one per candidate). */
export interface CellMachine {
  readonly model: MachineModel
  readonly deploy: Omit<DeployContext, 'conf' | 'base'>
  readonly deployed: Map<string, DeployedOrder>
}

export function runCell(samples: WeekSamples, machineProcs: number, cell: CellSpec, tau: number, onSample?: (k: number) => void, machine?: CellMachine): CellResult {
  const n = samples.count
  const r: CellResult = {
    avgWait: new Float64Array(n), maxWait: new Float64Array(n), avgBsld: new Float64Array(n), maxBsld: new Float64Array(n), jobs: new Int32Array(n),
    p99Wait: new Float64Array(n),
  }
  const weight = samples.weights()
  if (weight) r.weight = weight
  let waits = new Float64Array(0)
  const config: SimConfig = { primary: cell.candidate.primary, backfill: cell.candidate.backfill, threshold: cell.threshold }
  const options: SimOptions = samples.compat === 'none' ? { windowStart: 0 } : { windowStart: 0, compat: samples.compat }
  for (let k = 0; k < n; k++) {
    const week = samples.get(k)
    const start = machine === undefined ? simulate(week, machineProcs, config, options)
      : runOnMachine(machine.model, clusterJobs(machine.model, week), config, machine.deploy, { windowStart: 0 }, machine.deployed, cell.candidate.slurm).start
    const m = computeMetrics(week, machineProcs, start, tau, false)
    r.avgWait[k] = m.avgWait; r.maxWait[k] = m.maxWait; r.avgBsld[k] = m.avgBsld; r.maxBsld[k] = m.maxBsld; r.jobs[k] = m.jobs
    // The 99th percentile by selection (linear time) rather than the full sort computeMetrics
    // would do: campaign cells skip that sort for speed (docs/PERFORMANCE.md).
    if (waits.length < week.count) waits = new Float64Array(week.count)
    for (let j = 0; j < week.count; j++) waits[j] = start[j] - week.submit[j]
    r.p99Wait![k] = nearestRank(waits, week.count, 0.99)
    onSample?.(k)
  }
  return r
}

/** Nearest-rank q-quantile of a[0..n) (as metrics.percentile on sorted values), by quickselect; reorders a. */
export function nearestRank(a: Float64Array, n: number, q: number): number {
  if (n === 0) return 0
  const k = Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1))
  selectKth(a, 0, n - 1, k)
  return a[k]
}

/** Every cell of a campaign, baseline (EASY-FCFS, no threshold) first for each part: the
 * resampled cells, then the same on the part's real weeks (unless the resampling already is the
 * real weeks, 'none': then the resampled cells serve as the real ones). */
export function campaignCells(spec: CampaignSpec): CellSpec[] {
  const cells: CellSpec[] = []
  const kinds: ('resampled' | 'real')[] = spec.resample.method === 'none' ? ['resampled'] : ['resampled', 'real']
  for (const kind of kinds) {
    for (const part of ['train', 'test'] as Part[]) {
      const add = (c: CellSpec) => cells.push(kind === 'real' ? { ...c, samples: 'real' } : c)
      add({ candidate: BASELINE, threshold: null, part })
      for (const candidate of spec.candidates) {
        for (const threshold of thresholdsOf(candidate, spec.thresholds)) {
          if (isBaseline(candidate)) continue
          add({ candidate, threshold, part })
        }
      }
    }
  }
  return cells
}

/** The thresholds a candidate runs under: a Slurm settings change runs the site's own priority,
 * which the research's threshold is no part of: none only. */
export function thresholdsOf(c: Candidate, thresholds: readonly (number | null)[]): (number | null)[] {
  return c.slurm ? [null] : [...thresholds]
}

/** The cell of a candidate (the baseline under any threshold is the one baseline cell). */
export function cellOf(part: Part, candidate: Candidate, threshold: number | null, samples: 'resampled' | 'real' = 'resampled'): CellSpec {
  const bl = isBaseline(candidate)
  const c: CellSpec = { part, candidate: bl ? BASELINE : candidate, threshold: bl ? null : threshold }
  return samples === 'real' ? { ...c, samples } : c
}

/** The key of a candidate's real-week cell: its resampled cell when the resampling is 'none'. */
export function realCellKey(spec: CampaignSpec, part: Part, candidate: Candidate, threshold: number | null): string {
  return cellKey(cellOf(part, candidate, threshold, spec.resample.method === 'none' ? 'resampled' : 'real'))
}

/** EASY-FCFS(-FCFS), under any threshold: promoted jobs are ordered by submit anyway, so the
 * threshold cannot change it and it is simulated once. */
export function isBaseline(c: Candidate): boolean {
  const p = typeof c.primary === 'string' ? policyLabel(c.primary) : ''
  const b = c.backfill === 'same' ? p : typeof c.backfill === 'string' ? policyLabel(c.backfill) : ''
  return p === 'FCFS' && b === 'FCFS' && c.slurm === undefined
}

/** A stable text key for a cell (for caches and result maps). Resampled cells keep the key they
 * always had (caches and fixtures stay valid); real-week cells add 'real'. */
export function cellKey(cell: CellSpec): string {
  // A Slurm settings change is part of the key only when there is one (older keys stay valid).
  const base: unknown[] = [cell.part, cell.candidate.primary, cell.candidate.backfill, cell.threshold, ...(cell.candidate.slurm ? [cell.candidate.slurm] : [])]
  return JSON.stringify(cell.samples === 'real' ? [...base, 'real'] : base)
}
