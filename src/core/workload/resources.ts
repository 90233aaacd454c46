// Readers of the resource fields of SLURM logs (docs/SIMULATOR.md §Resource columns): memory with
// its unit (ReqMem, TRES mem=), TRES strings (ReqTRES/AllocTRES, jobcomp Tres/tres_req/tres_alloc),
// old GRES strings (ReqGRES/AllocGRES), node lists (hostlists), Flags and --exclusive. Every reader
// is strict: text that is not what its field holds throws a FieldError (the line becomes a bad line
// with its reason code), an empty value is unknown. Input is hostile: every size is bounded.
//
// PRECEDENCE (declared once here; docs/SIMULATOR.md §Resource columns repeats it): what the job
// really used beats what it asked for, when the job ran:
//   nodes  = AllocNodes > NNodes > AllocTRES node= > the NodeList's length > ReqNodes > ReqTRES node=
//   GPUs   = AllocTRES gres/gpu > AllocGRES > ReqTRES gres/gpu > ReqGRES
//   memory = AllocTRES mem= > ReqTRES mem= > ReqMem (per node × nodes, per CPU × CPUs before 21.08)
//   CPUs   = the single-pool columns as before (ReqCPUS > AllocCPUS/NCPUS for q, cleaning rule C4);
//            AllocTRES/ReqTRES cpu= only fill a CPU count the log has no column for.
import { FieldError } from './errors'
import { MAX_COUNT, MAX_EXACT, MAX_NODES_SEEN } from './limits'
import { isDigits, quote } from './timeparse'
import { HostlistError, expandHostlist } from '../util/hostlist'

/** Memory units as sacct prints them (powers of 1024), in MB. */
const UNIT_MB: Readonly<Record<string, number>> = { K: 1 / 1024, M: 1, G: 1024, T: 1024 * 1024, P: 1024 * 1024 * 1024 }

/** A memory amount in MB and what it counts: the whole job, each node, or each CPU. */
export interface MemAmount {
  readonly mb: number
  readonly per: 'job' | 'node' | 'cpu'
}

const MEM = /^(-?)(\d+(?:\.\d+)?)([KMGTP]?)([NC]?)$/i

/**
 * A memory amount: `4000M`, `16G`, `1.50T`, `4000` (MB, `--noconvert`) is the whole job (Slurm ≥
 * 21.08's ReqMem, TRES mem=); `4000Mc` / `100Mc` is per CPU, `2000Mn` per node (ReqMem before 21.08).
 * Null when empty or 0 (`--mem=0` asks for all of each node's memory, which the log does not give).
 * Throws `bad-resource` when not a memory amount, `out-of-range` when negative or beyond 2⁵³ MB.
 */
export function readMem(name: string, text: string, perAllowed = true): MemAmount | null {
  const s = text.trim()
  if (s === '') return null
  const m = MEM.exec(s)
  if (m === null || (!perAllowed && m[4] !== '')) throw new FieldError('bad-resource', `${name} ${quote(s)} is not a memory amount (e.g. 4000M, 16G${perAllowed ? ', 100Mc, 2000Mn' : ''})`)
  if (m[1] === '-') throw new FieldError('out-of-range', `${name} ${quote(s)} is negative`)
  const mb = Number(m[2]) * UNIT_MB[(m[3] || 'M').toUpperCase()]
  if (!(mb <= MAX_EXACT)) throw new FieldError('out-of-range', `${name} ${quote(s)} is beyond the largest memory read`)
  if (mb === 0) return null
  const per = m[4].toLowerCase()
  return { mb, per: per === 'n' ? 'node' : per === 'c' ? 'cpu' : 'job' }
}

/** The whole job's memory in MB from an amount and the job's node and CPU counts; -1 unknown. */
export function jobMemMB(mem: MemAmount | null, nodes: number, cpus: number): number {
  if (mem === null) return -1
  if (mem.per === 'job') return mem.mb
  const n = mem.per === 'node' ? nodes : cpus
  if (!(n > 0)) return -1
  const total = mem.mb * n
  if (!(total <= MAX_EXACT)) throw new FieldError('out-of-range', `memory ${mem.mb} MB per ${mem.per} × ${n} is beyond the largest memory read`)
  return total
}

/** What a TRES string gives; -1 (or null) for what it does not name. */
export interface Tres {
  cpu: number
  node: number
  mem: MemAmount | null
  /** GPUs: `gres/gpu=` (the total), else the sum of the typed `gres/gpu:<type>=` entries, else 0. */
  gpus: number
}

/**
 * A TRES string: `billing=4,cpu=4,mem=16G,node=1,gres/gpu=2,gres/gpu:a100=2` (sacct ReqTRES /
 * AllocTRES, jobcomp Tres / tres_req / tres_alloc). Null when empty (AllocTRES of a pending job).
 * Entries it does not use (billing, energy, fs/disk, license/…) are skipped; an entry that is not
 * `name=value` throws `bad-resource`; a count that is not a whole number throws like any count.
 */
export function readTres(name: string, text: string): Tres | null {
  const s = text.trim()
  if (s === '') return null
  const t: Tres = { cpu: -1, node: -1, mem: null, gpus: 0 }
  let gpuTotal = -1
  let typed = 0
  for (const entry of s.split(',')) {
    const eq = entry.indexOf('=')
    const key = eq > 0 ? entry.slice(0, eq).trim().toLowerCase() : ''
    if (key === '' || /[\s\x00-\x1f\x7f]/.test(key)) throw new FieldError('bad-resource', `${name} ${quote(s)}: ${quote(entry)} is not a TRES entry (name=value)`)
    const value = entry.slice(eq + 1).trim()
    if (key === 'cpu') t.cpu = resourceCount(name, 'cpu', value)
    else if (key === 'node') t.node = resourceCount(name, 'node', value)
    else if (key === 'mem') t.mem = readMem(`${name} mem`, value, false)
    else if (key === 'gres/gpu') gpuTotal = resourceCount(name, 'gres/gpu', value)
    else if (key.startsWith('gres/gpu:')) typed = addCount(name, typed, resourceCount(name, key, value))
  }
  t.gpus = gpuTotal >= 0 ? gpuTotal : typed
  return t
}

/**
 * GPUs in an old GRES string (sacct ReqGRES / AllocGRES before TRES): `gpu:2`, `gpu:tesla:2`,
 * `gpu:tesla:2(IDX:0-1),mps:100`, `gpu` (one). -1 when empty; other GRES (mps, nic…) count 0.
 */
export function readGresGpus(name: string, text: string): number {
  const s = text.trim()
  if (s === '') return -1
  let gpus = 0
  // Index lists in parentheses may hold commas: drop them before splitting.
  const plain = s.replace(/\([^()]*\)/g, '')
  if (/[()]/.test(plain)) throw new FieldError('bad-resource', `${name} ${quote(s)}: unbalanced parentheses`)
  for (const item of plain.split(',')) {
    const parts = item.trim().split(':')
    const kind = parts[0].replace(/^gres\//i, '').toLowerCase()
    if (kind === '' || !/^[a-z0-9_.-]+$/.test(kind)) throw new FieldError('bad-resource', `${name} ${quote(s)}: ${quote(item)} is not a GRES (name[:type][:count])`)
    if (kind !== 'gpu') continue
    const last = parts[parts.length - 1]
    const count = parts.length > 1 && isDigits(last) ? resourceCount(name, 'gpu', last) : parts.length <= 2 ? 1 : NaN
    if (Number.isNaN(count)) throw new FieldError('bad-resource', `${name} ${quote(s)}: ${quote(item)} has no GPU count`)
    gpus = addCount(name, gpus, count)
  }
  return gpus
}

function resourceCount(field: string, key: string, value: string): number {
  if (!isDigits(value)) throw new FieldError('not-a-number', `${field} ${key}=${quote(value)} is not a whole number`)
  const v = Number(value)
  if (!(v <= MAX_COUNT)) throw new FieldError('out-of-range', `${field} ${key}=${quote(value)} is beyond its range (at most ${MAX_COUNT})`)
  return v
}

function addCount(field: string, a: number, b: number): number {
  if (a + b > MAX_COUNT) throw new FieldError('out-of-range', `${field}: more than ${MAX_COUNT} GPUs`)
  return a + b
}

/**
 * The node names of a node list (sacct NodeList, jobcomp NodeList / nodes=), expanded from Slurm's
 * hostlist form (`r[1-486]`, `a[01-10,20]`). `None assigned`, `(null)` and '' give []. A list that
 * is not a hostlist, or names more than MAX_NODES_SEEN nodes, throws `bad-hostlist`.
 */
export function readNodeList(name: string, text: string): string[] {
  try {
    return expandHostlist(text, MAX_NODES_SEEN)
  } catch (e) {
    if (e instanceof HostlistError) throw new FieldError('bad-hostlist', `${name} ${quote(text.trim())}: ${e.message.length > 120 ? e.message.slice(0, 117) + '...' : e.message}`)
    throw e
  }
}

/** sacct Flags → how the site's scheduler started the job: 2 backfill (SchedBackfill), 1 main
 * scheduler (SchedMain, SchedSubmit), 0 unknown (SchedNotSet, empty, other words). */
export function schedFlagOf(text: string): number {
  if (text === '') return 0
  let flag = 0
  for (const w of text.split(/[,|\s]+/)) {
    const k = w.toLowerCase()
    if (k === 'schedbackfill') return 2
    if (k === 'schedmain' || k === 'schedsubmit') flag = 1
  }
  return flag
}

/** True when a submit line asks for whole nodes: an `--exclusive` (or `--exclusive=…`) option. */
export function submitLineExclusive(text: string): boolean {
  return /(^|\s)--exclusive(=\S*)?(?=\s|$)/.test(text)
}

/** sacct Exclusive (Slurm M): anything but empty, 0, no, none, false, OK and oversubscribe words means whole nodes. */
export function exclusiveOf(text: string): number {
  const k = text.trim().toLowerCase()
  return k === '' || k === '0' || k === 'no' || k === 'none' || k === 'false' || k === 'ok' || k === 'yes:oversubscribe' || k === 'oversubscribe' ? 0 : 1
}
