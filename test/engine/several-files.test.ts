// The engine workers read a log kept as several files themselves (WorkloadSetup.logPaths): the
// same results as the one-file log, and a cache key that covers every file's content.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EnginePool, hashLogFiles } from '../../src/engine/pool'
import { bytes, buildWorker, CELLS, inProcess, KTH, kthSetup, removeWorker } from './support'

let workerPath = ''
const tmp = mkdtempSync(join(tmpdir(), 'easytune-files-engine-'))
let parts: string[] = []
beforeAll(async () => {
  workerPath = await buildWorker()
  // KTH cut in two SWF files, each with the header; the 20 jobs around the cut are in both.
  const text = gunzipSync(readFileSync(KTH)).toString('utf8').split('\n')
  const header = text.filter((l) => l.startsWith(';'))
  const jobs = text.filter((l) => l.trim() !== '' && !l.startsWith(';'))
  const cut = Math.floor(jobs.length / 2)
  parts = [join(tmp, 'a.swf'), join(tmp, 'b.swf')]
  writeFileSync(parts[0], [...header, ...jobs.slice(0, cut + 10)].join('\n') + '\n')
  writeFileSync(parts[1], [...header, ...jobs.slice(cut - 10)].join('\n') + '\n')
}, 120_000)
afterAll(() => { removeWorker(workerPath); rmSync(tmp, { recursive: true, force: true }) })

describe('several files in the workers', () => {
  it('the workers read every file: the cells equal those of the one-file log', { timeout: 120_000 }, async () => {
    const setup = { ...kthSetup(), logPath: parts[0], logPaths: parts }
    const r = await new EnginePool({ workers: 2, workerPath }).run(setup, CELLS)
    expect(bytes(r)).toEqual(bytes(await inProcess(kthSetup(), CELLS)))
  })

  it('the log hash covers every file, in order', async () => {
    const one = await hashLogFiles([parts[0]])
    const both = await hashLogFiles(parts)
    expect(both).not.toBe(one)
    expect(await hashLogFiles([parts[1], parts[0]])).not.toBe(both)
    const before = both
    writeFileSync(parts[1], readFileSync(parts[1], 'utf8').replace(/\n$/, '\n; Note: changed\n'))
    expect(await hashLogFiles(parts)).not.toBe(before)
  })
})
