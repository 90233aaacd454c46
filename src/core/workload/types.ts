// The job model shared by every parser, the cleaning step and the simulator (docs/SIMULATOR.md §Job model).
// Everything is columnar: one typed array per attribute, index = job.

import type { BadLineCode } from './limits'

/** Log formats EasyTune reads. */
export type LogFormat = 'swf' | 'sacct' | 'jobcomp' | 'pbs'

export const LOG_FORMATS: readonly LogFormat[] = ['swf', 'sacct', 'jobcomp', 'pbs']

/** The optional per-job resource columns (issue #21), the same in RawJobs and, carried through
 * cleaning, in JobTable. */
export interface ResourceColumns {
  /** Resource columns (issue #21, docs/CLUSTER.md §Job columns), each present only when the log
   * records it. Partition / QOS: index into the log's `partitions` / `qosNames`, -1 unknown. */
  readonly partition?: Int32Array
  readonly qos?: Int32Array
  /** Nodes the job ran on (NNodes/AllocNodes, jobcomp nodes list, SWF none), else requested (ReqNodes); -1 unknown. */
  readonly nodes?: Int32Array
  /** Memory of the whole job in MB (ReqTRES mem=, ReqMem with its unit), -1 unknown. */
  readonly memMB?: Float64Array
  /** GPUs of the whole job (AllocTRES/ReqTRES gres/gpu, AllocGRES/ReqGRES), 0 none, -1 unknown. */
  readonly gpus?: Int32Array
  /** 1 when the job asked for whole nodes (--exclusive in SubmitLine, sacct Exclusive), 0 not / unknown. */
  readonly exclusive?: Uint8Array
  /** Eligible time on the submit clock (seconds), NaN unknown. */
  readonly eligible?: Float64Array
  /** How the site's scheduler started it (sacct Flags): 0 unknown, 1 main scheduler (SchedMain/SchedSubmit), 2 backfill (SchedBackfill). */
  readonly schedFlag?: Uint8Array
  /** The priority recorded at start (sacct Priority), NaN unknown. */
  readonly priority?: Float64Array
  /** The record's own unique id (sacct JobIDRaw; jobcomp JobId when ArrayJobId/HetJobId give the
   * group in `id`), -1 unknown; absent when the log has none. The key that tells array tasks apart. */
  readonly rawId?: Float64Array
  /** Array task index (`123_4` → 4, jobcomp ArrayTaskId) or heterogeneous component offset
   * (`123+1` → 1, HetJobOffset), -1 for a plain job; absent when no job has one. */
  readonly subId?: Int32Array
}

/**
 * Jobs exactly as a parser read them, before cleaning. Unknown numbers are -1 (the SWF
 * convention), unknown recorded waits NaN. Times are seconds; `submit` is relative to
 * `RawLog.unixStartTime` when that is known (SWF field 2 already is; SLURM/PBS parsers subtract
 * the earliest submit).
 */
export interface RawJobs extends ResourceColumns {
  readonly count: number
  /** Numeric job id as recorded (SLURM array tasks and het components keep the parent id; `rawId`
   * and `subId` tell them apart). */
  readonly id: Float64Array
  readonly submit: Float64Array
  /** Wait recorded by the site's own scheduler (SWF field 3, SLURM start − submit); NaN if unknown. */
  readonly recordedWait: Float64Array
  /** p: actual running time. */
  readonly runtime: Float64Array
  /** Allocated processors (SWF field 5). Single precision, 4 bytes a job at the import's peak
   * instead of 8: exact for whole counts up to 16,777,216 (larger ones are rounded to 24 significant
   * bits, and cleaning reads them back capped at MAX_COUNT), and cleaning rounds a count up anyway. */
  readonly allocProcs: Float32Array
  /** Requested processors (SWF field 8), as allocProcs. */
  readonly reqProcs: Float32Array
  /** p̃: requested running time (walltime limit). */
  readonly requested: Float64Array
  /** Index into `users`, -1 when unknown. */
  readonly user: Int32Array
  /** Index into `ParsedLog.accounts`, -1 when unknown; absent when the log has no account column
   * (sacct `Account`, jobcomp `account=`, PBS `account=`): the impact then groups by user. */
  readonly account?: Int32Array
  /** SWF status code (field 11) or -1. */
  readonly status: Int32Array
  /** 1-based line number in the source file, for messages and the import report. */
  readonly line: Int32Array
}

/** Cleaned jobs, sorted by (submit, id): the simulator's input. */
export interface JobTable extends ResourceColumns {
  readonly count: number
  readonly id: Float64Array
  readonly submit: Float64Array
  readonly runtime: Float64Array
  readonly requested: Float64Array
  readonly procs: Int32Array
  readonly user: Int32Array
  /** Index into the workload's `accounts`, -1 when unknown; absent when the log has no accounts. */
  readonly account?: Int32Array
  readonly recordedWait: Float64Array
  readonly line: Int32Array
}

/** Where the machine size came from, in the order of precedence used. */
export type MachineSource = 'given' | 'header-maxprocs' | 'header-maxnodes' | 'inferred-largest-job'

/** A problem with one input line: reported (with its line and reason code) and skipped, never fatal by itself. */
export interface LineIssue {
  readonly line: number
  /** Stable reason code (docs/SIMULATOR.md §Bad lines). */
  readonly code: BadLineCode
  readonly message: string
}

/** What a parser found besides the jobs. */
export interface ParsedLog {
  readonly format: LogFormat
  readonly jobs: RawJobs
  readonly users: string[]
  /** Account names (index = RawJobs.account), when the log records accounts. */
  readonly accounts?: string[]
  /** Partition and QOS names (index = RawJobs.partition / qos), when the log records them. */
  readonly partitions?: string[]
  readonly qosNames?: string[]
  /** Nodes seen in the log's node lists (for inferring the machine, docs/CLUSTER.md §Inferred machine). */
  readonly nodesSeen?: readonly NodeSeen[]
  /** Header values (SWF `; Key: value` lines; other formats may add their own). */
  readonly header: Readonly<Record<string, string>>
  readonly maxProcs: number | null
  readonly maxNodes: number | null
  /** Epoch seconds of submit = 0, when known. */
  readonly unixStartTime: number | null
  readonly linesRead: number
  /** Lines skipped because they could not be read (count + first examples). */
  readonly badLines: number
  readonly badLineExamples: readonly LineIssue[]
  /** Rows the parser itself set aside (job steps, jobs that never started…): rule id → count/examples. */
  readonly parserDrops: readonly RuleCount[]
  /** Plain-words notes about what the file lacks and what that means. */
  readonly warnings: readonly string[]
}

export interface RuleCount {
  readonly rule: string
  readonly description: string
  /** Jobs affected. */
  readonly count: number
  /** 'removed' = dropped; 'changed' = kept with a corrected value; 'info' = reported only. */
  readonly effect: 'removed' | 'changed' | 'info'
  readonly exampleLines: readonly number[]
}

/** Every byte-chunk parser implements this: feed chunks in order, then end(). */
export interface LogParser {
  readonly format: LogFormat
  /** Jobs parsed so far (for progress reports while feeding; a line split across chunks counts
   * once its end arrives). */
  readonly jobsRead: number
  feed(chunk: Uint8Array): void
  end(): ParsedLog
  /** Sizes the columns for about this many jobs (the importer's estimate from the file size), when
   * the parser has one job per line (SWF); others ignore the estimate. */
  reserve?(jobs: number): void
  /** The decompressed size of the whole log, when known: a parser without one job per line
   * (sacct, jobcomp, PBS) sizes its columns from its jobs per byte once it has read a few MiB. */
  expectBytes?(total: number): void
}

/** One node named in the log: the most CPUs and GPUs any job was seen to use on it, and the
 * partitions of the jobs that ran on it (indices into ParsedLog.partitions). */
export interface NodeSeen {
  readonly name: string
  /** Most CPUs seen on this node at once by one job (one-node jobs: their CPUs; spread jobs: CPUs / nodes), -1 unknown. */
  readonly maxCpus: number
  readonly maxGpus: number
  readonly partitions: readonly number[]
}
