// SLURM jobcomp/filetxt logs: one line of `key=value` pairs per finished job. Two spellings:
// site logs such as `jobstate=COMPLETED jobid=… username=… start=… end=… submit=… procs=… limit=…`
// (epoch seconds, often after a date stamp) and SLURM's own `JobId=… UserId=alice(1000) JobState=…
// TimeLimit=60 StartTime=2026-11-22T11:55:39 … ProcCnt=… SubmitTime=…`. Keys are case-insensitive.

import { ExampleCounter, ruleCount } from './builder'
import { isSlurmStep, slurmJobId } from './sacct'
import { MAX_COUNT, MAX_EXACT } from './limits'
import { parseKeyValues, parseSlurmDuration, plural, readCount, readDuration } from './timeparse'
import { TextLogParser } from './text-parser'
import type { LogParser, RuleCount } from './types'

/** Accepted keys (lower case) per attribute, preferred first. */
const KEYS = {
  jobId: ['jobid'],
  user: ['username', 'userid', 'user'],
  account: ['account'],
  submit: ['submit', 'submittime'],
  start: ['start', 'starttime'],
  end: ['end', 'endtime'],
  procs: ['procs', 'proccnt', 'ncpus'],
  limit: ['limit', 'timelimit'],
  nodes: ['nodes', 'nodelist'],
  nodeCount: ['nodecnt'],
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

class JobcompParser extends TextLogParser {
  readonly format = 'jobcomp'
  private readonly steps = new ExampleCounter()
  private readonly neverStarted = new ExampleCounter()
  private requestedUnknown = 0

  protected onLine(line: string, lineNo: number): void {
    if (line.trim() === '') return
    const pairs = parseKeyValues(line)
    if (pairs.size === 0) return this.bad.add(lineNo, 'not-a-record', 'no key=value pairs: not a jobcomp line')
    const idText = field(pairs, KEYS.jobId)
    if (idText === undefined) return this.bad.add(lineNo, 'missing-field', 'no jobid')
    if (isSlurmStep(idText)) return this.steps.add(lineNo)
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
    if (Number.isNaN(start) || neverAllocated(pairs)) return this.neverStarted.add(lineNo)
    this.pushJob(pairs, id, submit, start, end, procs, requested, lineNo)
  }

  private pushJob(pairs: ReadonlyMap<string, string>, id: number, submit: number, start: number, end: number, procs: number, requested: number, lineNo: number): void {
    const runtime = end >= start ? end - start : -1
    if (requested < 0) this.requestedUnknown++
    const user = this.jobs.internUser(userName(field(pairs, KEYS.user)))
    const account = this.jobs.internAccount(field(pairs, KEYS.account))
    this.jobs.push(id, submit, start - submit, runtime, procs, procs, requested, user, -1, lineNo, account)
  }

  protected drops(): RuleCount[] {
    const all = [
      ruleCount('slurm-steps', 'job steps (.batch, .extern, .0 …): parts of a job, not jobs', 'removed', this.steps),
      ruleCount('slurm-never-started', 'jobs that never started (no start time, or no node was ever allocated)', 'removed', this.neverStarted),
    ]
    return all.filter((r) => r.count > 0)
  }

  protected warnings(): string[] {
    const w: string[] = []
    const n = this.jobs.count
    if (n > 0 && this.requestedUnknown === n) {
      w.push('No job has a time limit (limit / TimeLimit): requested run times are unknown (-1), so EASY backfilling ' +
        'cannot be simulated faithfully without a fallback for the requested time.')
    } else if (this.requestedUnknown > 0) {
      w.push(`Requested run time unknown (-1) for ${plural(this.requestedUnknown, 'job')}: no time limit (missing, UNLIMITED or Partition_Limit).`)
    }
    if (n === 0 && this.bad.count > 0) w.push('No job could be read: is this a SLURM jobcomp log?')
    const iso = this.times.warning()
    if (iso !== null) w.push(iso)
    return w
  }
}

/** A streaming parser for SLURM jobcomp/filetxt logs. */
export function createJobcompParser(): LogParser {
  return new JobcompParser()
}
