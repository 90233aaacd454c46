// Shared by the engine tests: bundles the worker entry once per test file (Node 20 cannot fork
// .ts, docs/TOOLCHAIN.md §Engine workers in tests), the small KTH campaign, an in-process reference, and a fork wrapper
// that counts forks and units sent.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'vite'
import { cellKey, runCell, type CellResult, type CellSpec } from '../../src/core/tune/campaign'
import { prepare } from '../../src/core/tune/prepare'
import { readLog } from '../../src/node/read-log'
import { encodeCell } from '../../src/engine/cache'
import { forkNode, type ForkWorker } from '../../src/engine/pool'
import type { WorkloadSetup, WorkUnit } from '../../src/engine/protocol'

export const KTH = resolve('resources/KTH-SP2-1996-2.1-cln.swf.gz')
export const SHIM_URL = pathToFileURL(resolve('test/engine/parentport-shim.mjs')).href

export function kthSetup(weeks = 6, seed = 1): WorkloadSetup {
  return { logPath: KTH, importOptions: {}, split: { kind: 'midpoint' }, resample: { method: 'user-weeks', weeks, seed }, tau: 10 }
}

export const CELLS: CellSpec[] = [
  { candidate: { primary: 'FCFS', backfill: 'same' }, threshold: null, part: 'train' },
  { candidate: { primary: 'SPF', backfill: 'same' }, threshold: 72000, part: 'train' },
  { candidate: { primary: 'LQF', backfill: 'SPF' }, threshold: null, part: 'test' },
  { candidate: { primary: 'SPF', backfill: 'same' }, threshold: 144000, part: 'test' },
]

/** Bundles src/engine/worker.ts into a fresh temp folder; returns the .js path. */
export async function buildWorker(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'easytune-worker-'))
  await build({
    configFile: false, logLevel: 'warn', ssr: { noExternal: true }, // as scripts/build-cli.mjs: the worker carries its packages
    build: { ssr: resolve('src/engine/worker.ts'), outDir, emptyOutDir: true, target: 'node20', minify: false, rolldownOptions: { output: { entryFileNames: 'worker.js', format: 'es' } } },
  })
  return join(outDir, 'worker.js')
}

export function removeWorker(workerPath: string): void {
  if (workerPath) rmSync(dirname(workerPath), { recursive: true, force: true })
}

/** The same cells computed in this process, for comparison. */
export async function inProcess(setup: WorkloadSetup, cells: CellSpec[]): Promise<Map<string, CellResult>> {
  const w = await readLog(setup.logPath, setup.importOptions)
  const p = prepare(w.jobs, w.machineProcs, setup.split, setup.resample)
  const samples = (c: CellSpec) => (c.samples === 'real' ? (c.part === 'train' ? p.trainReal : p.testReal) : c.part === 'train' ? p.train : p.test)
  return new Map(cells.map((c) => [cellKey(c), runCell(samples(c), w.machineProcs, c, setup.tau)]))
}

/** The setup's week samples built in this process. */
export async function preparedOf(setup: WorkloadSetup): Promise<ReturnType<typeof prepare>> {
  const w = await readLog(setup.logPath, setup.importOptions)
  return prepare(w.jobs, w.machineProcs, setup.split, setup.resample)
}

/** Results as comparable bytes (exact, NaN-safe), in map order. */
export function bytes(m: Map<string, CellResult>): [string, string][] {
  return [...m].map(([k, r]) => [k, encodeCell(r, '0'.repeat(64)).toString('hex')])
}

export interface Tracker { forks: number; cellsSent: number; unitsSent: number; pids: number[]; sentByKind: Partial<Record<WorkUnit['kind'], number>> }

/** forkNode with optional env/execArgv, counting forks, cells and units of any kind sent. */
export function tracked(opts: { env?: NodeJS.ProcessEnv; execArgv?: string[] } = {}): { t: Tracker; fork: ForkWorker } {
  const t: Tracker = { forks: 0, cellsSent: 0, unitsSent: 0, pids: [], sentByKind: {} }
  const fork: ForkWorker = (path) => {
    const h = forkNode(path, opts)
    t.forks++
    if (h.pid !== undefined) t.pids.push(h.pid)
    return {
      get pid() { return h.pid },
      send: (m) => { if (m.type === 'run') { t.unitsSent++; t.sentByKind[m.unit.kind] = (t.sentByKind[m.unit.kind] ?? 0) + 1; if (m.unit.kind === 'cell') t.cellsSent++ } h.send(m) },
      onMessage: (cb) => h.onMessage(cb),
      onExit: (cb) => h.onExit(cb),
      kill: () => h.kill(),
    }
  }
  return { t, fork }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
