// The trials on the engine pool (src/engine/learn.ts, docs/LEARN.md §Trials): the same result
// with one worker, two workers and in this thread; progress up to every tuple; cancel keeps the
// finished tuples in the cache, and a larger K reuses them; a cancelled tuple continues from its
// checkpoint with the result of an uninterrupted run.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { DEFAULTS } from '../../src/core/defaults'
import { runTrials, TRIALS_BATCH } from '../../src/core/learn/trials'
import type { TrialsConfig } from '../../src/core/learn/types'
import { splitWorkload } from '../../src/core/tune/split'
import { EnginePool } from '../../src/engine/pool'
import { decodeLearnEntry, LearnCache, learnTrialsOnPool, type LearnLogInput, type LearnProgress } from '../../src/engine/learn'
import { readLog } from '../../src/node/read-log'

let dir = ''
let log: LearnLogInput
const config: TrialsConfig = { sizeS: 16, sizeQ: 32, trials: 2 * TRIALS_BATCH, tuples: 4, stopAt: 0, tau: 10, seed: 5 }

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'easytune-learn-engine-'))
  const lines = ['; MaxProcs: 8']
  for (let i = 1; i <= 240; i++) lines.push(`${i} ${i * 40} -1 ${30 + ((i * 37) % 400)} ${1 + ((i * 5) % 8)} -1 -1 ${1 + ((i * 5) % 8)} ${1000} -1 1 ${1 + (i % 3)} 1 -1 -1 -1 -1 -1`)
  const p = join(dir, 'log.swf')
  writeFileSync(p, lines.join('\n') + '\n')
  log = { setup: { logPath: p, importOptions: {}, split: DEFAULTS.split.value, resample: { method: DEFAULTS.resample.value, weeks: 1, seed: 1 }, tau: 10 } }
})

describe('the trials on the pool', () => {
  it('gives the same result with one and two workers as in this thread, with progress to the end', async () => {
    const seen: LearnProgress[] = []
    const two = await learnTrialsOnPool(new EnginePool({ workers: 2 }), log, config, { onProgress: (p) => seen.push(p) })
    const one = await learnTrialsOnPool(new EnginePool({ workers: 1 }), log, config)
    expect(one.result).toEqual(two.result)
    const w = await readLog(log.setup.logPath)
    const train = splitWorkload(w.jobs, w.machineProcs, DEFAULTS.split.value).train
    expect(two.result).toEqual(runTrials(train, w.machineProcs, config))
    expect(two.result.machineProcs).toBe(8)
    expect(seen[seen.length - 1]).toMatchObject({ tuplesDone: 4, tuplesTotal: 4, fraction: 1, etaSeconds: 0, trials: 4 * 2 * TRIALS_BATCH })
  })

  it('keeps the finished tuples on cancel, resumes from them, and reuses them for a larger K', async () => {
    const cache = new LearnCache(join(dir, 'cache'))
    const abort = new AbortController()
    const run = learnTrialsOnPool(new EnginePool({ workers: 1 }), log, config, { cache, signal: abort.signal, onProgress: (p) => { if (p.tuplesDone >= 2) abort.abort() } })
    await expect(run).rejects.toMatchObject({ name: 'AbortError' })
    const kept = readdirSync(cache.dir).filter((f) => f.endsWith('.learn.json')).length
    expect(kept).toBeGreaterThanOrEqual(2)
    expect(kept).toBeLessThan(4)
    const resumed = await learnTrialsOnPool(new EnginePool({ workers: 2 }), log, config, { cache })
    expect(resumed.cachedTuples).toBe(kept)
    const fresh = await learnTrialsOnPool(new EnginePool({ workers: 2 }), log, config)
    expect(resumed.result).toEqual(fresh.result)
    const more = await learnTrialsOnPool(new EnginePool({ workers: 2 }), log, { ...config, tuples: 5 }, { cache })
    expect(more.cachedTuples).toBe(4)
    expect(more.result.tuples.slice(0, 4)).toEqual(fresh.result.tuples)
  })

  it('continues a cancelled tuple from its checkpoint, bit for bit, and only under the same seed and budget', async () => {
    const long: TrialsConfig = { ...config, trials: 12 * TRIALS_BATCH, tuples: 2, seed: 9 }
    const cache = new LearnCache(join(dir, 'cache-partial'))
    const abort = new AbortController()
    // one worker: tuple 0 runs first; cancel once it is 3 batches in, a checkpoint after every batch
    const run = learnTrialsOnPool(new EnginePool({ workers: 1 }), log, long, { cache, checkpointMs: 0, signal: abort.signal, onProgress: (p) => { if (p.tuplesDone === 0 && p.trials >= 3 * TRIALS_BATCH) abort.abort() } })
    await expect(run).rejects.toMatchObject({ name: 'AbortError' })
    const files = () => readdirSync(cache.dir)
    expect(files().filter((f) => f.endsWith('.learn.json'))).toEqual([])
    expect(files().filter((f) => f.endsWith('.learn-partial.json'))).toHaveLength(1)
    // another seed (or budget) never reads it
    const other = await learnTrialsOnPool(new EnginePool({ workers: 1 }), log, { ...long, seed: 10, tuples: 1 }, { cache, checkpointMs: 0 })
    expect(other.resumedTuples).toBe(0)
    const resumed = await learnTrialsOnPool(new EnginePool({ workers: 2 }), log, long, { cache })
    expect(resumed.resumedTuples).toBe(1)
    expect(resumed.resumedTrials).toBeGreaterThanOrEqual(3 * TRIALS_BATCH)
    expect(resumed.resumedTrials % TRIALS_BATCH).toBe(0)
    const fresh = await learnTrialsOnPool(new EnginePool({ workers: 2 }), log, long)
    expect(resumed.result).toEqual(fresh.result)
    expect(JSON.stringify(resumed.result)).toBe(JSON.stringify(fresh.result))
    // once stored, the tuple's checkpoint is gone
    expect(files().filter((f) => f.endsWith('.learn.json'))).toHaveLength(3) // tuples 0 and 1, and the other seed's
    expect(files().filter((f) => f.endsWith('.learn-partial.json'))).toEqual([])
  })

  it('reads an entry only under its own key, complete and of this version', () => {
    const key = 'b'.repeat(64)
    const answer = { machineProcs: 8, trainingJobs: 120, result: { tuple: 0, firstJob: 3, trials: 2, stoppedEarly: false, samples: [{ tuple: 0, r: 10, n: 1, s: 5, p: 9, score: 1 }], convergence: [{ trials: 2, normStd: null }] } }
    const text = JSON.stringify({ v: 1, key, answer })
    expect(decodeLearnEntry(text, key)?.result.convergence).toEqual([{ trials: 2, normStd: Infinity }])
    expect(decodeLearnEntry(text, 'c'.repeat(64))).toBeNull()
    expect(decodeLearnEntry(JSON.stringify({ v: 2, key, answer }), key)).toBeNull()
    expect(decodeLearnEntry(JSON.stringify({ v: 1, key, answer: { ...answer, result: { ...answer.result, samples: [{ r: 1 }] } } }), key)).toBeNull()
    expect(decodeLearnEntry('{', key)).toBeNull()
  })
})
