// Per-sample progress goes from each engine worker straight to the window, not through main.
// For every utility process the pool forks (engine-fork.ts calls add), main creates a
// MessageChannelMain, transfers one end to the worker (child.postMessage({ type: 'progress-port',
// worker }, [port1]): it arrives as `event.ports[0]` on the worker's process.parentPort) and the
// other to the window (webContents.postMessage('easytune:worker-port', { worker, port }, [port2])).
// The worker then posts WorkerProgressMessages on its end (src/engine/progress.ts) and the preload
// turns them into 'worker-progress' campaign events. Main never touches those messages; it only
// plumbs:
//   - a worker forked while no page listens gets its port when one does (attach);
//   - a reload (the page subscribes again: attach) gives every running worker a fresh channel,
//     and the worker closes the port it replaces;
//   - when a worker exits, main tells the window to close its end of that worker's port
//     ('easytune:worker-port-closed', { port }); the worker's end went with its process. `port` is
//     a serial number per channel, so a notice can never close a newer port of the same worker.
// Both ends are transferred, so main keeps no port objects at all. The app has one main window:
// the page that subscribed last receives the ports.
import { MessageChannelMain } from 'electron'
import type { ChannelLike, ContentsLike, PortLike } from './events-port'

export const WORKER_PORT_CHANNEL = 'easytune:worker-port'
export const WORKER_PORT_CLOSED_CHANNEL = 'easytune:worker-port-closed'

/** The parts of a UtilityProcess used here. */
export interface PortChild {
  postMessage(message: unknown, transfer?: PortLike[]): void
  once(event: 'exit', cb: (code: number) => void): unknown
}

interface Plumbed { child: PortChild; worker: number; port: number | null; window: ContentsLike | null }

export class WorkerPorts {
  private window: ContentsLike | null = null
  private readonly live = new Set<Plumbed>()
  private serial = 0

  constructor(private readonly createChannel: () => ChannelLike = () => new MessageChannelMain() as unknown as ChannelLike) {}

  /** The page in `contents` subscribed to campaign events (first load or a reload): it receives a
   * fresh port from every running worker, and from every worker forked from now on. */
  attach(contents: ContentsLike): void {
    if (this.window !== contents) contents.once('destroyed', () => { if (this.window === contents) this.window = null })
    this.window = contents
    for (const p of this.live) this.plumb(p)
  }

  /** A worker was just forked (`worker`: the pool's number for it). */
  add(child: PortChild, worker: number): void {
    const p: Plumbed = { child, worker, port: null, window: null }
    this.live.add(p)
    child.once('exit', () => {
      this.live.delete(p)
      this.unplumb(p)
    })
    this.plumb(p)
  }

  /** Workers alive (with or without a port). */
  get workers(): number { return this.live.size }

  private plumb(p: Plumbed): void {
    const window = this.window
    if (!window) return
    const { port1, port2 } = this.createChannel()
    const port = ++this.serial
    try {
      p.child.postMessage({ type: 'progress-port', worker: p.worker }, [port1])
    } catch {
      // The worker is going away ('exit' follows): no port for it.
      port1.close()
      port2.close()
      return
    }
    try {
      window.postMessage(WORKER_PORT_CHANNEL, { worker: p.worker, port }, [port2])
      p.port = port
      p.window = window
    } catch { /* the window is going away; the worker's posts on its port go nowhere */ }
  }

  private unplumb(p: Plumbed): void {
    const { port, window } = p
    p.port = null
    p.window = null
    if (port === null || !window || window !== this.window) return
    try {
      window.postMessage(WORKER_PORT_CLOSED_CHANNEL, { port }, [])
    } catch { /* the window is going away, and its ports with it */ }
  }
}
