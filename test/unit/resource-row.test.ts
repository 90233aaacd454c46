// The row a parser fills per job with its optional values (src/core/workload/builder.ts
// ResourceRow, COL) and how the builder copies it into its columns: every column declared in
// COLUMN_SPEC has its place, its unknown value, and lands in its own column, also after the columns
// grew and whatever order the parser enabled them in.
import { describe, expect, it } from 'vitest'
import { COL, COLUMN_SPEC, OPTIONAL_COLUMNS, RawJobsBuilder, clearRow, emptyRow, type OptionalColumn } from '../../src/core/workload/builder'

/** A value column c can hold exactly, different for every column and job (Uint8 columns: 0..255). */
const valueOf = (c: OptionalColumn, job: number) => (COLUMN_SPEC[c].make(1) instanceof Uint8Array ? (OPTIONAL_COLUMNS.indexOf(c) * 7 + job) % 256 : 1000 * (OPTIONAL_COLUMNS.indexOf(c) + 1) + job)

describe('the resource row', () => {
  it('has one place per optional column, and starts (and clears) at each column\'s unknown value', () => {
    expect(Object.keys(COL).sort()).toEqual([...OPTIONAL_COLUMNS].sort())
    expect(new Set(Object.values(COL)).size).toBe(OPTIONAL_COLUMNS.length)
    const row = emptyRow()
    expect(row.length).toBe(OPTIONAL_COLUMNS.length)
    for (const c of OPTIONAL_COLUMNS) expect(Object.is(row[COL[c]], COLUMN_SPEC[c].unknown)).toBe(true)
    row.fill(42)
    clearRow(row)
    for (const c of OPTIONAL_COLUMNS) expect(Object.is(row[COL[c]], COLUMN_SPEC[c].unknown)).toBe(true)
    expect(emptyRow()).not.toBe(emptyRow()) // each parser its own
  })

  it('setRow writes each enabled column from its place, through growth, in any enabling order; the others stay unknown', () => {
    const order: OptionalColumn[] = [...OPTIONAL_COLUMNS].reverse().filter((c) => c !== 'qos') // qos: never enabled
    const b = new RawJobsBuilder(16)
    const row = emptyRow()
    const jobs = 100 // past 16: the columns are reallocated several times
    for (let j = 0; j < jobs; j++) {
      if (j === 3) for (const c of order.slice(0, 4)) b.enable(c)
      if (j === 40) for (const c of order.slice(4)) b.enable(c) // the jobs before get the unknown value
      b.push(j, j, 0, 1, 1, 1, 1, -1, 0, j + 1)
      clearRow(row)
      for (const c of OPTIONAL_COLUMNS) row[COL[c]] = valueOf(c, j)
      b.setRow(row)
    }
    const raw = b.finish()
    expect(raw.qos).toBeUndefined()
    for (const [k, c] of order.entries()) {
      const from = k < 4 ? 3 : 40
      const col = raw[c] as ArrayLike<number>
      for (let j = 0; j < jobs; j++) {
        const want = j < from ? COLUMN_SPEC[c].unknown : valueOf(c, j)
        expect(Object.is(col[j], want), `${c} of job ${j}: ${col[j]} ≠ ${want}`).toBe(true)
      }
    }
  })
})
