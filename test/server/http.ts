// A raw HTTP client for the browser-mode tests: exact paths (no URL normalisation, so traversal
// attempts reach the server as written), any headers, streamed bodies.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'

export interface Answer { status: number; headers: IncomingHttpHeaders; body: string }

export function http(port: number, path: string, opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(opts.body)
  })
}

/** Streams `total` bytes (in 1 MiB chunks, honouring backpressure) as a request body; resolves
 * with the answer, even when the server answers and closes before the body is sent. */
export function streamUpload(port: number, path: string, headers: Record<string, string>, total: number, onChunk?: () => void): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
    })
    let answered = false
    req.on('response', () => { answered = true })
    req.on('error', (e) => { if (!answered) reject(e) })
    const chunk = Buffer.alloc(1 << 20, 0x41)
    let sent = 0
    const pump = () => {
      while (sent < total && !answered) {
        const n = Math.min(chunk.length, total - sent)
        sent += n
        onChunk?.()
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) { req.once('drain', pump); return }
      }
      if (!answered) req.end()
    }
    pump()
  })
}
