// An independent, deliberately naive checker of EASY schedules (docs/SIMULATOR.md §EASY pass, §Shadow-time rules).
// It never simulates: it takes a start vector and verifies that it is *a* valid EASY schedule
// for the given configuration. Priority functions are written here from the formulas, not
// imported from src/, so that a bug in the product's policy code cannot hide itself.
import type { PolicySpec, SimConfig, SimJobs, SimOptions } from '../../src/core/sim/types'

/** Priority of waiting job i at time `now` (HIGHER runs first), straight from the formulas. */
export function naivePriority(spec: PolicySpec, jobs: SimJobs, i: number, now: number, windowStart: number): number {
  const wait = now - jobs.submit[i]
  const p = jobs.requested[i]
  const q = jobs.procs[i]
  if (typeof spec !== 'string') {
    const x = [-q, -p, wait, -(wait + p) / p, -p / q, -p * q]
    let sum = 0
    for (let k = 0; k < 6; k++) {
      const mean = spec.mean?.[k] ?? 0
      const scale = spec.scale?.[k] ?? 1
      if (scale !== 0) sum += (spec.weights[k] * (x[k] - mean)) / scale
    }
    return sum
  }
  const r = Math.max(p, 1)
  const s = Math.max(1, jobs.submit[i] - windowStart)
  switch (spec) {
    case 'FCFS': return wait
    case 'LCFS': return -wait
    case 'SPF': return -p
    case 'LPF': return p
    case 'SQF': return -q
    case 'LQF': return q
    case 'LEXP': return (wait + p) / p
    case 'SEXP': return -(wait + p) / p
    case 'LRF': return p / q
    case 'SRF': return -p / q
    case 'LAF': return p * q
    case 'SAF': return -p * q
    case 'WFP3': return (wait / p) ** 3 * q
    case 'UNICEF': return wait / (Math.max(Math.log2(q), 0.5) * p)
    case 'F1': return -(Math.log10(r) * q + 870 * Math.log10(s))
    case 'F2': return -(Math.sqrt(r) * q + 25600 * Math.log10(s))
    case 'F3': return -(r * q + 6.86e6 * Math.log10(s))
    case 'F4': return -(r * Math.sqrt(q) + 5.30e5 * Math.log10(s))
    default: throw new Error(`checker: unknown policy ${spec}`)
  }
}

/** Origin of s for F1–F4: options.windowStart, else the first submit. */
export function windowStartOf(jobs: SimJobs, options?: SimOptions): number {
  return options?.windowStart ?? (jobs.count > 0 ? jobs.submit[0] : 0)
}

/**
 * Comparator of the thresholded primary order at `now` (negative: a runs before b). Jobs that
 * waited strictly more than Θ come first by index; the others by priority, ties by index.
 */
export function primaryComparator(jobs: SimJobs, config: SimConfig, now: number, windowStart: number): (a: number, b: number) => number {
  const theta = config.threshold
  const promoted = (i: number) => theta !== null && now - jobs.submit[i] > theta
  return (a, b) => {
    const pa = promoted(a)
    const pb = promoted(b)
    if (pa !== pb) return pa ? -1 : 1
    if (pa) return a - b
    const ka = naivePriority(config.primary, jobs, a, now, windowStart)
    const kb = naivePriority(config.primary, jobs, b, now, windowStart)
    return ka > kb ? -1 : ka < kb ? 1 : a - b
  }
}

/**
 * Earliest time ≥ now at which `need` processors are free, by estimated ends
 * max(start + p̃, now) of the jobs in `running` (everything else is free).
 */
export function earliestStart(jobs: SimJobs, machineProcs: number, start: Float64Array, running: readonly number[], need: number, now: number): number {
  const ends = running.map((i) => ({ e: Math.max(start[i] + jobs.requested[i], now), q: jobs.procs[i] }))
  ends.sort((a, b) => a.e - b.e)
  let free = machineProcs - ends.reduce((acc, x) => acc + x.q, 0)
  if (free >= need) return now
  for (let k = 0; k < ends.length; k++) {
    free += ends[k].q
    // all jobs ending at the same instant free their processors together
    if (free >= need && (k + 1 === ends.length || ends[k + 1].e > ends[k].e)) return ends[k].e
  }
  return Infinity
}

/** A small set of job indices with O(1) add/remove (order irrelevant). */
class IndexSet {
  readonly items: number[] = []
  private readonly pos: Int32Array
  constructor(n: number) { this.pos = new Int32Array(n).fill(-1) }
  add(i: number): void { this.pos[i] = this.items.length; this.items.push(i) }
  remove(i: number): void {
    const k = this.pos[i]
    if (k < 0) return
    const last = this.items.pop() as number
    if (last !== i) { this.items[k] = last; this.pos[last] = k }
    this.pos[i] = -1
  }
}

export interface CheckOptions extends SimOptions {
  /** Stop collecting after this many violations (default 20). */
  readonly maxViolations?: number
}

/** Human-readable violations of the EASY rules by `start`; empty when the schedule is valid. */
export function checkSchedule(jobs: SimJobs, machineProcs: number, config: SimConfig, start: Float64Array, options?: CheckOptions): string[] {
  const out: string[] = []
  const max = options?.maxViolations ?? 20
  const report = (msg: string) => { if (out.length < max) out.push(msg) }
  const n = jobs.count
  if (start.length !== n) return [`start vector has length ${start.length}, expected ${n}`]
  const end = (i: number) => start[i] + jobs.runtime[i]

  // 1. every job starts, at a finite time not before its submit
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(start[i])) report(`job ${i} has no finite start (${start[i]})`)
    else if (start[i] < jobs.submit[i]) report(`job ${i} starts at ${start[i]} before its submit ${jobs.submit[i]}`)
  }
  if (out.length > 0) return out

  // 2. capacity, by a sweep over actual [start, end) intervals: ends before starts at equal times
  const ev: { t: number, d: number }[] = []
  for (let i = 0; i < n; i++) {
    if (jobs.runtime[i] <= 0) continue
    ev.push({ t: start[i], d: jobs.procs[i] }, { t: end(i), d: -jobs.procs[i] })
  }
  ev.sort((a, b) => a.t - b.t || a.d - b.d)
  let used = 0
  for (const e of ev) {
    used += e.d
    if (used > machineProcs) report(`capacity exceeded at t=${e.t}: ${used} > ${machineProcs} processors in use`)
  }

  // 3. scheduling instants = distinct submits and actual ends; (d) starts happen only there
  const instantSet = new Set<number>()
  for (let i = 0; i < n; i++) { instantSet.add(jobs.submit[i]); instantSet.add(end(i)) }
  for (let i = 0; i < n; i++) {
    if (!instantSet.has(start[i])) report(`job ${i} starts at ${start[i]}, which is neither a submit nor a job end (no scheduling pass happens then)`)
  }
  const instants = [...instantSet].sort((a, b) => a - b)

  // 4. per-instant EASY rules, sweeping the instants with three cursors
  const ws = windowStartOf(jobs, options)
  const bySubmit = Array.from({ length: n }, (_, i) => i).sort((a, b) => jobs.submit[a] - jobs.submit[b] || a - b)
  const byStart = Array.from({ length: n }, (_, i) => i).sort((a, b) => start[a] - start[b] || a - b)
  const pending = new IndexSet(n) // submitted, not started before the current instant
  const running = new IndexSet(n) // started before the current instant, actual end after it
  let cs = 0
  let cst = 0
  for (const t of instants) {
    for (const i of [...running.items]) if (end(i) <= t) running.remove(i)
    while (cs < n && jobs.submit[bySubmit[cs]] <= t) pending.add(bySubmit[cs++])
    const startedNow: number[] = []
    while (cst < n && start[byStart[cst]] <= t) startedNow.push(byStart[cst++])
    for (const i of startedNow) pending.remove(i)
    const waiting = pending.items
    if (waiting.length > 0) checkInstant(t, waiting, startedNow, running.items)
    for (const i of startedNow) running.add(i)
  }
  return out

  function checkInstant(t: number, waiting: readonly number[], startedNow: readonly number[], runningBefore: readonly number[]): void {
    const cmp = primaryComparator(jobs, config, t, ws)
    let blocked = waiting[0]
    for (const i of waiting) if (cmp(i, blocked) < 0) blocked = i
    const qb = jobs.procs[blocked]
    const usedBefore = runningBefore.reduce((acc, i) => acc + jobs.procs[i], 0)
    // (a) greedy head rule. Zero-runtime jobs started at t still count as running, which can
    // only make the free count smaller than the simulator's: never a false alarm.
    const freeFinal = machineProcs - usedBefore - startedNow.reduce((acc, i) => acc + jobs.procs[i], 0)
    if (qb <= freeFinal) {
      report(`t=${t}: job ${blocked} heads the primary order and needs ${qb} processors, ${freeFinal} are free after all starts: EASY would have started it`)
      return
    }
    // With a zero-runtime job started at t the simulator may free processors and run a second
    // pass at the same t, so the single-pass rules (b) and (c) are not checked there.
    if (startedNow.some((i) => jobs.runtime[i] <= 0)) return
    const prefix = startedNow.filter((i) => cmp(i, blocked) < 0)
    const backfilled = startedNow.filter((i) => cmp(i, blocked) > 0)
    // (b) primary phase: the jobs before `blocked` all started; `blocked` must not fit after them
    const free0 = machineProcs - usedBefore - prefix.reduce((acc, i) => acc + jobs.procs[i], 0)
    if (qb <= free0) {
      report(`t=${t}: primary phase started [${prefix.join(', ')}] and then job ${blocked} (needs ${qb}) fits in the ${free0} free processors, but it was not started (backfilled instead: [${backfilled.join(', ')}])`)
      return
    }
    // (c) backfilling did not delay the reservation of `blocked`
    if (backfilled.length === 0) return
    const afterPrimary = [...runningBefore, ...prefix]
    const s0 = earliestStart(jobs, machineProcs, start, afterPrimary, qb, t)
    const s1 = earliestStart(jobs, machineProcs, start, [...afterPrimary, ...backfilled], qb, t)
    if (s1 > s0) {
      report(`t=${t}: backfilling [${backfilled.join(', ')}] delayed the reservation of job ${blocked} from ${s0} to ${s1}`)
    }
  }
}
