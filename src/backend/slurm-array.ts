// The plan folder of a sharded campaign and its sbatch scripts (docs/CLI.md §Running on a Slurm cluster),
// for the CLI (evaluate --slurm-array) and the GUI (Run on a Slurm cluster…): plan.json and the
// cells folder (src/engine/shards.ts), campaign.sbatch (the job array, one task per shard),
// merge.sbatch (the merge, run after the whole array succeeded) and logs/ for their output.
import { execFile } from 'node:child_process'
import { promises as fsp } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Workload } from '../core/workload/import'
import { arrayRange } from '../core/tune/shards'
import { hashFile, writeEntryFile } from '../engine/cache'
import type { EvaluateRequest } from '../engine/evaluate'
import { defaultWorkerPath } from '../engine/pool'
import { buildPlan, writePlan, type PlanResources, type ShardPlan } from '../engine/shards'
import { KTH_SECONDS_PER_JOB, parallelSpeedup, POLICY_FACTOR, WORKER_START_SECONDS } from './estimate'

export const ARRAY_SCRIPT = 'campaign.sbatch'
export const MERGE_SCRIPT = 'merge.sbatch'
export const LOGS_DIR = 'logs'
export const RESULT_FILE = 'result.json'

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
}

export interface SlurmArrayFolder {
  dir: string
  plan: ShardPlan
  files: string[]
  /** The shell commands that submit the array, then the merge after it (the job id passed on). */
  submit: string[]
}

/** Writes the plan folder: plan.json, cells/, logs/, campaign.sbatch and merge.sbatch. */
export async function writeSlurmArray(req: SlurmArrayRequest, w: Workload): Promise<SlurmArrayFolder> {
  const dir = resolve(req.dir)
  const engine = await hashFile(defaultWorkerPath())
  const plan = await buildPlan(req.evaluate, w, req.shards, engine, (c) => estimateResources(c, req.workers, req.shards, w.jobs.count))
  await writePlan(dir, plan)
  await fsp.mkdir(join(dir, LOGS_DIR), { recursive: true })
  const array = join(dir, ARRAY_SCRIPT), merge = join(dir, MERGE_SCRIPT)
  await writeEntryFile(array, arrayScript(dir, plan, req.command))
  await writeEntryFile(merge, mergeScript(dir, plan, req.command))
  await fsp.chmod(array, 0o755)
  await fsp.chmod(merge, 0o755)
  return { dir, plan, files: [join(dir, 'plan.json'), array, merge], submit: submitCommands(dir) }
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

/** A word for the shell, single-quoted when it needs to be. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`
}

function slurmTime(minutes: number): string {
  const d = Math.floor(minutes / 1440), h = Math.floor((minutes % 1440) / 60), m = minutes % 60
  return `${d > 0 ? `${d}-` : ''}${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:00`
}

function header(plan: ShardPlan, what: string): string[] {
  return [
    '#!/bin/bash',
    `# ${what}`,
    `# Written by ${plan.generator} on ${plan.createdAt} for ${plan.log.label}: ${plan.cells.length} cells in ${plan.shards} shards, plan ${plan.planId.slice(0, 12)}.`,
    '# Time and memory are estimates from the campaign rate measured on the machine EasyTune was developed on',
    '# (docs/CLI.md §Running on a Slurm cluster): raise them here if a task is killed for time or memory.',
  ]
}

function arrayScript(dir: string, plan: ShardPlan, command: string[]): string {
  const r = plan.resources
  // Slurm reads #SBATCH lines before the first command and does not expand quotes in them:
  // output paths are written as they are (a folder with spaces needs --output on the command line).
  return [
    ...header(plan, 'EasyTune sharded campaign: one array task per shard; each writes its cells into the plan folder.'),
    `#SBATCH --job-name=easytune-${plan.planId.slice(0, 8)}`,
    `#SBATCH --array=0-${plan.shards - 1}`,
    '#SBATCH --ntasks=1',
    `#SBATCH --cpus-per-task=${r.cpusPerTask}`,
    `#SBATCH --mem=${r.memMB}M`,
    `#SBATCH --time=${slurmTime(r.timeMinutes)}`,
    `#SBATCH --output=${join(dir, LOGS_DIR, 'shard-%a.out')}`,
    `#SBATCH --error=${join(dir, LOGS_DIR, 'shard-%a.err')}`,
    'set -eu',
    `exec ${[...command, 'run-shard', dir].map(shellWord).join(' ')}`,
    '',
  ].join('\n')
}

function mergeScript(dir: string, plan: ShardPlan, command: string[]): string {
  const r = plan.resources
  return [
    ...header(plan, `EasyTune merge: checks every cell and writes the result (${RESULT_FILE}); submit it after the array (afterok).`),
    `#SBATCH --job-name=easytune-merge-${plan.planId.slice(0, 8)}`,
    '#SBATCH --ntasks=1',
    `#SBATCH --cpus-per-task=${r.mergeCpus}`,
    `#SBATCH --mem=${r.mergeMemMB}M`,
    `#SBATCH --time=${slurmTime(r.mergeTimeMinutes)}`,
    `#SBATCH --output=${join(dir, LOGS_DIR, 'merge.out')}`,
    `#SBATCH --error=${join(dir, LOGS_DIR, 'merge.err')}`,
    'set -eu',
    `exec ${[...command, 'merge', dir, '--workers', String(r.mergeCpus), '--json', join(dir, RESULT_FILE)].map(shellWord).join(' ')}`,
    '',
  ].join('\n')
}

/** The commands to submit by hand: the array, then the merge depending on it. */
export function submitCommands(dir: string): string[] {
  return [
    `jobid=$(sbatch --parsable ${shellWord(join(dir, ARRAY_SCRIPT))})`,
    `sbatch --dependency=afterok:\${jobid%%;*} ${shellWord(join(dir, MERGE_SCRIPT))}`,
  ]
}

/** Submitting with sbatch failed (missing, refused): said in words, with what to do. */
export class SubmitError extends Error {}

/** Submits the array, then the merge with --dependency=afterok on it; returns both job ids. */
export async function submitSlurmArray(dir: string, sbatch = 'sbatch'): Promise<{ arrayJob: string; mergeJob: string }> {
  const arrayJob = await runSbatch(sbatch, ['--parsable', join(dir, ARRAY_SCRIPT)])
  const mergeJob = await runSbatch(sbatch, ['--parsable', `--dependency=afterok:${arrayJob}`, join(dir, MERGE_SCRIPT)])
  return { arrayJob, mergeJob }
}

async function runSbatch(sbatch: string, args: string[]): Promise<string> {
  return new Promise((ok, fail) => {
    execFile(sbatch, args, { encoding: 'utf8', timeout: 120_000 }, (err, stdout, stderr) => {
      if (err) {
        const code = (err as NodeJS.ErrnoException).code
        if (code === 'ENOENT') return fail(new SubmitError(`sbatch is not on this machine's PATH (${sbatch}): run the printed commands on a login node of the cluster, or install Slurm's client commands`))
        return fail(new SubmitError(`sbatch ${args.join(' ')} failed${typeof err.code === 'number' ? ` (exit ${err.code})` : ''}: ${(stderr || stdout || err.message).trim()}`))
      }
      // --parsable: "jobid" or "jobid;cluster"
      const id = stdout.trim().split(';')[0]
      if (!/^[0-9]+$/.test(id)) return fail(new SubmitError(`sbatch ${args.join(' ')} printed no job id: ${JSON.stringify(stdout.trim())}`))
      ok(id)
    })
  })
}

/** The commands that re-run some shards alone: each here, or all as tasks of the array again. */
export function rerunCommands(dir: string, shards: number[], easytune = 'easytune'): { here: string[]; sbatch: string } {
  return {
    here: shards.map((s) => `${easytune} run-shard ${shellWord(dir)} --shard ${s}`),
    sbatch: `sbatch --array=${arrayRange(shards)} ${shellWord(join(dir, ARRAY_SCRIPT))}`,
  }
}
