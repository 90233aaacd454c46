// Test-only preload (`node --import`): gives a plain Node fork an Electron-like
// `process.parentPort`, so the utilityProcess branch of src/engine/port.ts runs under Vitest.
// Messages from the parent arrive as `{ data, ports }`; postMessage maps to process.send. Messages are
// queued until the entry attaches its first 'message' listener: the ESM entry loads after this
// preload, and a message emitted before that would be lost (docs/TOOLCHAIN.md §Engine workers in tests).
//
// A real MessagePort cannot cross child_process IPC, so a { type: 'progress-port' } message arrives
// with a stand-in port in `ports[0]` (as Electron delivers a transferred MessagePortMain): what the
// worker posts on it reaches the parent wrapped as { __port: message }, and closing it sends
// { __portClosed: true }. The parent tells the two streams apart by that wrapper.
import { EventEmitter } from 'node:events'

const port = new EventEmitter()
const queue = []
const portFor = () => {
  let open = true
  return {
    postMessage: (m) => { if (!open) throw new Error('the port is closed'); process.send({ __port: m }) },
    close: () => { if (open) { open = false; process.send({ __portClosed: true }) } },
  }
}
const deliver = (m) => port.emit('message', { data: m, ports: m && m.type === 'progress-port' ? [portFor()] : [] })
process.on('message', (m) => {
  if (port.listenerCount('message') > 0) deliver(m)
  else queue.push(m)
})
port.on('newListener', (event) => {
  if (event === 'message') setImmediate(() => { while (queue.length) deliver(queue.shift()) })
})
port.postMessage = (m) => process.send(m)
process.parentPort = port
