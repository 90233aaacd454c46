// Options and helpers shared by the commands that read a log.
import { LOG_FORMATS, type LogFormat } from '../core/workload/types'
import type { ImportOptions } from '../core/workload/import'
import type { OverrunPolicy, RequestedFallback } from '../core/workload/clean'
import type { Workload } from '../core/workload/import'
import { parseDuration } from '../core/util/duration'
import { workloadCitation } from '../core/tune/reports'
import { resolve } from 'node:path'
import { expandLogPaths, readLogs } from '../node/read-log'
import { oneOf, positiveInt, str, UsageError, type FlagKind, type ParsedArgs } from './args'
import { Progress, type Io } from './output'
import { shown } from './defaults-help'

export const IMPORT_FLAGS: Record<string, FlagKind> = {
  format: 'string', procs: 'string', overrun: 'string', 'requested-fallback': 'string',
}

export const IMPORT_HELP = `  --format F               swf | sacct | jobcomp | pbs (default: detected from the content)
  --procs N                machine size in processors (default: the log header, else the largest job)
  --overrun drop|clamp|keep  jobs that ran longer than requested: drop them, clamp their runtime to
                           the request, or keep them as recorded (default ${shown('overrun')})
  --requested-fallback drop|runtime|<duration>
                           jobs with no requested time: drop them, use their actual runtime (perfect
                           estimates), or a fixed duration such as 2h (default ${shown('requestedFallback')})`

export function importOptions(a: ParsedArgs): ImportOptions {
  const format = oneOf<LogFormat>(a, 'format', LOG_FORMATS)
  const procs = positiveInt(a, 'procs')
  const overrun = oneOf<OverrunPolicy>(a, 'overrun', ['drop', 'clamp', 'keep'])
  const fb = str(a, 'requested-fallback')
  let requestedFallback: RequestedFallback | undefined
  if (fb !== undefined) {
    if (fb === 'drop' || fb === 'runtime') requestedFallback = fb
    else {
      try {
        const s = parseDuration(fb)
        if (!(s > 0)) throw new Error('must be above 0')
        requestedFallback = { seconds: s }
      } catch (e) {
        throw new UsageError(`--requested-fallback must be drop, runtime or a duration above 0: ${(e as Error).message}`)
      }
    }
  }
  return { format, procs, overrun, requestedFallback }
}

/** The log named on the command line: one file, several files, or folders (their regular files,
 * sorted by name), read as one log. `label` names it in messages. */
export interface LogFiles {
  paths: string[]
  label: string
}

/** The log arguments: every path, a folder expanded to its files (stderr says which were taken). */
export async function logArg(a: ParsedArgs, command: string, io: Io): Promise<LogFiles> {
  if (a.positionals.length === 0) throw new UsageError(`${command} needs a log file: easytune ${command} <log>… (several files or a folder are read as one log)`)
  const { paths, folders } = await expandLogPaths(a.positionals)
  for (const f of folders) io.err(`${f.folder}: ${f.files.length} file${f.files.length === 1 ? '' : 's'} taken, by name: ${f.files.map((p) => p.slice(f.folder.length).replace(/^[\\/]+/, '')).join(', ')}\n`)
  const label = paths.length === 1 ? paths[0] : `${paths.length} files (${paths[0]} … ${paths[paths.length - 1]})`
  return { paths, label }
}

/** The workers' view of the log files: absolute paths, `logPaths` only when there are several. */
export function setupFiles(log: LogFiles): { logPath: string; logPaths?: string[] } {
  return log.paths.length === 1 ? { logPath: resolve(log.paths[0]) } : { logPath: resolve(log.paths[0]), logPaths: log.paths.map((p) => resolve(p)) }
}

/** Reads a log (one or several files) with a progress bar on stderr (shown after a second, on a terminal). */
export async function loadWorkload(io: Io, log: LogFiles, opts: ImportOptions): Promise<Workload> {
  const progress = new Progress(io)
  try {
    return await readLogs(log.paths, opts, (p) => progress.update(`reading ${p.file}`, p.totalBytes ? p.bytesRead / p.totalBytes : null, `${(p.bytesRead / 1e6).toFixed(1)} MB`))
  } finally {
    progress.done()
  }
}

/** The data citation to show with results on a PWA log. */
export const citation = (w: Workload): string | null => workloadCitation(w)
