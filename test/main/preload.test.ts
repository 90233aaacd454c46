// The preload exposes exactly the contract's operations as window.easytune (the list comes from
// main, derived from the contract: describeContract), each making exactly one ipcRenderer.invoke
// on its own channel (no generic send/invoke reaches the page), plus one subscription per stream;
// dropped files go as paths read with webUtils; the streams' events arrive on the MessagePort main
// hands over, and worker progress is stamped with the last campaign's id.
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { CONTRACT, OPERATION_NAMES, STREAM_NAMES, subscribeName, type EasyTuneApi } from '../../src/shared/contract'
import { describeContract } from '../../src/main/ipc'

const exposed: { key: string; api: Record<string, unknown> }[] = []
const onHandlers = new Map<string, (event: unknown, ...args: unknown[]) => void>()
const invoke = vi.fn(async (..._a: unknown[]): Promise<unknown> => ({ handle: 'h1', name: 'log.swf' }))
const sendSync = vi.fn((channel: string) => (channel === 'easytune:operations' ? describeContract() : undefined))
const getPathForFile = vi.fn((f: { path?: string }) => f.path ?? '')

vi.mock('electron', () => {
  const e = {
    contextBridge: { exposeInMainWorld: (key: string, api: Record<string, unknown>) => { exposed.push({ key, api }) } },
    ipcRenderer: { invoke, sendSync, on: (ch: string, h: (event: unknown, ...args: unknown[]) => void) => { onHandlers.set(ch, h) } },
    webUtils: { getPathForFile },
  }
  return { default: e, ...e }
})

await import('../../src/preload/index')
const api = exposed[0]!.api as unknown as EasyTuneApi
const SUBSCRIPTIONS = STREAM_NAMES.map(subscribeName)

beforeEach(() => { invoke.mockClear() })

describe('window.easytune', () => {
  it('is exposed once, as "easytune", with exactly the contract\'s operations and one subscription per stream', () => {
    expect(sendSync).toHaveBeenCalledTimes(1)
    expect(exposed).toHaveLength(1)
    expect(exposed[0]!.key).toBe('easytune')
    expect(Object.keys(exposed[0]!.api).sort()).toEqual([...OPERATION_NAMES, ...SUBSCRIPTIONS].sort())
    expect(SUBSCRIPTIONS).toEqual(['onCampaignEvent', 'onImportEvent', 'onAnalysisEvent'])
    for (const v of Object.values(exposed[0]!.api)) expect(typeof v).toBe('function')
    for (const k of ['send', 'invoke', 'on', 'ipcRenderer', 'sendSync', 'call']) expect(exposed[0]!.api).not.toHaveProperty(k)
  })

  it.each(OPERATION_NAMES.filter((m) => CONTRACT[m].kind !== 'file-in'))('%s makes one invoke on easytune:%s with its arguments as they are', async (method) => {
    await (api as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method]!('a', 'b', 'c')
    expect(invoke.mock.calls).toEqual([[`easytune:${method}`, 'a', 'b', 'c']])
  })

  it.each(OPERATION_NAMES.filter((m) => CONTRACT[m].kind === 'file-in'))('%s (a file-in operation) sends the File\'s path from webUtils, never the File', async (method) => {
    const progress = vi.fn()
    const file = { name: 'x', size: 42, path: '/home/u/x' } as unknown as File
    await (api as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method]!(file, progress)
    expect(invoke.mock.calls).toEqual([[`easytune:${method}`, { path: '/home/u/x' }]])
    expect(progress).toHaveBeenCalledWith(42, 42)
  })

  it('sends a dropped file\'s path (from webUtils) and returns main\'s handle', async () => {
    const file = { name: 'log.swf', size: 42, path: '/home/u/log.swf' } as unknown as File
    await expect(api.addLogFile(file)).resolves.toEqual({ handle: 'h1', name: 'log.swf' })
    await expect(api.addLogFile({ name: 'made-up', size: 1 } as unknown as File)).rejects.toThrow(/no location on disk/)
    expect(invoke).toHaveBeenCalledTimes(1)
  })

  it('opens a dropped project by path, or asks main for its dialog', async () => {
    await api.openProject({ path: '/p/x.easytune' } as unknown as File)
    await api.openProject()
    expect(invoke.mock.calls).toEqual([['easytune:openProject', { path: '/p/x.easytune' }], ['easytune:openProject']])
  })

  it('passes importLog\'s tracking as the third argument of its one invoke', async () => {
    await api.importLog({ kind: 'sample' }, {}, { importId: 'imp-1' })
    await api.importLog({ kind: 'dialog' }, { procs: 8 })
    expect(invoke.mock.calls).toEqual([
      ['easytune:importLog', { kind: 'sample' }, {}, { importId: 'imp-1' }],
      ['easytune:importLog', { kind: 'dialog' }, { procs: 8 }],
    ])
  })

  it('starts an analysis with one invoke on its own channel and returns main\'s id', async () => {
    invoke.mockResolvedValueOnce({ analysisId: 'a1' })
    const req = { workloadId: 'w1', kind: 'online' as const, options: { strategies: ['full' as const], period: 'week' as const, weeks: 26, traces: 3, seed: 1 } }
    await expect(api.startAnalysis(req)).resolves.toEqual({ analysisId: 'a1' })
    expect(invoke.mock.calls).toEqual([['easytune:startAnalysis', req]])
  })

  it('keeps only the message of an error from main', async () => {
    invoke.mockRejectedValueOnce(new Error("Error invoking remote method 'easytune:previewSplit': ApiInputError: the split fraction must be between 0 and 1, got 2"))
    await expect(api.previewSplit('w1', { kind: 'fraction', fraction: 2 })).rejects.toThrow(/^the split fraction must be between 0 and 1, got 2$/)
  })

  it('asks for the events port once and dispatches each stream\'s events to its own listeners', async () => {
    const a = vi.fn()
    const b = vi.fn()
    const imports = vi.fn()
    const analyses = vi.fn()
    const offA = api.onCampaignEvent(a)
    api.onCampaignEvent(b)
    api.onImportEvent(imports)
    api.onAnalysisEvent(analyses)
    expect(invoke.mock.calls).toEqual([['easytune:events']])
    const port = { onmessage: null as null | ((e: { data: unknown }) => void), start: vi.fn(), close: vi.fn() }
    onHandlers.get('easytune:events-port')!({ ports: [port] })
    expect(port.start).toHaveBeenCalled()
    const ev = { campaignId: 'c1', kind: 'warning', message: 'worker 1 stopped; its cell runs again on a new worker' }
    port.onmessage!({ data: { stream: 'campaign', event: ev } })
    expect(a).toHaveBeenCalledWith(ev)
    expect(b).toHaveBeenCalledWith(ev)
    offA()
    port.onmessage!({ data: { stream: 'campaign', event: ev } })
    expect(a).toHaveBeenCalledTimes(1)
    expect(b).toHaveBeenCalledTimes(2)
    const imp = { importId: 'imp-1', kind: 'progress', bytesRead: 1, totalBytes: 2, jobsRead: 3 }
    port.onmessage!({ data: { stream: 'import', event: imp } })
    const ana = { analysisId: 'a5', kind: 'progress', analysis: 'online', fraction: 0.5 }
    port.onmessage!({ data: { stream: 'analysis', event: ana } })
    expect(imports.mock.calls).toEqual([[imp]])
    expect(analyses.mock.calls).toEqual([[ana]])
    expect(b).toHaveBeenCalledTimes(2)
    // Malformed messages reach nobody.
    for (const data of [ev, { stream: 'nope', event: ev }, { stream: 'campaign' }, { stream: 'campaign', event: 'x' }, null]) port.onmessage!({ data })
    expect(b).toHaveBeenCalledTimes(2)
    // A reload hands a new port: the old one is closed.
    const port2 = { onmessage: null, start: vi.fn(), close: vi.fn() }
    onHandlers.get('easytune:events-port')!({ ports: [port2] })
    expect(port.close).toHaveBeenCalled()
  })

  it('turns a worker port\'s messages into worker-progress campaign events, stamped with the last campaign', () => {
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
    events.onmessage!({ data: { stream: 'campaign', event: { campaignId: 'c9', kind: 'warning', message: 'w' } } })
    wp.onmessage!({ data: msg })
    wp.onmessage!({ data: { ...msg, samplesDone: '25' } })
    wp.onmessage!({ data: { type: 'setup', setup: {} } })
    expect(got).toEqual([{ campaignId: 'c9', kind: 'warning', message: 'w' }, { campaignId: 'c9', ...msg }])
    // An import's or an analysis's events are on their own streams: worker progress keeps c9.
    events.onmessage!({ data: { stream: 'import', event: { importId: 'imp-1', kind: 'progress', bytesRead: 1, totalBytes: 2, jobsRead: 3 } } })
    events.onmessage!({ data: { stream: 'analysis', event: { analysisId: 'a5', kind: 'progress', analysis: 'online', fraction: 0.5 } } })
    wp.onmessage!({ data: msg })
    expect(got.slice(2)).toEqual([{ campaignId: 'c9', ...msg }])
    // A new campaign's event re-stamps.
    events.onmessage!({ data: { stream: 'campaign', event: { campaignId: 'c10', kind: 'cancelled' } } })
    wp.onmessage!({ data: msg })
    expect(got.slice(4)).toEqual([{ campaignId: 'c10', ...msg }])
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
