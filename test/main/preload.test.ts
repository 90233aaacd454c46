// The preload exposes exactly the typed API as window.easytune: one function per EasyTuneApi
// method, each making exactly one ipcRenderer.invoke on its own channel (no generic send/invoke
// reaches the page); dropped files go as paths read with webUtils and come back as handles;
// campaign events arrive on the MessagePort main hands over.
import { beforeEach, describe, expect, it, vi } from 'vitest'

const exposed: { key: string; api: Record<string, unknown> }[] = []
const onHandlers = new Map<string, (event: unknown, ...args: unknown[]) => void>()
const invoke = vi.fn(async (..._a: unknown[]): Promise<unknown> => ({ handle: 'h1', name: 'log.swf' }))
const getPathForFile = vi.fn((f: { path?: string }) => f.path ?? '')

vi.mock('electron', () => {
  const e = {
    contextBridge: { exposeInMainWorld: (key: string, api: Record<string, unknown>) => { exposed.push({ key, api }) } },
    ipcRenderer: { invoke, on: (ch: string, h: (event: unknown, ...args: unknown[]) => void) => { onHandlers.set(ch, h) } },
    webUtils: { getPathForFile },
  }
  return { default: e, ...e }
})

await import('../../src/preload/index')
const { API_METHODS } = await import('./api-methods')
const api = exposed[0]!.api as unknown as import('../../src/shared/api').EasyTuneApi

beforeEach(() => { invoke.mockClear() })

describe('window.easytune', () => {
  it('is exposed once, as "easytune", with exactly the API methods', () => {
    expect(exposed).toHaveLength(1)
    expect(exposed[0]!.key).toBe('easytune')
    expect(Object.keys(exposed[0]!.api).sort()).toEqual([...API_METHODS].sort())
    for (const v of Object.values(exposed[0]!.api)) expect(typeof v).toBe('function')
    for (const k of ['send', 'invoke', 'on', 'ipcRenderer', 'sendSync']) expect(exposed[0]!.api).not.toHaveProperty(k)
  })

  it.each(API_METHODS.filter((m) => m !== 'onCampaignEvent' && m !== 'addLogFile' && m !== 'openProject'))('%s makes one invoke on easytune:%s', async (method) => {
    await (api as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method]!('a', 'b', 'c')
    expect(invoke).toHaveBeenCalledTimes(1)
    expect(invoke.mock.calls[0]![0]).toBe(`easytune:${method}`)
  })

  it('sends a dropped file\'s path (from webUtils) and returns main\'s handle', async () => {
    const progress = vi.fn()
    const file = { name: 'log.swf', size: 42, path: '/home/u/log.swf' } as unknown as File
    await expect(api.addLogFile(file, progress)).resolves.toEqual({ handle: 'h1', name: 'log.swf' })
    expect(invoke.mock.calls).toEqual([['easytune:addLogFile', '/home/u/log.swf']])
    expect(progress).toHaveBeenCalledWith(42, 42)
    await expect(api.addLogFile({ name: 'made-up', size: 1 } as unknown as File)).rejects.toThrow(/no location on disk/)
    expect(invoke).toHaveBeenCalledTimes(1)
  })

  it('opens a dropped project by path, or asks main for its dialog', async () => {
    await api.openProject({ path: '/p/x.easytune' } as unknown as File)
    await api.openProject()
    expect(invoke.mock.calls).toEqual([['easytune:openProject', { path: '/p/x.easytune' }], ['easytune:openProject', undefined]])
  })

  it('passes importLog\'s tracking as the third argument of its one invoke (none when absent)', async () => {
    await api.importLog({ kind: 'sample' }, {}, { importId: 'imp-1' })
    await api.importLog({ kind: 'dialog' }, { procs: 8 })
    expect(invoke.mock.calls).toEqual([
      ['easytune:importLog', { kind: 'sample' }, {}, { importId: 'imp-1' }],
      ['easytune:importLog', { kind: 'dialog' }, { procs: 8 }],
    ])
  })

  it('starts an analysis with one invoke on its own channel and returns main\'s id', async () => {
    invoke.mockResolvedValueOnce({ campaignId: 'a1' })
    const req = { workloadId: 'w1', kind: 'online' as const, options: { strategies: ['full' as const], period: 'week' as const, weeks: 26, traces: 3, seed: 1 } }
    await expect(api.startAnalysis(req)).resolves.toEqual({ campaignId: 'a1' })
    expect(invoke.mock.calls).toEqual([['easytune:startAnalysis', req]])
  })

  it('keeps only the message of an error from main', async () => {
    invoke.mockRejectedValueOnce(new Error("Error invoking remote method 'easytune:previewSplit': ApiInputError: the split fraction must be between 0 and 1, got 2"))
    await expect(api.previewSplit('w1', { kind: 'fraction', fraction: 2 })).rejects.toThrow(/^the split fraction must be between 0 and 1, got 2$/)
  })

  it('asks for the events port once and dispatches port messages to the listeners', async () => {
    const a = vi.fn()
    const b = vi.fn()
    const offA = api.onCampaignEvent(a)
    api.onCampaignEvent(b)
    expect(invoke.mock.calls).toEqual([['easytune:onCampaignEvent']])
    const port = { onmessage: null as null | ((e: { data: unknown }) => void), start: vi.fn(), close: vi.fn() }
    onHandlers.get('easytune:events-port')!({ ports: [port] })
    expect(port.start).toHaveBeenCalled()
    const ev = { campaignId: 'c1', kind: 'warning', message: 'worker 1 stopped; its cell runs again on a new worker' }
    port.onmessage!({ data: ev })
    expect(a).toHaveBeenCalledWith(ev)
    expect(b).toHaveBeenCalledWith(ev)
    offA()
    port.onmessage!({ data: ev })
    expect(a).toHaveBeenCalledTimes(1)
    expect(b).toHaveBeenCalledTimes(2)
    // A reload hands a new port: the old one is closed.
    const port2 = { onmessage: null, start: vi.fn(), close: vi.fn() }
    onHandlers.get('easytune:events-port')!({ ports: [port2] })
    expect(port.close).toHaveBeenCalled()
  })

  it('turns a worker port\'s messages into worker-progress events, stamped with the current campaign', () => {
    const got: unknown[] = []
    api.onCampaignEvent((e) => got.push(e))
    const events = { onmessage: null as null | ((e: { data: unknown }) => void), start: vi.fn(), close: vi.fn() }
    onHandlers.get('easytune:events-port')!({ ports: [events] })
    const wp = { onmessage: null as null | ((e: { data: unknown }) => void), start: vi.fn(), close: vi.fn() }
    onHandlers.get('easytune:worker-port')!({ ports: [wp] }, { worker: 2, port: 7 })
    expect(wp.start).toHaveBeenCalled()
    const msg = { kind: 'worker-progress', worker: 2, pid: 4242, cell: 'EASY-SPF Θ=20 h (train)', samplesDone: 25, samples: 100 }
    wp.onmessage!({ data: msg }) // no campaign seen yet (a fresh page): nothing to attribute it to
    expect(got).toEqual([])
    events.onmessage!({ data: { campaignId: 'c9', kind: 'warning', message: 'w' } })
    wp.onmessage!({ data: msg })
    wp.onmessage!({ data: { ...msg, samplesDone: '25' } })
    wp.onmessage!({ data: { type: 'setup', setup: {} } })
    expect(got).toEqual([{ campaignId: 'c9', kind: 'warning', message: 'w' }, { campaignId: 'c9', ...msg }])
    // An import's progress is dispatched but names no campaign: worker progress keeps c9.
    const imp = { campaignId: 'imp-1', kind: 'import-progress', bytesRead: 1, totalBytes: 2, jobsRead: 3 }
    events.onmessage!({ data: imp })
    wp.onmessage!({ data: msg })
    expect(got.slice(2)).toEqual([imp, { campaignId: 'c9', ...msg }])
    // So are an analysis's events (its own id): worker progress keeps c9.
    const ana = { campaignId: 'a5', kind: 'analysis-progress', analysis: 'online', fraction: 0.5 }
    events.onmessage!({ data: ana })
    wp.onmessage!({ data: msg })
    expect(got.slice(4)).toEqual([ana, { campaignId: 'c9', ...msg }])
    expect(invoke).not.toHaveBeenCalled()
    // The worker exited: main says so and the preload closes its end (an unknown port is ignored).
    onHandlers.get('easytune:worker-port-closed')!({}, { port: 8 })
    expect(wp.close).not.toHaveBeenCalled()
    onHandlers.get('easytune:worker-port-closed')!({}, { port: 7 })
    expect(wp.close).toHaveBeenCalled()
  })

  it('re-dispatches menu commands as a DOM event on the page', () => {
    const dispatchEvent = vi.fn()
    vi.stubGlobal('dispatchEvent', dispatchEvent)
    onHandlers.get('easytune:menu')!({}, 'open-project')
    onHandlers.get('easytune:menu')!({}, { not: 'a string' })
    expect(dispatchEvent).toHaveBeenCalledTimes(1)
    const e = dispatchEvent.mock.calls[0]![0] as CustomEvent
    expect(e.type).toBe('easytune-menu')
    expect(e.detail).toBe('open-project')
    vi.unstubAllGlobals()
  })
})
