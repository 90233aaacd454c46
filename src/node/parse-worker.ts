// A parse worker thread (src/node/parse-parallel.ts): parses the chunks it is sent (SWF, sacct, jobcomp or PBS), one at a
// time in the order sent, and sends back the chunk's columns (transferred, not copied), freeing
// each chunk's text once parsed.
import { parentPort } from 'node:worker_threads'
import { releaseColumn } from '../core/workload/builder'
import { InputError } from '../core/workload/errors'
import { parseChunk, type ChunkJob } from '../core/workload/chunks'

const port = parentPort
if (port === null) throw new Error('parse-worker.ts runs as a worker thread only')
port.on('message', (m: ChunkJob) => {
  try {
    const chunk = parseChunk(m)
    const buffers: ArrayBuffer[] = []
    for (const v of Object.values(chunk.jobs)) if (ArrayBuffer.isView(v)) buffers.push(v.buffer as ArrayBuffer)
    port.postMessage({ ok: true, chunk }, buffers)
  } catch (e) {
    const input = e instanceof InputError
    port.postMessage({ ok: false, message: (e as Error).message, line: input ? e.line : null, code: input ? e.code : null })
  } finally {
    // The chunk's text (4 MiB, ours by transfer) is freed now, not at the thread's next collection,
    // which lags far behind: two threads' texts stayed resident at the import's peak.
    releaseColumn(m.bytes)
  }
})
