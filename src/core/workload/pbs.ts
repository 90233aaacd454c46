// PBS Pro / Torque accounting logs: `MM/DD/YYYY hh:mm:ss;TYPE;jobid;key=value …`. Only E (job
// end) records describe a finished job; the other record types (Q queued, S started, R rerun,
// D deleted, A aborted, L licence …) are counted and skipped.

import { ExampleCounter, ruleCount } from './builder'
import { FieldError } from './errors'
import { MAX_COUNT, MAX_EXACT } from './limits'
import { isDigits, parseCount, parseKeyValues, parsePbsDate, parsePbsDuration, plural, readCount, readDuration } from './timeparse'
import { TextLogParser, type TextParserOptions } from './text-parser'
import type { RuleCount } from './types'

/** The numeric part of a PBS job id: `4215033.casper-pbs` → 4215033, `123[4].srv` → 123; NaN if none. */
export function pbsJobId(jobId: string): number {
  let cut = 0
  while (cut < jobId.length && jobId[cut] !== '.' && jobId[cut] !== '[') cut++
  const num = jobId.slice(0, cut)
  return isDigits(num) ? Number(num) : NaN
}

/** True for the record of a whole job array (`123[].server`); its subjobs have their own records. */
function isArrayParent(jobId: string): boolean {
  return jobId.includes('[]')
}

/**
 * Processors in a node or chunk spec: Torque `Resource_List.nodes` (`2:ppn=16`, `n01:ppn=4+n02:ppn=4`)
 * or PBS Pro `Resource_List.select` (`2:ncpus=36:mpiprocs=36+1:ncpus=4`). A chunk without a count
 * (a host name) counts once; a chunk without ppn/ncpus has one processor. -1 when unreadable.
 */
export function procsFromNodeSpec(spec: string): number {
  let total = 0
  for (const chunk of spec.split('+')) {
    const [head, ...options] = chunk.split(':')
    if (head === '') return -1
    const count = isDigits(head) ? Number(head) : 1
    let perChunk = 1
    for (const option of options) {
      const [key, value] = option.split('=')
      if (key === 'ppn' || key === 'ncpus') perChunk = parseCount(value ?? '')
    }
    if (perChunk < 0) return -1
    total += count * perChunk
  }
  return total
}

/** Processors of an E record: Resource_List.ncpus, else the nodes spec, else the select spec, else nodect. */
function procsOf(attrs: ReadonlyMap<string, string>): number {
  const ncpus = readCount('Resource_List.ncpus', attrs.get('resource_list.ncpus') ?? '', MAX_COUNT)
  const nodect = readCount('Resource_List.nodect', attrs.get('resource_list.nodect') ?? '', MAX_COUNT)
  if (ncpus >= 0) return ncpus
  for (const key of ['resource_list.nodes', 'resource_list.select']) {
    const spec = attrs.get(key)
    const procs = spec === undefined ? -1 : procsFromNodeSpec(spec)
    if (procs > MAX_COUNT) throw new FieldError('out-of-range', `${key} "${spec}" asks for more than ${MAX_COUNT} processors`)
    if (procs >= 0) return procs
  }
  return nodect
}

class PbsParser extends TextLogParser {
  readonly format = 'pbs'
  protected readonly tally = {
    nonEnd: new ExampleCounter(), nonEndTypes: new Map<string, number>(), arrayParents: new ExampleCounter(), neverStarted: new ExampleCounter(),
    requestedUnknown: 0,
  }

  protected onLine(line: string, lineNo: number): void {
    if (line.trim() === '') return
    const parts = line.split(';')
    if (parts.length < 4) return this.bad.add(lineNo, 'not-a-record', 'not a PBS accounting record (date;type;jobid;attributes)')
    const [date, type, jobId] = parts
    if (Number.isNaN(parsePbsDate(date))) return this.bad.add(lineNo, 'bad-time', `"${date}" is not a PBS date (MM/DD/YYYY hh:mm:ss)`)
    if (type !== 'E') {
      this.tally.nonEnd.add(lineNo)
      this.tally.nonEndTypes.set(type, (this.tally.nonEndTypes.get(type) ?? 0) + 1)
      return
    }
    if (isArrayParent(jobId)) return this.tally.arrayParents.add(lineNo)
    const id = pbsJobId(jobId)
    if (Number.isNaN(id)) return this.bad.add(lineNo, 'not-a-number', `job id "${jobId}" does not start with a number`)
    if (id > MAX_EXACT) return this.bad.add(lineNo, 'out-of-range', `job id "${jobId}" is beyond the largest job number read`)
    this.readEnd(parseKeyValues(parts.slice(3).join(';')), id, lineNo)
  }

  private readEnd(attrs: ReadonlyMap<string, string>, id: number, lineNo: number): void {
    const submitText = attrs.get('qtime') ?? attrs.get('ctime') ?? ''
    const submit = this.times.time(attrs.has('qtime') ? 'qtime' : 'ctime', submitText)
    if (Number.isNaN(submit)) return this.bad.add(lineNo, 'missing-field', submitText === '' ? 'no qtime or ctime' : `qtime "${submitText}" is not set`)
    // Every attribute is read strictly before the record is classified (FieldError: a bad line).
    const start = this.times.time('start', attrs.get('start') ?? '')
    const end = this.times.time('end', attrs.get('end') ?? '')
    const used = readDuration('resources_used.walltime', attrs.get('resources_used.walltime') ?? '', parsePbsDuration)
    const limit = readDuration('Resource_List.walltime', attrs.get('resource_list.walltime') ?? '', parsePbsDuration)
    const procs = procsOf(attrs)
    if (Number.isNaN(start)) return this.tally.neverStarted.add(lineNo)
    const runtime = used >= 0 ? used : end >= start ? end - start : -1
    const requested = limit >= 0 ? limit : -1
    if (requested < 0) this.tally.requestedUnknown++
    const user = this.jobs.internUser(attrs.get('user'))
    const account = this.jobs.internAccount(attrs.get('account')?.trim())
    this.jobs.push(id, submit, start - submit, runtime, procs, procs, requested, user, -1, lineNo, account)
  }

  protected drops(): RuleCount[] {
    const types = [...this.tally.nonEndTypes].map(([t, n]) => `${t} ${n}`).join(', ')
    const all = [
      ruleCount('pbs-non-end-records', `records other than E (job end) are not jobs: ${types}`, 'info', this.tally.nonEnd),
      ruleCount('pbs-array-parents', 'records of whole job arrays (123[]): their subjobs are counted instead', 'removed', this.tally.arrayParents),
      ruleCount('pbs-never-started', 'jobs that ended without starting (deleted while queued)', 'removed', this.tally.neverStarted),
    ]
    return all.filter((r) => r.count > 0)
  }

  protected warnings(): string[] {
    const w: string[] = []
    const n = this.jobs.count
    if (n > 0 && this.tally.requestedUnknown === n) {
      w.push('No job has a Resource_List.walltime: requested run times are unknown (-1), so EASY backfilling ' +
        'cannot be simulated faithfully without a fallback for the requested time.')
    } else if (this.tally.requestedUnknown > 0) {
      w.push(`Requested run time unknown (-1) for ${plural(this.tally.requestedUnknown, 'job')}: no Resource_List.walltime.`)
    }
    if (n === 0 && this.bad.count > 0) w.push('No job could be read: is this a PBS accounting log?')
    const iso = this.times.warning()
    if (iso !== null) w.push(iso)
    return w
  }
}

/** A streaming parser for PBS Pro / Torque accounting logs. */
export function createPbsParser(opts: TextParserOptions = {}): TextLogParser {
  return new PbsParser(opts)
}
