// Imports in an engine worker (an 'import' unit, src/engine/import.ts, src/backend/imports.ts): the worker
// answers the same workload, hash, Inspect data as an in-process import; a broken file comes back
// as an 'error' with its file and line; the Backend forks one worker per import by default, its
// own event loop stays free during a large import, and cancel() / close() leave no process behind.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Backend } from '../../src/backend/backend'
import { ImportCancelledError, importInWorker } from '../../src/backend/imports'
import { importLogFile, type ImportedLog } from '../../src/engine/import'
import { forkNode, type ForkWorker } from '../../src/engine/pool'
import type { FromWorker } from '../../src/engine/protocol'
import { FileInputError } from '../../src/node/read-log'
import { swfLog } from '../support/parsing'
import { request } from '../server/support'
import { alive, buildWorker, KTH, removeWorker } from './support'

/** One worker, one 'import': every message until the worker's answer; the worker is then stopped. */
async function askWorker(workerPath: string, path: string): Promise<{ messages: FromWorker[]; pid: number }> {
  const h = forkNode(workerPath)
  const messages: FromWorker[] = []
  const exited = new Promise<void>((resolve) => h.onExit(() => resolve()))
  await new Promise<void>((resolve) => {
    h.onMessage((m) => {
      messages.push(m)
      if (m.type === 'done' || m.type === 'error') resolve()
    })
    h.send({ type: 'run', id: 7, unit: { kind: 'import', path, options: { name: 'the-log.swf' } } })
  })
  h.kill()
  await exited
  return { messages, pid: h.pid! }
}

function counting(): { fork: ForkWorker; pids: number[] } {
  const pids: number[] = []
  return { pids, fork: (p) => { const h = forkNode(p); pids.push(h.pid!); return h } }
}

describe('imports in an engine worker', () => {
  let workerPath = ''
  let dir = ''
  let ref: ImportedLog

  beforeAll(async () => {
    workerPath = await buildWorker()
    dir = mkdtempSync(join(tmpdir(), 'easytune-import-'))
    ref = await importLogFile(KTH, { name: 'the-log.swf' })
  })
  afterAll(() => {
    removeWorker(workerPath)
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('answers an import of the bundled sample with what an in-process import computes', async () => {
    const { messages, pid } = await askWorker(workerPath, KTH)
    expect(alive(pid)).toBe(false)
    expect(messages[0]).toMatchObject({ type: 'ready' })
    const progress = messages.filter((m) => m.type === 'import-progress')
    expect(progress.length).toBeGreaterThan(0)
    expect(progress.every((m) => m.id === 7)).toBe(true)
    expect(progress[progress.length - 1]).toMatchObject({ bytesRead: progress[0].totalBytes, jobsRead: ref.workload.report.jobsRead })
    const last = messages[messages.length - 1]
    if (last.type !== 'done') throw new Error(`expected done, got ${JSON.stringify(last)}`)
    expect(last.id).toBe(7)
    const done = last.result as ImportedLog
    const { workload: w } = done
    expect(done.sha256).toBe(ref.sha256)
    expect(w.name).toBe('the-log.swf')
    expect(w.format).toBe(ref.workload.format)
    expect(w.machineProcs).toBe(ref.workload.machineProcs)
    expect(w.unixStartTime).toBe(ref.workload.unixStartTime)
    expect(w.users).toEqual(ref.workload.users)
    expect(w.report).toEqual(ref.workload.report)
    expect(w.jobs.count).toBe(ref.workload.jobs.count)
    for (const col of ['id', 'submit', 'runtime', 'requested', 'procs', 'user', 'recordedWait', 'line'] as const) {
      expect(w.jobs[col].constructor).toBe(ref.workload.jobs[col].constructor)
      expect(Buffer.from(w.jobs[col].buffer, w.jobs[col].byteOffset, w.jobs[col].byteLength).equals(Buffer.from(ref.workload.jobs[col].buffer, ref.workload.jobs[col].byteOffset, ref.workload.jobs[col].byteLength))).toBe(true)
    }
    expect(done.inspect).toEqual(ref.inspect)
    expect(done.simSeconds).toBeGreaterThan(0)
    expect(done.simSeconds).toBeLessThan(60)
    expect(done.readSeconds).toBeGreaterThan(0)
  })

  it('sends a big table a column per message before its answer, and the session puts them back: the same table as in process', async () => {
    // 300,000 jobs: 1.2 MB per 4-byte column, 2.4 MB per 8-byte one, over the 1 MiB from which a column travels alone.
    const big = join(dir, 'columns.swf')
    writeFileSync(big, swfLog(300_000))
    const { messages } = await askWorker(workerPath, big)
    const columns = messages.filter((m) => m.type === 'column')
    const last = messages[messages.length - 1]
    if (last.type !== 'done') throw new Error(`expected done, got ${last.type}`)
    const sent = columns.map((m) => m.name).sort()
    expect(sent).toEqual(['id', 'line', 'procs', 'recordedWait', 'requested', 'runtime', 'submit', 'user'])
    for (const name of sent) expect(Object.hasOwn((last.result as ImportedLog).workload.jobs, name), name).toBe(false)
    for (const m of columns) expect(m.id).toBe(7)
    const local = await importLogFile(big, { name: 'the-log.swf' })
    const viaSession = await importInWorker(big, { name: 'the-log.swf' }, { workerPath })
    const bytes = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength)
    expect(Object.keys(viaSession.workload.jobs).sort()).toEqual(Object.keys(local.workload.jobs).sort())
    for (const [name, col] of Object.entries(local.workload.jobs)) {
      if (!ArrayBuffer.isView(col)) { expect((viaSession.workload.jobs as unknown as Record<string, unknown>)[name]).toEqual(col); continue }
      const got = (viaSession.workload.jobs as unknown as Record<string, ArrayBufferView>)[name]
      expect(got.constructor, name).toBe(col.constructor)
      expect(bytes(got).equals(bytes(col)), name).toBe(true)
    }
  }, 60_000)

  it('answers a broken file with an error naming the file and the line', async () => {
    const bad = join(dir, 'binary.swf')
    writeFileSync(bad, Buffer.from('1 0 5 100 4\n\0\0\0\n'))
    const { messages } = await askWorker(workerPath, bad)
    expect(messages[messages.length - 1]).toEqual({ type: 'error', id: 7, input: true, file: bad, line: 1, message: expect.stringMatching(/NUL bytes/) })
    const missing = join(dir, 'nope.swf')
    const r = await askWorker(workerPath, missing)
    expect(r.messages[r.messages.length - 1]).toEqual({ type: 'error', id: 7, input: true, file: missing, line: null, message: 'no such file' })
    // importInWorker turns it back into the FileInputError an in-process import throws.
    const e = await importInWorker(bad, {}, { workerPath }).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(FileInputError)
    expect(e).toMatchObject({ file: bad, line: 1 })
  })

  it('the Backend imports in a forked worker by default, with the same summary as in process', async () => {
    const { fork, pids } = counting()
    const stateDir = join(dir, 'state')
    const viaWorker = new Backend({ mode: 'browser', stateDir, cacheDir: null, workerPath, fork, samplePath: KTH })
    const inProcess = new Backend({ mode: 'browser', stateDir, cacheDir: null, workerPath, fork, samplePath: KTH, importInProcess: true })
    try {
      const a = await viaWorker.importLog({ kind: 'sample' }, {})
      expect(pids).toHaveLength(1)
      expect(alive(pids[0])).toBe(false) // the worker is gone once the import is back
      const b = await inProcess.importLog({ kind: 'sample' }, {})
      expect(pids).toHaveLength(1)
      expect({ ...a, id: '' }).toEqual({ ...b, id: '' })
      const ea = viaWorker.estimateCampaign(request(a.id))
      const eb = inProcess.estimateCampaign(request(b.id))
      expect(ea.cells).toBe(eb.cells)
      expect(ea.seconds).toBeGreaterThan(0)
      // Errors name the file as the user knows it, whichever way it was imported.
      const bad = join(dir, 'upload-123.tmp')
      writeFileSync(bad, Buffer.from('\0\0\0\n'))
      for (const be of [viaWorker, inProcess]) {
        const { handle } = be.addFile(bad, 'my log.swf')
        const e = await be.importLog({ kind: 'handle', handle }, {}).catch((x: unknown) => x)
        expect(e).toBeInstanceOf(FileInputError)
        expect(e).toMatchObject({ file: 'my log.swf', line: 1 })
      }
      expect(pids).toHaveLength(2)
      expect(pids.some(alive)).toBe(false)
    } finally {
      await Promise.all([viaWorker.close(), inProcess.close()])
    }
  })

  it('keeps the Backend\'s event loop free while a 1M-job log is imported', async () => {
    const big = join(dir, 'million.swf')
    writeFileSync(big, swfLog(1_000_000))
    const b = new Backend({ mode: 'browser', stateDir: join(dir, 'state2'), cacheDir: null, workerPath })
    try {
      const { handle } = b.addFile(big)
      let last = performance.now(), maxGap = 0, ticks = 0
      const timer = setInterval(() => { const now = performance.now(); maxGap = Math.max(maxGap, now - last); last = now; ticks++ }, 50)
      const t0 = performance.now()
      const w = await b.importLog({ kind: 'handle', handle }, {})
      const seconds = (performance.now() - t0) / 1000
      clearInterval(timer)
      maxGap = Math.max(maxGap, performance.now() - last) // a stall at the very end counts too
      expect(w.report.jobsRead).toBe(1_000_000)
      // In process (importInProcess), reading and simulating a million jobs holds the thread for
      // about a second here: few ticks and a gap of about that long.
      expect(seconds).toBeGreaterThan(0.5)
      expect(ticks).toBeGreaterThanOrEqual(Math.floor((seconds * 1000) / 50 / 2))
      expect(maxGap).toBeLessThan(300)
    } finally {
      await b.close()
    }
  }, 120_000)

  it('cancel(importId) and close() kill the import worker: nothing is left running', async () => {
    const big = join(dir, 'big.swf')
    writeFileSync(big, swfLog(150_000))
    const { fork, pids } = counting()
    const b = new Backend({ mode: 'browser', stateDir: join(dir, 'state3'), cacheDir: null, workerPath, fork })
    let exited = 0
    try {
      const { handle } = b.addFile(big)
      const off = b.subscribe('import', (e) => { if (e.kind === 'progress' && e.importId === 'imp-1') b.cancel('imp-1') })
      await expect(b.importLog({ kind: 'handle', handle }, {}, { importId: 'imp-1' })).rejects.toThrow(ImportCancelledError)
      off()
      expect(pids).toHaveLength(1)
      expect(alive(pids[0])).toBe(false) // importLog settles once the worker has exited
      // An untracked import is stopped by close(), which waits for its worker.
      const running = b.importLog({ kind: 'handle', handle }, {}).then(() => 'done', (e: unknown) => e)
      await new Promise((resolve) => setTimeout(resolve, 30))
      await b.close()
      exited = pids.length
      expect(await running).toBeInstanceOf(ImportCancelledError)
      expect(pids).toHaveLength(2)
      expect(pids.some(alive)).toBe(false)
    } finally {
      if (!exited) await b.close()
    }
  })
})
