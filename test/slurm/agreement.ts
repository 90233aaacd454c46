// The simulator side of the real-Slurm agreement test (test/slurm/README.md §Agreement): the same
// jobs as ClusterJobs, the same slurm.conf through parseSlurmConf, simulateCluster under Slurm's
// scheduling, and the comparison (start waves, jumps over a pending higher-priority job).
//
// The node-level simulator and the slurm.conf reader are written in parallel with this test
// (src/core/cluster/simulate.ts, src/core/cluster/config/); they are loaded at run time so that
// this file compiles before they exist, and a missing module FAILS the test with a message that
// says which one (it is never skipped: the agreement is the specification they must meet).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { ClusterJobs, ClusterRun, ClusterScheduler, ClusterSimOptions, ClusterSpec, SlurmConf } from '../../src/core/cluster/types'
import { expandHostlist } from '../../src/core/util/hostlist'
import type { AgreementConfig, Mix, MixJob, RecordedJob } from './harness'

const CLUSTER_DIR = fileURLToPath(new URL('../../src/core/cluster/', import.meta.url))

/** The fixture (test/slurm/mixes.json). */
export interface Expected {
  readonly waves: string[][]
  readonly jumped: string[]
  /** One live run's start seconds after the first setup start (for review; not compared live). */
  readonly observedStarts: Readonly<Record<string, number>>
}
export interface Fixture {
  readonly recorded: { readonly date: string; readonly slurm: string; readonly runs: string }
  readonly waveSeconds: number
  readonly configs: (AgreementConfig & { readonly what: string })[]
  readonly mixes: (Mix & { readonly why: string; readonly expected: Record<string, Expected> })[]
}

export function readFixture(): Fixture {
  return JSON.parse(readFileSync(new URL('./mixes.json', import.meta.url), 'utf8')) as Fixture
}

/** Every job of a mix, setup first, in submission order (= priority order under priority/basic). */
export function mixJobs(mix: Mix): MixJob[] {
  return [...mix.setup.flat(), ...mix.jobs]
}

/**
 * Start order as waves: jobs sorted by start; a job joins the current wave when it starts less than
 * `waveSeconds` after the wave's first start. Names inside a wave are sorted (their order there is
 * launch noise: one pass starts them all). The mixes keep every wave ≥ 3 s from the next.
 */
export function waves(starts: readonly { name: string; t: number }[], waveSeconds: number): string[][] {
  const sorted = [...starts].sort((a, b) => a.t - b.t || (a.name < b.name ? -1 : 1))
  const out: string[][] = []
  let first = Number.NEGATIVE_INFINITY
  for (const s of sorted) {
    if (out.length === 0 || s.t - first >= waveSeconds) { out.push([]); first = s.t }
    out[out.length - 1].push(s.name)
  }
  return out.map((w) => w.sort())
}

/**
 * Jobs that started, in a wave before some higher-priority job (lower job id: priority/basic is
 * FIFO) that was already pending, on a node of that job's partition. The main scheduler never does
 * this (it stops a partition at its first blocked job and removes the partition's nodes from the
 * pass, test/slurm/README.md §Agreement), so only the backfill can have started them.
 */
export function jumpedJobs(jobs: readonly RecordedJob[], partitionNodes: Readonly<Record<string, readonly string[]>>, waveSeconds: number): string[] {
  const byStart = waves(jobs.map((j) => ({ name: j.name, t: j.stamp })), waveSeconds)
  const wave = new Map<string, number>()
  byStart.forEach((w, i) => { for (const n of w) wave.set(n, i) })
  const out: string[] = []
  for (const j of jobs) {
    const on = new Set(expandHostlist(j.nodes))
    const jumped = jobs.some((k) => k.jobId < j.jobId && wave.get(k.name)! > wave.get(j.name)! &&
      (partitionNodes[k.partition] ?? []).some((n) => on.has(n)))
    if (jumped) out.push(j.name)
  }
  return out.sort()
}

/** The simulator's modules, or an error that names the missing one. */
async function loadSimulator(): Promise<{
  parseSlurmConf: (text: string, file: string, gres?: { text: string; file: string }) => SlurmConf
  simulateCluster: (jobs: ClusterJobs, cluster: ClusterSpec, scheduler: ClusterScheduler, options?: ClusterSimOptions) => ClusterRun
}> {
  const missing: string[] = []
  const simPath = join(CLUSTER_DIR, 'simulate.ts')
  let simulateCluster: unknown
  if (existsSync(simPath)) simulateCluster = ((await import(pathToFileURL(simPath).href)) as Record<string, unknown>).simulateCluster
  if (typeof simulateCluster !== 'function') missing.push('simulateCluster(jobs, cluster, scheduler, options) exported by src/core/cluster/simulate.ts (the node-level simulator)')
  let parseSlurmConf: unknown
  const configDir = join(CLUSTER_DIR, 'config')
  for (const f of existsSync(configDir) ? readdirSync(configDir).filter((x) => x.endsWith('.ts')).sort() : []) {
    const m = (await import(pathToFileURL(join(configDir, f)).href)) as Record<string, unknown>
    if (typeof m.parseSlurmConf === 'function') { parseSlurmConf = m.parseSlurmConf; break }
  }
  if (typeof parseSlurmConf !== 'function') missing.push('parseSlurmConf(text, file, gres?: { text, file }) exported by a module of src/core/cluster/config/ (the slurm.conf reader)')
  if (missing.length) {
    throw new Error(`the real-Slurm agreement needs the node-level simulator, and this branch lacks: ${missing.join('; ')}. ` +
      'The expected orders are in test/slurm/mixes.json; this test fails (never skips) until those modules are merged.')
  }
  return { parseSlurmConf: parseSlurmConf as never, simulateCluster: simulateCluster as never }
}

/** What one job of a mix looked like to the simulator: when it was submitted and how long it ran. */
export interface SimInputJob { readonly job: MixJob; readonly submit: number; readonly runtime: number }

/** The simulator's start times and backfill flags for the jobs of one mix, by job name. */
export interface SimulatedMix {
  readonly backfilled: ReadonlySet<string>
  readonly start: ReadonlyMap<string, number>
}

/**
 * Runs simulateCluster on `input` (submit times in seconds from the first submit, runtimes in
 * seconds) with the cluster and scheduling that parseSlurmConf reads from `slurmConf`/`gresConf`
 * (the very text slurmctld read), under Slurm's scheduling.
 */
export async function simulateForMix(slurmConf: string, gresConf: string, input: readonly SimInputJob[], unixStartTime = 0): Promise<SimulatedMix> {
  const { parseSlurmConf, simulateCluster } = await loadSimulator()
  const conf = parseSlurmConf(slurmConf, 'slurm.conf', { text: gresConf, file: 'gres.conf' })
  const cluster = conf.cluster
  // ClusterJobs are sorted by (submit, id); ids are the submission order here
  const order = input.map((x, i) => ({ x, i })).sort((a, b) => a.x.submit - b.x.submit || a.i - b.i).map((e) => e.x)
  const n = order.length
  const partition = new Int32Array(n)
  const accounts = [...new Set(order.flatMap((x) => (x.job.account === undefined ? [] : [x.job.account])))].sort()
  order.forEach((x, i) => {
    const p = cluster.partitions.findIndex((q) => q.name === x.job.partition)
    if (p < 0) throw new Error(`parseSlurmConf gave no partition "${x.job.partition}" (partitions: ${cluster.partitions.map((q) => q.name).join(', ')})`)
    partition[i] = p
  })
  const jobs: ClusterJobs = {
    count: n,
    submit: Float64Array.from(order, (x) => x.submit),
    runtime: Float64Array.from(order, (x) => x.runtime),
    requested: Float64Array.from(order, (x) => x.job.limitMin * 60),
    procs: Int32Array.from(order, (x) => x.job.cpus),
    partition,
    nodes: Int32Array.from(order, (x) => x.job.nodes ?? 0),
    memPerNode: new Float64Array(n),
    gpusPerNode: Int32Array.from(order, (x) => x.job.gpus ?? 0),
    exclusive: Uint8Array.from(order, (x) => (x.job.exclusive ? 1 : 0)),
    user: new Int32Array(n),
    // the jobs' accounts by name (all one user, root, as on the loopback cluster); none: account 0
    account: Int32Array.from(order, (x) => (x.job.account === undefined ? 0 : accounts.indexOf(x.job.account))),
    qos: new Int32Array(n).fill(-1),
    eligible: Float64Array.from(order, (x) => x.submit),
  }
  const run = simulateCluster(jobs, cluster, { kind: 'slurm', scheduling: conf.scheduling }, { unixStartTime })
  const start = new Map<string, number>(), backfilled = new Set<string>()
  order.forEach((x, i) => {
    start.set(x.job.name, run.start[i])
    if (run.backfilled[i] === 1) backfilled.add(x.job.name)
  })
  return { backfilled, start }
}

/**
 * The simulator's input from what Slurm recorded: times in seconds from the first setup start;
 * runtime = recorded end − start (whole seconds, as jobcomp has them). A setup job is "submitted"
 * at its recorded start: it started on an idle machine, and how long Slurm took to launch it is not
 * what the mix tests (taking its sbatch time instead would let the simulator end the blocker before
 * the jobs under test arrive whenever that launch was slow). The jobs under test keep their
 * recorded submit times: they all queued behind the full machine (runMix checks it).
 */
export function inputFromRecord(mix: Mix, recorded: readonly RecordedJob[]): { input: SimInputJob[]; unixStartTime: number } {
  const find = (job: MixJob) => {
    const r = recorded.find((x) => x.name === job.name)
    if (!r) throw new Error(`Slurm recorded no job "${job.name}"`)
    return r
  }
  const setup = mix.setup.flat()
  const t0 = Math.min(...setup.map((j) => find(j).start))
  const input = mixJobs(mix).map((job) => {
    const r = find(job)
    const at = setup.includes(job) ? r.start : Math.max(r.submit, t0)
    return { job, submit: at - t0, runtime: Math.max(1, r.end - r.start) }
  })
  return { input, unixStartTime: t0 }
}

/** The simulator's input from the mix alone (no Slurm): each setup group submitted 0.5 s after the
 * previous one, the jobs under test 0.5 s after the last group, every job running its sleep + 0.5 s
 * (Slurm's launch overhead). Lets the simulator be checked against the fixture anywhere. */
export function nominalInput(mix: Mix): SimInputJob[] {
  const out: SimInputJob[] = []
  mix.setup.forEach((g, i) => { for (const job of g) out.push({ job, submit: i * 0.5, runtime: job.sleep + 0.5 }) })
  for (const job of mix.jobs) out.push({ job, submit: mix.setup.length * 0.5, runtime: job.sleep + 0.5 })
  return out
}
