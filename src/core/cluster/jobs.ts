// Placeholder until the node-level jobs land (helper C).
import type { ClusterJobs, ClusterSpec } from './types'
import type { JobTable } from '../workload/types'
export function buildClusterJobs(_t: JobTable, _c: ClusterSpec, _n: { partitions?: string[]; qosNames?: string[] }): { jobs: ClusterJobs; notes: string[] } { throw new Error('not yet') }
