// The seeded fuzz harness of issue #20 (docs/SIMULATOR.md §Bad lines): it mutates excerpts of real
// logs (test/fixtures and the bundled sample) and knows, for each mutation, what the importer must
// answer — the line it broke, rejected with the reason code that mutation implies — so that a
// catch-all turning every problem into one message cannot pass. Used by importers.test.ts (a
// fixed seed in `npm test`) and by `npm run fuzz` (more cases, any seed).
import { readFileSync } from 'node:fs'
import { isDeepStrictEqual } from 'node:util'
import { gunzipSync } from 'node:zlib'
import { ChunkSplitter, parseChunk } from '../../src/core/workload/chunks'
import { mergeSwfChunks, type SwfChunk } from '../../src/core/workload/swf'
import { mergeTextChunks, planTextChunks } from '../../src/core/workload/text-chunks'
import type { TextChunk } from '../../src/core/workload/text-parser'
import { InputError } from '../../src/core/workload/errors'
import { Importer, importBytes, type Workload } from '../../src/core/workload/import'
import type { BadLineCode } from '../../src/core/workload/limits'
import type { LogFormat, ParsedLog } from '../../src/core/workload/types'
import { fixture } from '../support/data'
import { SAMPLE_LOG } from '../support/sample'

/** What a typed field holds: decides which code a replaced value must give. */
type Kind = 'swf' | 'time' | 'count' | 'id' | 'slurm-duration' | 'pbs-duration' | 'pbs-date'

/** A value's place in a line: [start, end) in characters of that line. */
interface Slot { readonly start: number; readonly end: number; readonly kind: Kind; readonly name: string }

export interface Corpus {
  readonly name: string
  readonly format: LogFormat
  /** Lines without their line breaks (the file is them joined by LF, with a final LF). */
  readonly lines: readonly string[]
  /** Indexes of job lines that may be mutated (never a header) and their typed fields. */
  readonly jobs: ReadonlyMap<number, readonly Slot[]>
  /** The baseline import, unmutated. */
  readonly baseline: Summary
}

export interface Summary {
  readonly format: LogFormat
  readonly linesRead: number
  readonly jobsRead: number
  readonly jobsKept: number
  readonly ids: readonly number[]
  /** Line numbers of the kept jobs, ascending. */
  readonly jobLines: readonly number[]
  readonly bad: ReadonlyMap<number, BadLineCode>
}

/** Every import in the fuzz run uses these options: Cirrus has no time limits at all. */
const OPTIONS = { requestedFallback: 'runtime' as const }

function summary(w: Workload): Summary {
  const bad = new Map<number, BadLineCode>()
  for (const e of w.report.badLines.examples) bad.set(e.line, e.code)
  return {
    format: w.format, linesRead: w.report.linesRead, jobsRead: w.report.jobsRead, jobsKept: w.report.jobsKept,
    ids: Array.from(w.jobs.id).sort((a, b) => a - b), jobLines: Array.from(w.jobs.line).sort((a, b) => a - b), bad,
  }
}

const enc = new TextEncoder()
export const importString = (text: string | Uint8Array): Workload =>
  importBytes(typeof text === 'string' ? enc.encode(text) : text, OPTIONS)

/** Word-start positions and ends of whitespace-separated tokens. */
function tokens(line: string, sep: RegExp): { start: number; end: number; text: string }[] {
  const out: { start: number; end: number; text: string }[] = []
  for (const m of line.matchAll(sep)) out.push({ start: m.index, end: m.index + m[0].length, text: m[0] })
  return out
}

const SACCT_KINDS: Record<string, Kind> = {
  jobid: 'id', jobidraw: 'id', submit: 'time', start: 'time', end: 'time', elapsedraw: 'count', cputimeraw: 'count',
  resvcpuraw: 'count', alloccpus: 'count', ncpus: 'count', reqcpus: 'count', timelimitraw: 'slurm-duration',
  timelimit: 'slurm-duration', elapsed: 'slurm-duration',
  // resource columns (issue #21): counts and times read as strictly as the others
  reqnodes: 'count', nnodes: 'count', allocnodes: 'count', priority: 'count', eligible: 'time',
}
const JOBCOMP_KINDS: Record<string, Kind> = { jobid: 'id', submit: 'time', start: 'time', end: 'time', procs: 'count', limit: 'slurm-duration' }
const PBS_KINDS: Record<string, Kind> = {
  qtime: 'time', start: 'time', end: 'time', 'resource_list.ncpus': 'count', 'resource_list.nodect': 'count',
  'resource_list.walltime': 'pbs-duration', 'resources_used.walltime': 'pbs-duration',
}

function keyValueSlots(line: string, kinds: Record<string, Kind>): Slot[] {
  const out: Slot[] = []
  for (const m of line.matchAll(/(^|[\s;])([A-Za-z_.]+)=(\S*)/g)) {
    const kind = kinds[m[2].toLowerCase()]
    if (kind === undefined) continue
    const start = m.index + m[1].length + m[2].length + 1
    out.push({ start, end: start + m[3].length, kind, name: m[2] })
  }
  return out
}

function slotsOf(format: LogFormat, lines: readonly string[]): Map<number, Slot[]> {
  const jobs = new Map<number, Slot[]>()
  if (format === 'swf') {
    lines.forEach((l, i) => {
      if (l.trim() === '' || l.trimStart().startsWith(';')) return
      jobs.set(i, tokens(l, /\S+/g).map((t, f) => ({ start: t.start, end: t.end, kind: 'swf', name: `field ${f + 1}` })))
    })
  } else if (format === 'sacct') {
    const sep = lines[0].includes('|') ? '|' : ','
    const names = lines[0].split(sep).map((n) => n.trim().toLowerCase())
    lines.forEach((l, i) => {
      if (i === 0 || l.trim() === '') return
      const cells = l.split(sep)
      const idCol = names.findIndex((n) => SACCT_KINDS[n] === 'id')
      if (idCol >= 0 && cells[idCol].includes('.')) return // a job step: not read as a job
      const slots: Slot[] = []
      let at = 0
      cells.forEach((c, k) => {
        const kind = SACCT_KINDS[names[k]]
        if (kind !== undefined) slots.push({ start: at, end: at + c.length, kind, name: names[k] })
        at += c.length + 1
      })
      jobs.set(i, slots)
    })
  } else if (format === 'jobcomp') {
    lines.forEach((l, i) => { if (l.trim() !== '') jobs.set(i, keyValueSlots(l, JOBCOMP_KINDS)) })
  } else {
    lines.forEach((l, i) => {
      const parts = l.split(';')
      if (parts.length < 4) return
      const slots: Slot[] = [{ start: 0, end: parts[0].length, kind: 'pbs-date', name: 'date' }]
      if (parts[1] === 'E' && !parts[2].includes('[]')) {
        const idStart = parts[0].length + parts[1].length + 2
        const digits = /^\d+/.exec(parts[2])![0]
        slots.push({ start: idStart, end: idStart + digits.length, kind: 'id', name: 'job id' }, ...keyValueSlots(l, PBS_KINDS))
      }
      jobs.set(i, slots)
    })
  }
  return jobs
}

function makeCorpus(name: string, format: LogFormat, text: string): Corpus {
  const lines = text.replace(/(\r\n|\r|\n)$/, '').split(/\r\n|\r|\n/) // the Cirrus excerpt has CRLF endings
  const baseline = summary(importString(lines.join('\n') + '\n'))
  if (baseline.format !== format || baseline.bad.size !== 0) throw new Error(`fuzz corpus ${name}: the unmutated excerpt must import as ${format} with no bad line`)
  return { name, format, lines, jobs: slotsOf(format, lines), baseline }
}

/** The excerpts of real logs in test/fixtures, and the first 300 jobs of the bundled sample. */
export function loadCorpora(): Corpus[] {
  const sample = gunzipSync(readFileSync(SAMPLE_LOG)).toString('utf8').split('\n')
  const head = sample.filter((l) => l.startsWith(';'))
  const firstJobs = sample.filter((l) => l.trim() !== '' && !l.startsWith(';')).slice(0, 300)
  return [
    makeCorpus('KTH-SP2 sample (header + 300 jobs)', 'swf', [...head, ...firstJobs].join('\n')),
    makeCorpus('cirrus-sacct-excerpt.csv', 'sacct', readFileSync(fixture('slurm/cirrus-sacct-excerpt.csv'), 'utf8')),
    makeCorpus('kabre-sacct-excerpt.psv', 'sacct', readFileSync(fixture('slurm/kabre-sacct-excerpt.psv'), 'utf8')),
    makeCorpus('rackham-jobcomp-excerpt.txt', 'jobcomp', readFileSync(fixture('slurm/rackham-jobcomp-excerpt.txt'), 'utf8')),
    makeCorpus('ncar-casper-testdata', 'pbs', readFileSync(fixture('pbs/ncar-casper-testdata'), 'utf8')),
  ]
}

/** mulberry32: a small seeded generator (the run is reproducible from its seed). */
export function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Values put in place of a field, by class: the class and the field's kind decide the code. */
const HUGE_DIGITS = ['99999999999999999999', '100000000000000000', '18446744073709551617']
const EXPONENTS = ['1e999', '1e17', '-1e999', '9.9e300']
const WORDS = ['NaN', 'Infinity', 'abc', '0x1F', '12abc', '--5', '1:2:3:4:5']
/** Control characters inserted inside a value (never at its ends, where trim() could drop \v or \f). */
const CONTROLS = ['\x01', '\x02', '\x07', '\x08', '\x1b', '\x7f', '\x0b', '\x0c']

type ValueClass = 'huge-digits' | 'exponent' | 'word'

/** The one code a replaced value must give in a field of this kind. */
function codeFor(kind: Kind, cls: ValueClass): BadLineCode {
  switch (kind) {
    case 'swf': return cls === 'word' ? 'not-a-number' : 'out-of-range'
    case 'pbs-date': return 'bad-time'
    case 'time': return cls === 'huge-digits' ? 'out-of-range' : 'bad-time'
    case 'slurm-duration': case 'pbs-duration': return cls === 'huge-digits' ? 'out-of-range' : 'bad-duration'
    case 'count': case 'id': return cls === 'huge-digits' ? 'out-of-range' : 'not-a-number'
  }
}

/** One mutated file and what the importer must answer. */
export interface Case {
  readonly corpus: Corpus
  readonly what: string
  readonly bytes: Uint8Array
  /**
   * 'lines': import succeeds; exactly the lines in `rejected` (1-based) are bad, each with a code
   * in its set (an empty set: any code); every other line as in the baseline.
   * 'same': import succeeds and equals the baseline (line endings, BOM).
   * 'reordered': succeeds, no bad line, the same jobs in another order.
   * 'input-error': an InputError, with this line and code when given.
   * 'any': only that nothing but an InputError is thrown (a bit flip that made a line break).
   */
  readonly expect:
    | { kind: 'lines'; rejected: ReadonlyMap<number, ReadonlySet<BadLineCode>>; mayPass?: ReadonlySet<number> }
    | { kind: 'same' } | { kind: 'reordered' } | { kind: 'any' }
    | { kind: 'input-error'; line?: number; code?: BadLineCode }
}

const pick = <T>(r: () => number, a: readonly T[]): T => a[Math.floor(r() * a.length)]
const text = (lines: readonly string[], eol = '\n') => lines.join(eol) + eol

function fieldMutation(r: () => number, c: Corpus): Case {
  const lines = c.lines.slice()
  const candidates = [...c.jobs.keys()].filter((i) => c.jobs.get(i)!.length > 0)
  const n = 1 + Math.floor(r() * 3)
  const rejected = new Map<number, ReadonlySet<BadLineCode>>()
  const what: string[] = []
  for (let k = 0; k < n; k++) {
    const i = pick(r, candidates)
    if (rejected.has(i + 1)) continue
    const slot = pick(r, c.jobs.get(i)!)
    const old = lines[i].slice(slot.start, slot.end)
    let value: string
    let cls: ValueClass
    const u = r()
    if (u < 0.25) { value = pick(r, HUGE_DIGITS); cls = 'huge-digits' }
    // A dot in a job id makes a SLURM job step (not a job) or ends a PBS id's number: no dots there.
    else if (u < 0.5) { value = pick(r, EXPONENTS.filter((v) => slot.kind !== 'id' || !v.includes('.'))); cls = 'exponent' }
    else if (u < 0.75) { value = pick(r, WORDS); cls = 'word' }
    else {
      // A control character inside the value: it is no longer a number, time or duration.
      const ch = old.length >= 2 ? pick(r, CONTROLS) : '\x01'
      const at = old.length >= 2 ? 1 + Math.floor(r() * (old.length - 1)) : old.length
      value = old.slice(0, at) + ch + old.slice(at)
      cls = 'word'
    }
    lines[i] = lines[i].slice(0, slot.start) + value + lines[i].slice(slot.end)
    rejected.set(i + 1, new Set([codeFor(slot.kind, cls)]))
    what.push(`line ${i + 1} ${slot.name} ${JSON.stringify(old)} → ${JSON.stringify(value)}`)
  }
  return { corpus: c, what: `field: ${what.join('; ')}`, bytes: enc.encode(text(lines)), expect: { kind: 'lines', rejected } }
}

/** Fields added or removed: the count of fields no longer matches the format. */
function shapeMutation(r: () => number, c: Corpus): Case | null {
  const lines = c.lines.slice()
  const i = pick(r, [...c.jobs.keys()])
  const line = lines[i]
  let code: BadLineCode
  let what: string
  if (c.format === 'swf') {
    const u = r()
    if (u < 0.4) { lines[i] = line.trim().split(/\s+/).slice(0, 17).join(' '); code = 'too-few-fields'; what = 'one SWF field removed' }
    else if (u < 0.8) { lines[i] = line + ' 7'.repeat(47); code = 'too-many-fields'; what = '47 fields appended (65 in all)' }
    else {
      lines[i] = line + ' 12 queueA'
      return { corpus: c, what: `line ${i + 1}: two extra columns (ignored)`, bytes: enc.encode(text(lines)), expect: { kind: 'lines', rejected: new Map() } }
    }
  } else if (c.format === 'sacct') {
    const sep = c.lines[0].includes('|') ? '|' : ','
    if (r() < 0.5) { lines[i] = line + sep + 'extra'; code = 'too-many-fields'; what = 'a cell appended' }
    else { lines[i] = line.slice(0, line.lastIndexOf(sep)); code = 'too-few-fields'; what = 'the last cell removed' }
  } else if (c.format === 'jobcomp') {
    const key = r() < 0.5 ? 'jobid' : 'submit'
    lines[i] = line.replace(new RegExp(`(^|\\s)${key}=\\S*`), '')
    code = 'missing-field'
    what = `${key}= removed`
  } else {
    if (!line.includes(';E;') || line.includes('[]')) return null
    lines[i] = line.split(';').slice(0, 3).join(';')
    code = 'not-a-record'
    what = 'attributes cut off'
  }
  return { corpus: c, what: `line ${i + 1}: ${what}`, bytes: enc.encode(text(lines)), expect: { kind: 'lines', rejected: new Map([[i + 1, new Set([code])]]) } }
}

function lineEndings(r: () => number, c: Corpus): Case {
  const style = pick(r, ['CR', 'CRLF', 'mixed', 'LF'] as const)
  const bom = r() < 0.5
  const last = r() < 0.5 // a line break after the last line, or none
  let body = ''
  c.lines.forEach((l, i) => {
    const eol = style === 'CR' ? '\r' : style === 'CRLF' ? '\r\n' : style === 'LF' ? '\n' : pick(r, ['\r', '\r\n', '\n'])
    body += l + (i < c.lines.length - 1 || last ? eol : '')
  })
  const bytes = enc.encode(body)
  const out = bom ? new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]) : bytes
  return { corpus: c, what: `${style} line endings${bom ? ' with a BOM' : ''}${last ? '' : ', no final break'}`, bytes: out, expect: { kind: 'same' } }
}

function shuffle(r: () => number, c: Corpus): Case {
  const lines = c.lines.slice()
  const keys = [...c.jobs.keys()]
  for (let k = 0; k < 3; k++) {
    const a = pick(r, keys), b = pick(r, keys)
    ;[lines[a], lines[b]] = [lines[b], lines[a]]
  }
  return { corpus: c, what: 'three swaps of job lines', bytes: enc.encode(text(lines)), expect: { kind: 'reordered' } }
}

function truncate(r: () => number, c: Corpus): Case {
  // Cut after the first kept job's line, so that a job is always left.
  const keys = [...c.jobs.keys()].filter((k) => k + 1 > c.baseline.jobLines[0])
  const i = pick(r, keys)
  const cut = Math.floor(r() * c.lines[i].length)
  const lines = c.lines.slice(0, i + 1)
  lines[i] = lines[i].slice(0, cut)
  // The cut line may still read (cut inside the last, ignored field) or be rejected for any reason.
  const bytes = enc.encode(lines.join('\n'))
  return { corpus: c, what: `cut in line ${i + 1} at column ${cut}`, bytes, expect: { kind: 'lines', rejected: new Map([[i + 1, new Set()]]), mayPass: new Set([i + 1]) } }
}

function bitFlip(r: () => number, c: Corpus): Case {
  const lines = c.lines.slice()
  const i = pick(r, [...c.jobs.keys()])
  const bytes = enc.encode(lines[i])
  const at = Math.floor(r() * bytes.length)
  const bit = 1 << Math.floor(r() * 8)
  const before = enc.encode(text(lines.slice(0, i))).length
  const all = enc.encode(text(lines))
  const pos = (i === 0 ? 0 : before) + at
  all[pos] ^= bit
  const what = `line ${i + 1} byte ${at}: 0x${bytes[at].toString(16)} → 0x${all[pos].toString(16)}`
  const b = all[pos]
  if (b === 10 || b === 13) return { corpus: c, what, bytes: all, expect: { kind: 'any' } }
  if (b === 0 && pos < 4096) return { corpus: c, what, bytes: all, expect: { kind: 'input-error', line: 1 } }
  return { corpus: c, what, bytes: all, expect: { kind: 'lines', rejected: new Map([[i + 1, new Set()]]), mayPass: new Set([i + 1]) } }
}

function longLine(r: () => number, c: Corpus): Case {
  const lines = c.lines.slice()
  const i = pick(r, [...c.jobs.keys()])
  lines[i] = lines[i] + ' '.repeat((1 << 20) + 1)
  return { corpus: c, what: `line ${i + 1} padded past 1 MiB`, bytes: enc.encode(text(lines)), expect: { kind: 'input-error', line: i + 1, code: 'line-too-long' } }
}

/** One case: a mutation drawn for this corpus. */
export function makeCase(r: () => number, c: Corpus): Case {
  for (;;) {
    const u = r()
    if (u < 0.002) return longLine(r, c)
    if (u < 0.6) return fieldMutation(r, c)
    if (u < 0.68) { const s = shapeMutation(r, c); if (s) return s; continue }
    if (u < 0.78) return lineEndings(r, c)
    if (u < 0.84) return shuffle(r, c)
    if (u < 0.9) return truncate(r, c)
    return bitFlip(r, c)
  }
}

/** Runs one case; returns null when the importer answered as required, else what went wrong. */
export function check(k: Case): string | null {
  let w: Workload
  try {
    w = importString(k.bytes)
  } catch (e) {
    if (!(e instanceof InputError)) return `threw ${(e as Error)?.name}: ${(e as Error)?.message} (not an InputError)`
    if (k.expect.kind === 'any') return null
    // Rejecting every line that held a kept job leaves none: that import must be refused.
    const x = k.expect
    if (x.kind === 'lines' && k.corpus.baseline.jobLines.every((l) => x.rejected.has(l)) && /^no job was kept/.test(e.message)) return null
    if (k.expect.kind !== 'input-error') return `InputError "${e.message}" where the import must succeed`
    if (k.expect.line !== undefined && e.line !== k.expect.line) return `InputError on line ${e.line}, expected line ${k.expect.line}: ${e.message}`
    if (k.expect.code !== undefined && e.code !== k.expect.code) return `InputError code ${e.code}, expected ${k.expect.code}: ${e.message}`
    return null
  }
  const s = summary(w)
  const base = k.corpus.baseline
  const x = k.expect
  if (x.kind === 'any') return null
  if (x.kind === 'input-error') return `imported (${s.jobsRead} jobs) where an InputError${x.code ? ` (${x.code})` : ''} was required`
  if (s.format !== base.format) return `read as ${s.format}, not ${base.format}`
  if (w.report.badLines.count !== w.report.badLines.examples.length) return `${w.report.badLines.count} bad lines, more than the examples kept`
  if (x.kind === 'same') {
    const same = s.linesRead === base.linesRead && s.jobsRead === base.jobsRead && s.jobsKept === base.jobsKept && s.bad.size === 0 &&
      s.ids.join() === base.ids.join()
    return same ? null : `differs from the baseline: lines ${s.linesRead}/${base.linesRead}, jobs ${s.jobsRead}/${base.jobsRead}, kept ${s.jobsKept}/${base.jobsKept}, bad ${[...s.bad].join(' ')}`
  }
  if (x.kind === 'reordered') {
    return s.bad.size === 0 && s.jobsRead === base.jobsRead && s.ids.join() === base.ids.join() ? null
      : `a reordered file lost or rejected jobs: ${s.jobsRead}/${base.jobsRead}, bad ${[...s.bad].join(' ')}`
  }
  for (const [line, code] of s.bad) {
    const allowed = x.rejected.get(line)
    if (allowed === undefined) return `line ${line} rejected (${code}) but the mutation did not touch it`
    if (allowed.size > 0 && !allowed.has(code)) return `line ${line} rejected with ${code}, expected ${[...allowed].join(' or ')}`
  }
  for (const line of x.rejected.keys()) {
    if (!s.bad.has(line) && !x.mayPass?.has(line)) return `line ${line} was broken but not rejected`
  }
  return null
}

/**
 * The same case parsed in line-aligned chunks of about `target` bytes (as the parse threads do,
 * src/node/parse-parallel.ts) must give the sequential parse exactly; null when it does, or when the
 * sequential parse refuses the file (then the parallel importer's own checks decide, tested apart).
 */
export function chunkedProblem(k: Case, target: number): string | null {
  let seq: ParsedLog
  try {
    const imp = new Importer()
    imp.feed(k.bytes)
    seq = imp.endParsed()
  } catch (e) {
    if (e instanceof InputError) return null
    return `the sequential parse threw ${(e as Error)?.name}: ${(e as Error)?.message}`
  }
  const head = k.bytes.subarray(0, 64 * 1024)
  let merged: ParsedLog
  try {
    const plan = seq.format === 'swf' ? null : planTextChunks(seq.format, head)
    if (seq.format !== 'swf' && plan === null) return null // a head without a usable sacct header: parsed in one go
    const s = new ChunkSplitter(target, plan?.firstMinBytes ?? 0)
    const pieces = s.push(k.bytes)
    const last = s.end()
    if (last !== null) pieces.push(last)
    const chunks = pieces.map((bytes, i) => parseChunk({ bytes, first: i === 0, plan }))
    merged = plan === null ? mergeSwfChunks(chunks as SwfChunk[]) : mergeTextChunks(plan, chunks as TextChunk[])
  } catch (e) {
    return `the chunked parse threw ${(e as Error)?.name}: ${(e as Error)?.message} where the sequential parse read the file`
  }
  return isDeepStrictEqual(merged, seq) ? null : `the chunked parse (chunks of ${target} bytes) differs from the sequential one`
}
