// The one worker lifecycle (src/engine/lifecycle.ts), tested once for every kind of work — a
// campaign's cells, online traces, mixed-search weight vectors, imports — with real worker
// processes: a crashed worker is reported in words and its unit re-runs on a fresh worker with an
// unchanged result; a unit that keeps crashing its worker ends the session with its name; the
// AbortSignal and close() stop every worker; no process is ever left behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ONLINE } from '../../src/core/tune/online'
import type { ImportedLog } from '../../src/engine/import'
import { unitName } from '../../src/engine/label'
import { MAX_CRASHES, WorkerSession, type CrashInfo, type ForkWorker, type WorkerHandle } from '../../src/engine/lifecycle'
import type { FromWorker, ToWorker, UnitResult, WorkloadSetup, WorkUnit } from '../../src/engine/protocol'
import { alive, buildWorker, CELLS, KTH, kthSetup, removeWorker, tracked } from './support'

let workerPath = ''
beforeAll(async () => { workerPath = await buildWorker() }, 120_000)
afterAll(() => removeWorker(workerPath))

const crashEnv = (n: number) => ({ ...process.env, EASYTUNE_TEST_CRASH_AFTER: String(n) })
const mixed = (weights: number[]): WorkUnit => ({ kind: 'mixed-objective', primary: { kind: 'mixed', weights }, options: { objective: 'avgWait', threshold: null, tau: 10 } })

interface Kind { name: string; setup: WorkloadSetup | null; units: WorkUnit[] }
const KINDS: Kind[] = [
  { name: 'campaign cells', setup: kthSetup(4), units: CELLS.slice(0, 3).map((cell) => ({ kind: 'cell', cell })) },
  { name: 'online traces', setup: { ...kthSetup(), prepare: false }, units: [0, 1, 2].map((trace) => ({ kind: 'online-trace', spec: { ...DEFAULT_ONLINE, strategies: ['full', 'random'], weeks: 2, traces: 3 }, trace })) },
  { name: 'mixed weight vectors', setup: kthSetup(4), units: [[1, 0, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0], [0.5, 0, 0.5, 0, 0, 0]].map(mixed) },
  { name: 'imports', setup: null, units: [1, 2].map((k) => ({ kind: 'import', path: KTH, options: { name: `kth-${k}.swf` } })) },
]

/** What must not change when a unit is re-run: everything but an import's timings. */
function comparable(u: WorkUnit, r: UnitResult): unknown {
  if (u.kind !== 'import') return r
  const { workload, sha256, inspect } = r as ImportedLog
  return { sha256, inspect, report: workload.report, jobs: workload.jobs.count }
}

async function runAll(kind: Kind, workers: number, env?: NodeJS.ProcessEnv, crashes: CrashInfo[] = []) {
  const { t, fork } = tracked({ env })
  const session = new WorkerSession({ setup: kind.setup, workers, workerPath, fork, onWorkerCrash: (c) => crashes.push(c) })
  try {
    const results = await session.run(kind.units)
    return { t, results: results.map((r, i) => comparable(kind.units[i], r)) }
  } finally {
    await session.close()
    expect(t.pids.some(alive)).toBe(false)
  }
}

describe.each(KINDS)('$name', (kind) => {
  let reference: unknown[] = []
  beforeAll(async () => { reference = (await runAll(kind, 2)).results }, 60_000)

  it('a crashed worker is reported in words and its unit re-runs on a fresh worker, result unchanged', async () => {
    const crashes: CrashInfo[] = []
    // Every worker dies when handed its 2nd unit: with one worker, each unit after the first crashes once.
    const { t, results } = await runAll(kind, 1, crashEnv(1), crashes)
    expect(results).toEqual(reference)
    expect(crashes).toHaveLength(kind.units.length - 1)
    for (const c of crashes) expect(c.message).toMatch(/^engine worker 1 \(pid \d+\) stopped unexpectedly \(exit code 1\); its .+ was restarted on a fresh worker$/)
    expect(crashes[0].message).toContain(`its ${unitName(kind.units[1])} was restarted`)
    expect(t.forks).toBe(kind.units.length)
    expect(t.unitsSent).toBe(kind.units.length + crashes.length)
  }, 60_000)

  it(`a unit that stops its worker ${MAX_CRASHES} times ends the session with its name`, async () => {
    const { t, fork } = tracked({ env: crashEnv(0) })
    const session = new WorkerSession({ setup: kind.setup, workers: 1, workerPath, fork })
    await expect(session.run(kind.units.slice(0, 1))).rejects.toThrow(`${unitName(kind.units[0])} stopped its engine worker ${MAX_CRASHES} times (last: engine worker 1`)
    expect(t.forks).toBe(MAX_CRASHES)
    expect(t.pids.some(alive)).toBe(false) // settled only once they were gone
    await expect(session.run(kind.units)).rejects.toThrow(/giving up/) // the session stays ended
    await session.close()
  }, 60_000)

  it('an abort stops every worker before the run rejects with an AbortError', async () => {
    const { t, fork } = tracked()
    const ac = new AbortController()
    const session = new WorkerSession({ setup: kind.setup, workers: 2, workerPath, fork, signal: ac.signal, cancelledMessage: 'stopped by the test' })
    const err = await session.run(kind.units, { onDone: () => ac.abort() }).then(() => null, (e: unknown) => e as Error)
    expect(err).toMatchObject({ name: 'AbortError', message: 'stopped by the test' })
    expect(t.forks).toBe(2)
    expect(t.pids.some(alive)).toBe(false)
    await session.close()
  }, 60_000)

  it('close() stops idle workers after a batch, and the session then refuses work', async () => {
    const { t, fork } = tracked()
    const session = new WorkerSession({ setup: kind.setup, workers: 2, workerPath, fork })
    const first = await session.run(kind.units.slice(0, 1))
    expect(first.map((r) => comparable(kind.units[0], r))).toEqual(reference.slice(0, 1))
    // A second batch reuses the worker already set up, and starts one more for the rest.
    const all = await session.run(kind.units)
    expect(all.map((r, i) => comparable(kind.units[i], r))).toEqual(reference)
    expect(t.forks).toBe(2)
    expect(t.pids.every(alive)).toBe(true)
    await session.close()
    expect(t.pids.some(alive)).toBe(false)
    await expect(session.run(kind.units)).rejects.toThrow(/closed/)
  }, 60_000)
})

it('refuses to start without a built worker or with an aborted signal, before forking anything', () => {
  const { t, fork } = tracked()
  expect(() => new WorkerSession({ setup: null, workerPath: '/nonexistent/worker.js', fork })).toThrow(/engine worker is not built: \/nonexistent\/worker\.js is missing/)
  expect(() => new WorkerSession({ setup: null, workerPath, fork, signal: AbortSignal.abort() })).toThrow(expect.objectContaining({ name: 'AbortError' }) as Error)
  expect(t.forks).toBe(0)
})

describe("an import's columns sent ahead of its answer (protocol 'column')", () => {
  // A stand-in worker answering one import with hand-written messages: the session must take a
  // column only for the import it runs, only under a job-table column's name, only as an array.
  function fakeWorker(answer: (id: number) => FromWorker[]): ForkWorker {
    return () => {
      let onMessage: (m: FromWorker) => void = () => {}
      let onExit: (code: number | null, signal: string | null) => void = () => {}
      const h: WorkerHandle = {
        pid: undefined,
        send: (m: ToWorker) => {
          if (m.type === 'run') setImmediate(() => { for (const x of answer(m.id)) onMessage(x) })
          if (m.type === 'exit') setImmediate(() => onExit(0, null))
        },
        onMessage: (cb) => { onMessage = cb; setImmediate(() => cb({ type: 'ready' })) },
        onExit: (cb) => { onExit = cb },
        kill: () => setImmediate(() => onExit(null, 'SIGTERM')),
      }
      return h
    }
  }
  const result = { sha256: 'x', simSeconds: 1, readSeconds: 1, inspect: {}, workload: { name: 'x', jobs: { count: 2, line: Int32Array.of(1, 2) } } }
  it("takes the import's column and drops one for another job (stale)", async () => {
    const fork = fakeWorker((id) => [
      { type: 'column', id: id + 1, name: 'runtime', values: Float64Array.of(7, 7) },
      { type: 'column', id, name: 'submit', values: Float64Array.of(5, 6) },
      { type: 'done', id, result: result as never },
    ])
    const session = new WorkerSession({ setup: null, workers: 1, workerPath, fork }) // (checked to exist; the fake runs nothing)
    try {
      const [r] = await session.run([{ kind: 'import', path: 'x.swf', options: {} }])
      const jobs = (r as ImportedLog).workload.jobs as unknown as Record<string, unknown>
      expect(Object.keys(jobs).sort()).toEqual(['count', 'line', 'submit'])
      expect(jobs.submit).toEqual(Float64Array.of(5, 6))
    } finally {
      await session.close()
    }
  })
  it.each([
    ['__proto__', Float64Array.of(1, 1), /naming "__proto__", not a job-table column/],
    ['constructor', Float64Array.of(1, 1), /naming "constructor", not a job-table column/],
    ['requested', 'not an array', /whose requested is not an array/],
  ])('ends the import with a protocol error for a column named %s with a bad name or value, the table untouched', async (name, values, message) => {
    const fork = fakeWorker((id) => [
      { type: 'column', id, name: name as never, values: values as never },
      { type: 'done', id, result: result as never },
    ])
    const session = new WorkerSession({ setup: null, workers: 1, workerPath, fork })
    try {
      const run = session.run([{ kind: 'import', path: 'x.swf', options: {} }])
      await expect(run).rejects.toThrow(message)
      await expect(run).rejects.toThrow(/^engine worker 1 broke the protocol: a 'column' message /)
      expect(({} as Record<string, unknown>).constructor).toBe(Object)
      expect(Object.getPrototypeOf({})).toBe(Object.prototype)
    } finally {
      await session.close()
    }
  })
})
