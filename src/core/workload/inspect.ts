// What the wizard's "Inspect" step shows about a cleaned log (InspectData below, re-exported by src/shared/api.ts):
// weekly submitted load and EASY-FCFS utilization, histograms of processors, requested times and
// recorded waits, a deterministic sample of requested vs actual runtimes, and the heaviest users.
// Pure and deterministic: the same jobs give the same numbers. Plain arrays out (JSON safe).
import { simulate } from '../sim/easy'
import type { JobTable } from './types'
import type { Calibration } from '../tune/calibrate'

/** What the wizard's "Inspect" step shows about a cleaned log (units in each field's name). */
export interface InspectData {
  /** Per calendar week from the first submit: start (seconds on the log axis), submitted load
   * (Σ q·p submitted that week / (m · 1 week)) and EASY-FCFS utilization (busy share). */
  weeks: { start: number[]; submittedLoad: number[]; utilization: number[] }
  /** Jobs by processors requested, power-of-two bins: [lo, hi) edges in processors. */
  procsHistogram: { edges: number[]; counts: number[] }
  /** Jobs by requested time, log bins: edges in seconds. */
  requestedHistogram: { edges: number[]; counts: number[] }
  /** Up to 2,000 sampled jobs: requested vs actual runtime, seconds. */
  overEstimation: { requested: number[]; runtime: number[]; medianRatio: number }
  /** The 10 users with the most processor-time. */
  topUsers: { user: string; jobs: number; procSeconds: number }[]
  /** Recorded waits (seconds), when the log has them: log bins. */
  recordedWaits: { edges: number[]; counts: number[]; mean: number; median: number } | null
  /** The machine the log runs on when it is not the single pool (docs/CLUSTER.md), in words;
   * absent or null: the single pool of `machineProcs` processors. */
  machine?: string | null
  /** The baseline on that machine against the recorded history (docs/CLUSTER.md §Fidelity);
   * absent or null when the log records no waits. */
  fidelity?: Calibration | null
  /** The QOS names the log's jobs ran under (sacct, jobcomp), at most 1,000: the Cluster panel
   * asks their priorities (Slurm keeps them in its database); absent when the log has none. */
  qosNames?: string[]
}

const WEEK = 604800
/** At most this many points in the requested-vs-actual scatter. */
export const MAX_SCATTER_POINTS = 2000
export const TOP_USERS = 10

export interface InspectInput {
  jobs: JobTable
  machineProcs: number
  /** User names by index (JobTable.user); -1 = unknown. */
  users: readonly string[]
}

/**
 * `fcfsStarts`: start times of the EASY-FCFS schedule of these jobs, when the caller already has
 * them (else it is simulated here: about 10 ms for KTH-SP2's 28,000 jobs).
 */
export function inspectWorkload(input: InspectInput, fcfsStarts?: Float64Array): InspectData {
  const { jobs, machineProcs: m } = input
  const starts = fcfsStarts ?? (jobs.count ? simulate(jobs, m, { primary: 'FCFS', backfill: 'same', threshold: null }) : new Float64Array(0))
  return {
    weeks: weekly(jobs, m, starts),
    procsHistogram: histogram(jobs.procs, powerOfTwoEdges(max(jobs.procs))),
    requestedHistogram: histogram(jobs.requested, logEdges(jobs.requested)),
    overEstimation: overEstimation(jobs),
    topUsers: topUsers(jobs, input.users),
    recordedWaits: recordedWaits(jobs),
  }
}

function max(a: ArrayLike<number>): number {
  let x = 0
  for (let i = 0; i < a.length; i++) if (a[i] > x) x = a[i]
  return x
}

/** Weeks from the first submit; the last (partial) week is included. Utilization counts the busy
 * processor-time of the EASY-FCFS schedule that falls inside each week. */
function weekly(jobs: JobTable, m: number, starts: Float64Array): InspectData['weeks'] {
  const n = jobs.count
  if (n === 0) return { start: [], submittedLoad: [], utilization: [] }
  const first = jobs.submit[0]
  const W = Math.floor((jobs.submit[n - 1] - first) / WEEK) + 1
  const submitted = new Float64Array(W)
  const busy = new Float64Array(W)
  for (let i = 0; i < n; i++) {
    const area = jobs.procs[i] * jobs.runtime[i]
    submitted[Math.floor((jobs.submit[i] - first) / WEEK)] += area
    const s = starts[i] - first, e = s + jobs.runtime[i]
    for (let w = Math.max(0, Math.floor(s / WEEK)); w < W && w * WEEK < e; w++) {
      const overlap = Math.min(e, (w + 1) * WEEK) - Math.max(s, w * WEEK)
      if (overlap > 0) busy[w] += overlap * jobs.procs[i]
    }
  }
  const capacity = m * WEEK
  return {
    start: Array.from({ length: W }, (_, w) => first + w * WEEK),
    submittedLoad: Array.from(submitted, (a) => a / capacity),
    utilization: Array.from(busy, (a) => a / capacity),
  }
}

/** [1, 2, 4, …] up to the first power of two above `top`. */
function powerOfTwoEdges(top: number): number[] {
  const edges = [1]
  while (edges[edges.length - 1] <= top) edges.push(edges[edges.length - 1] * 2)
  if (edges.length < 2) edges.push(2)
  return edges
}

/** Log bins (powers of two seconds) covering the positive values; a first bin [0, 1) catches
 * zeros. */
function logEdges(values: ArrayLike<number>): number[] {
  let lo = Infinity, hi = 0
  for (let i = 0; i < values.length; i++) {
    const v = values[i]
    if (!(v === v)) continue
    if (v > hi) hi = v
    if (v >= 1 && v < lo) lo = v
  }
  if (hi < 1) return [0, 1]
  const k0 = Math.floor(Math.log2(lo))
  const edges = [0]
  for (let k = k0; ; k++) {
    edges.push(2 ** k)
    if (2 ** k > hi) break
  }
  return edges
}

/** Counts per [edges[b], edges[b+1]); values outside the edges, and NaN, are not counted. Reads
 * the columns themselves: a plain array per column would cost ~80 MB per 10M jobs (a 10M-job log's
 * charts are these aggregates; docs/PERFORMANCE.md §Import at scale). */
function histogram(values: ArrayLike<number>, edges: number[]): { edges: number[]; counts: number[] } {
  const counts = new Array<number>(edges.length - 1).fill(0)
  for (let i = 0; i < values.length; i++) {
    const v = values[i]
    if (!(v >= edges[0] && v < edges[edges.length - 1])) continue
    let lo = 0, hi = edges.length - 1 // binary search: edges[lo] <= v < edges[hi]
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1
      if (edges[mid] <= v) lo = mid; else hi = mid
    }
    counts[lo]++
  }
  return { edges, counts }
}

function median(sorted: Float64Array): number {
  const n = sorted.length
  if (n === 0) return 0
  return n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
}

/** An evenly spaced (hence deterministic) sample of at most 2,000 jobs; the median ratio
 * requested / actual is over every job that ran for at least a second. */
function overEstimation(jobs: JobTable): InspectData['overEstimation'] {
  const n = jobs.count
  const k = Math.min(n, MAX_SCATTER_POINTS)
  const requested: number[] = [], runtime: number[] = []
  for (let s = 0; s < k; s++) {
    const i = Math.floor((s * n) / k)
    requested.push(jobs.requested[i])
    runtime.push(jobs.runtime[i])
  }
  const ratios = new Float64Array(n)
  const req = jobs.requested, run = jobs.runtime
  let r = 0
  for (let i = 0; i < n; i++) if (run[i] >= 1) ratios[r++] = req[i] / run[i]
  return { requested, runtime, medianRatio: median(ratios.subarray(0, r).sort()) }
}

function topUsers(jobs: JobTable, names: readonly string[]): InspectData['topUsers'] {
  const byUser = new Map<number, { jobs: number; procSeconds: number }>()
  for (let i = 0; i < jobs.count; i++) {
    const u = jobs.user[i]
    const e = byUser.get(u) ?? { jobs: 0, procSeconds: 0 }
    e.jobs++
    e.procSeconds += jobs.procs[i] * jobs.runtime[i]
    byUser.set(u, e)
  }
  return [...byUser]
    .sort((a, b) => b[1].procSeconds - a[1].procSeconds || a[0] - b[0])
    .slice(0, TOP_USERS)
    .map(([u, e]) => ({ user: u < 0 ? '(unknown)' : (names[u] ?? `user ${u}`), jobs: e.jobs, procSeconds: e.procSeconds }))
}

function recordedWaits(jobs: JobTable): InspectData['recordedWaits'] {
  const all = new Float64Array(jobs.count)
  const col = jobs.recordedWait
  let k = 0
  for (let i = 0; i < jobs.count; i++) {
    const w = col[i]
    if (w === w) all[k++] = Math.max(0, w)
  }
  if (k === 0) return null
  const waits = all.subarray(0, k)
  const sorted = waits.slice().sort()
  let sum = 0
  for (let i = 0; i < k; i++) sum += waits[i] // in job order, as before
  const mean = sum / k
  return { ...histogram(waits, logEdges(sorted)), mean, median: median(sorted) }
}
