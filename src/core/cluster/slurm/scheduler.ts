// Slurm's own scheduling on the node-level machine (SLURM-SCHEDULER.md §1–§3). Placeholder until
// the implementation lands: every call throws.
import type { ClusterJobs, ClusterRun, ClusterSimOptions, ClusterSpec, SiteFactor, SlurmScheduling } from '../types'

export function runSlurm(
  _jobs: ClusterJobs, _cluster: ClusterSpec, _scheduling: SlurmScheduling,
  _extra: { siteFactor?: SiteFactor; nice?: Int32Array }, _options: ClusterSimOptions,
): ClusterRun {
  throw new Error('the Slurm scheduler is not implemented yet')
}
