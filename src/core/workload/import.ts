// Import = detect the format, stream the bytes through its parser, find the machine size, clean.
// Pure: the caller reads the file (plain or gzip) and feeds byte chunks.
import { formatPercent } from '../util/format'
import { showControl, showControlOneLine } from '../util/control'
import { cleanJobs, fmt, machineSize, type CleanOptions, type OverrunPolicy, type RequestedFallback } from './clean'
import { detectFormat } from './detect'
import { InputError } from './errors'
import { checkText } from './lines'
import { MAX_COUNT } from './limits'
import { createJobcompParser } from './jobcomp'
import { createPbsParser } from './pbs'
import { createSacctParser } from './sacct'
import { MIN_SWF_JOB_BYTES, createSwfParser } from './swf'
import { offeredLoad, overloadWarning } from './load'
import { mergeParsedLogs, type FileGap } from './merge'
import { missingFieldReport, type ResourceReport } from './sacct-command'
import type { JobTable, LineIssue, LogFormat, LogParser, MachineSource, NodeSeen, ParsedLog, RuleCount } from './types'
import { DEFAULTS } from '../defaults'

export interface ImportOptions extends CleanOptions {
  /** Display name (usually the file name). */
  name?: string
  /** Force a format instead of detecting it. */
  format?: LogFormat
}

export const IMPORT_SCHEMA_VERSION = 1

export interface ImportReport {
  schemaVersion: number
  name: string
  format: LogFormat
  formatSource: 'detected' | 'given'
  linesRead: number
  jobsRead: number
  jobsKept: number
  jobsRemoved: number
  machine: { procs: number; source: MachineSource; note: string }
  /** Every rule, with its count and up to five example line numbers (parser rules first). */
  rules: RuleCount[]
  badLines: { count: number; examples: LineIssue[] }
  warnings: string[]
  span: { firstSubmit: number; lastSubmit: number; seconds: number; unixStartTime: number | null; startIso: string | null; endIso: string | null }
  users: number
  requestedMissing: number
  recordedWaits: number
  options: { overrun: OverrunPolicy; requestedFallback: RequestedFallback; procs: number | null }
  /** Interesting header lines (SWF): computer, installation, acknowledgement, etc. */
  header: Record<string, string>
  /** Several files read as one log: each file with its jobs and submit span (ISO when the log has
   * dates), the jobs found in several files (kept once) and the gaps between files. Absent for one file. */
  files?: { name: string; jobsRead: number; duplicates: number; startIso: string | null; endIso: string | null; firstSubmit: number | null; lastSubmit: number | null }[]
  duplicates?: number
  gaps?: (FileGap & { fromIso: string | null; toIso: string | null })[]
  /** Which resource information the log has (partition, QOS, nodes, memory, GPUs, node list,
   * eligible time, flags, priority, recorded start), which it lacks and what each lack costs; for
   * sacct, the fields of the recommended command it lacks (sacct-command.ts). Optional addition
   * to schema version 1: absent in reports written before issue #21. */
  resources?: ResourceReport
}

export interface Workload {
  name: string
  format: LogFormat
  jobs: JobTable
  users: string[]
  /** Account names (index = JobTable.account), when the log records accounts. */
  accounts?: string[]
  /** Partition and QOS names (index = JobTable.partition / qos), when the log records them. */
  partitions?: string[]
  qosNames?: string[]
  /** The nodes the log's node lists name (docs/SIMULATOR.md §Resource columns), when it has node lists. */
  nodesSeen?: readonly NodeSeen[]
  machineProcs: number
  unixStartTime: number | null
  report: ImportReport
}

const PARSERS: Record<LogFormat, () => LogParser> = {
  swf: createSwfParser, sacct: createSacctParser, jobcomp: createJobcompParser, pbs: createPbsParser,
}
const DETECT_BYTES = 64 * 1024

/**
 * About how many SWF jobs `totalBytes` of text hold, from the head's bytes per line, with a tenth
 * to spare (later lines are rarely shorter: ids and times grow), at most one per 36 bytes; null
 * when the head has too few lines to tell (fewer than 16). For sizing columns (LogParser.reserve): the data decides the count.
 */
export function estimateJobs(totalBytes: number, head: Uint8Array): number | null {
  let lines = 0
  for (let i = head.indexOf(10); i >= 0; i = head.indexOf(10, i + 1)) lines++
  if (lines < 16) return null
  // A head of short lines (blank or junk: hostile input) must not size columns for more jobs
  // than the file could hold.
  return Math.min(MAX_COUNT, Math.floor(totalBytes / MIN_SWF_JOB_BYTES), Math.ceil(totalBytes * (lines / head.length) * 1.1))
}

/** Streaming importer: feed decompressed byte chunks, then end(). */
export class Importer {
  private parser: LogParser | null = null
  private pending: Uint8Array[] = []
  private pendingBytes = 0
  private formatSource: 'detected' | 'given' = 'detected'
  bytesFed = 0

  constructor(private readonly opts: ImportOptions = {}) {
    if (opts.procs !== undefined && !(Number.isInteger(opts.procs) && opts.procs > 0 && opts.procs <= MAX_COUNT)) {
      throw new InputError(`the machine size must be a whole number of processors from 1 to ${fmt(MAX_COUNT)} (got ${opts.procs})`)
    }
    if (opts.format !== undefined) {
      if (!(opts.format in PARSERS)) throw new InputError(`unknown format "${String(opts.format)}"; use swf, sacct, jobcomp or pbs`)
      this.parser = PARSERS[opts.format]()
      this.formatSource = 'given'
    }
  }

  /** Jobs parsed so far, for progress reports: 0 until the format is known (the first 64 KiB are
   * held back to detect it unless a format was given). */
  get jobsRead(): number {
    return this.parser?.jobsRead ?? 0
  }

  /**
   * The decompressed size of the whole file, when the reader knows it (a plain file's size, a gzip
   * trailer's): the parser then sizes its columns from it (estimateJobs, LogParser.reserve). Give
   * it before the first feed.
   */
  expectBytes(total: number): void {
    if (Number.isFinite(total) && total > 0) this.expected = total
  }

  private expected: number | null = null

  private reserveFor(head: Uint8Array): void {
    if (this.expected !== null) this.parser?.expectBytes?.(this.expected)
    if (this.expected === null || this.parser?.reserve === undefined) return
    const n = estimateJobs(this.expected, head)
    if (n !== null) this.parser.reserve(n)
  }

  feed(chunk: Uint8Array): void {
    if (this.bytesFed === 0 && chunk.length > 0) {
      checkText(chunk)
      if (this.parser) this.reserveFor(chunk) // a format given: the first piece is the head
    }
    this.bytesFed += chunk.length
    if (this.parser) { this.parser.feed(chunk); return }
    this.pending.push(chunk)
    this.pendingBytes += chunk.length
    if (this.pendingBytes >= DETECT_BYTES) this.startParser()
  }

  private startParser(): void {
    const head = concat(this.pending, Math.min(this.pendingBytes, DETECT_BYTES))
    this.parser = PARSERS[detectFormat(head)]()
    this.reserveFor(head)
    for (const c of this.pending) this.parser.feed(c)
    this.pending = []
  }

  end(): Workload {
    return finishImport(this.endParsed(), this.opts, this.formatSource, true)
  }

  /** The parsed jobs, not yet cleaned: one file of a log read from several (see importParsedFiles). */
  endParsed(): ParsedLog {
    if (this.bytesFed === 0) throw new InputError('the file is empty')
    if (!this.parser) this.startParser()
    return this.parser!.end()
  }

  get format(): 'detected' | 'given' {
    return this.formatSource
  }
}

/**
 * Several files as one log: merges the parsed files (src/core/workload/merge.ts: one format, jobs
 * in several files kept once, gaps found), then cleans the whole log once, so every rule and its
 * count covers all files. The report lists each file with its jobs and span. `consume`: the caller
 * gives up the parsed logs, whose columns then become the cleaned table's (no second table).
 */
export function importParsedFiles(parts: readonly { name: string; log: ParsedLog }[], opts: ImportOptions = {}, formatSource: 'detected' | 'given' = 'detected', consume = false): Workload {
  if (parts.length === 1) return finishImport(parts[0].log, { ...opts, name: opts.name ?? parts[0].name }, formatSource, consume)
  const merged = mergeParsedLogs(parts)
  const name = opts.name ?? `${parts[0].name} … ${parts[parts.length - 1].name} (${parts.length} files)`
  const w = finishImport(merged.log, { ...opts, name }, formatSource, true) // the merged log is new
  const iso = isoOf(merged.log.unixStartTime)
  w.report.files = merged.files.map((f) => ({ ...f, startIso: f.firstSubmit === null ? null : iso(f.firstSubmit), endIso: f.lastSubmit === null ? null : iso(f.lastSubmit) }))
  w.report.duplicates = merged.duplicates
  w.report.gaps = merged.gaps.map((g) => ({ ...g, fromIso: iso(g.from), toIso: iso(g.to) }))
  return w
}

/** ISO date of a log time (seconds after the log's epoch start), null when the log has no dates. */
function isoOf(unixStartTime: number | null): (t: number) => string | null {
  return (t) => {
    const ms = unixStartTime === null ? NaN : (unixStartTime + t) * 1000
    return Math.abs(ms) <= MAX_DATE_MS ? new Date(ms).toISOString() : null
  }
}

/** Convenience for whole buffers and strings (tests, small uploads). */
export function importBytes(bytes: Uint8Array, opts: ImportOptions = {}): Workload {
  const imp = new Importer(opts)
  const step = 1 << 20
  for (let i = 0; i < bytes.length; i += step) imp.feed(bytes.subarray(i, i + step))
  return imp.end()
}

export function importText(text: string, opts: ImportOptions = {}): Workload {
  return importBytes(new TextEncoder().encode(text), opts)
}

/** `consume`: cleaning may overwrite `log.jobs` (cleanJobs); everything that reads them runs before. */
function finishImport(log: ParsedLog, opts: ImportOptions, formatSource: 'detected' | 'given', consume: boolean): Workload {
  const name = opts.name ?? 'log'
  const jobLines = log.jobs.count + log.badLines
  if (log.jobs.count === 0 && log.badLines > 0) {
    const ex = log.badLineExamples[0]
    throw new InputError(`no job could be read: all ${fmt(log.badLines)} job lines are malformed (line ${ex.line}, ${ex.code}: ${ex.message})`, ex.line, ex.code)
  }
  if (jobLines >= 20 && log.badLines > jobLines / 2) {
    const ex = log.badLineExamples[0]
    throw new InputError(`${fmt(log.badLines)} of ${fmt(jobLines)} job lines are malformed: this does not look like a ${log.format} log (line ${ex.line}, ${ex.code}: ${ex.message})`, ex.line, ex.code)
  }
  const machine = machineSize(log, opts.procs)
  const resources = missingFieldReport(log) // reads the raw columns: before cleaning may overwrite them
  const cleaned = cleanJobs(log.jobs, machine.procs, opts, consume)
  const jobs = cleaned.jobs
  const warnings = log.warnings.map(showControl) // they may quote the log's text
  if (log.badLines > 0) {
    const ex = log.badLineExamples[0]
    warnings.push(`${fmt(log.badLines)} line${log.badLines === 1 ? '' : 's'} could not be read and ${log.badLines === 1 ? 'was' : 'were'} skipped (first: line ${ex.line}, ${ex.code}: ${ex.message}).`)
  }
  if (machine.source === 'header-maxnodes' || machine.source === 'inferred-largest-job') warnings.push(`Machine size: ${machine.note.replace(/\.?$/, '.')}`) // one full stop, whether the note ends with one or not
  const fallback = opts.requestedFallback ?? DEFAULTS.requestedFallback.value
  if (cleaned.requestedMissing > 0) {
    const share = cleaned.requestedMissing / Math.max(1, log.jobs.count)
    warnings.push(
      `Requested time is missing for ${fmt(cleaned.requestedMissing)} jobs (${formatPercent(share, 1)}). EASY reserves and backfills on requested times, ` +
      (fallback === 'drop'
        ? 'so these jobs were removed. To keep them, choose a fallback (--requested-fallback runtime uses the actual runtime, i.e. perfect estimates, which makes backfilling look better than it is).'
        : fallback === 'runtime' ? 'so they use their actual runtime as the estimate: backfilling is clairvoyant for them and looks better than it would be.'
          : `so they use ${fmt(fallback.seconds)} s as the estimate.`))
  }
  if (jobs.count === 0) throw new InputError(noJobKept(log, cleaned.rules, fallback))
  const overload = overloadWarning(offeredLoad(jobs, machine.procs))
  if (overload !== null) warnings.push(overload)
  let recordedWaits = 0
  const waitCol = jobs.recordedWait, userCol = jobs.user // locals: a property load per job cost seconds at 3M jobs
  for (let i = 0; i < jobs.count; i++) if (waitCol[i] === waitCol[i]) recordedWaits++
  const seenUser = new Uint8Array(log.users.length) // user indices are 0 … users − 1 (-1 = unknown)
  let userCount = 0
  for (let i = 0; i < jobs.count; i++) { const u = userCol[i]; if (u >= 0 && seenUser[u] === 0) { seenUser[u] = 1; userCount++ } }
  const first = jobs.count ? jobs.submit[0] : 0
  const last = jobs.count ? jobs.submit[jobs.count - 1] : 0
  // Parsers bound every time (limits.ts), so this Date is valid; the guard keeps a future parser honest.
  const iso = isoOf(log.unixStartTime)
  const headerKeep: Record<string, string> = {}
  for (const k of ['Computer', 'Installation', 'Acknowledge', 'Information', 'Conversion', 'Version', 'TimeZoneString', 'StartTime', 'EndTime', 'Note']) {
    if (log.header[k] !== undefined) headerKeep[k] = showControlOneLine(log.header[k]) // shown as is: no control characters
  }
  const report: ImportReport = {
    schemaVersion: IMPORT_SCHEMA_VERSION, name, format: log.format, formatSource,
    linesRead: log.linesRead, jobsRead: log.jobs.count, jobsKept: jobs.count, jobsRemoved: log.jobs.count - jobs.count,
    machine, rules: [...log.parserDrops, ...cleaned.rules],
    badLines: { count: log.badLines, examples: [...log.badLineExamples] }, warnings,
    span: { firstSubmit: first, lastSubmit: last, seconds: last - first, unixStartTime: log.unixStartTime, startIso: iso(first), endIso: iso(last) },
    users: userCount, requestedMissing: cleaned.requestedMissing, recordedWaits,
    options: { overrun: opts.overrun ?? DEFAULTS.overrun.value, requestedFallback: fallback, procs: opts.procs ?? null },
    header: headerKeep,
    resources,
  }
  return {
    name, format: log.format, jobs, users: log.users, ...(log.accounts ? { accounts: log.accounts } : {}),
    ...(log.partitions ? { partitions: log.partitions } : {}), ...(log.qosNames ? { qosNames: log.qosNames } : {}),
    ...(log.nodesSeen ? { nodesSeen: log.nodesSeen } : {}),
    machineProcs: machine.procs, unixStartTime: log.unixStartTime, report,
  }
}

/** Largest |epoch milliseconds| a JavaScript Date holds. */
const MAX_DATE_MS = 8.64e15

/**
 * Why an import kept no job, in the user's terms: the rule that removed the most jobs, and the
 * option to use when that rule is the missing requested time (e.g. a sacct export without a
 * Timelimit column). An import that keeps no job is an input error, never a success.
 */
function noJobKept(log: ParsedLog, rules: readonly RuleCount[], fallback: RequestedFallback): string {
  if (log.jobs.count === 0) {
    const drops = log.parserDrops.filter((r) => r.count > 0).map((r) => `${fmt(r.count)} ${r.description}`)
    return `no job was kept: the file has no job line${drops.length ? ` that describes a finished job (set aside: ${drops.join('; ')})` : ''}`
  }
  const removed = rules.filter((r) => r.effect === 'removed' && r.count > 0).sort((a, b) => b.count - a.count)
  const top = removed[0]
  const why = removed.map((r) => `${fmt(r.count)} ${r.rule} (${r.description})`).join('; ')
  let msg = `no job was kept: all ${fmt(log.jobs.count)} jobs read were removed by cleaning: ${why}.`
  if (top !== undefined && top.rule === 'requested-missing' && fallback === 'drop') {
    msg += ' The log has no requested time (time limit) for these jobs, and EASY backfilling needs one. Import again with ' +
      '--requested-fallback runtime (each job\'s actual runtime as its estimate: perfect estimates, so backfilling looks better than it is) ' +
      'or --requested-fallback <duration> (e.g. 24h, one limit for every job).'
  } else if (top !== undefined && top.rule === 'C3-too-big') {
    msg += ' Every job is larger than the machine: give the real machine size with --procs.'
  }
  return msg
}

function concat(chunks: Uint8Array[], limit: number): Uint8Array {
  const out = new Uint8Array(limit)
  let off = 0
  for (const c of chunks) {
    if (off >= limit) break
    const part = c.subarray(0, limit - off)
    out.set(part, off)
    off += part.length
  }
  return out
}
