// The trials of the learned-priority method (docs/LEARN.md §Trials) on the engine pool, for
// `easytune learn` and the app's Learn step: one unit per (S, Q) tuple, each running all its trials
// in batches inside a worker (no per-trial message). Finished tuples are kept in an on-disk cache,
// one small JSON file per tuple keyed by the log's hash, the split, the seed, the budget and the
// worker bundle: a re-run, a larger K or an interrupted run only computes the tuples that are
// missing. A tuple depends only on (log, split, config minus K, its index), and results are merged
// by index, so the result is the same bit for bit whatever the number of workers.
import { createHash } from 'node:crypto'
import { join, resolve } from 'node:path'
import { poolTrials } from '../core/learn/trials'
import type { TrialsConfig, TrialsResult, TupleResult } from '../core/learn/types'
import { canonicalJson, DEFAULT_CACHE_DIR, hashFile, readEntryFile, writeEntryFile } from './cache'
import type { CrashInfo } from './lifecycle'
import { hashLogFiles } from './log-hash'
import type { EnginePool } from './pool'
import type { LearnTupleAnswer, WorkloadSetup, WorkUnit } from './protocol'

/** Bump when what a tuple computes changes in a way the engine hash would not show. */
export const LEARN_CACHE_VERSION = 1

export interface LearnCacheScope {
  /** sha256 of the log's files (hashLogFiles). */
  workloadHash: string
  /** The code that computes units (the worker bundle's sha256). */
  engine: string
  setup: WorkloadSetup
}

/** One JSON file per tuple, named by a sha256 key over everything that determines it. */
export class LearnCache {
  readonly dir: string
  constructor(dir: string = DEFAULT_CACHE_DIR) {
    this.dir = resolve(dir)
  }

  /** K (config.tuples) is not part of the key: tuple k is the same whatever K is. */
  key(scope: LearnCacheScope, config: TrialsConfig, tuple: number): string {
    const { name: _name, ...importOptions } = scope.setup.importOptions
    const { tuples: _k, ...budget } = config
    return createHash('sha256').update(canonicalJson({ kind: 'learn-tuple', v: LEARN_CACHE_VERSION, workload: scope.workloadHash, engine: scope.engine, importOptions, split: scope.setup.split, budget, tuple })).digest('hex')
  }

  path(key: string): string {
    return join(this.dir, `${key}.learn.json`)
  }

  /** The cached tuple, or null when absent, not a regular file, unreadable, of another key or malformed. */
  async get(key: string): Promise<LearnTupleAnswer | null> {
    const buf = await readEntryFile(this.path(key))
    return buf === null || buf === 'not-a-file' ? null : decodeLearnEntry(buf.toString('utf8'), key)
  }

  /** Stores the tuple atomically (temp file + rename). */
  async put(key: string, a: LearnTupleAnswer): Promise<void> {
    // Infinity (the normalised std before two trials) is not JSON: written as null.
    await writeEntryFile(this.path(key), JSON.stringify({ v: LEARN_CACHE_VERSION, key, answer: a }))
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
}

export interface LearnRun {
  result: TrialsResult
  cachedTuples: number
  computedTuples: number
}

/** Every tuple of the run; cached tuples are read, the others computed on the pool. */
export async function learnTrialsOnPool(pool: EnginePool, log: LearnLogInput, config: TrialsConfig, opts: LearnRunOptions = {}): Promise<LearnRun> {
  opts.signal?.throwIfAborted()
  const K = config.tuples
  if (!(Number.isInteger(K) && K >= 1 && K <= 1e6)) throw new Error(`the number of tuples must be a whole number from 1 to 10⁶, got ${K}`)
  const setup: WorkloadSetup = { ...log.setup, prepare: false }
  const answers: (LearnTupleAnswer | null)[] = Array.from({ length: K }, () => null)
  let scope: LearnCacheScope | null = null
  let cachedTuples = 0
  if (opts.cache) {
    scope = { workloadHash: log.workloadHash ?? (await hashLogFiles(setup.logPaths ?? [setup.logPath], opts.signal)), engine: await hashFile(pool.workerPath), setup }
    for (let k = 0; k < K; k++) {
      const a = await opts.cache.get(opts.cache.key(scope, config, k))
      if (a && a.result.tuple === k) { answers[k] = a; cachedTuples++ }
    }
  }
  let tuplesDone = cachedTuples, trialsDone = 0, computeStart = 0
  const partial = new Map<number, number>()
  const report = () => {
    if (!opts.onProgress) return
    let part = 0
    for (const v of partial.values()) part += v
    const trials = trialsDone + part
    const elapsed = computeStart > 0 ? (performance.now() - computeStart) / 1000 : 0
    const rate = trials > 0 && elapsed > 0 ? trials / elapsed : null
    const done = tuplesDone * config.trials + part
    const left = K * config.trials - done
    opts.onProgress({ tuplesDone, tuplesTotal: K, cachedTuples, trials, trialsPerSecond: rate, fraction: Math.min(1, done / (K * config.trials)), etaSeconds: tuplesDone === K ? 0 : rate ? left / rate : null })
  }
  report()
  const todo = answers.map((_, k) => k).filter((k) => answers[k] === null)
  if (todo.length > 0) {
    const writes: Promise<void>[] = []
    const session = pool.session({ setup, signal: opts.signal, cancelledMessage: 'the learning trials were cancelled; finished tuples are kept in the cache', onWorkerCrash: opts.onWorkerCrash })
    try {
      computeStart = performance.now()
      const units: WorkUnit[] = todo.map((k) => ({ kind: 'learn-tuple', config, tuple: k }))
      await session.run(units, {
        onProgress: (i, m) => { if (m.type === 'progress') { partial.set(i, m.samplesDone); report() } },
        onDone: (i, r) => {
          const k = todo[i]
          const a = r as LearnTupleAnswer
          answers[k] = a
          partial.delete(i)
          tuplesDone++; trialsDone += a.result.trials
          report()
          const { cache } = opts
          if (cache && scope) {
            writes.push(cache.put(cache.key(scope, config, k), a).catch((e: unknown) => {
              opts.onWarning?.(`could not write the cache entry of tuple ${k + 1} in ${cache.dir}: ${(e as Error).message}`)
            }))
          }
        },
      })
    } finally {
      await session.close()
      await Promise.all(writes)
    }
  }
  const done = answers as LearnTupleAnswer[]
  return { result: poolTrials(config, done[0].machineProcs, done[0].trainingJobs, done.map((a) => a.result)), cachedTuples, computedTuples: K - cachedTuples }
}
