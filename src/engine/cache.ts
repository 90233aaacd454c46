// On-disk cache of finished campaign cells, so a re-run only computes what is new and an
// interrupted campaign resumes. One small binary file per cell, named by a sha256 key over
// everything that determines the cell's result:
//   the log's content hash, the import/cleaning options (minus the display name), the split, the
//   resample spec (method, weeks, seed), tau, the compatibility mode (present only when not the
//   default, so a compat cell never shares a key with a default one), the cell (cellKey), the
//   engine code (the pool passes the worker bundle's hash, so results of an older simulator are
//   never reused) and the format version below.
// File layout (little-endian): 'EASYTUNE' | u32 format version | u32 n | u32 flags (bit 0: per-
// sample weights follow) | the entry's own key (32 bytes) | avgWait, maxWait, avgBsld, maxBsld, p99Wait as n f64 each | weight as
// n f64 when flagged | jobs as n i32 | sha256 of everything before it. Older versions are never
// read (no trailing partial week, no p99 wait, no key of their own): their cells are recomputed.
// Files are written to a temp name and renamed, so an interrupted run never leaves a torn entry;
// an entry that is unreadable or fails its checksum is treated as missing (and recomputed). So is
// an entry whose recorded key is not the key it is read under (a file renamed or copied over
// another: it would give another cell's result), and anything that is not a regular file (a FIFO,
// socket or device named like an entry is never read: opening it could block forever). Both are
// counted in `rejected` so the caller can warn.
import { createHash, randomBytes } from 'node:crypto'
import { constants as fsc, promises as fsp } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { cellKey, type CellResult, type CellSpec } from '../core/tune/campaign'
import { openRegularFile } from '../node/regular-file'
import type { WorkloadSetup } from './protocol'

export const CACHE_FORMAT_VERSION = 4
/** Default cache folder for the CLI, relative to the working directory (git-ignored). */
export const DEFAULT_CACHE_DIR = '.easytune-cache'

const MAGIC = Buffer.from('EASYTUNE', 'ascii')
const DIGEST = 32
const KEY_OFFSET = MAGIC.length + 12
const HEADER = KEY_OFFSET + DIGEST
const F64_FIELDS = ['avgWait', 'maxWait', 'avgBsld', 'maxBsld', 'p99Wait'] as const
const HAS_WEIGHT = 1

/** What a campaign's cells have in common, for their cache keys. */
export interface CacheScope {
  /** sha256 of the log file's bytes (see hashFile). */
  workloadHash: string
  /** Identifies the code that computes cells (the pool uses the worker bundle's sha256). */
  engine: string
  /** The campaign setup; logPath is ignored (the content hash stands for the file). */
  setup: WorkloadSetup
}

/** An entry read as missing although a file was there: why. */
export interface RejectedEntry {
  path: string
  /** foreign: intact but recorded under another key; not-a-file: a FIFO, socket, device or folder. */
  reason: 'foreign' | 'not-a-file'
}

export class CellCache {
  readonly dir: string
  /** Entries refused since this cache was opened (corrupt ones are not listed: they are expected after a crash). */
  readonly rejected: RejectedEntry[] = []

  constructor(dir: string = DEFAULT_CACHE_DIR) {
    this.dir = resolve(dir)
  }

  /** The cache key of one cell (64 hex characters). */
  key(scope: CacheScope, cell: CellSpec): string {
    const { name: _name, ...importOptions } = scope.setup.importOptions
    return sha256(canonicalJson({
      v: CACHE_FORMAT_VERSION, workload: scope.workloadHash, engine: scope.engine, importOptions,
      split: scope.setup.split, resample: scope.setup.resample, tau: scope.setup.tau, cell: cellKey(cell),
      compat: scope.setup.compat === undefined || scope.setup.compat === 'none' ? undefined : scope.setup.compat,
      machine: scope.setup.machine,
    }))
  }

  path(key: string): string {
    return join(this.dir, `${key}.cell`)
  }

  /** The cached result, or null when absent, unreadable or corrupt. */
  async get(key: string): Promise<CellResult | null> {
    const path = this.path(key)
    const buf = await readEntryFile(path)
    if (buf === 'not-a-file') this.rejected.push({ path, reason: 'not-a-file' })
    if (buf === null || buf === 'not-a-file') return null
    const entry = decodeCellEntry(buf)
    if (!entry) return null
    if (entry.key !== key) {
      this.rejected.push({ path, reason: 'foreign' })
      return null
    }
    return entry.result
  }

  /** Stores a result atomically (temp file + rename). */
  async put(key: string, result: CellResult): Promise<void> {
    await writeEntryFile(this.path(key), encodeCell(result, key))
  }
}

/** A cache entry's bytes, read without ever blocking: null when absent or unreadable,
 * 'not-a-file' when something else than a regular file sits there (O_NONBLOCK: opening a FIFO
 * without a writer returns at once; fstat then refuses it). Every cache of the engine reads so. */
export async function readEntryFile(path: string): Promise<Buffer | null | 'not-a-file'> {
  try {
    const fh = await fsp.open(path, fsc.O_RDONLY | fsc.O_NONBLOCK)
    try {
      if (!(await fh.stat()).isFile()) return 'not-a-file'
      return await fh.readFile()
    } finally {
      await fh.close()
    }
  } catch {
    return null
  }
}

/** Writes a cache entry atomically (temp file + rename), creating its folder; a failed write leaves no temp file. */
export async function writeEntryFile(path: string, data: string | Buffer): Promise<void> {
  await fsp.mkdir(dirname(path), { recursive: true })
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  try {
    await fsp.writeFile(tmp, data)
    await fsp.rename(tmp, path)
  } catch (e) {
    await fsp.rm(tmp, { force: true })
    throw e
  }
}

/** The entry of `key` (64 hex characters) holding `r`. */
export function encodeCell(r: CellResult, key: string): Buffer {
  if (!/^[0-9a-f]{64}$/.test(key)) throw new Error(`a cache key is 64 hex characters, not ${JSON.stringify(key)}`)
  const n = r.jobs.length
  const weight = r.weight
  if (weight && weight.length !== n) throw new Error(`cell result has ${weight.length} weights for ${n} samples`)
  const perSample = 8 * F64_FIELDS.length + (weight ? 8 : 0) + 4
  const body = Buffer.alloc(HEADER + n * perSample)
  MAGIC.copy(body, 0)
  body.writeUInt32LE(CACHE_FORMAT_VERSION, MAGIC.length)
  body.writeUInt32LE(n, MAGIC.length + 4)
  body.writeUInt32LE(weight ? HAS_WEIGHT : 0, MAGIC.length + 8)
  body.write(key, KEY_OFFSET, 'hex')
  let o = HEADER
  for (const f of F64_FIELDS) for (let i = 0; i < n; i++, o += 8) body.writeDoubleLE(r[f]?.[i] ?? NaN, o)
  if (weight) for (let i = 0; i < n; i++, o += 8) body.writeDoubleLE(weight[i], o)
  for (let i = 0; i < n; i++, o += 4) body.writeInt32LE(r.jobs[i], o)
  return Buffer.concat([body, createHash('sha256').update(body).digest()])
}

/** Decodes the entry of `key`; null when it is not a complete, intact entry of this format
 * version recorded under that key. */
export function decodeCell(buf: Buffer, key: string): CellResult | null {
  const entry = decodeCellEntry(buf)
  return entry && entry.key === key ? entry.result : null
}

/** Decodes a cell file with the key it records; null when it is not a complete, intact entry of
 * this format version. */
export function decodeCellEntry(buf: Buffer): { key: string; result: CellResult } | null {
  if (buf.length < HEADER + DIGEST || !buf.subarray(0, MAGIC.length).equals(MAGIC)) return null
  if (buf.readUInt32LE(MAGIC.length) !== CACHE_FORMAT_VERSION) return null
  const n = buf.readUInt32LE(MAGIC.length + 4)
  const flags = buf.readUInt32LE(MAGIC.length + 8)
  if ((flags & ~HAS_WEIGHT) !== 0) return null
  const hasWeight = (flags & HAS_WEIGHT) !== 0
  const bodyLength = HEADER + n * (8 * F64_FIELDS.length + (hasWeight ? 8 : 0) + 4)
  if (buf.length !== bodyLength + DIGEST) return null
  const body = buf.subarray(0, bodyLength)
  if (!createHash('sha256').update(body).digest().equals(buf.subarray(bodyLength))) return null
  const r: CellResult = {
    avgWait: new Float64Array(n), maxWait: new Float64Array(n), avgBsld: new Float64Array(n), maxBsld: new Float64Array(n), jobs: new Int32Array(n),
    p99Wait: new Float64Array(n),
  }
  let o = HEADER
  for (const f of F64_FIELDS) for (let i = 0; i < n; i++, o += 8) r[f]![i] = buf.readDoubleLE(o)
  if (hasWeight) {
    const weight = new Float64Array(n)
    for (let i = 0; i < n; i++, o += 8) weight[i] = buf.readDoubleLE(o)
    r.weight = weight
  }
  for (let i = 0; i < n; i++, o += 4) r.jobs[i] = buf.readInt32LE(o)
  return { key: buf.toString('hex', KEY_OFFSET, KEY_OFFSET + DIGEST), result: r }
}

/** sha256 (hex) of a file's bytes, streamed; NotRegularFileError for a FIFO or device (never read). */
export async function hashFile(path: string, signal?: AbortSignal): Promise<string> {
  const h = createHash('sha256')
  const fh = await openRegularFile(path)
  for await (const chunk of fh.createReadStream({ highWaterMark: 1 << 20, signal })) h.update(chunk as Buffer)
  return h.digest('hex')
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/** JSON with object keys sorted and undefined members dropped, so equal specs give equal text. */
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null'
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`
  const o = v as Record<string, unknown>
  const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort()
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`
}
