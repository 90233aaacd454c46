// Simulated versus recorded waits: when the log records the waits its own scheduler produced
// (SWF field 3, SLURM/PBS start − submit), compare them with simulated EASY-FCFS on the same jobs,
// so the administrator sees how far to trust the simulator on this log. The comparison itself is
// fidelity() (docs/CLUSTER.md §Fidelity); this is its single-pool EASY form, kept for the callers
// that have no backfill record, partitions or epoch to give.
import { FIDELITY_LIMITS, fidelity, type Calibration, type FidelityOptions } from './fidelity'
import type { JobTable } from '../workload/types'

export type { Calibration } from './fidelity'

/** The comparison of simulated EASY-FCFS on the single pool; its verdict states what the pool leaves out. */
export function calibrate(jobs: JobTable, simulatedStart: Float64Array, opts: FidelityOptions = {}): Calibration | null {
  return fidelity(jobs, simulatedStart, { ...opts, limits: [FIDELITY_LIMITS.singlePool, ...(opts.limits ?? [])] })
}
