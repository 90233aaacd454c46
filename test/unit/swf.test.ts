import { describe, expect, it } from 'vitest'
import { createSwfParser } from '../../src/core/workload/swf'
import { importText } from '../../src/core/workload/import'

const enc = new TextEncoder()
const line = (id: number, submit: number, run: number, procs: number, req: number, user = 1, alloc = procs, wait = -1) =>
  `${id} ${submit} ${wait} ${run} ${alloc} -1 -1 ${procs} ${req} -1 1 ${user} 1 -1 -1 -1 -1 -1`

function parseChunks(text: string, size: number) {
  const p = createSwfParser()
  const b = enc.encode(text)
  for (let i = 0; i < b.length; i += size) p.feed(b.subarray(i, i + size))
  return p.end()
}

describe('SWF parser', () => {
  const text = [
    '; Version: 2.2', '; MaxProcs: 64', '; MaxNodes: 32', '; UnixStartTime: 1000000',
    line(1, 0, 100, 4, 200, 7, 4, 12), line(2, 5, 0, 8, 60, 9), '',
    '   3   10.5   -1   7.25   2   -1 -1  2  30  -1 1 7 1 -1 -1 -1 -1 -1\r',
  ].join('\n')

  it('reads fields 1, 2, 3, 4, 5, 8, 9, 11, 12 and the header', () => {
    const log = parseChunks(text, 1 << 16)
    expect(log.maxProcs).toBe(64)
    expect(log.maxNodes).toBe(32)
    expect(log.unixStartTime).toBe(1000000)
    expect(log.jobs.count).toBe(3)
    expect(Array.from(log.jobs.id)).toEqual([1, 2, 3])
    expect(Array.from(log.jobs.submit)).toEqual([0, 5, 10.5])
    expect(Array.from(log.jobs.runtime)).toEqual([100, 0, 7.25])
    expect(Array.from(log.jobs.reqProcs)).toEqual([4, 8, 2])
    expect(Array.from(log.jobs.requested)).toEqual([200, 60, 30])
    expect(log.jobs.recordedWait[0]).toBe(12)
    expect(Number.isNaN(log.jobs.recordedWait[1])).toBe(true)
    expect(log.users.length).toBe(2)
    expect(log.jobs.user[0]).toBe(log.jobs.user[2])
    expect(Array.from(log.jobs.line)).toEqual([5, 6, 8])
  })

  it('gives identical results whatever the chunk size (lines split across chunks)', () => {
    const whole = parseChunks(text, 1 << 16)
    for (const size of [1, 2, 7, 13]) {
      const part = parseChunks(text, size)
      expect(Array.from(part.jobs.submit)).toEqual(Array.from(whole.jobs.submit))
      expect(Array.from(part.jobs.line)).toEqual(Array.from(whole.jobs.line))
      expect(part.header).toEqual(whole.header)
    }
  })

  it('reports malformed lines with their line number and skips them', () => {
    const log = parseChunks(['; MaxProcs: 8', line(1, 0, 1, 1, 2), '1 2 3', line(3, 1, 1, 1, 2).replace(' 1 1 ', ' x 1 '), line(4, 2, 1, 1, 2)].join('\n'), 64)
    expect(log.jobs.count).toBe(2)
    expect(log.badLines).toBe(2)
    expect(log.badLineExamples[0]).toEqual({ line: 3, code: 'too-few-fields', message: 'has 3 fields; SWF job lines have 18' })
    expect(log.badLineExamples[1].line).toBe(4)
    expect(log.badLineExamples[1].message).toMatch(/not a number/)
  })

  it('tolerates extra columns with a warning', () => {
    const log = parseChunks(`; MaxProcs: 8\n${line(1, 0, 1, 1, 2)} 99 98\n`, 1024)
    expect(log.jobs.count).toBe(1)
    expect(log.warnings.join(' ')).toMatch(/1 job line has more than 18 fields \(first at line 2\); the columns after the 18 standard SWF fields were ignored/)
  })
})

describe('import and cleaning (docs/SIMULATOR.md §Cleaning rules)', () => {
  const rule = (w: ReturnType<typeof importText>, id: string) => w.report.rules.find((r) => r.rule === id)!

  it('applies C3, C4, C5, the requested-time rule and C7 (drop), counting each job once', () => {
    const w = importText([
      '; MaxProcs: 10',
      line(1, 0, 10, 2, 20),              // kept
      line(2, 1, 10, 11, 20),             // C3: too many procs
      line(3, 2, 10, -1, 20, 1, 3),       // C4: requested missing → allocated 3
      line(4, 3, 10, -1, 20, 1, -1),      // C4: both missing → removed
      line(5, -4, 10, 1, 20),             // C5: negative submit
      line(6, 5, -1, 1, 20),              // C5: negative runtime
      line(7, 6, 10, 1, -1),              // requested missing → removed
      line(8, 7, 30, 1, 20),              // C7: ran longer than requested → dropped
      line(9, 8, 0, 1, 20),               // zero runtime: kept
      line(10, 9, 5, 4, 20, 1, 12),       // C3 via allocated procs above the machine
    ].join('\n'), { name: 't.swf' })
    expect(Array.from(w.jobs.id)).toEqual([1, 3, 9])
    expect(Array.from(w.jobs.procs)).toEqual([2, 3, 1])
    expect(w.report.jobsRead).toBe(10)
    expect(w.report.jobsKept).toBe(3)
    expect(rule(w, 'C3-too-big')).toMatchObject({ count: 2, exampleLines: [3, 11] })
    expect(rule(w, 'C4-procs-from-allocated')).toMatchObject({ count: 1, exampleLines: [4] })
    expect(rule(w, 'C4-no-procs')).toMatchObject({ count: 1, exampleLines: [5] })
    expect(rule(w, 'C5-submit')).toMatchObject({ count: 1, exampleLines: [6] })
    expect(rule(w, 'C5-runtime')).toMatchObject({ count: 1, exampleLines: [7] })
    expect(rule(w, 'requested-missing')).toMatchObject({ count: 1, exampleLines: [8] })
    expect(rule(w, 'C7-overrun')).toMatchObject({ count: 1, effect: 'removed', exampleLines: [9] })
    expect(rule(w, 'zero-runtime')).toMatchObject({ count: 1, exampleLines: [10] })
    const removed = w.report.rules.filter((r) => r.effect === 'removed').reduce((a, r) => a + r.count, 0)
    expect(removed).toBe(w.report.jobsRemoved)
  })

  it('clamps or keeps overruns when asked', () => {
    const text = ['; MaxProcs: 4', line(1, 0, 30, 1, 20), line(2, 1, 5, 1, 20)].join('\n')
    const clamp = importText(text, { overrun: 'clamp' })
    expect(Array.from(clamp.jobs.runtime)).toEqual([20, 5])
    expect(rule(clamp, 'C7-overrun')).toMatchObject({ count: 1, effect: 'changed' })
    const keep = importText(text, { overrun: 'keep' })
    expect(Array.from(keep.jobs.runtime)).toEqual([30, 5])
    expect(rule(keep, 'C7-overrun')).toMatchObject({ count: 1, effect: 'info' })
  })

  it('fills a missing requested time only when a fallback is chosen, and says what it means', () => {
    const text = ['; MaxProcs: 4', line(1, 0, 30, 1, -1), line(2, 1, 0, 1, -1)].join('\n')
    // An import that keeps no job is an input error naming the rule and the fallback to use.
    expect(() => importText(text)).toThrow(/no job was kept: all 2 jobs read were removed by cleaning: 2 requested-missing .*--requested-fallback runtime .*--requested-fallback <duration>/)
    const one = importText(['; MaxProcs: 4', line(1, 0, 30, 1, -1), line(2, 1, 0, 1, 60)].join('\n'))
    expect(one.report.warnings.join(' ')).toMatch(/Requested time is missing for 1 jobs \(50.0%\).*removed/)
    const byRuntime = importText(text, { requestedFallback: 'runtime' })
    expect(Array.from(byRuntime.jobs.requested)).toEqual([30, 1])
    expect(byRuntime.report.warnings.join(' ')).toMatch(/clairvoyant/)
    const fixed = importText(text, { requestedFallback: { seconds: 3600 } })
    expect(Array.from(fixed.jobs.requested)).toEqual([3600, 3600])
  })

  it('sorts unsorted submits by (submit, id) and counts them', () => {
    const w = importText(['; MaxProcs: 4', line(3, 50, 1, 1, 2), line(1, 10, 1, 1, 2), line(2, 10, 1, 1, 2), line(4, 60, 1, 1, 2)].join('\n'))
    expect(Array.from(w.jobs.id)).toEqual([1, 2, 3, 4])
    expect(Array.from(w.jobs.line)).toEqual([3, 4, 2, 5])
    expect(rule(w, 'unsorted').count).toBe(1)
  })

  it('takes the machine size from --procs, then MaxProcs, then MaxNodes, then the largest job', () => {
    const jobs = [line(1, 0, 1, 6, 2), line(2, 1, 1, 3, 2)].join('\n')
    expect(importText(`; MaxProcs: 16\n; MaxNodes: 8\n${jobs}`, { procs: 32 }).report.machine).toMatchObject({ procs: 32, source: 'given' })
    expect(importText(`; MaxProcs: 16\n; MaxNodes: 8\n${jobs}`).report.machine).toMatchObject({ procs: 16, source: 'header-maxprocs' })
    const nodes = importText(`; MaxNodes: 8\n${jobs}`)
    expect(nodes.report.machine).toMatchObject({ procs: 8, source: 'header-maxnodes' })
    expect(nodes.report.warnings.join(' ')).toMatch(/MaxNodes/)
    const inferred = importText(jobs)
    expect(inferred.report.machine).toMatchObject({ procs: 6, source: 'inferred-largest-job' })
    expect(inferred.report.warnings.join(' ')).toMatch(/inferred from the largest job/)
  })

  it('rejects a file where most job lines are malformed, naming a line', () => {
    const bad = Array.from({ length: 30 }, (_, i) => `${i} a b c`).join('\n')
    expect(() => importText(`; MaxProcs: 4\n${bad}`, { format: 'swf' })).toThrow(/no job could be read: all 30 job lines are malformed \(line 2, not-a-number: field 2 \("a"\) is not a number/)
    expect(() => importText(`; MaxProcs: 4\n${line(1, 0, 1, 1, 2)}\n${bad}`, { format: 'swf' })).toThrow(/30 of 31 job lines are malformed: this does not look like a swf log \(line 3/)
  })
})
