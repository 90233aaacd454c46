// The Inspect step's data (src/core/workload/inspect.ts) on a hand-checked log, and its
// determinism and bounds on a larger one.
import { describe, expect, it } from 'vitest'
import { inspectWorkload, MAX_SCATTER_POINTS } from '../../src/core/workload/inspect'
import type { JobTable } from '../../src/core/workload/types'

const WEEK = 604800

function table(rows: { submit: number; runtime: number; requested: number; procs: number; user: number; wait?: number }[]): JobTable {
  const n = rows.length
  const t = {
    count: n, id: new Float64Array(n), submit: new Float64Array(n), runtime: new Float64Array(n), requested: new Float64Array(n),
    procs: new Int32Array(n), user: new Int32Array(n), recordedWait: new Float64Array(n), line: new Int32Array(n),
  }
  rows.forEach((r, i) => {
    t.id[i] = i + 1; t.submit[i] = r.submit; t.runtime[i] = r.runtime; t.requested[i] = r.requested
    t.procs[i] = r.procs; t.user[i] = r.user; t.recordedWait[i] = r.wait ?? NaN; t.line[i] = i + 1
  })
  return t
}

describe('inspectWorkload', () => {
  it('computes every panel of a small log exactly', () => {
    const jobs = table([
      { submit: 0, runtime: 100, requested: 200, procs: 2, user: 0, wait: 0 },
      { submit: 10, runtime: 50, requested: 60, procs: 4, user: 1, wait: 30 },
      { submit: WEEK + 5, runtime: 10, requested: 1000, procs: 1, user: 0 },
    ])
    const d = inspectWorkload({ jobs, machineProcs: 4, users: ['alice', 'bob'] })
    expect(d.weeks.start).toEqual([0, WEEK])
    expect(d.weeks.submittedLoad).toEqual([(2 * 100 + 4 * 50) / (4 * WEEK), 10 / (4 * WEEK)])
    // EASY-FCFS: job 2 waits for job 1 (needs the whole machine), so both weeks' busy time is known.
    expect(d.weeks.utilization).toEqual([(200 + 200) / (4 * WEEK), 10 / (4 * WEEK)])
    expect(d.procsHistogram).toEqual({ edges: [1, 2, 4, 8], counts: [1, 1, 1] })
    expect(d.requestedHistogram).toEqual({ edges: [0, 32, 64, 128, 256, 512, 1024], counts: [0, 1, 0, 1, 0, 1] })
    expect(d.overEstimation).toEqual({ requested: [200, 60, 1000], runtime: [100, 50, 10], medianRatio: 2 })
    expect(d.topUsers).toEqual([{ user: 'alice', jobs: 2, procSeconds: 210 }, { user: 'bob', jobs: 1, procSeconds: 200 }])
    expect(d.recordedWaits).toEqual({ edges: [0, 16, 32], counts: [1, 1], mean: 15, median: 15 })
  })

  it('has no recorded-wait panel when the log records no waits; handles an empty log', () => {
    const jobs = table([{ submit: 0, runtime: 5, requested: 10, procs: 1, user: -1 }])
    const d = inspectWorkload({ jobs, machineProcs: 1, users: [] })
    expect(d.recordedWaits).toBeNull()
    expect(d.topUsers).toEqual([{ user: '(unknown)', jobs: 1, procSeconds: 5 }])
    const empty = inspectWorkload({ jobs: table([]), machineProcs: 8, users: [] })
    expect(empty.weeks.start).toEqual([])
    expect(empty.topUsers).toEqual([])
    expect(empty.overEstimation.requested).toEqual([])
  })

  it('samples at most 2,000 scatter points deterministically, and keeps the top 10 users', () => {
    const rows = Array.from({ length: 7001 }, (_, i) => ({ submit: i * 60, runtime: 10 + (i % 97), requested: 100 + (i % 89) * 10, procs: 1 + (i % 16), user: i % 23 }))
    const input = { jobs: table(rows), machineProcs: 64, users: Array.from({ length: 23 }, (_, u) => `u${u}`) }
    const a = inspectWorkload(input)
    const b = inspectWorkload(input)
    expect(a).toEqual(b)
    expect(a.overEstimation.requested).toHaveLength(MAX_SCATTER_POINTS)
    expect(a.overEstimation.runtime[1]).toBe(rows[Math.floor(7001 / 2000)].runtime)
    expect(a.topUsers).toHaveLength(10)
    for (let i = 1; i < 10; i++) expect(a.topUsers[i - 1].procSeconds).toBeGreaterThanOrEqual(a.topUsers[i].procSeconds)
    expect(a.procsHistogram.counts.reduce((x, y) => x + y, 0)).toBe(7001)
  })
})
