// `easytune run-shard` and `easytune merge`: the two halves of a campaign sharded over a Slurm job
// array (docs/CLI.md §Running on a Slurm cluster); the plan folder is written by evaluate --slurm-array.
import { resolve } from 'node:path'
import { bool, jsonTarget, parseArgs, positiveInt, str, UsageError } from '../args'
import { citation, loadWorkload } from '../common'
import { int, INTERRUPTED, Progress, sliceProgress, untilInterrupted, writeJson, type Io } from '../output'
import { formatDuration } from '../../core/util/duration'
import { evaluate, InsufficientDataError } from '../../engine/evaluate'
import { EnginePool } from '../../engine/pool'
import { checkCells, checkEngine, checkLog, NoPlanError, planRunner, readPlan, runShard, ShardPlanError, type ShardPlan } from '../../engine/shards'
import { rerunCommands } from '../../backend/slurm-array-scripts'
import { MachineInputError } from '../../core/cluster/model'
import { ClusterConfigError } from '../../core/cluster/config'
import { ClusterJobsError } from '../../core/cluster/jobs'
import { formatEvaluation } from './evaluate'

export const runShardHelp = `easytune run-shard <dir> [--shard i] [--workers W]

Runs one shard of a campaign planned by easytune evaluate … --slurm-array <dir> --shards N:
the shard given by --shard, else by SLURM_ARRAY_TASK_ID (as a task of the job array in
<dir>/campaign.sbatch). Each finished cell is written atomically into <dir>/cells; cells already
there and intact are kept, so a re-run after a failure computes only what is missing. The log
must be the one the plan was written for (its sha256 is checked).

  --shard i      the shard to run, 0 to N−1 (default: SLURM_ARRAY_TASK_ID)
  --workers W    engine worker processes (default: SLURM_CPUS_PER_TASK, else cores − 1)

Ctrl-C stops cleanly: finished cells stay in the folder and the command exits 130.
`

export const mergeHelp = `easytune merge <dir> [--json [file]] [--workers W]

Checks that every cell of the plan in <dir> is there, intact and of this plan, then builds the
same result as easytune evaluate with the same options (the recommendation's figures as deployed
on Slurm, a few cells, are simulated here). A missing shard is named with the commands that
re-run it alone; a damaged or foreign cell file is refused.

  --json [file]  the full result (docs/RESULT-SCHEMA.md) to stdout, or to the file
  --workers W    engine worker processes for the few cells run here (default: cores − 1)
`

const RUN_FLAGS = { shard: 'string', workers: 'string', help: 'boolean' } as const
const MERGE_FLAGS = { json: 'optional', workers: 'string', help: 'boolean' } as const

function planDir(positionals: string[], command: string): string {
  if (positionals.length !== 1) throw new UsageError(`${command} needs the plan folder: easytune ${command} <dir> (written by easytune evaluate <log> --slurm-array <dir> --shards N)`)
  return resolve(positionals[0])
}

export async function runShardCommand(argv: string[], io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const a = parseArgs(argv, RUN_FLAGS)
  if (bool(a, 'help')) { io.out(runShardHelp); return 0 }
  const dir = planDir(a.positionals, 'run-shard')
  const shard = shardArg(str(a, 'shard'), env.SLURM_ARRAY_TASK_ID)
  const workers = positiveInt(a, 'workers') ?? cpusPerTask(env.SLURM_CPUS_PER_TASK)
  const pool = new EnginePool({ workers })
  const progress = new Progress(io, 0)
  const show = sliceProgress(io, progress)
  const t0 = performance.now()
  let run
  try {
    const plan = await readPlan(dir)
    if (shard >= plan.shards) throw new ShardPlanError(`shard ${shard} does not exist: this plan has shards 0 to ${plan.shards - 1}`)
    await checkEngine(plan, pool.workerPath)
    run = await untilInterrupted(io, progress, async (signal) => {
      await checkLog(plan, signal)
      return runShard(dir, plan, shard, pool, {
        signal,
        // A bar on a terminal, a line every few seconds on a pipe: a shard runs as a batch job,
        // whose output file is where its progress is read.
        onProgress: (p) => show(`shard ${shard}`, p.cellsTotal ? p.cellsDone / p.cellsTotal : null, () => {
          const eta = p.etaSeconds === null ? '' : `, ${formatDuration(p.etaSeconds)} left`
          return `${int(p.cellsDone)}/${int(p.cellsTotal)} cells${eta}`
        }),
        onWorkerCrash: (c) => { progress.done(); io.err(`warning: ${c.message}\n`) },
        onWarning: (m) => { progress.done(); io.err(`warning: ${m}\n`) },
      })
    }, 'interrupted: finished cells are kept in the plan folder; run the same command again to resume.')
  } catch (e) {
    if (e instanceof ShardPlanError) { io.err(planMessage(e)); return 2 }
    throw e
  }
  if (run === INTERRUPTED) return 130
  for (const r of run.replaced) io.err(`warning: ${r}: refused and computed again\n`)
  const seconds = (performance.now() - t0) / 1000
  io.err(`shard ${shard}: ${int(run.cells)} cells, ${int(run.computed)} computed, ${int(run.kept)} already in ${dir}, on ${pool.workers} worker${pool.workers === 1 ? '' : 's'} in ${seconds.toFixed(1)} s\n`)
  return 0
}

function planMessage(e: ShardPlanError): string {
  return `${e.message}\n${e instanceof NoPlanError ? 'Write one first: easytune evaluate <log> … --slurm-array <dir> --shards N\n' : ''}`
}

function shardArg(flag: string | undefined, task: string | undefined): number {
  const text = flag ?? task
  if (text === undefined) throw new UsageError('run-shard needs the shard: --shard i, or SLURM_ARRAY_TASK_ID set (as Slurm does for each task of the job array)')
  if (!/^[0-9]+$/.test(text.trim())) throw new UsageError(`${flag !== undefined ? '--shard' : 'SLURM_ARRAY_TASK_ID'} must be a whole number from 0, got "${text}"`)
  return Number(text.trim())
}

function cpusPerTask(text: string | undefined): number | undefined {
  const n = text === undefined ? NaN : Number(text)
  return Number.isInteger(n) && n >= 1 ? n : undefined
}

export async function mergeCommand(argv: string[], io: Io): Promise<number> {
  const a = parseArgs(argv, MERGE_FLAGS)
  if (bool(a, 'help')) { io.out(mergeHelp); return 0 }
  const dir = planDir(a.positionals, 'merge')
  const json = jsonTarget(a)
  const pool = new EnginePool({ workers: positiveInt(a, 'workers') })
  let plan: ShardPlan
  try {
    plan = await readPlan(dir)
    await checkEngine(plan, pool.workerPath)
  } catch (e) {
    if (e instanceof ShardPlanError) { io.err(planMessage(e)); return 2 }
    throw e
  }
  const check = await checkCells(dir, plan)
  if (check.results === null) {
    io.err(incomplete(dir, plan, check))
    return 1
  }
  const progress = new Progress(io, 0)
  const show = sliceProgress(io, progress)
  const t0 = performance.now()
  let evaluated
  try {
    await checkLog(plan)
    const paths = plan.log.files.map((f) => f.path)
    const w = await loadWorkload(io, { paths, label: plan.log.label }, plan.request.importOptions)
    evaluated = await untilInterrupted(io, progress, (signal) => evaluate(plan.request, planRunner(plan, check.results!, (setup, cells) => pool.run(setup, cells, {
      signal,
      onProgress: (p) => show('as deployed', p.cellsTotal ? p.cellsDone / p.cellsTotal : null, () => `${int(p.cellsDone)}/${int(p.cellsTotal)} cells`),
      onWorkerCrash: (c) => { progress.done(); io.err(`warning: ${c.message}\n`) },
    })), plan.log.fingerprint, w).then((r) => ({ ...r, cite: citation(w) })), 'interrupted: nothing was written; run the same command again.')
  } catch (e) {
    if (e instanceof ShardPlanError || e instanceof InsufficientDataError || e instanceof MachineInputError || e instanceof ClusterConfigError || e instanceof ClusterJobsError) {
      io.err(`${e.message}\n`)
      return 2
    }
    throw e
  }
  if (evaluated === INTERRUPTED) return 130
  const { result, cite } = evaluated
  io.err(`merged ${int(plan.cells.length)} cells of ${plan.shards} shard${plan.shards === 1 ? '' : 's'} from ${dir} in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`)
  if (json) writeJson(io, json, { ...result, citation: cite })
  if (!json || json.file !== null) io.out(formatEvaluation(result, cite))
  return 0
}

/** Which shards are not done, why, and the commands that re-run them alone. */
function incomplete(dir: string, plan: ShardPlan, check: Awaited<ReturnType<typeof checkCells>>): string {
  const lines: string[] = []
  const todo = [...new Set([...check.missing.keys(), ...check.refusedShards])].sort((x, y) => x - y)
  const missing = [...check.missing.entries()].sort(([x], [y]) => x - y)
  if (missing.length) lines.push(`${dir}: not finished: ${missing.map(([s, n]) => `shard ${s} (${n} cell${n === 1 ? '' : 's'} missing)`).join(', ')}.`)
  if (check.refused.length) lines.push(`${dir}: ${check.refused.length} cell file${check.refused.length === 1 ? '' : 's'} refused:`, ...check.refused.map((r) => `  ${r}`))
  lines.push(`Re-run ${todo.length === 1 ? 'it' : 'them'} alone (a refused file is computed again), here or on the cluster:`)
  const again = rerunCommands(dir, todo)
  lines.push(...again.here.map((c) => `  ${c}`), `  ${again.sbatch}`)
  lines.push('then merge again.')
  return `${lines.join('\n')}\n`
}
