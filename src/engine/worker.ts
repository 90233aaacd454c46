// The engine worker entry: one process that builds a campaign's week samples once ('setup') and
// then runs the cells it is handed, one at a time (or, forked for that alone, imports one log for
// the Backend: 'import'). Started by the engine pool as a Node child
// process (CLI, tests, browser mode) or as an Electron utility process (desktop app); port.ts hides
// the difference. Bundled to out/engine/worker.js by scripts/build-cli.mjs.
//
// Messages are handled strictly in order (a promise chain), so a 'cell' that arrives while the
// setup is still reading the log waits for it. Every failure becomes an 'error' message: bad
// input never crashes the process. The one exception to the order is 'progress-port' (desktop
// app: a port to the window for per-sample progress, progress.ts), taken at once.
//
// TEST ONLY: EASYTUNE_TEST_CRASH_AFTER=N makes this process exit(1) abruptly when it is handed a
// cell after having finished N cells, to exercise the pool's crash recovery. Never set it otherwise.
import { FileInputError, readLog } from '../node/read-log'
import { InputError } from '../core/workload/errors'
import { prepare, type Prepared } from '../core/tune/prepare'
import { runCell, type CellSpec } from '../core/tune/campaign'
import { runOnline } from '../core/tune/online'
import { runMixed } from '../core/tune/mixed'
import { mixedJson, onlineJson } from '../core/tune/reports'
import type { Workload } from '../core/workload/import'
import type { AnalysisOptions, ToWorker, WorkloadSetup } from './protocol'
import type { ImportOptions } from '../core/workload/import'
import { importLogFile } from './import'
import { workerPort } from './port'
import { cellLabel } from './label'
import { ProgressReporter } from './progress'

const port = workerPort()
const progress = new ProgressReporter((m) => port.post(m))
const crashAfter = testCrashAfter()
let cellsFinished = 0
/** `prepared` is null after a setup with `prepare: false` (an online analysis). */
let state: { workload: Workload; setup: WorkloadSetup; prepared: Prepared | null; machineProcs: number; tau: number } | null = null
/** 'analysis-progress' at most this often (plus 0 at the start). */
const ANALYSIS_PROGRESS_MS = 200
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
port.post({ type: 'ready', transport: port.transport })

async function handle(msg: ToWorker): Promise<void> {
  switch (msg.type) {
    case 'setup': return setup(msg.setup)
    case 'cell': return cell(msg.id, msg.cell)
    case 'analysis': return analysis(msg.id, msg.analysis)
    case 'import': return importLog(msg.id, msg.path, msg.options)
    case 'exit': return process.exit(0)
    default: postError(null, new Error(`engine worker: unknown message ${JSON.stringify(msg)}`))
  }
}

async function setup(s: WorkloadSetup): Promise<void> {
  state = null
  try {
    const w = await readLog(s.logPath, s.importOptions)
    const prepared = s.prepare === false ? null : prepare(w.jobs, w.machineProcs, s.split, s.resample)
    state = { workload: w, setup: s, prepared, machineProcs: w.machineProcs, tau: s.tau }
    port.post({ type: 'setup-done', trainWeeks: prepared?.train.count ?? 0, testWeeks: prepared?.test.count ?? 0 })
  } catch (e) {
    postError(null, e)
  }
}

function cell(id: number, spec: CellSpec): void {
  if (crashAfter !== null && cellsFinished >= crashAfter) process.exit(1)
  if (!state?.prepared) { postError(id, new Error('engine worker: a cell arrived before a successful setup')); return }
  const samples = spec.part === 'train' ? state.prepared.train : state.prepared.test
  try {
    const result = runCell(samples, state.machineProcs, spec, state.tau, progress.forCell(id, cellLabel(spec), samples.count))
    cellsFinished++
    port.post({ type: 'cell-done', id, result })
  } catch (e) {
    postError(id, e)
  }
}

/** One online emulation or mixed search; the result is the CLI's --json document (via JSON, so
 * it is byte for byte what the CLI would print: no NaN or typed array survives). */
function analysis(id: number, a: AnalysisOptions): void {
  if (!state) { postError(id, new Error('engine worker: an analysis arrived before a successful setup')); return }
  const { workload: w, setup: s } = state
  let last = 0
  const report = (fraction: number) => {
    const now = Date.now()
    if (now - last < ANALYSIS_PROGRESS_MS) return
    last = now
    port.post({ type: 'analysis-progress', id, fraction: Math.max(0, Math.min(1, fraction)) })
  }
  try {
    report(0)
    let doc: unknown
    if (a.kind === 'online') {
      doc = onlineJson(w, a.spec, runOnline(w.jobs, w.machineProcs, a.spec, (f) => report(f)))
    } else {
      const p = state.prepared
      if (!p) throw new Error('engine worker: a mixed-policy search needs a setup that splits the log')
      const t0 = performance.now()
      // The search is the bulk of the work; evaluating the best, the baseline and the vertices the rest.
      const r = runMixed(p, w.machineProcs, a.options, (phase, done, total) => report(phase === 'search' ? 0.9 * (done / total) : 0.9 + 0.1 * (done / total)))
      doc = mixedJson(w, p, a.options, s.split, s.resample, r, (performance.now() - t0) / 1000)
    }
    port.post({ type: 'analysis-done', id, kind: a.kind, result: JSON.parse(JSON.stringify(doc)) as unknown })
  } catch (e) {
    postError(id, e)
  }
}

/** A whole import for the Backend (no 'setup'): progress, then the workload, hash, Inspect data
 * and timings. The parent stops this process once it has the answer. Progress goes out once per
 * 1 MiB chunk read (a small message; the Backend throttles its events to ~5 a second), so the
 * Backend sees the import advance even when its own thread was busy for a while. */
async function importLog(id: number, path: string, options: ImportOptions): Promise<void> {
  try {
    const r = await importLogFile(path, options, (p) => port.post({ type: 'import-progress', id, bytesRead: p.bytesRead, totalBytes: p.totalBytes, jobsRead: p.jobsRead }), undefined, 0)
    port.post({ type: 'import-done', id, ...r })
  } catch (e) {
    postError(id, e)
  }
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
