// The one check every file entry point makes before reading a path that came from the person, a
// project file or an autosave: only a regular file (or a symbolic link to one) is read. A FIFO,
// socket or device (`/dev/zero`, a named pipe) would block a read forever or never end, hanging
// an import, a restore or the shutdown that waits for it; a folder cannot be read at all.
// stat() follows links and never blocks; openRegularFile() opens with O_NONBLOCK and checks the
// open handle itself, so a FIFO swapped in after the check cannot block either.
import { closeSync, constants, fstatSync, openSync, promises as fsp, readFileSync, statSync, type Stats } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'

/** A path that exists but is not a regular file. `reason` is the message without the file. */
export class NotRegularFileError extends Error {
  readonly code = 'ENOTREG'
  readonly reason: string
  constructor(readonly file: string, readonly kind: string) {
    const reason = `is ${kind}, not a regular file`
    super(`${file} ${reason}`)
    this.name = 'NotRegularFileError'
    this.reason = reason
  }
}

/** What a non-regular file is, in words (null for a regular file). */
export function nonRegularKind(st: Stats): string | null {
  if (st.isFile()) return null
  if (st.isDirectory()) return 'a folder'
  if (st.isFIFO()) return 'a FIFO (named pipe)'
  if (st.isSocket()) return 'a socket'
  if (st.isCharacterDevice()) return 'a character device'
  if (st.isBlockDevice()) return 'a block device'
  return 'a special file'
}

function checked(path: string, st: Stats): Stats {
  const kind = nonRegularKind(st)
  if (kind) throw new NotRegularFileError(path, kind)
  return st
}

/** stat() of a regular file; NotRegularFileError otherwise (stat's own errors, ENOENT…, pass through). */
export async function statRegularFile(path: string): Promise<Stats> {
  return checked(path, await fsp.stat(path))
}

export function statRegularFileSync(path: string): Stats {
  return checked(path, statSync(path))
}

/** Opens a regular file for reading without ever blocking (O_NONBLOCK, then fstat of the handle). */
export async function openRegularFile(path: string): Promise<FileHandle> {
  const fh = await fsp.open(path, constants.O_RDONLY | constants.O_NONBLOCK)
  try {
    checked(path, await fh.stat())
    return fh
  } catch (e) {
    await fh.close()
    throw e
  }
}

/** The text of a regular file (UTF-8); NotRegularFileError for anything else. */
export async function readRegularFile(path: string): Promise<string> {
  const fh = await openRegularFile(path)
  try {
    return await fh.readFile('utf8')
  } finally {
    await fh.close()
  }
}

/** readRegularFile for synchronous callers (the CLI's small inputs). */
export function readRegularFileSync(path: string): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
  try {
    checked(path, fstatSync(fd))
    return readFileSync(fd, 'utf8')
  } finally {
    closeSync(fd)
  }
}
