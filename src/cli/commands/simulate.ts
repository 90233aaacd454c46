import { writeFileSync } from 'node:fs'
import { bool, jsonTarget, parseArgs, positiveNumber, str, thresholdFlag, UsageError } from '../args'
import { citation, IMPORT_FLAGS, IMPORT_HELP, importOptions, loadWorkload, logArg } from '../common'
import { INTERRUPTED, int, num, pct, Progress, table, untilInterrupted, writeJson, type Io } from '../output'
import { EasySimulator } from '../../core/sim/easy'
import { nameMachineSizeControl, offeredLoad, overloadWarning } from '../../core/workload/load'
import { computeMetrics, DEFAULT_TAU, perUserWait } from '../../core/sim/metrics'
import { findPolicy, FN_LOWER_FIRST, mentionsFn, POLICIES, unknownPolicyMessage } from '../../core/sim/policies'
import type { Compat, SimConfig } from '../../core/sim/types'
import { formatDuration, formatThreshold } from '../../core/util/duration'
import type { Workload } from '../../core/workload/import'
import { DEFAULTS } from '../../core/defaults'
import { shown, whyDefaults } from '../defaults-help'
import { COMPAT_FLAGS, compatFlag, compatHelp } from '../compat-arg'
import { MACHINE_FLAGS, MACHINE_HELP, machineInputs } from '../machine-args'
import { fidelityLines } from '../fidelity-text'
import { clusterJobs, describeMachine, machineFidelity, machineModel, machineScheduler, machineSummary, MachineInputError, simOptions, type MachineModel } from '../../core/cluster/model'
import { ClusterSimulation, simulateCluster } from '../../core/cluster/simulate'
import { ClusterConfigError } from '../../core/cluster/config'
import { ClusterJobsError } from '../../core/cluster/jobs'
import { checkPrediction, defaultCorrection, parsePredictor, PredictionConfigError, predictorLabel } from '../../core/predict/predictors'
import { CORRECTION_IDS } from '../../core/predict/corrections'
import { predictionStats } from '../../core/predict/stats'
import type { CorrectionId, PredictionConfig, PredictionStats } from '../../core/predict/types'
import type { ClusterJobs } from '../../core/cluster/types'

export const SIMULATE_SCHEMA_VERSION = 1

export const simulateHelp = `easytune simulate <log>… [options]

Replays the log under EASY backfilling with the chosen queue order and prints the metrics.

Options:
  --primary P              queue order for starting jobs and the reservation (default ${shown('primary')})
  --backfill P|same|sjbf   backfill order: same = the primary order with the threshold, another
                           policy (EASY-P_R-P_B of the thesis, ch. 5), or sjbf = shortest predicted
                           runtime first (EASY-SJBF; SPF with --predictor requested) (default ${shown('backfill')})
  --predictor requested|clairvoyant|ave2|eloss[:loss]
                           runtime prediction used for the reservation and the backfill test, in
                           place of the requested time (thesis ch. 4): clairvoyant = the actual
                           runtime, ave2 = mean of the user's last two runtimes, eloss = the online
                           regression with the E-Loss, eloss:<loss> with one of the 20 losses
                           (easytune predictions --list-losses) (default ${shown('predictor')})
  --correction none|requested|incremental|doubling
                           new prediction for a job still running at its predicted end; ave2 and
                           eloss need one, none is only for requested and clairvoyant (default:
                           none for requested and clairvoyant, else ${shown('correction')})
  --threshold none|D       jobs that waited longer than D go to the head (e.g. 72000, 20h, 2d);
                           none = no threshold; 0 is refused (default ${shown('threshold')})
  --tau S                  bound of the bounded slowdown in seconds (default ${shown('tau')})
${compatHelp(false)}
${MACHINE_HELP}
${IMPORT_HELP}
  --schedule out.csv       also write every job's simulated start time (with its partition,
                           nodes, CPUs, memory and GPUs on a machine of nodes)
  --json [file]            print the result as JSON (to stdout, or to the file)

Policies: ${POLICIES.map((p) => p.id).join(', ')} (see easytune policies), or a learned
function fn:<expression> in r, n, s, where a LOWER value runs first (easytune learn --help).

${whyDefaults([['primary', 'primary'], ['backfill', 'backfill'], ['predictor', 'predictor'], ['correction', 'correction'], ['threshold', 'threshold'], ['tau', 'tau'], ['compat', 'compat'], ['overrun', 'overrun'], ['requested-fallback', 'requestedFallback']])}
`

export async function simulateCommand(argv: string[], io: Io): Promise<number> {
  const a = parseArgs(argv, {
    ...IMPORT_FLAGS, ...COMPAT_FLAGS, primary: 'string', backfill: 'string', predictor: 'string', correction: 'string', threshold: 'string', tau: 'string',
    schedule: 'string', json: 'optional', help: 'boolean', ...MACHINE_FLAGS,
  })
  if (bool(a, 'help')) { io.out(simulateHelp); return 0 }
  const log = await logArg(a, 'simulate', io)
  const path = log.label
  const config = simConfig(a)
  const compat = compatFlag(a)
  const tau = positiveNumber(a, 'tau') ?? DEFAULT_TAU
  const opts = importOptions(a)
  const inputs = machineInputs(a)
  const json = jsonTarget(a)
  const schedulePath = str(a, 'schedule')

  const w = await loadWorkload(io, log, opts)
  if (w.jobs.count === 0) {
    io.err(`easytune: ${path}: no job is left after cleaning, nothing to simulate.\n`)
    for (const warning of w.report.warnings) io.err(`  ${warning}\n`)
    return 1
  }
  let model: MachineModel | null
  try {
    model = machineModel(inputs, w)
    if (model && compat !== 'none') throw new MachineInputError(`--compat ${compat} is the research's single-pool rule; it cannot run on a machine of nodes and partitions (${describeMachine(model)})`)
    if (model && config.prediction) throw new MachineInputError(`runtime predictions (--predictor, --correction, --backfill sjbf) are simulated on the single pool of processors, the research's model; they cannot run on a machine of nodes and partitions yet (${describeMachine(model)}): drop the cluster files, or the predictor`)
  } catch (e) {
    if (e instanceof MachineInputError || e instanceof ClusterConfigError || e instanceof ClusterJobsError) { io.err(`easytune: ${e.message}\n`); return 2 }
    throw e
  }
  if (model === null) {
    const overload = overloadWarning(offeredLoad(w.jobs, w.machineProcs))
    if (overload !== null) io.err(`easytune: warning: ${nameMachineSizeControl(overload, 'with --procs')}\n`)
  } else io.err(`machine: ${describeMachine(model)}; scheduling: ${model.scheduler === 'slurm' ? 'Slurm\'s' : 'EASY'}\n`)
  const t0 = performance.now()
  const progress = new Progress(io)
  let run: { start: Float64Array; backfilled?: Uint8Array; jobs?: ClusterJobs; prediction?: PredictionStats } | typeof INTERRUPTED
  if (model === null) {
    const done = await untilInterrupted(io, progress, (signal) => simulateWithProgress(io, progress, w, config, compat, signal))
    run = done === INTERRUPTED ? INTERRUPTED : { start: done.start, ...(config.prediction ? { prediction: predictionStats(w.jobs, done.predictions, done.corrections) } : {}) }
  } else {
    const m = model
    const jobs = clusterJobs(m, w.jobs)
    const scheduler = machineScheduler(m, jobs, config, { machineProcs: w.machineProcs, maxRequested: maxOf(w.jobs.requested), longestWait: null })
    if (scheduler.kind === 'easy') {
      // EASY on the nodes resumes between slices, as the single pool does: progress, and Ctrl-C is heard.
      let sliceEnd = 0
      const sim = new ClusterSimulation(jobs, m.cluster, scheduler, simOptions(m, { checkEvery: CHECK_EVERY, onCheck: () => performance.now() >= sliceEnd }))
      const done = await untilInterrupted(io, progress, (signal) => runInSlices(io, progress, w, sim, (end) => { sliceEnd = end }, signal))
      run = done === INTERRUPTED ? INTERRUPTED : { ...sim.result(), jobs }
    } else {
      // Slurm's scheduling runs in one go: its progress is shown from inside the run, and Ctrl-C
      // keeps its default (the command stops at once, exit 130).
      const show = progressShower(io, progress, w)
      const r = simulateCluster(jobs, m.cluster, scheduler, simOptions(m, { checkEvery: CHECK_EVERY, onCheck: (started, now) => { show(started, now); return false } }))
      progress.done()
      run = { ...r, jobs }
    }
  }
  if (run === INTERRUPTED) return 130
  const start = run.start
  const simSeconds = (performance.now() - t0) / 1000
  io.err(`simulated ${int(w.jobs.count)} jobs in ${simSeconds.toFixed(2)} s (${int(w.jobs.count / Math.max(simSeconds, 1e-9))} jobs/s)\n`)
  // What follows (metrics, the schedule file, fidelity: sorts of every job's waits) takes a second
  // or more from about a million jobs on: say so rather than fall silent.
  if (w.jobs.count >= REPORT_NOTICE_JOBS) io.err(`measuring the waits of ${int(w.jobs.count)} jobs and, where the log records them, comparing with the recorded ones…\n`)
  const cpus = model === null ? w.machineProcs : model.cluster.nodes.reduce((a, n) => a + n.cpus, 0)
  const metrics = computeMetrics(w.jobs, cpus, start, tau)
  const users = perUserWait(w.jobs, start)
  if (schedulePath) writeSchedule(schedulePath, w, start, model, run.jobs, run.backfilled)

  const result = {
    schemaVersion: SIMULATE_SCHEMA_VERSION,
    log: { name: w.name, format: w.format, machineProcs: w.machineProcs, machineSource: w.report.machine.source, jobsRead: w.report.jobsRead },
    machine: machineSummary(model, w.machineProcs, w.report.machine.source),
    calibration: machineFidelity(w, model, run),
    config: { primary: config.primary, backfill: config.prediction?.sjbf ? 'sjbf' : config.backfill, threshold: config.threshold, tau, compat, ...predictionJson(config.prediction) },
    ...metrics,
    ...(run.prediction ? { prediction: run.prediction } : {}),
    perUser: users.map((u) => ({ user: w.users[u.user] ?? String(u.user), jobs: u.jobs, avgWait: u.avgWait })),
    citation: citation(w),
  }
  if (json) writeJson(io, json, result)
  if (!json || json.file !== null) io.out(formatResult(w, config, metrics, users.length, compat, model, run.prediction) + fidelityLines(result.calibration).map((l) => `${l}\n`).join(''))
  return 0
}

/** From this many jobs the work after the simulation is announced (~1.5 s on 3 million jobs). */
const REPORT_NOTICE_JOBS = 1_000_000

/** Wall-clock milliseconds the simulation runs before it yields to the event loop (so that Ctrl-C
 * is heard) and the least time between two progress updates. */
const SLICE_MS = 100
const PROGRESS_EVERY_MS = 250
/** On a pipe (not a terminal), one plain line at most this often, after the first PROGRESS_DELAY_MS. */
const PLAIN_PROGRESS_EVERY_MS = 2000
const PROGRESS_DELAY_MS = 1000
/** Event times between two checks of the clock (a counter compare in the loop otherwise). */
const CHECK_EVERY = 256

/**
 * The whole-log replay, in slices: the simulator's onCheck hook stops it after SLICE_MS of wall
 * time, between two event times; the command then shows progress, yields to the event loop (where
 * SIGINT aborts `signal`) and resumes the same schedule (EasySimulator.runUntil), so the result is
 * the one simulate() gives.
 */
async function simulateWithProgress(io: Io, progress: Progress, w: Workload, config: SimConfig, compat: Compat, signal: AbortSignal): Promise<EasySimulator> {
  let sliceEnd = 0
  const sim = new EasySimulator(w.jobs, w.machineProcs, config, { compat, checkEvery: CHECK_EVERY, onCheck: () => performance.now() >= sliceEnd })
  await runInSlices(io, progress, w, sim, (end) => { sliceEnd = end }, signal)
  return sim
}

/** A simulator that stops after a slice (its onCheck hook) and resumes the same schedule. */
interface Resumable {
  runUntil(t: number): boolean
  readonly jobsStarted: number
  readonly now: number
}

/** Runs `sim` to the end in slices of SLICE_MS, yielding to the event loop between two (SIGINT
 * aborts `signal`) and showing progress. */
async function runInSlices(io: Io, progress: Progress, w: Workload, sim: Resumable, setSliceEnd: (t: number) => void, signal: AbortSignal): Promise<void> {
  const show = progressShower(io, progress, w)
  for (;;) {
    setSliceEnd(performance.now() + SLICE_MS)
    if (!sim.runUntil(Infinity)) return
    await new Promise((resolve) => setImmediate(resolve))
    signal.throwIfAborted()
    show(sim.jobsStarted, sim.now)
  }
}

/** Shows the jobs started and the simulated date: a bar on a terminal (at most every
 * PROGRESS_EVERY_MS), a plain line on a pipe (after PROGRESS_DELAY_MS, at most every
 * PLAIN_PROGRESS_EVERY_MS). */
function progressShower(io: Io, progress: Progress, w: Workload): (started: number, simTime: number) => void {
  const total = w.jobs.count
  const t0 = performance.now()
  let lastShown = -Infinity
  let lastPlain = -Infinity
  return (started, simTime) => {
    const now = performance.now()
    if (now - lastShown < PROGRESS_EVERY_MS) return
    lastShown = now
    const date = simulatedDate(w.unixStartTime, simTime)
    const detail = `${int(started)} of ${int(total)} jobs started${date ? `, simulated date ${date}` : ''}`
    if (io.tty) progress.update('simulating', started / total, detail)
    else if (now - t0 >= PROGRESS_DELAY_MS && now - lastPlain >= PLAIN_PROGRESS_EVERY_MS) {
      lastPlain = now
      io.err(`simulating: ${detail} (${pct(started / total)})\n`)
    }
  }
}

/** The simulated time as a UTC date and time, when the log has a Unix start time. */
function simulatedDate(unixStartTime: number | null, t: number): string | null {
  if (unixStartTime === null || !Number.isFinite(t)) return null
  const ms = (unixStartTime + t) * 1000
  return Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString().slice(0, 16).replace('T', ' ') + ' UTC' : null
}

function simConfig(a: ReturnType<typeof parseArgs>): SimConfig {
  const policy = (flag: string, fallback: string): string => {
    const v = str(a, flag) ?? fallback
    if (flag === 'backfill' && (v.toLowerCase() === 'same' || v.toLowerCase() === 'sjbf')) return v.toLowerCase()
    const p = findPolicy(v)
    if (!p) throw new UsageError(`--${flag}: ${unknownPolicyMessage(v)}${flag === 'backfill' ? ', same' : ''}`)
    return p.id
  }
  const threshold = thresholdFlag(a, 'threshold', DEFAULTS.threshold.value)
  const backfill = policy('backfill', DEFAULTS.backfill.value)
  const base = { primary: policy('primary', DEFAULTS.primary.value), backfill: backfill === 'sjbf' ? 'same' : backfill, threshold }
  const prediction = predictionConfig(a, backfill === 'sjbf')
  return prediction === null ? base : { ...base, prediction }
}

/** --predictor, --correction and --backfill sjbf (docs/PREDICTIONS.md §Scheduling with predictions):
 * null when none is given (plain EASY on requested times). */
function predictionConfig(a: ReturnType<typeof parseArgs>, sjbf: boolean): PredictionConfig | null {
  const ptext = str(a, 'predictor'), ctext = str(a, 'correction')
  if (ptext === undefined && ctext === undefined && !sjbf) return null
  try {
    const predictor = parsePredictor(ptext ?? DEFAULTS.predictor.value)
    const correction = (ctext ?? defaultCorrection(predictor.id)).trim().toLowerCase() as CorrectionId
    if (!CORRECTION_IDS.includes(correction)) throw new PredictionConfigError(`unknown correction "${ctext}"; known: ${CORRECTION_IDS.join(', ')}`)
    const config: PredictionConfig = { predictor, correction, ...(sjbf ? { sjbf } : {}) }
    checkPrediction(config)
    return config
  } catch (e) {
    if (e instanceof PredictionConfigError) {
      const flag = ctext !== undefined && /correction/.test(e.message) ? '--correction' : ptext !== undefined ? '--predictor' : '--backfill'
      throw new UsageError(`${flag}: ${e.message}`)
    }
    throw e
  }
}

/** The prediction part of the JSON config. */
function predictionJson(p: PredictionConfig | undefined): { predictor?: string; correction?: string } {
  return p ? { predictor: predictorLabel(p.predictor), correction: p.correction } : {}
}

function formatResult(w: Workload, c: SimConfig, m: ReturnType<typeof computeMetrics>, users: number, compat: Compat, model: MachineModel | null, ps?: PredictionStats): string {
  const bf = c.prediction?.sjbf ? 'shortest predicted first (SJBF)' : c.backfill === 'same' ? 'same order' : String(c.backfill)
  const pred = c.prediction ? `, planned with ${predictorLabel(c.prediction.predictor)} predictions (correction: ${c.prediction.correction})` : ''
  const lines = [
    `${model?.scheduler === 'slurm' ? `Slurm's scheduling, ${String(c.primary)} order as exported (` : `EASY-${String(c.primary)} (backfill: ${bf}, `}threshold: ${formatThreshold(c.threshold)}${compat === 'none' ? '' : `, compat: ${compat}`}${pred}) on ${w.name}, ${model ? describeMachine(model) : `${int(w.machineProcs)} processors`}`,
    ...([c.primary, c.backfill].some(mentionsFn) ? [`(${FN_LOWER_FIRST})`] : []),
    '',
    table([
      ['Jobs', int(m.jobs), ''],
      ['Average wait', formatDuration(m.avgWait), `${num(m.avgWait, 0)} s`],
      ['Median wait', formatDuration(m.waitP50), `${num(m.waitP50, 0)} s`],
      ['90th percentile wait', formatDuration(m.waitP90), `${num(m.waitP90, 0)} s`],
      ['99th percentile wait', formatDuration(m.waitP99), `${num(m.waitP99, 0)} s`],
      ['Longest wait', formatDuration(m.maxWait), `${num(m.maxWait, 0)} s`],
      ['Average bounded slowdown', num(m.avgBsld), `τ = ${m.tau} s`],
      ['Largest bounded slowdown', num(m.maxBsld), ''],
      ['Utilization', pct(m.utilization), 'of processor-time from first submit to last end'],
      ['Makespan', formatDuration(m.makespan), `${num(m.makespan, 0)} s`],
      ['Users', users > 0 ? int(users) : 'not in the log', ''],
      ...(ps ? [
        ['Prediction mean absolute error', formatDuration(ps.mae), `${num(ps.mae, 0)} s, initial predictions`],
        ['Under-predicted jobs', pct(ps.underShare), 'predicted shorter than they ran'],
        ['Mean E-Loss', num(ps.meanELoss, 0), 'log₁₀(q·p)-weighted: s² over, s under'],
        ['Corrections', int(ps.corrections), 'new predictions for jobs that outlived theirs'],
      ] : []),
    ], ['l', 'r', 'l']).trimEnd(),
  ]
  const cite = citation(w)
  if (cite) lines.push('', `Data: ${cite}`)
  return lines.join('\n') + '\n'
}

/** One row per job; on a machine of nodes also its partition, nodes (0 = spread over any nodes),
 * CPUs, memory (MB, whole job) and GPUs (whole job) as simulated, and whether the backfill started it. */
function writeSchedule(path: string, w: Workload, start: Float64Array, model: MachineModel | null, cj?: ClusterJobs, backfilled?: Uint8Array): void {
  const j = w.jobs
  const rows = ['job_id,submit_s,start_s,end_s,wait_s,procs,requested_s,runtime_s,user,source_line,partition,nodes,cpus,mem_mb,gpus,backfilled']
  for (let i = 0; i < j.count; i++) {
    const base = `${j.id[i]},${j.submit[i]},${start[i]},${start[i] + j.runtime[i]},${start[i] - j.submit[i]},${j.procs[i]},${j.requested[i]},${j.runtime[i]},${j.user[i] >= 0 ? csvCell(w.users[j.user[i]]) : ''},${j.line[i]}`
    if (model === null || cj === undefined) { rows.push(`${base},,,,,,`); continue }
    const n = cj.nodes[i], per = Math.max(1, n)
    rows.push(`${base},${csvCell(model.cluster.partitions[cj.partition[i]].name)},${n},${cj.procs[i]},${cj.memPerNode[i] * per},${cj.gpusPerNode[i] * per},${backfilled?.[i] ?? ''}`)
  }
  writeFileSync(path, rows.join('\n') + '\n')
}

function maxOf(a: Float64Array): number | null {
  let m = 0
  for (let i = 0; i < a.length; i++) if (a[i] > m) m = a[i]
  return m > 0 ? m : null
}

function csvCell(s: string): string {
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}
