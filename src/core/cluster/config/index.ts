// Placeholder until the configuration readers land (helper B): every call throws.
import type { ClusterSpec, SlurmConf, SlurmScheduling } from '../types'
import type { JobTable, NodeSeen } from '../../workload/types'
const todo = (): never => { throw new Error('cluster configuration files are not read yet') }
export function parseSlurmConf(_text: string, _file: string, _gres?: { text: string; file: string }): SlurmConf { return todo() }
export function parseScontrol(_text: string, _file: string): ClusterSpec { return todo() }
export function detectConfigKind(_text: string): 'slurm.conf' | 'scontrol' { return todo() }
export function inferCluster(_x: { jobs: JobTable; nodesSeen: readonly NodeSeen[]; partitions: readonly string[]; machineProcs: number }): ClusterSpec { return todo() }
export function defaultScheduling(): SlurmScheduling { return todo() }
export class ClusterConfigError extends Error {}
