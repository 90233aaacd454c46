import type { BadLineCode } from './limits'
import type { LineIssue, RawJobs, RuleCount } from './types'
import { showControlOneLine } from '../util/control'
import { exactCopy, releaseColumn } from '../util/memory'

/** The optional columns of RawJobs and JobTable (resources, ids): each present only when the log
 * records it, so a 10M-job log without them allocates nothing for them. */
export const OPTIONAL_COLUMNS = ['partition', 'qos', 'nodes', 'memMB', 'gpus', 'exclusive', 'eligible', 'schedFlag', 'priority', 'rawId', 'subId'] as const
/** Every per-job column a cleaned table (JobTable) can have. */
export const TABLE_COLUMNS = ['id', 'submit', 'runtime', 'requested', 'procs', 'user', 'account', 'recordedWait', 'line', ...OPTIONAL_COLUMNS] as const
export type TableColumn = (typeof TABLE_COLUMNS)[number]
/** Whether `name` is a job-table column (a name from outside, e.g. in a message, checked before use). */
export function isTableColumn(name: string): name is TableColumn {
  return (TABLE_COLUMNS as readonly string[]).includes(name)
}
export type OptionalColumn = (typeof OPTIONAL_COLUMNS)[number]
export type ColumnArray = Float64Array | Float32Array | Int32Array | Uint8Array

/** Each optional column's array type and the value that means "unknown" (types.ts). */
export const COLUMN_SPEC: Readonly<Record<OptionalColumn, { readonly make: (n: number) => ColumnArray; readonly unknown: number }>> = {
  partition: { make: (n) => new Int32Array(n), unknown: -1 },
  qos: { make: (n) => new Int32Array(n), unknown: -1 },
  nodes: { make: (n) => new Int32Array(n), unknown: -1 },
  memMB: { make: (n) => new Float64Array(n), unknown: -1 },
  gpus: { make: (n) => new Int32Array(n), unknown: -1 },
  exclusive: { make: (n) => new Uint8Array(n), unknown: 0 },
  eligible: { make: (n) => new Float64Array(n), unknown: NaN },
  schedFlag: { make: (n) => new Uint8Array(n), unknown: 0 },
  priority: { make: (n) => new Float64Array(n), unknown: NaN },
  rawId: { make: (n) => new Float64Array(n), unknown: -1 },
  subId: { make: (n) => new Int32Array(n), unknown: -1 },
}

/** (Its home is util/memory.ts; the import's modules have always taken it from here.) */
export { releaseColumn }

/** Columns in buffers of their own length (a view of a builder's larger buffer would transfer it
 * all to a thread): the columns a worker thread sends back. */
export function exactColumns(raw: RawJobs): RawJobs {
  const out: Record<string, unknown> = { count: raw.count }
  for (const [k, v] of Object.entries(raw)) {
    if (k === 'count') continue
    out[k] = exactCopy(v as ColumnArray)
  }
  return out as unknown as RawJobs
}

/** The optional columns a table has, as a record (for code that copies them all). */
export function optionalColumns(t: Partial<Record<OptionalColumn, ColumnArray>>): [OptionalColumn, ColumnArray][] {
  const out: [OptionalColumn, ColumnArray][] = []
  for (const c of OPTIONAL_COLUMNS) { const a = t[c]; if (a !== undefined) out.push([c, a]) }
  return out
}

/** Each optional column's place in a ResourceRow: COL.partition, COL.nodes, … */
export const COL: Readonly<Record<OptionalColumn, number>> = Object.fromEntries(OPTIONAL_COLUMNS.map((c, k) => [c, k])) as Record<OptionalColumn, number>

/**
 * One job's optional values, filled by a parser per line: one array reused (no allocation per
 * job), value of column c at COL[c]. An array rather than an object with a property per column:
 * clearing and copying a row by column name was keyed property access, ~0.3 µs per call each,
 * 5–10 % of a sacct import (docs/PERFORMANCE.md §2026-11-29 — the text formats).
 */
export type ResourceRow = Float64Array

/** Every column at its unknown value (COLUMN_SPEC). */
const UNKNOWN_ROW: ResourceRow = Float64Array.from(OPTIONAL_COLUMNS, (c) => COLUMN_SPEC[c].unknown)

export function emptyRow(): ResourceRow {
  return UNKNOWN_ROW.slice()
}

/** Sets every value of `row` to unknown. */
export function clearRow(row: ResourceRow): void {
  row.set(UNKNOWN_ROW)
}

/** Growable columns: parsers push one job at a time without allocating per job. */
export class RawJobsBuilder {
  private cap: number
  count = 0
  id: Float64Array
  submit: Float64Array
  recordedWait: Float64Array
  runtime: Float64Array
  allocProcs: Float32Array
  reqProcs: Float32Array
  requested: Float64Array
  user: Int32Array
  account: Int32Array
  status: Int32Array
  line: Int32Array
  readonly users: string[] = []
  private readonly userIndex = new Map<string, number>()
  /** Account names, when the format records them (docs/IMPACT.md: the impact groups by account). */
  readonly accounts: string[] = []
  private readonly accountIndex = new Map<string, number>()
  /** Partition and QOS names (index = the partition / qos column). */
  readonly partitions: string[] = []
  private readonly partitionIndex = new Map<string, number>()
  readonly qosNames: string[] = []
  private readonly qosIndex = new Map<string, number>()
  /** The optional columns the log has (enabled by the parser when it sees the field), by their
   * place in a ResourceRow (COL), and those places in the order enabled: setRow copies a row with
   * no lookup by name. */
  private readonly cols: (ColumnArray | undefined)[] = OPTIONAL_COLUMNS.map(() => undefined)
  private readonly places: number[] = []

  constructor(initialCapacity = 1024) {
    this.cap = Math.max(16, initialCapacity)
    this.id = new Float64Array(this.cap)
    this.submit = new Float64Array(this.cap)
    this.recordedWait = new Float64Array(this.cap)
    this.runtime = new Float64Array(this.cap)
    this.allocProcs = new Float32Array(this.cap)
    this.reqProcs = new Float32Array(this.cap)
    this.requested = new Float64Array(this.cap)
    this.user = new Int32Array(this.cap)
    this.account = new Int32Array(0) // allocated with the first account name: SWF has none (4 bytes per job saved)
    this.status = new Int32Array(this.cap)
    this.line = new Int32Array(this.cap)
  }

  /** Index of a user name (interned); '' or undefined gives -1 (unknown). */
  internUser(name: string | undefined): number {
    if (name === undefined || name === '') return -1
    let u = this.userIndex.get(name)
    if (u === undefined) {
      u = this.users.length
      this.users.push(name)
      this.userIndex.set(name, u)
    }
    return u
  }

  /** Index of an account name (interned); '' or undefined gives -1 (unknown). */
  internAccount(name: string | undefined): number {
    if (name === undefined || name === '') return -1
    let a = this.accountIndex.get(name)
    if (a === undefined) {
      a = this.accounts.length
      if (a === 0) this.account = new Int32Array(this.cap).fill(-1) // the jobs pushed so far had none
      this.accounts.push(name)
      this.accountIndex.set(name, a)
    }
    return a
  }

  /** Index of a partition name (interned); '' gives -1. */
  internPartition(name: string): number {
    return intern(name, this.partitions, this.partitionIndex)
  }

  /** Index of a QOS name (interned); '' gives -1. */
  internQos(name: string): number {
    return intern(name, this.qosNames, this.qosIndex)
  }

  /** Adds an optional column (idempotent); the jobs pushed so far get its unknown value. */
  enable(col: OptionalColumn): void {
    if (this.has(col)) return
    const a = COLUMN_SPEC[col].make(this.cap)
    a.fill(COLUMN_SPEC[col].unknown)
    this.cols[COL[col]] = a
    this.places.push(COL[col])
  }

  /** Adds an optional column whose value for the jobs pushed so far is their `id` (jobcomp rawId). */
  enableAsId(col: 'rawId'): void {
    this.enable(col)
    this.cols[COL[col]]!.set(this.id.subarray(0, this.count))
  }

  has(col: OptionalColumn): boolean {
    return this.cols[COL[col]] !== undefined
  }

  /** Writes the enabled columns of the job pushed last from `row`. */
  setRow(row: ResourceRow): void {
    const i = this.count - 1, places = this.places, cols = this.cols
    for (let k = 0; k < places.length; k++) { const c = places[k]; cols[c]![i] = row[c] }
  }

  push(
    id: number, submit: number, recordedWait: number, runtime: number,
    allocProcs: number, reqProcs: number, requested: number,
    user: number, status: number, line: number, account = -1,
  ): void {
    if (this.count === this.cap) this.grow()
    const i = this.count++
    this.id[i] = id
    this.submit[i] = submit
    this.recordedWait[i] = recordedWait
    this.runtime[i] = runtime
    this.allocProcs[i] = allocProcs
    this.reqProcs[i] = reqProcs
    this.requested[i] = requested
    this.user[i] = user
    if (this.accounts.length > 0) this.account[i] = account
    this.status[i] = status
    this.line[i] = line
  }

  /**
   * Appends the jobs of a part parsed on its own (a chunk of a parallel parse, src/node/parse-parallel.ts),
   * as if its lines had been pushed here: its names interned here in its order of first use, its
   * line numbers moved by `lineOffset` (the lines before it), its optional columns enabled here
   * when new (the jobs before get the unknown value, as `enable` gives them). A column enabled here
   * that the part lacks is unknown for its jobs, except `rawId` when `rawIdIsId` (jobcomp: a job
   * without an array or het id has its own id as raw id, enableAsId). The part's columns are
   * freed once copied (releaseColumn: they read as empty after).
   */
  append(j: RawJobs, names: PartNames, lineOffset: number, rawIdIsId = false): void {
    const k = j.count, o = this.count
    const uMap = Int32Array.from(names.users, (u) => this.internUser(u))
    const aMap = Int32Array.from(names.accounts ?? [], (a) => this.internAccount(a))
    const pMap = Int32Array.from(names.partitions ?? [], (p) => this.internPartition(p))
    const qMap = Int32Array.from(names.qosNames ?? [], (q) => this.internQos(q))
    for (const [c] of optionalColumns(j)) {
      if (this.has(c)) continue
      if (c === 'rawId' && rawIdIsId) this.enableAsId('rawId')
      else this.enable(c)
    }
    this.ensure(o + k)
    this.id.set(j.id, o); this.submit.set(j.submit, o); this.recordedWait.set(j.recordedWait, o); this.runtime.set(j.runtime, o)
    this.allocProcs.set(j.allocProcs, o); this.reqProcs.set(j.reqProcs, o); this.requested.set(j.requested, o); this.status.set(j.status, o)
    remap(j.user, uMap, this.user, o)
    if (this.accounts.length > 0) {
      if (j.account !== undefined) remap(j.account, aMap, this.account, o)
      else this.account.fill(-1, o, o + k)
    }
    const line = j.line, to = this.line
    for (let i = 0; i < k; i++) to[o + i] = line[i] + lineOffset
    for (const place of this.places) {
      const c = OPTIONAL_COLUMNS[place]
      const from = j[c] as ColumnArray | undefined
      const col = this.cols[place]!
      if (from === undefined) {
        if (c === 'rawId' && rawIdIsId) col.set(j.id, o)
        else col.fill(COLUMN_SPEC[c].unknown, o, o + k)
      } else if (c === 'partition') remap(from as Int32Array, pMap, col as Int32Array, o)
      else if (c === 'qos') remap(from as Int32Array, qMap, col as Int32Array, o)
      else col.set(from, o)
    }
    this.count = o + k
    for (const v of Object.values(j)) if (ArrayBuffer.isView(v)) releaseColumn(v) // copied: freed now
  }

  /** Shift every submit time (SLURM/PBS: make times relative to the earliest submit). */
  shiftSubmits(delta: number): void {
    for (let i = 0; i < this.count; i++) this.submit[i] += delta
    const e = this.cols[COL.eligible]
    if (e !== undefined) for (let i = 0; i < this.count; i++) e[i] += delta // NaN stays NaN
  }

  /**
   * Sizes the columns for about `jobs` jobs when the importer can estimate them (a known file
   * size): the columns then grow by an eighth past it instead of doubling, so a big log ends in
   * columns within a few percent of its size instead of up to twice it, and never holds the old and
   * the doubled columns together (docs/PERFORMANCE.md §Import at scale). Only grows.
   */
  reserve(jobs: number): void {
    this.reserved = true
    if (jobs > this.cap) this.resize(Math.ceil(jobs))
  }

  private reserved = false

  /** Room for `jobs` jobs (a merge appends whole columns), growing as push does. */
  ensure(jobs: number): void {
    if (jobs > this.cap) this.resize(Math.max(jobs, this.reserved ? this.cap + Math.max(1024, this.cap >> 3) : this.cap * 2))
  }

  /** An enabled optional column, written in place (a merge copies a chunk's values into it). */
  column(col: OptionalColumn): ColumnArray | undefined {
    return this.cols[COL[col]]
  }

  private grow(): void {
    this.resize(this.reserved ? this.cap + Math.max(1024, this.cap >> 3) : this.cap * 2)
  }

  /** Column by column, each old column freed as soon as it is copied: growing a big log's columns
   * holds one column twice, not all of them. */
  private resize(cap: number): void {
    this.cap = cap
    const g = <T extends ColumnArray>(a: T, unknown = 0): T => {
      const b = new (a.constructor as new (n: number) => T)(cap)
      b.set(a)
      if (unknown !== 0) b.fill(unknown, a.length)
      releaseColumn(a)
      return b
    }
    this.id = g(this.id); this.submit = g(this.submit); this.recordedWait = g(this.recordedWait)
    this.runtime = g(this.runtime); this.allocProcs = g(this.allocProcs); this.reqProcs = g(this.reqProcs)
    this.requested = g(this.requested); this.user = g(this.user); if (this.accounts.length > 0) this.account = g(this.account); this.status = g(this.status); this.line = g(this.line)
    for (const place of this.places) this.cols[place] = g(this.cols[place]!, COLUMN_SPEC[OPTIONAL_COLUMNS[place]].unknown)
  }

  /** Trimmed views (no copy) of what was pushed. */
  finish(): RawJobs {
    const n = this.count
    return {
      count: n,
      id: this.id.subarray(0, n), submit: this.submit.subarray(0, n), recordedWait: this.recordedWait.subarray(0, n),
      runtime: this.runtime.subarray(0, n), allocProcs: this.allocProcs.subarray(0, n), reqProcs: this.reqProcs.subarray(0, n),
      requested: this.requested.subarray(0, n), user: this.user.subarray(0, n), status: this.status.subarray(0, n),
      line: this.line.subarray(0, n),
      ...(this.accounts.length > 0 ? { account: this.account.subarray(0, n) } : {}),
      ...Object.fromEntries(OPTIONAL_COLUMNS.filter((c) => this.has(c)).map((c) => [c, this.column(c)!.subarray(0, n)])),
    }
  }
}

/** The names a part's index columns refer to (RawJobs.user, account, partition, qos). */
export interface PartNames {
  readonly users: readonly string[]
  readonly accounts?: readonly string[]
  readonly partitions?: readonly string[] | null
  readonly qosNames?: readonly string[]
}

/** to[o + i] = map[from[i]], -1 kept as unknown. */
function remap(from: Int32Array, map: Int32Array, to: Int32Array, o: number): void {
  for (let i = 0; i < from.length; i++) { const v = from[i]; to[o + i] = v < 0 ? -1 : map[v] }
}

function intern(name: string, names: string[], index: Map<string, number>): number {
  if (name === '') return -1
  let k = index.get(name)
  if (k === undefined) {
    k = names.length
    names.push(name)
    index.set(name, k)
  }
  return k
}

/** Keeps a count and the first few examples of something, for reports. */
export class ExampleCounter {
  count = 0
  readonly lines: number[] = []
  constructor(private readonly keep = 5) {}
  add(line: number): void {
    this.count++
    if (this.lines.length < this.keep) this.lines.push(line)
  }

  /** Adds the counts of a later part of the file (its lines moved by `lineOffset`): as if counted here. */
  absorb(other: { readonly count: number; readonly lines: readonly number[] }, lineOffset: number): void {
    this.count += other.count
    for (const l of other.lines) if (this.lines.length < this.keep) this.lines.push(l + lineOffset)
  }
}

/** Collects unreadable lines: a count and the first few with their message. */
export class BadLines {
  count = 0
  readonly examples: LineIssue[] = []
  constructor(private readonly keep = 10) {}
  add(line: number, code: BadLineCode, message: string): void {
    this.count++
    if (this.examples.length < this.keep) this.examples.push({ line, code, message: showControlOneLine(message) }) // quotes the log's text
  }

  /** Adds the bad lines of a later part of the file (its lines moved by `lineOffset`). */
  absorb(count: number, examples: readonly LineIssue[], lineOffset: number): void {
    this.count += count
    for (const e of examples) if (this.examples.length < this.keep) this.examples.push({ ...e, line: e.line + lineOffset })
  }
}

export function ruleCount(rule: string, description: string, effect: RuleCount['effect'], c: ExampleCounter): RuleCount {
  return { rule, description, effect, count: c.count, exampleLines: c.lines.slice() }
}
