// What an administrator sees of the time limits (issue #22 item 5; docs/PREDICTIONS.md §Time limits):
// per user, account and partition, how far the requested times p̃ are from the runtimes p (the
// quantiles of p̃/p) and the node-hours the limits ask for beyond what the jobs use; the site's
// totals and the distribution of p̃/p; the users and partitions to start with; and the what-if
// "with exact limits / with learned predictions your average wait and bounded slowdown would be …"
// (EASY-FCFS on the whole log, walltimes-whatif.ts). Names are pseudonymised by default
// (`pseudonym`, the one function every surface uses). Pure: no simulation in analyzeWalltimes.
import type { JobTable } from '../workload/types'
import type { PredictionConfig } from './types'

/** Version of the JSON of `easytune walltimes --json` (and of the report's data); bump on any
 * change of meaning or shape. */
export const WALLTIMES_SCHEMA_VERSION = 1

/** What analyzeWalltimes reads of an imported workload (src/core/workload/import.ts Workload). */
export interface WalltimesInput {
  readonly name: string
  readonly jobs: JobTable
  readonly users: readonly string[]
  readonly accounts?: readonly string[]
  readonly partitions?: readonly string[]
}

export interface WalltimesOptions {
  /** Real user and account names (`--names`: for local eyes only). Default false: pseudonyms. */
  readonly names?: boolean
}

/** Quantiles of the requested/actual ratio max(p̃, F)/max(p, F), F = ratioFloor (nearest rank). */
export interface RatioQuantiles {
  readonly p10: number
  readonly p25: number
  readonly p50: number
  readonly p75: number
  readonly p90: number
  readonly max: number
}

/** One user, account or partition. */
export interface WalltimesGroup {
  /** Pseudonym (`user-007`) or real name (--names); partitions keep their names (the site's
   * configuration, not people). Jobs of no known user/account/partition form one group, `unknown`. */
  readonly name: string
  readonly unknown: boolean
  /** 1-based rank by over-requested hours (node-hours when the log records nodes, else CPU-hours). */
  readonly rank: number
  readonly jobs: number
  readonly ratio: RatioQuantiles
  /** Σ max(p̃ − p, 0)·nodes / 3600 over the jobs whose nodes are known; null when the log does not record nodes. */
  readonly overRequestedNodeHours: number | null
  /** Σ max(p̃ − p, 0)·q / 3600 (q = processors). */
  readonly overRequestedCpuHours: number
  /** This group's share of the site's over-requested hours (in the ranking unit), 0..1. */
  readonly shareOfOverRequest: number
  /** Share of the requested CPU time the jobs used: Σ p·q / Σ p̃·q, 0..1 (above 1 only if jobs overran). */
  readonly usedShare: number
  /** The time limit most jobs of the group ask for (seconds) and the share of its jobs that ask
   * exactly it: near 1 on a partition, the sign of a default limit nobody changes. */
  readonly commonLimit: { readonly seconds: number; readonly share: number }
  /** 90th percentile of the runtimes (seconds, nearest rank). */
  readonly runtimeP90: number
}

/** One bar of the distribution of p̃/p over all jobs: ratios in [from, to) (to null = no upper end). */
export interface RatioBin {
  readonly from: number
  readonly to: number | null
  readonly jobs: number
  readonly share: number
}

export interface WalltimesTotals {
  readonly jobs: number
  readonly ratio: RatioQuantiles
  readonly overRequestedNodeHours: number | null
  readonly overRequestedCpuHours: number
  readonly usedShare: number
  /** Jobs whose node count is unknown (-1) in a log that records nodes: left out of the node-hours. */
  readonly jobsWithoutNodes: number
  /** Jobs whose ratio is at least WALLTIMES.poorRatio (they ask at least that many times what they use). */
  readonly poorJobs: number
}

/** A user or partition to start with, and why in words (names as in the report). */
export interface StartWith {
  readonly name: string
  readonly rank: number
  readonly reason: string
}

/** The what-if's scenarios (walltimes-whatif.ts): EASY-FCFS with today's limits, exact limits,
 * learned predictions (the thesis's selected triple) and EASY++. */
export type WhatIfId = 'requested' | 'clairvoyant' | 'eloss' | 'easy++'

export interface WhatIfScenario {
  readonly id: WhatIfId
  readonly label: string
  readonly explain: string
  readonly prediction: PredictionConfig
}

/** One scenario's outcome on the whole log. `error` (in words) when it could not run (e.g. the
 * learner is not available): the numbers are then null. */
export interface WhatIfOutcome {
  readonly id: WhatIfId
  readonly label: string
  readonly prediction: PredictionConfig
  /** Seconds. */
  readonly avgWait: number | null
  readonly avgBsld: number | null
  /** Share of jobs whose bounded slowdown exceeds WHATIF_EXTREME_BSLD (the thesis's 0.1 % problem), 0..1. */
  readonly extremeBsldShare: number | null
  /** Mean |initial prediction − p| (seconds). */
  readonly mae: number | null
  /** Corrections applied (jobs that outlived their prediction, counted each time). */
  readonly corrections: number | null
  /** This scenario's value over today's (the `requested` scenario): 0.8 = 20 % lower. */
  readonly waitVsToday: number | null
  readonly bsldVsToday: number | null
  readonly error: string | null
}

export interface WalltimesWhatIf {
  /** The site's order the scenarios replay: EASY with FCFS, no threshold. */
  readonly order: 'EASY-FCFS'
  readonly machineProcs: number
  /** Bound of the bounded slowdown, seconds. */
  readonly tau: number
  readonly jobs: number
  readonly outcomes: readonly WhatIfOutcome[]
}

/** The triple the campaign selects (helper C's campaign; filled in by the lead when merged). */
export interface WalltimesCampaign {
  readonly label: string
  readonly prediction: PredictionConfig
  /** The logs the leave-one-out selection used. */
  readonly logs: readonly string[]
  readonly outcome: WhatIfOutcome | null
}

export interface WalltimesReport {
  readonly schemaVersion: typeof WALLTIMES_SCHEMA_VERSION
  readonly log: string
  /** 'pseudonyms' (the default: nothing names a person) or 'real' (--names). */
  readonly names: 'pseudonyms' | 'real'
  /** F in seconds: runtimes and limits below it count as F in the ratio. */
  readonly ratioFloor: number
  /** The unit the ranking, the shares and the start-with use. */
  readonly hours: 'node-hours' | 'cpu-hours'
  /** Which columns the log records. */
  readonly recorded: { readonly users: boolean; readonly accounts: boolean; readonly partitions: boolean; readonly nodes: boolean }
  readonly site: WalltimesTotals
  readonly distribution: readonly RatioBin[]
  /** Sorted by over-requested hours, most first; accounts/partitions empty when not recorded. */
  readonly users: readonly WalltimesGroup[]
  readonly accounts: readonly WalltimesGroup[]
  readonly partitions: readonly WalltimesGroup[]
  readonly startWith: { readonly users: readonly StartWith[]; readonly partitions: readonly StartWith[] }
  /** What can be deployed on a Slurm site, stated plainly. */
  readonly deployment: string
  /** The what-if, when it was run (walltimes-whatif.ts), else null. */
  readonly whatIf: WalltimesWhatIf | null
  /** The triple the campaign selects, when a campaign result is at hand. */
  readonly campaign?: WalltimesCampaign
}

/** Pseudonym of a user or account: its rank in this log by over-requested hours, zero-padded to
 * the width of the group count (at least 3 digits): `user-007` is the 7th. Not derived from the
 * name, so it cannot be reversed by guessing names; stable for the same log. */
export function pseudonym(kind: 'user' | 'account', rank: number, of: number): string {
  throw new Error(`not implemented ${kind} ${rank} ${of}`)
}

/** The analysis (no simulation; linear in the jobs plus a sort per group). */
export function analyzeWalltimes(w: WalltimesInput, options: WalltimesOptions = {}): WalltimesReport {
  throw new Error(`not implemented ${w.name} ${String(options.names)}`)
}
