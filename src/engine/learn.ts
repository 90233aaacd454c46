// The trials of the learned-priority method (docs/LEARN.md §Trials) on the engine pool, for
// `easytune learn` and the app's Learn step: one unit per (S, Q) tuple, each running all its trials
// in batches inside a worker (no per-trial message). Finished tuples are kept in an on-disk cache,
// one small JSON file per tuple keyed by the log's hash, the split, the seed, the budget and the
// worker bundle: a re-run, a larger K or an interrupted run only computes the tuples that are
// missing. A tuple depends only on (log, split, config minus K, its index), and results are merged
// by index, so the result is the same bit for bit whatever the number of workers.
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { isCheckpointOf, poolTrials } from '../core/learn/trials'
import type { TrialsConfig, TrialsResult, TupleCheckpoint, TupleResult } from '../core/learn/types'
import { FAMILY } from '../core/learn/family'
import { regressionOf, usableSamples, type FittedSlice, type RegressionResult, type ScoreSample } from '../core/learn/regression'
import { DEFAULT_CACHE_DIR, hashFile, readEntryFile, writeEntryFile } from './cache'
import type { CrashInfo } from './lifecycle'
import type { EnginePool } from './pool'
import type { LearnTupleAnswer, WorkloadSetup, WorkUnit } from './protocol'
import { runUnitsStoring, UnitCache, unitCacheScope, type UnitCacheScope } from './unit-cache'

/** Bump when what a tuple computes changes in a way the engine hash would not show. */
export const LEARN_CACHE_VERSION = 1

/** Wall-clock milliseconds between two checkpoints of a running tuple (at most this much of a
 * tuple's work is lost on cancel). */
export const LEARN_CHECKPOINT_MS = 1000

export type LearnCacheScope = UnitCacheScope

/** One JSON file per tuple, named by a sha256 key over everything that determines it; beside it,
 * while the tuple runs, its checkpoint (`<key>.learn-partial.json`, the same key: another log,
 * split, seed or budget never reads it), removed once the tuple is stored. */
export class LearnCache extends UnitCache<LearnTupleAnswer> {
  constructor(dir: string = DEFAULT_CACHE_DIR) {
    super(dir, '.learn.json')
  }

  /** K (config.tuples) is not part of the key: tuple k is the same whatever K is. */
  key(scope: LearnCacheScope, config: TrialsConfig, tuple: number): string {
    const { tuples: _k, ...budget } = config
    return this.hashKey(scope, { kind: 'learn-tuple', v: LEARN_CACHE_VERSION, split: scope.setup.split, budget, tuple })
  }

  protected decode(text: string, key: string): LearnTupleAnswer | null {
    return decodeLearnEntry(text, key)
  }

  protected encode(key: string, a: LearnTupleAnswer): string {
    // Infinity (the normalised std before two trials) is not JSON: written as null.
    return JSON.stringify({ v: LEARN_CACHE_VERSION, key, answer: a })
  }

  partialPath(key: string): string {
    return join(this.dir, `${key}.learn-partial.json`)
  }

  /** The checkpoint of tuple k under `key` when it is one `config` can continue (isCheckpointOf), else null. */
  async getPartial(key: string, config: TrialsConfig, k: number): Promise<TupleCheckpoint | null> {
    const buf = await readEntryFile(this.partialPath(key))
    if (buf === null || buf === 'not-a-file') return null
    const cp = decodeLearnCheckpoint(buf.toString('utf8'), key)
    return cp && isCheckpointOf(cp, config, k) ? cp : null
  }

  /** Stores a checkpoint atomically (temp file + rename). */
  async putPartial(key: string, cp: TupleCheckpoint): Promise<void> {
    await writeEntryFile(this.partialPath(key), JSON.stringify({ v: LEARN_CACHE_VERSION, key, checkpoint: cp }))
  }

  async dropPartial(key: string): Promise<void> {
    await rm(this.partialPath(key), { force: true })
  }
}

/** The checkpoint of a partial entry's text when it is one of this version recorded under `key`
 * (its fit to a run is isCheckpointOf's). */
export function decodeLearnCheckpoint(text: string, key: string): TupleCheckpoint | null {
  try {
    const e = JSON.parse(text) as { v?: unknown; key?: unknown; checkpoint?: { convergence?: unknown } }
    if (e.v !== LEARN_CACHE_VERSION || e.key !== key || typeof e.checkpoint !== 'object' || e.checkpoint === null || !Array.isArray(e.checkpoint.convergence)) return null
    const convergence = (e.checkpoint.convergence as { trials?: unknown; normStd?: unknown }[]).map((c) => ({ trials: c?.trials, normStd: c?.normStd === null ? Infinity : c?.normStd }))
    return { ...(e.checkpoint as TupleCheckpoint), convergence: convergence as unknown as TupleCheckpoint['convergence'] }
  } catch {
    return null
  }
}

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

/** The answer of an entry's text when it is a complete entry of this version recorded under `key`. */
export function decodeLearnEntry(text: string, key: string): LearnTupleAnswer | null {
  try {
    const e = JSON.parse(text) as { v?: unknown; key?: unknown; answer?: { result?: TupleResult; machineProcs?: unknown; trainingJobs?: unknown } }
    if (e.v !== LEARN_CACHE_VERSION || e.key !== key || typeof e.answer !== 'object' || e.answer === null) return null
    const { result: r, machineProcs, trainingJobs } = e.answer
    if (!num(machineProcs) || !num(trainingJobs) || typeof r !== 'object' || r === null) return null
    if (!num(r.tuple) || !num(r.firstJob) || !num(r.trials) || typeof r.stoppedEarly !== 'boolean' || !Array.isArray(r.samples) || !Array.isArray(r.convergence)) return null
    for (const s of r.samples) if (typeof s !== 'object' || s === null || ![s.tuple, s.r, s.n, s.s, s.p, s.score].every(num)) return null
    const convergence = []
    for (const c of r.convergence as unknown[]) {
      const p = c as { trials?: unknown; normStd?: unknown }
      if (typeof c !== 'object' || c === null || !num(p.trials) || !(num(p.normStd) || p.normStd === null)) return null
      convergence.push({ trials: p.trials, normStd: p.normStd === null ? Infinity : p.normStd })
    }
    return { machineProcs, trainingJobs, result: { ...r, samples: r.samples.map((s) => ({ tuple: s.tuple, r: s.r, n: s.n, s: s.s, p: s.p, score: s.score })), convergence } }
  } catch {
    return null
  }
}

export interface LearnLogInput {
  /** The workers' view of the log (read only: `prepare: false` is set here; its split cuts the training part). */
  setup: WorkloadSetup
  /** sha256 of the log's files when the caller has it (computed otherwise, only with a cache). */
  workloadHash?: string
}

export interface LearnProgress {
  tuplesDone: number
  tuplesTotal: number
  cachedTuples: number
  /** Trials simulated so far in this run (finished tuples and the running ones' batches). */
  trials: number
  /** Trials per second of this run's computing; null until there is one. */
  trialsPerSecond: number | null
  /** Share of the work done (a tuple counts its ceiling of trials; one that stopped early counts whole), 0..1. */
  fraction: number
  /** Seconds left at this run's rate (an upper bound: tuples may stop early); null until there is a rate. */
  etaSeconds: number | null
}

export interface LearnRunOptions {
  signal?: AbortSignal
  cache?: LearnCache
  onProgress?: (p: LearnProgress) => void
  onWorkerCrash?: (info: CrashInfo) => void
  /** Non-fatal problems (a cache entry that could not be written). */
  onWarning?: (message: string) => void
  /** Milliseconds between two checkpoints of a running tuple (default LEARN_CHECKPOINT_MS; 0: after
   * every batch). Only with a cache. */
  checkpointMs?: number
}

export interface LearnRun {
  result: TrialsResult
  cachedTuples: number
  computedTuples: number
  /** Of the computed tuples, those continued from a checkpoint, and the trials their checkpoints held. */
  resumedTuples: number
  resumedTrials: number
}

/** Every tuple of the run; cached tuples are read, the others computed on the pool, from their
 * checkpoint when the cache has one (docs/LEARN.md §Trials). */
export async function learnTrialsOnPool(pool: EnginePool, log: LearnLogInput, config: TrialsConfig, opts: LearnRunOptions = {}): Promise<LearnRun> {
  opts.signal?.throwIfAborted()
  const K = config.tuples
  if (!(Number.isInteger(K) && K >= 1 && K <= 1e6)) throw new Error(`the number of tuples must be a whole number from 1 to 10⁶, got ${K}`)
  const setup: WorkloadSetup = { ...log.setup, prepare: false }
  const answers: (LearnTupleAnswer | null)[] = Array.from({ length: K }, () => null)
  const checkpoints = new Map<number, TupleCheckpoint>()
  const { cache } = opts
  let scope: LearnCacheScope | null = null
  let cachedTuples = 0
  if (cache) {
    scope = await unitCacheScope(setup, await hashFile(pool.workerPath), log.workloadHash, opts.signal)
    for (let k = 0; k < K; k++) {
      const key = cache.key(scope, config, k)
      const a = await cache.get(key)
      if (a && a.result.tuple === k) { answers[k] = a; cachedTuples++; continue }
      const cp = await cache.getPartial(key, config, k)
      if (cp) checkpoints.set(k, cp)
    }
  }
  const todo = answers.map((_, k) => k).filter((k) => answers[k] === null)
  // Per unit: the trials its checkpoint held (counted as done, not as simulated in this run).
  const resumed = todo.map((k) => checkpoints.get(k)?.trials ?? 0)
  let tuplesDone = cachedTuples, trialsDone = 0, computeStart = 0
  const partial = new Map<number, number>()
  todo.forEach((_, i) => { if (resumed[i] > 0) partial.set(i, resumed[i]) })
  const report = () => {
    if (!opts.onProgress) return
    let part = 0, simulated = 0
    for (const [i, v] of partial) { part += v; simulated += v - resumed[i] }
    const trials = trialsDone + simulated
    const elapsed = computeStart > 0 ? (performance.now() - computeStart) / 1000 : 0
    const rate = trials > 0 && elapsed > 0 ? trials / elapsed : null
    const done = tuplesDone * config.trials + part
    const left = K * config.trials - done
    opts.onProgress({ tuplesDone, tuplesTotal: K, cachedTuples, trials, trialsPerSecond: rate, fraction: Math.min(1, done / (K * config.trials)), etaSeconds: tuplesDone === K ? 0 : rate ? left / rate : null })
  }
  report()
  if (todo.length > 0) {
    // A tuple's writes in order (checkpoints, then its entry and the checkpoint's removal), so that
    // an older checkpoint never lands after a newer one; a failed write does not stop the next.
    const chains = new Map<number, Promise<void>>()
    const chain = (k: number, write: () => Promise<void>) => {
      const p = (chains.get(k) ?? Promise.resolve()).catch(() => {}).then(write)
      chains.set(k, p)
      return p
    }
    computeStart = performance.now()
    const checkpointMs = cache ? opts.checkpointMs ?? LEARN_CHECKPOINT_MS : null
    const units: WorkUnit[] = todo.map((k) => {
      const from = checkpoints.get(k)
      return { kind: 'learn-tuple', config, tuple: k, ...(checkpointMs === null ? {} : { checkpointMs }), ...(from ? { from } : {}) }
    })
    await runUnitsStoring(pool, { setup, signal: opts.signal, cancelledMessage: 'the learning trials were cancelled; finished tuples and a checkpoint of the others are kept in the cache', onWorkerCrash: opts.onWorkerCrash }, units, {
      onProgress: (i, m) => {
        if (m.type !== 'progress') return
        partial.set(i, m.samplesDone)
        report()
        const cp = m.checkpoint
        if (cache && scope && cp) { const key = cache.key(scope, config, todo[i]); return chain(todo[i], () => cache.putPartial(key, cp)) }
      },
      onDone: (i, r) => {
        const k = todo[i]
        const a = r as LearnTupleAnswer
        answers[k] = a
        partial.delete(i)
        tuplesDone++; trialsDone += a.result.trials - resumed[i]
        report()
        if (cache && scope) { const key = cache.key(scope, config, k); return chain(k, async () => { await cache.put(key, a); await cache.dropPartial(key) }) }
      },
      onWriteError: (i, e) => opts.onWarning?.(`could not write the cache entry of tuple ${todo[i] + 1} in ${cache!.dir}: ${e.message}`),
    })
  }
  const done = answers as LearnTupleAnswer[]
  return {
    result: poolTrials(config, done[0].machineProcs, done[0].trainingJobs, done.map((a) => a.result)), cachedTuples, computedTuples: K - cachedTuples,
    resumedTuples: checkpoints.size, resumedTrials: resumed.reduce((x, y) => x + y, 0),
  }
}

/** Members of ℱ in one regression unit: 25 units for the 400 members, enough for both the
 * progress and the balance between workers (a member is a few to a few tens of milliseconds). */
export const FIT_SLICE = 16

/** The regression over ℱ (docs/LEARN.md §Regression) on the pool's workers, in slices of FIT_SLICE
 * members: the same result as regress() in one thread, neither the CLI's nor the app's thread busy,
 * and a cancel stops the workers. `onProgress(fitted, total)` after each slice. */
export async function learnRegressionOnPool(pool: EnginePool, samples: readonly ScoreSample[], opts: { signal?: AbortSignal; onProgress?: (fitted: number, total: number) => void; onWorkerCrash?: (info: CrashInfo) => void } = {}): Promise<RegressionResult> {
  const usable = usableSamples(samples)
  const units: Extract<WorkUnit, { kind: 'learn-fit' }>[] = []
  for (let from = 0; from < FAMILY.length; from += FIT_SLICE) units.push({ kind: 'learn-fit', samples: usable, from, to: Math.min(FAMILY.length, from + FIT_SLICE) })
  const slices: FittedSlice[] = Array.from({ length: units.length }, () => ({ fitted: [], undefinedForms: [] }))
  let fitted = 0
  await runUnitsStoring(pool, { setup: null, signal: opts.signal, cancelledMessage: 'the regression was cancelled', onWorkerCrash: opts.onWorkerCrash }, units, {
    onDone: (i, r) => {
      slices[i] = r
      fitted += units[i].to - units[i].from
      opts.onProgress?.(fitted, FAMILY.length)
    },
    onWriteError: () => {},
  })
  return regressionOf(samples, usable, slices)
}
