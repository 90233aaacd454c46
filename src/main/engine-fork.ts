// The engine pool's ForkWorker for the desktop app: each engine worker is an Electron utility
// process running out/main/engine-worker.js (the same entry the CLI forks as a Node child; its
// port adapter picks process.parentPort). Mapping to the pool's WorkerHandle:
//   send      -> child.postMessage (structured clone, like fork's 'advanced' serialization)
//   onMessage <- child.on('message', data)   (plain data, not a MessageEvent, on this side)
//   onExit    <- child.once('exit', code)    (utilityProcess reports no signal: always null)
//   kill      -> child.kill()
// A worker that crashes (V8 fatal error, killed, out of memory) ends with 'exit' like any other;
// the worker lifecycle (src/engine/lifecycle.ts) reports it in words and re-runs its unit on a fresh worker.
// With `ports` (worker-ports.ts), every forked worker also gets a MessagePort to the window for its
// per-sample progress, named by the pool's worker number.
import { utilityProcess } from 'electron'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { FromWorker } from '../engine/protocol'
import type { ForkWorker, WorkerHandle } from '../engine/pool'
import type { PortLike } from './events-port'
import type { WorkerPorts } from './worker-ports'

export const ENGINE_SERVICE_NAME = 'EasyTune engine'

/** The part of Electron's UtilityProcess the adapter uses (a fake in tests). */
export interface UtilityChild {
  readonly pid: number | undefined
  postMessage(message: unknown, transfer?: PortLike[]): void
  on(event: 'message', cb: (message: unknown) => void): unknown
  on(event: 'error', cb: (type: string, location: string) => void): unknown
  once(event: 'exit', cb: (code: number) => void): unknown
  kill(): boolean
}
export type UtilityFork = (modulePath: string, args: string[], options: { serviceName: string; stdio?: 'inherit' | 'ignore' }) => UtilityChild

/** out/main/engine-worker.js, built beside main (electron.vite.config.ts). In a packaged app the
 * worker and its chunks are unpacked from app.asar (build/electron-builder.yml: asarUnpack), so
 * the utility process loads plain files from disk. */
export function engineWorkerPath(mainDir: string = __dirname, exists: (p: string) => boolean = existsSync): string {
  const path = join(mainDir, 'engine-worker.js')
  const unpacked = path.replace(/\.asar([\\/])/, '.asar.unpacked$1')
  return unpacked !== path && exists(unpacked) ? unpacked : path
}

export function wrapUtilityChild(child: UtilityChild): WorkerHandle {
  let exited = false
  child.once('exit', () => { exited = true })
  child.on('error', (type, location) => {
    console.error(`EasyTune: engine worker ${child.pid ?? '?'} hit a fatal error (${type} at ${location}); it will be replaced.`)
  })
  return {
    get pid() { return child.pid },
    send: (msg) => {
      if (exited) return // a message to a dead worker: its exit is what the lifecycle reports
      try {
        child.postMessage(msg)
      } catch { /* the process is going away; 'exit' follows */ }
    },
    onMessage: (cb) => { child.on('message', (m) => cb(m as FromWorker)) },
    onExit: (cb) => { child.once('exit', (code) => cb(typeof code === 'number' ? code : null, null)) },
    kill: () => {
      if (exited) return
      try {
        child.kill()
      } catch { /* already gone */ }
    },
  }
}

/** The ForkWorker the Backend hands to the engine pool in the desktop app. */
export function utilityFork(fork: UtilityFork = (p, a, o) => utilityProcess.fork(p, a, o), ports?: Pick<WorkerPorts, 'add'>): ForkWorker {
  let forks = 0
  return (workerPath, info) => {
    const child = fork(workerPath, [], { serviceName: ENGINE_SERVICE_NAME, stdio: 'inherit' })
    forks++
    ports?.add(child, info?.worker ?? forks)
    return wrapUtilityChild(child)
  }
}
