// The heavy part of importing a log, shared by the engine worker ('import', protocol.ts) and the
// Backend's in-process path: read and clean the log (with progress), hash the file, run the
// whole-log EASY-FCFS simulation the Inspect step needs (timed, for the campaign estimate) and
// compute the Inspect data. In the desktop app it runs in a worker so that Electron main's event
// loop stays free while a large log is imported (src/backend/imports.ts importInWorker).
import { EasySimulator } from '../core/sim/easy'
import type { SimJobs } from '../core/sim/types'
import { inspectWorkload } from '../core/workload/inspect'
import type { ImportOptions, Workload } from '../core/workload/import'
import { FileInputError, readLogs, type ReadProgress } from '../node/read-log'
import type { InspectData } from '../core/workload/inspect'
import { hashLogFiles } from './log-hash'
import { baselineFidelity, baselineSimulation, campaignMachine, machineFidelity, machineSummary } from '../core/cluster/model'
import type { CellMachine } from '../core/tune/campaign'
import type { MachineSummary } from '../core/tune/result'
import type { Calibration } from '../core/tune/fidelity'

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

/** The import's progress: the reading's, then (`simulated`) the whole-log EASY-FCFS run's jobs
 * started of the jobs kept — on the single pool, then (`nodes`: their number) on the nodes the log
 * names, for the comparison with its recorded starts. */
export type ImportProgress = ReadProgress & { simulated?: { jobs: number; of: number; nodes?: number } }

/** Wall-clock milliseconds of simulation between two progress reports and checks of the signal. */
const SIM_SLICE_MS = 200

/**
 * The whole-log EASY-FCFS run in slices of SIM_SLICE_MS (the simulator's stop hook,
 * docs/SIMULATOR.md §Progress): between two slices it reports its progress, yields to the event
 * loop (so that the worker's messages go out) and honours the signal. Answers the start times and
 * the seconds spent simulating (the yields left out: the campaign estimate is calibrated on it).
 */
async function timedSimulation(jobs: SimJobs, machineProcs: number, onProgress?: (p: ImportProgress) => void, read?: ReadProgress, signal?: AbortSignal): Promise<{ starts: Float64Array; seconds: number }> {
  const clock = sliceClock()
  const sim = new EasySimulator(jobs, machineProcs, { primary: 'FCFS', backfill: 'same', threshold: null }, { checkEvery: 256, onCheck: clock.over })
  const seconds = await inSlices(sim, clock, () => { if (read) onProgress?.({ ...read, simulated: { jobs: sim.jobsStarted, of: jobs.count } }) }, signal)
  return { starts: sim.start, seconds }
}

/** The end of the current slice, and the simulators' stop hook that compares the clock with it. */
function sliceClock(): { end: number; over: () => boolean } {
  const c = { end: 0, over: () => performance.now() >= c.end }
  return c
}

/** Runs a resumable simulation to its end in slices of SIM_SLICE_MS: between two, `report`, a turn
 * of the event loop and the signal. Answers the seconds spent simulating (the yields left out). */
async function inSlices(sim: { runUntil(t: number): boolean }, clock: { end: number }, report: () => void, signal?: AbortSignal): Promise<number> {
  let seconds = 0
  for (;;) {
    const t = performance.now()
    clock.end = t + SIM_SLICE_MS
    const stopped = sim.runUntil(Infinity)
    seconds += (performance.now() - t) / 1000
    if (!stopped) return seconds
    report()
    await new Promise((resolve) => setImmediate(resolve))
    signal?.throwIfAborted()
  }
}

/**
 * The import's machine view: on the nodes the log names (inferred: the research's EASY-FCFS on
 * them), the whole log in slices with progress and the signal — seconds to minutes on a big log of
 * many nodes; on the single pool, the start times already simulated.
 */
async function importMachineView(w: Workload, starts: Float64Array, onProgress?: (p: ImportProgress) => void, read?: ReadProgress, signal?: AbortSignal): Promise<MachineView> {
  const machine = w.jobs.count > 0 ? campaignMachine(undefined, w) : undefined
  if (machine === undefined) return machineView(w, undefined, starts)
  const m = machine.model
  const clock = sliceClock()
  const sim = baselineSimulation(w, machine, { checkEvery: 256, onCheck: clock.over })
  await inSlices(sim, clock, () => { if (read) onProgress?.({ ...read, simulated: { jobs: sim.jobsStarted, of: w.jobs.count, nodes: m.cluster.nodes.length } }) }, signal)
  return { machine: machineSummary(m, w.machineProcs, w.report.machine.source), fidelity: machineFidelity(w, m, sim.result()) }
}

/** Errors: readLogs's (a FileInputError naming the file, its AbortError…), or a FileInputError
 * naming the file that cannot be hashed; callers rename the file as the user knows it. Several
 * paths are read as one log (docs/SIMULATOR.md §Several files). */
export async function importLogFile(path: string | readonly string[], options: ImportOptions, onProgress?: (p: ImportProgress) => void, signal?: AbortSignal, progressEveryMs?: number, names?: readonly string[]): Promise<ImportedLog> {
  const paths = typeof path === 'string' ? [path] : path
  const t0 = performance.now()
  let lastRead: ReadProgress | null = null
  const onRead = (p: ReadProgress) => { lastRead = p; onProgress?.(p) }
  // A log refused while read (a bad line, a corrupt gzip) stops the hashing too: the error comes at
  // once, not after the whole file was hashed.
  const stopHash = new AbortController()
  const onAbort = () => stopHash.abort(signal?.reason)
  signal?.addEventListener('abort', onAbort, { once: true })
  if (signal?.aborted) onAbort()
  const reading = readLogs(paths, options, onRead, signal, progressEveryMs, names).catch((e: unknown) => { stopHash.abort(); throw e })
  const [read, hash] = await Promise.allSettled([reading, hashLogFiles(paths, stopHash.signal)]).finally(() => signal?.removeEventListener('abort', onAbort))
  if (read.status === 'rejected') throw read.reason
  if (hash.status === 'rejected') throw hash.reason instanceof FileInputError || (hash.reason as Error).name === 'AbortError' ? hash.reason : new FileInputError(paths[0], null, `cannot read: ${(hash.reason as Error).message}`)
  const workload = read.value
  const readSeconds = (performance.now() - t0) / 1000
  const { jobs, machineProcs } = workload
  let starts: Float64Array = new Float64Array(0)
  let best = Infinity
  const last: ReadProgress = { ...(lastRead ?? { bytesRead: 0, totalBytes: 0 }), jobsRead: workload.report.jobsRead }
  for (let run = 0; run < 2 && jobs.count > 0; run++) {
    const r = await timedSimulation(jobs, machineProcs, onProgress, last, signal)
    starts = r.starts
    best = Math.min(best, r.seconds)
    if (best > 0.5) break // large log: one timing is enough and the second run would cost
  }
  const inspect = inspectWorkload({ jobs, machineProcs, users: workload.users }, starts)
  // On the log's own machine (inferred when it names nodes or partitions), the baseline as the
  // evaluation will simulate it, against the recorded history (docs/CLUSTER.md §Fidelity).
  const view = await importMachineView(workload, starts, onProgress, last, signal)
  inspect.machine = view.machine.kind === 'cluster' ? view.machine.description : null
  inspect.fidelity = view.fidelity
  if (workload.qosNames && workload.qosNames.length > 0) inspect.qosNames = workload.qosNames.slice(0, 1000)
  return { workload, sha256: hash.value, inspect, simSeconds: best, readSeconds }
}

/** What machineView answers: the result's `machine` and the baseline's fidelity on it. */
export interface MachineView { machine: MachineSummary; fidelity: Calibration | null }

/** The machine a log runs on and the baseline's fidelity there (the Inspect step, and the Cluster
 * panel's 'machine' analysis): the summary an evaluation's result carries (`machine`), and
 * EASY-FCFS (or, under Slurm's scheduling, the site's configuration) on the whole log against the
 * recorded history, as evaluate's calibration computes it. `starts`: the single pool's EASY-FCFS
 * start times when already simulated; `onCheck(started)` is called every few hundred event times
 * and stops the run when it answers true. */
export function machineView(w: Workload, machine: CellMachine | undefined, starts?: Float64Array, onCheck?: (started: number) => boolean): MachineView {
  return {
    machine: machineSummary(machine?.model ?? null, w.machineProcs, w.report.machine.source),
    fidelity: w.jobs.count === 0 ? null : baselineFidelity(w, machine, 'none', { ...(starts ? { starts } : {}), ...(onCheck ? { onCheck } : {}) }),
  }
}
