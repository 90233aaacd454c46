// Schedule metrics (docs/SIMULATOR.md §Metrics): waits, bounded slowdown with τ (10 s by default),
// wait percentiles, utilization, makespan and per-user average wait.
import type { SimJobs } from './types'
import { DEFAULTS } from '../defaults'

export const DEFAULT_TAU = DEFAULTS.tau.value

export interface Metrics {
  jobs: number
  /** Seconds. */
  avgWait: number
  maxWait: number
  waitP50: number
  waitP90: number
  waitP99: number
  /** Bounded slowdown max((wait + p) / max(p, τ), 1). */
  avgBsld: number
  maxBsld: number
  tau: number
  /** Σ q·p / (m · (last end − first submit)). */
  utilization: number
  /** Last end − first submit, seconds. */
  makespan: number
  /** Σ wait (for ratio-of-sums reporting). */
  sumWait: number
}

export interface UserWait {
  user: number
  jobs: number
  avgWait: number
}

/** All metrics of one schedule. `percentiles: false` skips the wait percentiles (NaN), which need
 * a sort: campaign cells only use the averages and maxima. */
export function computeMetrics(jobs: SimJobs, machineProcs: number, start: Float64Array, tau = DEFAULT_TAU, percentiles = true): Metrics {
  const n = jobs.count
  if (n === 0) {
    return { jobs: 0, avgWait: 0, maxWait: 0, waitP50: 0, waitP90: 0, waitP99: 0, avgBsld: 0, maxBsld: 0, tau, utilization: 0, makespan: 0, sumWait: 0 }
  }
  const waits = percentiles ? new Float64Array(n) : null
  let sumWait = 0, maxWait = 0, sumBsld = 0, maxBsld = 0, area = 0, lastEnd = -Infinity
  for (let j = 0; j < n; j++) {
    const w = start[j] - jobs.submit[j]
    const p = jobs.runtime[j]
    if (waits) waits[j] = w
    sumWait += w
    if (w > maxWait) maxWait = w
    const b = Math.max((w + p) / Math.max(p, tau), 1)
    sumBsld += b
    if (b > maxBsld) maxBsld = b
    area += jobs.procs[j] * p
    const end = start[j] + p
    if (end > lastEnd) lastEnd = end
  }
  waits?.sort()
  const makespan = lastEnd - jobs.submit[0]
  return {
    jobs: n, avgWait: sumWait / n, maxWait,
    waitP50: waits ? percentile(waits, 0.5) : NaN, waitP90: waits ? percentile(waits, 0.9) : NaN, waitP99: waits ? percentile(waits, 0.99) : NaN,
    avgBsld: sumBsld / n, maxBsld, tau,
    utilization: makespan > 0 ? area / (machineProcs * makespan) : 0, makespan, sumWait,
  }
}

/** Nearest-rank percentile of sorted values (q in (0, 1]). */
export function percentile(sorted: Float64Array, q: number): number {
  return sorted.length === 0 ? 0 : sorted[percentileIndex(sorted.length, q)]
}

/** The position of the q-th percentile among n ≥ 1 sorted values (nearest rank: ⌈q·n⌉, from 1). */
export function percentileIndex(n: number, q: number): number {
  return Math.min(n, Math.max(1, Math.ceil(q * n))) - 1
}

/** Average wait per user (users with index ≥ 0), sorted by number of jobs, descending. */
export function perUserWait(jobs: SimJobs & { readonly user: Int32Array }, start: Float64Array): UserWait[] {
  const sums = new Map<number, { n: number; w: number }>()
  for (let j = 0; j < jobs.count; j++) {
    const u = jobs.user[j]
    if (u < 0) continue
    const s = sums.get(u) ?? { n: 0, w: 0 }
    s.n++
    s.w += start[j] - jobs.submit[j]
    sums.set(u, s)
  }
  return [...sums].map(([user, s]) => ({ user, jobs: s.n, avgWait: s.w / s.n })).sort((a, b) => b.jobs - a.jobs || a.user - b.user)
}
