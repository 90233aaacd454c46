// The shared first step of every tuning command: split the cleaned log in time and set up the
// week samples of each part. Deterministic for a given seed, so every worker builds the same.
import type { Compat } from '../sim/types'
import type { JobTable } from '../workload/types'
import { deriveSeed } from '../util/random'
import { WeekSamples, type ResampleSpec } from './resample'
import { splitWorkload, type Split, type SplitSpec } from './split'

export interface Prepared {
  split: Split
  train: WeekSamples
  test: WeekSamples
}

/** `compat`: how each part's weeks are cut (docs/PROTOCOL.md §Week resampling); the samples carry it
 * to the simulator. */
export function prepare(jobs: JobTable, machineProcs: number, split: SplitSpec, resample: ResampleSpec, compat: Compat = 'none'): Prepared {
  const s = splitWorkload(jobs, machineProcs, split)
  return {
    split: s,
    // Train and test draw from independent streams of the same seed.
    train: new WeekSamples(s.train, { ...resample, seed: deriveSeed(resample.seed, 'train') }, { compat }),
    test: new WeekSamples(s.test, { ...resample, seed: deriveSeed(resample.seed, 'test') }, { compat }),
  }
}
