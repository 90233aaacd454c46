// A slurm.conf reader and merger (docs/POLICIES.md, "Merging into your slurm.conf"). Pure: text in,
// text out. Slurm's own rules (slurm.conf(5)): the contents are case-insensitive except node and
// partition names; "#" starts a comment to the end of the line ("\#" is a literal #); a line ending
// in "\" continues on the next; "Include <file>" reads another file in place; a key given twice
// keeps its last value ("specified more than once, latest value used"). The site's file is
// untrusted input: every problem is an ExportInputError naming the line, nothing is evaluated.
import type { SettingChange } from './types'
import { ExportInputError } from './errors'

/** The site's slurm.conf cannot be read (the message names the line). */
export class SlurmConfError extends ExportInputError {}

/** Largest slurm.conf accepted, characters (real ones are a few hundred kB at most). */
export const MAX_CONF_CHARS = 2_000_000
/** Longest physical line accepted, characters (a NodeName line of a large site is a few kB). */
export const MAX_LINE_CHARS = 65_536

/** Lines that describe records (nodes, partitions, …) or may legitimately repeat: never merged,
 * never reported as duplicates. */
const RECORD_KEYS = new Set(['nodename', 'partitionname', 'nodeset', 'downnodes', 'frontendname', 'slurmctldhost', 'controlmachine', 'backupcontroller'])

export interface ConfPair { key: string; value: string }

/** One logical line: physical lines joined by "\" continuations. */
export interface ConfLine {
  /** 1-based numbers of its first and last physical lines. */
  first: number
  last: number
  /** The physical lines, verbatim (without their line ending). */
  raw: string[]
  kind: 'blank' | 'comment' | 'include' | 'record' | 'settings'
  /** Key=Value pairs (keys as written); for 'include', none. */
  pairs: ConfPair[]
  /** The comments of its physical lines ("# …"), kept when the line is rewritten. */
  comments: string[]
  /** For 'include': the file name as written. */
  include?: string
}

export interface ConfSetting { key: string; value: string; line: number }

export interface SlurmConf {
  lines: ConfLine[]
  /** The value Slurm uses (the last one in this file), or null when absent. */
  get(key: string): ConfSetting | null
  /** Every occurrence, in file order. */
  all(key: string): ConfSetting[]
  includes: { file: string; line: number }[]
  partitions: { name: string; line: number; get(key: string): string | null }[]
  /** Keys set more than once in this file (Slurm uses the last). */
  duplicates: { key: string; lines: number[] }[]
  /** The file ended with a line break (kept as it was). */
  finalNewline: boolean
  /** Windows line ends (CR LF) or a byte-order mark were found: the merged file has neither. */
  normalized: string[]
}

/** A physical line's comment start ("#" not escaped as "\#"), or -1. */
function commentAt(line: string): number {
  for (let i = 0; i < line.length; i++) if (line[i] === '#' && (i === 0 || line[i - 1] !== '\\')) return i
  return -1
}

function describeChar(c: number): string {
  return c === 0 ? 'a NUL character' : `a control character (code ${c})`
}

function checkLine(line: string, n: number): void {
  if (line.length > MAX_LINE_CHARS) throw new SlurmConfError(`slurm.conf line ${n} is ${line.length} characters long (at most ${MAX_LINE_CHARS}): is this really a slurm.conf?`)
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i)
    if ((c < 32 && c !== 9) || c === 127 || c === 0xfffd) {
      throw new SlurmConfError(`slurm.conf line ${n} holds ${c === 0xfffd ? 'bytes that are not text' : describeChar(c)} at column ${i + 1}: a slurm.conf is plain text`)
    }
  }
}

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t'

/** Spaces around "=" removed (Slurm's parser allows them), in one pass (no regex backtracking). */
function tightEquals(body: string): string {
  let out = ''
  for (let i = 0; i < body.length;) {
    if (isSpace(body[i])) {
      let j = i
      while (isSpace(body[j])) j++
      if (body[j] !== '=' && !out.endsWith('=')) out += body.slice(i, j)
      i = j
    } else out += body[i++]
  }
  return out
}

/** "A=1 B=\"x y\"" → pairs. Linear in the line's length, whatever it holds. */
function pairsOf(body: string, n: number): ConfPair[] {
  const s = tightEquals(body)
  const out: ConfPair[] = []
  let i = 0
  while (i < s.length) {
    while (isSpace(s[i])) i++
    if (i >= s.length) break
    let end = i
    while (end < s.length && !isSpace(s[end]) && s[end] !== '=') end++
    if (s[end] !== '=' || end === i) {
      let t = end
      while (t < s.length && !isSpace(s[t])) t++
      const tok = s.slice(i, t)
      throw new SlurmConfError(`slurm.conf line ${n}: "${tok.slice(0, 40)}${tok.length > 40 ? '…' : ''}" is not a Key=Value setting`)
    }
    const key = s.slice(i, end)
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(key)) throw new SlurmConfError(`slurm.conf line ${n}: "${key.slice(0, 40)}" is not a setting name`)
    let j = end + 1
    let value = ''
    if (s[j] === '"') {
      const close = s.indexOf('"', j + 1)
      if (close < 0) throw new SlurmConfError(`slurm.conf line ${n}: the quote after ${key}= is never closed`)
      value = s.slice(j, close + 1)
      j = close + 1
    }
    const from = j
    while (j < s.length && !isSpace(s[j])) j++
    value += s.slice(from, j)
    out.push({ key, value })
    i = j
  }
  return out
}

/** Reads a slurm.conf. Throws ExportInputError (with the line) for anything that is not one. */
export function parseSlurmConf(text: unknown): SlurmConf {
  if (typeof text !== 'string') throw new SlurmConfError('the current slurm.conf must be text')
  if (text.length > MAX_CONF_CHARS) throw new SlurmConfError(`the current slurm.conf is ${text.length} characters long (at most ${MAX_CONF_CHARS})`)
  const normalized: string[] = []
  if (text.charCodeAt(0) === 0xfeff) { text = text.slice(1); normalized.push('the byte-order mark at the start was removed') }
  if ((text as string).includes('\r\n')) normalized.push('Windows line ends (CR LF) became Unix ones (LF)')
  const physical = (text as string).split(/\r?\n/)
  const finalNewline = physical.length > 1 && physical[physical.length - 1] === ''
  if (finalNewline) physical.pop()
  const lines: ConfLine[] = []
  for (let k = 0; k < physical.length;) {
    const first = k + 1
    const raw: string[] = []
    const comments: string[] = []
    let body = ''
    for (;;) {
      const line = physical[k]
      checkLine(line, k + 1)
      raw.push(line)
      k++
      const at = commentAt(line)
      if (at >= 0) comments.push(line.slice(at))
      const code = (at >= 0 ? line.slice(0, at) : line).trimEnd()
      const continued = code.endsWith('\\') && !code.endsWith('\\\\')
      body += continued ? code.slice(0, -1) : code // Slurm joins the lines as they are
      if (!continued || k >= physical.length) break
    }
    body = body.trim() // an escaped \\# stays as written: rewritten lines keep it
    const last = k
    const base = { first, last, raw, comments, pairs: [] as ConfPair[] }
    if (body === '') { lines.push({ ...base, kind: comments.length ? 'comment' : 'blank' }); continue }
    const inc = /^include\s+(.+)$/i.exec(body)
    if (inc) { lines.push({ ...base, kind: 'include', include: inc[1] }); continue }
    const pairs = pairsOf(body, first)
    const kind = RECORD_KEYS.has(pairs[0].key.toLowerCase()) ? 'record' : 'settings'
    lines.push({ ...base, kind, pairs })
  }

  const byKey = new Map<string, ConfSetting[]>()
  for (const l of lines) {
    if (l.kind !== 'settings') continue
    for (const p of l.pairs) {
      const k = p.key.toLowerCase()
      if (!byKey.has(k)) byKey.set(k, [])
      byKey.get(k)!.push({ key: p.key, value: p.value, line: l.first })
    }
  }
  const partitions = lines.filter((l) => l.kind === 'record' && l.pairs[0].key.toLowerCase() === 'partitionname').map((l) => ({
    name: l.pairs[0].value, line: l.first,
    get: (key: string) => [...l.pairs].reverse().find((p) => p.key.toLowerCase() === key.toLowerCase())?.value ?? null,
  }))
  return {
    lines,
    finalNewline,
    normalized,
    all: (key) => byKey.get(key.toLowerCase()) ?? [],
    get: (key) => byKey.get(key.toLowerCase())?.at(-1) ?? null,
    includes: lines.filter((l) => l.kind === 'include').map((l) => ({ file: l.include!, line: l.first })),
    partitions,
    duplicates: [...byKey.values()].filter((v) => v.length > 1).map((v) => ({ key: v[v.length - 1].key, lines: v.map((s) => s.line) })),
  }
}

// ---------------------------------------------------------------- merge

/** A comma-separated list entry: a flag ("bf_continue") or a keyed value ("bf_window=43200"). */
export interface ListEntry { name: string; value: string | null }

/** What the order needs: one value (not written when the file lacks the key and the value is
 * Slurm's default), or entries merged into a comma-separated set (PriorityFlags,
 * SchedulerParameters, JobSubmitPlugins), where a keyed entry replaces the one of the same name. */
export type Want = { key: string; why: string } & ({ kind: 'value'; value: string; slurmDefault?: string } | { kind: 'list'; entries: ListEntry[] })


export const splitList = (v: string): string[] => v.split(',').map((s) => s.trim()).filter((s) => s !== '')
/** An entry's name, lower case, without a plugin prefix ("job_submit/lua" and "lua" are one). */
const entryName = (e: string): string => e.split('=')[0].trim().toLowerCase().replace(/^[a-z_]+\//, '')
const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase()

/** The value of one keyed entry in a list setting ("bf_window" in SchedulerParameters), or null. */
export function listEntry(conf: SlurmConf | null, key: string, name: string): string | null {
  const v = conf?.get(key)?.value
  if (v === undefined) return null
  const e = splitList(v).reverse().find((x) => entryName(x) === name.toLowerCase())
  return e === undefined ? null : e.includes('=') ? e.slice(e.indexOf('=') + 1) : ''
}

/** The merged list and, in words, what changed in it. */
function mergeList(current: string | null, entries: ListEntry[]): { value: string; what: string[] } {
  const list = current === null ? [] : splitList(current)
  const what: string[] = []
  for (const e of entries) {
    const text = e.value === null ? e.name : `${e.name}=${e.value}`
    const i = list.findIndex((x) => entryName(x) === e.name.toLowerCase())
    if (i < 0) { list.push(text); what.push(`added ${text}`) } else if (e.value !== null && !same(list[i], text)) { what.push(`${list[i]} → ${text}`); list[i] = text }
  }
  return { value: list.join(','), what }
}

export interface Merged { text: string; changes: SettingChange[]; notes: string[] }

/** The whole file with the wanted settings: each changed key is rewritten where Slurm reads it
 * (its last occurrence), earlier copies of it are commented out, absent keys are appended at the
 * end; every other line is kept verbatim. `header` comment lines go first. */
export function mergeSlurmConf(conf: SlurmConf, wants: Want[], header: string[]): Merged {
  const changes: SettingChange[] = []
  const newValue = new Map<string, string>() // lower key → value
  for (const w of wants) {
    const cur = conf.get(w.key)
    if (w.kind === 'value') {
      if (cur !== null ? same(cur.value, w.value) : w.slurmDefault !== undefined && same(w.slurmDefault, w.value)) continue // already so, or Slurm's default
      changes.push({ setting: w.key, from: cur?.value ?? null, to: w.value, why: w.why })
      newValue.set(w.key.toLowerCase(), w.value)
    } else {
      const m = mergeList(cur?.value ?? null, w.entries)
      if (cur !== null && m.what.length === 0) continue
      changes.push({ setting: w.key, from: cur?.value ?? null, to: m.value, why: `${w.why} (${m.what.join('; ')}; every other entry kept)` })
      newValue.set(w.key.toLowerCase(), m.value)
    }
  }

  const out: string[] = [...header]
  // where Slurm reads each changed key: its last occurrence (logical line index, pair index)
  const lastAt = new Map<string, string>()
  conf.lines.forEach((l, li) => { if (l.kind === 'settings') l.pairs.forEach((p, pi) => { if (newValue.has(p.key.toLowerCase())) lastAt.set(p.key.toLowerCase(), `${li}:${pi}`) }) })
  conf.lines.forEach((l, li) => {
    const touched = l.kind === 'settings' && l.pairs.some((p) => newValue.has(p.key.toLowerCase()))
    if (!touched) { out.push(...l.raw); return }
    const kept: string[] = []
    const superseded: string[] = []
    const was: string[] = []
    l.pairs.forEach((p, pi) => {
      const k = p.key.toLowerCase()
      if (!newValue.has(k)) kept.push(`${p.key}=${p.value}`)
      else if (lastAt.get(k) === `${li}:${pi}`) { kept.push(`${p.key}=${newValue.get(k)}`); was.push(`was ${p.key}=${p.value}`) } else superseded.push(p.key)
    })
    const indent = /^\s*/.exec(l.raw[0])![0]
    if (superseded.length) {
      out.push(...l.raw.map((r) => `#[EasyTune: ${superseded.join(', ')} set again later, Slurm uses the later line] ${r}`))
      if (kept.length) out.push(`${indent}${kept.join(' ')}${was.length ? `  # EasyTune: ${was.join(', ')}` : ''}`)
      return
    }
    out.push(...l.comments.slice(0, -1).map((c) => indent + c))
    const own = l.comments.length ? ` ${l.comments[l.comments.length - 1]}` : ''
    out.push(`${indent}${kept.join(' ')}${own}  # EasyTune: ${was.join(', ')}`)
  })
  const absent = wants.filter((w) => newValue.has(w.key.toLowerCase()) && conf.get(w.key) === null)
  if (absent.length) {
    out.push('', '# --- added by EasyTune: settings this slurm.conf did not have ---')
    for (const w of absent) out.push(`${w.key}=${newValue.get(w.key.toLowerCase())}`)
  }

  const notes: string[] = conf.normalized.map((n) => `In the merged file, ${n}.`)
  const changedKeys = changes.map((c) => c.setting)
  for (const inc of conf.includes) {
    notes.push(`Include ${inc.file} (line ${inc.line}) is kept but was not read: Slurm reads it in place, so if it sets ${changedKeys.length ? changedKeys.join(', ') : 'any priority or scheduler setting'}, its value overrides this merge there. Check it by hand.`)
  }
  for (const d of conf.duplicates) {
    const fixed = newValue.has(d.key.toLowerCase())
    notes.push(`${d.key} is set ${d.lines.length} times (lines ${d.lines.join(', ')}); Slurm uses the last (line ${d.lines.at(-1)})${fixed ? ': EasyTune changed that one and commented out the earlier ones' : ': kept as is'}.`)
  }
  return { text: out.join('\n') + '\n', changes, notes }
}

// ---------------------------------------------------------------- times

/** A Slurm time ("minutes", "m:s", "h:m:s", "d-h", "d-h:m", "d-h:m:s") in minutes (seconds round
 * up); Infinity for INFINITE/UNLIMITED; null when it is not a time. */
export function slurmMinutes(v: string): number | null {
  const s = v.trim().replace(/^"|"$/g, '')
  if (/^(infinite|unlimited)$/i.test(s)) return Infinity
  const m = /^(?:(\d{1,6})-)?(\d{1,9})(?::(\d{1,2}))?(?::(\d{1,2}))?$/.exec(s)
  if (!m) return null
  const [d, a, b, c] = [m[1], m[2], m[3], m[4]].map((x) => (x === undefined ? null : Number(x)))
  if (d !== null) return d * 1440 + a! * 60 + (b ?? 0) + Math.ceil((c ?? 0) / 60)
  if (c !== null) return a! * 60 + b! + Math.ceil(c / 60) // h:m:s
  if (b !== null) return a! + Math.ceil(b / 60) // m:s
  return a
}
