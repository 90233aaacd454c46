// The optional resource columns of a job table (types.ts), declared once so that every step that
// picks, reorders or shifts jobs (week samples, long traces, parts) carries all of them.
import type { JobTable } from './types'

type Typed = Int32Array | Float64Array | Uint8Array
type Ctor = new (n: number) => Typed

/** Each optional column and its array type; `time`: a time on the submit clock, shifted with it. */
export const RESOURCE_COLUMNS: readonly { readonly key: keyof JobTable; readonly type: Ctor; readonly time?: true }[] = [
  { key: 'account', type: Int32Array },
  { key: 'partition', type: Int32Array },
  { key: 'qos', type: Int32Array },
  { key: 'nodes', type: Int32Array },
  { key: 'memMB', type: Float64Array },
  { key: 'gpus', type: Int32Array },
  { key: 'exclusive', type: Uint8Array },
  { key: 'eligible', type: Float64Array, time: true },
  { key: 'schedFlag', type: Uint8Array },
  { key: 'priority', type: Float64Array },
]

/**
 * The optional columns of `src` for the jobs `idx` (in that order): out[k] = src[idx[k]], times
 * moved by the same amount as the job's submit (`shift[k]` = new submit − old submit).
 */
export function pickOptionalColumns(src: JobTable, idx: ArrayLike<number>, shift: (k: number) => number): Partial<JobTable> {
  const out: Record<string, Typed> = {}
  const n = idx.length
  for (const c of RESOURCE_COLUMNS) {
    const from = src[c.key] as Typed | undefined
    if (from === undefined) continue
    const to = new c.type(n)
    if (c.time) for (let k = 0; k < n; k++) to[k] = from[idx[k]] + shift(k)
    else for (let k = 0; k < n; k++) to[k] = from[idx[k]]
    out[c.key] = to
  }
  return out as Partial<JobTable>
}

/** The optional columns of consecutive tables, one after the other (a column absent from any part is left out). */
export function concatOptional(parts: readonly Partial<JobTable>[], n: number): Partial<JobTable> {
  const out: Record<string, Typed> = {}
  for (const c of RESOURCE_COLUMNS) {
    if (parts.length === 0 || parts.some((p) => p[c.key] === undefined)) continue
    const to = new c.type(n)
    let o = 0
    for (const p of parts) { const a = p[c.key] as Typed; to.set(a as never, o); o += a.length }
    out[c.key] = to
  }
  return out as Partial<JobTable>
}

/** The optional columns of rows [from, to) as views (no copy). */
export function sliceOptionalColumns(src: JobTable, from: number, to: number): Partial<JobTable> {
  const out: Record<string, Typed> = {}
  for (const c of RESOURCE_COLUMNS) {
    const a = src[c.key] as Typed | undefined
    if (a !== undefined) out[c.key] = a.subarray(from, to)
  }
  return out as Partial<JobTable>
}
