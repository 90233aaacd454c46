// Column sizing from the file size (src/core/workload/builder.ts reserve, import.ts expectBytes,
// src/node/read-log.ts gzip trailer; docs/PERFORMANCE.md §Import at scale): the same workload, in
// columns sized from the estimate instead of doubled. Sizes worked by hand.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { RawJobsBuilder } from '../../src/core/workload/builder'
import { Importer } from '../../src/core/workload/import'
import { ParallelImporter } from '../../src/node/parse-parallel'
import { readLog } from '../../src/node/read-log'

/** 20,000 SWF job lines of exactly 60 bytes (59 + newline), in submit order, values varied so that
 * gzip compresses them less than 64 times; no header (the machine size is given). */
function log(): Uint8Array {
  let s = ''
  for (let i = 1; i <= 20_000; i++) {
    const line = `${i} ${i * 100 + (i * 7919) % 97} 0 ${(i * 31) % 997 + 1} 1 -1 -1 1 2000 -1 1 ${i % 13} 1 1 1 -1 -1 -1`
    s += line.padEnd(59, ' ') + '\n'
  }
  return new TextEncoder().encode(s)
}
const bytes = log()
// Detection holds the first 64 KiB: 65,536 / 60 → 1,092 newlines. Estimate = ceil(1,200,000 × 1,092 / 65,536 × 1.1) = ceil(21,994.6) = 21,995 jobs.
const ESTIMATE = 21_995

function parse(expect?: number) {
  const imp = new Importer({ procs: 8 })
  if (expect !== undefined) imp.expectBytes(expect)
  for (let i = 0; i < bytes.length; i += 1 << 16) imp.feed(bytes.subarray(i, i + (1 << 16)))
  return imp.endParsed()
}

describe('column sizing from the file size', () => {
  it('the builder grows by an eighth (at least 1,024 jobs) past a reservation, keeping every value', () => {
    const b = new RawJobsBuilder(16)
    b.reserve(3000)
    for (let i = 0; i < 3001; i++) b.push(i, i * 2, -1, 5, 1, 1, 10, 0, 1, i + 1)
    const r = b.finish()
    expect(r.id.buffer.byteLength / 8).toBe(4024) // 3,000 + max(1,024, 3,000 / 8 = 375)
    expect(r.count).toBe(3001)
    expect([r.id[0], r.id[2999], r.id[3000], r.submit[3000], r.line[3000]]).toEqual([0, 2999, 3000, 6000, 3001])
  })

  it('an SWF log told its size gets columns for the estimate; the jobs are the same', () => {
    expect(bytes.length).toBe(1_200_000)
    const sized = parse(bytes.length), doubled = parse()
    expect(sized.jobs.id.buffer.byteLength / 8).toBe(ESTIMATE)
    expect(doubled.jobs.id.buffer.byteLength / 8).toBe(32_768) // 16,384 doubled once
    expect(sized.jobs.count).toBe(20_000)
    for (const k of ['id', 'submit', 'runtime', 'requested', 'user', 'line'] as const) expect([...sized.jobs[k]], k).toEqual([...doubled.jobs[k]])
  })

  it('the account column exists from the first account name on; the jobs before it have none (-1)', () => {
    const b = new RawJobsBuilder(16)
    const push = (acct: number) => b.push(1, 0, -1, 5, 1, 1, 10, 0, 1, b.count + 1, acct)
    for (let i = 0; i < 16; i++) push(-1)
    expect(b.finish().account).toBeUndefined() // no name yet: no column (SWF never has one)
    push(b.internAccount('x')) // the column is made full (16 jobs), then grows with the others on this push
    push(-1); push(b.internAccount('y')); push(b.internAccount('x'))
    expect([...b.finish().account!]).toEqual([...Array(16).fill(-1), 0, -1, 1, 0])
  })

  it('a file of short lines does not size columns for more jobs than it could hold (one per 36 bytes)', () => {
    const junk = new TextEncoder().encode('1\n'.repeat(1_000_000)) // 2,000,000 bytes
    const imp = new Importer({ format: 'swf' })
    imp.expectBytes(junk.length)
    for (let i = 0; i < junk.length; i += 1 << 16) imp.feed(junk.subarray(i, i + (1 << 16)))
    const log = imp.endParsed()
    expect(log.jobs.count).toBe(0)
    // The head says 32,768 lines per 64 KiB (1,100,000 jobs with the tenth); the bound: floor(2,000,000 / 36) = 55,555.
    expect(log.jobs.id.buffer.byteLength / 8).toBe(55_555)
  })

  const dir = mkdtempSync(join(tmpdir(), 'easytune-reserve-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('readLog takes the size from a gzip trailer and a plain file alike', async () => {
    const gz = gzipSync(bytes)
    expect(bytes.length / gz.length).toBeLessThan(64) // else the trailer is distrusted (MAX_GZIP_RATIO)
    const a = join(dir, 'a.swf'), b = join(dir, 'a.swf.gz')
    writeFileSync(a, bytes); writeFileSync(b, gz)
    const opts = { procs: 8, parallel: { workerPath: null } }
    const plain = await readLog(a, opts), zipped = await readLog(b, opts)
    // Cleaning keeps the parsed columns (in place): the table's buffers are the parser's.
    expect(plain.jobs.id.buffer.byteLength / 8).toBe(ESTIMATE)
    expect(zipped.jobs.id.buffer.byteLength / 8).toBe(ESTIMATE)
    expect(zipped.jobs.count).toBe(20_000)
  })

  // A sacct log of 100,000 rows of exactly 93 bytes after a 60-byte header: 9,300,060 bytes.
  // JobID|Submit|Start|End|ElapsedRaw|AllocCPUS|Timelimit|State + LF = 59 + 1;
  // 1000000|…T00:00:00|…T00:01:00|…T00:11:00|600|4|00:20:00|COMPLETED + LF = 7+1+19+1+19+1+19+1+3+1+1+1+8+1+9+1 = 93.
  const sacctLog = () => {
    let s = 'JobID|Submit|Start|End|ElapsedRaw|AllocCPUS|Timelimit|State\n'
    for (let i = 0; i < 100_000; i++) s += `${1_000_000 + i}|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:11:00|600|4|00:20:00|COMPLETED\n`
    return new TextEncoder().encode(s)
  }

  it('a sacct log told its size is sized from its first 4 MiB (no doubling); the jobs are the same', () => {
    const text = sacctLog()
    expect(text.length).toBe(9_300_060)
    const parse = (size?: number) => {
      const imp = new Importer({})
      if (size !== undefined) imp.expectBytes(size)
      for (let i = 0; i < text.length; i += 1 << 16) imp.feed(text.subarray(i, i + (1 << 16)))
      return imp.endParsed()
    }
    const sized = parse(text.length), doubled = parse()
    // After 64 pieces of 64 KiB (4,194,304 bytes): floor((4,194,304 − 60) / 93) = 45,099 jobs;
    // 45,099 / 4,194,304 × 9,300,060 × 1.03 = 102,998.28 → 102,999, + 1,024 = 104,023.
    expect(sized.jobs.id.buffer.byteLength / 8).toBe(104_023)
    expect(doubled.jobs.id.buffer.byteLength / 8).toBe(131_072) // 1,024 doubled 7 times
    expect(sized.jobs.count).toBe(100_000)
    for (const k of ['id', 'submit', 'runtime', 'requested', 'recordedWait', 'line'] as const) expect([...sized.jobs[k]], k).toEqual([...doubled.jobs[k]])
  })

  it('a sacct log parsed in chunks, told its size, is sized from its first chunk; the same log', async () => {
    const text = sacctLog()
    const parse = async (size?: number) => {
      const imp = new ParallelImporter({}, { workers: 0, chunkBytes: 1 << 20, minBytes: 0, expectedBytes: size ?? null })
      if (size !== undefined) imp.expectBytes(size)
      for (let i = 0; i < text.length; i += 1 << 16) await imp.feed(text.subarray(i, i + (1 << 16)))
      return imp.endParsed()
    }
    const sized = await parse(text.length), doubled = await parse()
    // The first chunk ends at the first line end at or past 1 MiB: 60 + 93 × 11,275 = 1,048,635 bytes,
    // 11,275 jobs; 11,275 / 1,048,635 × 9,300,060 × 1.03 = 102,994.77 → 102,995, + 1,024 = 104,019.
    expect(sized.jobs.id.buffer.byteLength / 8).toBe(104_019)
    expect(doubled.jobs.id.buffer.byteLength / 8).toBeGreaterThanOrEqual(131_072) // doubled as chunks came
    expect(sized.jobs.count).toBe(100_000)
    expect(sized).toEqual({ ...doubled, jobs: sized.jobs })
    for (const k of ['id', 'submit', 'runtime', 'requested', 'recordedWait', 'line'] as const) expect([...sized.jobs[k]], k).toEqual([...doubled.jobs[k]])
  })

  it('a gzip trailer claiming 4 GiB is not believed: no huge allocation, the corrupt file is named', async () => {
    const gz = gzipSync(bytes)
    gz.writeUInt32LE(0xffffffff, gz.length - 4)
    const p = join(dir, 'lying.swf.gz')
    writeFileSync(p, gz)
    await expect(readLog(p, { procs: 8, parallel: { workerPath: null } })).rejects.toMatchObject({ name: 'FileInputError', message: expect.stringMatching(/gzip data is truncated or corrupt/) })
  })
})
