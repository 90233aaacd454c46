// The preload: builds the renderer's typed API (EasyTuneApi, derived from the contract in
// src/shared/contract.ts) over IPC and exposes it as `window.easytune`. Runs sandboxed (CommonJS
// bundle out/preload/index.cjs) and imports only 'electron' (the contract's schemas stay out of
// it: zod and core cannot be required in a sandboxed preload). So the operation list comes from
// main, once, synchronously, as it loads ('easytune:operations': [name, kind] pairs and the stream
// names, derived from the contract in main). The API is exactly the contract's operations, each
// one ipcRenderer.invoke on its own channel 'easytune:<operation>', plus one subscription per
// stream; no generic send/invoke and no ipcRenderer object ever reaches the page. Nothing here
// names an operation: the KIND decides.
//
// - 'file-in' operations (a File from the page): the File's path is read here with webUtils and
//   sent as { path }; main answers (a handle, a parsed project), so the page never sees the path.
//   With no File (optional ones), nothing is sent and main shows its open dialog.
// - Streams (onCampaignEvent, onImportEvent, onAnalysisEvent): on the first subscription to any,
//   asks main for a MessagePort ('easytune:events'); main transfers one end of a
//   MessageChannelMain to this frame and posts { stream, event } on it. This preload keeps the
//   port and dispatches each event to its stream's listeners.
//   Each engine worker's per-sample progress comes on a port of its own, straight from the worker's
//   utility process ('easytune:worker-port', src/main/worker-ports.ts): its messages become
//   'worker-progress' campaign events, stamped with the id of the last campaign event from main
//   (the workers do not know it). 'easytune:worker-port-closed' closes the port of a worker that
//   exited.
// - Menu commands (File > Open, Save, Import log…, Export…) arrive on 'easytune:menu' and are
//   re-dispatched to the page as a DOM event `easytune-menu` whose `detail` is the command name
//   (a string); see src/main/menu.ts for the list.
import { contextBridge, ipcRenderer, webUtils } from 'electron'
import type { CampaignEvent } from '../shared/api'
import type { EasyTuneApi, OperationKind, StreamEvents, StreamName } from '../shared/contract'

/** The DOM MessagePort the preload receives (typed locally: the main tsconfig has no DOM lib). */
interface EventsPort {
  onmessage: ((e: { data: unknown }) => void) | null
  start(): void
  close(): void
}

const CHANNEL_PREFIX = 'easytune:'
type Listener = (event: unknown) => void

/** The contract's operations and streams, as main describes them (ipc.ts: describeContract). */
function contract(): { operations: [string, OperationKind][]; streams: StreamName[] } {
  const d = ipcRenderer.sendSync('easytune:operations') as { operations?: unknown; streams?: unknown } | null
  const name = (x: unknown): x is string => typeof x === 'string' && /^[A-Za-z][A-Za-z0-9]{0,63}$/.test(x)
  const kinds: readonly unknown[] = ['call', 'file-in', 'save']
  const operations = Array.isArray(d?.operations) ? d.operations.filter((o): o is [string, OperationKind] => Array.isArray(o) && name(o[0]) && kinds.includes(o[1])) : []
  const streams = Array.isArray(d?.streams) ? d.streams.filter((s): s is StreamName => name(s)) : []
  return { operations, streams }
}
const { operations: OPERATIONS, streams: STREAM_NAMES } = contract()
const subscribeName = (s: string) => `on${s[0]!.toUpperCase()}${s.slice(1)}Event`
const listeners = Object.fromEntries(STREAM_NAMES.map((s) => [s, new Set<Listener>()])) as Record<StreamName, Set<Listener>>
let port: EventsPort | null = null
let portRequested = false
/** The engine workers' progress ports, by main's serial number for each. */
const workerPorts = new Map<number, EventsPort>()
let lastCampaignId: string | null = null

function dispatch<S extends StreamName>(stream: S, event: StreamEvents[S]): void {
  for (const l of [...(listeners[stream] ?? [])]) {
    try {
      l(event)
    } catch (err) {
      console.error(`EasyTune: a ${stream} event listener threw`, err)
    }
  }
}

ipcRenderer.on('easytune:events-port', (event) => {
  const p = event.ports[0] as unknown as EventsPort | undefined
  if (!p) return
  port?.close()
  port = p
  lastCampaignId = null // a new channel from main: its next campaign event names the campaign
  p.onmessage = (e) => {
    const m = e.data as { stream?: unknown; event?: unknown } | null
    const stream = m?.stream
    if (typeof stream !== 'string' || !STREAM_NAMES.includes(stream as StreamName) || typeof m?.event !== 'object' || m.event === null) return
    if (stream === 'campaign') {
      const id = (m.event as { campaignId?: unknown }).campaignId
      if (typeof id === 'string') lastCampaignId = id
    }
    dispatch(stream as StreamName, m.event as never)
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
    if (ev) dispatch('campaign', ev)
  }
  p.start()
})

ipcRenderer.on('easytune:worker-port-closed', (_event, info: unknown) => {
  const id = portId(info)
  if (id === null) return
  workerPorts.get(id)?.close()
  workerPorts.delete(id)
})

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
function call(channel: string, ...args: unknown[]): Promise<unknown> {
  return ipcRenderer.invoke(channel, ...args).catch((e: unknown) => {
    const message = e instanceof Error ? e.message : String(e)
    throw new Error(message.replace(/^Error invoking remote method '[^']*': (?:[A-Za-z]*Error: )?/, ''))
  })
}

function filePath(file: File): string {
  const path = webUtils.getPathForFile(file)
  if (!path) throw new Error('This file has no location on disk (only files dropped on the window or picked from the disk can be used).')
  return path
}

function openPort(): void {
  if (portRequested) return
  portRequested = true
  call('easytune:events').catch((e: unknown) => {
    portRequested = false
    console.error('EasyTune: could not open the event channel', e)
  })
}

const api: Record<string, unknown> = {}
for (const [name, kind] of OPERATIONS) {
  const channel = `${CHANNEL_PREFIX}${name}`
  api[name] = kind === 'file-in'
    ? async (file?: File | null, onProgress?: (sent: number, total: number) => void) => {
      const value = await (file ? call(channel, { path: filePath(file) }) : call(channel))
      // Nothing is uploaded on the desktop: the file is already "sent" once main has answered.
      if (file) onProgress?.(file.size, file.size)
      return value
    }
    : (...args: unknown[]) => call(channel, ...args)
}
for (const stream of STREAM_NAMES) {
  api[subscribeName(stream)] = (listener: Listener) => {
    listeners[stream].add(listener)
    openPort()
    return () => { listeners[stream].delete(listener) }
  }
}

contextBridge.exposeInMainWorld('easytune', api as EasyTuneApi)
