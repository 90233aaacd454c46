// What the engine's per-unit caches share (the learning trials' tuples, src/engine/learn.ts, and the
// prediction campaign's triples, src/engine/predictions.ts): one small JSON file per finished unit,
// named by a sha256 key over everything that determines it, read without blocking and written
// atomically (cache.ts readEntryFile / writeEntryFile); and the run of the units that are missing
// in a session whose finished results are written as they come, every write awaited before the run
// returns or throws (a cancelled run keeps what finished).
import { createHash } from 'node:crypto'
import { join, resolve } from 'node:path'
import { canonicalJson, DEFAULT_CACHE_DIR, readEntryFile, writeEntryFile } from './cache'
import type { SessionOptions } from './lifecycle'
import { hashLogFiles } from './log-hash'
import type { EnginePool } from './pool'
import type { FromWorker, UnitResult, WorkloadSetup, WorkUnit } from './protocol'

/** What every unit of one log has in common, for its cache keys. */
export interface UnitCacheScope {
  /** sha256 of the log's files (hashLogFiles). */
  workloadHash: string
  /** The code that computes units (the worker bundle's sha256). */
  engine: string
  setup: WorkloadSetup
}

/** The scope of a log's units: its hash (computed unless the caller has it) and the engine's. */
export async function unitCacheScope(setup: WorkloadSetup, engine: string, workloadHash?: string, signal?: AbortSignal): Promise<UnitCacheScope> {
  return { workloadHash: workloadHash ?? (await hashLogFiles(setup.logPaths ?? [setup.logPath], signal)), engine, setup }
}

/** One JSON file per unit, `<key><suffix>` in `dir`; T is what an entry holds. */
export abstract class UnitCache<T> {
  readonly dir: string
  constructor(dir: string = DEFAULT_CACHE_DIR, private readonly suffix: string) {
    this.dir = resolve(dir)
  }

  /** sha256 over `fields`, the log's hash, the engine and the import options but their display name. */
  protected hashKey(scope: UnitCacheScope, fields: Record<string, unknown>): string {
    const { name: _name, ...importOptions } = scope.setup.importOptions
    return createHash('sha256').update(canonicalJson({ ...fields, workload: scope.workloadHash, engine: scope.engine, importOptions })).digest('hex')
  }

  path(key: string): string {
    return join(this.dir, `${key}${this.suffix}`)
  }

  /** The entry of `key`, or null when absent, not a regular file, unreadable, of another key or malformed. */
  async get(key: string): Promise<T | null> {
    const buf = await readEntryFile(this.path(key))
    return buf === null || buf === 'not-a-file' ? null : this.decode(buf.toString('utf8'), key)
  }

  /** Stores the entry atomically (temp file + rename). */
  async put(key: string, value: T): Promise<void> {
    await writeEntryFile(this.path(key), this.encode(key, value))
  }

  /** The value of an entry's text when it is a complete entry of this version recorded under `key`. */
  protected abstract decode(text: string, key: string): T | null
  protected abstract encode(key: string, value: T): string
}

type ProgressMessage = Extract<FromWorker, { type: 'progress' | 'import-progress' }>

/** A handler may answer a write (a cache entry): the run awaits it, and a failed one is a warning. */
type MaybeWrite = Promise<void> | void

export interface StoringHandlers<U extends WorkUnit> {
  onProgress?: (index: number, message: ProgressMessage) => MaybeWrite
  /** Unit `index` finished: take the result, and answer its cache write if any. */
  onDone: (index: number, result: UnitResult<U>) => MaybeWrite
  /** A write failed (the run goes on): say so, e.g. through onWarning. */
  onWriteError: (index: number, error: Error) => void
}

/** Runs `units` in a session of `pool` and writes their results as they finish (handlers); closes
 * the session and awaits every write before it returns or throws (on cancel, what finished stays). */
export async function runUnitsStoring<U extends WorkUnit>(pool: EnginePool, session: Omit<SessionOptions, 'workers' | 'workerPath' | 'fork'>, units: readonly U[], h: StoringHandlers<U>): Promise<void> {
  const writes: Promise<void>[] = []
  const track = (index: number, w: MaybeWrite) => { if (w) writes.push(w.catch((e: unknown) => h.onWriteError(index, e as Error))) }
  const s = pool.session(session)
  try {
    await s.run(units, {
      onProgress: h.onProgress ? (i, m) => track(i, h.onProgress!(i, m)) : undefined,
      onDone: (i, r) => track(i, h.onDone(i, r)),
    })
  } finally {
    await s.close()
    await Promise.all(writes)
  }
}
