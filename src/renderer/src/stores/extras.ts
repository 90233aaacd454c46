// Online-selection and mixed-policy results are CLI features today (`easytune online --json`,
// `easytune mixed --json`); the results step shows them when the administrator opens such a file.
// Only the fields shown are checked.
import type { RunSummary } from '../../../core/tune/online'
import type { PartSummary } from '../../../core/tune/select'

export interface OnlineJson {
  schemaVersion: number
  log: { name: string; machineProcs: number }
  config: { period: number; threshold: number | null; policies: string[]; traces?: number }
  traces: number
  periods: number
  runs: RunSummary[]
}

export interface MixedEntryJson {
  label: string
  weights: number[]
  threshold: number | null
  train: PartSummary
  test: PartSummary
}

export interface MixedJson {
  schemaVersion: number
  log: { name: string; machineProcs: number; jobs: number }
  options: { objective: string; method: string; budget: number }
  features: { name: string; meaning: string; searched: boolean }[]
  best: MixedEntryJson
  baseline: MixedEntryJson
  vertices: MixedEntryJson[]
}

export interface Extras {
  online: OnlineJson | null
  mixed: MixedJson | null
}

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null

export function parseExtras(data: unknown): { kind: 'online' | 'mixed'; extras: Partial<Extras> } {
  if (isObj(data) && Array.isArray(data.runs) && typeof data.periods === 'number' && isObj(data.config)) {
    return { kind: 'online', extras: { online: data as unknown as OnlineJson } }
  }
  if (isObj(data) && isObj(data.best) && isObj(data.baseline) && Array.isArray(data.vertices)) {
    return { kind: 'mixed', extras: { mixed: data as unknown as MixedJson } }
  }
  throw new Error('this JSON is not an EasyTune evaluation, online or mixed result (from `easytune evaluate|online|mixed --json`)')
}
