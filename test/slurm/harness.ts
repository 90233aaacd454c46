// Helpers for the real-Slurm test: availability and install (test/slurm/README.md), a loopback
// cluster driven by cluster.sh (daemons stopped by their recorded PIDs), job submission and the
// real start order read back from the jobs' own start stamps.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ExportBundle } from '../../src/shared/api'
import type { EvaluationResult } from '../../src/core/tune/result'
import { onPath } from '../support/tools'

export const CLUSTER_SH = fileURLToPath(new URL('./cluster.sh', import.meta.url))
const PACKAGES = ['slurmctld', 'slurmd', 'slurm-client', 'munge']
const BINARIES = ['slurmctld', 'slurmd', 'sbatch', 'squeue', 'scontrol', 'munged', 'mungekey']

const has = onPath

/** Cheap check at collection time: null when the test can run (maybe after installing). */
export function whyNotSlurm(): string | null {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return 'not running as root (Slurm daemons and munged are started as root)'
  if (BINARIES.every(has)) return null
  return has('apt-get') ? null : `Slurm is not installed and apt-get is not available to install ${PACKAGES.join(' ')}`
}

/** null when the test can run; else why not. Installs the packages when missing (root + apt). */
export function prepareSlurm(): string | null {
  const why = whyNotSlurm()
  if (why !== null || BINARIES.every(has)) return why
  // never let package scripts start daemons: there is no systemd (test/slurm/README.md)
  if (!existsSync('/usr/sbin/policy-rc.d')) writeFileSync('/usr/sbin/policy-rc.d', '#!/bin/sh\nexit 101\n', { mode: 0o755 })
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  const install = () => spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...PACKAGES], { env, encoding: 'utf8' })
  let r = install()
  if (r.status !== 0) { spawnSync('apt-get', ['update', '-qq'], { env }); r = install() }
  if (r.status !== 0) return `apt-get install ${PACKAGES.join(' ')} failed: ${(r.stderr || r.stdout).slice(-400)}`
  const missing = BINARIES.filter((b) => !has(b))
  return missing.length ? `still missing after install: ${missing.join(', ')}` : null
}

/** n distinct free TCP ports on 127.0.0.1 (held open together, then released). */
export async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(Array.from({ length: n }, () => new Promise<import('node:net').Server>((ok, fail) => {
    const s = createServer()
    s.once('error', fail)
    s.listen(0, '127.0.0.1', () => ok(s))
  })))
  const ports = servers.map((s) => (s.address() as { port: number }).port)
  await Promise.all(servers.map((s) => new Promise((ok) => s.close(ok))))
  return ports
}

export interface TestJob { name: string; cpus: number; limitMin: number }

export class Cluster {
  private readonly env: NodeJS.ProcessEnv
  running = false

  constructor(readonly dir: string, ctldPort: number, nodePorts: number[]) {
    this.env = {
      ...process.env, RUN_DIR: dir, SLURM_CONF: join(dir, 'etc', 'slurm.conf'),
      CTLD_PORT: String(ctldPort), NODE_PORTS: nodePorts.join(' '), CPUS_PER_NODE: '1',
      PATH: `${process.env.PATH}:/usr/sbin:/sbin`,
    }
    mkdirSync(join(dir, 'etc'), { recursive: true })
  }

  /** The exported files as the cluster's policy, plus test-only overrides that make Slurm react
   * within about a second (the exported bf_* options are kept, test/slurm/README.md). */
  configure(bundle: ExportBundle): void {
    const conf = bundle.files.find((f) => f.name === 'slurm.conf.easytune')!.content
    writeFileSync(join(this.dir, 'etc', 'policy.conf'), conf)
    const sched = /^SchedulerParameters=(.*)$/m.exec(conf)![1]
    writeFileSync(join(this.dir, 'etc', 'test.conf'), [
      '# test only: scheduling passes every second',
      `SchedulerParameters=${sched},bf_interval=1,bf_resolution=1,sched_interval=1,sched_min_interval=0,batch_sched_delay=0`,
      '',
    ].join('\n'))
    const lua = bundle.files.find((f) => f.name === 'job_submit.lua')
    writeFileSync(join(this.dir, 'etc', 'job_submit.lua'), lua ? lua.content : 'return slurm.SUCCESS\n')
    for (const f of bundle.files) writeFileSync(join(this.dir, 'etc', f.name), f.content)
  }

  /** A whole site slurm.conf (and the files beside it) instead of cluster.sh's own; null: cluster.sh's. */
  useSiteConf(conf: string | null, files: Record<string, string> = {}): void {
    if (conf === null) { delete this.env.SITE_CONF; return }
    const path = join(this.dir, 'site-slurm.conf')
    writeFileSync(path, conf)
    for (const [name, content] of Object.entries(files)) writeFileSync(join(this.dir, 'etc', name), content)
    this.env.SITE_CONF = path
  }

  /** Sets (or, with null, removes) one variable of cluster.sh's environment (e.g. GRES_CONF). */
  setEnv(key: string, value: string | null): void {
    if (value === null) delete this.env[key]
    else this.env[key] = value
  }

  /** Every line of slurmctld's log that reports an error or an invalid setting. */
  logErrors(): string[] {
    const log = join(this.dir, 'log', 'slurmctld.log')
    return existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((l) => /error|invalid/i.test(l)) : ['(no slurmctld.log)']
  }

  private sh(args: string[], timeout = 30_000): string {
    const r = spawnSync('bash', [CLUSTER_SH, ...args], { env: this.env, encoding: 'utf8', timeout })
    if (r.status !== 0) throw new Error(`cluster.sh ${args.join(' ')} failed (${r.status}): ${r.stdout}${r.stderr}\n${this.logTail()}`)
    return r.stdout
  }

  start(): string { this.running = true; return this.sh(['start']) }
  stop(): string { const out = this.sh(['stop']); this.running = false; return out }

  run(cmd: string, args: string[]): string {
    return execFileSync(cmd, args, { env: this.env, encoding: 'utf8', timeout: 20_000 })
  }

  /** Submits a job that writes its own start stamp, then exits at once; returns its id. */
  submit(job: TestJob, sleepSeconds = 0): string {
    const stamp = join(this.dir, 'out', `start.${job.name}`)
    return this.run('sbatch', ['--parsable', '-J', job.name, '-n', String(job.cpus), '-t', String(job.limitMin),
      '-o', '/dev/null', '--wrap', `date +%s.%N > ${stamp}; sleep ${sleepSeconds}`]).trim()
  }

  async waitFor(what: string, ok: () => boolean, timeoutMs: number): Promise<void> {
    const t0 = Date.now()
    while (!ok()) {
      if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}\n${this.run('squeue', ['-o', '%i %j %T %Q %r'])}\n${this.logTail()}`)
      await new Promise((r) => setTimeout(r, 100))
    }
  }

  state(id: string): string { return this.run('squeue', ['-h', '-j', id, '-o', '%T']).trim() }
  pending(): number { return this.run('squeue', ['-h', '-o', '%i']).trim().split('\n').filter(Boolean).length }

  /** Job names in the order they really started (their own start stamps). */
  startOrder(): string[] {
    const out = join(this.dir, 'out')
    return readdirSync(out).filter((f) => f.startsWith('start.'))
      .map((f) => ({ name: f.slice(6), t: Number(readFileSync(join(out, f), 'utf8').trim()) }))
      .sort((a, b) => a.t - b.t).map((x) => x.name)
  }

  /** Errors slurmctld logged about the exported settings (parse errors, ignored weights, Lua). */
  configErrors(): string[] {
    const log = join(this.dir, 'log', 'slurmctld.log')
    if (!existsSync(log)) return []
    return readFileSync(log, 'utf8').split('\n')
      .filter((l) => /error/i.test(l) && /Priority|TRES|lua|SchedulerParameters|JobSubmit|site_factor/i.test(l))
      .filter((l) => !/specified more than once/.test(l))
  }

  logTail(n = 25): string {
    const log = join(this.dir, 'log', 'slurmctld.log')
    return existsSync(log) ? `--- slurmctld.log (last ${n} lines) ---\n${readFileSync(log, 'utf8').split('\n').slice(-n).join('\n')}` : '(no slurmctld.log)'
  }
}

/** A minimal evaluation result whose recommended candidate is `primary` (for export tests). */
export function resultFor(primary: unknown, o: { backfill?: unknown; threshold?: number | null; machineProcs?: number; maxWait?: number } = {}): EvaluationResult {
  const part = { mean: 1, baselineMean: 2, gain: 0.5, gainCi: [0.4, 0.6], maxMaxWait: o.maxWait ?? 86_400, maxMaxWaitRatio: 1.5 }
  return {
    schemaVersion: 1, kind: 'easytune-evaluation', generator: 'easytune test',
    log: { name: 'test.swf', sha256: 'ab'.repeat(32), format: 'swf', machineProcs: o.machineProcs ?? 16 },
    protocol: { objective: 'avgWait' },
    candidates: [{
      label: 'test', candidate: { primary, backfill: o.backfill ?? 'same' }, primary: typeof primary === 'string' ? primary : 'mixed',
      backfill: o.backfill ?? 'same', threshold: o.threshold ?? null, baseline: false, admissible: true, train: part, test: part,
    }],
    recommended: 0, bestOnTest: 0, bestOnTrain: 0, ranking: [0],
  } as unknown as EvaluationResult
}

// ---------------------------------------------------------------------------------------------
// The agreement cluster (test/slurm/README.md §Agreement): heterogeneous nodes with several CPUs,
// fake GPUs through gres.conf, two partitions sharing nodes, per-core allocation. Its slurm.conf
// is written whole (no Include) so that the simulator reads exactly the text slurmctld read.

/** One configuration under test: which scheduler and which SchedulerParameters. */
export interface AgreementConfig {
  readonly name: string
  readonly schedulerType: 'sched/backfill' | 'sched/builtin'
  readonly schedulerParameters: string
  /** The priority lines (default `PriorityType=priority/basic`: FIFO). */
  readonly priority?: readonly string[]
}

/** Accounting through slurmdbd (with MariaDB, started by cluster.sh): its port, MariaDB's port,
 * and the accounts to create (user root in each). Age and fair-share need it. */
export interface DbdOptions {
  readonly dbdPort: number
  readonly dbPort: number
  readonly accounts: readonly string[]
}

/** One sbatch job of a mix: `sbatch -J name -p partition -n cpus [-N nodes] [--gres=gpu:gpus]
 * [--exclusive] -t limitMin --wrap "… sleep sleep"`. */
export interface MixJob {
  readonly name: string
  readonly partition: string
  readonly cpus: number
  readonly nodes?: number
  /** GPUs per node (--gres=gpu:N). */
  readonly gpus?: number
  readonly exclusive?: boolean
  /** The account charged (`-A`; the cluster must have it, DbdOptions.accounts). */
  readonly account?: string
  readonly limitMin: number
  /** Seconds the job sleeps (its real runtime, plus Slurm's launch overhead). */
  readonly sleep: number
}

/** A mix: `setup` groups are submitted on an idle machine one group at a time, each waited for until
 * RUNNING (they fill the machine); then `jobs` are submitted, in order, while every setup job runs. */
export interface Mix {
  readonly name: string
  readonly setup: readonly (readonly MixJob[])[]
  readonly jobs: readonly MixJob[]
}

/** What Slurm recorded for one job (jobcomp/filetxt, the job's own start stamp, slurmctld's log). */
export interface RecordedJob {
  readonly jobId: number
  readonly name: string
  readonly partition: string
  /** Epoch seconds (jobcomp: whole seconds). */
  readonly submit: number
  readonly start: number
  readonly end: number
  readonly nodes: string
  /** Epoch seconds with nanoseconds, written by the job itself when it began. */
  readonly stamp: number
  /** Which of slurmctld's schedulers started it: its log says `sched: Allocate JobId=…` (main) or
   * `sched/backfill: _start_job: Started JobId=…` (backfill); null if neither line was found. */
  readonly startedBy: 'main' | 'backfill' | null
}

/** Node layout of the agreement cluster: 4 CPU nodes and 2 GPU nodes, 4 CPUs each. */
export const AGREEMENT_NODES = [
  { name: 'c1', gpus: 0 }, { name: 'c2', gpus: 0 }, { name: 'c3', gpus: 0 }, { name: 'c4', gpus: 0 },
  { name: 'g1', gpus: 2 }, { name: 'g2', gpus: 2 },
] as const
export const AGREEMENT_CPUS_PER_NODE = 4

/** The whole slurm.conf of the agreement cluster for one configuration (no Include: the simulator
 * parses this same text). Paths under `dir`, ports as given (one per node). */
export function agreementSlurmConf(dir: string, ctldPort: number, nodePorts: readonly number[], config: AgreementConfig, dbdPort?: number): string {
  if (nodePorts.length !== AGREEMENT_NODES.length) throw new Error(`agreement cluster: ${AGREEMENT_NODES.length} node ports needed, got ${nodePorts.length}`)
  return [
    '# Real-Slurm agreement cluster (test/slurm/README.md §Agreement), Slurm 22.05 on loopback.',
    `# configuration under test: ${config.name}`,
    'ClusterName=agree',
    'SlurmctldHost=localhost(127.0.0.1)',
    'SlurmUser=root',
    'SlurmdUser=root',
    `SlurmctldPort=${ctldPort}`,
    'AuthType=auth/munge',
    'CredType=cred/munge',
    `AuthInfo=socket=${dir}/munge/run/munge.socket.2`,
    `StateSaveLocation=${dir}/state`,
    `SlurmdSpoolDir=${dir}/spool/%n`,
    `SlurmctldPidFile=${dir}/run/slurmctld.pid`,
    `SlurmdPidFile=${dir}/run/slurmd.%n.pid`,
    `SlurmctldLogFile=${dir}/log/slurmctld.log`,
    `SlurmdLogFile=${dir}/log/slurmd.%n.log`,
    'SlurmctldDebug=info',
    'SlurmdDebug=info',
    'MailProg=/bin/true',
    'ProctrackType=proctrack/linuxproc',
    'TaskPlugin=task/none',
    'JobAcctGatherType=jobacct_gather/none',
    'MpiDefault=none',
    'ReturnToService=2',
    '# 2 real cores here: trust the CPUs declared below',
    'SlurmdParameters=config_overrides',
    ...(dbdPort === undefined ? ['AccountingStorageType=accounting_storage/none'] : [
      '# accounting through slurmdbd (age and fair-share need it); its munge socket is ours',
      'AccountingStorageType=accounting_storage/slurmdbd', 'AccountingStorageHost=localhost',
      `AccountingStoragePort=${dbdPort}`, `AccountingStoragePass=${dir}/munge/run/munge.socket.2`,
    ]),
    'JobCompType=jobcomp/filetxt',
    `JobCompLoc=${dir}/log/jobcomp.txt`,
    'MinJobAge=600',
    'GresTypes=gpu',
    '# per-core allocation, memory not consumable',
    'SelectType=select/cons_tres',
    'SelectTypeParameters=CR_Core',
    ...(config.priority ?? ['# FIFO by submit time (then job id)', 'PriorityType=priority/basic']),
    `SchedulerType=${config.schedulerType}`,
    `SchedulerParameters=${config.schedulerParameters}`,
    '',
    ...AGREEMENT_NODES.map((n, i) => `NodeName=${n.name} NodeAddr=127.0.0.1 NodeHostname=localhost Port=${nodePorts[i]} CPUs=${AGREEMENT_CPUS_PER_NODE} RealMemory=1000${n.gpus ? ` Gres=gpu:${n.gpus}` : ''} State=UNKNOWN`),
    '# two partitions sharing the GPU nodes',
    'PartitionName=cpu Nodes=c[1-4],g[1-2] Default=YES MaxTime=60 DefaultTime=10 State=UP',
    'PartitionName=gpu Nodes=g[1-2] MaxTime=60 DefaultTime=10 State=UP',
    '',
  ].join('\n')
}

/** gres.conf of the agreement cluster: each GPU is a character device file under `dir`/dev (made by
 * AgreementCluster); AutoDetect off. Slurm 22.05 needs File= for gpu: with Count= alone slurmd
 * reports 0 GPUs and the node goes INVAL ("gres/gpu count reported lower than configured"). */
export function agreementGresConf(dir: string): string {
  return ['# fake GPUs: two device files per GPU node (test/slurm/README.md §Agreement)', 'AutoDetect=off',
    `NodeName=g[1-2] Name=gpu File=${dir}/dev/gpu[0-1]`, ''].join('\n')
}

/** The agreement cluster: a Cluster whose whole slurm.conf and gres.conf are written here. */
export class AgreementCluster extends Cluster {
  constructor(dir: string, readonly ctldPort: number, readonly nodePorts: number[]) {
    super(dir, ctldPort, nodePorts)
    const dev = join(dir, 'dev')
    mkdirSync(dev, { recursive: true })
    // GPU "devices": character devices (as /dev/null, 1:3 and /dev/zero, 1:5) so slurmd accepts them
    // without complaint; plain files also work (slurmd logs "not a valid character or block device").
    for (const [i, minor] of [[0, 3], [1, 5]]) {
      const f = join(dev, `gpu${i}`)
      if (existsSync(f)) continue
      if (spawnSync('mknod', [f, 'c', '1', String(minor)]).status !== 0) writeFileSync(f, '')
    }
  }

  /** Writes the configuration's slurm.conf and gres.conf (cluster.sh copies them at start); returns both texts. */
  configureAgreement(config: AgreementConfig, dbd?: DbdOptions): { slurmConf: string; gresConf: string } {
    const slurmConf = agreementSlurmConf(this.dir, this.ctldPort, this.nodePorts, config, dbd?.dbdPort)
    this.setEnv('DBD_PORT', dbd ? String(dbd.dbdPort) : null)
    this.setEnv('DB_PORT', dbd ? String(dbd.dbPort) : null)
    this.setEnv('CLUSTER_NAME', dbd ? 'agree' : null)
    this.setEnv('DBD_ACCOUNTS', dbd ? dbd.accounts.join(' ') : null)
    const gresConf = agreementGresConf(this.dir)
    const gresPath = join(this.dir, 'agreement-gres.conf')
    writeFileSync(gresPath, gresConf)
    this.useSiteConf(slurmConf)
    this.setEnv('GRES_CONF', gresPath)
    return { slurmConf, gresConf }
  }

  /** Submits one job of a mix (it writes its own start stamp, then sleeps); returns its id. */
  submitMixJob(j: MixJob): string {
    const stamp = join(this.dir, 'out', `start.${j.name}`)
    const args = ['--parsable', '-J', j.name, '-p', j.partition, '-n', String(j.cpus)]
    if (j.nodes !== undefined) args.push('-N', String(j.nodes))
    if (j.gpus) args.push(`--gres=gpu:${j.gpus}`)
    if (j.exclusive) args.push('--exclusive')
    if (j.account !== undefined) args.push('-A', j.account)
    args.push('-t', String(j.limitMin), '-o', '/dev/null', '--wrap', `date +%s.%N > ${stamp}; sleep ${j.sleep}`)
    return this.run('sbatch', args).trim()
  }

  /** Finished jobs as jobcomp/filetxt recorded them, with their stamps and which scheduler started them. */
  recorded(): RecordedJob[] {
    const text = readFileSync(join(this.dir, 'log', 'jobcomp.txt'), 'utf8')
    const log = readFileSync(join(this.dir, 'log', 'slurmctld.log'), 'utf8')
    const startedBy = new Map<number, 'main' | 'backfill'>()
    for (const m of log.matchAll(/sched: Allocate JobId=(\d+) /g)) startedBy.set(Number(m[1]), 'main')
    for (const m of log.matchAll(/sched\/backfill: _start_job: Started JobId=(\d+) /g)) startedBy.set(Number(m[1]), 'backfill')
    const out = join(this.dir, 'out')
    return text.split('\n').filter((l) => l.startsWith('JobId=')).map((line) => {
      const f = parseJobcompLine(line)
      const name = f.Name
      const stampFile = join(out, `start.${name}`)
      const jobId = Number(f.JobId)
      return {
        jobId, name, partition: f.Partition, submit: localSeconds(f.SubmitTime), start: localSeconds(f.StartTime), end: localSeconds(f.EndTime),
        nodes: f.NodeList, stamp: existsSync(stampFile) ? Number(readFileSync(stampFile, 'utf8').trim()) : Number.NaN,
        startedBy: startedBy.get(jobId) ?? null,
      }
    }).sort((a, b) => a.jobId - b.jobId)
  }
}

/** One jobcomp/filetxt line as key → value (values have no spaces in our jobs; the trailing
 * select-plugin text of 22.05 is ignored). */
export function parseJobcompLine(line: string): Record<string, string> {
  const f: Record<string, string> = {}
  for (const tok of line.trim().split(/\s+/)) {
    const eq = tok.indexOf('=')
    if (eq > 0 && !(tok.slice(0, eq) in f)) f[tok.slice(0, eq)] = tok.slice(eq + 1)
  }
  for (const k of ['JobId', 'Name', 'Partition', 'SubmitTime', 'StartTime', 'EndTime', 'NodeList']) {
    if (!(k in f)) throw new Error(`jobcomp line without ${k}: ${line}`)
  }
  return f
}

/** jobcomp/filetxt writes local time `YYYY-MM-DDTHH:MM:SS` (test/slurm/README.md §Agreement): epoch seconds. */
function localSeconds(s: string): number {
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)$/.exec(s)
  if (!m) throw new Error(`jobcomp time not understood: ${s}`)
  return new Date(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]).getTime() / 1000
}

/**
 * Runs one mix on one configuration on a fresh cluster and returns what Slurm did, one record per
 * job (setup and mix), in job id order. The mix jobs are submitted only once every setup job
 * RUNS, and the function checks that they were all still PENDING then (the machine was full), so
 * that their order is decided by the events that follow (ends of setup jobs), not by when
 * Slurm's periodic passes happened to run (test/slurm/README.md §Agreement).
 */
export async function runMix(c: AgreementCluster, config: AgreementConfig, mix: Mix): Promise<{ jobs: RecordedJob[]; slurmConf: string; gresConf: string; queuedAtFull: string }> {
  const texts = c.configureAgreement(config)
  c.start()
  try {
    for (const group of mix.setup) {
      const ids = group.map((j) => c.submitMixJob(j))
      await c.waitFor(`setup ${group.map((j) => j.name).join(',')} to run`, () => ids.every((id) => c.state(id) === 'RUNNING'), 15_000)
    }
    const ids = mix.jobs.map((j) => c.submitMixJob(j))
    const queuedAtFull = c.run('squeue', ['-h', '-o', '%i %j %P %T %r'])
    const states = ids.map((id) => c.state(id))
    const setupNames = new Set(mix.setup.flat().map((j) => j.name))
    const lines = queuedAtFull.trim().split('\n').map((l) => l.trim().split(/\s+/))
    const setupRunning = lines.filter((l) => setupNames.has(l[1])).every((l) => l[3] === 'RUNNING')
    if (!setupRunning || states.some((s) => s !== 'PENDING')) {
      throw new Error(`mix ${mix.name} under ${config.name}: the mix must queue behind a full machine (every setup job running, every mix job pending), got:\n${queuedAtFull}`)
    }
    await c.waitFor(`mix ${mix.name} to finish`, () => c.pending() === 0, 120_000)
    // jobcomp is written at job end; give the last line a moment
    await c.waitFor('jobcomp lines for every job', () => c.recorded().length === ids.length + setupNames.size, 5_000)
    return { jobs: c.recorded(), ...texts, queuedAtFull }
  } finally {
    c.stop()
  }
}
