// A research order as Slurm would run it once exported (docs/CLUSTER.md §As deployed): the
// exporter writes its files for the order (merged into the site's slurm.conf when one was given),
// the slurm.conf reader reads the result back, and the site factor is computed as the generated
// job_submit.lua and periodic script compute it. So a candidate simulated under Slurm's scheduling
// is exactly what `easytune export` would install, rounding, calc periods and caps included.
import { choiceOf } from '../export/deploy'
import { MERGED_CONF_FILE, SLURM_CONF_FILE, DEFAULT_SLURM_VERSION, exportSlurm } from '../export/slurm'
import { slurmPlan, type SlurmPlan } from '../export/slurm-plan'
import type { ExportInput } from '../export/validate'
import { policyLabel } from '../sim/policies'
import type { SimConfig } from '../sim/types'
import { parseSlurmConf, parseSlurmScheduling } from './config'
import { deployedSiteFactor } from './deployed'
import type { ClusterJobs, SiteFactor, SlurmScheduling } from './types'

/** What the export needs to know of the log besides the order (as the result records it). */
export interface DeployContext {
  readonly machineProcs: number
  /** The longest time limit in the log (sizes bf_window), seconds. */
  readonly maxRequested: number | null
  /** The longest simulated wait of the order (sizes PriorityMaxAge of a linear mixture), seconds. */
  readonly longestWait: number | null
  /** The slurm.conf the export merges into (--slurm-conf / --current-conf), or null: the fragment
   * on Slurm's defaults. */
  readonly conf: { readonly file: string; readonly text: string } | null
  /** The scheduling of that conf as read (or Slurm's defaults): the FCFS baseline runs it unchanged. */
  readonly base: SlurmScheduling
}

export interface DeployedOrder {
  readonly scheduling: SlurmScheduling
  readonly plan: SlurmPlan | null
  /** The slurm.conf text that was read back (merged file or fragment); null for the baseline. */
  readonly text: string | null
}

/** True for EASY-FCFS without a threshold: the configuration as it is, nothing exported. */
export function isUnchanged(config: SimConfig): boolean {
  const p = typeof config.primary === 'string' ? policyLabel(config.primary) : ''
  return p === 'FCFS' && config.threshold === null
}

/** The exported configuration of `config`, read back. Slurm's backfill walks its priority order,
 * so an explicit backfill order is not deployable: the order deploys with backfill 'same'. */
export function deployOrder(config: SimConfig, ctx: DeployContext): DeployedOrder {
  if (isUnchanged(config)) return { scheduling: ctx.base, plan: null, text: null }
  const x: ExportInput = {
    verdict: 'switch', maxRequested: ctx.maxRequested, primary: choiceOf(config.primary), backfill: 'same', threshold: config.threshold,
    machineProcs: ctx.machineProcs, longestWait: ctx.longestWait, baseline: false, label: '', sha256: null, objective: null,
    gains: { train: null, test: null, testCi: null, maxWaitRatio: null },
  }
  const plan = slurmPlan(x)
  const ex = exportSlurm(x, DEFAULT_SLURM_VERSION, ctx.conf?.text)
  const file = ex.files.find((f) => f.name === (ctx.conf ? MERGED_CONF_FILE : SLURM_CONF_FILE))
  if (!file) throw new Error(`internal: the Slurm export wrote no ${ctx.conf ? MERGED_CONF_FILE : SLURM_CONF_FILE}`)
  // Without the site's file, the fragment is read on Slurm's defaults; its nodes come from the
  // machine, so only the scheduling is taken from it.
  const scheduling = ctx.conf ? parseSlurmConf(file.content, file.name).scheduling : parseSlurmScheduling(file.content, file.name).scheduling
  return { scheduling, plan, text: file.content }
}

/** The deployed order's site factor on these jobs (none for FCFS / TRES-weight plans). */
export function deployedSiteFactorOf(d: DeployedOrder, jobs: ClusterJobs, unixStartTime: number): SiteFactor | undefined {
  return d.plan === null ? undefined : deployedSiteFactor(d.plan, jobs, unixStartTime)
}
