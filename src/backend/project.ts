// Project files and the autosave: written atomically (a temp file in the same folder, fsync,
// rename, then fsync of the folder), so a crash or a full disk never leaves a torn file where a
// good one was. Reading validates everything (a project file is user input).
import { randomBytes } from 'node:crypto'
import { promises as fsp } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { NotRegularFileError, readRegularFile, statRegularFile } from '../node/regular-file'
import type { ProjectState } from '../shared/api'
import { ApiInputError } from '../shared/errors'
import { MAX_TEXT_CHARS, parseOrThrow, parseProjectText, PathSchema, ProjectStateSchema } from '../shared/schemas'

const validatePath = (path: unknown) => parseOrThrow(PathSchema, path, 'the project path')
const validateProjectState = (state: unknown) => parseOrThrow(ProjectStateSchema, state, 'the project')

/** Writes `text` to `path` atomically. */
export async function writeFileAtomic(path: string, text: string | Uint8Array): Promise<void> {
  const dir = dirname(path)
  await fsp.mkdir(dir, { recursive: true })
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`)
  const fh = await fsp.open(tmp, 'wx', 0o600)
  try {
    await fh.writeFile(text)
    await fh.sync()
  } catch (e) {
    await fh.close()
    await fsp.rm(tmp, { force: true })
    throw e
  }
  await fh.close()
  try {
    await fsp.rename(tmp, path)
  } catch (e) {
    await fsp.rm(tmp, { force: true })
    throw e
  }
  // The rename itself is durable once the folder is synced (not possible on every platform).
  try {
    const d = await fsp.open(dir, 'r')
    try { await d.sync() } finally { await d.close() }
  } catch { /* Windows cannot open a folder: the rename is still atomic */ }
}

export function projectText(state: ProjectState): string {
  return JSON.stringify(validateProjectState(state), null, 1) + '\n'
}

/** Saves a project file (the state is validated first). */
export async function saveProjectFile(path: string, state: ProjectState): Promise<void> {
  await writeFileAtomic(validatePath(path), projectText(state))
}

/** A project file's name for a download, from its log's name. */
export function projectFileName(logName: string | undefined): string {
  const base = (logName ?? 'project').replace(/\.(gz|swf|csv|txt|log)$/gi, '').replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'project'
  return `${base}.easytune.json`
}

/** Reads and validates a project file; problems are ApiInputErrors that name the file (`name`,
 * default its base name: an upload's temporary path means nothing to the person). */
export async function readProjectFile(path: string, name = basename(path)): Promise<ProjectState> {
  validatePath(path)
  let text: string
  try {
    const st = await statRegularFile(path)
    if (st.size > MAX_TEXT_CHARS) throw new ApiInputError(`${name} is too large for a project file (${st.size} bytes)`)
    text = await readRegularFile(path)
  } catch (e) {
    if (e instanceof ApiInputError) throw e
    if (e instanceof NotRegularFileError) throw new ApiInputError(`${name} ${e.reason}`)
    const code = (e as NodeJS.ErrnoException).code
    throw new ApiInputError(`${name}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (e as Error).message}`)
  }
  try {
    return parseProjectText(text)
  } catch (e) {
    throw new ApiInputError(`${name}: ${(e as Error).message}`)
  }
}

/** What the autosave file holds besides the state: where the log was read from. */
export interface AutosaveRecord {
  kind: 'easytune-autosave'
  version: 1
  savedAt: string
  state: ProjectState
  /** Absolute path of the log the state refers to, when the back end knows it (the first file of a
   * log kept as several). */
  logPath: string | null
  /** A log kept as several files: every path, in order (restore re-imports all of them). */
  logPaths?: string[]
}

export const AUTOSAVE_FILE = 'autosave.json'

export async function writeAutosave(stateDir: string, state: ProjectState, logPath: string | readonly string[] | null): Promise<void> {
  const paths = logPath === null ? [] : typeof logPath === 'string' ? [logPath] : [...logPath]
  const rec: AutosaveRecord = { kind: 'easytune-autosave', version: 1, savedAt: new Date().toISOString(), state: validateProjectState(state), logPath: paths[0] ?? null, ...(paths.length > 1 ? { logPaths: paths } : {}) }
  await writeFileAtomic(join(stateDir, AUTOSAVE_FILE), JSON.stringify(rec))
}

/** The last autosave, or null when there is none or it cannot be used (it is then ignored). */
export async function readAutosave(stateDir: string): Promise<AutosaveRecord | null> {
  let raw: unknown
  try {
    raw = JSON.parse(await readRegularFile(join(stateDir, AUTOSAVE_FILE)))
  } catch {
    return null
  }
  try {
    const r = raw as Partial<AutosaveRecord>
    if (r.kind !== 'easytune-autosave' || r.version !== 1) return null
    const logPath = typeof r.logPath === 'string' ? validatePath(r.logPath) : null
    const logPaths = Array.isArray(r.logPaths) && r.logPaths.length > 1 && r.logPaths.length <= 10_000 ? r.logPaths.map(validatePath) : undefined
    return { kind: 'easytune-autosave', version: 1, savedAt: String(r.savedAt ?? ''), state: validateProjectState(r.state), logPath, ...(logPaths ? { logPaths } : {}) }
  } catch {
    return null
  }
}
