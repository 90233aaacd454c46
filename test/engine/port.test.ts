// The worker entry speaks the same protocol through both branches of the port adapter: a plain
// Node fork (process.send) and an Electron-like process.parentPort (simulated by a preload shim).
import { fork, type ChildProcess } from 'node:child_process'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { cellKey } from '../../src/core/tune/campaign'
import type { FromWorker } from '../../src/engine/protocol'
import { buildWorker, bytes, CELLS, inProcess, kthSetup, removeWorker, SHIM_URL } from './support'

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
  let wake: (() => void) | null = null
  child.on('message', (m) => { inbox.push(m as FromWorker); wake?.() })
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
  return { child, next }
}

describe.each([
  { mode: 'process', execArgv: [] as string[] },
  { mode: 'parentPort', execArgv: ['--import', SHIM_URL] },
])('worker through the $mode branch', ({ mode, execArgv }) => {
  test('says ready first, sets up, runs cells equal to in-process runCell, exits on request', async () => {
    const setup = kthSetup()
    const { child, next } = start(execArgv)
    expect((await next('ready')).transport).toBe(mode)
    child.send({ type: 'setup', setup })
    const done = await next('setup-done')
    expect(done).toEqual({ type: 'setup-done', trainWeeks: 6, testWeeks: 6 })
    const expected = await inProcess(setup, CELLS.slice(0, 2))
    for (const [id, cell] of CELLS.slice(0, 2).entries()) {
      child.send({ type: 'cell', id, cell })
      const r = await next('cell-done')
      expect(r.id).toBe(id)
      expect(bytes(new Map([[cellKey(cell), r.result]]))).toEqual(bytes(new Map([[cellKey(cell), expected.get(cellKey(cell))!]])))
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
    child.send({ type: 'cell', id: 7, cell: CELLS[0] })
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
