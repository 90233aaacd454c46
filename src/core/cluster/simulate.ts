// One entry point for node-level simulation (docs/CLUSTER.md §EASY on nodes): the research's EASY
// with a chosen order ('easy', ./easy.ts) or Slurm's own scheduling ('slurm', ./slurm/scheduler.ts)
// on the machine as configured.
import { SimulationStopped } from '../sim/easy'
import { ClusterEasySimulator } from './easy'
import { runSlurm } from './slurm/scheduler'
import type { ClusterJobs, ClusterRun, ClusterScheduler, ClusterSimOptions, ClusterSpec } from './types'

/** Simulates `jobs` on `cluster` under `scheduler` to the end of the log. Throws SimulationStopped
 * when options.onCheck asked to stop (as simulate() does). */
export function simulateCluster(jobs: ClusterJobs, cluster: ClusterSpec, scheduler: ClusterScheduler, options: ClusterSimOptions = {}): ClusterRun {
  if (scheduler.kind === 'easy') {
    const sim = new ClusterEasySimulator(jobs, cluster, scheduler.config, options)
    if (sim.runUntil(Infinity)) throw new SimulationStopped()
    return sim.result()
  }
  return runSlurm(jobs, cluster, scheduler.scheduling, { siteFactor: scheduler.siteFactor, nice: scheduler.nice }, options)
}

/**
 * The resumable form for progress and cancel (as EasySimulator.runUntil): `runUntil(t)` answers
 * true when the onCheck hook stopped the run between two event times, and calling it again goes
 * on with the same schedule. Only the 'easy' scheduler is resumable; 'slurm' runs in one piece
 * (its onCheck, if it calls it, stops it with SimulationStopped).
 */
export class ClusterSimulation {
  private readonly easy: ClusterEasySimulator | null
  private done: ClusterRun | null = null

  constructor(private readonly jobs: ClusterJobs, private readonly cluster: ClusterSpec, private readonly scheduler: ClusterScheduler, private readonly options: ClusterSimOptions = {}) {
    this.easy = scheduler.kind === 'easy' ? new ClusterEasySimulator(jobs, cluster, scheduler.config, options) : null
  }

  /** The simulated time of the last event processed ('easy'; NaN for 'slurm', which runs in one go). */
  get now(): number { return this.easy !== null ? this.easy.now : NaN }

  /** Jobs started so far ('slurm': 0 until it has run). */
  get jobsStarted(): number {
    if (this.easy !== null) return this.easy.jobsStarted
    return this.done === null ? 0 : this.jobs.count
  }

  runUntil(t: number): boolean {
    if (this.easy !== null) return this.easy.runUntil(t)
    if (this.done === null && t === Infinity) this.done = simulateCluster(this.jobs, this.cluster, this.scheduler, this.options)
    return false
  }

  /** The schedule (after runUntil(Infinity) answered false). */
  result(): ClusterRun {
    if (this.easy !== null) return this.easy.result()
    if (this.done === null) throw new Error('the simulation has not run yet: call runUntil(Infinity) first')
    return this.done
  }
}
