// Tracked imports in the back end: ImportEvents ('progress', under the importId; throttled, the
// final one with every job), cancel(importId) stopping the read (importLog rejects, nothing kept),
// and the ids: one running import per id, unknown ids ignored.
import { statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Backend } from '../../src/backend/backend'
import { IMPORT_PROGRESS_EVERY_MS, ImportCancelledError, ImportTracker } from '../../src/backend/imports'
import { failure } from '../../src/server/api'
import type { ImportEvent } from '../../src/shared/api'
import { KTH } from '../engine/support'
import { swfLog } from '../support/parsing'
import { tempDir } from './support'

type ImportProgress = ImportEvent
const loaded = (b: Backend) => (b as unknown as { workloads: Map<string, unknown> }).workloads.size

describe('tracked imports', () => {
  let tmp: ReturnType<typeof tempDir>
  let backend: Backend
  let big = ''
  const BIG_JOBS = 150_000 // ≈ 9 MB: several 1 MiB chunks

  beforeAll(() => {
    tmp = tempDir()
    backend = new Backend({ mode: 'browser', stateDir: join(tmp.dir, 'state'), cacheDir: null })
    big = join(tmp.dir, 'big.swf')
    writeFileSync(big, swfLog(BIG_JOBS))
  })
  afterAll(async () => {
    await backend?.close()
    tmp?.remove()
  })

  function progressOf(id: string, onEvent?: (e: ImportProgress) => void): { events: ImportProgress[]; off: () => void } {
    const events: ImportProgress[] = []
    const off = backend.subscribe('import', (e) => {
      if (e.kind !== 'progress' || e.importId !== id) return
      events.push(e)
      onEvent?.(e)
    })
    return { events, off }
  }

  it('reports the bundled sample\'s progress under the import id, ending with every job read', async () => {
    const all: ImportEvent[] = []
    const offAll = backend.subscribe('import', (e) => all.push(e))
    const { events, off } = progressOf('imp-sample-1')
    const w = await backend.importLog({ kind: 'sample' }, {}, { importId: 'imp-sample-1' })
    off()
    expect(events.length).toBeGreaterThan(0)
    const size = statSync(KTH).size
    const last = events[events.length - 1]
    expect(last).toEqual({ importId: 'imp-sample-1', kind: 'progress', bytesRead: size, totalBytes: size, jobsRead: w.report.jobsRead })
    expect(w.report.jobsRead).toBeGreaterThan(20_000)
    for (let i = 1; i < events.length; i++) expect(events[i].jobsRead).toBeGreaterThanOrEqual(events[i - 1].jobsRead)
    // Without tracking: no import event at all.
    const before = all.length
    await backend.importLog({ kind: 'sample' }, {})
    offAll()
    expect(all.length).toBe(before)
  })

  it('reports a large log\'s jobs growing while it reads', async () => {
    const { handle } = backend.addFile(big)
    const { events, off } = progressOf('imp-big-1', () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, IMPORT_PROGRESS_EVERY_MS + 10))
    const w = await backend.importLog({ kind: 'handle', handle }, {}, { importId: 'imp-big-1' })
    off()
    expect(w.report.jobsRead).toBe(BIG_JOBS)
    expect(events.length).toBeGreaterThanOrEqual(3)
    expect(events.some((e) => e.jobsRead > 0 && e.jobsRead < BIG_JOBS)).toBe(true)
    for (let i = 1; i < events.length; i++) expect(events[i].jobsRead).toBeGreaterThanOrEqual(events[i - 1].jobsRead)
    expect(events[events.length - 1].jobsRead).toBe(BIG_JOBS)
  })

  it('cancel(importId) after the first progress event stops the import: it rejects and keeps no workload', async () => {
    const { handle } = backend.addFile(big)
    const had = loaded(backend)
    const { events, off } = progressOf('imp-cancel-1', (e) => { if (events.length === 1) backend.cancel(e.importId) })
    const importing = backend.importLog({ kind: 'handle', handle }, {}, { importId: 'imp-cancel-1' })
    await expect(importing).rejects.toThrow(ImportCancelledError)
    await expect(importing).rejects.toThrow(/^the import was cancelled$/)
    off()
    expect(events).toHaveLength(1)
    expect(events[0].bytesRead).toBeLessThan(events[0].totalBytes)
    expect(loaded(backend)).toBe(had)
    // The id is free again, and the handle still works.
    const again = await backend.importLog({ kind: 'handle', handle }, {}, { importId: 'imp-cancel-1' })
    expect(again.report.jobsRead).toBe(BIG_JOBS)
    expect(() => backend.cancel('imp-cancel-1')).not.toThrow() // finished: ignored
    // Over HTTP it is a plain 400 with the message, not an internal error.
    expect(failure(new ImportCancelledError())).toEqual({ status: 400, error: 'the import was cancelled' })
  })

  it('refuses a second import under a running import\'s id', async () => {
    const { handle } = backend.addFile(big)
    const first = backend.importLog({ kind: 'handle', handle }, {}, { importId: 'imp-dup' })
    await expect(backend.importLog({ kind: 'sample' }, {}, { importId: 'imp-dup' })).rejects.toThrow(/already running/)
    await expect(first).resolves.toMatchObject({ name: 'big.swf' })
  })

  it('throttles progress to about 5 per second, always passing the final one', () => {
    const got: ImportEvent[] = []
    const tracker = new ImportTracker((e) => got.push(e))
    const t = tracker.start('i1')
    for (let i = 0; i < 50; i++) t.onProgress({ bytesRead: i, totalBytes: 100, jobsRead: i })
    t.onProgress({ bytesRead: 100, totalBytes: 100, jobsRead: 77 })
    expect(got).toEqual([
      { importId: 'i1', kind: 'progress', bytesRead: 0, totalBytes: 100, jobsRead: 0 },
      { importId: 'i1', kind: 'progress', bytesRead: 100, totalBytes: 100, jobsRead: 77 },
    ])
    expect(tracker.active).toBe(1)
    expect(tracker.cancel('i1')).toBe(true)
    expect(t.signal.aborted).toBe(true)
    expect(() => t.check()).toThrow(ImportCancelledError)
    t.finish()
    expect(tracker.active).toBe(0)
    expect(tracker.cancel('i1')).toBe(false)
  })
})
