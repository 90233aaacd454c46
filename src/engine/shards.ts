// Sharded campaigns for Slurm job arrays (docs/CLI.md §Running on a Slurm cluster). A plan folder on a
// shared filesystem holds:
//   plan.json        what defines the campaign: the log's files with their sha256 and the combined
//                    fingerprint, the evaluation request (import options, protocol, candidates,
//                    verdict settings, machine inputs), the workers' setup, the engine's hash, and
//                    every cell with its cellKey and shard; `planId` is the sha256 of all of it
//   cells/NNNNN.cell one file per finished cell, in the engine cache's format (src/engine/cache.ts:
//                    the entry's own key, the per-week metrics, a sha256 of the content), keyed by
//                    sha256(planId, cellKey): a cell of another plan or another cell is refused
// run-shard computes its shard's missing cells on the engine pool and writes each atomically as it
// finishes; merge reads them all back, refusing any that is missing, altered or foreign, and hands
// them to evaluate() as its cell runner, so the result document is the local run's.
import { createHash } from 'node:crypto'
import { promises as fsp } from 'node:fs'
import { join, resolve } from 'node:path'
import { cellKey, type CellResult, type CellSpec } from '../core/tune/campaign'
import { dealShards } from '../core/tune/shards'
import type { Workload } from '../core/workload/import'
import { canonicalJson, decodeCellEntry, encodeCell, hashFile, readEntryFile, writeEntryFile } from './cache'
import { campaignOf, GENERATOR, type CellRunner, type EvaluateRequest } from './evaluate'
import { hashLogFiles } from './log-hash'
import type { EnginePool, RunOptions } from './pool'
import type { WorkloadSetup } from './protocol'

export const PLAN_FORMAT = 'easytune-shard-plan'
export const PLAN_VERSION = 1
export const PLAN_FILE = 'plan.json'
export const CELLS_DIR = 'cells'

export interface PlanCell {
  /** Position in the campaign's cell order (evaluate()'s order). */
  index: number
  shard: number
  /** cellKey(cell). */
  key: string
  cell: CellSpec
}

/** Per-task resources written into the sbatch scripts (estimates; the administrator may edit them). */
export interface PlanResources {
  cpusPerTask: number
  memMB: number
  timeMinutes: number
  mergeCpus: number
  mergeMemMB: number
  mergeTimeMinutes: number
}

export interface ShardPlan {
  format: typeof PLAN_FORMAT
  version: number
  /** sha256 of everything below but createdAt and resources (canonical JSON). */
  planId: string
  generator: string
  /** When the plan was written (ISO); informational. */
  createdAt: string
  /** sha256 of the engine worker bundle: cells computed by another engine version are refused. */
  engine: string
  log: { label: string; fingerprint: string; files: { path: string; sha256: string }[] }
  request: EvaluateRequest
  setup: WorkloadSetup
  shards: number
  cells: PlanCell[]
  resources: PlanResources
}

/** A plan folder that cannot be used as it is: bad usage or bad input (exit 2), said in words. */
export class ShardPlanError extends Error {}
/** The folder holds no plan.json (a wrong folder, or the plan not written yet). */
export class NoPlanError extends ShardPlanError {}

/** The plan of `req` on its workload `w` in `shards` shards. `files`: the log's absolute paths. */
export async function buildPlan(req: EvaluateRequest, w: Workload, shards: number, engine: string, resources: (c: ReturnType<typeof campaignOf>) => PlanResources): Promise<ShardPlan> {
  const campaign = campaignOf(req, w)
  const unique = new Map<string, CellSpec>()
  for (const c of campaign.cells) if (!unique.has(cellKey(c))) unique.set(cellKey(c), c)
  if (shards > unique.size) throw new ShardPlanError(`this campaign has ${unique.size} cells: it cannot be split into ${shards} shards (at most ${unique.size})`)
  const deal = dealShards(unique.size, shards)
  const cells: PlanCell[] = [...unique].map(([key, cell], index) => ({ index, shard: deal[index], key, cell }))
  const paths = req.logPaths ?? [req.logPath]
  const files: { path: string; sha256: string }[] = []
  for (const p of paths) files.push({ path: p, sha256: await hashLogFiles([p]) })
  const fingerprint = await hashLogFiles(paths)
  const body = JSON.parse(JSON.stringify({
    format: PLAN_FORMAT, version: PLAN_VERSION, generator: GENERATOR, engine,
    log: { label: w.name, fingerprint, files }, request: req, setup: campaign.setup, shards, cells,
  })) as Omit<ShardPlan, 'planId' | 'createdAt' | 'resources'>
  return { ...body, planId: planIdOf(body), createdAt: new Date().toISOString(), resources: resources(campaign) }
}

function planIdOf(plan: object): string {
  const { planId: _id, createdAt: _at, resources: _r, ...rest } = plan as Record<string, unknown>
  return createHash('sha256').update(canonicalJson(rest)).digest('hex')
}

export async function writePlan(dir: string, plan: ShardPlan): Promise<void> {
  await fsp.mkdir(join(dir, CELLS_DIR), { recursive: true })
  await writeEntryFile(join(dir, PLAN_FILE), `${JSON.stringify(plan, null, 1)}\n`)
}

/** The plan of a folder, checked: its format, its shape, and its planId against its content. */
export async function readPlan(dir: string): Promise<ShardPlan> {
  const path = join(resolve(dir), PLAN_FILE)
  const buf = await readEntryFile(path)
  if (buf === null) throw new NoPlanError(`${path}: no plan here`)
  if (buf === 'not-a-file') throw new ShardPlanError(`${path}: not a regular file`)
  let v: unknown
  try {
    v = JSON.parse(buf.toString('utf8'))
  } catch (e) {
    throw new ShardPlanError(`${path}: not a plan (${(e as Error).message})`)
  }
  const bad = (what: string) => new ShardPlanError(`${path}: not a valid plan: ${what}`)
  if (!isObject(v) || v.format !== PLAN_FORMAT) throw bad(`its format is not ${PLAN_FORMAT}`)
  if (v.version !== PLAN_VERSION) throw bad(`format version ${JSON.stringify(v.version)}, this easytune reads version ${PLAN_VERSION}`)
  if (typeof v.planId !== 'string' || planIdOf(v) !== v.planId) throw new ShardPlanError(`${path}: the plan was changed after easytune wrote it (its content no longer matches its planId); write a new plan`)
  const shards = v.shards
  if (!Number.isInteger(shards) || (shards as number) < 1) throw bad('shards is not a whole number ≥ 1')
  if (!Array.isArray(v.cells) || v.cells.length === 0) throw bad('no cells')
  v.cells.forEach((c: unknown, i: number) => {
    if (!isObject(c) || c.index !== i || !Number.isInteger(c.shard) || (c.shard as number) < 0 || (c.shard as number) >= (shards as number) || !isObject(c.cell) || typeof c.key !== 'string' || cellKey(c.cell as unknown as CellSpec) !== c.key) throw bad(`cell ${i} is malformed`)
  })
  const log = v.log
  if (!isObject(log) || typeof log.fingerprint !== 'string' || !Array.isArray(log.files) || log.files.length === 0 || !log.files.every((f: unknown) => isObject(f) && typeof f.path === 'string' && typeof f.sha256 === 'string')) throw bad('its log is malformed')
  if (!isObject(v.request) || !isObject(v.setup) || !isObject(v.resources) || typeof v.engine !== 'string') throw bad('its request, setup, resources or engine is missing')
  // The files the workers read are the files whose hashes are checked.
  const files = (log.files as { path: string }[]).map((f) => f.path)
  const read = (x: Record<string, unknown>) => JSON.stringify(Array.isArray(x.logPaths) ? x.logPaths : [x.logPath])
  if (read(v.request) !== JSON.stringify(files) || read(v.setup) !== JSON.stringify(files)) throw bad('the log files it reads are not the files it checks')
  return v as unknown as ShardPlan
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** Refuses a log whose files changed since the plan was written, naming the file. */
export async function checkLog(plan: ShardPlan, signal?: AbortSignal): Promise<void> {
  for (const f of plan.log.files) {
    const now = await hashLogFiles([f.path], signal)
    if (now !== f.sha256) throw new ShardPlanError(`${f.path}: the log changed since the plan was written (sha256 ${f.sha256.slice(0, 12)}… in the plan, ${now.slice(0, 12)}… now); write a new plan for it`)
  }
}

/** Refuses an engine other than the plan's (its cells could differ), naming both hashes. */
export async function checkEngine(plan: ShardPlan, workerPath: string): Promise<void> {
  const now = await hashFile(workerPath)
  if (now !== plan.engine) throw new ShardPlanError(`this easytune's engine (${workerPath}, sha256 ${now.slice(0, 12)}…) is not the one that wrote the plan (${plan.engine.slice(0, 12)}…): run every shard and the merge with the same easytune installation`)
}

export function cellPath(dir: string, index: number): string {
  return join(resolve(dir), CELLS_DIR, `${String(index).padStart(5, '0')}.cell`)
}

/** The key a cell file of this plan records: sha256 over the planId and the cell's key. */
export function cellFileKey(plan: ShardPlan, pc: PlanCell): string {
  return createHash('sha256').update(`easytune-shard-cell\n${plan.planId}\n${pc.key}\n`).digest('hex')
}

export type CellState =
  | { state: 'ok'; result: CellResult }
  | { state: 'missing' | 'damaged' | 'foreign' | 'not-a-file'; path: string }

/** A cell file read back: ok, or why not (damaged: incomplete or its checksum fails; foreign: intact
 * but recorded for another plan or another cell). */
export async function readCell(dir: string, plan: ShardPlan, pc: PlanCell): Promise<CellState> {
  const path = cellPath(dir, pc.index)
  const buf = await readEntryFile(path)
  if (buf === null) return { state: 'missing', path }
  if (buf === 'not-a-file') return { state: 'not-a-file', path }
  const entry = decodeCellEntry(buf)
  if (entry === null) return { state: 'damaged', path }
  if (entry.key !== cellFileKey(plan, pc)) return { state: 'foreign', path }
  return { state: 'ok', result: entry.result }
}

export async function writeCell(dir: string, plan: ShardPlan, pc: PlanCell, r: CellResult): Promise<void> {
  await writeEntryFile(cellPath(dir, pc.index), encodeCell(r, cellFileKey(plan, pc)))
}

export interface ShardRun {
  cells: number
  /** Already present and valid: not computed again. */
  kept: number
  computed: number
  /** Files that were there but refused (damaged, foreign): recomputed and overwritten. */
  replaced: string[]
}

/** Runs one shard's missing cells on the pool, each cell file written atomically as it finishes. */
export async function runShard(dir: string, plan: ShardPlan, shard: number, pool: EnginePool, opts: Omit<RunOptions, 'onCell' | 'cache'> = {}): Promise<ShardRun> {
  if (!Number.isInteger(shard) || shard < 0 || shard >= plan.shards) throw new ShardPlanError(`shard ${shard} does not exist: this plan has shards 0 to ${plan.shards - 1}`)
  const mine = plan.cells.filter((c) => c.shard === shard)
  const todo: PlanCell[] = []
  const replaced: string[] = []
  for (const pc of mine) {
    const s = await readCell(dir, plan, pc)
    if (s.state === 'ok') continue
    if (s.state !== 'missing') replaced.push(`${s.path} (${s.state})`)
    todo.push(pc)
  }
  if (todo.length > 0) {
    const byKey = new Map(todo.map((pc) => [pc.key, pc]))
    const writes: Promise<void>[] = []
    let failed: unknown = null
    try {
      await pool.run(plan.setup, todo.map((pc) => pc.cell), {
        ...opts,
        onCell: (cell, r) => { writes.push(writeCell(dir, plan, byKey.get(cellKey(cell))!, r).catch((e: unknown) => { failed ??= e })) },
      })
    } finally {
      await Promise.all(writes)
    }
    if (failed) throw failed
  }
  return { cells: mine.length, kept: mine.length - todo.length, computed: todo.length, replaced }
}

export interface PlanCheck {
  /** Every cell, read back; null while anything is missing or refused. */
  results: Map<string, CellResult> | null
  /** Shards with missing cells: shard → the count missing. */
  missing: Map<number, number>
  /** Cell files refused, in words (path and why). */
  refused: string[]
  refusedShards: Set<number>
}

/** Reads every cell of the plan back, checking each file's key and checksum. */
export async function checkCells(dir: string, plan: ShardPlan): Promise<PlanCheck> {
  const results = new Map<string, CellResult>()
  const missing = new Map<number, number>()
  const refused: string[] = []
  const refusedShards = new Set<number>()
  for (const pc of plan.cells) {
    const s = await readCell(dir, plan, pc)
    if (s.state === 'ok') results.set(pc.key, s.result)
    else if (s.state === 'missing') missing.set(pc.shard, (missing.get(pc.shard) ?? 0) + 1)
    else {
      refusedShards.add(pc.shard)
      refused.push(`${s.path} (cell ${pc.index} of shard ${pc.shard}): ${REFUSED[s.state]}`)
    }
  }
  const complete = missing.size === 0 && refused.length === 0
  return { results: complete ? results : null, missing, refused, refusedShards }
}

const REFUSED = {
  damaged: 'damaged or altered: it is incomplete or its content does not match its checksum',
  foreign: 'intact, but it holds another cell or a cell of another plan (copied or renamed from elsewhere)',
  'not-a-file': 'not a regular file',
} as const

/**
 * evaluate()'s cell runner for a merge: the campaign's cells come from the plan folder (they must
 * be exactly the plan's, under the plan's setup); any later call (the recommendation as deployed
 * on Slurm, a few cells chosen from the campaign's results) goes to `rest`, run here.
 */
export function planRunner(plan: ShardPlan, results: Map<string, CellResult>, rest: CellRunner): CellRunner {
  let first = true
  return (setup, cells) => {
    if (!first) return rest(setup, cells)
    first = false
    const keys = [...new Set(cells.map(cellKey))]
    const planned = plan.cells.map((c) => c.key)
    if (canonicalJson(setup) !== canonicalJson(plan.setup) || keys.length !== planned.length || keys.some((k, i) => k !== planned[i])) {
      return Promise.reject(new ShardPlanError('this easytune plans the campaign differently from the plan folder (another version?): write a new plan and run it with one installation'))
    }
    return Promise.resolve(results)
  }
}
