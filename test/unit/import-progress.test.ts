// Import progress below the API: parsers and the Importer count the jobs parsed so far while bytes
// are fed (the number the wizard shows), and readLog reports it with the bytes read and stops
// when its AbortSignal is aborted.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Importer } from '../../src/core/workload/import'
import { createSacctParser } from '../../src/core/workload/sacct'
import { createSwfParser } from '../../src/core/workload/swf'
import type { LogParser } from '../../src/core/workload/types'
import { readLog, type ReadProgress } from '../../src/node/read-log'
import { swfLog } from '../support/parsing'
import { tempDir } from '../server/support'

const enc = new TextEncoder()

/** Feeds `text` in `parts` pieces and records jobsRead after each. */
function counts(p: { feed(c: Uint8Array): void; jobsRead: number }, text: string, cuts: number[]): number[] {
  const b = enc.encode(text)
  const seen: number[] = []
  let from = 0
  for (const to of [...cuts, b.length]) {
    p.feed(b.subarray(from, to))
    seen.push(p.jobsRead)
    from = to
  }
  return seen
}

describe('jobs parsed so far', () => {
  it('SWF: grows as lines complete (a line cut between chunks counts once its end arrives)', () => {
    const text = ['; MaxProcs: 8', '1 0 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1', '2 5 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1', '3 9 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1', ''].join('\n')
    const p: LogParser = createSwfParser()
    expect(p.jobsRead).toBe(0)
    const afterFirstJob = text.indexOf('\n2 ') + 1
    // header only | job 1 | half of job 2 | the rest
    expect(counts(p, text, [14, afterFirstJob, afterFirstJob + 10])).toEqual([0, 1, 1, 3])
    expect(p.end().jobs.count).toBe(3)
  })

  it('sacct: grows with the jobs, not the steps or the header', () => {
    const text = [
      'JobID|User|Submit|Start|End|AllocCPUS|Timelimit|State',
      '10|ann|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T01:00:00|4|02:00:00|COMPLETED',
      '10.batch||2024-01-01T00:01:00|2024-01-01T00:01:00|2024-01-01T01:00:00|4||COMPLETED',
      '11|bob|2024-01-01T00:02:00|2024-01-01T00:03:00|2024-01-01T00:30:00|8|01:00:00|COMPLETED',
      '',
    ].join('\n')
    const p = createSacctParser()
    const line = (n: number) => text.split('\n').slice(0, n).join('\n').length + 1
    expect(counts(p, text, [line(1), line(2), line(3)])).toEqual([0, 1, 1, 2])
    expect(p.end().jobs.count).toBe(2)
  })

  it('Importer: 0 until the format is detected (first 64 KiB), then the parser\'s count', () => {
    const text = swfLog(3000) // ≈ 180 kB
    const imp = new Importer()
    const seen = counts(imp, text, [1000, 30_000, 70_000, 120_000])
    expect(seen.slice(0, 2)).toEqual([0, 0]) // still detecting
    expect(seen[2]).toBeGreaterThan(0)
    expect(seen[3]).toBeGreaterThan(seen[2])
    expect(seen[4]).toBe(3000)
    expect(imp.end().report.jobsRead).toBe(3000)
    // A given format needs no detection: counted from the first chunk.
    const given = new Importer({ format: 'swf' })
    expect(counts(given, text, [1000])[0]).toBeGreaterThan(0)
  })
})

describe('readLog progress and cancel', () => {
  let tmp: ReturnType<typeof tempDir>
  let big = ''
  const JOBS = 90_000 // ≈ 5.5 MB: six 1 MiB chunks

  beforeAll(() => {
    tmp = tempDir()
    big = join(tmp.dir, 'big.swf')
    writeFileSync(big, swfLog(JOBS))
  })
  afterAll(() => tmp?.remove())

  it('reports bytes and jobs read so far, then the final count', async () => {
    const seen: ReadProgress[] = []
    const w = await readLog(big, {}, (p) => {
      seen.push(p)
      // Hold each report past the 100 ms throttle so that every chunk reports.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 110)
    })
    expect(seen.length).toBeGreaterThanOrEqual(4)
    const last = seen[seen.length - 1]
    expect(last).toEqual({ bytesRead: last.totalBytes, totalBytes: last.totalBytes, jobsRead: JOBS })
    expect(w.report.jobsRead).toBe(JOBS)
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i].bytesRead).toBeGreaterThanOrEqual(seen[i - 1].bytesRead)
      expect(seen[i].jobsRead).toBeGreaterThanOrEqual(seen[i - 1].jobsRead)
    }
    // While reading: some jobs parsed, not all.
    expect(seen.some((p) => p.jobsRead > 0 && p.jobsRead < JOBS && p.bytesRead < p.totalBytes)).toBe(true)
  })

  it('reports the jobs of a gzip log too (bytes are the compressed ones)', async () => {
    const gz = join(tmp.dir, 'small.swf.gz')
    writeFileSync(gz, gzipSync(swfLog(500)))
    const seen: ReadProgress[] = []
    await readLog(gz, {}, (p) => seen.push(p))
    expect(seen[seen.length - 1]).toMatchObject({ jobsRead: 500, bytesRead: seen[0].totalBytes })
  })

  it('rejects with an AbortError when the signal is aborted, before or while reading', async () => {
    await expect(readLog(big, {}, undefined, AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' })
    const ac = new AbortController()
    const seen: ReadProgress[] = []
    const reading = readLog(big, {}, (p) => {
      seen.push(p)
      ac.abort()
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 110) // past the throttle: a chunk read after this would report
    }, ac.signal)
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' })
    expect(seen).toHaveLength(1) // reading stopped at the abort, and no final report
    expect(seen[0].bytesRead).toBeLessThan(seen[0].totalBytes)
  })
})
