// Reads a log file from disk (plain or gzip, by its magic bytes, not its name) and streams it
// through the pure importer, so a large log is never one big string in memory.
import { createReadStream, promises as fsp } from 'node:fs'
import { createGunzip } from 'node:zlib'
import { basename } from 'node:path'
import { InputError } from '../core/workload/errors'
import { Importer, type ImportOptions, type Workload } from '../core/workload/import'
import { nonRegularKind } from './regular-file'

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
export async function readLog(path: string, opts: ImportOptions = {}, onProgress?: (p: ReadProgress) => void, signal?: AbortSignal, progressEveryMs = 100): Promise<Workload> {
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
  const gz = await isGzip(path)
  const importer = new Importer({ name: basename(path), ...opts })
  let bytesRead = 0
  let lastReport = 0
  try {
    const raw = createReadStream(path, { highWaterMark: 1 << 20, signal })
    raw.on('data', (c) => {
      bytesRead += (c as Buffer).length
      const now = Date.now()
      if (onProgress && now - lastReport >= progressEveryMs) { lastReport = now; onProgress({ bytesRead, totalBytes: size, jobsRead: importer.jobsRead }) }
    })
    const stream = gz ? raw.pipe(createGunzip()) : raw
    if (gz) raw.on('error', (e) => stream.destroy(e))
    for await (const chunk of stream) importer.feed(chunk as Uint8Array)
    signal?.throwIfAborted()
    const workload = importer.end()
    onProgress?.({ bytesRead: size, totalBytes: size, jobsRead: importer.jobsRead })
    return workload
  } catch (e) {
    throw toFileError(path, e, gz)
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
