// Browser mode's API over HTTP (the same EasyTuneApi as Electron's IPC):
//   POST /api/<method>   body: a JSON array of the arguments (application/json, size-limited);
//                        validated with src/shared/validate.ts, then handed to the Backend.
//                        200 {"ok":true,"value":…} | 4xx/5xx {"ok":false,"error":"…"}.
//   POST /api/upload?name=<file name>   the raw file bytes, streamed to a temporary file with a
//                        size limit (413 beyond it); answers {"ok":true,"value":{handle,name}}.
//   saveText / saveProject answer {"download":"<id>"}: the page then opens
//   GET /download/<id>?token=… (one time, within 10 minutes), which the browser saves.
//   openProject takes [{ "text": <the file's content> }] (the page reads the picked file).
import { randomBytes } from 'node:crypto'
import { createWriteStream, promises as fsp } from 'node:fs'
import { join } from 'node:path'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { errorMessage } from '../backend/campaigns'
import type { Backend } from '../backend/backend'
import { projectText } from '../backend/project'
import { FileInputError } from '../node/read-log'
import { InputError } from '../core/workload/errors'
import { ApiInputError, isApiMethod, parseProjectText, validateCall, validateFileName, type ApiMethod, type ValidatedArgs } from '../shared/validate'
import { Downloads } from './downloads'

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

type Handlers = { [K in ApiMethod]: (...a: ValidatedArgs[K]) => unknown }

export interface ApiContext {
  backend: Backend
  downloads: Downloads
  maxBodyBytes: number
  maxUploadBytes: number
  uploadDir: string
}

function handlers(ctx: ApiContext): Handlers {
  const b = ctx.backend
  return {
    getAppInfo: () => b.getAppInfo(),
    addLogFile: () => { throw new ApiInputError('in browser mode, log files are uploaded (POST /api/upload), not named by path') },
    importLog: (source, options, tracking) => b.importLog(source, options, tracking),
    getImportReport: (id) => b.getImportReport(id),
    previewSplit: (id, split) => b.previewSplit(id, split),
    estimateCampaign: (req) => b.estimateCampaign(req),
    startCampaign: (req) => b.startCampaign(req),
    startAnalysis: (req) => b.startAnalysis(req),
    cancel: (id) => { b.cancel(id); return null },
    exportConfig: (result, target, options) => b.exportConfig(result, target, options),
    saveText: (name, content, mime) => ({ download: ctx.downloads.add(name, content, mime) }),
    generateReport: (result) => b.generateReport(result),
    saveProject: (state) => ({ download: ctx.downloads.add(projectFileName(state.log?.name), projectText(state), 'application/json') }),
    openProject: (f) => {
      if (!f || !('text' in f)) throw new ApiInputError('in browser mode, pick the project file in the page (its content is sent, not its path)')
      return parseProjectText(f.text)
    },
    autosave: async (state) => { await b.autosave(state); return null },
    restoreLastProject: () => b.restoreLastProject(),
    getSettings: () => b.getSettings(),
    setSettings: (s) => b.setSettings(s),
  }
}

function projectFileName(logName: string | undefined): string {
  const base = (logName ?? 'project').replace(/\.(gz|swf|csv|txt|log)$/gi, '').replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'project'
  return `${base}.easytune.json`
}

/** Status and message of anything thrown while handling a call. */
export function failure(e: unknown): { status: number; error: string } {
  if (e instanceof HttpError) return { status: e.status, error: e.message }
  if (e instanceof ApiInputError || e instanceof InputError) return { status: 400, error: e.message }
  if (e instanceof FileInputError) return { status: 400, error: errorMessage(e) }
  return { status: 500, error: `internal error: ${errorMessage(e)}` }
}

export function createApi(ctx: ApiContext): { call: (req: IncomingMessage, res: ServerResponse, method: string) => Promise<void>; upload: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void> } {
  const table = handlers(ctx)

  async function call(req: IncomingMessage, res: ServerResponse, method: string): Promise<void> {
    try {
      if (!isApiMethod(method)) throw new HttpError(404, `unknown API method "${method.slice(0, 40)}"`)
      if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) throw new HttpError(415, 'API calls send their arguments as application/json')
      const body = await readBody(req, ctx.maxBodyBytes)
      let args: unknown
      try {
        args = body.length === 0 ? [] : JSON.parse(body.toString('utf8'))
      } catch {
        throw new HttpError(400, 'the request body is not valid JSON')
      }
      const valid = validateCall(method, args)
      const value = await (table[method] as (...a: unknown[]) => unknown)(...valid)
      sendJson(res, 200, { ok: true, value: value ?? null })
    } catch (e) {
      const f = failure(e)
      if (f.status === 413) {
        res.setHeader('Connection', 'close')
        res.once('finish', () => req.socket.destroySoon())
      }
      sendJson(res, f.status, { ok: false, error: f.error })
    }
  }

  async function upload(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = join(ctx.uploadDir, `upload-${randomBytes(12).toString('hex')}`)
    const limit = ctx.maxUploadBytes
    try {
      const name = validateFileName(url.searchParams.get('name') ?? 'upload', 'the uploaded file name')
      const declared = Number(req.headers['content-length'] ?? NaN)
      if (declared > limit) throw new HttpError(413, `the file is too large (${declared} bytes; browser mode accepts at most ${limit})`)
      const size = await streamToFile(req, path, limit)
      if (size === 0) throw new HttpError(400, 'the uploaded file is empty')
      sendJson(res, 200, { ok: true, value: ctx.backend.addFile(path, name, { temporary: true }) })
    } catch (e) {
      await fsp.rm(path, { force: true })
      const f = failure(e)
      if (req.destroyed && !(e instanceof HttpError)) return // the client went away
      res.setHeader('Connection', 'close')
      sendJson(res, f.status, { ok: false, error: f.error })
      // Do not read the rest of an oversized upload: close the connection once answered.
      res.once('finish', () => req.socket.destroySoon())
    }
  }

  return { call, upload }
}
