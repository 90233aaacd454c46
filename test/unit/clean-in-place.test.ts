// Cleaning compacts the kept jobs into the raw columns when the caller gives them up
// (src/core/workload/clean.ts cleanJobs `consume`; docs/PERFORMANCE.md §Import at scale): the
// cleaned table must be the same as from a copy, the raw log untouched without `consume`. Values
// worked by hand.
import { describe, expect, it } from 'vitest'
import { COL, RawJobsBuilder, emptyRow } from '../../src/core/workload/builder'
import { cleanJobs } from '../../src/core/workload/clean'
import type { JobTable } from '../../src/core/workload/types'

/** Six jobs on lines 2–7 of a 64-processor machine: line 3 has no submit (C5), line 5 no processors
 * (C4), line 6 ran 500 s of 100 requested (C7, dropped); line 4 takes its processors from the
 * allocated ones. `submit4`: line 4's submit (50 puts it before line 2: the log is unsorted). */
function raw(submit4: number) {
  const b = new RawJobsBuilder(2) // grows twice: the columns are longer than the jobs
  b.enable('partition')
  const row = emptyRow()
  const job = (id: number, submit: number, wait: number, runtime: number, alloc: number, req: number, requested: number, user: number, line: number, part: number) => {
    b.push(id, submit, wait, runtime, alloc, req, requested, user, 1, line, user + 100)
    row[COL.partition] = part
    b.setRow(row)
  }
  b.internAccount('a') // the log has accounts: the column is kept
  job(10, 100, 5, 50, 4, 4, 100, 0, 2, 7)
  job(11, -1, 0, 10, 1, 1, 10, 0, 3, 0)
  job(12, submit4, NaN, 30, 2, -1, 60, 1, 4, 8)
  job(13, 200, 0, 10, -1, -1, 10, 0, 5, 0)
  job(14, 300, 0, 500, 8, 8, 100, 0, 6, 0)
  job(15, 400, 7, 20, 1, 3, 40, 2, 7, 9)
  return b.finish()
}

const plain = (t: JobTable) => Object.fromEntries(Object.entries(t).map(([k, v]) => [k, ArrayBuffer.isView(v) ? [...(v as Float64Array)] : v]))

describe('cleaning in place', () => {
  for (const consume of [false, true]) {
    it(`unsorted log (${consume ? 'in place' : 'copied'}): the three kept jobs sorted by submit`, () => {
      const r = raw(50)
      const before = plain(r as unknown as JobTable)
      const { jobs, rules } = cleanJobs(r, 64, { overrun: 'drop' }, consume)
      // Kept: lines 2 (submit 100), 4 (50), 7 (400) → order 4, 2, 7.
      expect(plain(jobs)).toEqual({
        count: 3, id: [12, 10, 15], submit: [50, 100, 400], runtime: [30, 50, 20], requested: [60, 100, 40], procs: [2, 4, 3],
        user: [1, 0, 2], recordedWait: [NaN, 5, 7], line: [4, 2, 7], account: [101, 100, 102], partition: [8, 7, 9],
      })
      expect(rules.find((x) => x.rule === 'unsorted')).toMatchObject({ count: 1, exampleLines: [4] })
      expect(rules.filter((x) => x.count > 0 && x.effect === 'removed').map((x) => [x.rule, x.exampleLines])).toEqual([
        ['C5-submit', [3]], ['C4-no-procs', [5]], ['C7-overrun', [6]],
      ])
      if (!consume) expect(plain(r as unknown as JobTable)).toEqual(before)
    })
    it(`sorted log (${consume ? 'in place' : 'copied'}): kept jobs in file order`, () => {
      const r = raw(150)
      const before = plain(r as unknown as JobTable)
      const { jobs } = cleanJobs(r, 64, { overrun: 'drop' }, consume)
      expect(plain(jobs)).toEqual({
        count: 3, id: [10, 12, 15], submit: [100, 150, 400], runtime: [50, 30, 20], requested: [100, 60, 40], procs: [4, 2, 3],
        user: [0, 1, 2], recordedWait: [5, NaN, 7], line: [2, 4, 7], account: [100, 101, 102], partition: [7, 8, 9],
      })
      if (consume) expect(jobs.submit.buffer).toBe(r.submit.buffer) // no second table: the raw columns, compacted (16 rows: under 1,024 spare)
      else expect(plain(r as unknown as JobTable)).toEqual(before)
    })
    it(`sorted log, two jobs of three dropped (${consume ? 'in place' : 'copied'}): exact copies, not views keeping the raw rows alive`, () => {
      const b = new RawJobsBuilder(4096)
      // 3,000 jobs, every one but each third with no processors (C4): 1,000 kept. 3,000 rows
      // written > 1.05 × 1,000 + 1,024 = 2,074: copied to 1,000 rows.
      for (let i = 0; i < 3000; i++) b.push(i, i, -1, 5, i % 3 === 0 ? 1 : -1, -1, 10, 0, 1, i + 1)
      const { jobs } = cleanJobs(b.finish(), 64, {}, consume)
      expect(jobs.count).toBe(1000)
      expect([jobs.id[0], jobs.id[1], jobs.id[999], jobs.line[999]]).toEqual([0, 3, 2997, 2998])
      for (const k of ['id', 'submit', 'runtime', 'requested', 'recordedWait'] as const) expect(jobs[k].buffer.byteLength, k).toBe(8000)
      for (const k of ['procs', 'user', 'line'] as const) expect(jobs[k].buffer.byteLength, k).toBe(4000)
    })
    it(`sorted log in columns with much room never written (${consume ? 'in place' : 'copied'}): views of them, except a column filled to its end`, () => {
      // Room for 8,192 jobs, 2,000 pushed, all kept: 2,000 rows written ≤ 1.05 × 2,000 + 1,024 =
      // 3,124, so no copy (the 6,192 rows never written cost no memory). The partition column is
      // filled with its unknown value to the end of its buffer (8,192 rows written): copied.
      const b = new RawJobsBuilder(8192)
      b.enable('partition')
      const row = emptyRow()
      for (let i = 1; i <= 2000; i++) { b.push(i, i * 10, -1, 5, 1, 1, 10, 0, 1, i + 1); row[COL.partition] = i % 3; b.setRow(row) }
      const r = b.finish()
      const { jobs } = cleanJobs(r, 64, {}, consume)
      expect(jobs.count).toBe(2000)
      expect([jobs.id[1999], jobs.submit[1999], jobs.partition![1999]]).toEqual([2000, 20000, 2])
      if (consume) {
        for (const k of ['id', 'submit', 'runtime', 'requested', 'recordedWait', 'user', 'line'] as const) expect(jobs[k].buffer, k).toBe(r[k].buffer)
        expect(jobs.submit.buffer.byteLength).toBe(8192 * 8)
      }
      expect(jobs.partition!.buffer.byteLength).toBe(2000 * 4)
    })
    it(`unsorted log in columns with room never written (${consume ? 'in place' : 'copied'}): viewed columns reordered in place, the filled one gathered`, () => {
      // Room for 8,192 jobs, 2,000 pushed in descending submit order (ids ascending), all kept:
      // the table is job 2,000 first. Core columns: 2,000 written rows ≤ 3,124, views reordered in
      // place; the partition column (filled to 8,192 rows) gathered into an exact copy.
      const b = new RawJobsBuilder(8192)
      b.enable('partition')
      const row = emptyRow()
      for (let i = 1; i <= 2000; i++) { b.push(i, (2001 - i) * 10, i, 5, 1, 1, 10, i % 5, 1, i + 1); row[COL.partition] = i % 3; b.setRow(row) }
      const r = b.finish()
      const { jobs, rules } = cleanJobs(r, 64, {}, consume)
      expect(rules.find((x) => x.rule === 'unsorted')!.count).toBe(1999)
      expect(jobs.count).toBe(2000)
      for (const k of [0, 1, 1234, 1999]) {
        const i = 2000 - k // job i, pushed i-th, is k-th in submit order
        expect([jobs.id[k], jobs.submit[k], jobs.recordedWait[k], jobs.user[k], jobs.line[k], jobs.partition![k]]).toEqual([i, (2001 - i) * 10, i, i % 5, i + 1, i % 3])
      }
      if (consume) expect(jobs.submit.buffer).toBe(r.submit.buffer)
      expect(jobs.partition!.buffer.byteLength).toBe(2000 * 4)
    })
    it(`unsorted log, two jobs of three dropped (${consume ? 'in place' : 'copied'}): exact copies gathered in submit order`, () => {
      const b = new RawJobsBuilder(4096)
      // 3,000 jobs in descending submit order, every one but each third with no processors (C4).
      for (let i = 0; i < 3000; i++) b.push(i, 3000 - i, -1, 5, i % 3 === 0 ? 1 : -1, -1, 10, 0, 1, i + 1)
      const { jobs } = cleanJobs(b.finish(), 64, {}, consume)
      expect(jobs.count).toBe(1000)
      expect([jobs.id[0], jobs.submit[0], jobs.id[999], jobs.line[999]]).toEqual([2997, 3, 0, 1])
      for (const k of ['id', 'submit', 'runtime', 'requested', 'recordedWait'] as const) expect(jobs[k].buffer.byteLength, k).toBe(8000)
    })
    it(`sorted log, nearly every job kept (${consume ? 'in place' : 'copied'}): the cleaned columns are the raw ones, compacted`, () => {
      const b = new RawJobsBuilder(16)
      // 2,000 jobs (columns of 2,048 rows: 16 doubled), the 1,000th with no submit (C5): 1,999 kept.
      for (let i = 1; i <= 2000; i++) b.push(i, i === 1000 ? -1 : i * 10, -1, 5, 1, 1, 10, 0, 1, i + 1)
      const r = b.finish()
      const { jobs } = cleanJobs(r, 64, {}, consume)
      expect(jobs.count).toBe(1999)
      expect([jobs.id[998], jobs.id[999], jobs.submit[999], jobs.line[1998]]).toEqual([999, 1001, 10010, 2001])
      if (consume) {
        expect(jobs.submit.buffer).toBe(r.submit.buffer) // no second table
        // The processor columns are freed at once (they read as empty); the status column, never
        // read by cleaning, became the table's processors.
        expect([r.allocProcs.length, r.reqProcs.length]).toEqual([0, 0])
        expect(jobs.procs.buffer).toBe(r.status.buffer)
      } else {
        expect(jobs.submit.buffer).not.toBe(r.submit.buffer)
        expect([r.allocProcs.length, r.reqProcs.length, r.status.length]).toEqual([2000, 2000, 2000])
      }
    })
  }
})
