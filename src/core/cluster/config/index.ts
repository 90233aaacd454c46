// Reading the machine (and Slurm's scheduling) from a cluster file, or inferring it from a log
// (docs/CLUSTER.md §Configuration files, §Inferred machine).
export { ClusterConfigError, MAX_NODES } from './errors'
export { SLURM_DEFAULTS, SLURM_DEFAULTS_VERSION, defaultScheduling } from './defaults'
export { parseSlurmConf, parseSlurmScheduling, type ConfInclude } from './slurm-conf'
export { parseScontrol } from './scontrol'
export { detectConfigKind } from './detect'
export { inferCluster, type InferInput } from './infer'
