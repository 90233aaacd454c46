// Log cleaning: the research's rules, exactly (docs/SIMULATOR.md §Cleaning rules), each counted with example
// lines so the import report shows what happened to every job.
import { formatNumber } from '../util/format'
import { ExampleCounter, optionalColumns, releaseColumn, ruleCount, type ColumnArray } from './builder'
import { gather, permuteInPlace, sortOrderBy } from '../util/order'
import type { JobTable, MachineSource, ParsedLog, RawJobs, RuleCount } from './types'
import { DEFAULTS } from '../defaults'
import { MAX_COUNT } from './limits'

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
  const reqProcs = j.reqProcs, allocProcs = j.allocProcs
  for (let i = 0; i < j.count; i++) {
    const q = procCount(reqProcs[i] > 0 ? reqProcs[i] : allocProcs[i])
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
 *
 * The kept jobs are compacted in place into the raw columns (job k ≤ row i is written after row i
 * was read), so the cleaned table is views of them, not a second table beside the raw one
 * (docs/PERFORMANCE.md §Import at scale: 76 bytes per job less at the import peak). `consume`:
 * the caller gives up `raw` (its columns are overwritten, those not in the table freed: they read
 * as empty after); otherwise they are copied first.
 */
export function cleanJobs(raw: RawJobs, m: number, opts: CleanOptions = {}, consume = false): Cleaned {
  const overrun = opts.overrun ?? DEFAULTS.overrun.value
  const fallback = opts.requestedFallback ?? DEFAULTS.requestedFallback.value
  const c = {
    submit: new ExampleCounter(), runtime: new ExampleCounter(), noProcs: new ExampleCounter(),
    procsFromAlloc: new ExampleCounter(), allocFromReq: new ExampleCounter(), tooBig: new ExampleCounter(),
    noRequested: new ExampleCounter(), requestedFilled: new ExampleCounter(), overrun: new ExampleCounter(),
    unsorted: new ExampleCounter(), zeroRuntime: new ExampleCounter(), duplicate: new ExampleCounter(),
  }
  const n = raw.count
  const own = <T extends ColumnArray>(a: T): T => (consume ? a : a.slice() as T)
  // The columns in locals: a property load per job on the (dictionary-shaped) table cost seconds on
  // a 3M-job log (docs/PERFORMANCE.md §Import at scale).
  const id = own(raw.id), submit = own(raw.submit), runtime = own(raw.runtime), requested = own(raw.requested)
  const wait = own(raw.recordedWait), user = own(raw.user), line = own(raw.line)
  const account = raw.account === undefined ? undefined : own(raw.account)
  const extra = optionalColumns(raw).map(([name, from]) => ({ name, col: own(from) }))
  const extraCols = extra.map((e) => e.col)
  const reqProcs = raw.reqProcs, allocProcs = raw.allocProcs // read only
  // Given up, the raw status column (never read here) becomes the processors column: job k's count
  // is written after the rows up to k were read, so a 4-byte-per-job column less at the peak.
  const procs = consume ? raw.status : new Int32Array(n)
  let kept = 0
  let requestedMissing = 0
  for (let i = 0; i < n; i++) {
    const ln = line[i]
    const r = submit[i], p = runtime[i]
    if (!(r >= 0)) { c.submit.add(ln); continue }                         // C5
    if (!(p >= 0)) { c.runtime.add(ln); continue }                        // C5
    const req = procCount(reqProcs[i]), alloc = procCount(allocProcs[i])
    let q: number
    if (req > 0) {
      q = req
      if (!(alloc > 0)) c.allocFromReq.add(ln)                            // C4 (allocated missing: informational)
    } else if (alloc > 0) { q = alloc; c.procsFromAlloc.add(ln) }         // C4
    else { c.noProcs.add(ln); continue }                                  // C4
    if (req > m || alloc > m) { c.tooBig.add(ln); continue }              // C3
    let pt = requested[i]
    if (!(pt > 0)) {
      requestedMissing++
      if (fallback === 'drop') { c.noRequested.add(ln); continue }
      pt = fallback === 'runtime' ? Math.max(p, 1) : fallback.seconds
      c.requestedFilled.add(ln)
    }
    let pr = p
    if (p > pt) {                                                          // C7
      if (overrun === 'drop') { c.overrun.add(ln); continue }
      c.overrun.add(ln)
      if (overrun === 'clamp') pr = pt
    }
    if (p === 0) c.zeroRuntime.add(ln)
    const k = kept++
    procs[k] = Math.ceil(q)
    requested[k] = pt
    runtime[k] = pr
    if (k !== i) {
      id[k] = id[i]; submit[k] = r; wait[k] = wait[i]; user[k] = user[i]; line[k] = ln
      if (account !== undefined) account[k] = account[i]
      for (let e = 0; e < extraCols.length; e++) extraCols[e][k] = extraCols[e][i]
    }
  }

  // Sort kept jobs by (submit, id, line) unless already sorted.
  let sorted = true
  for (let k = 1; k < kept; k++) {
    if (submit[k] < submit[k - 1] || (submit[k] === submit[k - 1] && id[k] < id[k - 1])) {
      sorted = false
      if (submit[k] < submit[k - 1]) c.unsorted.add(line[k])
    }
  }
  const base = {
    id, submit, runtime, requested, procs, user, recordedWait: wait, line,
    ...(account !== undefined ? { account } : {}),
  }
  // Read no more: the processor columns of a log given up are freed now, not at the next collection.
  if (consume) { releaseColumn(raw.allocProcs, true); releaseColumn(raw.reqProcs, true) }
  // Views of the compacted columns, unless a column would keep noticeably more WRITTEN rows than
  // the kept jobs alive: then an exact copy, freed as soon as it is copied (the copy adds one
  // column to the import's peak, not a table). Written rows, not the column's length: a builder's
  // spare room past its last job (its estimate of the log's length runs 10–20 % over) was never
  // written, so the operating system never gave it pages and a view costs nothing for it, while a
  // copy writes every kept row to fresh pages — 150 MB on a 3M-job log, and on a host where a
  // fresh page is slow to come (docs/PERFORMANCE.md §Fresh pages) the slowest step of the import.
  // The written rows: the n parsed ones; a column the builder fills with its unknown value when
  // it is created or grown (account, the optional ones) is written to the end of its buffer.
  // An unsorted log is put in (submit, id, line) order (a radix sort of the positions for whole
  // times and ids, util/order.ts): a copied column is gathered in that order, a viewed one is
  // reordered in place, following the permutation's cycles (no second copy of it).
  const order = sorted ? null : sortOrderBy([submit, id, line], kept)
  const inPlace: ColumnArray[] = []
  const limit = kept * MAX_SPARE + 1024
  const cut = (filled: boolean) => <T extends ColumnArray>(a: T): T => {
    if ((filled ? a.buffer.byteLength / a.BYTES_PER_ELEMENT : n) <= limit) {
      if (order !== null) inPlace.push(a)
      return a.subarray(0, kept) as T
    }
    const c = order !== null ? gather(a, order, kept) : a.slice(0, kept) as T
    releaseColumn(a, consume)
    return c
  }
  const { account: acc, ...core } = base
  const jobs: JobTable = {
    count: kept, ...columnsOf(core, cut(false)),
    ...(acc !== undefined ? { account: cut(true)(acc) } : {}),
    ...Object.fromEntries(extra.map((e) => [e.name, cut(true)(e.col)])),
  }
  if (order !== null) { permuteInPlace(inPlace, order, kept); releaseColumn(order) }
  // Duplicates by the record's own id (sacct JobIDRaw) when the log has it: array tasks share `id`.
  countDuplicates(jobs.rawId ?? jobs.id, jobs.line, c.duplicate)

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
  return { jobs, rules, requestedMissing }
}

/** A processor count as read from the raw columns: single precision rounds the largest counts the
 * parsers accept (MAX_COUNT = 2^31 − 1) up to 2^31; they are read back as MAX_COUNT, so such a job
 * is what it was in double precision (and fits an Int32 column). NaN stays NaN. */
function procCount(v: number): number {
  return v > MAX_COUNT ? MAX_COUNT : v
}

/** A cleaned table may keep its raw columns (views) while they hold at most this many written rows per kept job. */
const MAX_SPARE = 1.05

/** Each column through `cut` (its first rows, viewed or copied). */
function columnsOf<T extends Record<string, ColumnArray>>(cols: T, cut: <A extends ColumnArray>(a: A) => A): T {
  const out: Record<string, ColumnArray> = {}
  for (const [k, a] of Object.entries(cols)) out[k] = cut(a)
  return out as T
}

/**
 * Counts the jobs whose key (≥ 0; a negative key is unknown) was seen earlier in output order
 * (job k's key key[k], its line lines[k]), with their lines as examples, as a Set walked in order
 * would, without a Set of every key (a 3M-entry Set cost seconds and ~100 bytes per job):
 * increasing keys have no duplicate; else a sorted copy finds the repeated values and only those
 * are followed in order.
 */
function countDuplicates(key: Float64Array, lines: Int32Array, counter: ExampleCounter): void {
  const n = key.length
  let increasing = true
  let last = -1
  for (let k = 0; k < n && increasing; k++) {
    const v = key[k]
    if (!(v >= 0)) continue
    if (last >= 0 && !(v > last)) increasing = false
    last = v
  }
  if (increasing) return
  const sorted = key.slice()
  sorted.sort()
  const repeated = new Set<number>()
  for (let k = 1; k < n; k++) if (sorted[k] >= 0 && sorted[k] === sorted[k - 1]) repeated.add(sorted[k])
  if (repeated.size === 0) return
  const seen = new Set<number>()
  for (let k = 0; k < n; k++) {
    const v = key[k]
    if (!repeated.has(v)) continue
    if (seen.has(v)) counter.add(lines[k]); else seen.add(v)
  }
}

/** Counts and sizes in the report's words: "93,312". */
export const fmt = (n: number) => formatNumber(n)
