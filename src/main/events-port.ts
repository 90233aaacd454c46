// The three event streams (campaign, import, analysis) reach the renderer over one MessagePort
// per window, not over one IPC message each; each message is { stream, event } (StreamMessage of
// src/shared/contract.ts). When the page first subscribes to any stream (preload:
// 'easytune:events'), main creates a
// MessageChannelMain, transfers one end to that window (webContents.postMessage) and keeps the
// other. What main posts on it is low-rate: tracked imports' progress, analyses' progress and
// outcome, and for campaigns the cell-level events (each finished 'cell', warnings,
// then done / error / cancelled) and the pool's aggregate 'progress' (overall counts, ETA, which
// worker runs which cell), which the back end throttles (src/backend/campaigns.ts). Main has to
// post these: the pool that schedules the cells, caches them and aggregates their progress runs in
// main. The high-rate stream, each worker's progress through its cell, does not pass through main:
// every engine worker posts it to the window on a port of its own (worker-ports.ts).
import { MessageChannelMain } from 'electron'
import type { StreamMessage } from '../shared/contract'

/** The parts of MessagePortMain used here. */
export interface PortLike {
  postMessage(message: unknown): void
  close(): void
  start(): void
}
export interface ChannelLike { port1: PortLike; port2: PortLike }
/** The parts of WebContents used here. */
export interface ContentsLike {
  id: number
  postMessage(channel: string, message: unknown, transfer: PortLike[]): void
  once(event: 'destroyed', cb: () => void): unknown
}

export class EventPorts {
  private readonly ports = new Map<number, PortLike>()

  constructor(private readonly createChannel: () => ChannelLike = () => new MessageChannelMain() as unknown as ChannelLike) {}

  /** Hands a fresh port to `contents` (replacing the one it had, e.g. after a reload). */
  open(contents: ContentsLike): void {
    const had = this.ports.get(contents.id)
    had?.close()
    const { port1, port2 } = this.createChannel()
    port1.start()
    if (!had) contents.once('destroyed', () => this.close(contents.id))
    this.ports.set(contents.id, port1)
    contents.postMessage('easytune:events-port', null, [port2])
  }

  close(id: number): void {
    this.ports.get(id)?.close()
    this.ports.delete(id)
  }

  get openPorts(): number { return this.ports.size }

  /** Posts a stream's event on every window's port. */
  emit(message: StreamMessage): void {
    for (const port of this.ports.values()) {
      try {
        port.postMessage(message)
      } catch { /* a port closed under us: the window is going away */ }
    }
  }
}
