// SLURM `sacct -P` output (pipe-separated) or a CSV export of it (comma-separated, simple
// double-quoted fields), header line first, columns in any order (docs/SIMULATOR.md §Reading the logs).

import { ExampleCounter, ruleCount } from './builder'
import { FieldError, InputError } from './errors'
import { MAX_COUNT, MAX_DURATION_SECONDS, MAX_EXACT } from './limits'
import { isDigits, parseSlurmDuration, plural, readCount, readDuration } from './timeparse'
import { TextLogParser, type TextParserOptions } from './text-parser'
import { LineSplitter, lineText } from './lines'
import type { RuleCount } from './types'
import { COL, clearRow, emptyRow, type OptionalColumn } from './builder'
import { sacctCommand } from './sacct-command'
import { exclusiveOf, jobMemMB, readGresGpus, readMem, readNodeList, readTres, schedFlagOf, submitLineExclusive } from './resources'

/** True for a SLURM job-step id (`123.batch`, `123.extern`, `123_4.0`): a step is not a job. */
export function isSlurmStep(jobId: string): boolean {
  return jobId.includes('.')
}

/**
 * The numeric id of a SLURM job: array tasks (`123_4`, `123_[1-5]`) and heterogeneous components
 * (`123+1`) give the parent id 123. NaN when the id is not a number.
 */
export function slurmJobId(jobId: string): number {
  const s = jobId.trim()
  let cut = 0
  while (cut < s.length && s[cut] !== '_' && s[cut] !== '+') cut++
  const parent = s.slice(0, cut)
  return isDigits(parent) && JOB_ID_SUFFIX.test(s.slice(cut)) ? Number(parent) : NaN
}

/**
 * The array task index (`123_4` → 4) or heterogeneous component offset (`123+1` → 1) of a SLURM
 * job id; -1 for a plain job or a pending array record (`123_[1-100]`). Call after slurmJobId.
 */
export function slurmSubId(jobId: string): number {
  const m = /^\d+(?:_(\d+))?(?:\+(\d+))?$/.exec(jobId.trim())
  if (m === null) return -1
  const v = Number(m[2] ?? m[1] ?? -1)
  return v <= MAX_COUNT ? v : -1
}

/** True for the record of array tasks not yet started (`123_[1-100]`, `123_[5-9%2]`): by
 * definition no task of it has run (docs/SIMULATOR.md §Resource columns). */
export function isPendingArray(jobId: string): boolean {
  return jobId.includes('_[')
}

/** What may follow a job id's number: an array task (`_4`, `_[1-5%2]`) and/or a heterogeneous component (`+1`). */
const JOB_ID_SUFFIX = /^(_(\d+|\[[\d,%:-]+\]))?(\+\d+)?$/

/** True when a SLURM state means the job was cancelled (`CANCELLED`, `CANCELLED by 123`). */
function isCancelledState(state: string): boolean {
  return state.trim().toUpperCase().startsWith('CANCELLED')
}

/** States of jobs that had not finished when the log was written: no final run time. */
const UNFINISHED_STATES = new Set(['RUNNING', 'PENDING', 'SUSPENDED', 'REQUEUED'])

/** Column index per attribute, -1 when absent. Several header names map to one attribute. */
interface Columns {
  jobId: number; submit: number; start: number; end: number
  elapsedRaw: number; elapsed: number; timelimitRaw: number; timelimit: number
  allocCpus: number; ncpus: number; reqCpus: number
  state: number; user: number; account: number; cpuTimeRaw: number; resvCpuRaw: number
  // Resource columns (issue #21; precedence in resources.ts)
  jobIdRaw: number; partition: number; qos: number; reqNodes: number; nNodes: number; allocNodes: number
  reqMem: number; reqTres: number; allocTres: number; reqGres: number; allocGres: number; nodeList: number
  eligible: number; flags: number; priority: number; exclusive: number; submitLine: number
}

/** Header names (lower case) for each attribute, preferred first. */
const COLUMN_NAMES: Record<keyof Columns, readonly string[]> = {
  jobId: ['jobid', 'jobidraw'], submit: ['submit'], start: ['start'], end: ['end'],
  elapsedRaw: ['elapsedraw'], elapsed: ['elapsed'], timelimitRaw: ['timelimitraw'], timelimit: ['timelimit'],
  allocCpus: ['alloccpus'], ncpus: ['ncpus'], reqCpus: ['reqcpus'],
  state: ['state'], user: ['user'], account: ['account'], cpuTimeRaw: ['cputimeraw'], resvCpuRaw: ['resvcpuraw'],
  jobIdRaw: ['jobidraw'], partition: ['partition'], qos: ['qos'], reqNodes: ['reqnodes'], nNodes: ['nnodes'], allocNodes: ['allocnodes'],
  reqMem: ['reqmem'], reqTres: ['reqtres'], allocTres: ['alloctres'], reqGres: ['reqgres'], allocGres: ['allocgres'], nodeList: ['nodelist'],
  eligible: ['eligible'], flags: ['flags'], priority: ['priority'], exclusive: ['exclusive'], submitLine: ['submitline'],
}

/** A run time in seconds (-1 unknown) and whether it was estimated from CPUTimeRAW. */
interface Runtime {
  readonly seconds: number
  readonly fromCpuTime: boolean
}

interface Layout {
  readonly separator: '|' | ','
  /** Column names as written in the header. */
  readonly names: readonly string[]
  readonly col: Columns
  /** Each attribute's column name as written in the header, '' when the log has no such column
   * (its cells read as empty, so it never names itself in a message). Read per line by attribute:
   * names[col.x] with col.x = -1 was a property lookup of "-1" on an array, ~0.1 µs each, a dozen
   * per line in a log without the optional columns. */
  readonly label: Readonly<Record<keyof Columns, string>>
  /** Header name of the column whose CPU count divides CPUTimeRAW. */
  readonly procsName: string
}

/** Splits one CSV line; handles `"a,b"` and `""` inside quotes. Null when a quote is not closed. */
export function splitCsvLine(line: string): string[] | null {
  if (!line.includes('"')) return line.split(',') // no quoting: the same cells, without the per-character loop
  const out: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]
    if (quoted) {
      if (ch !== '"') field += ch
      else if (line[i + 1] === '"') { field += '"'; i++ }
      else quoted = false
    } else if (ch === '"') quoted = true
    else if (ch === ',') { out.push(field); field = '' }
    else field += ch
  }
  if (quoted) return null
  out.push(field)
  return out
}

function splitRow(line: string, separator: '|' | ','): string[] | null {
  return separator === '|' ? line.split('|') : splitCsvLine(line)
}

function findColumns(names: readonly string[]): Columns {
  const lower = names.map((n) => n.trim().toLowerCase())
  const col = {} as Columns
  for (const key of Object.keys(COLUMN_NAMES) as (keyof Columns)[]) {
    const found = COLUMN_NAMES[key].map((n) => lower.indexOf(n)).find((i) => i >= 0)
    col[key] = found ?? -1
  }
  return col
}

/** Reads the header line; throws InputError when columns the simulation cannot do without are missing. */
function readHeader(line: string, lineNo: number): Layout {
  const separator = line.includes('|') ? '|' : ','
  const names = splitRow(line, separator) ?? line.split(',')
  const col = findColumns(names)
  const missing: string[] = []
  if (col.submit < 0) missing.push('Submit')
  const hasRuntime = col.elapsedRaw >= 0 || col.elapsed >= 0 || (col.start >= 0 && col.end >= 0) || col.cpuTimeRaw >= 0
  if (!hasRuntime) missing.push('a run time (ElapsedRaw, Elapsed, Start and End, or CPUTimeRAW)')
  if (missing.length > 0) {
    throw new InputError(
      `the sacct header (line ${lineNo}) has no ${missing.join(' and no ')} column. ` +
      `Export with \`${sacctCommand()}\` (with the header line, i.e. without -n)`, lineNo)
  }
  const procsName = col.allocCpus >= 0 ? 'AllocCPUS' : col.ncpus >= 0 ? 'NCPUS' : 'ReqCPUS'
  const trimmed = names.map((n) => n.trim())
  const label = Object.fromEntries((Object.keys(COLUMN_NAMES) as (keyof Columns)[]).map((k) => [k, col[k] >= 0 ? trimmed[col[k]] : ''])) as Record<keyof Columns, string>
  return { separator, names: trimmed, col, label, procsName }
}

function cell(fields: readonly string[], index: number): string {
  return index < 0 ? '' : fields[index].trim()
}

/** Seconds derived from CPU-seconds over CPUs; beyond the longest duration read it is `out-of-range`. */
function derived(name: string, cpuSeconds: number, cpus: number): number {
  const s = Math.round(cpuSeconds / cpus)
  if (s > MAX_DURATION_SECONDS) throw new FieldError('out-of-range', `${name} ${cpuSeconds} over ${cpus} CPUs is ${s} s, beyond the longest duration read`)
  return s
}

class SacctParser extends TextLogParser {
  readonly format = 'sacct'
  protected readonly tally = {
    steps: new ExampleCounter(), neverStarted: new ExampleCounter(), unfinished: new ExampleCounter(), requeuedRuns: new ExampleCounter(),
    runtimeFromCpuTime: 0, runtimeOverLimit: 0, runtimeUnknown: 0, waitFromResv: 0,
  }
  private layout: Layout | null = null
  private readonly row = emptyRow()

  constructor(opts: TextParserOptions = {}) {
    super(opts)
    if (opts.header !== undefined) this.useHeader(opts.header.text, opts.header.lineNo)
  }

  private useHeader(line: string, lineNo: number): void {
    this.layout = readHeader(line, lineNo)
    for (const c of resourceColumnsOf(this.layout.col)) this.jobs.enable(c)
  }

  protected override checkComplete(): void {
    if (this.layout === null) throw new InputError('the file is empty: expected a sacct -P header line (JobID|Submit|…)', null)
  }

  protected override header(): Record<string, string> {
    return { Columns: this.layout!.names.join(', ') }
  }

  protected onLine(raw: string, lineNo: number): void {
    const line = lineNo === 1 && !this.continuation ? withoutBom(raw) : raw
    if (line.trim() === '') return
    if (this.layout === null) return this.useHeader(line, lineNo)
    let fields = splitRow(line, this.layout.separator)
    if (fields === null) return this.bad.add(lineNo, 'bad-quote', 'a double quote is not closed')
    const width = this.layout.names.length
    // A submit line may hold `|` (sbatch --wrap="a | b"): when SubmitLine is the last column, as
    // in the recommended command, the cells beyond the header's width are the rest of it.
    if (fields.length > width && this.layout.separator === '|' && this.layout.col.submitLine === width - 1) {
      fields = [...fields.slice(0, width - 1), fields.slice(width - 1).join('|')]
    }
    if (fields.length !== width) {
      return this.bad.add(lineNo, fields.length > width ? 'too-many-fields' : 'too-few-fields', `${fields.length} fields, the header has ${width}`)
    }
    this.readRow(fields, lineNo, this.layout)
  }

  private readRow(f: readonly string[], lineNo: number, layout: Layout): void {
    const col = layout.col
    let id = -1
    let subId = -1
    let pendingArray = false
    if (col.jobId >= 0) {
      const idText = cell(f, col.jobId)
      if (isSlurmStep(idText)) return this.tally.steps.add(lineNo)
      id = slurmJobId(idText)
      if (Number.isNaN(id)) return this.bad.add(lineNo, 'not-a-number', `JobID "${idText}" is not a job number`)
      if (id > MAX_EXACT) return this.bad.add(lineNo, 'out-of-range', `JobID "${idText}" is beyond the largest job number read`)
      subId = slurmSubId(idText)
      pendingArray = isPendingArray(idText)
    }
    const nm = layout.label
    const submit = this.times.time('Submit', cell(f, col.submit))
    if (Number.isNaN(submit)) return this.bad.add(lineNo, 'missing-field', `Submit "${cell(f, col.submit)}" is not set`)
    // Every column EasyTune knows is checked, even when another one is preferred: a value that is
    // not what its column says makes a bad line (FieldError), never an unknown.
    const start = col.start >= 0 ? this.times.time('Start', cell(f, col.start)) : NaN
    const end = col.end >= 0 ? this.times.time('End', cell(f, col.end)) : NaN
    const counts = {
      allocCpus: readCount(nm.allocCpus, cell(f, col.allocCpus), MAX_COUNT), ncpus: readCount(nm.ncpus, cell(f, col.ncpus), MAX_COUNT),
      reqCpus: readCount(nm.reqCpus, cell(f, col.reqCpus), MAX_COUNT),
      elapsedRaw: readCount(nm.elapsedRaw, cell(f, col.elapsedRaw), MAX_DURATION_SECONDS),
      cpuTimeRaw: readCount(nm.cpuTimeRaw, cell(f, col.cpuTimeRaw), MAX_EXACT), resvCpuRaw: readCount(nm.resvCpuRaw, cell(f, col.resvCpuRaw), MAX_EXACT),
    }
    const limitRaw = readDuration(nm.timelimitRaw, cell(f, col.timelimitRaw), parseSlurmDuration)
    const limit = readDuration(nm.timelimit, cell(f, col.timelimit), parseSlurmDuration)
    const elapsed = readDuration(nm.elapsed, cell(f, col.elapsed), parseSlurmDuration)
    const state = cell(f, col.state)
    const res = this.readResources(f, layout)

    let allocProcs = counts.allocCpus >= 0 ? counts.allocCpus : counts.ncpus
    let reqProcs = counts.reqCpus
    // TRES cpu= only fills a CPU count the log has no column for (resources.ts, precedence).
    if (allocProcs < 0 && res.allocTres !== null) allocProcs = res.allocTres.cpu
    if (reqProcs < 0 && res.reqTres !== null) reqProcs = res.reqTres.cpu
    if (allocProcs < 0) allocProcs = reqProcs
    if (reqProcs < 0) reqProcs = allocProcs
    const requested = col.timelimitRaw >= 0 ? limitRaw : limit
    const runtime = this.runtimeOf(counts.elapsedRaw, elapsed, counts.cpuTimeRaw, start, end, allocProcs)

    // A job cancelled while pending may show its cancel time as Start (= End) with no node
    // (docs/SIMULATOR.md §Resource columns): with a NodeList column, that is a job that never started.
    const neverAllocated = col.nodeList >= 0 && res.nodeList.length === 0 && isCancelledState(state) && !(end > start)
    const startKnown = col.start >= 0 ? !Number.isNaN(start) && !neverAllocated : !(isCancelledState(state) && runtime.seconds <= 0)
    if (!startKnown || pendingArray) return this.tally.neverStarted.add(lineNo)
    const upper = state.toUpperCase()
    // With -D (docs/SIMULATOR.md §The sacct command to run) the earlier record of a requeued job
    // is its first run, REQUEUED with a Start and an End: it held its nodes, so it is a job that ran.
    // The later record is the rerun, submitted again at the requeue (Slurm resets Submit).
    const requeuedRun = upper === 'REQUEUED' && end >= start
    if (UNFINISHED_STATES.has(upper) && !requeuedRun) return this.tally.unfinished.add(lineNo)
    if (requeuedRun) this.tally.requeuedRuns.add(lineNo)

    this.countRuntimeSource(runtime, requested)
    const wait = this.waitOf(counts.resvCpuRaw, submit, start, reqProcs)
    const user = this.jobs.internUser(cell(f, col.user))
    const account = this.jobs.internAccount(cell(f, col.account))
    this.jobs.push(id, submit, wait, runtime.seconds, allocProcs, reqProcs, requested, user, -1, lineNo, account)
    this.pushResources(res, f, layout, subId, allocProcs, reqProcs)
  }

  /** Reads every resource cell strictly (a bad value makes a bad line) before the line is classified. */
  private readResources(f: readonly string[], layout: Layout): ResourceCells {
    const col = layout.col
    const nm = layout.label
    return {
      rawId: readCount(nm.jobIdRaw, cell(f, col.jobIdRaw), MAX_EXACT),
      reqNodes: readCount(nm.reqNodes, cell(f, col.reqNodes), MAX_COUNT),
      nNodes: readCount(nm.nNodes, cell(f, col.nNodes), MAX_COUNT),
      allocNodes: readCount(nm.allocNodes, cell(f, col.allocNodes), MAX_COUNT),
      reqMem: readMem(nm.reqMem, cell(f, col.reqMem)),
      reqTres: readTres(nm.reqTres, cell(f, col.reqTres)),
      allocTres: readTres(nm.allocTres, cell(f, col.allocTres)),
      reqGres: readGresGpus(nm.reqGres, cell(f, col.reqGres)),
      allocGres: readGresGpus(nm.allocGres, cell(f, col.allocGres)),
      nodeList: col.nodeList >= 0 ? readNodeList(nm.nodeList, cell(f, col.nodeList)) : [],
      eligible: col.eligible >= 0 ? this.times.time(nm.eligible, cell(f, col.eligible)) : NaN,
      priority: readCount(nm.priority, cell(f, col.priority), MAX_EXACT),
    }
  }

  /** Fills the job's resource columns by the precedence of resources.ts and records its nodes. */
  private pushResources(res: ResourceCells, f: readonly string[], layout: Layout, subId: number, allocProcs: number, reqProcs: number): void {
    const col = layout.col
    const r = this.row
    clearRow(r)
    r[COL.rawId] = col.jobIdRaw >= 0 ? res.rawId : -1
    if (subId >= 0) {
      this.jobs.enable('subId')
      r[COL.subId] = subId
    }
    // A pending multi-partition job lists its partitions: the first one.
    r[COL.partition] = this.jobs.internPartition(firstOfList(cell(f, col.partition)))
    r[COL.qos] = this.jobs.internQos(cell(f, col.qos))
    r[COL.nodes] = or(pos(res.allocNodes), or(pos(res.nNodes), or(pos(res.allocTres?.node ?? -1),
      or(pos(res.nodeList.length), or(pos(res.reqNodes), pos(res.reqTres?.node ?? -1))))))
    r[COL.gpus] = or(res.allocTres?.gpus ?? -1, or(res.allocGres, or(res.reqTres?.gpus ?? -1, res.reqGres)))
    const cpus = reqProcs > 0 ? reqProcs : allocProcs
    r[COL.memMB] = res.allocTres?.mem ? jobMemMB(res.allocTres.mem, r[COL.nodes], cpus)
      : res.reqTres?.mem ? jobMemMB(res.reqTres.mem, r[COL.nodes], cpus) : jobMemMB(res.reqMem, r[COL.nodes], cpus)
    r[COL.exclusive] = exclusiveOf(cell(f, col.exclusive)) === 1 || submitLineExclusive(cell(f, col.submitLine)) ? 1 : 0
    r[COL.eligible] = res.eligible
    r[COL.schedFlag] = schedFlagOf(cell(f, col.flags))
    r[COL.priority] = res.priority >= 0 ? res.priority : NaN
    this.jobs.setRow(r)
    if (res.nodeList.length > 0) this.nodes.add(res.nodeList, allocProcs > 0 ? allocProcs : reqProcs, r[COL.gpus], r[COL.partition])
  }

  /** Run time: ElapsedRaw, else Elapsed, else End − Start, else CPUTimeRAW / CPUs; -1 when unknown. */
  private runtimeOf(raw: number, elapsed: number, cpuTime: number, start: number, end: number, procs: number): Runtime {
    if (raw >= 0) return { seconds: raw, fromCpuTime: false }
    if (elapsed >= 0) return { seconds: elapsed, fromCpuTime: false }
    if (end >= start) return { seconds: end - start, fromCpuTime: false }
    if (cpuTime >= 0 && procs > 0) return { seconds: derived('CPUTimeRAW', cpuTime, procs), fromCpuTime: true }
    return { seconds: -1, fromCpuTime: false }
  }

  private countRuntimeSource(runtime: Runtime, requested: number): void {
    if (runtime.seconds < 0) this.tally.runtimeUnknown++
    if (!runtime.fromCpuTime) return
    this.tally.runtimeFromCpuTime++
    if (requested >= 0 && runtime.seconds > requested) this.tally.runtimeOverLimit++
  }

  /** Recorded wait: Start − Submit, else ResvCPURAW / ReqCPUS; NaN when unknown. */
  private waitOf(resv: number, submit: number, start: number, reqProcs: number): number {
    if (!Number.isNaN(start)) return start - submit
    if (resv >= 0 && reqProcs > 0) {
      this.tally.waitFromResv++
      return derived('ResvCPURAW', resv, reqProcs)
    }
    return NaN
  }

  protected drops(): RuleCount[] {
    const layout = this.layout!
    const neverStartedText = layout.col.start >= 0
      ? 'jobs that never started (no Start time: cancelled or still pending)'
      : 'jobs that never started (the file has no Start column: cancelled with zero run time)'
    const all = [
      ruleCount('slurm-steps', 'job steps (.batch, .extern, .0 …): parts of a job, not jobs', 'removed', this.tally.steps),
      ruleCount('slurm-never-started', neverStartedText, 'removed', this.tally.neverStarted),
      ruleCount('slurm-unfinished', 'jobs still running, pending, suspended or requeued when the log was written (no final run time)', 'removed', this.tally.unfinished),
      ruleCount('slurm-requeued-run', 'runs of jobs that were requeued (REQUEUED with a Start and an End, listed by sacct -D): kept as jobs, since they held their nodes; the rerun is a job of its own', 'info', this.tally.requeuedRuns),
    ]
    return all.filter((r) => r.count > 0)
  }

  protected warnings(): string[] {
    const layout = this.layout!
    const col = layout.col
    const w: string[] = []
    if (col.timelimit < 0 && col.timelimitRaw < 0) {
      w.push('The file has no Timelimit column: requested run times are unknown (-1), so EASY backfilling cannot be ' +
        'simulated faithfully without a fallback for the requested time.')
    }
    if (this.tally.runtimeFromCpuTime > 0) {
      w.push(`Run time was derived as CPUTimeRAW / ${layout.procsName} for ${plural(this.tally.runtimeFromCpuTime, 'job')} (no ElapsedRaw, ` +
        'Elapsed or Start and End). It is too long when more CPUs were allocated than counted there (e.g. whole nodes)' +
        (this.tally.runtimeOverLimit > 0 ? `: for ${plural(this.tally.runtimeOverLimit, 'job')} it exceeds the time limit.` : '.'))
    }
    if (this.tally.runtimeUnknown > 0) w.push(`The run time of ${plural(this.tally.runtimeUnknown, 'job')} is unknown (-1).`)
    if (this.tally.waitFromResv > 0) {
      w.push(`The recorded wait was derived as ResvCPURAW / ReqCPUS for ${plural(this.tally.waitFromResv, 'job')} (no Start column); ` +
        'SLURM counts it from when the job became eligible, not from its submission.')
    }
    if (col.jobId < 0) w.push('The file has no JobID column: job ids are unknown (-1).')
    if (col.allocCpus < 0 && col.ncpus < 0 && col.reqCpus < 0) {
      w.push('The file has no CPU count column (AllocCPUS, NCPUS or ReqCPUS): processor counts are unknown (-1).')
    }
    if (col.user < 0) w.push('The file has no User column: per-user statistics are not available.')
    const iso = this.times.warning()
    if (iso !== null) w.push(iso)
    return w
  }
}

/** The resource cells of one row, read before the row is classified. */
interface ResourceCells {
  rawId: number; reqNodes: number; nNodes: number; allocNodes: number
  reqMem: ReturnType<typeof readMem>; reqTres: ReturnType<typeof readTres>; allocTres: ReturnType<typeof readTres>
  reqGres: number; allocGres: number; nodeList: string[]; eligible: number; priority: number
}

/** The optional columns a sacct header gives (absent columns stay absent: nothing allocated). */
function resourceColumnsOf(col: Columns): OptionalColumn[] {
  const out: OptionalColumn[] = []
  if (col.jobIdRaw >= 0) out.push('rawId')
  if (col.partition >= 0) out.push('partition')
  if (col.qos >= 0) out.push('qos')
  if (col.allocNodes >= 0 || col.nNodes >= 0 || col.reqNodes >= 0 || col.nodeList >= 0 || col.allocTres >= 0 || col.reqTres >= 0) out.push('nodes')
  if (col.reqMem >= 0 || col.reqTres >= 0 || col.allocTres >= 0) out.push('memMB')
  if (col.reqTres >= 0 || col.allocTres >= 0 || col.reqGres >= 0 || col.allocGres >= 0) out.push('gpus')
  if (col.exclusive >= 0 || col.submitLine >= 0) out.push('exclusive')
  if (col.eligible >= 0) out.push('eligible')
  if (col.flags >= 0) out.push('schedFlag')
  if (col.priority >= 0) out.push('priority')
  return out
}

/** The first of a comma list (`gpu,cpu` → `gpu`). */
function firstOfList(text: string): string {
  const comma = text.indexOf(',')
  return (comma < 0 ? text : text.slice(0, comma)).trim()
}

/** `a` when known (≥ 0), else `b`. */
function or(a: number, b: number): number {
  return a >= 0 ? a : b
}

/** A count that says something (> 0), else unknown: 0 nodes is a pending job's AllocNodes. */
function pos(v: number): number {
  return v > 0 ? v : -1
}

/** A streaming parser for `sacct -P` output or its CSV export (or a chunk of it: TextParserOptions). */
export function createSacctParser(opts: TextParserOptions = {}): TextLogParser {
  return new SacctParser(opts)
}

/** A line without a leading byte-order mark (the file's first line). */
function withoutBom(line: string): string {
  return line.startsWith('\uFEFF') ? line.slice(1) : line
}

/**
 * The header line of a sacct log, from the head of the file, for chunks parsed apart: its text and
 * line number (as the parser numbers them), and the byte just after its line break (the first chunk
 * must reach past it). Null when the head holds no complete non-blank line, or when that line is
 * not a usable header (the sequential parse then gives the error).
 */
export function sacctHeaderOf(head: Uint8Array): { text: string; lineNo: number; endByte: number } | null {
  const found: { text: string; lineNo: number; endByte: number }[] = []
  const s = new LineSplitter((buf, start, end, lineNo) => {
    if (found.length > 0) return
    const text = lineNo === 1 ? withoutBom(lineText(buf, start, end)) : lineText(buf, start, end)
    if (text.trim() !== '') found.push({ text, lineNo, endByte: end + 1 }) // buf is the head itself: one feed, the line complete
  })
  try {
    s.feed(head)
    if (found.length === 0) return null
    readHeader(found[0].text, found[0].lineNo)
  } catch (e) {
    if (e instanceof InputError) return null // not text, a line over 1 MiB, or a header without Submit: the sequential parse says so
    throw e
  }
  return found[0]
}
