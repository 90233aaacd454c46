// A brute-force reference EASY simulator (docs/SIMULATOR.md §EASY pass), written for clarity, not speed:
// plain arrays, and everything (queue order, shadow, extra) recomputed from scratch at every
// scheduling pass. It exists only to be compared with src/core/sim/easy.ts on small inputs.
import type { PolicySpec, SimConfig, SimJobs, SimOptions } from '../../src/core/sim/types'
import { naivePriority, windowStartOf } from './checker'

type State = 'future' | 'waiting' | 'running' | 'done'

/**
 * How running jobs with equal estimated ends are counted when computing the shadow time and the
 * extra processors. The brief says "ties: any", but the order changes `extra` (see the report in
 * test/property/easy.property.test.ts):
 * - 'all': every job whose estimated end (overruns clamped to now) is ≤ the shadow time counts,
 *   so extra = free + Σ_{e_i ≤ shadow} q_i − q_blocked. Order-free; the largest safe extra.
 * - 'launch-order': add jobs one at a time in (start + p̃, launch order) order and stop at the
 *   first that makes the blocked job fit (ocst's loop; what easy.ts did when this was written).
 * - 'ocst': the seeds' simulator's rule as compat 'ocst' states it (docs/SIMULATOR.md
 *   §Shadow-time rules): add jobs one at a time by (estimated end clamped to now, fewest
 *   processors, lowest index) and stop at the first that makes the blocked job fit.
 */
export type ShadowTies = 'all' | 'launch-order' | 'ocst'

/** The reference's tie rule for a simulator option: compat 'ocst' → 'ocst', else 'all'. */
export function shadowTiesOf(options?: SimOptions): ShadowTies {
  return options?.compat === 'ocst' ? 'ocst' : 'all'
}

/** Start time of every job (index-aligned), by the EASY rules of docs/SIMULATOR.md §EASY pass. */
export function referenceSimulate(jobs: SimJobs, machineProcs: number, config: SimConfig, options?: SimOptions, shadowTies: ShadowTies = 'all'): Float64Array {
  const n = jobs.count
  const ws = windowStartOf(jobs, options)
  const start = new Float64Array(n).fill(NaN)
  const state: State[] = new Array<State>(n).fill('future')
  const actualEnd = (i: number) => start[i] + jobs.runtime[i]
  const launched = new Float64Array(n) // launch sequence number of each started job
  let launches = 0
  const idx = (s: State) => state.flatMap((x, i) => (x === s ? [i] : []))

  while (state.some((s) => s !== 'done')) {
    // The next instant: the earliest pending submit or actual end. A zero-runtime job started
    // in the previous pass ends at that same instant, which then gets another batch and pass.
    const times = [...idx('future').map((i) => jobs.submit[i]), ...idx('running').map(actualEnd)]
    if (times.length === 0) throw new Error('reference: jobs are waiting but nothing can ever happen')
    const now = Math.min(...times)
    for (const i of idx('running')) if (actualEnd(i) <= now) state[i] = 'done' // finishes first
    for (const i of idx('future')) if (jobs.submit[i] <= now) state[i] = 'waiting' // then submits
    schedulingPass(now) // then one pass
  }
  return start

  function startJob(i: number, now: number): void {
    state[i] = 'running'
    launched[i] = launches++
    start[i] = now
  }

  function freeProcs(): number {
    return machineProcs - idx('running').reduce((acc, i) => acc + jobs.procs[i], 0)
  }

  /** Waiting jobs in `spec` priority order (higher first), ties by lower index. */
  function sortByPolicy(list: number[], spec: PolicySpec, now: number): number[] {
    const key = (i: number) => naivePriority(spec, jobs, i, now, ws)
    return [...list].sort((a, b) => key(b) - key(a) || a - b)
  }

  function schedulingPass(now: number): void {
    let order = sortByPolicy(idx('waiting'), config.primary, now)
    const theta = config.threshold
    if (theta !== null) {
      const late = order.filter((i) => now - jobs.submit[i] > theta).sort((a, b) => a - b)
      order = [...late, ...order.filter((i) => !(now - jobs.submit[i] > theta))]
    }

    // primary phase: start in order while the job fits
    let k = 0
    while (k < order.length && jobs.procs[order[k]] <= freeProcs()) startJob(order[k++], now)
    if (k === order.length) return
    const blocked = order[k]
    const need = jobs.procs[blocked]

    // reservation: running jobs (including those just started) by estimated end; a job that
    // overran its request counts as ending now.
    const est = (i: number) => Math.max(start[i] + jobs.requested[i], now)
    const raw = (i: number) => start[i] + jobs.requested[i]
    const byEnd = shadowTies === 'ocst'
      ? idx('running').sort((a, b) => est(a) - est(b) || jobs.procs[a] - jobs.procs[b] || a - b)
      : idx('running').sort((a, b) => raw(a) - raw(b) || launched[a] - launched[b])
    let acc = freeProcs()
    let shadow = NaN
    for (const i of byEnd) {
      acc += jobs.procs[i]
      if (acc >= need) { shadow = est(i); break }
    }
    if (Number.isNaN(shadow)) throw new Error(`reference: job ${blocked} needs ${need} > machine ${machineProcs}`)
    if (shadowTies === 'all') {
      acc = freeProcs() + byEnd.filter((i) => est(i) <= shadow).reduce((sum, i) => sum + jobs.procs[i], 0)
    }
    let extra = acc - need

    // backfilling: one pass over the remaining jobs
    const rest = order.slice(k + 1)
    const candidates = config.backfill === 'same' ? rest : sortByPolicy(rest, config.backfill, now)
    let free = freeProcs()
    for (const c of candidates) {
      const q = jobs.procs[c]
      const endsBeforeShadow = now + jobs.requested[c] <= shadow
      if (q <= free && (endsBeforeShadow || q <= extra)) {
        startJob(c, now)
        free -= q
        if (!endsBeforeShadow) extra -= q
      }
    }
  }
}
