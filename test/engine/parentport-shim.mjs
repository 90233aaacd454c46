// Test-only preload (`node --import`): gives a plain Node fork an Electron-like
// `process.parentPort`, so the utilityProcess branch of src/engine/port.ts runs under Vitest.
// Messages from the parent arrive as `{ data }`; postMessage maps to process.send. Messages are
// queued until the entry attaches its first 'message' listener: the ESM entry loads after this
// preload, and a message emitted before that would be lost (TOOLCHAIN.md §5).
import { EventEmitter } from 'node:events'

const port = new EventEmitter()
const queue = []
const deliver = (m) => port.emit('message', { data: m })
process.on('message', (m) => {
  if (port.listenerCount('message') > 0) deliver(m)
  else queue.push(m)
})
port.on('newListener', (event) => {
  if (event === 'message') setImmediate(() => { while (queue.length) deliver(queue.shift()) })
})
port.postMessage = (m) => process.send(m)
process.parentPort = port
