// Placeholder until the node-level simulator lands (helper C).
import type { ClusterJobs, ClusterRun, ClusterScheduler, ClusterSimOptions, ClusterSpec } from './types'
export function simulateCluster(_j: ClusterJobs, _c: ClusterSpec, _s: ClusterScheduler, _o?: ClusterSimOptions): ClusterRun { throw new Error('not yet') }
