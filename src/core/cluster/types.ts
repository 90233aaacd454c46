// The machine as configured (nodes, partitions, GPUs, allocation rules) and Slurm's scheduling
// parameters, as plain data (docs/CLUSTER.md). One meaning per input (issue #21):
//   --cluster      → ClusterSpec only; the research's EASY runs on it ('easy' scheduler);
//   --slurm-conf   → ClusterSpec + SlurmScheduling; 'slurm' scheduler by default;
//   --current-conf → the same, and it is the baseline of `evaluate`.
// Without a file, the ClusterSpec is inferred from the log (source.kind 'inferred').
// Times are seconds everywhere here (slurm.conf's minutes are converted by the parsers).

/** One node (slurm.conf NodeName line after hostlist expansion, or one `scontrol show node` record). */
export interface NodeSpec {
  readonly name: string
  /** Schedulable CPUs (slurm.conf CPUs=, or Sockets×CoresPerSocket×ThreadsPerCore; CPUTot in scontrol). */
  readonly cpus: number
  /** Threads per core (CR_Core allocates whole cores: a 1-CPU job takes this many CPUs). 1 if unknown. */
  readonly threadsPerCore: number
  /** RealMemory in MB (slurm.conf default 1). */
  readonly memMB: number
  /** GPUs (Gres=gpu:N or gpu:type:N, summed over types). */
  readonly gpus: number
  /** Scheduling weight (lower first; default 1). */
  readonly weight: number
}

export type OverSubscribe = 'NO' | 'YES' | 'FORCE' | 'EXCLUSIVE'

export interface PartitionSpec {
  readonly name: string
  /** Indices into ClusterSpec.nodes, ascending (= slurm.conf node order). */
  readonly nodes: readonly number[]
  /** MaxTime in seconds; null = UNLIMITED. */
  readonly maxTime: number | null
  /** DefaultTime in seconds; null = unset (then MaxTime applies at start). */
  readonly defaultTime: number | null
  readonly priorityTier: number
  readonly priorityJobFactor: number
  readonly overSubscribe: OverSubscribe
  /** Default=YES: jobs without a partition (or with one the machine does not have) go here. */
  readonly isDefault: boolean
  /** DefMemPerCPU / DefMemPerNode of the partition (MB), null = the cluster's. */
  readonly defMemPerCpu: number | null
  readonly defMemPerNode: number | null
  /** UP schedules; DOWN and INACTIVE start nothing; DRAIN keeps scheduling queued jobs. */
  readonly state: 'UP' | 'DOWN' | 'DRAIN' | 'INACTIVE'
}

/** SelectType/SelectTypeParameters, reduced to what changes an allocation (docs/CLUSTER.md §Allocation). */
export interface SelectSpec {
  /** 'linear': whole nodes; 'cons_tres' (also cons_res): per CPU/core/socket. */
  readonly type: 'linear' | 'cons_tres'
  /** CR_CPU → 'cpu', CR_Core → 'core', CR_Socket → 'socket' (approximated as 'core'). */
  readonly unit: 'cpu' | 'core' | 'socket'
  /** CR_*_Memory: memory is consumable (a job without a memory request takes the whole node's). */
  readonly memory: boolean
}

export type ClusterSource =
  | { readonly kind: 'slurm.conf'; readonly file: string; readonly gresFile?: string }
  | { readonly kind: 'scontrol'; readonly file: string }
  | { readonly kind: 'inferred'; readonly note: string }

export interface ClusterSpec {
  readonly nodes: readonly NodeSpec[]
  readonly partitions: readonly PartitionSpec[]
  readonly select: SelectSpec
  /** Cluster-wide DefMemPerCPU / DefMemPerNode (MB), null = unset. */
  readonly defMemPerCpu: number | null
  readonly defMemPerNode: number | null
  /** Where it came from, said in every result that used it. */
  readonly source: ClusterSource
  /** Plain-words notes on what was read approximately or ignored (e.g. "Feature= ignored"). */
  readonly notes: readonly string[]
}

/** Which scheduling is simulated on the machine: the research's EASY or Slurm's own. */
export type SchedulerKind = 'easy' | 'slurm'

/** PriorityWeight* and friends (docs/CLUSTER.md §Slurm scheduling). Weights are Slurm's integers. */
export interface PriorityConfig {
  /** priority/basic = FIFO by submit; priority/multifactor = the formula. */
  readonly type: 'basic' | 'multifactor'
  readonly weightAge: number
  readonly weightFairshare: number
  readonly weightJobSize: number
  readonly weightPartition: number
  readonly weightQos: number
  readonly weightAssoc: number
  /** PriorityWeightTRES, e.g. { cpu: 100, mem: 0.01, 'gres/gpu': 1000 } (doubles, may be negative). */
  readonly weightTres: Readonly<Record<string, number>>
  /** Seconds (default 7 days). */
  readonly maxAge: number
  /** Seconds (default 7 days); 0 = no decay (needs a reset period). */
  readonly decayHalfLife: number
  /** Seconds between recomputations (PriorityCalcPeriod, default 5 min). */
  readonly calcPeriod: number
  readonly favorSmall: boolean
  /** PriorityFlags, upper case (FAIR_TREE is the default unless NO_FAIR_TREE). */
  readonly fairTree: boolean
  readonly flags: readonly string[]
  readonly dampeningFactor: number
  /** QOS name → priority (from the conf's comments, sacctmgr or --qos-priority); missing = 0. */
  readonly qosPriority: Readonly<Record<string, number>>
  /** AccountingStorageType is slurmdbd: without it Slurm forces the age and fair-share weights to 0. */
  readonly accounting: boolean
}

/** SchedulerParameters and the main/backfill settings (docs/CLUSTER.md §Slurm scheduling). Seconds. */
export interface SlurmScheduling {
  readonly schedulerType: 'backfill' | 'builtin'
  readonly sched: {
    readonly interval: number
    readonly defaultQueueDepth: number
    readonly partitionJobDepth: number
    readonly maxJobStart: number
  }
  readonly bf: {
    /** bf_interval seconds; -1 disables backfill. */
    readonly interval: number
    /** bf_window in SECONDS (slurm.conf gives minutes). */
    readonly window: number
    readonly resolution: number
    readonly maxJobTest: number
    readonly maxJobStart: number
    readonly maxJobUser: number
    readonly maxJobPart: number
    /** 0 = every tested job may reserve. */
    readonly jobPartCountReserve: number
    readonly minAgeReserve: number
    readonly continue: boolean
  }
  readonly priority: PriorityConfig
  /** The raw SchedulerParameters (for the export's merge and the result). */
  readonly schedulerParameters: string
}

/** A whole Slurm configuration: the machine and its scheduling. */
export interface SlurmConf {
  readonly cluster: ClusterSpec
  readonly scheduling: SlurmScheduling
  /** The file's text, kept so the export can merge into it (evaluate --current-conf). */
  readonly text: string
}

/**
 * The simulator's input on a node-level machine: the single-pool columns (SimJobs) plus one column
 * per resource. Sorted by (submit, id) like SimJobs. Built from a JobTable and a ClusterSpec by
 * buildClusterJobs (src/core/cluster/jobs.ts), which resolves partitions and defaults.
 */
export interface ClusterJobs {
  readonly count: number
  readonly submit: Float64Array
  readonly runtime: Float64Array
  readonly requested: Float64Array
  /** Total CPUs (= SimJobs.procs). */
  readonly procs: Int32Array
  /** Index into ClusterSpec.partitions. */
  readonly partition: Int32Array
  /** Node count; 0 = not known: the CPUs may spread over any nodes (flexible). */
  readonly nodes: Int32Array
  /** Memory per node in MB (a flexible job, nodes = 0: its total, spread per CPU); 0 = none requested (then the defaults / "all memory" rule apply). */
  readonly memPerNode: Float64Array
  /** GPUs per node. */
  readonly gpusPerNode: Int32Array
  /** 1 = whole nodes (--exclusive); partitions EXCLUSIVE and select/linear imply it anyway. */
  readonly exclusive: Uint8Array
  /** Index of user / account / QOS, -1 unknown (priority, fair-share, bf_max_job_user). */
  readonly user: Int32Array
  readonly account: Int32Array
  readonly qos: Int32Array
  /** When the job became eligible (≥ submit); age counts from here. */
  readonly eligible: Float64Array
}

/** What a node-level simulation returns besides the start times. */
export interface ClusterRun {
  readonly start: Float64Array
  /** 1 = started by the backfill (Slurm's SchedBackfill; under 'easy', started past a blocked job), 0 = not. */
  readonly backfilled: Uint8Array
  /** First node index of each job's allocation (for the schedule file), -1 none. */
  readonly firstNode: Int32Array
}

/** A site factor as the exported configuration computes it (job_submit.lua at submit: 'static';
 * the periodic script: 'dynamic', re-evaluated at each priority recomputation). Raw integer added
 * to the priority, no weight (docs/CLUSTER.md §Slurm scheduling). */
export type SiteFactor =
  | { readonly kind: 'static'; readonly value: Float64Array }
  | { readonly kind: 'dynamic'; readonly value: (job: number, now: number) => number }

/** Which scheduling runs on the machine. */
export type ClusterScheduler =
  | { readonly kind: 'easy'; readonly config: import('../sim/types').SimConfig }
  | { readonly kind: 'slurm'; readonly scheduling: SlurmScheduling; readonly siteFactor?: SiteFactor; readonly nice?: Int32Array }

export interface ClusterSimOptions {
  /** Epoch seconds of t = 0 (bf_resolution rounds absolute time; calc ticks are an absolute
   * schedule); 0 when the log has no dates. */
  readonly unixStartTime?: number
  /** QOS names (index = ClusterJobs.qos), to look up PriorityConfig.qosPriority. */
  readonly qosNames?: readonly string[]
  /** Origin of s for the research policies' features (as SimOptions.windowStart). */
  readonly windowStart?: number
  /** As SimOptions.onCheck / checkEvery: progress and stop between two event times. */
  readonly onCheck?: (jobsStarted: number, now: number) => boolean
  readonly checkEvery?: number
}
