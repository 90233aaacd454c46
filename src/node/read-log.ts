// Reads a log file from disk (plain or gzip, by its magic bytes, not its name) and streams it
// through the pure importer, so a large log is never one big string in memory.
import { createReadStream, promises as fsp } from 'node:fs'
import { createGunzip } from 'node:zlib'
import { basename, join } from 'node:path'
import { InputError } from '../core/workload/errors'
import { importParsedFiles, type ImportOptions, type Workload } from '../core/workload/import'
import type { ParsedLog } from '../core/workload/types'
import { nonRegularKind } from './regular-file'
import { ParallelImporter, type ParallelOptions } from './parse-parallel'

/** Import options, and how a big log is parsed in parallel (src/node/parse-parallel.ts; tests force small chunks). */
export type ReadOptions = ImportOptions & { parallel?: ParallelOptions }

export interface ReadProgress {
  /** Compressed bytes read from disk so far, and the file size. */
  bytesRead: number
  totalBytes: number
  /** Jobs parsed so far (0 until the format is known: the first 64 KiB decide it). */
  jobsRead: number
}

/** An input problem tied to a file: the CLI prints `file:line: message`. */
export class FileInputError extends Error {
  constructor(readonly file: string, readonly line: number | null, message: string) {
    super(message)
    this.name = 'FileInputError'
  }
}

/** Progress comes at most every `progressEveryMs` (and at most once per 1 MiB read) while reading,
 * and once more when the log is read and cleaned (all bytes, the final job count). An abort of
 * `signal` stops reading: readLog then rejects with the stream's AbortError (name 'AbortError'). */
export async function readLog(path: string, opts: ReadOptions = {}, onProgress?: (p: ReadProgress) => void, signal?: AbortSignal, progressEveryMs = 100): Promise<Workload> {
  const { importer, log } = await parseFile(path, opts, onProgress, signal, progressEveryMs)
  try {
    return importParsedFiles([{ name: basename(path), log }], opts, importer.format, true) // the parse is ours: cleaned in place
  } catch (e) {
    throw toFileError(path, e, false)
  }
}

/**
 * Several files as one log (daily jobcomp files, monthly sacct dumps): each file is parsed, the
 * jobs merged before cleaning (src/core/workload/merge.ts), then the whole log cleaned once. The
 * files must share a format: the first file that differs is refused by name with its detected
 * format. One path reads exactly as readLog. Progress counts the bytes of all files. `names`: the
 * files as the user knows them (an upload's temporary path means nothing), for the report.
 */
export async function readLogs(paths: readonly string[], opts: ReadOptions = {}, onProgress?: (p: ReadProgress & { file: string }) => void, signal?: AbortSignal, progressEveryMs = 100, names?: readonly string[]): Promise<Workload> {
  if (paths.length === 0) throw new InputError('no log file was given')
  if (paths.length === 1) return readLog(paths[0], opts, onProgress && ((p) => onProgress({ ...p, file: paths[0] })), signal, progressEveryMs)
  const sizes: number[] = []
  for (const p of paths) sizes.push(await fileSize(p))
  const totalBytes = sizes.reduce((a, b) => a + b, 0)
  const parts: { name: string; log: ParsedLog }[] = []
  let done = 0
  let jobs = 0
  let formatSource: 'detected' | 'given' = 'detected'
  for (let i = 0; i < paths.length; i++) {
    const { importer, log } = await parseFile(paths[i], opts, onProgress && ((p) => onProgress({ bytesRead: done + p.bytesRead, totalBytes, jobsRead: jobs + p.jobsRead, file: paths[i] })), signal, progressEveryMs)
    if (parts.length > 0 && log.format !== parts[0].log.format) {
      throw new FileInputError(paths[i], null, `is a ${log.format} log (detected) while ${paths[0]} is a ${parts[0].log.format} log: the files of one log must share a format`)
    }
    parts.push({ name: names?.[i] ?? basename(paths[i]), log })
    formatSource = importer.format
    done += sizes[i]
    jobs += log.jobs.count
  }
  try {
    return importParsedFiles(parts, opts, formatSource, true)
  } catch (e) {
    if (e instanceof InputError) throw new FileInputError(paths[0], e.line, `${e.message} (the ${paths.length} files read as one log)`)
    throw e
  }
}

/**
 * The log files named on a command line: each path as given, and a folder's regular files (not
 * hidden ones, not sub-folders), sorted by name. `taken` lists the files of each folder, to say
 * which were read.
 */
export async function expandLogPaths(args: readonly string[]): Promise<{ paths: string[]; folders: { folder: string; files: string[] }[] }> {
  const paths: string[] = []
  const folders: { folder: string; files: string[] }[] = []
  for (const a of args) {
    let st
    try {
      st = await fsp.stat(a)
    } catch {
      paths.push(a) // readLog names the problem (no such file, permission denied)
      continue
    }
    if (!st.isDirectory()) { paths.push(a); continue }
    const entries = await fsp.readdir(a, { withFileTypes: true })
    const files = entries.filter((e) => e.isFile() && !e.name.startsWith('.')).map((e) => e.name).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)).map((n) => join(a, n))
    if (files.length === 0) throw new FileInputError(a, null, 'is a folder with no log file in it')
    folders.push({ folder: a, files })
    paths.push(...files)
  }
  return { paths, folders }
}

async function fileSize(path: string): Promise<number> {
  let size: number
  try {
    const st = await fsp.stat(path)
    if (st.isDirectory()) throw new FileInputError(path, null, 'is a folder, not a log file')
    const kind = nonRegularKind(st) // a FIFO or device would block or never end
    if (kind) throw new FileInputError(path, null, `is ${kind}, not a regular file`)
    size = st.size
  } catch (e) {
    if (e instanceof FileInputError) throw e
    const code = (e as NodeJS.ErrnoException).code
    throw new FileInputError(path, null, code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : `cannot read: ${(e as Error).message}`)
  }
  if (size === 0) throw new FileInputError(path, null, 'the file is empty')
  return size
}

/** Reads and parses one file (not cleaned yet): big logs in parallel threads (parse-parallel.ts). */
async function parseFile(path: string, { parallel, ...opts }: ReadOptions, onProgress: ((p: ReadProgress) => void) | undefined, signal: AbortSignal | undefined, progressEveryMs: number): Promise<{ importer: ParallelImporter; log: ParsedLog }> {
  const size = await fileSize(path)
  const gz = await isGzip(path)
  const expected = gz ? await gzipSize(path, size) : size
  const importer = new ParallelImporter({ name: basename(path), ...opts }, { expectedBytes: expected, ...parallel })
  if (expected !== null) importer.expectBytes(expected)
  let bytesRead = 0
  let lastReport = 0
  try {
    const raw = createReadStream(path, { highWaterMark: 1 << 20, signal })
    raw.on('data', (c) => {
      bytesRead += (c as Buffer).length
      const now = Date.now()
      if (onProgress && now - lastReport >= progressEveryMs) { lastReport = now; onProgress({ bytesRead, totalBytes: size, jobsRead: importer.jobsRead }) }
    })
    const stream = gz ? raw.pipe(createGunzip({ chunkSize: GUNZIP_CHUNK })) : raw
    if (gz) raw.on('error', (e) => stream.destroy(e))
    for await (const chunk of stream) {
      const wait = importer.feed(chunk as Uint8Array)
      if (wait) await wait
    }
    signal?.throwIfAborted()
    const log = await importer.endParsed()
    onProgress?.({ bytesRead: size, totalBytes: size, jobsRead: importer.jobsRead })
    return { importer, log }
  } catch (e) {
    throw toFileError(path, e, gz)
  } finally {
    importer.dispose()
  }
}

function toFileError(path: string, e: unknown, gz: boolean): Error {
  if (e instanceof InputError) return new FileInputError(path, e.line, e.message)
  if (e instanceof FileInputError) return e
  const err = e as NodeJS.ErrnoException
  if (err.name === 'AbortError') return err
  if (gz && (err.code === 'Z_BUF_ERROR' || err.code === 'Z_DATA_ERROR' || /unexpected end of file/i.test(err.message))) {
    return new FileInputError(path, null, `the gzip data is truncated or corrupt (${err.message}); download or copy the file again`)
  }
  return err
}

/**
 * Bytes gunzip hands over at a time. Node's default (16 KiB) makes a round trip to zlib's thread
 * per 16 KiB of text, ~15,000 on the 3.1M-line log, and the import waited on them; 64 KiB cut the
 * 3.1M-line import by ~0.3 s (docs/PERFORMANCE.md §Gunzip's chunks). From 128 KiB each output
 * buffer is a separate mapping of glibc's and the peak grew by ~10 bytes a line, so no larger.
 */
const GUNZIP_CHUNK = 64 << 10

/** Compressed text rarely shrinks more than this (SWF and sacct logs: 5–15 times). */
const MAX_GZIP_RATIO = 64

/**
 * The decompressed size a gzip file's trailer states (ISIZE, RFC 1952: the size modulo 2^32 of its
 * last member), or null when it cannot be right: smaller than the file or more than 64 times it (a
 * wrapped size, a crafted trailer). Only an estimate for sizing the columns: the data decides.
 */
async function gzipSize(path: string, size: number): Promise<number | null> {
  if (size < 18) return null
  const fh = await fsp.open(path, 'r')
  try {
    const b = Buffer.alloc(4)
    const { bytesRead } = await fh.read(b, 0, 4, size - 4)
    const isize = bytesRead === 4 ? b.readUInt32LE(0) : 0
    return isize >= size && isize <= size * MAX_GZIP_RATIO ? isize : null
  } finally {
    await fh.close()
  }
}

async function isGzip(path: string): Promise<boolean> {
  const fh = await fsp.open(path, 'r')
  try {
    const b = Buffer.alloc(2)
    const { bytesRead } = await fh.read(b, 0, 2, 0)
    return bytesRead === 2 && b[0] === 0x1f && b[1] === 0x8b
  } finally {
    await fh.close()
  }
}
