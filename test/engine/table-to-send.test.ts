// How an import worker sends its job table (src/engine/protocol.ts tableToSend): the big columns
// in 'column' messages of their own, every column in a buffer of its own length, because a
// structured clone (Electron's utilityProcess messages, like structuredClone here) carries a
// view's whole buffer.
import { describe, expect, it } from 'vitest'
import { COLUMN_MESSAGE_BYTES, tableToSend } from '../../src/engine/protocol'
import type { JobTable } from '../../src/core/workload/types'

describe('tableToSend', () => {
  const rows = 200_000 // 1.6 MB as Float64 (over COLUMN_MESSAGE_BYTES), 0.8 MB as Int32 (under)
  // The builder's way: columns viewing the start of buffers with spare rows.
  const submit = new Float64Array(new ArrayBuffer(8 * (rows + 50_000)), 0, rows).fill(3)
  const line = new Int32Array(new ArrayBuffer(4 * (rows + 50_000)), 0, rows).fill(4)
  const user = new Int32Array(rows).fill(5) // already its own size
  const names = ['alice']
  const jobs = { count: rows, submit, line, user, names } as unknown as JobTable

  it('splits off the columns of 1 MiB or more, and keeps the rest and every non-column entry in the answer', () => {
    expect(submit.byteLength).toBeGreaterThanOrEqual(COLUMN_MESSAGE_BYTES)
    expect(line.byteLength).toBeLessThan(COLUMN_MESSAGE_BYTES)
    const { rest, alone } = tableToSend(jobs)
    expect(alone.map(([n]) => n)).toEqual(['submit'])
    expect(Object.keys(rest).sort()).toEqual(['count', 'line', 'names', 'user'])
    const r = rest as unknown as Record<string, unknown>
    expect(r.count).toBe(rows)
    expect(r.names).toBe(names)
    expect(r.user).toBe(user) // no copy when none is needed
    expect(Array.from(alone[0][1].subarray(0, 3))).toEqual([3, 3, 3])
    expect(alone[0][1].length).toBe(rows)
  })

  it('sends no spare rows through a structured clone, big column or small', () => {
    expect(structuredClone(line).buffer.byteLength).toBeGreaterThan(line.byteLength) // what a view alone would carry
    const { rest, alone } = tableToSend(jobs)
    const sentLine = structuredClone((rest as unknown as { line: Int32Array }).line)
    expect(sentLine.buffer.byteLength).toBe(4 * rows)
    expect(sentLine.every((v) => v === 4)).toBe(true)
    expect(structuredClone(alone[0][1]).buffer.byteLength).toBe(8 * rows)
  })
})
