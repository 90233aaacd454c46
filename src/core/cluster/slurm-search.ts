// Searching the site's own Slurm settings (issue #21 item 4;
// docs/CLUSTER.md §The search): the one-setting grid of slurm-family.ts changes one setting at a time; this
// searches several at once, over continuous values, with the mixed-policy machinery's XNES
// (src/core/tune/mixed.ts xnesSteps), from today's configuration.
//
// The space: one coordinate per setting that acts on the current scheduling (KNOBS[k].acts), 0 =
// today's value. A count of reservations (bf_job_part_count_reserve) moves additively (x = +1: one
// more reservation per partition, rounded, at least 0); every other setting moves on a log scale
// (x = +1: twice today's value, −1: half), at most ×/÷ 2^SPAN, rounded to a whole number of
// slurm.conf's unit within the setting's bounds. A point whose rounded values all equal today's is
// today's configuration. The objective of a point is its train objective: the mean over the train
// samples of the campaign's objective (avgWait or avgBsld) of the cell `{ primary FCFS, slurm:
// change }` under Slurm's scheduling — exactly what the campaign measures for that candidate —
// so the caller evaluates points as ordinary train cells (cached, on the pool) and the result
// does not depend on where or in which order they ran. Identical rounded changes are simulated once.
import { DEFAULTS } from '../defaults'
import { xnesSteps } from '../tune/mixed'
import { deriveSeed } from '../util/random'
import { EVERY_FACTOR, KNOBS, SLURM_KNOBS, slurmChangeLabel, type FactorSpread, type SlurmChange, type SlurmKnob } from './slurm-family'
import type { SlurmScheduling } from './types'

/** Largest move of a log-scale setting, in doublings (2^2: a quarter to four times today's). */
export const SEARCH_SPAN = 2
/** XNES's first step: one doubling (or one reservation). */
export const SEARCH_SIGMA0 = 1

export interface SlurmSearchOptions {
  /** Points evaluated at most, today's configuration included. */
  budget: number
  seed: number
}

/** What the search did, recorded in the result (protocol.slurmSearch). */
export interface SlurmSearchRecord {
  budget: number
  /** The settings searched, in order (the coordinates of the space). */
  settings: SlurmKnob[]
  /** Points evaluated (today's configuration included) and distinct simulations (cells). */
  evaluations: number
  simulations: number
  /** Train objective of today's configuration and of the best point found (seconds for avgWait). */
  currentObjective: number
  bestObjective: number
  /** The best change found; null when nothing beat today's configuration on train. */
  best: SlurmChange | null
  /** trace[i]: the best train objective after i + 1 evaluations. */
  trace: number[]
}

/** The settings the search moves on this scheduling and log (those the one-setting grid would try). */
export function searchedSettings(s: SlurmScheduling, log: FactorSpread = EVERY_FACTOR): SlurmKnob[] {
  return SLURM_KNOBS.filter((k) => KNOBS[k].acts(s, log))
}

/** The change a point of the space stands for (null: today's configuration). */
export function decodePoint(s: SlurmScheduling, settings: readonly SlurmKnob[], x: readonly number[]): SlurmChange | null {
  const out: Partial<Record<SlurmKnob, number>> = {}
  settings.forEach((k, i) => {
    const d = KNOBS[k]
    const cur = d.current(s)
    const xi = Math.max(-SEARCH_SPAN, Math.min(SEARCH_SPAN, Number.isFinite(x[i]) ? x[i] : 0))
    const raw = k === 'bf_job_part_count_reserve' ? cur + xi : cur * 2 ** xi
    const v = Math.min(d.max, Math.max(d.min, Math.round(raw)))
    if (v !== cur) out[k] = v
  })
  return Object.keys(out).length ? out : null
}

/** The search as steps (as mixedSearchSteps): yields the changes whose train objective it needs
 * next (null = today's configuration; every point of a batch independent) and takes their
 * objectives back in the same order. The result is the same however the batches were computed. */
export function* slurmSearchSteps(s: SlurmScheduling, o: SlurmSearchOptions, log: FactorSpread = EVERY_FACTOR): Generator<(SlurmChange | null)[], SlurmSearchRecord, number[]> {
  if (!(Number.isInteger(o.budget) && o.budget >= 1)) throw new Error(`the search budget must be a whole number above 0, got ${o.budget}`)
  const settings = searchedSettings(s, log)
  const cache = new Map<string, number>()
  const trace: number[] = []
  let best: { change: SlurmChange | null; f: number } = { change: null, f: Infinity }
  const key = (c: SlurmChange | null) => (c === null ? '' : slurmChangeLabel(c))
  function* evaluate(points: readonly (SlurmChange | null)[]): Generator<(SlurmChange | null)[], number[], number[]> {
    const missing = new Map<string, SlurmChange | null>()
    for (const c of points) if (!cache.has(key(c)) && !missing.has(key(c))) missing.set(key(c), c)
    if (missing.size > 0) {
      const fs = yield [...missing.values()]
      ;[...missing.keys()].forEach((k, i) => cache.set(k, fs[i]))
    }
    return points.map((c) => {
      const f = cache.get(key(c))!
      // Strictly better only: today's configuration wins ties (a change must earn its place).
      if (f < best.f) best = { change: c, f }
      trace.push(best.f)
      return f
    })
  }
  const [current] = yield* evaluate([null])
  if (settings.length > 0 && o.budget > 1) {
    const steps = xnesSteps(settings.map(() => 0), { sigma0: SEARCH_SIGMA0, budget: o.budget - 1, seed: deriveSeed(o.seed, 'slurm-search') })
    let st = steps.next(undefined as unknown as number[])
    while (!st.done) {
      const fs = yield* evaluate(st.value.map((x) => decodePoint(s, settings, x)))
      st = steps.next(fs)
    }
  }
  return { budget: o.budget, settings, evaluations: trace.length, simulations: cache.size, currentObjective: current, bestObjective: best.f, best: best.change, trace }
}

/** The default budget (DEFAULTS.slurmSearch). */
export const SLURM_SEARCH_DEFAULT_BUDGET = DEFAULTS.slurmSearch.value
