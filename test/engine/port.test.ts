// The worker entry speaks the same protocol through both branches of the port adapter: a plain
// Node fork (process.send) and an Electron-like process.parentPort (simulated by a preload shim).
// In the parentPort branch, a progress port handed over by main (the shim delivers a stand-in)
// carries the per-sample progress, and the parent hears only of quarters of a cell.
import { fork, type ChildProcess } from 'node:child_process'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { cellKey, type CellResult } from '../../src/core/tune/campaign'
import { cellLabel } from '../../src/engine/label'
import type { FromWorker, WorkerProgressMessage } from '../../src/engine/protocol'
import { buildWorker, bytes, CELLS, inProcess, kthSetup, preparedOf, removeWorker, SHIM_URL } from './support'

let workerPath = ''
const children: ChildProcess[] = []
beforeAll(async () => { workerPath = await buildWorker() })
afterAll(() => removeWorker(workerPath))
afterEach(() => { for (const c of children.splice(0)) c.kill() })

/** Forks the worker and returns a function that waits for the next message of a given type. */
function start(execArgv: string[]) {
  const child = fork(workerPath, [], { serialization: 'advanced', execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  children.push(child)
  const inbox: FromWorker[] = []
  /** What the worker posted on its progress port, and how many ports it closed (see the shim). */
  const onPort: WorkerProgressMessage[] = []
  const closed = { ports: 0 }
  let wake: (() => void) | null = null
  child.on('message', (m) => {
    const w = m as { __port?: WorkerProgressMessage; __portClosed?: boolean }
    if (w.__port) onPort.push(w.__port)
    else if (w.__portClosed) closed.ports++
    else inbox.push(m as FromWorker)
    wake?.()
  })
  const next = async <T extends FromWorker['type']>(type: T): Promise<Extract<FromWorker, { type: T }>> => {
    for (;;) {
      const i = inbox.findIndex((m) => m.type === type || m.type === 'error')
      if (i >= 0) {
        const m = inbox.splice(i, 1)[0]
        if (m.type === 'error' && type !== 'error') throw new Error(`worker error: ${m.message}`)
        return m as Extract<FromWorker, { type: T }>
      }
      await new Promise<void>((r) => { wake = r })
    }
  }
  return { child, next, inbox, onPort, closed }
}

describe.each([
  { mode: 'process', execArgv: [] as string[] },
  { mode: 'parentPort', execArgv: ['--import', SHIM_URL] },
])('worker through the $mode branch', ({ mode, execArgv }) => {
  test('says ready first, sets up, runs cell units equal to in-process runCell, exits on request', async () => {
    const setup = kthSetup()
    const { child, next } = start(execArgv)
    expect((await next('ready')).transport).toBe(mode)
    child.send({ type: 'setup', setup })
    const done = await next('setup-done')
    expect(done).toMatchObject({ type: 'setup-done', trainWeeks: 6, testWeeks: 6 })
    // and the real full weeks of each part (the verdict's real-week cells), whatever --weeks is
    const prepared = await preparedOf(setup)
    expect(done).toMatchObject({ trainRealWeeks: prepared.trainReal.count, testRealWeeks: prepared.testReal.count })
    expect(prepared.trainReal.originalWeeks).toBeGreaterThan(6)
    // Two resampled cells and one real-week cell (its own samples: every real week once).
    const cells = [...CELLS.slice(0, 2), { ...CELLS[1], samples: 'real' as const }]
    const expected = await inProcess(setup, cells)
    expect(expected.get(cellKey(cells[2]))!.jobs.length).toBe(prepared.trainReal.count)
    for (const [id, cell] of cells.entries()) {
      child.send({ type: 'run', id, unit: { kind: 'cell', cell } })
      const r = await next('done')
      expect(r.id).toBe(id)
      expect(bytes(new Map([[cellKey(cell), r.result as CellResult]]))).toEqual(bytes(new Map([[cellKey(cell), expected.get(cellKey(cell))!]])))
    }
    const exited = new Promise<number | null>((r) => child.once('exit', r))
    child.send({ type: 'exit' })
    expect(await exited).toBe(0)
  })

  test('a missing log becomes an input error naming the file, and the worker stays up', async () => {
    const { child, next } = start(execArgv)
    await next('ready')
    child.send({ type: 'setup', setup: { ...kthSetup(), logPath: '/nonexistent/missing.swf' } })
    const e = await next('error')
    expect(e).toMatchObject({ id: null, input: true, file: '/nonexistent/missing.swf', message: 'no such file' })
    child.send({ type: 'run', id: 7, unit: { kind: 'cell', cell: CELLS[0] } })
    expect(await next('error')).toMatchObject({ id: 7, input: false, message: expect.stringMatching(/before a successful setup/) })
    expect(child.exitCode).toBeNull()
  })

  test('exits when the parent disconnects', async () => {
    const { child, next } = start(execArgv)
    await next('ready')
    const exited = new Promise<number | null>((r) => child.once('exit', r))
    child.disconnect()
    expect(await exited).toBe(0)
  })
})

describe('worker with a progress port (utilityProcess branch)', () => {
  /** Runs one 40-week cell and returns the parent's 'progress' messages and the port's. */
  async function runCellOf40(withPort: boolean) {
    const w = start(['--import', SHIM_URL])
    await w.next('ready')
    if (withPort) w.child.send({ type: 'progress-port', worker: 3 })
    w.child.send({ type: 'setup', setup: kthSetup(40) })
    expect(await w.next('setup-done')).toMatchObject({ trainWeeks: 40 })
    w.child.send({ type: 'run', id: 5, unit: { kind: 'cell', cell: CELLS[1] } })
    expect((await w.next('done')).id).toBe(5)
    const parent = w.inbox.filter((m) => m.type === 'progress')
    expect(w.inbox.filter((m) => m.type !== 'progress')).toEqual([])
    return { ...w, parent }
  }

  test('posts each cell\'s sample progress on the port and only quarters of it to the parent', async () => {
    const { child, parent, onPort } = await runCellOf40(true)
    expect(parent).toEqual([10, 20, 30].map((samplesDone) => ({ type: 'progress', id: 5, samplesDone, samples: 40 })))
    expect(onPort.length).toBeGreaterThanOrEqual(2)
    for (const m of onPort) expect(m).toEqual({ kind: 'worker-progress', worker: 3, pid: child.pid, cell: cellLabel(CELLS[1]!), samplesDone: m.samplesDone, samples: 40 })
    const done = onPort.map((m) => m.samplesDone)
    expect(done).toEqual([...done].sort((a, b) => a - b))
    expect(done).toEqual(expect.arrayContaining([1, 25]))
    expect(done.every((d) => d >= 1 && d < 40)).toBe(true)
  })

  test('without a port the parent gets the full stream, as in the CLI', async () => {
    const { parent, onPort } = await runCellOf40(false)
    expect(onPort).toEqual([])
    expect(parent.map((m) => m.type === 'progress' && m.samplesDone)).toContain(25)
    expect(parent.some((m) => m.type === 'progress' && m.samplesDone % 10 !== 0)).toBe(true)
  })

  test('a new port (the window reloaded) replaces and closes the old one', async () => {
    const { child, next, onPort, closed } = start(['--import', SHIM_URL])
    await next('ready')
    child.send({ type: 'progress-port', worker: 1 })
    child.send({ type: 'progress-port', worker: 1 })
    child.send({ type: 'setup', setup: kthSetup() })
    await next('setup-done')
    expect(closed.ports).toBe(1)
    child.send({ type: 'run', id: 0, unit: { kind: 'cell', cell: CELLS[0] } })
    await next('done')
    expect(onPort.length).toBeGreaterThan(0)
    expect(onPort[0]).toMatchObject({ worker: 1, samplesDone: 1, samples: 6 })
  })
})
