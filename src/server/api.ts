// Browser mode's API over HTTP, derived from the API contract (src/shared/contract.ts): one
// route per operation, POST /api/<operation>, handled by one generic function that names no
// operation; the operation's KIND decides the body and the answer:
//   'call'     body: a JSON array of the arguments (application/json, size-limited), parsed with
//              the operation's schemas, then the Backend's method of the same name.
//              200 {"ok":true,"value":…} | 4xx/5xx {"ok":false,"error":"…"}.
//   'file-in'  body: the raw file bytes (?name=<file name>), streamed to a temporary file with a
//              size limit (413 beyond it); the Backend gets { path, name, temporary: true }.
//   'save'     like 'call', but the Backend answers the file to save: it waits as a one-time
//              download, and the answer is {"download":"<id>","name":"…"}; the page then opens
//              GET /download/<id>?token=… (once, within 10 minutes), which the browser saves.
import { randomBytes } from 'node:crypto'
import { createWriteStream, promises as fsp } from 'node:fs'
import { join } from 'node:path'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { errorMessage } from '../backend/campaigns'
import { FileInputError } from '../node/read-log'
import { InputError } from '../core/workload/errors'
import { CONTRACT, isOperation, parseArgs, type Implementation, type OperationKind, type OperationName, type ReceivedFile, type SaveFile } from '../shared/contract'
import { ApiInputError } from '../shared/errors'
import { FileNameSchema, parseOrThrow } from '../shared/schemas'
import type { Downloads } from './downloads'

export class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message)
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) })
  res.end(text)
}

/** Reads a request body up to `limit` bytes; beyond it, stops reading and fails with 413. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN)
  if (declared > limit) return Promise.reject(new HttpError(413, `the request is too large (${declared} bytes, at most ${limit})`))
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let settled = false
    const onData = (c: Buffer) => {
      size += c.length
      if (size <= limit) { chunks.push(c); return }
      settled = true
      req.off('data', onData)
      req.pause()
      reject(new HttpError(413, `the request is too large (more than ${limit} bytes)`))
    }
    req.on('data', onData)
    req.once('end', () => { if (!settled) { settled = true; resolve(Buffer.concat(chunks)) } })
    req.once('error', (e) => { if (!settled) { settled = true; reject(e) } })
  })
}

/** Streams the request body into a new file (backpressure: memory stays flat) and returns its
 * size; past `limit` bytes it stops reading and fails with 413, leaving the request unread. */
function streamToFile(req: IncomingMessage, path: string, limit: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(path, { flags: 'wx', mode: 0o600 })
    let size = 0
    let settled = false
    const stop = (e: Error) => {
      if (settled) return
      settled = true
      req.off('data', onData)
      req.pause()
      out.destroy()
      reject(e)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) return stop(new HttpError(413, `the file is too large (more than ${limit} bytes; browser mode accepts at most ${limit})`))
      if (!out.write(chunk)) { req.pause(); out.once('drain', () => { if (!settled) req.resume() }) }
    }
    req.on('data', onData)
    req.once('end', () => out.end())
    req.once('aborted', () => stop(new Error('the upload was interrupted')))
    req.once('error', stop)
    out.once('error', stop)
    out.once('close', () => { if (!settled) { settled = true; resolve(size) } })
  })
}

export interface ApiContext {
  /** Every operation's implementation: the Backend. */
  impl: Implementation
  downloads: Downloads
  maxBodyBytes: number
  maxUploadBytes: number
  uploadDir: string
}

/** Status and message of anything thrown while handling a call. */
export function failure(e: unknown): { status: number; error: string } {
  if (e instanceof HttpError) return { status: e.status, error: e.message }
  if (e instanceof ApiInputError || e instanceof InputError) return { status: 400, error: e.message }
  if (e instanceof FileInputError) return { status: 400, error: errorMessage(e) }
  return { status: 500, error: `internal error: ${errorMessage(e)}` }
}

export function createApi(ctx: ApiContext): { call: (req: IncomingMessage, res: ServerResponse, operation: string) => Promise<void> } {
  /** The operation's value from the request, by kind. */
  const RECEIVE: Record<OperationKind, (name: OperationName, req: IncomingMessage, url: URL) => Promise<unknown>> = {
    'call': async (name, req) => invoke(name, await jsonArgs(name, req)),
    'save': async (name, req) => {
      const value = await invoke(name, await jsonArgs(name, req))
      if (typeof value === 'boolean') return value
      const file = value as SaveFile
      return { download: ctx.downloads.add(file.name, file.content, file.mime), name: file.name }
    },
    'file-in': (name, req, url) => upload(name, req, url),
  }

  function invoke(name: OperationName, args: unknown[]): Promise<unknown> {
    return Promise.resolve((ctx.impl[name] as (...a: unknown[]) => unknown)(...args))
  }

  async function jsonArgs(name: OperationName, req: IncomingMessage): Promise<unknown[]> {
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) throw new HttpError(415, 'API calls send their arguments as application/json')
    const body = await readBody(req, ctx.maxBodyBytes)
    let raw: unknown
    try {
      raw = body.length === 0 ? [] : JSON.parse(body.toString('utf8'))
    } catch {
      throw new HttpError(400, 'the request body is not valid JSON')
    }
    return parseArgs(name, raw)
  }

  /** A 'file-in' operation: the body is the file, streamed to a temporary file that the
   * implementation then owns (it is deleted here only when the call fails). */
  async function upload(name: OperationName, req: IncomingMessage, url: URL): Promise<unknown> {
    const path = join(ctx.uploadDir, `upload-${randomBytes(12).toString('hex')}`)
    const d = CONTRACT[name]
    const limit = Math.min(ctx.maxUploadBytes, d.kind === 'file-in' ? d.maxBytes ?? Infinity : Infinity)
    try {
      const fileName = parseOrThrow(FileNameSchema, url.searchParams.get('name') ?? 'upload', 'the uploaded file name')
      const declared = Number(req.headers['content-length'] ?? NaN)
      if (declared > limit) throw new HttpError(413, `the file is too large (${declared} bytes; browser mode accepts at most ${limit})`)
      const size = await streamToFile(req, path, limit)
      if (size === 0) throw new HttpError(400, 'the uploaded file is empty')
      const file: ReceivedFile = { path, name: fileName, temporary: true }
      return await (ctx.impl[name] as (f: ReceivedFile) => unknown)(file)
    } catch (e) {
      await fsp.rm(path, { force: true })
      throw e
    }
  }

  async function call(req: IncomingMessage, res: ServerResponse, operation: string): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    let kind: OperationKind | null = null
    try {
      if (!isOperation(operation)) throw new HttpError(404, `unknown API operation "${operation.slice(0, 40)}"`)
      kind = CONTRACT[operation].kind
      const value = await RECEIVE[kind](operation, req, url)
      sendJson(res, 200, { ok: true, value: value ?? null })
    } catch (e) {
      const f = failure(e)
      if (kind === 'file-in' && req.socket.destroyed && !(e instanceof HttpError)) return // the client went away
      // Do not read the rest of an oversized or refused upload: close the connection once answered.
      if (f.status === 413 || kind === 'file-in') {
        res.setHeader('Connection', 'close')
        res.once('finish', () => req.socket.destroySoon())
      }
      sendJson(res, f.status, { ok: false, error: f.error })
    }
  }

  return { call }
}
