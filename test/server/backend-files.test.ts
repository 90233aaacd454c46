// The back end imports several handed-over files as one log (LogSource 'handles'), names them as
// the user knows them (an upload's temporary path means nothing), and the autosave records every
// path: restore re-imports all of them, and a missing one means logMissing.
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Backend } from '../../src/backend/backend'
import { buildWorker, removeWorker } from '../engine/support'
import { projectState, tempDir } from './support'

const T0 = 1622505600 // 2021-06-01T00:00:00Z
const H = 3600
const line = (id: number, at: number, user: string) => {
  const submit = T0 + at
  return `2021-06-01 00:00:00 jobstate=COMPLETED jobid=${id} username=${user} account=acc start=${submit + 60} end=${submit + 660} submit=${submit} nodes=r1 procs=1 batch=yes jobname=j partition=core limit=01:00:00`
}
const A = [line(1, 0, 'alice'), line(2, 1 * H, 'alice'), line(3, 2 * H, 'alice')].join('\n') + '\n'
const B = [line(3, 2 * H, 'alice'), line(4, 3 * H, 'bob')].join('\n') + '\n'
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex')

describe('Backend: several files as one log', () => {
  let workerPath = ''
  let tmp: ReturnType<typeof tempDir>
  beforeAll(async () => { workerPath = await buildWorker(); tmp = tempDir() }, 120_000)
  afterAll(() => { removeWorker(workerPath); tmp?.remove() })

  it('imports two handles as one log in a worker, the report naming each file as the user knows it', async () => {
    const b = new Backend({ mode: 'browser', stateDir: join(tmp.dir, 's1'), cacheDir: null, workerPath })
    try {
      const pa = join(tmp.dir, 'upload-1.tmp')
      const pb = join(tmp.dir, 'upload-2.tmp')
      writeFileSync(pa, A)
      writeFileSync(pb, B)
      const ha = b.addFile(pa, 'day1.log', { temporary: true })
      const hb = b.addFile(pb, 'day2.log', { temporary: true })
      const w = await b.importLog({ kind: 'handles', handles: [ha.handle, hb.handle] }, {})
      expect(w.report.jobsKept).toBe(4)
      expect(w.report.duplicates).toBe(1)
      expect(w.report.files!.map((f) => [f.name, f.jobsRead, f.duplicates])).toEqual([['day1.log', 3, 0], ['day2.log', 2, 1]])
      expect(w.name).toBe('day1.log … day2.log (2 files)')
      // The log's hash is the hash of the two files' hashes, in order (src/engine/log-hash.ts).
      expect(w.sha256).toBe(sha(`easytune-log-files\n${sha(readFileSync(pa))}\n${sha(readFileSync(pb))}\n`))

      const ps = join(tmp.dir, 'upload-3.tmp')
      writeFileSync(ps, '; MaxProcs: 8\n1 0 -1 600 1 -1 -1 1 3600 -1 1 1 1 -1 -1 -1 -1 -1\n')
      const hs = b.addFile(ps, 'odd.swf', { temporary: true })
      const err = await b.importLog({ kind: 'handles', handles: [ha.handle, hs.handle] }, {}).then(() => new Error('imported'), (e: unknown) => e as Error)
      expect(err).toBeInstanceOf(Error)
      expect(err.message).toMatch(/is a swf log \(detected\) while day1\.log is a jobcomp log/)
      expect(String((err as { file?: string }).file)).toBe('odd.swf')
      expect(err.message).not.toMatch(/upload-/)
    } finally {
      await b.close()
    }
  }, 60_000)

  it('desktop: a dropped folder is one log of its files, by name', async () => {
    const b = new Backend({ mode: 'desktop', stateDir: join(tmp.dir, 's3'), cacheDir: null, workerPath })
    try {
      const folder = join(tmp.dir, 'daily')
      mkdirSync(folder)
      writeFileSync(join(folder, 'day2.log'), B)
      writeFileSync(join(folder, 'day1.log'), A)
      writeFileSync(join(folder, '.DS_Store'), 'not a log')
      const h = await b.addLogFile({ path: folder })
      expect(h.name).toBe('daily (2 files)')
      const w = await b.importLog({ kind: 'handle', handle: h.handle }, {})
      expect(w.name).toBe('daily (2 files)')
      expect(w.report.files!.map((f) => f.name)).toEqual(['day1.log', 'day2.log'])
      expect(w.report.jobsKept).toBe(4)
    } finally {
      await b.close()
    }
  }, 60_000)

  it('autosaves every path; restore re-imports all of them, and one missing file means logMissing', async () => {
    const stateDir = join(tmp.dir, 's2')
    const pa = join(tmp.dir, 'a.log')
    const pb = join(tmp.dir, 'b.log')
    writeFileSync(pa, A)
    writeFileSync(pb, B)
    const b1 = new Backend({ mode: 'desktop', stateDir, cacheDir: null, workerPath })
    let sha256 = ''
    try {
      const w = await b1.importLog({ kind: 'handles', handles: [b1.addFile(pa).handle, b1.addFile(pb).handle] }, {})
      sha256 = w.sha256
      await b1.autosave(projectState({ log: { name: w.name, sha256 }, step: 2 }))
      const rec = JSON.parse(readFileSync(join(stateDir, 'autosave.json'), 'utf8'))
      expect(rec.logPaths).toEqual([pa, pb])
    } finally {
      await b1.close()
    }
    const b2 = new Backend({ mode: 'desktop', stateDir, cacheDir: null, workerPath })
    try {
      const r = await b2.restoreLastProject()
      expect(r?.logMissing).toBe(false)
      expect(r?.workload?.sha256).toBe(sha256)
      expect(r?.workload?.report.jobsKept).toBe(4)
      expect(r?.workload?.report.files?.map((f) => f.name)).toEqual(['a.log', 'b.log'])
      rmSync(pb)
      expect(await b2.restoreLastProject()).toMatchObject({ logMissing: true, workload: null })
    } finally {
      await b2.close()
    }
  }, 60_000)
})
