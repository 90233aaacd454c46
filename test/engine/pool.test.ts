// The engine pool end to end, with real worker processes on a small KTH campaign (6 resampled
// weeks per part): same results for any number of workers, crash recovery, cancel, the cell
// cache, and input errors.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { CellSpec } from '../../src/core/tune/campaign'
import { CellCache } from '../../src/engine/cache'
import { defaultWorkerPath, EnginePool, type CrashInfo, type EngineProgress } from '../../src/engine/pool'
import { FileInputError } from '../../src/node/read-log'
import { alive, buildWorker, bytes, CELLS, inProcess, kthSetup, removeWorker, SHIM_URL, tracked } from './support'

let workerPath = ''
let tmp = ''
beforeAll(async () => {
  workerPath = await buildWorker()
  tmp = mkdtempSync(join(tmpdir(), 'easytune-pool-'))
})
afterAll(() => {
  removeWorker(workerPath)
  rmSync(tmp, { recursive: true, force: true })
})
const cacheDir = (name: string) => join(tmp, name)
const cellFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.cell'))
const crashEnv = (n: number) => ({ ...process.env, EASYTUNE_TEST_CRASH_AFTER: String(n) })

describe('results', () => {
  test('are identical with 1 and 2 workers and equal to runCell in-process', async () => {
    const setup = kthSetup()
    const expected = bytes(await inProcess(setup, CELLS))
    const ms: number[] = []
    for (const workers of [1, 2]) {
      const { t, fork } = tracked()
      const t0 = performance.now()
      const r = await new EnginePool({ workers, workerPath, fork }).run(setup, CELLS)
      ms.push(performance.now() - t0)
      expect(bytes(r)).toEqual(expected)
      expect(t.forks).toBe(workers)
      expect(t.pids.every((p) => !alive(p))).toBe(true)
    }
    console.info(`4-cell KTH campaign (6 weeks): 1 worker ${ms[0].toFixed(0)} ms, 2 workers ${ms[1].toFixed(0)} ms`)
  })

  test('are the same through the utilityProcess (parentPort) branch of the worker', async () => {
    const setup = kthSetup()
    const { t, fork } = tracked({ execArgv: ['--import', SHIM_URL] })
    const r = await new EnginePool({ workers: 2, workerPath, fork }).run(setup, CELLS)
    expect(bytes(r)).toEqual(bytes(await inProcess(setup, CELLS)))
    expect(t.forks).toBe(2)
  })

  test('progress counts cells and samples up to the totals, with per-worker state', async () => {
    const events: EngineProgress[] = []
    await new EnginePool({ workers: 2, workerPath }).run(kthSetup(), CELLS, { onProgress: (p) => events.push(structuredClone(p)) })
    const last = events[events.length - 1]
    expect(last).toMatchObject({ cellsDone: 4, cellsTotal: 4, cachedCells: 0, samplesDone: 24, samplesTotal: 24, etaSeconds: 0 })
    const done = events.map((e) => e.cellsDone)
    expect(done).toEqual([...done].sort((a, b) => a - b))
    const busy = events.flatMap((e) => e.perWorker).filter((w) => w.state === 'busy')
    expect(busy.length).toBeGreaterThan(0)
    expect(busy.every((w) => typeof w.pid === 'number' && /^EASY-/.test(w.cell ?? ''))).toBe(true)
  })

  test('with half the cells cached, the samples total is the same at every event and samples only grow', async () => {
    // 4 cells of 6 resampled weeks each: 24 samples, 12 of them (2 cells) from the cache.
    const cache = new CellCache(cacheDir('progress-half'))
    await new EnginePool({ workers: 1, workerPath }).run(kthSetup(), CELLS.slice(0, 2), { cache })
    const events: EngineProgress[] = []
    await new EnginePool({ workers: 2, workerPath }).run(kthSetup(), CELLS, { cache, onProgress: (p) => events.push(structuredClone(p)) })
    const known = events.filter((e) => e.samplesTotal > 0)
    expect(known.length).toBeGreaterThan(2)
    expect(known.every((e) => e.samplesTotal === 24 && e.samplesDone >= 12 && e.samplesDone <= 24)).toBe(true)
    const done = known.map((e) => e.samplesDone)
    expect(done).toEqual([...done].sort((a, b) => a - b))
    expect(events[events.length - 1]).toMatchObject({ cellsDone: 4, cachedCells: 2, samplesDone: 24, samplesTotal: 24 })
  })
})

describe('crashes', () => {
  test('a worker killed mid-campaign loses no finished cell and the results are unchanged', async () => {
    const setup = kthSetup()
    const crashes: CrashInfo[] = []
    const { t, fork } = tracked({ env: crashEnv(2) }) // every worker dies when handed its 3rd cell
    const r = await new EnginePool({ workers: 1, workerPath, fork }).run(setup, CELLS, { onWorkerCrash: (c) => crashes.push(c) })
    expect(bytes(r)).toEqual(bytes(await inProcess(setup, CELLS)))
    expect(crashes).toHaveLength(1)
    expect(crashes[0]).toMatchObject({ worker: 1, pid: t.pids[0], code: 1, cell: 'EASY-LQF-SPF Θ=none (test)' })
    expect(crashes[0].message).toBe(`engine worker 1 (pid ${t.pids[0]}) stopped unexpectedly (exit code 1); its cell EASY-LQF-SPF Θ=none (test) was restarted on a fresh worker`)
    expect(t.forks).toBe(2)
    expect(t.cellsSent).toBe(5) // 4 cells + the one in flight at the crash; the 2 finished were not re-run
  })

  test('with 2 workers only in-flight cells are re-run', async () => {
    const setup = kthSetup()
    const crashes: CrashInfo[] = []
    const { t, fork } = tracked({ env: crashEnv(1) })
    const r = await new EnginePool({ workers: 2, workerPath, fork }).run(setup, CELLS, { onWorkerCrash: (c) => crashes.push(c) })
    expect(bytes(r)).toEqual(bytes(await inProcess(setup, CELLS)))
    expect(crashes.length).toBeGreaterThan(0)
    expect(t.cellsSent).toBe(CELLS.length + crashes.length)
    expect(t.pids.every((p) => !alive(p))).toBe(true)
  })

  test('gives up with a clear error after 3 crashes of the same cell', async () => {
    const { t, fork } = tracked({ env: crashEnv(0) })
    const run = new EnginePool({ workers: 1, workerPath, fork }).run(kthSetup(), CELLS.slice(1, 2))
    await expect(run).rejects.toThrow('cell EASY-SPF Θ=20 h (train) stopped its engine worker 3 times (last: engine worker 1')
    expect(t.forks).toBe(3)
    expect(t.pids.every((p) => !alive(p))).toBe(true)
  })
})

describe('cancel', () => {
  test('an aborted run stops its workers, rejects with AbortError and keeps finished cells', async () => {
    // Cells long enough (about 1 s each here) that waiting for the in-flight ones would show.
    const setup = kthSetup(500)
    const cells: CellSpec[] = ['FCFS', 'SPF', 'LPF', 'LQF'].map((p) => ({ candidate: { primary: p, backfill: 'same' }, threshold: 72000, part: 'train' }))
    const cellMs: number[] = []
    const t0 = performance.now()
    const cache = new CellCache(cacheDir('cancel'))
    const ac = new AbortController()
    const { t, fork } = tracked()
    let abortedAt = 0
    const run = new EnginePool({ workers: 2, workerPath, fork }).run(setup, cells, {
      cache, signal: ac.signal,
      onProgress: (p) => {
        if (p.cellsDone === 0 || abortedAt) return
        cellMs.push(performance.now() - t0)
        abortedAt = performance.now()
        ac.abort() // one cell done; the other worker is mid-cell, the first has just started its next
      },
    })
    const err = await run.then(() => null, (e: unknown) => e as Error)
    const stopMs = performance.now() - abortedAt
    console.info(`cancel: first cell after ${cellMs[0].toFixed(0)} ms (incl. setup), workers stopped ${stopMs.toFixed(0)} ms after abort`)
    expect(err?.name).toBe('AbortError')
    expect(stopMs).toBeLessThan(400)
    expect(t.pids.length).toBe(2)
    expect(t.pids.every((p) => !alive(p))).toBe(true)
    const kept = cellFiles(cache.dir).length
    expect(kept).toBeGreaterThanOrEqual(1)
    expect(kept).toBeLessThan(cells.length)
    // Resuming computes only what the cancelled run had not finished.
    const again = tracked()
    const r = await new EnginePool({ workers: 2, workerPath, fork: again.fork }).run(setup, cells, { cache })
    expect(again.t.cellsSent).toBe(cells.length - kept)
    expect(r.size).toBe(cells.length)
  })

  test('an already aborted signal rejects without starting a worker', async () => {
    const { t, fork } = tracked()
    await expect(new EnginePool({ workers: 2, workerPath, fork }).run(kthSetup(), CELLS, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' })
    expect(t.forks).toBe(0)
  })
})

describe('cache', () => {
  test('a re-run computes nothing, a new threshold computes only its cells, a corrupt entry is recomputed', async () => {
    const setup = kthSetup()
    const cache = new CellCache(cacheDir('reuse'))
    const expected = bytes(await inProcess(setup, CELLS))
    const run = async (cells: CellSpec[]) => {
      const { t, fork } = tracked()
      let last: EngineProgress | null = null
      const r = await new EnginePool({ workers: 2, workerPath, fork }).run(setup, cells, { cache, onProgress: (p) => { last = p } })
      return { r, t, last: last as EngineProgress | null }
    }
    const first = await run(CELLS)
    expect(first.t.cellsSent).toBe(4)
    expect(bytes(first.r)).toEqual(expected)
    expect(cellFiles(cache.dir)).toHaveLength(4)
    expect(readdirSync(cache.dir).filter((f) => f.endsWith('.tmp'))).toEqual([])

    const second = await run(CELLS)
    expect(second.t.forks).toBe(0)
    expect(second.last).toMatchObject({ cellsDone: 4, cachedCells: 4, samplesDone: 24, samplesTotal: 24 })
    expect(bytes(second.r)).toEqual(expected)

    const more: CellSpec[] = [...CELLS, { ...CELLS[1], threshold: 200000 }, { ...CELLS[3], threshold: 200000 }]
    const third = await run(more)
    expect(third.t.cellsSent).toBe(2)
    expect(bytes(third.r)).toEqual(bytes(await inProcess(setup, more)))

    const victim = join(cache.dir, cellFiles(cache.dir)[0])
    const b = readFileSync(victim)
    b[b.length >> 1] ^= 0xff
    writeFileSync(victim, b)
    const fourth = await run(more)
    expect(fourth.t.cellsSent).toBe(1)
    expect(bytes(fourth.r)).toEqual(bytes(third.r))

    // Two entries swapped on disk: each records its own key, so both are recomputed, with a warning.
    const [a, z] = cellFiles(cache.dir).map((f) => join(cache.dir, f))
    const ab = readFileSync(a)
    writeFileSync(a, readFileSync(z))
    writeFileSync(z, ab)
    const warnings: string[] = []
    const { t, fork } = tracked()
    const fifth = await new EnginePool({ workers: 2, workerPath, fork }).run(setup, more, { cache, onWarning: (m) => warnings.push(m) })
    expect(t.cellsSent).toBe(2)
    expect(bytes(fifth)).toEqual(bytes(third.r))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/^2 cache entries in .* held another cell's result \(files renamed or copied over each other\) and will be recomputed$/)

    // An entry replaced by a FIFO: never opened for a blocking read, recomputed (and replaced), warned.
    rmSync(a)
    execFileSync('mkfifo', [a])
    const fifoWarnings: string[] = []
    const again = tracked()
    const sixth = await new EnginePool({ workers: 2, workerPath, fork: again.fork }).run(setup, more, { cache, onWarning: (m) => fifoWarnings.push(m) })
    expect(again.t.cellsSent).toBe(1)
    expect(bytes(sixth)).toEqual(bytes(third.r))
    expect(fifoWarnings).toEqual([expect.stringMatching(/^1 cache entry in .* is not a regular file \(a FIFO, socket or device\) and will be recomputed: .*\.cell$/)])
    expect(statSync(a).isFile()).toBe(true)
  })

  test('another seed is another key: nothing is reused', async () => {
    const cache = new CellCache(cacheDir('seed'))
    await new EnginePool({ workers: 2, workerPath }).run(kthSetup(6, 1), CELLS, { cache })
    const { t, fork } = tracked()
    await new EnginePool({ workers: 2, workerPath, fork }).run(kthSetup(6, 2), CELLS, { cache })
    expect(t.cellsSent).toBe(4)
  })
})

describe('errors', () => {
  test.each([false, true])('a missing log file is a FileInputError naming the file (cache: %s)', async (withCache) => {
    const logPath = join(tmp, 'no-such-log.swf')
    const { t, fork } = tracked()
    const cache = withCache ? new CellCache(cacheDir('missing')) : undefined
    const err = await new EnginePool({ workers: 2, workerPath, fork }).run({ ...kthSetup(), logPath }, CELLS, { cache }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(FileInputError)
    expect(err).toMatchObject({ file: logPath, message: 'no such file' })
    expect(t.pids.every((p) => !alive(p))).toBe(true)
  })

  test('a failing cell rejects with its label', async () => {
    const bad: CellSpec = { candidate: { primary: 'NOPE', backfill: 'same' }, threshold: null, part: 'train' }
    await expect(new EnginePool({ workers: 1, workerPath }).run(kthSetup(), [bad])).rejects.toThrow(/^cell .*NOPE.* \(train\) failed: unknown policy "NOPE"/)
  })

  test('a missing worker bundle is named', async () => {
    await expect(new EnginePool({ workerPath: join(tmp, 'nope.js') }).run(kthSetup(), CELLS)).rejects.toThrow(/engine worker is not built: .*nope\.js is missing/)
  })
})

test('defaultWorkerPath finds out/engine/worker.js from the sources and from the CLI bundle', () => {
  const want = resolve('out/engine/worker.js')
  expect(defaultWorkerPath()).toBe(want)
  expect(defaultWorkerPath(pathToFileURL(resolve('out/cli/easytune.js')).href)).toBe(want)
})
