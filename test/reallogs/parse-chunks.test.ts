// The parallel parse agrees with the sequential one on every log of the shared data (issue #24,
// docs/PERFORMANCE.md §Import at scale): SWF logs cut into chunks as small as a line, fed in pieces
// that end mid-line, merged, then imported (cleaning report, warnings, line numbers) must equal the
// sequential import; the same through real worker threads (the worker script built here), through
// several files read as one log. sacct, jobcomp and PBS logs likewise (text-chunks.ts): cut into
// chunks as small as a line, each parsed apart, absorbed in order, they equal the sequential parse.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ChunkSplitter } from '../../src/core/workload/chunks'
import { Importer, importParsedFiles } from '../../src/core/workload/import'
import { createSwfParser, mergeSwfChunks, parseSwfChunk } from '../../src/core/workload/swf'
import { mergeTextChunks, parseTextChunk, planTextChunks, type TextFormat } from '../../src/core/workload/text-chunks'
import { detectFormat } from '../../src/core/workload/detect'
import { ParallelImporter } from '../../src/node/parse-parallel'
import { readLog, readLogs } from '../../src/node/read-log'
import { DATA_DIR, requireData } from '../support/data'

const SWF = ['CEA-Curie-2011-2.1-cln.swf.gz', 'CTC-SP2-1996-3.1-cln.swf.gz', 'KTH-SP2-1996-2.1-cln.swf.gz', 'LANL-CM5-1994-4.1-cln.swf.gz',
  'LLNL-Atlas-2006-2.1-cln.swf.gz', 'NASA-iPSC-1993-3.1-cln.swf.gz', 'SDSC-BLUE-2000-4.2-cln.swf.gz', 'SDSC-Par-1996-3.1-cln.swf.gz'].map((f) => `swf/${f}`)
const MODELS = ['swf-model/lublin-aaroh.swf', 'swf-model/lublin_256.swf']
const OTHERS = ['slurm/cirrus-epcc/2024_Q1_CPU-sacct-subset.csv', 'slurm/kabre-cenat/sacct.csv.gz', 'slurm/rackham-uppmax-jobcomp/2021-05-30.anon.gz', 'pbs/ncar-casper/testdata']

/** Deep equality, with typed arrays compared byte for byte (same type, same length): a per-element
 * deep compare of million-element columns takes tens of seconds. */
function expectSame(a: unknown, b: unknown, path = 'value'): void {
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
    const x = a as Uint8Array, y = b as Uint8Array
    expect(x?.constructor, path).toBe(y?.constructor)
    expect(Buffer.from(x.buffer, x.byteOffset, x.byteLength).equals(Buffer.from(y.buffer, y.byteOffset, y.byteLength)), path).toBe(true)
    return
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a)) {
    expect(Object.keys(a).sort(), path).toEqual(Object.keys(b).sort())
    for (const k of Object.keys(a)) expectSame((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`)
    return
  }
  expect(a, path).toEqual(b)
}

const text = (path: string) => { const b = readFileSync(path); return b[0] === 0x1f && b[1] === 0x8b ? gunzipSync(b) : b }

/** Any format through the sequential importer's parser, in pieces of `piece` bytes (copies: no piece shares the next one's memory). */
function streamed(bytes: Uint8Array, piece: number) {
  const imp = new Importer()
  for (let i = 0; i < bytes.length; i += piece) imp.feed(bytes.slice(i, i + piece))
  return imp.endParsed()
}

/** The whole file through one parser, in 1 MiB pieces (as readLog feeds it). */
function sequential(bytes: Uint8Array) {
  const p = createSwfParser()
  for (let i = 0; i < bytes.length; i += 1 << 20) p.feed(bytes.subarray(i, i + (1 << 20)))
  return p.end()
}

/** Cut into chunks of ≥ `target` bytes from pieces of `piece` bytes (ending mid-line), parsed apart, merged. */
function chunked(bytes: Uint8Array, target: number, piece: number) {
  const s = new ChunkSplitter(target)
  const chunks = []
  for (let i = 0; i < bytes.length; i += piece) for (const c of s.push(bytes.subarray(i, i + piece))) chunks.push(parseSwfChunk(c, chunks.length === 0))
  const last = s.end()
  if (last !== null) chunks.push(parseSwfChunk(last, chunks.length === 0))
  return { log: mergeSwfChunks(chunks), chunks: chunks.length }
}

describe('chunked SWF parse = sequential parse, every SWF log of the shared data', () => {
  for (const rel of [...SWF, ...MODELS]) {
    it(rel, (ctx) => {
      const bytes = text(requireData(ctx, rel))
      const seq = sequential(bytes)
      // Logs under 1 MiB in a chunk per line, fed in 1,009-byte pieces; bigger ones in ~400 chunks from 65,537-byte pieces.
      const small = bytes.length < 1 << 20
      const { log, chunks } = chunked(bytes, small ? 1 : Math.floor(bytes.length / 400), small ? 1009 : 65537)
      expect(chunks).toBeGreaterThan(100)
      expectSame(log, seq)
      // Some logs have no requested times: the fallback keeps their jobs so that cleaning has work to do.
      const opts = { requestedFallback: 'runtime' as const }
      expectSame(importParsedFiles([{ name: 'x', log }], opts), importParsedFiles([{ name: 'x', log: seq }], opts))
    })
  }
})

/** A text log cut into chunks of ≥ `target` bytes from pieces of `piece` bytes, parsed apart, absorbed in order. */
function chunkedText(bytes: Uint8Array, target: number, piece: number, format?: TextFormat) {
  const f = format ?? (detectFormat(bytes.subarray(0, 64 * 1024)) as TextFormat)
  const plan = planTextChunks(f, bytes.subarray(0, 64 * 1024))
  if (plan === null) throw new Error('no plan')
  const s = new ChunkSplitter(target, plan.firstMinBytes)
  const chunks = []
  for (let i = 0; i < bytes.length; i += piece) for (const c of s.push(bytes.subarray(i, i + piece))) chunks.push(parseTextChunk(plan, c, chunks.length === 0))
  const last = s.end()
  if (last !== null) chunks.push(parseTextChunk(plan, last, chunks.length === 0))
  return { log: mergeTextChunks(plan, chunks), chunks: chunks.length, plan }
}

describe('chunked sacct, jobcomp and PBS parse = sequential parse, every such log of the shared data', () => {
  for (const rel of [...OTHERS, 'slurm/rackham-uppmax-jobcomp/2021-06-15.anon.gz']) {
    it(rel, (ctx) => {
      const bytes = text(requireData(ctx, rel))
      const seq = streamed(bytes, 1 << 20)
      expect(seq.jobs.count, rel).toBeGreaterThan(0)
      // A chunk per line, fed in 1,009-byte pieces (ending mid-line, mid-CRLF, mid-character).
      const { log, chunks } = chunkedText(bytes, 1, 1009)
      expect(chunks).toBe(seq.linesRead)
      expectSame(log, seq)
      // And ~50 chunks: the chunks' own name lists, nodes and examples overlap.
      expectSame(chunkedText(bytes, Math.ceil(bytes.length / 50), 65537).log, seq)
      const opts = { requestedFallback: 'runtime' as const }
      expectSame(importParsedFiles([{ name: 'x', log }], opts), importParsedFiles([{ name: 'x', log: seq }], opts))
    })
  }
})

describe('line numbers across chunks, worked by hand', () => {
  it('bad lines, extra columns, users and partitions keep their file-wide numbers and order', () => {
    const job = (id: number, user: number, part: number) => `${id} ${id * 10} 5 100 4 -1 -1 4 200 -1 1 ${user} 1 1 1 ${part} -1 -1`
    const lines = ['; MaxProcs: 64', job(1, 7, -1), job(2, 3, 2), 'x y z', job(3, 7, 5) + ' 99', job(4, 9, 2), '1 2 3', job(5, 3, -1)]
    const bytes = new TextEncoder().encode(lines.join('\n') + '\n')
    const { log } = chunked(bytes, 1, 3) // one line per chunk
    // Users in order of first appearance: 7, 3, 9 → indices 0, 1, 2; partitions "2", "5".
    expect(log.users).toEqual(['7', '3', '9'])
    expect([...log.jobs.user]).toEqual([0, 1, 0, 2, 1])
    expect(log.partitions).toEqual(['2', '5'])
    expect([...log.jobs.partition!]).toEqual([-1, 0, 1, 0, -1])
    expect([...log.jobs.line]).toEqual([2, 3, 5, 6, 8])
    expect(log.badLines).toBe(2)
    expect(log.badLineExamples.map((e) => [e.line, e.code])).toEqual([[4, 'not-a-number'], [7, 'too-few-fields']])
    expect(log.warnings[0]).toMatch(/^1 job line has more than 18 fields \(first at line 5\)/)
    expect(log.maxProcs).toBe(64)
  })
})

describe('readLog through the parallel importer', () => {
  let dir = ''
  let workerPath = ''
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'easytune-parse-worker-'))
    await build({
      configFile: false, logLevel: 'warn',
      build: { ssr: resolve('src/node/parse-worker.ts'), outDir: dir, emptyOutDir: true, target: 'node20', minify: false, rolldownOptions: { output: { entryFileNames: 'parse-worker.js', format: 'es' } } },
    })
    workerPath = join(dir, 'parse-worker.js')
  }, 60_000)
  afterAll(() => { if (dir) rmSync(dir, { recursive: true, force: true }) })

  const seqOpts = { requestedFallback: 'runtime' as const, parallel: { workers: 0, minBytes: Infinity } }
  const fb = { requestedFallback: 'runtime' as const }

  it('real worker threads: CEA-Curie in 256 KiB chunks equals the sequential import', async (ctx) => {
    const path = requireData(ctx, SWF[0])
    const par = await readLog(path, { ...fb, parallel: { workers: 2, chunkBytes: 256 << 10, minBytes: 0, workerPath } })
    expectSame(par, await readLog(path, seqOpts))
  })

  it('real worker threads: a line over 1 MiB in a later chunk is refused with its file-wide number', async () => {
    const file = join(dir, 'long.swf')
    const job = '1 0 5 100 4 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1\n'
    writeFileSync(file, job.repeat(3000) + 'x'.repeat((1 << 20) + 5) + '\n' + job)
    await expect(readLog(file, { parallel: { workers: 2, chunkBytes: 4096, minBytes: 0, workerPath } })).rejects.toMatchObject({ line: 3001, message: expect.stringMatching(/^line 3001 is longer than 1 MiB/) })
  })

  it('real worker threads: a line over 1 MiB early in a big log stops the read there, naming the file and the line', async () => {
    const file = join(dir, 'early-long.swf')
    const job = '1 0 5 100 4 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1\n' // 46 bytes
    // 2,000 jobs, the over-long line (line 2001), then ~45 MB of jobs: refused long before the end.
    writeFileSync(file, job.repeat(2000) + 'x'.repeat((1 << 20) + 5) + '\n' + job.repeat(1_000_000))
    const size = statSync(file).size
    let read = 0
    const p = readLog(file, { parallel: { workers: 2, chunkBytes: 64 << 10, minBytes: 0, workerPath } }, (r) => { read = Math.max(read, r.bytesRead) }, undefined, 0)
    await expect(p).rejects.toMatchObject({ name: 'FileInputError', file, line: 2001, message: expect.stringMatching(/^line 2001 is longer than 1 MiB/) })
    // At most a few 1 MiB reads past the bad line (the chunks in flight and the stream's read-ahead), not the ~46 MB file.
    expect(size).toBeGreaterThan(40 << 20)
    expect(read).toBeGreaterThan(1 << 20)
    expect(read).toBeLessThan(8 << 20)
  })

  it('chunks parsed in this thread (workers: 0): the over-long line is refused before the rest is fed', async () => {
    const job = '1 0 5 100 4 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1\n'
    const bytes = new TextEncoder().encode(job.repeat(100) + 'x'.repeat((1 << 20) + 5) + '\n' + job.repeat(100))
    const imp = new ParallelImporter({}, { workers: 0, chunkBytes: 1024, minBytes: 0 })
    // The over-long line and everything before it, in one piece: the next feed must not be needed to see it.
    const head = bytes.subarray(0, 100 * 46 + (1 << 20) + 6)
    await expect(Promise.resolve(imp.feed(head))).rejects.toMatchObject({ line: 101, code: 'line-too-long' })
    expect(() => imp.feed(bytes.subarray(head.length))).toThrow(/^line 101 is longer than 1 MiB/)
  })

  it('real worker threads: an abort while chunks are in flight rejects with AbortError', async (ctx) => {
    const path = requireData(ctx, SWF[0])
    const ac = new AbortController()
    let reports = 0
    const p = readLog(path, { ...fb, parallel: { workers: 2, chunkBytes: 64 << 10, minBytes: 0, workerPath } }, () => { if (++reports === 2) ac.abort() }, ac.signal, 0)
    await expect(p).rejects.toMatchObject({ name: 'AbortError' })
  })

  it('several SWF files read as one log (each chunked) equal the sequential read', async (ctx) => {
    const kth = text(requireData(ctx, SWF[2]))
    // Cut KTH-SP2 in two files at a line break in the middle (the second part keeps no header).
    const mid = kth.indexOf(10, kth.length >> 1) + 1
    const a = join(dir, 'kth-a.swf'), b = join(dir, 'kth-b.swf')
    writeFileSync(a, kth.subarray(0, mid)); writeFileSync(b, kth.subarray(mid))
    const par = await readLogs([a, b], { ...fb, parallel: { workers: 0, chunkBytes: 2048, minBytes: 0 } })
    expect(par.report.files!.length).toBe(2)
    expectSame(par, await readLogs([a, b], seqOpts))
  })

  // sacct, jobcomp and PBS logs through real threads and tiny chunks: cut (every log of at least
  // 64 KiB, the head the importer reads before it decides; the PBS sample is 10 KB and is parsed in
  // one go), and the same parse as the sequential one.
  it('sacct, jobcomp and PBS logs through real worker threads in 4 KiB chunks equal the sequential parse', async (ctx) => {
    const par = { workers: 2, chunkBytes: 4096, minBytes: 0, workerPath }
    const through = async (bytes: Uint8Array) => {
      const imp = new ParallelImporter(fb, par)
      try {
        for (let i = 0; i < bytes.length; i += 1 << 16) { const w = imp.feed(bytes.slice(i, i + (1 << 16))); if (w) await w }
        const log = await imp.endParsed()
        return { parallel: imp.parallel, log }
      } finally { imp.dispose() }
    }
    for (const rel of OTHERS) {
      const bytes = text(requireData(ctx, rel))
      const { parallel, log } = await through(bytes)
      expect(parallel, rel).toBe(bytes.length >= 64 * 1024)
      expectSame(log, streamed(bytes, bytes.length))
    }
  })

  // What the parsers also promise: the stream may be cut anywhere (mid-line, mid-CRLF,
  // mid-UTF-8 character, inside a quoted field) and the parse is the same as from the whole text.
  it('sacct, jobcomp and PBS logs fed in pieces of a few bytes parse as the whole text does', (ctx) => {
    for (const rel of OTHERS) {
      const bytes = text(requireData(ctx, rel))
      const whole = streamed(bytes, bytes.length)
      expect(whole.jobs.count, rel).toBeGreaterThan(0)
      for (const piece of [1, 7, 4093]) {
        if (piece < 7 && bytes.length > 50_000) continue // one byte at a time only on the small logs
        expectSame(streamed(bytes, piece), whole, `${rel} in ${piece}-byte pieces`)
      }
    }
  })

  it('the multi-file jobcomp log reads the same with or without the parallel options', async (ctx) => {
    const folder = requireData(ctx, 'slurm/rackham-uppmax-jobcomp')
    const files = readdirSync(folder).sort().map((f) => join(folder, f))
    expectSame(await readLogs(files, { ...fb, parallel: { workers: 2, chunkBytes: 64, minBytes: 0, workerPath } }), await readLogs(files, seqOpts))
  })

  it('DATA_DIR is where the logs are', () => {
    expect(DATA_DIR.length).toBeGreaterThan(0)
  })
})
