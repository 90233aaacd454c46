// Simulated versus recorded waits: when the log records the waits its own scheduler produced
// (SWF field 3, SLURM/PBS start − submit), compare them with simulated EASY-FCFS on the same jobs,
// so the administrator sees how far to trust the simulator on this log. The comparison itself is
// fidelity() (docs/CLUSTER.md §Fidelity); this is its single-pool EASY form, kept for the callers
// that have no backfill record, partitions or epoch to give.
import { fidelity, type Calibration } from './fidelity'
import type { JobTable } from '../workload/types'

export type { Calibration } from './fidelity'

/** What the single-pool simulator leaves out, stated in every verdict it produces. */
export const SINGLE_POOL_LIMITS: readonly string[] = [
  'the simulator sees one pool of interchangeable processors and a pure order, while the site\'s scheduler adds priorities, partitions, reservations and node topology',
]

export function calibrate(jobs: JobTable, simulatedStart: Float64Array): Calibration | null {
  return fidelity(jobs, simulatedStart, { limits: SINGLE_POOL_LIMITS })
}
