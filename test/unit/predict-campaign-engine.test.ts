// The prediction campaign on the engine pool (src/engine/predictions.ts): progress that ends at 1,
// cancel that keeps the finished units in the cache, and cache entries that are refused when they
// are not the entry of their key.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { EASY_ID, TRIPLES } from '../../src/core/predict/campaign'
import { DEFAULTS } from '../../src/core/defaults'
import { EnginePool } from '../../src/engine/pool'
import { decodePredictionEntry, PredictionCache, predictionCampaignOnPool, type PredictionCampaignProgress, type PredictionLogInput } from '../../src/engine/predictions'

let dir = ''
let logs: PredictionLogInput[] = []
const options = { primary: 'FCFS', threshold: null, tau: 10 }
const triples = TRIPLES.filter((t) => !t.learned).map((t) => t.id)

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'easytune-predictions-engine-'))
  logs = [1, 2].map((k) => {
    const lines = ['; MaxProcs: 4']
    for (let i = 1; i <= 40; i++) lines.push(`${i} ${i * 50 * k} -1 ${100 + ((i * 37 * k) % 400)} ${1 + (i % 4)} -1 -1 ${1 + (i % 4)} ${1000} -1 1 ${1 + (i % 3)} 1 -1 -1 -1 -1 -1`)
    const p = join(dir, `log${k}.swf`)
    writeFileSync(p, lines.join('\n') + '\n')
    return { setup: { logPath: p, importOptions: {}, split: DEFAULTS.split.value, resample: { method: DEFAULTS.resample.value, weeks: 1, seed: 1 }, tau: 10 }, jobs: 40 }
  })
})

describe('the prediction campaign on the pool', () => {
  it('reports progress up to every unit done, fraction 1 and no time left', async () => {
    const seen: PredictionCampaignProgress[] = []
    const r = await predictionCampaignOnPool(new EnginePool({ workers: 2 }), logs, triples, options, { onProgress: (p) => seen.push(p) })
    expect(r.metrics.length).toBe(2)
    expect(r.metrics[0].length).toBe(triples.length)
    expect(r.computedUnits).toBe(2 * triples.length)
    const last = seen[seen.length - 1]
    expect(last).toMatchObject({ unitsDone: 20, unitsTotal: 20, cachedUnits: 0, fraction: 1, etaSeconds: 0, log: 1 })
    for (let i = 1; i < seen.length; i++) expect(seen[i].unitsDone).toBeGreaterThanOrEqual(seen[i - 1].unitsDone)
  })

  it('stops on cancel, keeping the finished units in the cache for the next run', async () => {
    const cacheDir = join(dir, 'cache-cancel')
    const cache = new PredictionCache(cacheDir)
    const abort = new AbortController()
    const run = predictionCampaignOnPool(new EnginePool({ workers: 1 }), logs, triples, options, {
      cache, signal: abort.signal, onProgress: (p) => { if (p.unitsDone >= 3) abort.abort() },
    })
    await expect(run).rejects.toMatchObject({ name: 'AbortError' })
    const kept = readdirSync(cacheDir).filter((f) => f.endsWith('.pred.json')).length
    expect(kept).toBeGreaterThanOrEqual(3)
    expect(kept).toBeLessThan(20)
    const resumed = await predictionCampaignOnPool(new EnginePool({ workers: 1 }), logs, triples, options, { cache })
    expect(resumed.cachedUnits).toBe(kept)
    const fresh = await predictionCampaignOnPool(new EnginePool({ workers: 2 }), logs, triples, options, {})
    expect(resumed.metrics).toEqual(fresh.metrics)
  })

  it('reads an entry only under its own key, complete and of this version', () => {
    const key = 'a'.repeat(64)
    const result = { jobs: 3, avgBsld: 1.5, maxBsld: 2, avgWait: 10, extremeShare: 0, extremeJobs: 0, extremeBound: 2, mae: 1, meanELoss: 4, underShare: 0, corrections: 0 }
    const text = JSON.stringify({ v: 1, key, result })
    expect(decodePredictionEntry(text, key)).toEqual(result)
    expect(decodePredictionEntry(text, 'b'.repeat(64))).toBeNull()
    expect(decodePredictionEntry(JSON.stringify({ v: 0, key, result }), key)).toBeNull()
    expect(decodePredictionEntry(JSON.stringify({ v: 1, key, result: { ...result, avgBsld: 'x' } }), key)).toBeNull()
    expect(decodePredictionEntry(text.slice(0, 40), key)).toBeNull()
  })

  it('keys the cache on the log, the triple and the options', () => {
    const cache = new PredictionCache(dir)
    const scope = { workloadHash: 'h', engine: 'e', setup: logs[0].setup }
    const k = cache.key(scope, EASY_ID, options)
    expect(cache.key(scope, EASY_ID, { ...options })).toBe(k)
    expect(cache.key({ ...scope, setup: { ...scope.setup, importOptions: { name: 'another name' } } }, EASY_ID, options)).toBe(k) // the display name is not part of it
    for (const other of [
      cache.key({ ...scope, workloadHash: 'h2' }, EASY_ID, options), cache.key({ ...scope, engine: 'e2' }, EASY_ID, options),
      cache.key(scope, TRIPLES[1].id, options), cache.key(scope, EASY_ID, { ...options, primary: 'SPF' }),
      cache.key(scope, EASY_ID, { ...options, threshold: 72000 }), cache.key(scope, EASY_ID, { ...options, tau: 60 }),
      cache.key({ ...scope, setup: { ...scope.setup, importOptions: { overrun: 'clamp' } } }, EASY_ID, options),
    ]) expect(other).not.toBe(k)
  })
})
