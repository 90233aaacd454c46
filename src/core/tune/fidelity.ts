// Fidelity against the recorded history (issue #21 item 6; definitions in docs/CLUSTER.md
// §Fidelity): the simulated schedule of the same jobs versus the one the site's scheduler
// recorded — mean and median wait, rank correlation of per-job waits, the share of jobs starting
// within 10 min and 1 h of their recorded start, the share started by backfill, the error of the
// two-week moving-average wait (MAPE, the figure HPE's FastSim reports), overall and per
// partition, and a verdict in plain words against the aims, with what limits the comparison.
//
// Cost: O(n log n) for n jobs (one sort per side, giving the ranks and percentiles; the ranks
// within each partition are read off the same two sorted orders in one linear pass, and grouping
// by partition is linear) plus O(days) for the moving average (per-day sums and prefix sums: every
// trailing window is one subtraction). The per-job arrays are freed as soon as they are used
// (releaseColumn): on a log of millions of jobs they would otherwise wait for the collector.
import { percentileIndex } from '../sim/metrics'
import { allUint32, radixOrder } from '../util/order'
import { releaseColumn } from '../util/memory'
import type { JobTable } from '../workload/types'

const MINUTE = 60
const HOUR = 3600
const DAY = 86400

/** Aims of issue #21 and the bar set by published simulators (docs/CLUSTER.md §Fidelity). */
export const FIDELITY_AIMS = {
  /** Rank correlation of per-job waits at or above which the simulation orders jobs like the site. */
  spearman: 0.6,
  /** Simulated mean wait within ±25 % of the recorded one: ratio in [0.75, 1.25]. */
  meanWaitTolerance: 0.25,
  /** HPE's FastSim: 7.3 % MAPE of the two-week moving-average wait on ARCHER2 — the bar to beat. */
  fastSimMape: 0.073,
} as const

/** Rank correlation below which the simulation follows the recorded waits only "poorly". */
const LOOSE_SPEARMAN = 0.3
/** Tolerances of "starts near its recorded start" (seconds, inclusive). */
export const WITHIN_SHORT_S = 10 * MINUTE
export const WITHIN_LONG_S = HOUR
/** The moving average's trailing window (days) and its step (one evaluation per calendar day). */
export const MOVING_WINDOW_DAYS = 14
/** Logs spanning more days than this (~110 years) are broken, not long: no moving average. */
const MAX_MOVING_DAYS = 40000
/** Name of the jobs whose partition the log does not record, in `partitions`. */
export const UNKNOWN_PARTITION = '(unknown)'

/** What commonly limits the comparison, one phrase each, for callers to pass as `limits`
 * (docs/CLUSTER.md §Fidelity, what each log lacks). Declared once so every caller says it alike. */
export const FIDELITY_LIMITS = {
  singlePool: 'the simulator sees one pool of interchangeable processors and a pure order, while the site\'s scheduler adds priorities, partitions, reservations and node topology',
  waitsFromReservedTime: 'the log has no start time per job: its waits are derived from ResvCPURAW (reserved CPU time / CPUs), which counts from eligibility rather than submission, so per-job starts are estimates',
  noTimeLimits: 'the log records no time limits, so the simulated reservations and backfill use a substitute for every job\'s requested time',
  inferredMachine: 'the machine is inferred from the log (the nodes and CPUs its jobs were seen to use), not read from the site\'s configuration',
  noSchedFlags: 'the log has no sacct Flags, so the share of jobs started by backfill cannot be compared',
} as const

/** One partition's comparison (the jobs of the log recorded in that partition). */
export interface PartitionFidelity {
  /** Jobs with both a recorded and a simulated start. */
  jobs: number
  /** Spearman rank correlation of per-job waits; null with fewer than 2 jobs or when one side's waits are all equal. */
  spearman: number | null
  /** Simulated mean wait / recorded mean wait; null when the recorded mean is 0. */
  meanWaitRatio: number | null
  /** Share of jobs whose simulated start is within 10 min / 1 h of the recorded start. */
  within10m: number
  within1h: number
  /** Mean waits (seconds). */
  recordedMeanWait: number
  simulatedMeanWait: number
}

/** The measures added by issue #21 (docs/CLUSTER.md §Fidelity). */
export interface FidelityMeasures {
  /** Simulated mean wait / recorded mean wait; null when the recorded mean is 0. */
  meanWaitRatio: number | null
  /** Share of the compared jobs whose simulated start is within 10 min (1 h) of the recorded one. */
  within10m: number
  within1h: number
  /** Share of jobs started by backfill: recorded from sacct Flags (null when the log lacks them),
   * simulated from the simulator's record (null when it gave none). */
  backfilledShare: { recorded: number | null; simulated: number | null }
  /** MAPE (a fraction: 0.073 = 7.3 %) of the two-week moving-average wait, one point per day; null
   * when it cannot be measured (movingWaitReason says why). */
  movingWaitMape: number | null
  /** Days whose two-week windows entered the MAPE (0 when null). */
  movingWaitDays: number
  /** Why movingWaitMape is null; null when it was measured. */
  movingWaitReason: string | null
  /** Per partition (name → comparison) when the log records partitions, else null. */
  partitions: Record<string, PartitionFidelity> | null
  /** What limits the comparison, as the caller stated it (e.g. waits from ResvCPURAW). */
  limits: string[]
}

/** The comparison carried by results. The fields of issue #21 are optional here because results
 * written before it (result schema ≤ 2) lack them; fidelity() always fills them. */
export interface Calibration extends Partial<FidelityMeasures> {
  /** Jobs with a recorded wait (and a simulated start): the jobs compared. */
  jobs: number
  /** jobs / the table's jobs. */
  share: number
  recordedMean: number
  simulatedMean: number
  recordedMedian: number
  simulatedMedian: number
  recordedP90: number
  simulatedP90: number
  /** Pearson correlation of per-job waits (0 when one side's waits are all equal). */
  pearson: number
  /** Spearman rank correlation of per-job waits, ties by average rank (0 when one side's waits are all equal). */
  spearman: number
  /** Mean of simulated − recorded (seconds). */
  meanDifference: number
  /** How far to trust the simulation, and what limits it, in plain words. */
  verdict: string
}

/** What fidelity() returns: every field filled. */
export type FullCalibration = Calibration & FidelityMeasures

export interface FidelityOptions {
  /** Per job of the table: 1 when the simulation started it by backfill. */
  backfilled?: Uint8Array
  /** Partition names (index = JobTable.partition). */
  partitions?: readonly string[]
  /** Epoch seconds of submit = 0: days of the moving average are UTC calendar days when known. */
  unixStartTime?: number | null
  /** What limits the comparison on this log, each a phrase (e.g. "no time limits in the log"). */
  limits?: readonly string[]
  /** Who produced the simulated schedule, for the verdict (default "Simulated EASY-FCFS"). */
  simulated?: string
}

/**
 * Compares the simulated starts of `jobs` (same index) with the recorded ones (submit +
 * recordedWait). Only jobs with a recorded wait (finite, ≥ 0) and a finite simulated start are
 * compared; null when fewer than 2 are.
 */
export function fidelity(jobs: JobTable, simulatedStart: Float64Array, opts: FidelityOptions = {}): FullCalibration | null {
  // The compared jobs, in table order.
  let n = 0
  const sel = new Int32Array(jobs.count)
  for (let i = 0; i < jobs.count; i++) {
    const w = jobs.recordedWait[i], s = simulatedStart[i]
    if (Number.isFinite(w) && w >= 0 && Number.isFinite(s)) sel[n++] = i
  }
  if (n < 2) return null
  const idx = sel.subarray(0, n)
  const rec = new Float64Array(n), sim = new Float64Array(n)
  for (let k = 0; k < n; k++) { const i = idx[k]; rec[k] = jobs.recordedWait[i]; sim[k] = simulatedStart[i] - jobs.submit[i] }

  const recOrder = sortOrder(rec), simOrder = sortOrder(sim)
  const recRanks = ranksOf(rec, recOrder), simRanks = ranksOf(sim, simOrder)
  const all = compareGroups(rec, sim, recRanks, simRanks, null, 1)[0]
  releaseColumn(recRanks)
  releaseColumn(simRanks)
  const moving = movingWaitMape(jobs.submit, idx, rec, sim, opts.unixStartTime ?? null)
  const c: FullCalibration = {
    jobs: n, share: n / jobs.count,
    recordedMean: all.recordedMeanWait, simulatedMean: all.simulatedMeanWait,
    recordedMedian: percentileOf(rec, recOrder, 0.5), simulatedMedian: percentileOf(sim, simOrder, 0.5),
    recordedP90: percentileOf(rec, recOrder, 0.9), simulatedP90: percentileOf(sim, simOrder, 0.9),
    pearson: pearson(rec, sim) ?? 0,
    spearman: all.spearman ?? 0,
    meanDifference: all.simulatedMeanWait - all.recordedMeanWait,
    meanWaitRatio: all.meanWaitRatio,
    within10m: all.within10m, within1h: all.within1h,
    backfilledShare: backfilledShare(jobs.schedFlag, opts.backfilled, idx),
    movingWaitMape: moving.mape, movingWaitDays: moving.days, movingWaitReason: moving.reason,
    partitions: jobs.partition ? perPartition(jobs.partition, opts.partitions, idx, rec, sim, recOrder, simOrder) : null,
    limits: [...(opts.limits ?? [])],
    verdict: '',
  }
  for (const a of [recOrder, simOrder, rec, sim]) releaseColumn(a)
  releaseColumn(idx, true)
  c.verdict = fidelityVerdict(c, all.spearman === null, opts.simulated ?? 'Simulated EASY-FCFS')
  return c
}

/**
 * The per-job comparison of each group of jobs (a partition; `group` null: one group of them all),
 * given their average ranks among their group's own. Sums run in index order within each group:
 * the figures of a group are those of its jobs taken apart.
 */
function compareGroups(rec: Float64Array, sim: Float64Array, recRanks: Float64Array, simRanks: Float64Array, group: Int32Array | null, groups: number): PartitionFidelity[] {
  const n = rec.length
  const cnt = new Float64Array(groups), sr = new Float64Array(groups), ss = new Float64Array(groups)
  const near = new Float64Array(groups), nearLong = new Float64Array(groups)
  for (let k = 0; k < n; k++) {
    const g = group === null ? 0 : group[k]
    cnt[g]++
    sr[g] += rec[k]; ss[g] += sim[k]
    // |simulated start − recorded start| = |simulated wait − recorded wait| (same submit).
    const d = Math.abs(sim[k] - rec[k])
    if (d <= WITHIN_SHORT_S) near[g]++
    if (d <= WITHIN_LONG_S) nearLong[g]++
  }
  const rho = pearsonGroups(recRanks, simRanks, group, groups)
  return Array.from(cnt, (m, g) => {
    const rm = m ? sr[g] / m : 0, sm = m ? ss[g] / m : 0
    return {
      jobs: m,
      spearman: m >= 2 ? rho[g] : null,
      meanWaitRatio: rm > 0 ? sm / rm : null,
      within10m: m ? near[g] / m : 0, within1h: m ? nearLong[g] / m : 0,
      recordedMeanWait: rm, simulatedMeanWait: sm,
    }
  })
}

/** Spearman's rank correlation: Pearson's of the average ranks; null when either side is constant. */
export function spearman(a: Float64Array, b: Float64Array): number | null {
  return pearson(averageRanks(a), averageRanks(b))
}

/** Pearson correlation; null when either side has no variance (or fewer than 2 values). */
function pearson(a: Float64Array, b: Float64Array): number | null {
  return pearsonGroups(a, b, null, 1)[0]
}

/** Pearson correlation within each group (`group` null: one group of all), summed in index order;
 * null for a group with fewer than 2 values or without variance on either side. */
function pearsonGroups(a: Float64Array, b: Float64Array, group: Int32Array | null, groups: number): (number | null)[] {
  const n = a.length
  const cnt = new Float64Array(groups), ma = new Float64Array(groups), mb = new Float64Array(groups)
  for (let i = 0; i < n; i++) { const g = group === null ? 0 : group[i]; cnt[g]++; ma[g] += a[i]; mb[g] += b[i] }
  for (let g = 0; g < groups; g++) { ma[g] /= cnt[g]; mb[g] /= cnt[g] }
  const sab = new Float64Array(groups), saa = new Float64Array(groups), sbb = new Float64Array(groups)
  for (let i = 0; i < n; i++) {
    const g = group === null ? 0 : group[i]
    const x = a[i] - ma[g], y = b[i] - mb[g]
    sab[g] += x * y; saa[g] += x * x; sbb[g] += y * y
  }
  // Rounding can push a perfect correlation a hair past ±1.
  return Array.from(cnt, (m, g) => m < 2 || !(saa[g] > 0 && sbb[g] > 0) ? null : Math.max(-1, Math.min(1, sab[g] / Math.sqrt(saa[g] * sbb[g]))))
}

/** Ranks 1…n of finite values; tied values share the mean of the ranks they span. */
export function averageRanks(a: Float64Array): Float64Array {
  return ranksOf(a, sortOrder(a))
}

/** averageRanks, given the positions of `a` in ascending order of value (sortOrder). */
function ranksOf(a: Float64Array, order: Uint32Array): Float64Array {
  const n = a.length
  const ranks = new Float64Array(n)
  for (let i = 0; i < n;) {
    const v = a[order[i]]
    let j = i
    while (j + 1 < n && a[order[j + 1]] === v) j++
    const rank = (i + j) / 2 + 1
    for (let k = i; k <= j; k++) ranks[order[k]] = rank
    i = j + 1
  }
  return ranks
}

/**
 * The average ranks of each group's values among its own (the ranks averageRanks gives each
 * group's values taken apart), from the order of all the values: a run of tied values holds c
 * of group g after `seen` smaller ones of g, which rank seen + 1 … seen + c, mean seen + (c + 1)/2
 * (the same double as averageRanks computes).
 */
function groupRanks(a: Float64Array, order: Uint32Array, group: Int32Array, groups: number): Float64Array {
  const n = a.length
  const ranks = new Float64Array(n)
  const seen = new Float64Array(groups), count = new Float64Array(groups)
  for (let i = 0; i < n;) {
    const v = a[order[i]]
    let j = i
    while (j + 1 < n && a[order[j + 1]] === v) j++
    for (let k = i; k <= j; k++) count[group[order[k]]]++
    for (let k = i; k <= j; k++) { const m = order[k], g = group[m]; ranks[m] = seen[g] + (count[g] + 1) / 2 }
    for (let k = i; k <= j; k++) { const g = group[order[k]]; seen[g] += count[g]; count[g] = 0 }
    i = j + 1
  }
  return ranks
}

/** metrics.ts `percentile` of `a`, read through its ascending order instead of a sorted copy. */
function percentileOf(a: Float64Array, order: Uint32Array, q: number): number {
  return a.length === 0 ? 0 : a[order[percentileIndex(a.length, q)]]
}

/** Positions of `a` in ascending order of value, tied values in position order. Waits are nearly
 * always whole seconds below 2^32 (136 years): then a radix sort of the positions by value, two
 * stable passes of 16 bits (~10× faster than the native sort below on 3 million jobs). Other whole
 * values below 2^53 are packed with their position into one exact double (value · 2^bits +
 * position) and sorted natively, ~2.5× faster than a comparator sort; anything else (fractions,
 * negatives, huge values) takes the comparator sort, stable as every sort of the language. */
function sortOrder(a: Float64Array): Uint32Array {
  const n = a.length
  if (allUint32(a, n)) return radixOrder([a], n)
  const order = new Uint32Array(n)
  const bits = Math.max(1, Math.ceil(Math.log2(n + 1)))
  const scale = 2 ** bits, limit = 2 ** (53 - bits)
  let packable = true
  for (let i = 0; i < n && packable; i++) { const v = a[i]; packable = Number.isInteger(v) && v >= 0 && v < limit }
  if (packable) {
    const key = new Float64Array(n)
    for (let i = 0; i < n; i++) key[i] = a[i] * scale + i
    key.sort()
    for (let k = 0; k < n; k++) order[k] = key[k] % scale
    releaseColumn(key)
    return order
  }
  for (let i = 0; i < n; i++) order[i] = i
  order.sort((x, y) => a[x] - a[y])
  return order
}

/** Shares of the compared jobs started by backfill. Recorded: over the compared jobs whose sacct
 * Flags say how they started (schedFlag 1 or 2); null without the column or any such job.
 * Simulated: over the same jobs when the recorded share is known (like with like), else over all
 * compared jobs; null when the simulator gave no record. */
function backfilledShare(flag: Uint8Array | undefined, backfilled: Uint8Array | undefined, idx: Int32Array): FullCalibration['backfilledShare'] {
  let known = 0, recBf = 0, simBfKnown = 0, simBfAll = 0
  for (let k = 0; k < idx.length; k++) {
    const i = idx[k]
    const sb = backfilled !== undefined && backfilled[i] === 1 ? 1 : 0
    simBfAll += sb
    const f = flag === undefined ? 0 : flag[i]
    if (f === 1 || f === 2) { known++; simBfKnown += sb; if (f === 2) recBf++ }
  }
  const recorded = known > 0 ? recBf / known : null
  const simulated = backfilled === undefined ? null : recorded !== null ? simBfKnown / known : simBfAll / idx.length
  return { recorded, simulated }
}

/**
 * MAPE of the two-week moving-average wait (docs/CLUSTER.md §Fidelity). Days are UTC calendar days
 * when the log's epoch is known, else days of the log's own clock. For every day d from the 14th
 * day of the log to its last: the mean recorded and the mean simulated wait of the compared jobs
 * submitted on days d−13…d; the MAPE is the mean of |simulated − recorded| / recorded over the
 * days whose recorded mean is > 0 (days whose window holds no job are skipped).
 */
function movingWaitMape(submit: Float64Array, idx: Int32Array, rec: Float64Array, sim: Float64Array, epoch: number | null): { mape: number | null; days: number; reason: string | null } {
  const base = epoch !== null && Number.isFinite(epoch) ? epoch : 0
  const n = idx.length
  let d0 = Infinity, d1 = -Infinity
  for (let k = 0; k < n; k++) {
    const d = Math.floor((base + submit[idx[k]]) / DAY)
    if (d < d0) d0 = d
    if (d > d1) d1 = d
  }
  const span = d1 - d0 + 1
  if (!(span >= MOVING_WINDOW_DAYS)) return { mape: null, days: 0, reason: `the compared jobs were submitted over ${span} day${span === 1 ? '' : 's'}, fewer than the ${MOVING_WINDOW_DAYS} days of one moving-average window` }
  if (span > MAX_MOVING_DAYS) return { mape: null, days: 0, reason: `the compared jobs' submits span ${span} days, which is not a plausible log` }
  // Per-day counts and sums, then prefix sums: each trailing window is one subtraction.
  const cnt = new Float64Array(span + 1), sr = new Float64Array(span + 1), ssum = new Float64Array(span + 1)
  for (let k = 0; k < n; k++) {
    const d = Math.floor((base + submit[idx[k]]) / DAY) - d0 + 1
    cnt[d]++; sr[d] += rec[k]; ssum[d] += sim[k]
  }
  for (let d = 1; d <= span; d++) { cnt[d] += cnt[d - 1]; sr[d] += sr[d - 1]; ssum[d] += ssum[d - 1] }
  let sum = 0, days = 0
  for (let d = MOVING_WINDOW_DAYS; d <= span; d++) { // window = days d−13…d (1-based), prefix index d − 14
    const lo = d - MOVING_WINDOW_DAYS
    const c = cnt[d] - cnt[lo]
    if (c <= 0) continue
    const r = (sr[d] - sr[lo]) / c, s = (ssum[d] - ssum[lo]) / c
    if (!(r > 0)) continue
    sum += Math.abs(s - r) / r
    days++
  }
  if (days === 0) return { mape: null, days: 0, reason: 'no two-week window has a recorded mean wait above 0, so the percentage error is undefined' }
  return { mape: sum / days, days, reason: null }
}

/** The comparison per partition; jobs without a recorded partition go under UNKNOWN_PARTITION.
 * Each job gets its group by one map look-up, its ranks within its group from the two sorted
 * orders of all the jobs (groupRanks), and the figures are summed per group: linear. */
function perPartition(part: Int32Array, names: readonly string[] | undefined, idx: Int32Array, rec: Float64Array, sim: Float64Array,
  recOrder: Uint32Array, simOrder: Uint32Array): Record<string, PartitionFidelity> {
  const n = idx.length
  const groupOfIndex = new Map<number, number>(), groupOfName = new Map<string, number>()
  const group = new Int32Array(n)
  let groups = 0
  for (let k = 0; k < n; k++) {
    const p = part[idx[k]]
    let g = groupOfIndex.get(p)
    if (g === undefined) {
      const name = p < 0 ? UNKNOWN_PARTITION : names?.[p] ?? `partition ${p}`
      g = groupOfName.get(name)
      if (g === undefined) { g = groups++; groupOfName.set(name, g) }
      groupOfIndex.set(p, g)
    }
    group[k] = g
  }
  const rr = groupRanks(rec, recOrder, group, groups), sr = groupRanks(sim, simOrder, group, groups)
  const figures = compareGroups(rec, sim, rr, sr, group, groups)
  for (const x of [group, rr, sr]) releaseColumn(x)
  const out: Record<string, PartitionFidelity> = {}
  for (const name of [...groupOfName.keys()].sort()) out[name] = figures[groupOfName.get(name)!]
  return out
}

const pct = (x: number) => `${(x * 100).toFixed(x < 0.1 ? 1 : 0)} %`

/** How far to trust the simulation, against the aims, and what limits it (docs/CLUSTER.md §Fidelity). */
function fidelityVerdict(c: FullCalibration, rankUndefined: boolean, who: string): string {
  const aim = FIDELITY_AIMS
  const rankOk = !rankUndefined && c.spearman >= aim.spearman
  const ratio = c.meanWaitRatio
  const meanOk = ratio !== null && Math.abs(ratio - 1) <= aim.meanWaitTolerance
  const level = rankUndefined ? 'to an unknown degree' : c.spearman >= aim.spearman ? 'closely' : c.spearman >= LOOSE_SPEARMAN ? 'loosely' : 'poorly'
  const parts: string[] = []
  parts.push(rankUndefined
    ? 'rank correlation undefined (all waits equal on one side)'
    : `rank correlation ${c.spearman.toFixed(2)} per job (aim ≥ ${aim.spearman.toFixed(1)})`)
  parts.push(ratio === null
    ? 'mean wait not comparable (the recorded mean wait is 0)'
    : ratio > 1 + aim.meanWaitTolerance ? `waits ${ratio.toFixed(1)}× longer on average (aim: within ±${aim.meanWaitTolerance * 100} %)`
      : ratio < 1 - aim.meanWaitTolerance ? `waits ${(1 / ratio).toFixed(1)}× shorter on average (aim: within ±${aim.meanWaitTolerance * 100} %)`
        : `mean wait ${ratio.toFixed(2)}× the recorded, within the aim of ±${aim.meanWaitTolerance * 100} %`)
  parts.push(c.movingWaitMape === null
    ? `no two-week moving-average error (${c.movingWaitReason})`
    : `two-week moving-average wait off by ${pct(c.movingWaitMape)} (MAPE over ${c.movingWaitDays} days; ${c.movingWaitMape <= aim.fastSimMape ? 'at or below' : 'above'} FastSim's ${pct(aim.fastSimMape)})`)
  let text = `${who} follows the recorded waits ${level}: ${parts.join('; ')}. ` +
    `${pct(c.within1h)} of jobs start within 1 h of their recorded start (${pct(c.within10m)} within 10 min)`
  const bf = c.backfilledShare
  if (bf.recorded !== null && bf.simulated !== null) text += `; backfill started ${pct(bf.simulated)} of jobs against ${pct(bf.recorded)} recorded`
  text += '. '
  text += rankOk && meanOk ? 'Both aims are met: the simulated waits can be read as a forecast for this site.'
    : rankOk ? 'It orders jobs as the site\'s scheduler did but not the scale of their waits: compare policies with each other rather than with the recorded numbers.'
      : meanOk ? 'Its average wait matches but not which jobs wait: trust averages over many jobs, not per-job or per-group waits.'
        : 'Neither aim is met: compare policies with each other rather than with the recorded numbers.'
  if (c.limits.length) text += ` What limits this comparison: ${c.limits.join('; ')}.`
  return text
}
