// The content hash of a log, which stands for it in cache keys, project files and results: its
// file's SHA-256, or for a log kept as several files (docs/SIMULATOR.md §Several files) the SHA-256
// of the files' SHA-256s in order, so that a change to any file changes the hash.
import { createHash } from 'node:crypto'
import { FileInputError } from '../node/read-log'
import { hashFile } from './cache'

export async function hashLogFiles(paths: readonly string[], signal?: AbortSignal): Promise<string> {
  if (paths.length === 1) return hashLog(paths[0], signal)
  const hashes: string[] = []
  for (const p of paths) hashes.push(await hashLog(p, signal))
  return createHash('sha256').update(`easytune-log-files\n${hashes.join('\n')}\n`).digest('hex')
}

/** One file's hash; a file that cannot be read is a FileInputError naming it. */
async function hashLog(path: string, signal?: AbortSignal): Promise<string> {
  try {
    return await hashFile(path, signal)
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e
    const code = (e as NodeJS.ErrnoException).code
    throw new FileInputError(path, null, code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder, not a log file' : code === 'EACCES' ? 'permission denied' : `cannot read: ${(e as Error).message}`)
  }
}
