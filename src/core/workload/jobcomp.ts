// SLURM jobcomp/filetxt logs: one line of `key=value` pairs per finished job. Two spellings:
// site logs such as `jobstate=COMPLETED jobid=… username=… start=… end=… submit=… procs=… limit=…`
// (epoch seconds, often after a date stamp) and SLURM's own `JobId=… UserId=alice(1000) JobState=…
// TimeLimit=60 StartTime=2026-11-22T11:55:39 … ProcCnt=… SubmitTime=…`. Keys are case-insensitive.

import { ExampleCounter, ruleCount } from './builder'
import { isPendingArray, isSlurmStep, slurmJobId } from './sacct'
import { MAX_COUNT, MAX_EXACT } from './limits'
import { parseKeyValues, parseSlurmDuration, plural, readCount, readDuration } from './timeparse'
import { TextLogParser, type TextParserOptions } from './text-parser'
import type { RuleCount } from './types'
import { COL, clearRow, emptyRow } from './builder'
import { jobMemMB, readNodeList, readTres } from './resources'
import { slurmSubId } from './sacct'

/** SLURM's NO_VAL (0xfffffffe) where an array task or het offset is not set. */
const NO_VAL = 0xfffffffe

/** Accepted keys (lower case) per attribute, preferred first. */
const KEYS = {
  jobId: ['jobid'],
  user: ['username', 'userid', 'user'],
  account: ['account'],
  submit: ['submit', 'submittime'],
  start: ['start', 'starttime'],
  end: ['end', 'endtime'],
  procs: ['procs', 'proccnt', 'ncpus', 'total_cpus'],
  limit: ['limit', 'timelimit'],
  nodes: ['nodes', 'nodelist'],
  nodeCount: ['nodecnt', 'total_nodes'],
  partition: ['partition'],
  qos: ['qos'],
  tresAlloc: ['tres_alloc'],
  tresReq: ['tres', 'tres_req'],
  eligible: ['eligibletime', 'eligible'],
  arrayJobId: ['arrayjobid', 'array_job_id'],
  arrayTaskId: ['arraytaskid', 'array_task_id'],
  hetJobId: ['hetjobid', 'het_job_id', 'packjobid'],
  hetJobOffset: ['hetjoboffset', 'het_job_offset', 'packjoboffset'],
} as const

/** Node-list values that mean no node was ever allocated. */
const NO_NODES = new Set(['', '(null)', 'none assigned', 'none'])

function field(pairs: ReadonlyMap<string, string>, keys: readonly string[]): string | undefined {
  for (const k of keys) {
    const v = pairs.get(k)
    if (v !== undefined) return v.trim()
  }
  return undefined
}

/** `alice(1000)` → `alice`. */
function userName(text: string | undefined): string | undefined {
  if (text === undefined) return undefined
  const paren = text.indexOf('(')
  return (paren < 0 ? text : text.slice(0, paren)).trim()
}

/** True when the record says no node was allocated (the job was cancelled or failed while pending). */
function neverAllocated(pairs: ReadonlyMap<string, string>): boolean {
  const nodes = field(pairs, KEYS.nodes)
  if (nodes !== undefined && NO_NODES.has(nodes.toLowerCase())) return true
  return field(pairs, KEYS.nodeCount) === '0'
}

/** The resource values of one line, read before the line is classified. */
interface JobcompResources {
  nodeList: string[] | null
  nodeCount: number
  tresAlloc: ReturnType<typeof readTres> | undefined
  tresReq: ReturnType<typeof readTres> | undefined
  eligible: number | undefined
  subId: number
}

class JobcompParser extends TextLogParser {
  readonly format = 'jobcomp'
  protected readonly tally = { steps: new ExampleCounter(), neverStarted: new ExampleCounter(), requestedUnknown: 0 }
  protected override readonly rawIdIsId = true
  private readonly row = emptyRow()

  protected onLine(line: string, lineNo: number): void {
    if (line.trim() === '') return
    const pairs = parseKeyValues(line)
    if (pairs.size === 0) return this.bad.add(lineNo, 'not-a-record', 'no key=value pairs: not a jobcomp line')
    const idText = field(pairs, KEYS.jobId)
    if (idText === undefined) return this.bad.add(lineNo, 'missing-field', 'no jobid')
    if (isSlurmStep(idText)) return this.tally.steps.add(lineNo)
    const id = slurmJobId(idText)
    if (Number.isNaN(id)) return this.bad.add(lineNo, 'not-a-number', `jobid "${idText}" is not a job number`)
    if (id > MAX_EXACT) return this.bad.add(lineNo, 'out-of-range', `jobid "${idText}" is beyond the largest job number read`)
    const submitText = field(pairs, KEYS.submit) ?? ''
    const submit = this.times.time('submit', submitText)
    if (Number.isNaN(submit)) return this.bad.add(lineNo, 'missing-field', submitText === '' ? 'no submit time' : `submit "${submitText}" is not set`)
    // Every field is read strictly before the line is classified: a value that is not what its key
    // says makes a bad line (FieldError), never an unknown or a job that "never started".
    const start = this.times.time('start', field(pairs, KEYS.start) ?? '')
    const end = this.times.time('end', field(pairs, KEYS.end) ?? '')
    const procs = readCount('procs', field(pairs, KEYS.procs) ?? '', MAX_COUNT)
    const requested = readDuration('limit', field(pairs, KEYS.limit) ?? '', parseSlurmDuration)
    const res = this.readResources(pairs)
    if (Number.isNaN(start) || neverAllocated(pairs) || isPendingArray(idText)) return this.tally.neverStarted.add(lineNo)
    this.pushJob(pairs, id, submit, start, end, procs, requested, lineNo)
    this.pushResources(pairs, res, idText, procs)
  }

  private pushJob(pairs: ReadonlyMap<string, string>, id: number, submit: number, start: number, end: number, procs: number, requested: number, lineNo: number): void {
    const runtime = end >= start ? end - start : -1
    if (requested < 0) this.tally.requestedUnknown++
    const user = this.jobs.internUser(userName(field(pairs, KEYS.user)))
    const account = this.jobs.internAccount(field(pairs, KEYS.account))
    const group = this.groupId(pairs)
    this.jobs.push(group >= 0 ? group : id, submit, start - submit, runtime, procs, procs, requested, user, -1, lineNo, account)
    // JobId is each record's own id; with an ArrayJobId / HetJobId the group becomes `id` and
    // JobId is kept as `rawId` (jobs read before the first such line: their id is their JobId).
    if (group >= 0 && !this.jobs.has('rawId')) this.jobs.enableAsId('rawId')
    this.row[COL.rawId] = id
  }

  /** The array or het job id the record belongs to (ArrayJobId / HetJobId), -1 when none. */
  private groupId(pairs: ReadonlyMap<string, string>): number {
    const a = readCount('ArrayJobId', field(pairs, KEYS.arrayJobId) ?? '', MAX_EXACT)
    if (a > 0 && a !== NO_VAL) return a
    const h = readCount('HetJobId', field(pairs, KEYS.hetJobId) ?? '', MAX_EXACT)
    return h > 0 && h !== NO_VAL ? h : -1
  }

  /** Reads every resource value strictly (a bad one makes a bad line) before the line is classified. */
  private readResources(pairs: ReadonlyMap<string, string>): JobcompResources {
    const nodesText = field(pairs, KEYS.nodes)
    const tresAlloc = field(pairs, KEYS.tresAlloc)
    const tresReq = field(pairs, KEYS.tresReq)
    const eligibleText = field(pairs, KEYS.eligible)
    const nodeCount = readCount('NodeCnt', field(pairs, KEYS.nodeCount) ?? '', MAX_COUNT)
    const task = readCount('ArrayTaskId', field(pairs, KEYS.arrayTaskId) ?? '', MAX_EXACT)
    const offset = readCount('HetJobOffset', field(pairs, KEYS.hetJobOffset) ?? '', MAX_EXACT)
    this.groupId(pairs) // strict: a bad ArrayJobId / HetJobId makes a bad line here
    return {
      nodeList: nodesText === undefined ? null : readNodeList('nodes', nodesText),
      nodeCount,
      tresAlloc: tresAlloc === undefined ? undefined : readTres('tres_alloc', tresAlloc),
      tresReq: tresReq === undefined ? undefined : readTres('Tres', tresReq),
      eligible: eligibleText === undefined ? undefined : this.times.time('EligibleTime', eligibleText),
      subId: task >= 0 && task < NO_VAL && task <= MAX_COUNT ? task : offset >= 0 && offset < NO_VAL && offset <= MAX_COUNT ? offset : -1,
    }
  }

  /** Fills the optional columns of the job pushed last (columns appear when a line has their key). */
  private pushResources(pairs: ReadonlyMap<string, string>, res: JobcompResources, idText: string, procs: number): void {
    const r = this.row
    const rawId = r[COL.rawId]
    clearRow(r)
    r[COL.rawId] = rawId // set by pushJob
    const jobs = this.jobs
    const partition = field(pairs, KEYS.partition)
    if (partition !== undefined) { jobs.enable('partition'); r[COL.partition] = jobs.internPartition(partition.split(',')[0].trim()) }
    const qos = field(pairs, KEYS.qos)
    if (qos !== undefined) { jobs.enable('qos'); r[COL.qos] = jobs.internQos(qos) }
    const list = res.nodeList ?? []
    if (res.nodeList !== null || res.nodeCount >= 0 || res.tresAlloc !== undefined || res.tresReq !== undefined) {
      jobs.enable('nodes')
      r[COL.nodes] = res.nodeCount > 0 ? res.nodeCount : res.tresAlloc?.node && res.tresAlloc.node > 0 ? res.tresAlloc.node
        : list.length > 0 ? list.length : res.tresReq?.node && res.tresReq.node > 0 ? res.tresReq.node : -1
    }
    const tres = res.tresAlloc ?? res.tresReq
    if (tres !== undefined) {
      jobs.enable('gpus')
      jobs.enable('memMB')
      r[COL.gpus] = res.tresAlloc?.gpus ?? res.tresReq?.gpus ?? -1
      const mem = res.tresAlloc?.mem ?? res.tresReq?.mem ?? null
      r[COL.memMB] = jobMemMB(mem, r[COL.nodes], procs)
    }
    if (res.eligible !== undefined) { jobs.enable('eligible'); r[COL.eligible] = res.eligible }
    const sub = res.subId >= 0 ? res.subId : slurmSubId(idText)
    if (sub >= 0) { jobs.enable('subId'); r[COL.subId] = sub }
    jobs.setRow(r)
    if (list.length > 0) this.nodes.add(list, procs, r[COL.gpus], r[COL.partition])
  }

  protected drops(): RuleCount[] {
    const all = [
      ruleCount('slurm-steps', 'job steps (.batch, .extern, .0 …): parts of a job, not jobs', 'removed', this.tally.steps),
      ruleCount('slurm-never-started', 'jobs that never started (no start time, or no node was ever allocated)', 'removed', this.tally.neverStarted),
    ]
    return all.filter((r) => r.count > 0)
  }

  protected warnings(): string[] {
    const w: string[] = []
    const n = this.jobs.count
    if (n > 0 && this.tally.requestedUnknown === n) {
      w.push('No job has a time limit (limit / TimeLimit): requested run times are unknown (-1), so EASY backfilling ' +
        'cannot be simulated faithfully without a fallback for the requested time.')
    } else if (this.tally.requestedUnknown > 0) {
      w.push(`Requested run time unknown (-1) for ${plural(this.tally.requestedUnknown, 'job')}: no time limit (missing, UNLIMITED or Partition_Limit).`)
    }
    if (n === 0 && this.bad.count > 0) w.push('No job could be read: is this a SLURM jobcomp log?')
    const iso = this.times.warning()
    if (iso !== null) w.push(iso)
    return w
  }
}

/** A streaming parser for SLURM jobcomp/filetxt logs. */
export function createJobcompParser(opts: TextParserOptions = {}): TextLogParser {
  return new JobcompParser(opts)
}
