// What an administrator sees of the time limits (issue #22 item 5; docs/PREDICTIONS.md §Time limits):
// per user, account and partition, how far the requested times p̃ are from the runtimes p (the
// quantiles of p̃/p) and the node-hours the limits ask for beyond what the jobs use; the site's
// totals and the distribution of p̃/p; the users and partitions to start with; and the what-if
// "with exact limits / with learned predictions your average wait and bounded slowdown would be …"
// (EASY-FCFS on the whole log, walltimes-whatif.ts). Names are pseudonymised by default
// (`pseudonym`, the one function every surface uses). Pure: no simulation in analyzeWalltimes.
import { DEFAULTS } from '../defaults'
import { percentile } from '../sim/metrics'
import { formatDuration } from '../util/duration'
import { formatInt, formatNumber, formatPercent } from '../util/format'
import type { JobTable } from '../workload/types'
import type { PredictionConfig } from './types'

/** Version of the JSON of `easytune walltimes --json` (and of the report's data); bump on any
 * change of meaning or shape. */
export const WALLTIMES_SCHEMA_VERSION = 1

/** What analyzeWalltimes reads of an imported workload (src/core/workload/import.ts Workload). */
export interface WalltimesInput {
  readonly name: string
  readonly jobs: JobTable
  readonly users: readonly string[]
  readonly accounts?: readonly string[]
  readonly partitions?: readonly string[]
}

export interface WalltimesOptions {
  /** Real user and account names (`--names`: for local eyes only). Default false: pseudonyms. */
  readonly names?: boolean
}

/** Quantiles of the requested/actual ratio max(p̃, F)/max(p, F), F = ratioFloor (nearest rank). */
export interface RatioQuantiles {
  readonly p10: number
  readonly p25: number
  readonly p50: number
  readonly p75: number
  readonly p90: number
  readonly max: number
}

/** One user, account or partition. */
export interface WalltimesGroup {
  /** Pseudonym (`user-007`) or real name (--names); partitions keep their names (the site's
   * configuration, not people). Jobs of no known user/account/partition form one group, `unknown`. */
  readonly name: string
  readonly unknown: boolean
  /** 1-based rank by over-requested hours (node-hours when the log records nodes, else CPU-hours)
   * among the named groups; 0 for the unknown group. */
  readonly rank: number
  readonly jobs: number
  readonly ratio: RatioQuantiles
  /** Σ max(p̃ − p, 0)·nodes / 3600 over the jobs whose nodes are known; null when the log does not record nodes. */
  readonly overRequestedNodeHours: number | null
  /** Σ max(p̃ − p, 0)·q / 3600 (q = processors). */
  readonly overRequestedCpuHours: number
  /** This group's share of the site's over-requested hours (in the ranking unit), 0..1. */
  readonly shareOfOverRequest: number
  /** Share of the requested CPU time the jobs used: Σ p·q / Σ p̃·q, 0..1 (above 1 only if jobs overran). */
  readonly usedShare: number
  /** The time limit most jobs of the group ask for (seconds) and the share of its jobs that ask
   * exactly it: near 1 on a partition, the sign of a default limit nobody changes. */
  readonly commonLimit: { readonly seconds: number; readonly share: number }
  /** 90th percentile of the runtimes (seconds, nearest rank). */
  readonly runtimeP90: number
}

/** One bar of the distribution of p̃/p over all jobs: ratios in [from, to) (to null = no upper end). */
export interface RatioBin {
  readonly from: number
  readonly to: number | null
  readonly jobs: number
  readonly share: number
}

export interface WalltimesTotals {
  readonly jobs: number
  /** null when the log has no job. */
  readonly ratio: RatioQuantiles | null
  readonly overRequestedNodeHours: number | null
  readonly overRequestedCpuHours: number
  /** Σ p·q / Σ p̃·q over all jobs (0 when there is none). */
  readonly usedShare: number
  /** Jobs whose node count is unknown (-1) in a log that records nodes: left out of the node-hours. */
  readonly jobsWithoutNodes: number
  /** Jobs whose ratio is at least WALLTIMES.poorRatio (they ask at least that many times what they use). */
  readonly poorJobs: number
}

/** A user or partition to start with, and why in words (names as in the report). */
export interface StartWith {
  readonly name: string
  readonly rank: number
  readonly reason: string
}

/** The what-if's scenarios (walltimes-whatif.ts): EASY-FCFS with today's limits, exact limits,
 * learned predictions (the thesis's selected triple) and EASY++. */
export type WhatIfId = 'requested' | 'clairvoyant' | 'eloss' | 'easy++' | 'campaign'

export interface WhatIfScenario {
  readonly id: WhatIfId
  readonly label: string
  readonly explain: string
  readonly prediction: PredictionConfig
}

/** One scenario's outcome on the whole log. `error` (in words) when it could not run (e.g. the
 * learner is not available): the numbers are then null. */
export interface WhatIfOutcome {
  readonly id: WhatIfId
  readonly label: string
  readonly prediction: PredictionConfig
  /** Seconds. */
  readonly avgWait: number | null
  readonly avgBsld: number | null
  /** The largest bounded slowdown (the thesis saw about 0.1 % of jobs with extreme values under learned predictions). */
  readonly maxBsld: number | null
  /** Mean |initial prediction − p| (seconds). */
  readonly mae: number | null
  /** Corrections applied (jobs that outlived their prediction, counted each time). */
  readonly corrections: number | null
  /** This scenario's value over today's (the `requested` scenario): 0.8 = 20 % lower. */
  readonly waitVsToday: number | null
  readonly bsldVsToday: number | null
  readonly error: string | null
}

export interface WalltimesWhatIf {
  /** The site's order the scenarios replay: EASY with FCFS, no threshold. */
  readonly order: 'EASY-FCFS'
  readonly machineProcs: number
  /** Bound of the bounded slowdown, seconds. */
  readonly tau: number
  readonly jobs: number
  readonly outcomes: readonly WhatIfOutcome[]
}

/** The triple the prediction campaign selects (src/core/predict/campaign.ts CAMPAIGN_CHOICE), with its outcome on this log when the what-if ran. */
export interface WalltimesCampaign {
  readonly label: string
  readonly prediction: PredictionConfig
  /** The logs the leave-one-out selection used. */
  readonly logs: readonly string[]
  readonly outcome: WhatIfOutcome | null
}

export interface WalltimesReport {
  readonly schemaVersion: typeof WALLTIMES_SCHEMA_VERSION
  readonly log: string
  /** 'pseudonyms' (the default: nothing names a person) or 'real' (--names). */
  readonly names: 'pseudonyms' | 'real'
  /** F in seconds: runtimes and limits below it count as F in the ratio. */
  readonly ratioFloor: number
  /** The unit the ranking, the shares and the start-with use. */
  readonly hours: 'node-hours' | 'cpu-hours'
  /** Which columns the log records. */
  readonly recorded: { readonly users: boolean; readonly accounts: boolean; readonly partitions: boolean; readonly nodes: boolean }
  readonly site: WalltimesTotals
  readonly distribution: readonly RatioBin[]
  /** Sorted by over-requested hours, most first; accounts/partitions empty when not recorded. */
  readonly users: readonly WalltimesGroup[]
  readonly accounts: readonly WalltimesGroup[]
  readonly partitions: readonly WalltimesGroup[]
  readonly startWith: { readonly users: readonly StartWith[]; readonly partitions: readonly StartWith[] }
  /** What can be deployed on a Slurm site, stated plainly. */
  readonly deployment: string
  /** The what-if, when it was run (walltimes-whatif.ts), else null. */
  readonly whatIf: WalltimesWhatIf | null
  /** The triple the campaign selects, when a campaign result is at hand. */
  readonly campaign?: WalltimesCampaign
}

/** What can be deployed on a Slurm site, in the words (docs/PREDICTIONS.md §Deployment). */
export const WALLTIMES_DEPLOYMENT = 'Slurm plans on time limits, so a prediction cannot replace them in its backfill; what can be deployed is (a) ordering by predicted runtime through the site factor, and (b) user education and default limits per partition.'

/** The bars of the distribution of p̃/p: [0, 1) are jobs that ran past their limit (kept on import), then 1–2×, 2–5× … 100× and more. */
export const RATIO_BIN_EDGES: readonly number[] = [0, 1, 2, 5, 10, 20, 50, 100]

/** Pseudonym of a user or account: its rank in this log by over-requested hours, zero-padded to
 * the width of the group count (at least 3 digits): `user-007` is the 7th. Not derived from the
 * name, so it cannot be reversed by guessing names; stable for the same log (the same jobs give
 * the same ranks). Every surface (text, JSON, the report, the GUI, the export) names users and
 * accounts through this function. */
export function pseudonym(kind: 'user' | 'account', rank: number, of: number): string {
  const width = Math.max(3, String(Math.max(1, of)).length)
  return `${kind}-${String(rank).padStart(width, '0')}`
}

/** The requested/actual ratio of one job: max(p̃, F) / max(p, F), so that a job that ended at
 * once (p = 0) or a limit under F cannot make it infinite or meaningless (docs/PREDICTIONS.md §Time limits). */
export function limitRatio(requested: number, runtime: number, floor: number = DEFAULTS.walltimes.value.ratioFloor): number {
  return (requested > floor ? requested : floor) / (runtime > floor ? runtime : floor)
}

/** The analysis (no simulation; linear in the jobs plus a sort per group). */
export function analyzeWalltimes(w: WalltimesInput, options: WalltimesOptions = {}): WalltimesReport {
  const { cols, sums } = prepare(w)
  const { t, ratio, nodes, scratch, hours, floor } = cols
  const n = t.count
  const { poor, overCpu, overNode, used, asked, withoutNodes } = sums
  const names = options.names === true
  const users = groups(cols, t.user, w.users, names ? 'real' : 'user')
  const accounts = t.account !== undefined && hasKnown(t.account) ? groups(cols, t.account, w.accounts ?? [], names ? 'real' : 'account') : []
  const partitions = t.partition !== undefined && hasKnown(t.partition) ? groups(cols, t.partition, w.partitions ?? [], 'real') : []
  const site: WalltimesTotals = {
    jobs: n, ratio: n > 0 ? quantiles(scratch, ratio, allJobs(n)) : null,
    overRequestedNodeHours: nodes !== undefined ? overNode / 3600 : null, overRequestedCpuHours: overCpu / 3600,
    usedShare: asked > 0 ? used / asked : 0, jobsWithoutNodes: withoutNodes, poorJobs: poor,
  }
  return {
    schemaVersion: WALLTIMES_SCHEMA_VERSION, log: w.name, names: names ? 'real' : 'pseudonyms', ratioFloor: floor, hours,
    recorded: { users: hasKnown(t.user), accounts: accounts.length > 0, partitions: partitions.length > 0, nodes: nodes !== undefined },
    site, distribution: distribution(ratio),
    users, accounts, partitions,
    startWith: { users: startUsers(users, hours), partitions: startPartitions(partitions) },
    deployment: WALLTIMES_DEPLOYMENT, whatIf: null,
  }
}

/**
 * How every surface names the users (or accounts) of this log, by index into `w.users` (or
 * `w.accounts`): the pseudonym of analyzeWalltimes (or the real name with `names`), '' for a name
 * that has no job in the cleaned log (it appears nowhere). The report, the export and the GUI name
 * people through this, so that a name never leaves the machine unless asked.
 */
export function walltimesNames(w: WalltimesInput, kind: 'user' | 'account', options: WalltimesOptions = {}): string[] {
  const col = kind === 'user' ? w.jobs.user : w.jobs.account
  const names = kind === 'user' ? w.users : w.accounts ?? []
  const out: string[] = Array.from(names, () => '')
  if (col !== undefined) groups(prepare(w).cols, col, names, options.names === true ? 'real' : kind, out)
  return out
}

const hasKnown = (col: Int32Array): boolean => { for (let j = 0; j < col.length; j++) if (col[j] >= 0) return true; return false }

/** The per-job columns of the analysis and the site's sums. */
function prepare(w: WalltimesInput): { cols: Columns; sums: { poor: number; overCpu: number; overNode: number; used: number; asked: number; withoutNodes: number } } {
  const cfg = DEFAULTS.walltimes.value
  const floor = cfg.ratioFloor
  const t = w.jobs
  const n = t.count
  const ratio = new Float64Array(n)
  const over = new Float64Array(n)
  const nodes = t.nodes !== undefined && hasKnown(t.nodes) ? t.nodes : undefined
  let poor = 0, overCpu = 0, overNode = 0, used = 0, asked = 0, withoutNodes = 0
  for (let j = 0; j < n; j++) {
    const r = (ratio[j] = limitRatio(t.requested[j], t.runtime[j], floor))
    if (r >= cfg.poorRatio) poor++
    const o = (over[j] = t.requested[j] > t.runtime[j] ? t.requested[j] - t.runtime[j] : 0)
    overCpu += o * t.procs[j]
    if (nodes !== undefined) { if (nodes[j] >= 0) overNode += o * nodes[j]; else withoutNodes++ }
    used += t.runtime[j] * t.procs[j]
    asked += t.requested[j] * t.procs[j]
  }
  const hours: WalltimesReport['hours'] = nodes !== undefined ? 'node-hours' : 'cpu-hours'
  const siteOver = hours === 'node-hours' ? overNode / 3600 : overCpu / 3600
  return { cols: { t, ratio, over, nodes, scratch: new Float64Array(n), siteOver, hours, floor }, sums: { poor, overCpu, overNode, used, asked, withoutNodes } }
}

interface Columns {
  readonly t: JobTable
  readonly ratio: Float64Array
  readonly over: Float64Array
  readonly nodes: Int32Array | undefined
  readonly scratch: Float64Array
  readonly siteOver: number
  readonly hours: WalltimesReport['hours']
  readonly floor: number
}

function allJobs(n: number): Int32Array {
  const a = new Int32Array(n)
  for (let j = 0; j < n; j++) a[j] = j
  return a
}

/** Nearest-rank quantiles of values[idx[..]] (idx non-empty), through `scratch`. */
function quantiles(scratch: Float64Array, values: Float64Array, idx: ArrayLike<number>): RatioQuantiles {
  const s = scratch.subarray(0, idx.length)
  for (let k = 0; k < idx.length; k++) s[k] = values[idx[k]]
  s.sort()
  return { p10: percentile(s, 0.1), p25: percentile(s, 0.25), p50: percentile(s, 0.5), p75: percentile(s, 0.75), p90: percentile(s, 0.9), max: s[s.length - 1] }
}

/**
 * One group per value of `col` that has jobs (−1: the unknown group), sorted by over-requested
 * hours (most first; ties: more jobs, then order of first appearance in the name list), named by
 * pseudonym (`kind` user/account) or by the log's names (`real`).
 */
function groups(c: Columns, col: Int32Array, names: readonly string[], kind: 'user' | 'account' | 'real', byIndex?: string[]): WalltimesGroup[] {
  const t = c.t
  const n = t.count
  // Counting sort of the jobs by group; the unknown group is the last bucket.
  let size = names.length
  for (let j = 0; j < n; j++) if (col[j] >= size) size = col[j] + 1
  const unknown = size
  const count = new Int32Array(size + 2)
  for (let j = 0; j < n; j++) count[(col[j] >= 0 ? col[j] : unknown) + 1]++
  for (let g = 0; g <= size; g++) count[g + 1] += count[g]
  const order = new Int32Array(n)
  const fill = count.slice(0, size + 1)
  for (let j = 0; j < n; j++) order[fill[col[j] >= 0 ? col[j] : unknown]++] = j
  const raw: (Omit<WalltimesGroup, 'name' | 'rank' | 'shareOfOverRequest'> & { index: number; key: number })[] = []
  for (let g = 0; g <= size; g++) {
    const idx = order.subarray(count[g], count[g + 1])
    if (idx.length === 0) continue
    let cpu = 0, node = 0, used = 0, asked = 0
    for (let k = 0; k < idx.length; k++) {
      const j = idx[k]
      cpu += c.over[j] * t.procs[j]
      if (c.nodes !== undefined && c.nodes[j] >= 0) node += c.over[j] * c.nodes[j]
      used += t.runtime[j] * t.procs[j]
      asked += t.requested[j] * t.procs[j]
    }
    const nodeHours = c.nodes !== undefined ? node / 3600 : null
    raw.push({
      index: g, unknown: g === unknown, jobs: idx.length, ratio: quantiles(c.scratch, c.ratio, idx),
      overRequestedNodeHours: nodeHours, overRequestedCpuHours: cpu / 3600, usedShare: asked > 0 ? used / asked : 0,
      commonLimit: commonLimit(c.scratch, t.requested, idx), runtimeP90: runtimeP90(c.scratch, t.runtime, idx),
      key: nodeHours ?? cpu / 3600,
    })
  }
  raw.sort((a, b) => b.key - a.key || b.jobs - a.jobs || a.index - b.index)
  const named = raw.filter((r) => !r.unknown).length
  let rank = 0
  return raw.map(({ index, key, ...r }) => {
    const rk = r.unknown ? 0 : ++rank
    const name = r.unknown ? 'unknown' : kind === 'real' ? names[index] ?? String(index) : pseudonym(kind, rk, named)
    if (byIndex !== undefined && !r.unknown) byIndex[index] = name
    return { name, unknown: r.unknown, rank: rk, jobs: r.jobs, ratio: r.ratio, overRequestedNodeHours: r.overRequestedNodeHours, overRequestedCpuHours: r.overRequestedCpuHours,
      shareOfOverRequest: c.siteOver > 0 ? key / c.siteOver : 0, usedShare: r.usedShare, commonLimit: r.commonLimit, runtimeP90: r.runtimeP90 }
  })
}

/** The most common requested time among the jobs idx (ties: the shorter) and the share that asks it. */
function commonLimit(scratch: Float64Array, requested: Float64Array, idx: ArrayLike<number>): { seconds: number; share: number } {
  const s = scratch.subarray(0, idx.length)
  for (let k = 0; k < idx.length; k++) s[k] = requested[idx[k]]
  s.sort()
  let best = s[0], bestRun = 0, run = 0
  for (let k = 0; k < s.length; k++) {
    run = k > 0 && s[k] === s[k - 1] ? run + 1 : 1
    if (run > bestRun) { bestRun = run; best = s[k] }
  }
  return { seconds: best, share: bestRun / s.length }
}

function runtimeP90(scratch: Float64Array, runtime: Float64Array, idx: ArrayLike<number>): number {
  const s = scratch.subarray(0, idx.length)
  for (let k = 0; k < idx.length; k++) s[k] = runtime[idx[k]]
  s.sort()
  return percentile(s, 0.9)
}

function distribution(ratio: Float64Array): RatioBin[] {
  const e = RATIO_BIN_EDGES
  const counts = new Float64Array(e.length)
  for (let j = 0; j < ratio.length; j++) {
    let b = e.length - 1
    while (b > 0 && ratio[j] < e[b]) b--
    counts[b]++
  }
  return e.map((from, b) => ({ from, to: b + 1 < e.length ? e[b + 1] : null, jobs: counts[b], share: ratio.length > 0 ? counts[b] / ratio.length : 0 }))
}

const hoursText = (h: number, unit: WalltimesReport['hours']) => `${formatInt(h)} ${unit === 'node-hours' ? 'node-hours' : 'CPU-hours'}`
/** A ratio for people: 1.5×, 12×, 4,634×. */
const ratioText = (v: number) => `${formatNumber(v, v >= 10 ? 0 : 1)}×`
const hoursOf = (g: WalltimesGroup) => g.overRequestedNodeHours ?? g.overRequestedCpuHours

/** The users to talk to first: by rank, those of at least minJobs jobs of which a quarter ask at
 * least poorRatio× what they use (p75 of the ratio), until they make half of the site's over-requested hours or
 * startUsers are named. */
function startUsers(users: readonly WalltimesGroup[], unit: WalltimesReport['hours']): StartWith[] {
  const cfg = DEFAULTS.walltimes.value
  const out: StartWith[] = []
  let share = 0
  for (const u of users) {
    if (out.length >= cfg.startUsers || share >= 0.5) break
    if (u.unknown || u.jobs < cfg.minJobs || u.ratio.p75 < cfg.poorRatio) continue
    share += u.shareOfOverRequest
    out.push({ name: u.name, rank: u.rank, reason: `${hoursText(hoursOf(u), unit)} over-requested (${formatPercent(u.shareOfOverRequest)} of the site's); a quarter of their ${formatInt(u.jobs)} jobs ask at least ${ratioText(u.ratio.p75)} the time they use, half at least ${ratioText(u.ratio.p50)}` })
  }
  return out
}

/** The partitions whose default limits to look at first: by rank, those of at least minJobs jobs
 * and minPartitionShare of the over-requested hours whose median job asks at least poorRatio× what
 * it uses, at most startPartitions. A lower default limit is suggested only when half or more of
 * the jobs ask the same limit and 90 % of them end within half of it. */
function startPartitions(partitions: readonly WalltimesGroup[]): StartWith[] {
  const cfg = DEFAULTS.walltimes.value
  const out: StartWith[] = []
  for (const p of partitions) {
    if (out.length >= cfg.startPartitions) break
    if (p.unknown || p.jobs < cfg.minJobs || p.ratio.p50 < cfg.poorRatio || p.shareOfOverRequest < cfg.minPartitionShare) continue
    const common = p.commonLimit.share >= 0.5
    const limit = common ? `; ${formatPercent(p.commonLimit.share)} of them ask exactly ${formatDuration(p.commonLimit.seconds)} (likely its default or maximum limit)` : ''
    // A lower default only when 90 % of the jobs would still fit in half of the common limit.
    const advice = common && p.runtimeP90 <= p.commonLimit.seconds / 2 ? ': a default limit closer to that' : ''
    out.push({ name: p.name, rank: p.rank, reason: `half of its ${formatInt(p.jobs)} jobs ask at least ${ratioText(p.ratio.p50)} the time they use${limit}, while 90 % of them end within ${formatDuration(p.runtimeP90)}${advice}` })
  }
  return out
}
