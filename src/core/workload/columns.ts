// Picking, slicing and joining the optional columns of a job table (types.ts; declared once in
// builder.ts's OPTIONAL_COLUMNS / COLUMN_SPEC), so that every step that picks, reorders or shifts
// jobs (week samples, long traces, parts) carries all of them. The account column is optional
// too (it predates the resource columns); `eligible` is a time on the submit clock and moves with
// the job's submit.
import { COLUMN_SPEC, OPTIONAL_COLUMNS, type ColumnArray } from './builder'
import type { JobTable } from './types'

const COLUMNS: readonly { readonly key: keyof JobTable; readonly make: (n: number) => ColumnArray; readonly time: boolean }[] = [
  { key: 'account', make: (n) => new Int32Array(n), time: false },
  ...OPTIONAL_COLUMNS.map((key) => ({ key, make: COLUMN_SPEC[key].make, time: key === 'eligible' })),
]

/** The optional columns of `src` for the jobs `idx` (in that order): out[k] = src[idx[k]], times
 * moved by the same amount as the job's submit (`shift(k)` = new submit − old submit). */
export function pickOptionalColumns(src: JobTable, idx: ArrayLike<number>, shift: (k: number) => number): Partial<JobTable> {
  const out: Record<string, ColumnArray> = {}
  const n = idx.length
  for (const c of COLUMNS) {
    const from = src[c.key] as ColumnArray | undefined
    if (from === undefined) continue
    const to = c.make(n)
    if (c.time) for (let k = 0; k < n; k++) to[k] = from[idx[k]] + shift(k)
    else for (let k = 0; k < n; k++) to[k] = from[idx[k]]
    out[c.key] = to
  }
  return out as Partial<JobTable>
}

/** The optional columns of consecutive tables, one after the other (a column absent from any part is left out). */
export function concatOptional(parts: readonly Partial<JobTable>[], n: number): Partial<JobTable> {
  const out: Record<string, ColumnArray> = {}
  for (const c of COLUMNS) {
    if (parts.length === 0 || parts.some((p) => p[c.key] === undefined)) continue
    const to = c.make(n)
    let o = 0
    for (const p of parts) { const a = p[c.key] as ColumnArray; to.set(a, o); o += a.length }
    out[c.key] = to
  }
  return out as Partial<JobTable>
}

/** The optional columns of rows [from, to) as views (no copy). */
export function sliceOptionalColumns(src: JobTable, from: number, to: number): Partial<JobTable> {
  const out: Record<string, ColumnArray> = {}
  for (const c of COLUMNS) {
    const a = src[c.key] as ColumnArray | undefined
    if (a !== undefined) out[c.key] = a.subarray(from, to)
  }
  return out as Partial<JobTable>
}
