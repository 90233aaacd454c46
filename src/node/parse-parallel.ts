// Parallel parsing of a big log (issue #24, docs/PERFORMANCE.md §Import at scale): the
// decompressed stream is cut into line-aligned chunks (src/core/workload/chunks.ts) parsed by worker
// threads into typed columns, merged in order into the same parse as the sequential parser's
// (SWF: src/core/workload/swf.ts SwfChunkMerger; sacct, jobcomp, PBS: text-chunks.ts). Small logs,
// a sacct head without a usable header, and builds without the worker script use the sequential
// Importer: same result, no thread started.
import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { ChunkSplitter, parseChunk, type Chunk, type ChunkJob } from '../core/workload/chunks'
import { detectFormat } from '../core/workload/detect'
import { InputError } from '../core/workload/errors'
import { Importer, estimateJobs, type ImportOptions } from '../core/workload/import'
import { checkText, lineTooLong } from '../core/workload/lines'
import { SwfChunkMerger } from '../core/workload/swf'
import { TextChunkMerger, planTextChunks, type TextChunkPlan } from '../core/workload/text-chunks'
import { LOG_FORMATS, type LogFormat, type ParsedLog } from '../core/workload/types'

/** Below this much decompressed text (SWF: ≈ 220k lines, a sequential parse of ~0.1 s; PBS alike)
 * starting threads and merging costs more than it saves: the log is parsed in this thread. */
export const PARALLEL_MIN_BYTES = 16 << 20
/** SWF is parsed in threads only with this many parse threads or more (by default, cores): its
 * parse (~0.3 µs a line) keeps pace with gunzip, which runs in a thread of its own, so on fewer
 * cores parse threads only compete with gunzip and the merge for them. On 2 cores the 3.1M-line
 * log imports as fast in one thread, at ~55 MiB less at the peak (docs/PERFORMANCE.md
 * §2026-11-29 (night) — the SWF parser at the speed of gunzip). */
export const PARALLEL_MIN_SWF_WORKERS = 4
/** The same for sacct and jobcomp, whose lines cost several times more to parse per byte: 8 MiB
 * is ≈ 100k sacct lines, a sequential parse of 1.1–1.4 s that two threads cut by ~20 % (jobcomp:
 * ~10 %), for ~45 MB more at the peak (docs/PERFORMANCE.md §2026-11-29 — the text formats). */
export const PARALLEL_MIN_SLURM_BYTES = 8 << 20
/** SWF chunk size (≈ 55k lines): big enough that messaging is negligible, small enough that the
 * chunks in flight (two per worker) stay a few tens of MB. */
export const PARALLEL_CHUNK_BYTES = 4 << 20
/** The same for sacct, jobcomp and PBS (≈ 11k sacct lines), whose lines cost several times more to
 * parse: as many chunks per second as SWF's, better shared between the threads in a log of a few
 * chunks, and fewer MB in flight (1M-line sacct: peak 316–324 → 302–305 MiB; docs/PERFORMANCE.md
 * §2026-11-29 — the text formats). */
export const PARALLEL_TEXT_CHUNK_BYTES = 1 << 20
/** At most this many parse threads: parsing scales until gunzip in the main thread is the limit. */
export const PARALLEL_MAX_WORKERS = 8
const DETECT_BYTES = 64 * 1024

export interface ParallelOptions {
  /** Parse threads; 0 parses the chunks in this thread (tests: the same chunking and merge). */
  workers?: number
  /** Chunk size (default: PARALLEL_CHUNK_BYTES for SWF, PARALLEL_TEXT_CHUNK_BYTES for the text formats). */
  chunkBytes?: number
  /** Parse in one thread below this much text, whatever the format (default: minBytesFor the
   * format). */
  minBytes?: number
  /** The built worker script; by default out/parse/parse-worker.js beside the bundle. */
  workerPath?: string | null
  /** The decompressed size when known up front (src/node/read-log.ts: the file size, or the gzip trailer): a log known to be
   * below every format's threshold (or its own format's, when given) is parsed sequentially from
   * its first byte, so its progress counts jobs as it reads instead of holding the bytes until the
   * end to decide; any other log is decided on its first 64 KiB, once its format is known. */
  expectedBytes?: number | null
}

type Settled = { ok: true; chunk: Chunk } | { ok: false; message: string; line: number | null; code: string | null }
/** The merge of the chunks of one format (SWF or text), in file order. */
type Merger = { linesRead: number; add(c: Chunk, bytes: number): void; end(): ParsedLog }

/** Where the parse worker script may be, relative to the module running this code: the CLI's and
 * bench's bundles (out/cli, out/bench, out/engine, and their assets/ chunks) find out/parse/; the
 * Electron build (electron.vite.config.ts) puts it in out/main/ beside the engine worker, which
 * inlines this module or imports it from out/main/chunks/. */
const PARSE_WORKER_PLACES = ['../parse/parse-worker.js', '../../parse/parse-worker.js', './parse-worker.js', '../parse-worker.js']

/**
 * The parse worker script for a module at `moduleUrl`, or null (then the log is parsed in one
 * thread). Inside a packaged app's app.asar only the unpacked copy counts
 * (build/electron-builder.yml: asarUnpack): a worker thread loaded from the archive is refused by
 * older Electron versions and untested here.
 */
export function findParseWorker(moduleUrl: string, exists: (path: string) => boolean = existsSync): string | null {
  for (const rel of PARSE_WORKER_PLACES) {
    const p = fileURLToPath(new URL(rel, moduleUrl))
    const unpacked = p.replace(/\.asar([\\/])/, '.asar.unpacked$1')
    if (exists(unpacked)) return unpacked
  }
  return null
}

/** The worker script next to the running bundle (CLI, bench, engine worker, the desktop app's main
 * process and utility processes), or null. */
export function defaultParseWorkerPath(): string | null {
  return findParseWorker(import.meta.url)
}

/**
 * The Importer's surface (feed, endParsed, jobsRead, format) with parallel parsing of big logs (every format).
 * feed may return a promise: await it before feeding more (back-pressure on the chunks in flight).
 * dispose() stops the threads (always call it, also after an error or an abort).
 */
export class ParallelImporter {
  private held: Uint8Array[] = []
  private heldBytes = 0
  private fed = 0
  private seq: Importer | null = null
  private splitter: ChunkSplitter | null = null
  /** Per chunk sent: settles once the chunk is merged (back-pressure; holds no chunk). */
  private readonly results: Promise<void>[] = []
  /** The chunks merged in file order as they come back, each freed once copied (set with the format). */
  private merger: Merger | null = null
  private plan: TextChunkPlan | null = null
  private tail: Promise<void> = Promise.resolve()
  private failure: Error | null = null
  private threads: Thread[] = []
  private jobsDone = 0
  private readonly workers: number
  private readonly chunkBytes: number | null
  private readonly minBytes: number | null
  private readonly workerPath: string | null

  constructor(private readonly opts: ImportOptions = {}, par: ParallelOptions = {}) {
    this.workerPath = par.workerPath === undefined ? defaultParseWorkerPath() : par.workerPath
    this.workers = par.workers ?? Math.min(PARALLEL_MAX_WORKERS, availableParallelism())
    this.chunkBytes = par.chunkBytes ?? null
    this.minBytes = par.minBytes ?? null
    // Known to be small for its format (or for every format, when the format is not given yet).
    const least = this.minBytes ?? (opts.format !== undefined ? minBytesFor(opts.format, this.workers) : Math.min(...LOG_FORMATS.map((f) => minBytesFor(f, this.workers))))
    const small = par.expectedBytes != null && par.expectedBytes < least
    if ((this.workers > 0 && this.workerPath === null) || small) this.seq = new Importer(opts) // no worker script, or a small log: sequential
    else new Importer(opts) // checks the options (machine size, format) up front, as the Importer does
  }

  private expected: number | null = null

  /** The decompressed size of the file, when known (Importer.expectBytes: the sequential parser sizes its columns from it). */
  expectBytes(total: number): void {
    this.expected = total
    this.seq?.expectBytes(total)
  }

  get jobsRead(): number {
    return this.seq !== null ? this.seq.jobsRead : this.jobsDone
  }

  get format(): 'detected' | 'given' {
    return this.opts.format !== undefined ? 'given' : 'detected'
  }

  /** Whether the chunks go to parallel parsing (known once enough bytes were fed). */
  get parallel(): boolean {
    return this.splitter !== null
  }

  /** Rejects (throws) with the first bad chunk's error as soon as that chunk is merged: a line
   * refused early in a big log stops the read there, not after the whole file. */
  feed(chunk: Uint8Array): Promise<void> | void {
    if (this.failure !== null) throw this.failure
    if (chunk.length === 0) return
    if (this.fed === 0) checkText(chunk)
    this.fed += chunk.length
    if (this.seq !== null) { this.seq.feed(chunk); return }
    if (this.splitter !== null) return this.dispatch(this.splitter.push(chunk))
    this.held.push(chunk)
    this.heldBytes += chunk.length
    if (this.heldBytes < DETECT_BYTES) return
    // The format is known from the first 64 KiB (as the sequential Importer detects it), and with
    // it the size below which one thread is faster. A log whose size is known goes one way at
    // once; otherwise the text is held until it reaches that size (the end of a smaller log parses
    // it in this thread).
    const format = this.detected ?? (this.detected = this.opts.format ?? detectFormat(concatHead(this.held, DETECT_BYTES)))
    const min = this.minBytes ?? minBytesFor(format, this.workers)
    if (this.expected !== null && this.expected < min) { this.toSequential(); return }
    if (this.expected !== null || this.heldBytes >= min) return this.decide(format)
  }

  private detected: LogFormat | null = null

  async endParsed(): Promise<ParsedLog> {
    if (this.splitter === null && this.seq === null) this.toSequential()
    if (this.seq !== null) return this.seq.endParsed()
    const last = this.splitter!.end()
    if (last !== null) await this.dispatch([last])
    await this.tail
    this.results.length = 0
    this.dispose()
    if (this.failure !== null) throw this.failure
    return this.merger!.end()
  }

  dispose(): void {
    for (const t of this.threads) { t.waiting.length = 0; void t.worker.terminate() }
    this.threads = []
  }

  private decide(format: LogFormat): Promise<void> | void {
    const head = concatHead(this.held, DETECT_BYTES)
    if (format === 'swf') {
      const m = new SwfChunkMerger()
      if (this.expected !== null) { const n = estimateJobs(this.expected, head); if (n !== null) m.reserve(n) }
      this.merger = m as Merger
      this.splitter = new ChunkSplitter(this.chunkBytes ?? PARALLEL_CHUNK_BYTES)
    } else {
      // Text formats: columns grow as chunks arrive (a line count from the head would count the
      // job steps too, up to three lines per job).
      const plan = planTextChunks(format, head)
      if (plan === null) { this.toSequential(); return }
      this.plan = plan
      const m = new TextChunkMerger(plan)
      if (this.expected !== null) m.expectBytes(this.expected)
      this.merger = m as Merger
      this.splitter = new ChunkSplitter(this.chunkBytes ?? PARALLEL_TEXT_CHUNK_BYTES, plan.firstMinBytes)
    }
    if (this.workers > 0 && process.env.EASYTUNE_TRACE_IMPORT === '1') process.stderr.write(`[import-trace] parallel parse: ${this.workers} threads, ${this.workerPath}\n`)
    const held = this.held
    this.held = []
    const ready: Uint8Array[] = []
    for (const h of held) ready.push(...this.splitter.push(h))
    return this.dispatch(ready)
  }

  private toSequential(): void {
    this.seq = new Importer(this.opts)
    if (this.expected !== null) this.seq.expectBytes(this.expected)
    for (const h of this.held) this.seq.feed(h)
    this.held = []
  }

  private async dispatch(chunks: Uint8Array[]): Promise<void> {
    for (const bytes of chunks) {
      if (this.failure !== null) throw this.failure // stop sending: the log is refused
      const first = this.results.length === 0
      const len = bytes.length // (the bytes are transferred to the thread)
      const job: ChunkJob = { bytes, first, plan: this.plan }
      const done = this.workers === 0 ? Promise.resolve(parseHere(job)) : this.send(job)
      this.tail = this.tail.then(() => done).then((s) => this.merge(s, len))
      this.results.push(this.tail)
      // Back-pressure: at most two chunks in flight per thread (they finish roughly in order).
      const inFlight = this.workers * 2
      if (this.workers > 0 && this.results.length > inFlight) await this.results[this.results.length - 1 - inFlight]
    }
    if (this.workers === 0) await this.tail // chunks parsed here: merged before the next piece
    if (this.failure !== null) throw this.failure
  }

  /** Merges the next chunk in file order; the first failure is kept (its line moved by the lines before) and later chunks ignored. */
  private merge(s: Settled, bytes: number): void {
    if (this.failure !== null) return
    const lines = this.merger!.linesRead
    if (!s.ok) {
      this.failure = s.code === 'line-too-long' && s.line !== null ? lineTooLong(s.line + lines) : new InputError(s.message, s.line === null ? null : s.line + lines)
      return
    }
    this.jobsDone += s.chunk.jobs.count
    try {
      this.merger!.add(s.chunk, bytes)
    } catch (e) {
      this.failure = e as Error
    }
  }

  private send(job: ChunkJob): Promise<Settled> {
    const k = this.results.length % this.workers
    while (this.threads.length <= k) this.threads.push(startThread(this.workerPath!))
    const t = this.threads[k]
    return new Promise<Settled>((resolve) => {
      t.waiting.push(resolve)
      t.worker.postMessage(job, [job.bytes.buffer as ArrayBuffer])
    })
  }
}

/** A parse thread and the answers it owes, in the order its chunks were sent (it answers in that order). */
interface Thread { worker: Worker; waiting: ((s: Settled) => void)[] }

function startThread(path: string): Thread {
  const t: Thread = { worker: new Worker(path), waiting: [] }
  t.worker.on('message', (m: Settled) => t.waiting.shift()?.(m))
  const fail = (why: string) => { for (const w of t.waiting.splice(0)) w({ ok: false, message: `a parse thread failed: ${why}`, line: null, code: null }) }
  t.worker.on('error', (e: Error) => fail(e.message))
  t.worker.on('exit', (code) => fail(`it exited (code ${code})`))
  return t
}

function parseHere(job: ChunkJob): Settled {
  try {
    return { ok: true, chunk: parseChunk(job) }
  } catch (e) {
    if (!(e instanceof InputError)) throw e
    return { ok: false, message: e.message, line: e.line, code: e.code }
  }
}

/** The decompressed size below which a log of this format is parsed in one thread, with `workers`
 * parse threads to use (Infinity: always in one thread; 0: the chunks parsed in this thread, as
 * the tests do, where no thread competes for a core). */
export function minBytesFor(format: LogFormat, workers: number): number {
  if (format === 'sacct' || format === 'jobcomp') return PARALLEL_MIN_SLURM_BYTES
  return format === 'swf' && workers > 0 && workers < PARALLEL_MIN_SWF_WORKERS ? Infinity : PARALLEL_MIN_BYTES
}

function concatHead(pieces: Uint8Array[], limit: number): Uint8Array {
  let n = 0
  for (const p of pieces) n += p.length
  const out = new Uint8Array(Math.min(n, limit))
  let o = 0
  for (const p of pieces) {
    if (o >= out.length) break
    const part = p.subarray(0, out.length - o)
    out.set(part, o)
    o += part.length
  }
  return out
}
