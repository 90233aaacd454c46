// The text the cluster runs for a sharded campaign (docs/CLI.md §Running on a Slurm cluster): the two
// sbatch scripts, the shell commands that submit them, the commands that re-run shards, and the
// sbatch calls of --submit. Code for the cluster (sbatch's own options), not messages: the
// control-words test leaves this file out as it does the export's scripts.
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { arrayRange } from '../core/tune/shards'
import type { ShardPlan } from '../engine/shards'

export const ARRAY_SCRIPT = 'campaign.sbatch'
export const MERGE_SCRIPT = 'merge.sbatch'
export const LOGS_DIR = 'logs'
export const RESULT_FILE = 'result.json'

/** A word for the shell, single-quoted when it needs to be. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`
}

/** A path inside Slurm's output file pattern: a literal % is written %%. */
function slurmPattern(path: string): string {
  return path.replace(/%/g, '%%')
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

export function arrayScript(dir: string, plan: ShardPlan, command: string[]): string {
  const r = plan.resources
  // #SBATCH lines are not shell: the folder's path has no blank or quote (writeSlurmArray checks).
  return [
    ...header(plan, 'EasyTune sharded campaign: one array task per shard; each writes its cells into the plan folder.'),
    `#SBATCH --job-name=easytune-${plan.planId.slice(0, 8)}`,
    `#SBATCH --array=0-${plan.shards - 1}`,
    '#SBATCH --ntasks=1',
    `#SBATCH --cpus-per-task=${r.cpusPerTask}`,
    `#SBATCH --mem=${r.memMB}M`,
    `#SBATCH --time=${slurmTime(r.timeMinutes)}`,
    `#SBATCH --output=${slurmPattern(join(dir, LOGS_DIR))}/shard-%a.out`,
    `#SBATCH --error=${slurmPattern(join(dir, LOGS_DIR))}/shard-%a.err`,
    'set -eu',
    `exec ${[...command, 'run-shard', dir].map(shellWord).join(' ')}`,
    '',
  ].join('\n')
}

export function mergeScript(dir: string, plan: ShardPlan, command: string[]): string {
  const r = plan.resources
  return [
    ...header(plan, `EasyTune merge: checks every cell and writes the result (${RESULT_FILE}); submit it after the array (afterok).`),
    `#SBATCH --job-name=easytune-merge-${plan.planId.slice(0, 8)}`,
    '#SBATCH --ntasks=1',
    `#SBATCH --cpus-per-task=${r.mergeCpus}`,
    `#SBATCH --mem=${r.mergeMemMB}M`,
    `#SBATCH --time=${slurmTime(r.mergeTimeMinutes)}`,
    `#SBATCH --output=${slurmPattern(join(dir, LOGS_DIR))}/merge.out`,
    `#SBATCH --error=${slurmPattern(join(dir, LOGS_DIR))}/merge.err`,
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
