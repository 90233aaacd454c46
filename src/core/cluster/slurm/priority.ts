// Slurm's priority/multifactor formula on the node-level machine
// (docs/CLUSTER.md §Slurm scheduling, "Priority"). One job's priority is the weighted sum of its factors plus the site
// factor minus nice, floored at 1 (0 means "held"), capped at 2^32 − 1 and truncated toward zero,
// exactly as slurmctld computes it in C doubles. It is computed at submit (age 0: the accrue time is
// not set yet) and at every PriorityCalcPeriod tick, and nowhere else: between ticks the queue is
// sorted on stored, stale values, as Slurm's is.
//
// The factors that do not move with time (job size, partition, QOS, TRES, a static site factor,
// nice) are computed once per job; age, fair-share and a dynamic site factor at each computation.
import type { ClusterJobs, ClusterSpec, PriorityConfig, SiteFactor } from '../types'

/** Slurm stores priorities as uint32; 0 is reserved for held jobs. */
export const PRIORITY_MAX = 4294967295

/** The last step of Slurm's arithmetic: floor at 1, cap at 2^32 − 1, truncate toward zero. */
export function finishPriority(p: number): number {
  if (!(p >= 1)) return 1 // also NaN: a broken input never makes a held job
  if (p > PRIORITY_MAX) return PRIORITY_MAX
  return Math.trunc(p)
}

/** TRES Slurm knows for the weights, in slurmctld's TRES order (the order the terms are summed in). */
const TRES_ORDER = ['cpu', 'mem', 'node', 'billing', 'gres/gpu'] as const

/** What the priority needs besides the configuration. */
export interface PriorityInputs {
  readonly jobs: ClusterJobs
  readonly cluster: ClusterSpec
  readonly config: PriorityConfig
  /** Names of the QOS indices (ClusterJobs.qos), to look up config.qosPriority. */
  readonly qosNames?: readonly string[]
  readonly siteFactor?: SiteFactor
  /** Raw nice per job (positive lowers the priority). */
  readonly nice?: Int32Array
  /**
   * Keep the age and fair-share weights although the configuration has no slurmdbd. Slurm forces
   * both to 0 without AccountingStorageType=accounting_storage/slurmdbd (priority_multifactor.c
   * init()); a caller replaying a site whose accounting is simply not in the file it was given
   * (its jobs come from sacct, which needs slurmdbd) may say so explicitly.
   */
  readonly assumeAccounting?: boolean
}

/** PriorityFlags as Slurm reads them: case-insensitive. */
const flagSet = (config: PriorityConfig) => new Set(config.flags.map((f) => f.toUpperCase()))

/** The partition factor of each partition: PriorityJobFactor over the largest one (NO_NORMAL_PART: raw). */
export function partitionFactors(cluster: ClusterSpec, config: PriorityConfig): number[] {
  const raw = flagSet(config).has('NO_NORMAL_PART')
  let maxPjf = 0
  for (const p of cluster.partitions) maxPjf = Math.max(maxPjf, p.priorityJobFactor)
  return cluster.partitions.map((p) => raw ? p.priorityJobFactor : (maxPjf > 0 ? p.priorityJobFactor / maxPjf : 0))
}

/** The QOS factor of each QOS name: its priority over the largest one (NO_NORMAL_QOS: raw; none: 0). */
export function qosFactors(config: PriorityConfig, qosNames: readonly string[]): number[] {
  const raw = flagSet(config).has('NO_NORMAL_QOS')
  let maxQos = 0
  for (const v of Object.values(config.qosPriority)) maxQos = Math.max(maxQos, v)
  return qosNames.map((name) => {
    const v = Object.hasOwn(config.qosPriority, name) ? config.qosPriority[name] : 0 // a log's QOS named "constructor" is not Object's
    if (v === 0) return 0
    return raw ? v : (maxQos > 0 ? v / maxQos : 0)
  })
}

/**
 * The multifactor priority of every job. `static` holds Wjs·Fjs, Wpart·Fpart, Wqos·Fqos and the
 * TRES term (already weighted); the rest is added per computation in Slurm's order.
 */
export class SlurmPriority {
  readonly multifactor: boolean
  /** Effective weights after the slurmdbd rule. */
  readonly weightAge: number
  readonly weightFairshare: number
  readonly maxAge: number
  readonly incrOnly: boolean
  /** Whether a tick can change any priority (age, fair-share or a dynamic site factor). */
  readonly timeDependent: boolean
  private readonly js: Float64Array
  private readonly part: Float64Array
  private readonly qos: Float64Array
  private readonly tres: Float64Array
  private readonly site: Float64Array | null
  private readonly dynamicSite: ((job: number, now: number) => number) | null
  private readonly nice: Int32Array | null

  constructor(inp: PriorityInputs) {
    const { jobs, cluster, config } = inp
    const n = jobs.count
    this.multifactor = config.type === 'multifactor'
    const accounting = config.accounting || inp.assumeAccounting === true
    this.weightAge = accounting ? config.weightAge : 0
    this.weightFairshare = accounting ? config.weightFairshare : 0
    this.maxAge = config.maxAge
    const flags = flagSet(config)
    this.incrOnly = flags.has('INCR_ONLY')
    this.js = new Float64Array(n)
    this.part = new Float64Array(n)
    this.qos = new Float64Array(n)
    this.tres = new Float64Array(n)
    this.site = inp.siteFactor?.kind === 'static' ? inp.siteFactor.value : null
    this.dynamicSite = inp.siteFactor?.kind === 'dynamic' ? inp.siteFactor.value : null
    this.nice = inp.nice ?? null
    this.timeDependent = this.multifactor && (this.weightAge !== 0 || this.weightFairshare !== 0 || this.dynamicSite !== null)
    if (!this.multifactor) return

    // Cluster totals for the job-size factor: N = all nodes (22.05), C = all configured CPUs.
    const N = cluster.nodes.length
    let C = 0
    for (const nd of cluster.nodes) C += nd.cpus
    const partNorm = partitionFactors(cluster, config)
    const qosNorm = qosFactors(config, inp.qosNames ?? [])
    // TRES totals per partition (sum over its nodes), for the normalised TRES factors.
    const noNormalTres = flags.has('NO_NORMAL_TRES')
    const tresW = TRES_ORDER.map((t) => config.weightTres[t] ?? 0)
    const anyTres = tresW.some((w) => w !== 0)
    const partTot = cluster.partitions.map((p) => {
      let cpu = 0, mem = 0, gpu = 0
      for (const i of p.nodes) { cpu += cluster.nodes[i].cpus; mem += cluster.nodes[i].memMB; gpu += cluster.nodes[i].gpus }
      // billing defaults to CPUs (TRESBillingWeights are not modelled)
      return [cpu, mem, p.nodes.length, cpu, gpu]
    })
    const relTime = flags.has('SMALL_RELATIVE_TO_TIME')
    const value = [0, 0, 0, 0, 0]

    for (let j = 0; j < n; j++) {
      const cpus = jobs.procs[j]
      const minNodes = Math.max(1, jobs.nodes[j]) // Slurm's min_nodes is at least 1
      const p = jobs.partition[j]
      // Job size (§3.2): favour large by default, PriorityFavorSmall inverts, SMALL_RELATIVE_TO_TIME.
      let js: number
      if (relTime) {
        js = Math.max(minNodes * C / N, cpus)
        js /= Math.max(1, jobs.requested[j] / 60) // per minute of limit
        js /= C
        if (config.favorSmall) js = 1 - js
      } else if (config.favorSmall) {
        js = (N - minNodes) / N
        if (cpus > 0) { js += (C - cpus) / C; js /= 2 }
      } else {
        js = minNodes / N
        if (cpus > 0) { js += cpus / C; js /= 2 }
      }
      js = Math.min(1, Math.max(0, js))
      this.js[j] = js * config.weightJobSize
      this.part[j] = (p >= 0 && p < partNorm.length ? partNorm[p] : 0) * config.weightPartition
      const q = jobs.qos[j]
      this.qos[j] = (q >= 0 && q < qosNorm.length ? qosNorm[q] : 0) * config.weightQos
      if (anyTres) {
        const nodes = minNodes
        value[0] = cpus; value[1] = jobs.memPerNode[j] * nodes; value[2] = nodes
        value[3] = cpus; value[4] = jobs.gpusPerNode[j] * nodes
        const tot = p >= 0 && p < partTot.length ? partTot[p] : null
        let t = 0
        for (let k = 0; k < TRES_ORDER.length; k++) {
          if (tresW[k] === 0) continue
          const f = noNormalTres ? value[k] : (value[k] && tot && tot[k] ? value[k] / tot[k] : 0)
          t += f * tresW[k]
        }
        this.tres[j] = t
      }
    }
  }

  /**
   * Job j's priority at time `now` (seconds, simulation clock). `accrue` is the time age counts
   * from, or NaN while the accrue time is unset (at submit: age 0). `fs` is its association's
   * fair-share factor in [0, 1]. priority/basic returns 1 for every job: the queue order is then
   * submit time and index, Slurm's FIFO.
   */
  compute(j: number, now: number, accrue: number, fs: number): number {
    if (!this.multifactor) return 1
    let age = 0
    if (this.weightAge !== 0 && accrue === accrue) {
      // uint32 seconds in Slurm; the age factor saturates at PriorityMaxAge.
      const diff = now > accrue ? Math.floor(now - accrue) : 0
      age = (diff < this.maxAge ? diff / this.maxAge : 1) * this.weightAge
    }
    const fsTerm = this.weightFairshare !== 0 ? fs * this.weightFairshare : 0
    let site = this.site !== null ? this.site[j] : 0
    if (this.dynamicSite !== null) site = this.dynamicSite(j, now)
    const nice = this.nice !== null ? this.nice[j] : 0
    // Slurm's order of summation: age, assoc (0: no association priorities), fs, js, part, qos, tres, site, nice.
    const p = age + 0 + fsTerm + this.js[j] + this.part[j] + this.qos[j] + this.tres[j] + site - nice
    return finishPriority(p)
  }
}
