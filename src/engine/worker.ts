// The engine worker entry: one process that reads a workload once ('setup': the log, and its
// week samples unless the setup says not to) and then runs the work units it is handed, one at a
// time (protocol.ts): a campaign's cells, online-selection traces, a mixed search's weight
// vectors, the Time limits what-if's scenarios, the predicted-order export's replays, or
// (needing no setup) an import for the Backend. Started by the worker lifecycle (lifecycle.ts) as
// a Node child process (CLI, tests, browser mode) or as an Electron utility process (desktop
// app); port.ts hides the difference. Bundled to out/engine/worker.js by scripts/build-cli.mjs.
//
// Messages are handled strictly in order (a promise chain), so a unit that arrives while the
// setup is still reading the log waits for it. Every failure becomes an 'error' message: bad
// input never crashes the process. The one exception to the order is 'progress-port' (desktop
// app: a port to the window for per-sample progress, progress.ts), taken at once.
//
// TEST ONLY: EASYTUNE_TEST_CRASH_AFTER=N makes this process exit(1) abruptly when it is handed a
// unit after having finished N units, to exercise the lifecycle's crash recovery. Never set it otherwise.
import { FileInputError, readLogs } from '../node/read-log'
import { InputError } from '../core/workload/errors'
import { prepare, type Prepared } from '../core/tune/prepare'
import { runCell, type CellMachine } from '../core/tune/campaign'
import { baselineFidelity, campaignMachine } from '../core/cluster/model'
import { recommendationImpact } from '../core/tune/impact'
import { emulateTrace } from '../core/tune/online'
import { featureStats, trainObjective } from '../core/tune/mixed'
import type { Workload } from '../core/workload/import'
import type { JobTable } from '../core/workload/types'
import type { PolicySpec } from '../core/sim/types'
import { tableToSend, type ToWorker, type UnitResult, type WorkloadSetup, type WorkUnit } from './protocol'
import { EASY_ID, extremeBound, findTriple, simulateTriple, tripleMetrics, type PredictionCampaignOptions, type TripleRun } from '../core/predict/campaign'
import { importLogFile, machineView } from './import'
import { workerPort } from './port'
import { cellLabel } from './label'
import { ProgressReporter } from './progress'
import { whatIfRun } from './analyses'
import { fidelityReplay } from '../core/export/predicted-fidelity'
import { runTuple } from '../core/learn/trials'
import { FAMILY } from '../core/learn/family'
import { fitSlice } from '../core/learn/regression'
import { splitWorkload } from '../core/tune/split'
import { trace, tracing } from './trace'

const port = workerPort()
const progress = new ProgressReporter((m) => port.post(m))
const crashAfter = testCrashAfter()
let unitsFinished = 0
/** `prepared` is null after a setup with `prepare: false` (an online analysis); `trainWeeks` is
 * built the first time a mixed search needs it. */
let state: { workload: Workload; setup: WorkloadSetup; prepared: Prepared | null; trainWeeks: JobTable[] | null; machine: CellMachine | undefined; extremeBounds: Map<string, number> } | null = null
/** The training part of the setup's log for 'learn-tuple' units, and the workload it was cut from. */
let learnTrain: { of: Workload; jobs: JobTable } | null = null
/** The setup's split parts for an 'impact' unit under a setup that does not prepare the weeks. */
let splitOf: { of: Workload; split: ReturnType<typeof splitWorkload> } | null = null
/** 'progress' of a unit other than a cell at most this often. */
const UNIT_PROGRESS_MS = 200
let chain: Promise<void> = Promise.resolve()

// Ctrl-C in a terminal reaches the whole process group: the parent decides when workers stop
// (it sends 'exit' or kills them), so a worker must not die on its own SIGINT.
process.on('SIGINT', () => {})
port.onDisconnect(() => process.exit(0))
port.onMessage((msg, ports) => {
  if (msg.type === 'progress-port') {
    if (ports[0]) progress.usePort(ports[0], msg.worker)
    return
  }
  chain = chain.then(() => handle(msg)).catch((e: unknown) => postError(null, e))
})
trace(`worker loaded (${performance.now().toFixed(0)} ms after its process started)`)
port.post({ type: 'ready', transport: port.transport })

async function handle(msg: ToWorker): Promise<void> {
  switch (msg.type) {
    case 'setup': return setup(msg.setup)
    case 'run': return run(msg.id, msg.unit)
    case 'exit': return process.exit(0)
    default: postError(null, new Error(`engine worker: unknown message ${JSON.stringify(msg)}`))
  }
}

async function setup(s: WorkloadSetup): Promise<void> {
  state = null
  try {
    trace('setup: reading the log')
    const w = await readLogs(s.logPaths ?? [s.logPath], s.importOptions)
    trace('setup: log read')
    const prepared = s.prepare === false ? null : prepare(w.jobs, w.machineProcs, s.split, s.resample, s.compat ?? 'none')
    trace('setup: prepared')
    // The node-level machine (docs/CLUSTER.md), built here as the parent builds it: same inputs, same model.
    const machine = campaignMachine(s.machine, w)
    state = { workload: w, setup: s, prepared, trainWeeks: null, machine, extremeBounds: new Map() }
    port.post({ type: 'setup-done', trainWeeks: prepared?.train.count ?? 0, testWeeks: prepared?.test.count ?? 0, trainRealWeeks: prepared?.trainReal.count ?? 0, testRealWeeks: prepared?.testReal.count ?? 0 })
  } catch (e) {
    postError(null, e)
  }
}

async function run(id: number, unit: WorkUnit): Promise<void> {
  if (crashAfter !== null && unitsFinished >= crashAfter) process.exit(1)
  try {
    const t0 = tracing ? performance.now() : 0
    const result = unit.kind === 'import' ? await importLog(id, unit) : unit.kind === 'learn-fit' ? fitSlice(FAMILY.slice(unit.from, unit.to), unit.samples) : compute(id, unit)
    unitsFinished++
    const t1 = tracing ? performance.now() : 0
    port.post({ type: 'done', id, result })
    if (tracing) trace(`unit ${id} ${unit.kind === 'cell' ? cellLabel(unit.cell) : unit.kind}: compute ${(t1 - t0).toFixed(1)} ms, post ${(performance.now() - t1).toFixed(2)} ms`)
  } catch (e) {
    postError(id, e)
  }
}

/** A unit on the workload of the last successful setup. */
function compute(id: number, unit: Exclude<WorkUnit, { kind: 'import' | 'learn-fit' }>): UnitResult {
  if (!state) throw new Error(`engine worker: a ${unit.kind} arrived before a successful setup`)
  const { workload: w, setup: s } = state
  switch (unit.kind) {
    case 'cell': {
      if (!state.prepared) throw new Error('engine worker: a cell needs a setup that splits the log')
      const p = state.prepared
      const samples = unit.cell.samples === 'real' ? (unit.cell.part === 'train' ? p.trainReal : p.testReal) : unit.cell.part === 'train' ? p.train : p.test
      const cell = { ...unit.cell, candidate: { ...unit.cell.candidate, primary: fastSpec(unit.cell.candidate.primary) } }
      return runCell(samples, w.machineProcs, cell, s.tau, progress.forCell(id, cellLabel(unit.cell), samples.count, unit.campaign !== false), state.machine)
    }
    case 'online-trace': {
      let last = Date.now()
      return emulateTrace(w.jobs, w.machineProcs, unit.spec, unit.trace, (done, total) => {
        const now = Date.now()
        if (done >= total || now - last < UNIT_PROGRESS_MS) return
        last = now
        port.post({ type: 'progress', id, samplesDone: done, samples: total })
      })
    }
    case 'walltimes-whatif': {
      let last = Date.now()
      return whatIfRun(w, unit.scenario, unit.today, s.tau, (done, total) => {
        const now = Date.now()
        if (now - last < UNIT_PROGRESS_MS) return
        last = now
        port.post({ type: 'progress', id, samplesDone: done, samples: total })
      })
    }
    case 'predicted-order-replay': {
      let last = Date.now()
      const jobs = w.jobs
      return fidelityReplay(jobs, w.machineProcs, unit.replay, unit.historyDays, unit.threshold, s.tau, (started) => {
        const now = Date.now()
        if (now - last >= UNIT_PROGRESS_MS) { last = now; port.post({ type: 'progress', id, samplesDone: started, samples: jobs.count }) }
        return false
      })
    }
    case 'prediction-triple': return predictionTriple(id, unit.triple, unit.options)
    case 'learn-tuple': {
      // The training part, split once per setup (docs/LEARN.md §Trials).
      if (learnTrain === null || learnTrain.of !== w) learnTrain = { of: w, jobs: splitWorkload(w.jobs, w.machineProcs, s.split).train }
      const train = learnTrain.jobs
      let last = Date.now(), lastCheckpoint = last
      const every = unit.checkpointMs
      const result = runTuple(train, w.machineProcs, unit.config, unit.tuple, (done, checkpoint) => {
        const now = Date.now()
        // A checkpoint goes with a progress message; the parent writes it (docs/LEARN.md §Trials).
        const withCheckpoint = every !== undefined && now - lastCheckpoint >= every && done < unit.config.trials
        if (now - last >= UNIT_PROGRESS_MS || withCheckpoint) {
          last = now
          if (withCheckpoint) lastCheckpoint = now
          port.post({ type: 'progress', id, samplesDone: done, samples: unit.config.trials, ...(withCheckpoint ? { checkpoint: checkpoint() } : {}) })
        }
      }, unit.from)
      return { result, machineProcs: w.machineProcs, trainingJobs: train.count }
    }
    case 'baseline-fidelity': return baselineFidelity(w, state.machine, s.compat ?? 'none')
    case 'impact': {
      if (splitOf === null || splitOf.of !== w) splitOf = { of: w, split: state.prepared?.split ?? splitWorkload(w.jobs, w.machineProcs, s.split) }
      const compat = s.compat ?? 'none'
      return recommendationImpact(splitOf.split, w.machineProcs, unit.recommended, w, unit.maxWaitRatio, compat === 'none' ? {} : { compat }, state.machine)
    }
    case 'machine-view': {
      let last = Date.now()
      return machineView(w, state.machine, undefined, (started) => {
        const now = Date.now()
        if (now - last >= UNIT_PROGRESS_MS) { last = now; port.post({ type: 'progress', id, samplesDone: started, samples: w.jobs.count }) }
        return false
      })
    }
    case 'mixed-stats': return featureStats(trainWeeks(), w.machineProcs, s.compat ?? 'none')
    case 'mixed-objective': return trainObjective(trainWeeks(), w.machineProcs, fastSpec(unit.primary), { ...unit.options, compat: s.compat ?? 'none' }, state.prepared?.train.weights())
  }
}

/** One (log, triple) of the prediction campaign. The log's extreme-slowdown bound comes from plain
 * EASY under the same options, simulated once per worker and options (the EASY unit itself uses its
 * own run): the same value whichever worker computes it. */
function predictionTriple(id: number, tripleId: string, o: PredictionCampaignOptions): UnitResult<Extract<WorkUnit, { kind: 'prediction-triple' }>> {
  const st = state!
  const t = findTriple(tripleId)
  if (!t) throw new Error(`engine worker: unknown prediction triple ${tripleId}`)
  const jobs = st.workload.jobs
  const m = st.workload.machineProcs
  let last = Date.now()
  const onCheck = (started: number): boolean => {
    const now = Date.now()
    if (now - last >= UNIT_PROGRESS_MS) { last = now; port.post({ type: 'progress', id, samplesDone: started, samples: jobs.count }) }
    return false
  }
  const key = JSON.stringify([o.primary, o.threshold, o.tau])
  let bound = st.extremeBounds.get(key)
  let run: TripleRun | null = null
  if (bound === undefined) {
    const easy = simulateTriple(jobs, m, findTriple(EASY_ID)!, o, t.id === EASY_ID ? onCheck : undefined)
    bound = extremeBound(jobs, easy.start, o.tau)
    st.extremeBounds.set(key, bound)
    if (t.id === EASY_ID) run = easy
  }
  run ??= simulateTriple(jobs, m, t, o, onCheck)
  return tripleMetrics(jobs, run, o.tau, bound)
}

/** A mixed policy's arrays rebuilt here: the ones structured clone delivers may hold boxed
 * numbers, which makes the priority function (read for every job at every pass) about 10% slower.
 * Same values, so the same results. */
function fastSpec(p: PolicySpec): PolicySpec {
  if (typeof p === 'string') return p
  const copy = (a: readonly number[] | undefined) => (a ? a.map((v) => v + 0) : undefined)
  return { ...p, weights: copy(p.weights)!, mean: copy(p.mean), scale: copy(p.scale) }
}

/** The train week samples of the setup, built once (a mixed search evaluates many policies on them). */
function trainWeeks(): JobTable[] {
  const p = state?.prepared
  if (!state || !p) throw new Error('engine worker: a mixed-policy search needs a setup that splits the log')
  return (state.trainWeeks ??= Array.from({ length: p.train.count }, (_, k) => p.train.get(k)))
}

/** A whole import for the Backend (no 'setup'): progress, then the workload, hash, Inspect data
 * and timings. Progress goes out once per 1 MiB chunk read (a small message; the Backend
 * throttles its events to ~5 a second), so the Backend sees the import advance even when its own
 * thread was busy for a while. */
async function importLog(id: number, unit: Extract<WorkUnit, { kind: 'import' }>): Promise<UnitResult> {
  const r = await importLogFile(unit.paths ?? unit.path, unit.options, (p) => port.post({ type: 'import-progress', id, bytesRead: p.bytesRead, totalBytes: p.totalBytes, jobsRead: p.jobsRead, ...(p.simulated ? { simulated: p.simulated } : {}) }), undefined, 0, unit.names)
  return { ...r, workload: { ...r.workload, jobs: postColumns(id, r.workload.jobs) } }
}

/** Posts the big columns of `jobs` in messages of their own and answers the table without them (protocol.ts). */
function postColumns(id: number, jobs: JobTable): JobTable {
  const { rest, alone } = tableToSend(jobs)
  for (const [name, values] of alone) port.post({ type: 'column', id, name, values })
  return rest
}

function postError(id: number | null, e: unknown): void {
  const err = e instanceof Error ? e : new Error(String(e))
  if (err instanceof FileInputError) port.post({ type: 'error', id, message: err.message, input: true, file: err.file, line: err.line })
  else if (err instanceof InputError) port.post({ type: 'error', id, message: err.message, input: true, line: err.line })
  else port.post({ type: 'error', id, message: err.message, input: false })
}

function testCrashAfter(): number | null {
  const v = process.env.EASYTUNE_TEST_CRASH_AFTER
  if (v === undefined || v === '') return null
  const n = Number(v)
  return Number.isInteger(n) && n >= 0 ? n : null
}
