// The plan folder of a sharded campaign and its sbatch scripts (docs/CLI.md §Running on a Slurm cluster),
// for the CLI (evaluate --slurm-array) and the GUI (Run on a Slurm cluster…): plan.json and the
// cells folder (src/engine/shards.ts), campaign.sbatch (the job array, one task per shard),
// merge.sbatch (the merge, run after the whole array succeeded) and logs/ for their output.
import { promises as fsp } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Workload } from '../core/workload/import'
import { hashFile, writeEntryFile } from '../engine/cache'
import { siteSettings, type EvaluateRequest } from '../engine/evaluate'
import { campaignMachine } from '../core/cluster/model'
import { defaultWorkerPath } from '../engine/pool'
import { buildPlan, ShardPlanError, writePlan, type PlanResources, type ShardPlan } from '../engine/shards'
import { ARRAY_SCRIPT, arrayScript, LOGS_DIR, MERGE_SCRIPT, mergeScript, submitCommands } from './slurm-array-scripts'
import { KTH_SECONDS_PER_JOB, parallelSpeedup, POLICY_FACTOR, WORKER_START_SECONDS } from './estimate'


/** Margin on the time estimate: cluster nodes differ from the machine the rate was measured on,
 * and a task killed at its limit costs a resubmission. */
export const TIME_MARGIN = 3
export const MIN_TASK_MINUTES = 10
/** Memory per process: Node's own (~60 MB) plus the worker's log and week samples, at a generous
 * 1 kB per job (issue #24 measured 235 bytes per job at peak for import + replay). */
export const PROCESS_BASE_MB = 200
export const BYTES_PER_JOB = 1000

export interface SlurmArrayRequest {
  dir: string
  shards: number
  /** Engine workers per array task (= --cpus-per-task). */
  workers: number
  /** The easytune command the scripts run: the Node binary and the CLI's absolute path. */
  command: string[]
  evaluate: EvaluateRequest
  /** The engine worker bundle whose hash the plan records (default: defaultWorkerPath()). */
  workerPath?: string
}

export interface SlurmArrayFolder {
  dir: string
  plan: ShardPlan
  files: string[]
  /** The shell commands that submit the array, then the merge after it (the job id passed on). */
  submit: string[]
  /** What the plan leaves out of a local run, in words (the adaptive search of the site's Slurm
   * settings: its points depend on earlier results, so they cannot be dealt to shards); null if nothing. */
  note: string | null
}

/** Why a job-array plan evaluates the one-setting grid without the search of the site's settings. */
export const ARRAY_SEARCH_NOTE = 'the search of your Slurm settings (several at once) is not part of a job-array plan: each of its points depends on the previous ones, so its cells cannot be dealt to shards in advance. The plan evaluates the one-setting changes; the search runs when the evaluation runs here'

/** Writes the plan folder: plan.json, cells/, logs/, campaign.sbatch and merge.sbatch. */
export async function writeSlurmArray(req: SlurmArrayRequest, w: Workload): Promise<SlurmArrayFolder> {
  const dir = resolve(req.dir)
  // #SBATCH lines are not shell: a blank or a quote in the folder's path would cut them.
  if (/[\s'"\\]/.test(dir)) throw new ShardPlanError(`${dir}: the plan folder's path must have no blanks, quotes or backslashes (the batch scripts name it in their #SBATCH lines): choose another folder`)
  const engine = await hashFile(req.workerPath ?? defaultWorkerPath())
  // The search is adaptive: the plan (and so the merge) runs without it, as --slurm-search-budget 0 would.
  const searching = siteSettings(campaignMachine(req.evaluate.machine, w), req.evaluate.spec, w).searchBudget > 0
  const evaluate = searching ? { ...req.evaluate, spec: { ...req.evaluate.spec, slurmSearch: { budget: 0 } } } : req.evaluate
  const plan = await buildPlan(evaluate, w, req.shards, engine, (c) => estimateResources(c, req.workers, req.shards, w.jobs.count))
  await writePlan(dir, plan)
  await fsp.mkdir(join(dir, LOGS_DIR), { recursive: true })
  const array = join(dir, ARRAY_SCRIPT), merge = join(dir, MERGE_SCRIPT)
  await writeEntryFile(array, arrayScript(dir, plan, req.command))
  await writeEntryFile(merge, mergeScript(dir, plan, req.command))
  await fsp.chmod(array, 0o755)
  await fsp.chmod(merge, 0o755)
  return { dir, plan, files: [join(dir, 'plan.json'), array, merge], submit: submitCommands(dir), note: searching ? ARRAY_SEARCH_NOTE : null }
}

/** The easytune the scripts run on the nodes: this Node and this CLI by absolute path when this
 * process is the CLI (`easytune serve` too); from the desktop app, `easytune` on the cluster's PATH. */
export function easytuneCommand(): string[] {
  const script = process.argv[1]
  if (process.versions.electron || !script || !/easytune(\.[cm]?js)?$/.test(script)) return ['easytune']
  return [process.execPath, resolve(script)]
}

/** Per task: the shard's cells (the costliest shard) × their weeks × jobs per week, at the
 * measured campaign rate (src/backend/estimate.ts), with TIME_MARGIN. */
function estimateResources(c: { cells: { part: 'train' | 'test'; samples?: 'resampled' | 'real' }[]; prepared: import('../engine/evaluate').CampaignOf['prepared'] }, workers: number, shards: number, jobs: number): PlanResources {
  const p = c.prepared
  const perWeek = (part: 'train' | 'test') => {
    const stats = part === 'train' ? p.split.trainStats : p.split.testStats
    const real = part === 'train' ? p.trainReal : p.testReal
    return stats.jobs / Math.max(1, real.count)
  }
  const shardJobs = new Float64Array(shards)
  c.cells.forEach((cell, i) => {
    const samples = cell.samples === 'real' ? (cell.part === 'train' ? p.trainReal : p.testReal).count : (cell.part === 'train' ? p.train : p.test).count
    shardJobs[i % shards] += samples * perWeek(cell.part)
  })
  const worst = Math.max(...shardJobs)
  const cellsPerShard = Math.ceil(c.cells.length / shards)
  const seconds = (worst * KTH_SECONDS_PER_JOB * POLICY_FACTOR) / parallelSpeedup(workers, cellsPerShard) + WORKER_START_SECONDS * 10
  const processMB = PROCESS_BASE_MB + Math.ceil((jobs * BYTES_PER_JOB) / 1e6)
  const roundMB = (mb: number) => Math.ceil(mb / 64) * 64
  return {
    cpusPerTask: workers,
    // the task itself only hashes the log; each worker reads it
    memMB: roundMB(PROCESS_BASE_MB + workers * processMB),
    timeMinutes: Math.max(MIN_TASK_MINUTES, Math.ceil((seconds * TIME_MARGIN) / 60)),
    // the merge reads the log, runs the few as-deployed cells and the statistics
    mergeCpus: Math.min(2, workers),
    mergeMemMB: roundMB(2 * processMB + PROCESS_BASE_MB),
    mergeTimeMinutes: MIN_TASK_MINUTES * 3,
  }
}
