// Several files as one log: a site's accounting kept as daily jobcomp files or monthly sacct dumps.
// Pure: each file is parsed on its own (ParsedLog), then merged here BEFORE cleaning, so the
// cleaning rules and their counts apply once to the whole log (docs/SIMULATOR.md §Several files).
import { COLUMN_SPEC, OPTIONAL_COLUMNS, type ColumnArray, type OptionalColumn } from './builder'
import { fmt } from './clean'
import { InputError } from './errors'
import { mergeNodesSeen } from './nodes-seen'
import type { LineIssue, NodeSeen, ParsedLog, RawJobs, RuleCount } from './types'
import { DEFAULTS } from '../defaults'

/** One file of a merged log, as the import report lists it (times relative to the merged log's start). */
export interface FileSpan {
  name: string
  /** Jobs the parser read from this file (before cleaning), duplicates of earlier files included. */
  jobsRead: number
  /** Jobs of this file already read from an earlier file (same job id and submit time): kept once. */
  duplicates: number
  /** Submit span in seconds relative to the merged log's start (null when the file has no job). */
  firstSubmit: number | null
  lastSubmit: number | null
  /** The span of the file's bulk: its submits without the earliest and latest STRAGGLERS share
   * (what the gaps are measured between). */
  bulkFirst: number | null
  bulkLast: number | null
}

/**
 * Share of each file's jobs, at each end of its submit span, left out when looking for gaps. A
 * jobcomp file is written as jobs END: a day's file also holds the few jobs that waited or ran for
 * days, so its submit span reaches far back (Rackham's 2021-06-15 file has jobs submitted on
 * 19 May) and would hide a missing fortnight. 1 % of the jobs at each end are such stragglers.
 */
export const STRAGGLERS = 0.01

/** A stretch of time with no submit between consecutive files (longer than DEFAULTS.fileGap). */
export interface FileGap {
  /** The file after the gap, and the one whose span ends it. */
  after: string
  before: string
  /** Seconds relative to the merged log's start: the last submit before and the first after. */
  from: number
  to: number
  seconds: number
}

export interface MergedLog {
  log: ParsedLog
  files: FileSpan[]
  duplicates: number
  gaps: FileGap[]
}

const EXAMPLES = 5

/**
 * Merges parsed files into one log. Every file must have the same format (else InputError naming
 * the odd file). Submit times are re-based on the earliest file's start when every file knows its
 * epoch (SLURM, PBS and SWF with a StartTime header); otherwise they are taken as they are, with a
 * warning. A job present in several files (same id and same submit time, and the same record:
 * runtime, processors, requested time and user) is kept once, from the first file that has it, and
 * counted. Only a record seen in an EARLIER file is a duplicate: within one file, SLURM array tasks
 * share their parent's id and submit time and are distinct jobs (the parser's own rules apply);
 * across files they differ by their own id (sacct JobIDRaw, `rawId`) or task index (`subId`), which
 * the key includes when the log has them. Line numbers stay those of each job's own file. The
 * optional columns are carried (partition and QOS by name), and the nodes seen are merged by name.
 */
export function mergeParsedLogs(parts: readonly { name: string; log: ParsedLog }[], gapSeconds = DEFAULTS.fileGap.value): MergedLog {
  if (parts.length === 0) throw new InputError('no log file was given')
  const format = parts[0].log.format
  for (const p of parts) {
    if (p.log.format !== format) throw new InputError(`${p.name} is a ${p.log.format} log while ${parts[0].name} is a ${format} log: the files of one log must share a format`)
  }
  const warnings: string[] = []
  const known = parts.every((p) => p.log.unixStartTime !== null)
  const base = known ? Math.min(...parts.map((p) => p.log.unixStartTime!)) : null
  if (!known && parts.length > 1) warnings.push('Some files do not say when their times start (no StartTime header): their submit times were taken as they are, not aligned on a calendar.')
  const shift = (p: { log: ParsedLog }) => (base === null ? 0 : p.log.unixStartTime! - base)

  const total = parts.reduce((n, p) => n + p.log.jobs.count, 0)
  const hasAccounts = parts.some((p) => p.log.jobs.account !== undefined)
  const out = {
    id: new Float64Array(total), submit: new Float64Array(total), recordedWait: new Float64Array(total), runtime: new Float64Array(total),
    allocProcs: new Float32Array(total), reqProcs: new Float32Array(total), requested: new Float64Array(total),
    user: new Int32Array(total), account: hasAccounts ? new Int32Array(total) : undefined, status: new Int32Array(total), line: new Int32Array(total),
  }
  // Optional columns: present in the merged log when any file has them (unknown for the others).
  const extra = OPTIONAL_COLUMNS.filter((c) => parts.some((p) => p.log.jobs[c] !== undefined))
    .map((name) => ({ name, to: COLUMN_SPEC[name].make(total) }))
  const partitions: string[] = []
  const partitionIndex = new Map<string, number>()
  const qosNames: string[] = []
  const qosIndex = new Map<string, number>()
  const users: string[] = []
  const userIndex = new Map<string, number>()
  const accounts: string[] = []
  const accountIndex = new Map<string, number>()
  const intern = (names: string[], index: Map<string, number>, name: string): number => {
    let i = index.get(name)
    if (i === undefined) { i = names.length; names.push(name); index.set(name, i) }
    return i
  }
  const seen = new Set<string>() // records of the earlier files
  const files: FileSpan[] = []
  // JobIDRaw in the key only when every file has it (the same job must give the same key in each).
  const useRaw = parts.every((p) => p.log.jobs.rawId !== undefined)
  const nodeParts: { nodes: readonly NodeSeen[]; partitionMap: readonly number[] }[] = []
  let n = 0
  let duplicates = 0
  for (const p of parts) {
    const j = p.log.jobs
    const dt = shift(p)
    let dup = 0
    const mine: string[] = []
    const submits = new Float64Array(j.count)
    const partitionMap = (p.log.partitions ?? []).map((name) => intern(partitions, partitionIndex, name))
    const qosMap = (p.log.qosNames ?? []).map((name) => intern(qosNames, qosIndex, name))
    if (p.log.nodesSeen !== undefined) nodeParts.push({ nodes: p.log.nodesSeen, partitionMap })
    const cols = extra.map((e) => ({ to: e.to, from: j[e.name] as ColumnArray | undefined, unknown: COLUMN_SPEC[e.name].unknown, map: mapOf(e.name, partitionMap, qosMap) }))
    for (let i = 0; i < j.count; i++) {
      const submit = j.submit[i] + dt
      submits[i] = submit
      // A record's own id (JobIDRaw) or task index tells array tasks and het components apart.
      const own = `${useRaw ? j.rawId![i] : -1}/${j.subId ? j.subId[i] : -1}`
      const key = `${j.id[i]}#${own}@${submit}:${j.runtime[i]}:${j.allocProcs[i]}:${j.reqProcs[i]}:${j.requested[i]}:${j.user[i] >= 0 ? p.log.users[j.user[i]] : ''}`
      if (seen.has(key)) { dup++; continue }
      for (const c of cols) {
        const v = c.from === undefined ? c.unknown : c.from[i]
        c.to[n] = c.map !== null && v >= 0 ? c.map[v] : v
      }
      mine.push(key)
      out.id[n] = j.id[i]; out.submit[n] = submit; out.recordedWait[n] = j.recordedWait[i]; out.runtime[n] = j.runtime[i]
      out.allocProcs[n] = j.allocProcs[i]; out.reqProcs[n] = j.reqProcs[i]; out.requested[n] = j.requested[i]
      out.user[n] = j.user[i] >= 0 ? intern(users, userIndex, p.log.users[j.user[i]]) : -1
      if (out.account) out.account[n] = j.account && j.account[i] >= 0 ? intern(accounts, accountIndex, p.log.accounts![j.account[i]]) : -1
      out.status[n] = j.status[i]; out.line[n] = j.line[i]
      n++
    }
    for (const k of mine) seen.add(k)
    duplicates += dup
    submits.sort()
    const k = Math.floor(j.count * STRAGGLERS)
    files.push({
      name: p.name, jobsRead: j.count, duplicates: dup,
      firstSubmit: j.count ? submits[0] : null, lastSubmit: j.count ? submits[j.count - 1] : null,
      bulkFirst: j.count ? submits[k] : null, bulkLast: j.count ? submits[j.count - 1 - k] : null,
    })
  }
  const cut = <T extends Float64Array | Float32Array | Int32Array>(a: T): T => a.subarray(0, n) as T
  const jobs: RawJobs = {
    count: n, id: cut(out.id), submit: cut(out.submit), recordedWait: cut(out.recordedWait), runtime: cut(out.runtime),
    allocProcs: cut(out.allocProcs), reqProcs: cut(out.reqProcs), requested: cut(out.requested), user: cut(out.user),
    ...(out.account ? { account: cut(out.account) } : {}), status: cut(out.status), line: cut(out.line),
    ...Object.fromEntries(extra.map((e) => [e.name, e.to.subarray(0, n)])),
  }

  const gaps = findGaps(files, gapSeconds)
  if (duplicates > 0) warnings.push(`${fmt(duplicates)} job${duplicates === 1 ? ' was' : 's were'} in several files (same job id, submit time and record) and ${duplicates === 1 ? 'was' : 'were'} kept once.`)
  for (const g of gaps) warnings.push(`Gap of ${(g.seconds / 86400).toFixed(1)} days between ${g.before} and ${g.after}: the files' submissions do not cover it (at most a few stragglers), so a file may be missing, and the simulated queue empties there.`)

  const badLineExamples: LineIssue[] = []
  for (const p of parts) for (const ex of p.log.badLineExamples) if (badLineExamples.length < EXAMPLES) badLineExamples.push({ ...ex, message: `${p.name}: ${ex.message}` })
  const drops = new Map<string, RuleCount>()
  for (const p of parts) {
    for (const r of p.log.parserDrops) {
      const had = drops.get(r.rule)
      drops.set(r.rule, had ? { ...had, count: had.count + r.count, exampleLines: [...had.exampleLines, ...r.exampleLines].slice(0, EXAMPLES) } : { ...r, exampleLines: [...r.exampleLines] })
    }
  }
  const maxOf = (v: (number | null)[]) => (v.some((x) => x !== null) ? Math.max(...v.filter((x): x is number => x !== null)) : null)
  const nodes = nodeParts.length > 0 ? mergeNodesSeen(nodeParts) : null
  if (nodes !== null && nodes.overflow > 0) warnings.push(`The files' node lists name more nodes than are kept (${fmt(nodes.nodes.length)}): a machine inferred from this log misses the others.`)
  const log: ParsedLog = {
    format, jobs, users, ...(hasAccounts ? { accounts } : {}),
    ...(jobs.partition !== undefined ? { partitions } : {}), ...(jobs.qos !== undefined ? { qosNames } : {}),
    ...(nodes !== null ? { nodesSeen: nodes.nodes } : {}),
    header: parts[0].log.header,
    maxProcs: maxOf(parts.map((p) => p.log.maxProcs)), maxNodes: maxOf(parts.map((p) => p.log.maxNodes)),
    unixStartTime: base,
    linesRead: parts.reduce((s, p) => s + p.log.linesRead, 0),
    badLines: parts.reduce((s, p) => s + p.log.badLines, 0), badLineExamples,
    parserDrops: [...drops.values()],
    warnings: [...new Set(parts.flatMap((p) => p.log.warnings)), ...warnings],
  }
  return { log, files, duplicates, gaps }
}

/** The index map of a column holding partition or QOS indices (file's index → merged index), else null. */
function mapOf(col: OptionalColumn, partitionMap: readonly number[], qosMap: readonly number[]): readonly number[] | null {
  return col === 'partition' ? partitionMap : col === 'qos' ? qosMap : null
}

/** Gaps longer than `gapSeconds` between the files' bulk spans (stragglers left out), in time order. */
function findGaps(files: readonly FileSpan[], gapSeconds: number): FileGap[] {
  const spans = files.filter((f) => f.bulkFirst !== null).sort((a, b) => a.bulkFirst! - b.bulkFirst!)
  const gaps: FileGap[] = []
  let reach = -Infinity
  let reachName = ''
  for (const f of spans) {
    if (reachName !== '' && f.bulkFirst! - reach > gapSeconds) gaps.push({ before: reachName, after: f.name, from: reach, to: f.bulkFirst!, seconds: f.bulkFirst! - reach })
    if (f.bulkLast! > reach) { reach = f.bulkLast!; reachName = f.name }
  }
  return gaps
}
