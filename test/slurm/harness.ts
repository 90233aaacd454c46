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
