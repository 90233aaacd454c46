// Browser mode's front door (src/server): loopback only, the token on every request (page, files,
// API, upload, download, WebSocket), no path traversal, size-limited streamed uploads, one-time
// downloads, every contract operation reachable at POST /api/<operation>, and the three streams'
// events over the socket as { stream, event }.
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Backend } from '../../src/backend/backend'
import { isLoopbackHost } from '../../src/server/auth'
import { startServer, type RunningServer } from '../../src/server/server'
import { CSP } from '../../src/server/static'
import type { AnalysisEvent, CampaignEvent, ImportEvent } from '../../src/shared/api'
import { CONTRACT, OPERATION_NAMES, type StreamMessage } from '../../src/shared/contract'
import { buildWorker, KTH, removeWorker } from '../engine/support'
import { http, streamUpload } from './http'
import { request, tempDir } from './support'

const TOKEN = 'test-token-0123456789abcdefABCDEF'

function wsOpen(url: string): Promise<{ ws: WebSocket | null; status: number | null }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url)
    ws.on('open', () => resolve({ ws, status: null }))
    ws.on('unexpected-response', (_req, res) => { resolve({ ws: null, status: res.statusCode ?? 0 }); ws.terminate() })
    ws.on('error', () => resolve({ ws: null, status: -1 }))
  })
}

describe('browser-mode server', () => {
  let tmp: ReturnType<typeof tempDir>
  let workerPath = ''
  let backend: Backend
  let server: RunningServer
  let uploadDir: string
  const api = (method: string, args: unknown, headers: Record<string, string> = { 'x-easytune-token': TOKEN }) =>
    http(server.port, `/api/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(args) })

  beforeAll(async () => {
    tmp = tempDir()
    workerPath = await buildWorker()
    const renderer = join(tmp.dir, 'renderer')
    mkdirSync(join(renderer, 'assets'), { recursive: true })
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><html><head><title>t</title><script type="module" src="./assets/app.js"></script></head><body></body></html>')
    writeFileSync(join(renderer, 'assets', 'app.js'), 'export const x = 1\n')
    writeFileSync(join(renderer, 'assets', 'style.css'), 'body{}\n')
    writeFileSync(join(tmp.dir, 'secret.txt'), 'SECRET\n')
    symlinkSync(join(tmp.dir, 'secret.txt'), join(renderer, 'assets', 'link.txt'))
    uploadDir = join(tmp.dir, 'uploads')
    mkdirSync(uploadDir)
    backend = new Backend({ mode: 'browser', stateDir: join(tmp.dir, 'state'), cacheDir: null, workerPath })
    server = await startServer({ port: 0, host: '127.0.0.1', backend, rendererDir: renderer, token: TOKEN, maxUploadBytes: 1 << 20, maxBodyBytes: 1 << 20, uploadDir })
  })
  afterAll(async () => {
    await server?.close()
    await backend?.close()
    removeWorker(workerPath)
    tmp?.remove()
  })

  it('refuses to listen on anything but loopback', async () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', 'example.com', '127.0.0.1.evil.com', '']) {
      await expect(startServer({ port: 0, host, backend, rendererDir: tmp.dir }), host).rejects.toThrow(/loopback interface/)
    }
    for (const h of ['127.0.0.1', '127.3.4.5', 'localhost', 'LOCALHOST', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopbackHost(h), h).toBe(true)
    const s = await startServer({ port: 0, host: 'localhost', backend, rendererDir: tmp.dir })
    expect(s.host).toBe('127.0.0.1')
    expect(s.token).toMatch(/^[A-Za-z0-9_-]{43}$/) // 32 random bytes
    expect(s.url).toBe(`http://127.0.0.1:${s.port}/?token=${s.token}`)
    await s.close()
  })

  it('serves the page only with the token: 401 without, 403 when wrong', async () => {
    const none = await http(server.port, '/')
    expect(none.status).toBe(401)
    expect(none.headers['content-type']).toMatch(/^text\/plain/)
    expect(none.body).toMatch(/access token/)
    expect((await http(server.port, '/?token=wrong-token-1234567890')).status).toBe(403)
    expect((await http(server.port, `/?token=${TOKEN}x`)).status).toBe(403)
    const page = await http(server.port, `/?token=${TOKEN}&sample=1`)
    expect(page.status).toBe(200)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.headers['content-security-policy']).toBe(CSP)
    expect(page.headers['set-cookie']).toBeUndefined()
    expect(page.body).toContain(`<head><base href="/s/${TOKEN}/"><link rel="icon" href="data:,">`)
  })

  it('serves the renderer files under the token prefix with their content types', async () => {
    const js = await http(server.port, `/s/${TOKEN}/assets/app.js`)
    expect(js.status).toBe(200)
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(js.headers['x-content-type-options']).toBe('nosniff')
    expect((await http(server.port, `/s/${TOKEN}/assets/style.css`)).headers['content-type']).toBe('text/css; charset=utf-8')
    expect((await http(server.port, '/assets/app.js')).status).toBe(401)
    expect((await http(server.port, '/s//assets/app.js')).status).toBe(401)
    expect((await http(server.port, '/s/nottherighttoken123/assets/app.js')).status).toBe(403)
    expect((await http(server.port, `/s/${TOKEN}/assets/missing.js`)).status).toBe(404)
  })

  it('makes path traversal impossible', async () => {
    for (const p of ['../secret.txt', '..%2fsecret.txt', '%2e%2e/secret.txt', '%2e%2e%2fsecret.txt', 'assets/../../secret.txt', 'assets/..%2f..%2fsecret.txt',
      '..%5csecret.txt', 'assets/link.txt', '%2fetc%2fpasswd', '/etc/passwd', 'assets/%00app.js', 'assets/', 'assets']) {
      const r = await http(server.port, `/s/${TOKEN}/${p}`)
      expect(r.status, p).toBeGreaterThanOrEqual(400)
      expect(r.body, p).not.toContain('SECRET')
      expect(r.body, p).not.toContain('root:')
    }
  })

  it('requires the token header on every API call and validates the arguments', async () => {
    expect((await api('getAppInfo', [], {})).status).toBe(401)
    expect((await api('getAppInfo', [], { 'x-easytune-token': 'wrong-token-1234567890' })).status).toBe(403)
    expect((await http(server.port, `/api/getAppInfo?token=${TOKEN}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' })).status).toBe(401)
    const info = await api('getAppInfo', [])
    expect(info.status).toBe(200)
    expect(JSON.parse(info.body)).toMatchObject({ ok: true, value: { mode: 'browser' } })
    expect((await http(server.port, '/api/getAppInfo', { headers: { 'x-easytune-token': TOKEN } })).status).toBe(405)
    expect((await api('__proto__', [])).status).toBe(404)
    expect((await api('onCampaignEvent', [])).status).toBe(404)
    expect((await api('upload', [])).status).toBe(404) // uploads go to the 'file-in' operation itself
    expect((await http(server.port, '/api/getAppInfo', { method: 'POST', headers: { 'x-easytune-token': TOKEN, 'content-type': 'text/plain' }, body: '[]' })).status).toBe(415)
    expect((await http(server.port, '/api/getAppInfo', { method: 'POST', headers: { 'x-easytune-token': TOKEN, 'content-type': 'application/json' }, body: '[' })).status).toBe(400)
    const bad = await api('startCampaign', [{ ...request('w1'), workers: 1000 }])
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.body).error).toMatch(/startCampaign: request's workers must be at most 64, got 1000/)
    const big = await api('saveText', ['a.txt', 'x'.repeat(2 << 20), 'text/plain'])
    expect(big.status).toBe(413)
  })

  it('refuses foreign Host and Origin headers (DNS rebinding, other web sites)', async () => {
    expect((await http(server.port, `/?token=${TOKEN}`, { headers: { host: 'evil.example:80' } })).status).toBe(403)
    expect((await api('getAppInfo', [], { 'x-easytune-token': TOKEN, origin: 'http://evil.example' })).status).toBe(403)
    expect((await api('getAppInfo', [], { 'x-easytune-token': TOKEN, origin: 'null' })).status).toBe(403)
    expect((await api('getAppInfo', [], { 'x-easytune-token': TOKEN, origin: 'http://localhost:8080', host: 'localhost:8080' })).status).toBe(200)
  })

  it('takes uploads with the token only, within the size limit, and imports them', async () => {
    const log = readFileSync(KTH) // 411 kB: under the 1 MiB limit of this server
    const up = (headers: Record<string, string>, body: Buffer = log) => http(server.port, '/api/addLogFile?name=kth%20part.swf.gz', { method: 'POST', headers: { 'content-type': 'application/octet-stream', ...headers }, body })
    expect((await up({})).status).toBe(401)
    expect((await up({ 'x-easytune-token': 'wrong-token-1234567890' })).status).toBe(403)
    const good = await up({ 'x-easytune-token': TOKEN })
    expect(good.status, good.body).toBe(200)
    const { handle, name } = JSON.parse(good.body).value as { handle: string; name: string }
    expect(name).toBe('kth part.swf.gz')
    expect(handle).toMatch(/^[A-Za-z0-9_-]{1,64}$/)
    const imp = JSON.parse((await api('importLog', [{ kind: 'handle', handle }, {}])).body)
    expect(imp.value).toMatchObject({ name: 'kth part.swf.gz', sha256: '3e152f201fd2e96808a735bced6ea6eb0bb07fdc447689cafb0750d87b264c0b' })
    const cut = JSON.parse((await up({ 'x-easytune-token': TOKEN }, log.subarray(0, 200_000))).body).value as { handle: string }
    const bad = await api('importLog', [{ kind: 'handle', handle: cut.handle }, {}])
    expect(bad.status).toBe(400) // a cut gzip is a plain input error, not a crash
    expect(JSON.parse(bad.body).error).toMatch(/^kth part\.swf\.gz: the gzip data is truncated or corrupt/) // the user's name, not the temp path
    expect((await up({ 'x-easytune-token': TOKEN }, Buffer.alloc(0))).status).toBe(400)
    const tooBig = await streamUpload(server.port, '/api/addLogFile?name=x', { 'x-easytune-token': TOKEN, 'content-length': String(3 << 20) }, 3 << 20)
    expect(tooBig.status).toBe(413)
    expect(JSON.parse(tooBig.body).error).toMatch(/too large/)
    const chunked = await streamUpload(server.port, '/api/addLogFile?name=x', { 'x-easytune-token': TOKEN, 'transfer-encoding': 'chunked' }, 3 << 20)
    expect(chunked.status).toBe(413)
    expect(readdirSync(uploadDir)).toHaveLength(2) // the two accepted uploads; refused ones are deleted
  })

  it('streams uploads to disk: memory stays flat for a 256 MiB upload', async () => {
    const big = await startServer({ port: 0, host: '127.0.0.1', backend, rendererDir: tmp.dir, token: TOKEN, uploadDir })
    try {
      global.gc?.()
      const base = process.memoryUsage()
      let peak = 0
      const total = 256 << 20
      const r = await streamUpload(big.port, '/api/addLogFile?name=big.swf', { 'x-easytune-token': TOKEN, 'content-length': String(total) }, total, () => {
        const m = process.memoryUsage()
        peak = Math.max(peak, m.rss - base.rss, m.heapUsed + m.arrayBuffers - base.heapUsed - base.arrayBuffers)
      })
      expect(r.status, r.body).toBe(200)
      expect(peak).toBeLessThan(96 << 20)
      console.info(`256 MiB upload: peak memory growth ${(peak / 2 ** 20).toFixed(1)} MiB`)
    } finally {
      await big.close()
    }
  })

  it('hands saved files over as one-time token-protected downloads', async () => {
    const r = await api('saveText', ['slurm.conf', 'PriorityType=priority/multifactor\n', 'text/plain'])
    const id = JSON.parse(r.body).value.download as string
    expect((await http(server.port, `/download/${id}`)).status).toBe(401)
    expect((await http(server.port, `/download/${id}?token=wrong-token-1234567890`)).status).toBe(403)
    const d = await http(server.port, `/download/${id}?token=${TOKEN}`)
    expect(d.status).toBe(200)
    expect(d.body).toBe('PriorityType=priority/multifactor\n')
    expect(d.headers['content-disposition']).toMatch(/^attachment; filename="slurm.conf"/)
    expect(d.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect((await http(server.port, `/download/${id}?token=${TOKEN}`)).status).toBe(404)
  })

  it('opens the event socket only with the token, and streams a campaign\'s events', async () => {
    const base = `ws://127.0.0.1:${server.port}/ws`
    expect((await wsOpen(base)).status).toBe(401)
    expect((await wsOpen(`${base}?token=wrong-token-1234567890`)).status).toBe(403)
    expect((await wsOpen(`ws://127.0.0.1:${server.port}/other?token=${TOKEN}`)).status).toBe(404)
    const { ws } = await wsOpen(`${base}?token=${TOKEN}`)
    expect(ws).not.toBeNull()
    const events: CampaignEvent[] = []
    const finished = new Promise<CampaignEvent>((resolve) => ws!.on('message', (m) => {
      const msg = JSON.parse(String(m)) as StreamMessage
      if (msg.stream !== 'campaign') return
      const e = msg.event
      events.push(e)
      if (e.kind === 'done' || e.kind === 'error' || e.kind === 'cancelled') resolve(e)
    }))
    const w = JSON.parse((await api('importLog', [{ kind: 'sample' }, {}])).body).value as { id: string }
    const started = JSON.parse((await api('startCampaign', [request(w.id)])).body)
    expect(started.ok).toBe(true)
    const last = await finished
    expect(last.kind).toBe('done')
    expect(events.some((e) => e.kind === 'progress')).toBe(true)
    expect(events.filter((e) => e.kind === 'cell')).toHaveLength(6)
    expect(events.every((e) => e.campaignId === started.value.campaignId)).toBe(true)
    ws!.close()
  })

  it('runs an online analysis through POST /api/startAnalysis and streams its events', async () => {
    const { ws } = await wsOpen(`ws://127.0.0.1:${server.port}/ws?token=${TOKEN}`)
    const events: AnalysisEvent[] = []
    const others: string[] = []
    const finished = new Promise<AnalysisEvent>((resolve) => ws!.on('message', (m) => {
      const msg = JSON.parse(String(m)) as StreamMessage
      if (msg.stream !== 'analysis') { others.push(msg.stream); return }
      const e = msg.event
      events.push(e)
      if (e.kind === 'done' || e.kind === 'error' || e.kind === 'cancelled') resolve(e)
    }))
    const w = JSON.parse((await api('importLog', [{ kind: 'sample' }, {}])).body).value as { id: string }
    const req = { workloadId: w.id, kind: 'online', options: { strategies: ['random'], period: 'week', weeks: 2, traces: 1, seed: 1 } }
    const bad = await api('startAnalysis', [{ ...req, options: { ...req.options, traces: 99 } }])
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.body).error).toMatch(/options\.traces must be at most 20, got 99/)
    const started = JSON.parse((await api('startAnalysis', [req])).body)
    expect(started.ok).toBe(true)
    const last = await finished
    expect(last).toMatchObject({ analysisId: started.value.analysisId, kind: 'done', analysis: 'online', result: { periods: 2, traces: 1 } })
    expect(events.some((e) => e.kind === 'progress')).toBe(true)
    expect(others).not.toContain('campaign') // an analysis is not a campaign
    ws!.close()
  })

  it('streams a tracked import\'s progress on the event socket', async () => {
    const { ws } = await wsOpen(`ws://127.0.0.1:${server.port}/ws?token=${TOKEN}`)
    const events: ImportEvent[] = []
    ws!.on('message', (m) => {
      const msg = JSON.parse(String(m)) as StreamMessage
      if (msg.stream === 'import') events.push(msg.event)
    })
    const answer = JSON.parse((await api('importLog', [{ kind: 'sample' }, {}, { importId: 'imp-ws-1' }])).body)
    expect(answer.ok).toBe(true)
    const jobs = (answer.value as { report: { jobsRead: number } }).report.jobsRead
    // The socket may deliver the last frame just after the HTTP answer.
    for (let i = 0; i < 100 && !events.some((e) => e.kind === 'progress' && e.jobsRead === jobs); i++) await new Promise((r) => setTimeout(r, 20))
    const mine = events.filter((e) => e.kind === 'progress')
    expect(mine.length).toBeGreaterThan(0)
    expect(mine.every((e) => e.importId === 'imp-ws-1')).toBe(true)
    expect(mine[mine.length - 1]).toMatchObject({ kind: 'progress', jobsRead: jobs, bytesRead: readFileSync(KTH).length, totalBytes: readFileSync(KTH).length })
    const bad = await api('importLog', [{ kind: 'sample' }, {}, { importId: '../x' }])
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.body).error).toMatch(/importLog: tracking's importId is not a valid id/)
    ws!.close()
  })

  it('reaches every contract operation at POST /api/<operation> (derived from the contract, not listed)', async () => {
    for (const name of OPERATION_NAMES) {
      const kind = CONTRACT[name].kind
      // Each route exists and parses its arguments: a body of the wrong shape is a 400 that names
      // the operation (a 'file-in' operation takes the raw file; an empty one is refused).
      const r = kind === 'file-in'
        ? await http(server.port, `/api/${name}?name=x.txt`, { method: 'POST', headers: { 'x-easytune-token': TOKEN, 'content-type': 'application/octet-stream' }, body: '' })
        : await api(name, [0, 0, 0, 0, 0])
      expect(r.status, `${name}: ${r.body}`).toBe(400)
      expect(JSON.parse(r.body).error, name).toMatch(kind === 'file-in' ? /the uploaded file is empty/ : new RegExp(`^${name}`))
    }
  })

  it('opens an uploaded project file (openProject, a file-in operation) and deletes the upload', async () => {
    const project = { version: 1, log: null, importOptions: {}, split: { kind: 'midpoint' }, campaign: { ...request('w1'), workloadId: undefined, split: undefined }, result: null, step: 1 }
    const text = JSON.stringify(project)
    const before = readdirSync(uploadDir).length
    const r = await http(server.port, '/api/openProject?name=mine.easytune', { method: 'POST', headers: { 'x-easytune-token': TOKEN, 'content-type': 'application/octet-stream' }, body: text })
    expect(r.status, r.body).toBe(200)
    expect(JSON.parse(r.body).value).toMatchObject({ version: 1, step: 1 })
    expect(readdirSync(uploadDir)).toHaveLength(before)
    const bad = await http(server.port, '/api/openProject?name=mine.easytune', { method: 'POST', headers: { 'x-easytune-token': TOKEN, 'content-type': 'application/octet-stream' }, body: '{"version":1' })
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.body).error).toMatch(/^mine\.easytune: this is not an EasyTune project file/) // the person's name for it, not the temp path
    expect(readdirSync(uploadDir)).toHaveLength(before)
  })

  it('saves projects and texts as downloads, and refuses a PDF in plain words (saveReportPdf)', async () => {
    const state = { version: 1, log: { name: 'site log.swf', sha256: 'a'.repeat(64) }, importOptions: {}, split: { kind: 'midpoint' }, campaign: { ...request('w1'), workloadId: undefined, split: undefined }, result: null, step: 1 }
    const saved = JSON.parse((await api('saveProject', [state])).body)
    expect(saved.value).toMatchObject({ name: 'site_log.easytune.json' })
    const d = await http(server.port, `/download/${saved.value.download}?token=${TOKEN}`)
    expect(JSON.parse(d.body)).toMatchObject({ version: 1, step: 1 })
    const result = { schemaVersion: 1, kind: 'easytune-evaluation', log: { name: 'x', machineProcs: 1 }, protocol: {}, candidates: [{ label: 'a', train: {}, test: {} }], recommended: 0, bestOnTest: 0, bestOnTrain: 0, ranking: [0], recommendation: { sentence: 's' }, weekly: [] }
    const pdf = await api('saveReportPdf', [result])
    expect(pdf.status).toBe(400)
    expect(JSON.parse(pdf.body).error).toMatch(/browser mode cannot make a PDF: save the report as HTML/)
    // saveText saves exactly the text it was given, whatever its type says.
    const t = JSON.parse((await api('saveText', ['r.pdf', '<html>x</html>', 'application/pdf'])).body)
    const dt = await http(server.port, `/download/${t.value.download}?token=${TOKEN}`)
    expect(dt.body).toBe('<html>x</html>')
    expect(dt.headers['content-type']).toBe('application/pdf')
  })
})
