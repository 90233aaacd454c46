// Log cleaning: the research's rules, exactly (docs/SIMULATOR.md §Cleaning rules), each counted with example
// lines so the import report shows what happened to every job.
import { formatNumber } from '../util/format'
import { COLUMN_SPEC, ExampleCounter, optionalColumns, ruleCount } from './builder'
import type { JobTable, MachineSource, ParsedLog, RawJobs, RuleCount } from './types'
import { DEFAULTS } from '../defaults'

/** What to do with a job that ran longer than it requested (rule C7). */
export type OverrunPolicy = 'drop' | 'clamp' | 'keep'
/** What to do with a job whose requested time is missing or ≤ 0. */
export type RequestedFallback = 'drop' | 'runtime' | { seconds: number }

export interface CleanOptions {
  /** Machine size given by the user; overrides the header. */
  procs?: number
  overrun?: OverrunPolicy
  requestedFallback?: RequestedFallback
}

export interface MachineSize {
  procs: number
  source: MachineSource
  note: string
}

/** Machine size: given > `; MaxProcs:` > `; MaxNodes:` > largest job (docs/SIMULATOR.md §Machine size). */
export function machineSize(log: ParsedLog, given?: number): MachineSize {
  if (given !== undefined) return { procs: given, source: 'given', note: `${fmt(given)} processors, as given` }
  if (log.maxProcs !== null) return { procs: log.maxProcs, source: 'header-maxprocs', note: `${fmt(log.maxProcs)} processors, from the log header (MaxProcs)` }
  if (log.maxNodes !== null) {
    return { procs: log.maxNodes, source: 'header-maxnodes', note: `${fmt(log.maxNodes)} processors, from the log header's MaxNodes (there is no MaxProcs line; if nodes have several processors each, give the real size with --procs)` }
  }
  let largest = 0
  const j = log.jobs
  for (let i = 0; i < j.count; i++) {
    const q = j.reqProcs[i] > 0 ? j.reqProcs[i] : j.allocProcs[i]
    if (q > largest) largest = q
  }
  largest = Math.floor(largest)
  return {
    procs: Math.max(1, largest), source: 'inferred-largest-job',
    note: `${fmt(largest)} processors, inferred from the largest job: the log does not say how big the machine is. ` +
      'A real machine is usually larger, which makes the simulated one look busier; give the real size with --procs.',
  }
}

export interface Cleaned {
  jobs: JobTable
  rules: RuleCount[]
  /** Jobs whose requested time was missing (≤ 0) before any fallback. */
  requestedMissing: number
}

/**
 * Applies C3–C5, C7 and the requested-time rule to the raw rows, in a fixed order: a job dropped
 * by one rule is counted there only. Then sorts by (submit, id) if the log was not sorted.
 */
export function cleanJobs(raw: RawJobs, m: number, opts: CleanOptions = {}): Cleaned {
  const overrun = opts.overrun ?? DEFAULTS.overrun.value
  const fallback = opts.requestedFallback ?? DEFAULTS.requestedFallback.value
  const c = {
    submit: new ExampleCounter(), runtime: new ExampleCounter(), noProcs: new ExampleCounter(),
    procsFromAlloc: new ExampleCounter(), allocFromReq: new ExampleCounter(), tooBig: new ExampleCounter(),
    noRequested: new ExampleCounter(), requestedFilled: new ExampleCounter(), overrun: new ExampleCounter(),
    unsorted: new ExampleCounter(), zeroRuntime: new ExampleCounter(), duplicate: new ExampleCounter(),
  }
  const n = raw.count
  const keep = new Int32Array(n)
  const procs = new Int32Array(n)
  const requested = new Float64Array(n)
  const runtime = new Float64Array(n)
  let kept = 0
  let requestedMissing = 0
  for (let i = 0; i < n; i++) {
    const line = raw.line[i]
    const r = raw.submit[i], p = raw.runtime[i]
    if (!(r >= 0)) { c.submit.add(line); continue }                       // C5
    if (!(p >= 0)) { c.runtime.add(line); continue }                      // C5
    const req = raw.reqProcs[i], alloc = raw.allocProcs[i]
    let q: number
    if (req > 0) {
      q = req
      if (!(alloc > 0)) c.allocFromReq.add(line)                          // C4 (allocated missing: informational)
    } else if (alloc > 0) { q = alloc; c.procsFromAlloc.add(line) }       // C4
    else { c.noProcs.add(line); continue }                                // C4
    if (req > m || alloc > m) { c.tooBig.add(line); continue }            // C3
    let pt = raw.requested[i]
    if (!(pt > 0)) {
      requestedMissing++
      if (fallback === 'drop') { c.noRequested.add(line); continue }
      pt = fallback === 'runtime' ? Math.max(p, 1) : fallback.seconds
      c.requestedFilled.add(line)
    }
    let pr = p
    if (p > pt) {                                                          // C7
      if (overrun === 'drop') { c.overrun.add(line); continue }
      c.overrun.add(line)
      if (overrun === 'clamp') pr = pt
    }
    if (p === 0) c.zeroRuntime.add(line)
    procs[kept] = Math.ceil(q)
    requested[kept] = pt
    runtime[kept] = pr
    keep[kept++] = i
  }

  // Sort kept rows by (submit, id, line) unless already sorted.
  let order = keep.subarray(0, kept)
  let sorted = true
  for (let k = 1; k < kept; k++) {
    const a = keep[k - 1], b = keep[k]
    if (raw.submit[b] < raw.submit[a] || (raw.submit[b] === raw.submit[a] && raw.id[b] < raw.id[a])) {
      sorted = false
      if (raw.submit[b] < raw.submit[a]) c.unsorted.add(raw.line[b])
    }
  }
  let pos: Int32Array | null = null
  if (!sorted) {
    const idx = Array.from({ length: kept }, (_, k) => k)
    idx.sort((x, y) => {
      const a = keep[x], b = keep[y]
      return raw.submit[a] - raw.submit[b] || raw.id[a] - raw.id[b] || raw.line[a] - raw.line[b]
    })
    pos = Int32Array.from(idx)
    order = Int32Array.from(idx, (k) => keep[k])
  }
  const out = {
    count: kept,
    id: new Float64Array(kept), submit: new Float64Array(kept), runtime: new Float64Array(kept),
    requested: new Float64Array(kept), procs: new Int32Array(kept), user: new Int32Array(kept),
    recordedWait: new Float64Array(kept), line: new Int32Array(kept),
    ...(raw.account ? { account: new Int32Array(kept) } : {}),
  }
  // The optional columns (resources, ids) the log has: carried as they are, absent ones stay absent.
  const extra = optionalColumns(raw).map(([name, from]) => ({ name, from, to: COLUMN_SPEC[name].make(kept) }))
  // Duplicates by the record's own id (sacct JobIDRaw) when the log has it: array tasks share `id`.
  const key = raw.rawId ?? raw.id
  const seen = new Set<number>()
  for (let k = 0; k < kept; k++) {
    const i = order[k]
    const src = pos === null ? k : pos[k]
    out.id[k] = raw.id[i]; out.submit[k] = raw.submit[i]; out.runtime[k] = runtime[src]
    out.requested[k] = requested[src]; out.procs[k] = procs[src]; out.user[k] = raw.user[i]
    out.recordedWait[k] = raw.recordedWait[i]; out.line[k] = raw.line[i]
    if (out.account) out.account[k] = raw.account![i]
    for (const e of extra) e.to[k] = e.from[i]
    if (key[i] >= 0) { if (seen.has(key[i])) c.duplicate.add(raw.line[i]); else seen.add(key[i]) }
  }

  const overrunText = {
    drop: 'ran longer than requested (p > p̃): removed, as the research does (C7)',
    clamp: 'ran longer than requested (p > p̃): runtime cut to the requested time, as a walltime kill would (C7, clamp)',
    keep: 'ran longer than requested (p > p̃): kept as recorded (C7, keep); the reservation treats them as ending now once overdue',
  }[overrun]
  const fallbackText = fallback === 'drop' ? ''
    : fallback === 'runtime' ? 'requested time missing or ≤ 0: set to the actual runtime (perfect estimates: backfilling becomes clairvoyant for these jobs)'
      : `requested time missing or ≤ 0: set to ${fmt(fallback.seconds)} s`
  const rules: RuleCount[] = [
    ruleCount('C5-submit', 'submit time negative or unknown: removed (C5)', 'removed', c.submit),
    ruleCount('C5-runtime', 'runtime negative or unknown: removed (C5)', 'removed', c.runtime),
    ruleCount('C4-procs-from-allocated', 'requested processors missing: allocated processors used instead (C4)', 'changed', c.procsFromAlloc),
    ruleCount('C4-allocated-missing', 'allocated processors missing: requested processors used (C4, no effect on the simulation)', 'info', c.allocFromReq),
    ruleCount('C4-no-procs', 'both requested and allocated processors missing: removed (C4)', 'removed', c.noProcs),
    ruleCount('C3-too-big', `more processors than the machine's ${fmt(m)}: removed (C3)`, 'removed', c.tooBig),
    ruleCount('requested-missing', 'requested time missing or ≤ 0: removed (EASY needs it for the reservation; choose a fallback to keep them)', 'removed', c.noRequested),
    ...(fallback === 'drop' ? [] : [ruleCount('requested-filled', fallbackText, 'changed', c.requestedFilled)]),
    ruleCount('C7-overrun', overrunText, overrun === 'drop' ? 'removed' : overrun === 'clamp' ? 'changed' : 'info', c.overrun),
    ruleCount('zero-runtime', 'runtime 0 (legal in SWF: ran under 0.5 s): kept', 'info', c.zeroRuntime),
    ruleCount('unsorted', 'submitted earlier than the line before: the jobs were sorted by submit time', 'info', c.unsorted),
    ruleCount('duplicate-id', 'job id seen before: kept (ids need not be unique, e.g. SLURM arrays; unknown ids are not counted)', 'info', c.duplicate),
  ]
  const jobs: JobTable = { ...out, ...Object.fromEntries(extra.map((e) => [e.name, e.to])) }
  return { jobs, rules, requestedMissing }
}

/** Counts and sizes in the report's words: "93,312". */
export const fmt = (n: number) => formatNumber(n)
