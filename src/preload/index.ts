// The preload: implements the renderer's typed API (src/shared/api.ts) over IPC and exposes it as
// `window.easytune`. Runs sandboxed (CommonJS bundle out/preload/index.cjs) and imports only
// 'electron'. Every method is exactly one ipcRenderer call on its own channel 'easytune:<method>';
// no generic send/invoke and no ipcRenderer object ever reaches the page.
//
// - addLogFile(file): the path of a dropped / picked File is read here with webUtils and sent to
//   main, which answers with an opaque handle: the page never sees the path.
// - onCampaignEvent(listener): on the first subscription, asks main for a MessagePort
//   ('easytune:onCampaignEvent'); main transfers one end of a MessageChannelMain to this frame and
//   posts campaign events on it (and tracked imports' 'import-progress'). This preload keeps the
//   port and dispatches to the listeners.
//   Each engine worker's per-sample progress comes on a port of its own, straight from the worker's
//   utility process ('easytune:worker-port', src/main/worker-ports.ts): its messages become
//   'worker-progress' events for the same listeners, stamped with the campaign id of the last
//   event from main (the workers do not know it). 'easytune:worker-port-closed' closes the port
//   of a worker that exited.
// - Menu commands (File > Open, Save, Import log…, Export…) arrive on 'easytune:menu' and are
//   re-dispatched to the page as a DOM event `easytune-menu` whose `detail` is the command name
//   (a string); see src/main/menu.ts for the list.
import { contextBridge, ipcRenderer, webUtils } from 'electron'
import type { CampaignEvent, EasyTuneApi } from '../shared/api'

/** The DOM MessagePort the preload receives (typed locally: the main tsconfig has no DOM lib). */
interface EventsPort {
  onmessage: ((e: { data: unknown }) => void) | null
  start(): void
  close(): void
}

const listeners = new Set<(event: CampaignEvent) => void>()
let port: EventsPort | null = null
let portRequested = false
/** The engine workers' progress ports, by main's serial number for each. */
const workerPorts = new Map<number, EventsPort>()
let lastCampaignId: string | null = null
/** Ids of the analyses this page started (startAnalysis): not campaigns (see isOwnIdEvent). */
const analysisIds = new Set<string>()

function dispatch(event: CampaignEvent): void {
  for (const l of [...listeners]) {
    try {
      l(event)
    } catch (err) {
      console.error('EasyTune: a campaign event listener threw', err)
    }
  }
}

ipcRenderer.on('easytune:events-port', (event) => {
  const p = event.ports[0] as unknown as EventsPort | undefined
  if (!p) return
  port?.close()
  port = p
  lastCampaignId = null // a new channel from main: its next event names the campaign
  p.onmessage = (e) => {
    const data = e.data as { campaignId?: unknown; kind?: unknown } | null
    // An import's or an analysis's events name it, not a campaign: they must not re-stamp worker
    // progress (an analysis's worker posts none: its progress comes from main as 'analysis-progress').
    if (typeof data?.campaignId === 'string' && !isOwnIdEvent(data)) lastCampaignId = data.campaignId
    dispatch(e.data as CampaignEvent)
  }
  p.start()
})

ipcRenderer.on('easytune:worker-port', (event, info: unknown) => {
  const p = event.ports[0] as unknown as EventsPort | undefined
  const id = portId(info)
  if (!p || id === null) return
  workerPorts.get(id)?.close()
  workerPorts.set(id, p)
  p.onmessage = (e) => {
    const ev = workerProgress(e.data)
    if (ev) dispatch(ev)
  }
  p.start()
})

ipcRenderer.on('easytune:worker-port-closed', (_event, info: unknown) => {
  const id = portId(info)
  if (id === null) return
  workerPorts.get(id)?.close()
  workerPorts.delete(id)
})

/** Events whose id is not a campaign's: an import's, or an analysis's (its 'error' / 'cancelled'
 * are known by the id startAnalysis returned). */
function isOwnIdEvent(data: { campaignId?: unknown; kind?: unknown }): boolean {
  return data.kind === 'import-progress' || data.kind === 'analysis-progress' || data.kind === 'analysis-done' || analysisIds.has(data.campaignId as string)
}

function portId(info: unknown): number | null {
  const id = (info as { port?: unknown } | null)?.port
  return typeof id === 'number' ? id : null
}

/** A worker's WorkerProgressMessage (src/engine/protocol.ts) as a campaign event; null if malformed. */
function workerProgress(data: unknown): CampaignEvent | null {
  const m = data as { kind?: unknown; worker?: unknown; pid?: unknown; cell?: unknown; samplesDone?: unknown; samples?: unknown } | null
  if (lastCampaignId === null || m?.kind !== 'worker-progress' || typeof m.cell !== 'string') return null
  const { worker, pid, samplesDone, samples } = m
  if (typeof worker !== 'number' || typeof pid !== 'number' || typeof samplesDone !== 'number' || typeof samples !== 'number') return null
  return { campaignId: lastCampaignId, kind: 'worker-progress', worker, pid, cell: m.cell, samplesDone, samples }
}

ipcRenderer.on('easytune:menu', (_event, command: unknown) => {
  // globalThis is the page's window (seen from the preload's isolated world; same DOM).
  if (typeof command === 'string') (globalThis as unknown as EventTarget).dispatchEvent(new CustomEvent('easytune-menu', { detail: command }))
})

/** One invoke; an error keeps only its own message (Electron prefixes "Error invoking remote
 * method 'easytune:x': Error: "), so the wizard can show it as is. */
function call<T>(channel: string, ...args: unknown[]): Promise<T> {
  return ipcRenderer.invoke(channel, ...args).catch((e: unknown) => {
    const message = e instanceof Error ? e.message : String(e)
    throw new Error(message.replace(/^Error invoking remote method '[^']*': (?:[A-Za-z]*Error: )?/, ''))
  }) as Promise<T>
}

function filePath(file: File): string {
  const path = webUtils.getPathForFile(file)
  if (!path) throw new Error('This file has no location on disk (only files dropped on the window or picked from the disk can be imported).')
  return path
}

const api: EasyTuneApi = {
  getAppInfo: () => call('easytune:getAppInfo'),
  addLogFile: async (file, onProgress) => {
    const r = await call<{ handle: string; name: string }>('easytune:addLogFile', filePath(file))
    // Nothing is uploaded on the desktop: the file is already "sent" once main has its handle.
    onProgress?.(file.size, file.size)
    return r
  },
  importLog: (source, options, tracking) => (tracking === undefined ? call('easytune:importLog', source, options) : call('easytune:importLog', source, options, tracking)),
  getImportReport: (workloadId) => call('easytune:getImportReport', workloadId),
  previewSplit: (workloadId, split) => call('easytune:previewSplit', workloadId, split),
  estimateCampaign: (request) => call('easytune:estimateCampaign', request),
  startCampaign: (request) => call('easytune:startCampaign', request),
  startAnalysis: async (request) => {
    const r = await call<{ campaignId: string }>('easytune:startAnalysis', request)
    if (typeof r?.campaignId === 'string') analysisIds.add(r.campaignId)
    return r
  },
  cancel: (campaignId) => call('easytune:cancel', campaignId),
  onCampaignEvent: (listener) => {
    listeners.add(listener)
    if (!portRequested) {
      portRequested = true
      call('easytune:onCampaignEvent').catch((e: unknown) => {
        portRequested = false
        console.error('EasyTune: could not open the campaign event channel', e)
      })
    }
    return () => { listeners.delete(listener) }
  },
  exportConfig: (result, target, options) => call('easytune:exportConfig', result, target, options),
  saveText: (suggestedName, content, mime) => call('easytune:saveText', suggestedName, content, mime),
  generateReport: (result) => call('easytune:generateReport', result),
  saveProject: (state, options) => call('easytune:saveProject', state, options),
  openProject: async (file) => call('easytune:openProject', file ? { path: filePath(file) } : undefined),
  autosave: (state) => call('easytune:autosave', state),
  restoreLastProject: () => call('easytune:restoreLastProject'),
  getSettings: () => call('easytune:getSettings'),
  setSettings: (settings) => call('easytune:setSettings', settings),
}

contextBridge.exposeInMainWorld('easytune', api)
