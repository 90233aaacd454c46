// The heavy part of importing a log, shared by the engine worker ('import', protocol.ts) and the
// Backend's in-process path: read and clean the log (with progress), hash the file, run the
// whole-log EASY-FCFS simulation the Inspect step needs (timed, for the campaign estimate) and
// compute the Inspect data. In the desktop app it runs in a worker so that Electron main's event
// loop stays free while a large log is imported (src/backend/imports.ts importInWorker).
import { simulate } from '../core/sim/easy'
import { inspectWorkload } from '../core/workload/inspect'
import type { ImportOptions, Workload } from '../core/workload/import'
import { FileInputError, readLogs, type ReadProgress } from '../node/read-log'
import type { InspectData } from '../core/workload/inspect'
import { hashLogFiles } from './log-hash'

export interface ImportedLog {
  workload: Workload
  /** sha256 of the file as it is on disk (compressed or not); of a log kept as several files, the
   * hash of their hashes (src/engine/log-hash.ts). */
  sha256: string
  inspect: InspectData
  /** Seconds the fastest timed whole-log EASY-FCFS simulation took (Infinity: no jobs). */
  simSeconds: number
  /** Seconds reading (and hashing) the log took. */
  readSeconds: number
}

/** Errors: readLogs's (a FileInputError naming the file, its AbortError…), or a FileInputError
 * naming the file that cannot be hashed; callers rename the file as the user knows it. Several
 * paths are read as one log (docs/SIMULATOR.md §Several files). */
export async function importLogFile(path: string | readonly string[], options: ImportOptions, onProgress?: (p: ReadProgress) => void, signal?: AbortSignal, progressEveryMs?: number, names?: readonly string[]): Promise<ImportedLog> {
  const paths = typeof path === 'string' ? [path] : path
  const t0 = performance.now()
  const [read, hash] = await Promise.allSettled([readLogs(paths, options, onProgress, signal, progressEveryMs, names), hashLogFiles(paths, signal)])
  if (read.status === 'rejected') throw read.reason
  if (hash.status === 'rejected') throw hash.reason instanceof FileInputError || (hash.reason as Error).name === 'AbortError' ? hash.reason : new FileInputError(paths[0], null, `cannot read: ${(hash.reason as Error).message}`)
  const workload = read.value
  const readSeconds = (performance.now() - t0) / 1000
  const { jobs, machineProcs } = workload
  let starts: Float64Array = new Float64Array(0)
  let best = Infinity
  for (let run = 0; run < 2 && jobs.count > 0; run++) {
    const t = performance.now()
    starts = simulate(jobs, machineProcs, { primary: 'FCFS', backfill: 'same', threshold: null })
    best = Math.min(best, (performance.now() - t) / 1000)
    if (best > 0.5) break // large log: one timing is enough and the second run would cost
  }
  const inspect = inspectWorkload({ jobs, machineProcs, users: workload.users }, starts)
  return { workload, sha256: hash.value, inspect, simSeconds: best, readSeconds }
}
