// The shared first step of every tuning command: split the cleaned log in time and set up the
// week samples of each part. Deterministic for a given seed, so every worker builds the same.
import type { Compat } from '../sim/types'
import type { JobTable } from '../workload/types'
import { deriveSeed } from '../util/random'
import { WEEK, WeekSamples, type ResampleSpec } from './resample'
import { splitWorkload, type Split, type SplitSpec } from './split'
import { DEFAULTS } from '../defaults'

export interface Prepared {
  split: Split
  train: WeekSamples
  test: WeekSamples
  /** The parts' real full weeks, in order (the 'none' resampling): what the verdict's statistics
   * bootstrap (docs/STATISTICS.md). The same objects as train/test when the resampling is 'none'. */
  trainReal: WeekSamples
  testReal: WeekSamples
}

/** `compat`: how each part's weeks are cut (docs/PROTOCOL.md §Week resampling); the samples carry it
 * to the simulator. */
export function prepare(jobs: JobTable, machineProcs: number, split: SplitSpec, resample: ResampleSpec, compat: Compat = 'none'): Prepared {
  const s = splitWorkload(jobs, machineProcs, split)
  // Train and test draw from independent streams of the same seed.
  const train = new WeekSamples(s.train, { ...resample, seed: deriveSeed(resample.seed, 'train') }, { compat })
  const test = new WeekSamples(s.test, { ...resample, seed: deriveSeed(resample.seed, 'test') }, { compat })
  const real = (w: WeekSamples, part: Split['train']) => (resample.method === 'none' ? w : new WeekSamples(part, { method: 'none', weeks: 1, seed: resample.seed }, { compat, keepJobs: 500_000 }))
  return { split: s, train, test, trainReal: real(train, s.train), testReal: real(test, s.test) }
}


/** Full weeks of submits in a part (7-day windows from its first submit). */
export function fullWeeks(part: JobTable): number {
  return part.count ? Math.floor((part.submit[part.count - 1] - part.submit[0]) / WEEK) : 0
}

/** Whether the log is long enough for the protocol (docs/STATISTICS.md §Enough data): null, or the problem in words (evaluate exits 2 with them; the wizard disables Start
 * with them). Fewer than DEFAULTS.minFullWeeks full weeks of submits in either part is refused;
 * independent of --weeks. */
export function dataProblem(jobs: JobTable, machineProcs: number, spec: SplitSpec, minFullWeeks: number = DEFAULTS.minFullWeeks.value): string | null {
  const span = jobs.count ? jobs.submit[jobs.count - 1] - jobs.submit[0] : 0
  const days = (span / 86400).toFixed(1)
  const spans = `${days} day${days === '1.0' ? '' : 's'}`
  const advice = `the protocol needs at least ${minFullWeeks} full weeks in each part: give several files, e.g. daily jobcomp files, or a longer sacct range`
  let s: Split
  try {
    s = splitWorkload(jobs, machineProcs, spec)
  } catch (e) {
    return `this log spans ${spans} and ${(e as Error).message}; ${advice}`
  }
  const short = (['train', 'test'] as const).map((p) => ({ p, w: fullWeeks(s[p]) })).filter((x) => x.w < minFullWeeks)
  if (short.length === 0) return null
  return `this log spans ${spans} (${short.map((x) => `${x.p}: ${x.w} full week${x.w === 1 ? '' : 's'}`).join(', ')}); ${advice}`
}
