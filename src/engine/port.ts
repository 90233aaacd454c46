// The worker side of the engine's message channel, whichever way the worker was started:
//   - Electron utilityProcess: `process.parentPort` (an EventEmitter delivering `{ data, ports }`,
//     replying with `postMessage`); `ports` holds the MessagePortMain objects main transferred
//     with the message (the progress port, protocol.ts);
//   - Node `child_process.fork(..., { serialization: 'advanced' })`: `process.on('message')` and
//     `process.send`.
// No `electron` import here or anywhere in the engine: importing it in plain Node throws.
import type { FromWorker, ToWorker } from './protocol'
import type { ProgressPort } from './progress'

export type Transport = 'parentPort' | 'process'

export interface WorkerPort {
  readonly transport: Transport
  post(msg: FromWorker): void
  /** `ports`: the ports transferred with the message (utilityProcess only; empty otherwise). */
  onMessage(cb: (msg: ToWorker, ports: ProgressPort[]) => void): void
  /** The parent went away (fork mode only: Electron kills a utility process with its parent). */
  onDisconnect(cb: () => void): void
}

/** The shape of Electron's `process.parentPort` that we use (not in @types/node). */
interface ParentPortLike {
  on(event: 'message', cb: (e: { data: unknown; ports?: unknown[] }) => void): unknown
  postMessage(msg: unknown): void
}

export function workerPort(proc: NodeJS.Process = process): WorkerPort {
  const parentPort = (proc as unknown as { parentPort?: ParentPortLike }).parentPort
  if (parentPort) {
    return {
      transport: 'parentPort',
      post: (msg) => parentPort.postMessage(msg),
      onMessage: (cb) => { parentPort.on('message', (e) => cb(e.data as ToWorker, (e.ports ?? []) as ProgressPort[])) },
      onDisconnect: () => {},
    }
  }
  if (typeof proc.send !== 'function') {
    throw new Error('the engine worker must be started by the engine pool (child_process.fork or Electron utilityProcess), not run directly')
  }
  return {
    transport: 'process',
    post: (msg) => {
      // A closed channel means the parent is gone; the 'disconnect' handler ends the process.
      if (proc.connected) proc.send!(msg, undefined, undefined, () => {})
    },
    onMessage: (cb) => { proc.on('message', (m) => cb(m as ToWorker, [])) },
    onDisconnect: (cb) => { proc.on('disconnect', cb) },
  }
}
