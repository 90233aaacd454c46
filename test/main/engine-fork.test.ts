// The desktop app's ForkWorker (src/main/engine-fork.ts): Electron utilityProcess events mapped
// to the engine pool's WorkerHandle. First on a fake UtilityProcess (message, exit, kill, a send
// after the exit), then end to end: a stand-in for utilityProcess.fork built on child_process.fork
// plus the parentPort shim (so the worker runs its utilityProcess branch), driven by the real
// EnginePool, with the same results as in-process and a crashed worker replaced.
import { fork as forkChild } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { CrashInfo } from '../../src/engine/pool'
import type { FromWorker } from '../../src/engine/protocol'
import { buildWorker, bytes, CELLS, inProcess, kthSetup, removeWorker, SHIM_URL } from '../engine/support'

vi.mock('electron', async () => (await import('./fake-electron')).electronModule())

const { wrapUtilityChild, utilityFork, engineWorkerPath, ENGINE_SERVICE_NAME } = await import('../../src/main/engine-fork')
const { EnginePool } = await import('../../src/engine/pool')

class FakeUtility extends EventEmitter {
  pid: number | undefined = 4242
  postMessage = vi.fn()
  kill = vi.fn(() => true)
}

describe('WorkerHandle over a utility process', () => {
  it('maps postMessage, message, exit and kill', () => {
    const child = new FakeUtility()
    const h = wrapUtilityChild(child)
    expect(h.pid).toBe(4242)
    h.send({ type: 'exit' })
    expect(child.postMessage).toHaveBeenCalledWith({ type: 'exit' })
    const got: FromWorker[] = []
    h.onMessage((m) => got.push(m))
    child.emit('message', { type: 'ready', transport: 'parentPort' })
    expect(got).toEqual([{ type: 'ready', transport: 'parentPort' }])
    const exits: [number | null, string | null][] = []
    h.onExit((code, signal) => exits.push([code, signal]))
    child.pid = undefined
    child.emit('exit', 9)
    child.emit('exit', 9) // once only
    expect(exits).toEqual([[9, null]])
    expect(h.pid).toBeUndefined()
    h.send({ type: 'exit' })
    h.kill()
    expect(child.postMessage).toHaveBeenCalledTimes(1)
    expect(child.kill).not.toHaveBeenCalled()
  })

  it('kills a live worker, and survives a postMessage that throws on a dying process', () => {
    const child = new FakeUtility()
    child.postMessage.mockImplementation(() => { throw new Error('process gone') })
    const h = wrapUtilityChild(child)
    expect(() => h.send({ type: 'exit' })).not.toThrow()
    h.kill()
    expect(child.kill).toHaveBeenCalledTimes(1)
  })

  it('logs a fatal V8 error; the exit that follows is what the pool sees', () => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => {})
    const child = new FakeUtility()
    wrapUtilityChild(child)
    child.emit('error', 'FatalError', 'v8::Heap', '{}')
    expect(err.mock.calls[0]![0]).toMatch(/engine worker 4242 hit a fatal error \(FatalError at v8::Heap\)/)
    err.mockRestore()
  })

  it('forks the worker entry with the engine service name', () => {
    const fork = vi.fn(() => new FakeUtility())
    utilityFork(fork)('/app/out/main/engine-worker.js')
    expect(fork).toHaveBeenCalledWith('/app/out/main/engine-worker.js', [], { serviceName: ENGINE_SERVICE_NAME, stdio: 'inherit' })
  })

  it('finds the worker beside main, unpacked from app.asar when it is', () => {
    expect(engineWorkerPath('/repo/out/main', () => false)).toBe('/repo/out/main/engine-worker.js')
    expect(engineWorkerPath('/opt/EasyTune/resources/app.asar/out/main', () => true)).toBe('/opt/EasyTune/resources/app.asar.unpacked/out/main/engine-worker.js')
    expect(engineWorkerPath('/opt/EasyTune/resources/app.asar/out/main', () => false)).toBe('/opt/EasyTune/resources/app.asar/out/main/engine-worker.js')
  })
})

/** utilityProcess.fork as seen from main, played by a Node child with process.parentPort. */
function fakeUtilityFork(env: NodeJS.ProcessEnv = process.env) {
  const forked: { path: string; options: unknown }[] = []
  const fork = (path: string, _args: string[], options: unknown) => {
    forked.push({ path, options })
    const child = forkChild(path, [], { serialization: 'advanced', execArgv: ['--import', SHIM_URL], env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    const u = new EventEmitter() as EventEmitter & { pid: number | undefined; postMessage(m: unknown): void; kill(): boolean }
    Object.defineProperty(u, 'pid', { get: () => (child.exitCode === null && child.signalCode === null ? child.pid : undefined) })
    u.postMessage = (m) => { if (child.connected) child.send(m as never, () => {}) }
    u.kill = () => child.kill()
    child.on('message', (m) => u.emit('message', m))
    child.on('error', () => {})
    child.once('exit', (code) => u.emit('exit', code ?? 1))
    return u
  }
  return { fork, forked }
}

describe('the engine pool on utility processes', () => {
  let workerPath = ''
  beforeAll(async () => { workerPath = await buildWorker() })
  afterAll(() => removeWorker(workerPath))

  it('runs a campaign with the same results as in-process', async () => {
    const { fork, forked } = fakeUtilityFork()
    const setup = kthSetup()
    const r = await new EnginePool({ workers: 2, workerPath, fork: utilityFork(fork) }).run(setup, CELLS)
    expect(bytes(r)).toEqual(bytes(await inProcess(setup, CELLS)))
    expect(forked).toHaveLength(2)
    expect(forked[0]).toEqual({ path: workerPath, options: { serviceName: 'EasyTune engine', stdio: 'inherit' } })
  })

  it('replaces a crashed worker and reports the crash in words', async () => {
    const { fork, forked } = fakeUtilityFork({ ...process.env, EASYTUNE_TEST_CRASH_AFTER: '2' })
    const setup = kthSetup()
    const crashes: CrashInfo[] = []
    const r = await new EnginePool({ workers: 1, workerPath, fork: utilityFork(fork) }).run(setup, CELLS, { onWorkerCrash: (c) => crashes.push(c) })
    expect(bytes(r)).toEqual(bytes(await inProcess(setup, CELLS)))
    expect(crashes).toHaveLength(1)
    expect(crashes[0]!.message).toMatch(/^engine worker 1 \(pid \d+\) stopped unexpectedly \(exit code 1\); its cell .* was restarted on a fresh worker$/)
    expect(forked).toHaveLength(2)
  })
})
