// Who gains and who loses (issue #19 item 4, docs/IMPACT.md): the recommendation versus the
// baseline, per group of jobs, on train and on test. Every job of a part is simulated once under
// each order, in its real week from an empty machine (the 7-day windows of resample.ts, the
// trailing partial week included so that no job is left out), and its two waits are paired: a
// group's figures are the mean and 95th percentile of its jobs' waits under each order.
import { simulate } from '../sim/easy'
import { percentile } from '../sim/metrics'
import type { SimConfig, SimJobs, SimOptions } from '../sim/types'
import { DEFAULTS } from '../defaults'
import { BASELINE, type CellMachine } from './campaign'
import { clusterJobs, runOnMachine } from '../cluster/model'
import type { SlurmChange } from '../cluster/slurm-family'
import { sliceJobs } from './split'
import type { JobTable } from '../workload/types'
import { WEEK } from './resample'

/** One group of jobs (a size class, a requested-time class, an account or a user) and its waits
 * under the baseline and under the recommendation, seconds. */
export interface ImpactGroup {
  /** What the group is, in words ("1 processor", "2–4 processors", "≤ 1 h requested", an account). */
  label: string
  jobs: number
  baselineMeanWait: number
  meanWait: number
  baselineP95Wait: number
  p95Wait: number
  /** meanWait / baselineMeanWait; 1 when both are 0; null when the baseline's mean is 0 and the
   * recommendation's is not (no finite ratio: JSON has no Infinity, so it is never written as one). */
  meanRatio: number | null
}

export interface PartImpact {
  /** Jobs by processors requested: 1, 2–4, 5–16, … (power-of-four classes up to the machine
   * size); classes without jobs are left out. */
  bySize: ImpactGroup[]
  /** Jobs by requested time: ≤ 1 h, 1–4 h, 4–12 h, 12–24 h, > 24 h; classes without jobs left out. */
  byRequested: ImpactGroup[]
  /** The accounts (or users, when the log has no accounts) with at least `DEFAULTS.impact.minJobs`
   * jobs in the part whose total wait grows most, largest first, at most `DEFAULTS.impact.topAccounts`;
   * then any other account whose mean wait rises beyond the risk ratio (so the verdict never names
   * a group this list hides). Names as the log has them. */
  byAccount: ImpactGroup[]
  /** Which of the two the log has: 'account' or 'user'. */
  accountKind: 'account' | 'user'
}

export interface Impact {
  train: PartImpact
  test: PartImpact
  /** Groups whose mean wait rises by more than the risk ratio (protocol.risk.maxWaitRatio) on
   * train or test: the verdict names them. Only groups of at least `DEFAULTS.impact.minJobs` jobs
   * whose mean wait also rises by at least `DEFAULTS.impact.minRise` seconds; empty without a
   * risk limit. meanRatio null = the baseline's mean wait was 0. */
  overRisk: { part: 'train' | 'test'; dimension: 'size' | 'requested' | 'account'; label: string; meanRatio: number | null; jobs: number }[]
}

/** The jobs of one part, as the impact reads them (a JobTable fits; `account` when the log has one). */
export interface ImpactJobs {
  readonly count: number
  readonly procs: Int32Array
  readonly requested: Float64Array
  readonly user: Int32Array
  readonly account?: Int32Array
}

/** Names of the owners: `accounts` when the log has an account column, `users` always. */
export interface OwnerNames {
  readonly users: readonly string[]
  readonly accounts?: readonly string[]
}

export interface ImpactOptions {
  /** The risk ratio (protocol.risk.maxWaitRatio); null = no limit, nothing is over risk. */
  maxWaitRatio: number | null
  minJobs?: number
  minRise?: number
  topAccounts?: number
}

const HOUR = 3600

/** Upper bounds of the size classes: 1, 4, 16, … (powers of four) below the machine size, then the
 * machine size itself. */
export function sizeClassBounds(machineProcs: number): number[] {
  const m = Math.max(1, Math.floor(machineProcs))
  const bounds: number[] = []
  for (let b = 1; b < m; b *= 4) bounds.push(b)
  bounds.push(m)
  return bounds
}

function sizeLabel(lo: number, hi: number): string {
  if (lo === hi) return `${hi} processor${hi === 1 ? '' : 's'}`
  return `${lo}–${hi} processors`
}

/** Upper bounds (seconds, inclusive) of the requested-time classes; the last class is open. */
export const REQUESTED_BOUNDS: readonly number[] = [1 * HOUR, 4 * HOUR, 12 * HOUR, 24 * HOUR]
const REQUESTED_LABELS = ['≤ 1 h requested', '1–4 h requested', '4–12 h requested', '12–24 h requested', '> 24 h requested']

/** Index of the first bound ≥ x (bounds ascending); bounds.length when x is above them all. */
function classOf(x: number, bounds: readonly number[]): number {
  let c = 0
  while (c < bounds.length && x > bounds[c]) c++
  return c
}

/** Per group: job count, summed waits and the group's waits sorted (for the percentiles). */
interface Groups {
  count: Int32Array
  sumBase: Float64Array
  sumRec: Float64Array
  /** CSR: group g's waits are [start[g], start[g + 1]) of base / rec, each range sorted. */
  start: Int32Array
  base: Float64Array
  rec: Float64Array
}

/** Groups the jobs by `key` (−1 = in no group) without allocating per job. */
function accumulate(n: number, groups: number, key: Int32Array, baseWait: Float64Array, recWait: Float64Array): Groups {
  const count = new Int32Array(groups), sumBase = new Float64Array(groups), sumRec = new Float64Array(groups)
  for (let j = 0; j < n; j++) {
    const g = key[j]
    if (g < 0) continue
    count[g]++
    sumBase[g] += baseWait[j]
    sumRec[g] += recWait[j]
  }
  const start = new Int32Array(groups + 1)
  for (let g = 0; g < groups; g++) start[g + 1] = start[g] + count[g]
  const fill = start.slice(0, groups)
  const base = new Float64Array(start[groups]), rec = new Float64Array(start[groups])
  for (let j = 0; j < n; j++) {
    const g = key[j]
    if (g < 0) continue
    base[fill[g]] = baseWait[j]
    rec[fill[g]++] = recWait[j]
  }
  for (let g = 0; g < groups; g++) {
    base.subarray(start[g], start[g + 1]).sort()
    rec.subarray(start[g], start[g + 1]).sort()
  }
  return { count, sumBase, sumRec, start, base, rec }
}

/** The ratio of two mean waits: 1 when both are 0, null when only the baseline's is 0. */
export function waitRatio(mean: number, baselineMean: number): number | null {
  if (baselineMean > 0) return mean / baselineMean
  return mean > 0 ? null : 1
}

function group(gs: Groups, g: number, label: string): ImpactGroup {
  const n = gs.count[g]
  const base = gs.base.subarray(gs.start[g], gs.start[g + 1]), rec = gs.rec.subarray(gs.start[g], gs.start[g + 1])
  const baselineMeanWait = gs.sumBase[g] / n, meanWait = gs.sumRec[g] / n
  return {
    label, jobs: n, baselineMeanWait, meanWait,
    baselineP95Wait: percentile(base, 0.95), p95Wait: percentile(rec, 0.95),
    meanRatio: waitRatio(meanWait, baselineMeanWait),
  }
}

/** True when a group's mean wait rises beyond the risk ratio, on enough jobs and by enough seconds
 * to matter (docs/IMPACT.md §Over the risk ratio). */
export function isOverRisk(g: ImpactGroup, maxWaitRatio: number | null, minJobs = DEFAULTS.impact.value.minJobs, minRise = DEFAULTS.impact.value.minRise): boolean {
  if (maxWaitRatio === null) return false
  if (g.jobs < minJobs || g.meanWait - g.baselineMeanWait < minRise) return false
  return g.meanRatio === null || g.meanRatio > maxWaitRatio
}

/**
 * Who gains and who loses on one part: `baselineWait[j]` and `wait[j]` are job j's waits (seconds)
 * under the baseline and under the recommendation, on the same schedules.
 */
export function partImpact(jobs: ImpactJobs, machineProcs: number, baselineWait: Float64Array, wait: Float64Array, names: OwnerNames, options: ImpactOptions): PartImpact {
  const n = jobs.count
  if (baselineWait.length !== n || wait.length !== n) throw new Error(`impact: ${n} jobs but ${baselineWait.length} and ${wait.length} waits`)
  const minJobs = options.minJobs ?? DEFAULTS.impact.value.minJobs
  const minRise = options.minRise ?? DEFAULTS.impact.value.minRise
  const top = options.topAccounts ?? DEFAULTS.impact.value.topAccounts
  const key = new Int32Array(n)

  const bounds = sizeClassBounds(machineProcs)
  for (let j = 0; j < n; j++) key[j] = Math.min(classOf(jobs.procs[j], bounds), bounds.length - 1)
  const sizes = accumulate(n, bounds.length, key, baselineWait, wait)
  const bySize: ImpactGroup[] = []
  for (let g = 0; g < bounds.length; g++) if (sizes.count[g] > 0) bySize.push(group(sizes, g, sizeLabel(g === 0 ? 1 : bounds[g - 1] + 1, bounds[g])))

  for (let j = 0; j < n; j++) key[j] = classOf(jobs.requested[j], REQUESTED_BOUNDS)
  const req = accumulate(n, REQUESTED_LABELS.length, key, baselineWait, wait)
  const byRequested: ImpactGroup[] = []
  for (let g = 0; g < REQUESTED_LABELS.length; g++) if (req.count[g] > 0) byRequested.push(group(req, g, REQUESTED_LABELS[g]))

  const accountKind = jobs.account && names.accounts && hasAny(jobs.account) ? 'account' : 'user'
  const owner = accountKind === 'account' ? jobs.account! : jobs.user
  const ownerNames = accountKind === 'account' ? names.accounts! : names.users
  let owners = 0
  for (let j = 0; j < n; j++) if (owner[j] + 1 > owners) owners = owner[j] + 1
  const acc = accumulate(n, owners, owner, baselineWait, wait)
  const candidates: number[] = []
  for (let g = 0; g < owners; g++) if (acc.count[g] >= minJobs && acc.sumRec[g] > acc.sumBase[g]) candidates.push(g)
  // Largest increase in total wait first; ties in the order the log first names them (the owner's index).
  candidates.sort((a, b) => (acc.sumRec[b] - acc.sumBase[b]) - (acc.sumRec[a] - acc.sumBase[a]) || a - b)
  const nameOf = (g: number) => ownerNames[g] ?? `#${g}`
  const byAccount = candidates.slice(0, top).map((g) => group(acc, g, nameOf(g)))
  for (const g of candidates.slice(top)) {
    const x = group(acc, g, nameOf(g))
    if (isOverRisk(x, options.maxWaitRatio, minJobs, minRise)) byAccount.push(x)
  }
  return { bySize, byRequested, byAccount, accountKind }
}

function hasAny(owner: Int32Array): boolean {
  for (let j = 0; j < owner.length; j++) if (owner[j] >= 0) return true
  return false
}

/** The groups of both parts whose mean wait rises beyond the risk ratio (Impact.overRisk). */
export function overRisk(train: PartImpact, test: PartImpact, maxWaitRatio: number | null, minJobs?: number, minRise?: number): Impact['overRisk'] {
  const out: Impact['overRisk'] = []
  for (const [part, p] of [['train', train], ['test', test]] as const) {
    for (const [dimension, groups] of [['size', p.bySize], ['requested', p.byRequested], ['account', p.byAccount]] as const) {
      for (const g of groups) {
        if (isOverRisk(g, maxWaitRatio, minJobs, minRise)) out.push({ part, dimension, label: g.label, meanRatio: g.meanRatio, jobs: g.jobs })
      }
    }
  }
  return out
}

/** The simulator's options other than the clock's origin (e.g. a compatibility rule), as the
 * campaign's cells use them. */
export type SimRules = Omit<SimOptions, 'windowStart'>

/**
 * Each job's wait (seconds) when the part is simulated week by week: the 7-day windows from the
 * part's first submit (as resample.ts cuts them), the trailing partial week included, each from an
 * empty machine with the window's start as the origin of the policies' clock (as the campaign's
 * cells, whose week-relative submits start at 0).
 */
export function realWeekWaits(part: SimJobs, machineProcs: number, config: SimConfig, sim: SimRules = {}, machine?: CellMachine, change?: SlurmChange): Float64Array {
  const n = part.count
  const wait = new Float64Array(n)
  const first = n > 0 ? part.submit[0] : 0
  let from = 0
  while (from < n) {
    const weekStart = first + Math.floor((part.submit[from] - first) / WEEK) * WEEK
    let to = from
    while (to < n && part.submit[to] < weekStart + WEEK) to++
    const week: SimJobs = {
      count: to - from, submit: part.submit.subarray(from, to), runtime: part.runtime.subarray(from, to),
      requested: part.requested.subarray(from, to), procs: part.procs.subarray(from, to),
    }
    // On a node-level machine (docs/CLUSTER.md) the week runs there, as the campaign's cells do.
    const start = machine === undefined ? simulate(week, machineProcs, config, { ...sim, windowStart: weekStart })
      : runOnMachine(machine.model, clusterJobs(machine.model, sliceJobs(part as JobTable, from, to)), config, machine.deploy, { windowStart: weekStart }, machine.deployed, change).start
    for (let i = 0; i < week.count; i++) wait[from + i] = start[i] - week.submit[i]
    from = to
  }
  return wait
}

/**
 * The impact of switching from `baseline` to `recommended` on both parts (two simulations of each
 * part's real weeks; one when the recommendation is the baseline itself).
 */
export function measureImpact(
  parts: { train: SimJobs & ImpactJobs; test: SimJobs & ImpactJobs }, machineProcs: number,
  baseline: SimConfig, recommended: SimConfig, names: OwnerNames, options: ImpactOptions, sim: SimRules = {}, machine?: CellMachine, change?: SlurmChange,
): Impact {
  const same = JSON.stringify(baseline) === JSON.stringify(recommended) && change === undefined
  const one = (p: SimJobs & ImpactJobs): PartImpact => {
    const base = realWeekWaits(p, machineProcs, baseline, sim, machine)
    return partImpact(p, machineProcs, base, same ? base : realWeekWaits(p, machineProcs, recommended, sim, machine, change), names, options)
  }
  const train = one(parts.train), test = one(parts.test)
  return { train, test, overRisk: overRisk(train, test, options.maxWaitRatio, options.minJobs, options.minRise) }
}

/** The recommended candidate as the selection describes it (select.ts's CandidateSummary fits). */
export interface RecommendedOrder {
  readonly candidate: { readonly primary: SimConfig['primary']; readonly backfill: SimConfig['backfill']; readonly slurm?: SlurmChange }
  readonly threshold: number | null
}

/**
 * The evaluation's impact step (docs/IMPACT.md): EASY-FCFS versus the recommended order on the
 * train and test parts' real weeks; null when there is no recommendation (`insufficient-data`).
 */
export function recommendationImpact(
  parts: { train: SimJobs & ImpactJobs; test: SimJobs & ImpactJobs }, machineProcs: number,
  recommended: RecommendedOrder | null | undefined, names: OwnerNames, maxWaitRatio: number | null, sim: SimRules = {}, machine?: CellMachine,
): Impact | null {
  if (!recommended) return null
  const baseline: SimConfig = { ...BASELINE, threshold: null }
  const config: SimConfig = { primary: recommended.candidate.primary, backfill: recommended.candidate.backfill, threshold: recommended.threshold }
  return measureImpact(parts, machineProcs, baseline, config, names, { maxWaitRatio }, sim, machine, recommended.candidate.slurm)
}
