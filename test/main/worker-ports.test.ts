// Each engine worker's per-sample progress goes from its utility process straight to the window
// on a MessagePort of its own (src/main/worker-ports.ts). First on fakes (a fake utilityProcess,
// a fake MessageChannelMain, a fake WebContents): one channel per forked worker, one end to the
// worker and one to the window, fresh ports on a reload, the window's end closed when the worker
// exits. Then end to end: real worker processes (a Node fork with the parentPort shim standing in
// for a utility process), real Node MessageChannels standing in for MessageChannelMain, the real
// pool, main's WorkerPorts and EventPorts, and the real preload: 'worker-progress' events reach the
// page's listeners while main's handlers never see a sample.
import { fork as forkChild } from 'node:child_process'
import { EventEmitter } from 'node:events'
import type { MessagePort } from 'node:worker_threads'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { CampaignEvent, EasyTuneApi } from '../../src/shared/api'
import type { FromWorker } from '../../src/engine/protocol'
import { buildWorker, CELLS, kthSetup, removeWorker, SHIM_URL } from '../engine/support'
import { FakeContents } from './fake-electron'

const exposed: Record<string, unknown>[] = []
const rendererHandlers = new Map<string, (event: { ports: unknown[] }, ...args: unknown[]) => void>()
const invoke = vi.fn(async (..._a: unknown[]): Promise<unknown> => undefined)

vi.mock('electron', async () => {
  const contract = (await import('../../src/main/ipc')).describeContract()
  const e = {
    ...(await import('./fake-electron')).electronModule(),
    MessageChannelMain: (await import('node:worker_threads')).MessageChannel,
    contextBridge: { exposeInMainWorld: (_key: string, api: Record<string, unknown>) => { exposed.push(api) } },
    ipcRenderer: { invoke, sendSync: () => contract, on: (ch: string, h: (event: { ports: unknown[] }, ...args: unknown[]) => void) => { rendererHandlers.set(ch, h) } },
    webUtils: { getPathForFile: () => '' },
  }
  return { default: e, ...e }
})

const electron = await import('electron')
const { WorkerPorts, WORKER_PORT_CHANNEL, WORKER_PORT_CLOSED_CHANNEL } = await import('../../src/main/worker-ports')
const { EventPorts } = await import('../../src/main/events-port')
const { utilityFork } = await import('../../src/main/engine-fork')
const { EnginePool } = await import('../../src/engine/pool')
const { cellLabel } = await import('../../src/engine/label')

class FakeUtility extends EventEmitter {
  pid: number | undefined = 4242
  postMessage = vi.fn()
  kill = vi.fn(() => true)
}
const fakePort = () => ({ postMessage: vi.fn(), close: vi.fn(), start: vi.fn() })
function fakeChannels() {
  const made: { port1: ReturnType<typeof fakePort>; port2: ReturnType<typeof fakePort> }[] = []
  return { made, create: () => { const c = { port1: fakePort(), port2: fakePort() }; made.push(c); return c } }
}

describe('WorkerPorts on fakes', () => {
  it('creates a channel per forked worker: one end to the worker, the other to the window', () => {
    const { made, create } = fakeChannels()
    const ports = new WorkerPorts(create)
    const w = new FakeContents()
    ports.attach(w)
    const children = [new FakeUtility(), new FakeUtility()]
    const fork = utilityFork(vi.fn(() => children.shift()!), ports)
    const a = children[0]!, b = children[1]!
    const handle = fork('/app/out/main/engine-worker.js', { worker: 2 })
    fork('/app/out/main/engine-worker.js') // no pool number: numbered by fork order
    expect(made).toHaveLength(2)
    expect(a.postMessage.mock.calls).toEqual([[{ type: 'progress-port', worker: 2 }, [made[0]!.port1]]])
    expect(b.postMessage.mock.calls).toEqual([[{ type: 'progress-port', worker: 2 }, [made[1]!.port1]]])
    expect(w.posted).toEqual([
      { channel: WORKER_PORT_CHANNEL, message: { worker: 2, port: 1 }, transfer: [made[0]!.port2] },
      { channel: WORKER_PORT_CHANNEL, message: { worker: 2, port: 2 }, transfer: [made[1]!.port2] },
    ])
    // The pool's own messages still go to the worker as before, without a transfer list.
    handle.send({ type: 'exit' })
    expect(a.postMessage).toHaveBeenLastCalledWith({ type: 'exit' })
    // Main posts nothing on either end itself.
    for (const c of made) for (const p of [c.port1, c.port2]) expect(p.postMessage).not.toHaveBeenCalled()
  })

  it('plumbs a worker forked before the page subscribed, and gives every live worker fresh ports on a reload', () => {
    const { made, create } = fakeChannels()
    const ports = new WorkerPorts(create)
    const child = new FakeUtility()
    ports.add(child, 1)
    expect(made).toHaveLength(0)
    expect(child.postMessage).not.toHaveBeenCalled()
    const w = new FakeContents()
    ports.attach(w)
    ports.attach(w) // the page reloaded and subscribed again
    expect(made).toHaveLength(2)
    expect(child.postMessage.mock.calls.map((c) => c[1])).toEqual([[made[0]!.port1], [made[1]!.port1]])
    expect(w.posted.map((p) => p.message)).toEqual([{ worker: 1, port: 1 }, { worker: 1, port: 2 }])
    expect(w.listenerCount('destroyed')).toBe(1)
  })

  it('tells the window to close a worker\'s port when the worker exits; dead workers get no port again', () => {
    const { made, create } = fakeChannels()
    const ports = new WorkerPorts(create)
    const w = new FakeContents()
    ports.attach(w)
    const one = new FakeUtility(), two = new FakeUtility()
    ports.add(one, 1)
    ports.add(two, 2)
    one.emit('exit', 1)
    expect(w.posted.at(-1)).toEqual({ channel: WORKER_PORT_CLOSED_CHANNEL, message: { port: 1 }, transfer: [] })
    expect(ports.workers).toBe(1)
    ports.attach(w)
    expect(made).toHaveLength(3)
    expect(one.postMessage).toHaveBeenCalledTimes(1)
    expect(two.postMessage).toHaveBeenCalledTimes(2)
    two.emit('exit', 0)
    expect(w.posted.at(-1)).toEqual({ channel: WORKER_PORT_CLOSED_CHANNEL, message: { port: 3 }, transfer: [] })
    expect(ports.workers).toBe(0)
  })

  it('sends nothing to a window that is gone, and closes both ends when the worker cannot take its port', () => {
    const { made, create } = fakeChannels()
    const ports = new WorkerPorts(create)
    const w = new FakeContents()
    ports.attach(w)
    const dying = new FakeUtility()
    dying.postMessage.mockImplementation(() => { throw new Error('process gone') })
    ports.add(dying, 1)
    expect(made[0]!.port1.close).toHaveBeenCalled()
    expect(made[0]!.port2.close).toHaveBeenCalled()
    expect(w.posted).toEqual([])
    w.emit('destroyed')
    const late = new FakeUtility()
    ports.add(late, 2)
    late.emit('exit', 0)
    expect(made).toHaveLength(1)
    expect(w.posted).toEqual([])
  })
})

/** utilityProcess.fork played by a Node child with the parentPort shim; a port transferred with
 * a message is kept here and what the worker posts on the shim's stand-in goes out on it. */
function bridgedUtilityFork(fromWorker: FromWorker[]) {
  return (path: string) => {
    const child = forkChild(path, [], { serialization: 'advanced', execArgv: ['--import', SHIM_URL], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    const u = new EventEmitter() as EventEmitter & { pid: number | undefined; postMessage(m: unknown, t?: unknown[]): void; kill(): boolean }
    let port: MessagePort | null = null
    u.pid = undefined // like Electron: no pid until the process has spawned (its first message)
    u.postMessage = (m, transfer) => {
      if (transfer?.[0]) { port?.close(); port = transfer[0] as MessagePort }
      if (child.connected) child.send(m as never, () => {})
    }
    u.kill = () => child.kill()
    child.on('message', (m: { __port?: unknown; __portClosed?: boolean }) => {
      u.pid = child.pid
      if (m.__port) port?.postMessage(m.__port)
      else if (!m.__portClosed) { fromWorker.push(m as FromWorker); u.emit('message', m) }
    })
    child.on('error', () => {})
    child.once('exit', (code) => { port?.close(); u.emit('exit', code ?? 1) })
    return u
  }
}

describe('worker progress end to end: worker process -> its port -> preload -> listeners', () => {
  let workerPath = ''
  beforeAll(async () => { workerPath = await buildWorker() })
  afterAll(() => removeWorker(workerPath))

  it('reaches the page\'s listeners as worker-progress events, with no main handler involved', async () => {
    await import('../../src/preload/index')
    const api = exposed[0] as unknown as EasyTuneApi
    const events: CampaignEvent[] = []
    api.onCampaignEvent((e) => events.push(e))
    expect(invoke.mock.calls).toEqual([['easytune:events']])

    // What main does when that call arrives (index.ts: openEventsPort), with a window whose
    // postMessage hands the transferred ports to the preload as Electron would.
    const toPreload: MessagePort[] = []
    const window = new FakeContents()
    window.postMessage = (channel: string, message: unknown, transfer: unknown[] = []) => {
      const ports = transfer as MessagePort[]
      for (const p of ports) { vi.spyOn(p, 'close'); toPreload.push(p) }
      rendererHandlers.get(channel)!({ ports }, message)
    }
    const eventPorts = new EventPorts()
    const workerPorts = new WorkerPorts()
    eventPorts.open(window)
    workerPorts.attach(window)

    const fromWorker: FromWorker[] = []
    const rows: { pid: number | null; cell: string | null }[] = []
    const pool = new EnginePool({ workers: 2, workerPath, fork: utilityFork(bridgedUtilityFork(fromWorker), workerPorts) })
    await pool.run(kthSetup(40), CELLS, {
      onProgress: (p) => {
        const perWorker = p.perWorker.map((x) => ({ worker: x.worker, pid: x.pid ?? null, state: x.state, cell: x.cell }))
        rows.push(...perWorker.filter((x) => x.state === 'busy'))
        eventPorts.emit({ stream: 'campaign', event: { campaignId: 'c1', kind: 'progress', cellsDone: p.cellsDone, cellsTotal: p.cellsTotal, cachedCells: 0, samplesDone: p.samplesDone, samplesTotal: p.samplesTotal, etaSeconds: null, perWorker } })
      },
    })
    await vi.waitFor(() => expect(events.some((e) => e.kind === 'progress' && e.cellsDone === 4)).toBe(true))

    const fine = events.filter((e) => e.kind === 'worker-progress')
    expect(fine.length).toBeGreaterThanOrEqual(CELLS.length * 2) // each cell: its first week and week 25
    const labels = CELLS.map(cellLabel)
    const pids = new Set<number>()
    for (const e of fine) {
      expect(e).toMatchObject({ campaignId: 'c1', samples: 40 })
      expect([1, 2]).toContain(e.worker)
      expect(labels).toContain(e.cell)
      pids.add(e.pid)
    }
    // Every worker that ran a cell reported through its own port, under its own number and pid.
    // (Usually both workers take cells; on a loaded machine one may finish all four while the
    // other is still reading the log: CI saw that once, so the test no longer needs both.)
    const pidOf = new Map<number, number>()
    for (const e of fine) {
      if (!pidOf.has(e.worker)) pidOf.set(e.worker, e.pid)
      expect(e.pid, `worker ${e.worker}`).toBe(pidOf.get(e.worker))
    }
    expect(new Set(pidOf.values()).size).toBe(pidOf.size)
    // The pool's rows name the same processes (pid known once the worker said 'ready'), so the page
    // can match a row with its worker's own stream, and every worker busy in a row reported.
    expect(rows.length).toBeGreaterThan(0)
    expect(pids).toEqual(new Set(rows.map((r) => r.pid)))
    // Main heard of each cell's progress only at its quarters, and never through an IPC handler.
    const coarse = fromWorker.filter((m) => m.type === 'progress')
    expect(coarse.length).toBeGreaterThan(0)
    expect(coarse.every((m) => m.type === 'progress' && [10, 20, 30].includes(m.samplesDone))).toBe(true)
    const ipcMain = electron.ipcMain as unknown as { handle: ReturnType<typeof vi.fn>; on: ReturnType<typeof vi.fn> }
    expect(ipcMain.handle).not.toHaveBeenCalled()
    expect(ipcMain.on).not.toHaveBeenCalled()
    expect(invoke).toHaveBeenCalledTimes(1)

    // Every worker has exited: the preload closed its end of each worker's port.
    expect(workerPorts.workers).toBe(0)
    const workerEnds = toPreload.slice(1)
    expect(workerEnds).toHaveLength(2)
    for (const p of workerEnds) expect(p.close).toHaveBeenCalled()
    toPreload[0]!.close()
    eventPorts.close(window.id)
  }, 60_000)
})
