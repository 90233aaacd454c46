// The exported Slurm configuration on a real Slurm 22.05 (Debian's packages) on loopback, as root,
// without systemd (test/slurm/README.md): for each policy, a blocker fills the machine, then jobs that
// differ in the ordered attribute queue behind it; the order they really start in must be the
// order EasyTune's simulator predicts for the same jobs under the same policy.
//
// Node layout: 16 nodes × 1 CPU (16 slurmd on 127.0.0.1, one port each). The simulator pools
// CPUs, and Slurm's backfill reserves whole nodes (test/slurm/README.md §Why 16 nodes of 1 CPU); with one CPU per node a
// whole node IS one CPU, so Slurm's reservations have the simulator's granularity and machine
// size = 16 CPUs in both. Every test job needs more than half the machine (9–15 CPUs), so jobs
// run one at a time and the start order is exactly the priority order, with no backfilling race.
//
// Not exercised here: the Age factor (a mixture's wait term) needs slurmdbd, which Slurm requires
// for PriorityWeightAge (without it slurmctld ignores the weight); its generated values are
// checked instead (last test).
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exportConfig } from '../../src/core/export/index'
import { slurmPlan, BASE, ENC_SCALE, EPOCH0, SF_OFFSET } from '../../src/core/export/slurm-plan'
import { evaluate } from '../../src/core/export/expr'
import { readExportInput } from '../../src/core/export/validate'
import { simulate } from '../../src/core/sim/easy'
import { resolvePolicy } from '../../src/core/sim/policies'
import type { MixedSpec, PolicySpec } from '../../src/core/sim/types'
import { inCi, skipSuite } from '../support/tools'
import { Cluster, CLUSTER_SH, freePorts, prepareSlurm, resultFor, whyNotSlurm, type TestJob } from './harness'
import { EXTRA_CONF, SITE_CHANGED, siteConf } from './site-conf'

const NODES = 16
/** The jobs that queue behind the blocker: CPUs and time limits chosen so that FCFS, SPF, SQF
 * and the mixture below all give different orders. */
const MIX: TestJob[] = [
  { name: 'a', cpus: 12, limitMin: 4 }, { name: 'b', cpus: 9, limitMin: 7 }, { name: 'c', cpus: 15, limitMin: 2 },
  { name: 'd', cpus: 10, limitMin: 9 }, { name: 'e', cpus: 14, limitMin: 1 }, { name: 'f', cpus: 11, limitMin: 5 },
]
/** −q and −p̃ with c = weight/scale = 1 per CPU and 0.7 per minute of time limit. */
const MIXTURE: MixedSpec = { kind: 'mixed', weights: [0.5, 0.5, 0, 0, 0, 0], scale: [0.5, (0.5 * 60) / 0.7, 1, 1, 1, 1] }

/** The simulator's start order of MIX behind a 16-CPU blocker that ends at `decideAt`; `late`
 * jobs are submitted just before then (the others at 0.5 s). Runtimes are tiny: the order is
 * decided at `decideAt`, as Slurm's is when its priorities are set. */
function simulatedOrder(primary: PolicySpec, threshold: number | null, late: string[] = [], decideAt = 5): string[] {
  const n = MIX.length + 1
  const submit = new Float64Array(n), runtime = new Float64Array(n), requested = new Float64Array(n), procs = new Int32Array(n)
  runtime[0] = decideAt; requested[0] = 60; procs[0] = NODES
  const early = MIX.filter((j) => !late.includes(j.name)), lateJobs = MIX.filter((j) => late.includes(j.name))
  const ordered = [...early, ...lateJobs]
  ordered.forEach((j, i) => {
    submit[i + 1] = (late.includes(j.name) ? decideAt - 0.3 : 0.5) + i * 0.01
    runtime[i + 1] = 0.01; requested[i + 1] = j.limitMin * 60; procs[i + 1] = j.cpus
  })
  const start = simulate({ count: n, submit, runtime, requested, procs }, NODES, { primary, backfill: 'same', threshold })
  return ordered.map((j, i) => ({ name: j.name, t: start[i + 1], i })).sort((x, y) => x.t - y.t || x.i - y.i).map((x) => x.name)
}

/** slurmctld log lines that come from the test cluster, not from the configuration under test:
 * a fresh state folder (cluster.sh clears it), Debian's pmix MPI plugin without its library (loaded
 * at start whatever MpiDefault says), and fair-share without slurmdbd (the site's weight, kept by the
 * merge as asked; a real site with fair-share runs slurmdbd, this loopback cluster does not). */
const ENVIRONMENT = [
  /error: Could not open (node|job|reservation|trigger) state file .*: No such file or directory/,
  /error: NOTE: Trying backup state save file\./,
  /error: +mpi\/pmix|error: Couldn't load specified plugin name for mpi\/pmix|error: MPI: Cannot create context for mpi\/pmix/,
  /error: PriorityWeightFairshare can only be used with SlurmDBD, ignoring$/,
]

// Collection time: cheap checks only; installing the packages (if needed) happens in beforeAll.
const skip = skipSuite('the real-Slurm test', whyNotSlurm()?.concat('. Run as root on Debian (apt) to check the exported configuration on slurmctld') ?? null)

describe.skipIf(skip)('exported Slurm configuration on a real loopback Slurm', () => {
  let dir = ''
  let cluster: Cluster | null = null
  let ports: number[] = []
  const t0 = Date.now()

  beforeAll(async () => {
    const why = prepareSlurm()
    if (why) throw new Error(`the real-Slurm test cannot run: ${why}${inCi() ? ' (EASYTUNE_CI=1: it must run here)' : ''}`)
    dir = mkdtempSync(join(tmpdir(), 'easytune-slurm-'))
    ports = await freePorts(NODES + 1)
    const [ctld, ...nodes] = ports
    cluster = new Cluster(dir, ctld, nodes)
  }, 240_000)

  afterAll(() => {
    try {
      if (cluster?.running) cluster.stop()
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true })
      console.info(`real-Slurm test: ${((Date.now() - t0) / 1000).toFixed(1)} s (cluster script ${CLUSTER_SH})`)
    }
  }, 60_000)

  async function runScenario(primary: PolicySpec, threshold: number | null, late: string[] = []): Promise<{ real: string[]; expected: string[] }> {
    const c = cluster!
    const bundle = exportConfig(resultFor(primary, { threshold, machineProcs: NODES }), 'slurm')
    c.configure(bundle)
    try {
      c.start()
      const blk = c.submit({ name: 'blk', cpus: NODES, limitMin: 1 }, late.length ? 8 : 3)
      await c.waitFor('the blocker to run', () => c.state(blk) === 'RUNNING', 15_000)
      for (const j of MIX.filter((x) => !late.includes(x.name))) c.submit(j)
      if (late.length) {
        await new Promise((r) => setTimeout(r, 4200))
        for (const j of MIX.filter((x) => late.includes(x.name))) c.submit(j)
        // the waits the script sees: early jobs ≥ 4 s, late ones ≤ 1 s (threshold 3 s)
        const now = Math.floor(Date.now() / 1000)
        const waits = c.run('sh', ['-c', 'SLURM_TIME_FORMAT=%s squeue -h -t PD -o "%j %V"']).trim().split('\n')
          .map((l) => l.split(' ')).map(([name, at]) => ({ name, w: now - Number(at) }))
        for (const x of waits) expect(late.includes(x.name) ? x.w <= 1 : x.w >= 4, `wait of ${x.name}: ${x.w} s`).toBe(true)
        c.run('sh', [join(dir, 'etc', 'easytune-site-factor.sh')])
      }
      const snapshot = c.run('squeue', ['-h', '-o', '%j %T %Q %V'])
      expect(c.state(blk), 'the blocker must still run once the order is set').toBe('RUNNING')
      await c.waitFor('every job to finish', () => c.pending() === 0, 30_000)
      expect(c.configErrors()).toEqual([])
      console.info(`${JSON.stringify(primary)}: Slurm priorities once the order is set:\n${snapshot}`)
      return { real: c.startOrder(), expected: ['blk', ...simulatedOrder(primary, threshold, late)] }
    } finally {
      c.stop()
    }
  }

  it('FCFS (native: equal priorities, Slurm falls back to submit time)', async () => {
    const { real, expected } = await runScenario('FCFS', null)
    expect(expected).toEqual(['blk', 'a', 'b', 'c', 'd', 'e', 'f'])
    expect(real).toEqual(expected)
  }, 45_000)

  it('SPF (job_submit.lua: site factor from the time limit)', async () => {
    const { real, expected } = await runScenario('SPF', null)
    expect(expected).toEqual(['blk', 'e', 'c', 'a', 'f', 'b', 'd'])
    expect(real).toEqual(expected)
  }, 45_000)

  it('SQF (native: PriorityWeightTRES=CPU=-1, NO_NORMAL_TRES)', async () => {
    const { real, expected } = await runScenario('SQF', null)
    expect(expected).toEqual(['blk', 'b', 'd', 'f', 'a', 'e', 'c'])
    expect(real).toEqual(expected)
  }, 45_000)

  it('a mixture of −q and −p̃ (TRES weight + job_submit.lua, one scale)', async () => {
    const { real, expected } = await runScenario(MIXTURE, null)
    expect(expected).toEqual(['blk', 'b', 'f', 'e', 'a', 'd', 'c'])
    expect(real).toEqual(expected)
  }, 45_000)

  it('the merged site slurm.conf (Include, mixed case, PriorityFlags, fair-share, partitions) starts slurmctld with a clean log', async () => {
    const c = cluster!
    const [ctldPort, ...nodePorts] = ports
    const site = siteConf({ dir, ctldPort, nodePorts })
    const result = resultFor(MIXTURE, { machineProcs: NODES }) as unknown as { log: Record<string, unknown> }
    result.log.maxRequestedSeconds = 3 * 86_400
    const bundle = exportConfig(result as never, 'slurm', { currentConf: site })
    const merged = bundle.files.find((f) => f.name === 'slurm.conf')!.content
    // line by line: every line of the site's file not about a changed setting is kept verbatim
    const changed = new Set([...Object.values(SITE_CHANGED), 'bf_max_job_test=5000,bf_resolution=120'])
    const out = merged.split('\n')
    for (const l of site.split('\n').filter((x) => !changed.has(x))) expect(out, `kept: ${l}`).toContain(l)
    expect(bundle.changes!.map((x) => x.setting)).toEqual(['PriorityWeightPartition', 'PriorityWeightAge', 'PriorityWeightJobSize', 'PriorityWeightTRES', 'PriorityFlags', 'JobSubmitPlugins', 'SchedulerParameters'])
    const lua = bundle.files.find((f) => f.name === 'job_submit.lua')!.content
    c.useSiteConf(merged, { 'extra.conf': EXTRA_CONF, 'job_submit.lua': lua })
    try {
      c.start()
      const job = c.submit({ name: 'one', cpus: 2, limitMin: 5 })
      await c.waitFor('a job to run through the merged configuration', () => c.pending() === 0, 20_000)
      expect(job).toMatch(/^\d+$/)
      const config = c.run('scontrol', ['show', 'config'])
      // Slurm read the merged values and kept the site's own
      expect(config).toMatch(/^PriorityWeightFairShare\s*=\s*100000$/m)
      expect(config).toMatch(/^PriorityWeightQOS\s*=\s*20000$/m)
      expect(config).toMatch(/^PriorityDecayHalfLife\s*=\s*7-00:00:00$/m)
      expect(config).toMatch(/^SchedulerParameters\s*=\s*bf_interval=30,bf_window=5760,default_queue_depth=200,bf_max_job_test=5000,bf_resolution=120,bf_job_part_count_reserve=1,bf_continue$/m)
      // the site's flags kept, NO_NORMAL_TRES added (this scontrol prints the NO_NORMAL_* flags as NO_NORMAL_ALL)
      expect(config).toMatch(/^PriorityFlags\s*=\s*SMALL_RELATIVE_TO_TIME,CALCULATE_RUNNING,NO_NORMAL_/m)
      expect(config).toMatch(/^PriorityWeightPartition\s*=\s*1100000000$/m)
      expect(config).toMatch(/^JobSubmitPlugins\s*=\s*lua$/m)
      expect(config).toMatch(/^KillWait\s*=\s*30 sec$/m) // from the included file
      expect(config).toMatch(/^PrivateData\s*=\s*jobs,usage$/m) // the continued line, kept
      // No error or "Invalid" line but those of the loopback test cluster itself (ENVIRONMENT, each
      // with its reason); the fair-share one proves Slurm read the site weight the merge kept.
      const errors = c.logErrors()
      expect(errors.filter((l) => !ENVIRONMENT.some((e) => e.test(l)))).toEqual([])
      expect(errors.some((l) => /PriorityWeightFairshare can only be used with SlurmDBD/.test(l))).toBe(true)
    } finally {
      c.stop()
      c.useSiteConf(null)
    }
  }, 60_000)

  // docs/LEARN.md §Export: a learned function of r, n and s; the site factor follows a change of
  // time limit by an admin (raised) and by the job's owner (lowered), with s from the recorded submit time.
  it('a learned fn: of r, n, s (job_submit.lua): the site factor follows an admin\'s and the owner\'s change of time limit', async () => {
    const c = cluster!
    const spec = 'fn:log10(r)*n+870*log10(s)'
    c.configure(exportConfig(resultFor(spec, { machineProcs: NODES }), 'slurm'))
    // −f encoded as the exported Lua does (log encoding around SF_OFFSET)
    const sf = (r: number, n: number, s: number) => SF_OFFSET - Math.floor(Math.log(1 + Math.log10(r) * n + 870 * Math.log10(s)) * ENC_SCALE + 0.5)
    const chmodOut = () => chmodSync(join(dir, 'out'), 0o777)
    try {
      c.start()
      chmodSync(dir, 0o755); chmodOut() // the owner (nobody) writes its start stamp there
      const submit = (j: TestJob, user: string, sleep = 0) => c.run('sbatch', ['--parsable', `--uid=${user}`, '-J', j.name, '-n', String(j.cpus), '-t', String(j.limitMin),
        '-o', '/dev/null', '--wrap', `date +%s.%N > ${join(dir, 'out', `start.${j.name}`)}; sleep ${sleep}`]).trim()
      const blk = submit({ name: 'blk', cpus: NODES, limitMin: 1 }, 'root', 8)
      await c.waitFor('the blocker to run', () => c.state(blk) === 'RUNNING', 15_000)
      const ids = Object.fromEntries(MIX.map((j) => [j.name, submit(j, 'nobody')]))
      const read = () => Object.fromEntries(c.run('sh', ['-c', 'SLURM_TIME_FORMAT=%s squeue -h -t PD -o "%j %Q %V %l %C"']).trim().split('\n')
        .map((l) => l.split(' ')).map(([name, q, at, lim, cpus]) => [name, { prio: Number(q), s: Number(at) - EPOCH0, lim, cpus: Number(cpus) }]))
      const before = read()
      // an admin raises e's limit (1 → 20 min); c's owner lowers c's (2 → 1 min)
      c.run('scontrol', ['update', `JobId=${ids.e}`, 'TimeLimit=20'])
      c.run('runuser', ['-u', 'nobody', '--', 'scontrol', 'update', `JobId=${ids.c}`, 'TimeLimit=1'])
      const after = read()
      expect(c.state(blk), 'the blocker must still run once the order is set').toBe('RUNNING')
      await c.waitFor('every job to finish', () => c.pending() === 0, 30_000)
      expect(c.configErrors()).toEqual([])
      console.info(`${spec}: priorities before and after the changes of limit:\n${JSON.stringify(before)}\n${JSON.stringify(after)}`)
      expect([after.e.lim, after.c.lim]).toEqual(['20:00', '1:00'])
      // priority = PriorityWeightPartition (BASE) + site factor, where r = limit·60, n = CPUs, s = submit − EPOCH0
      const limits = (name: string, which: 'before' | 'after') => (which === 'after' && name === 'e' ? 20 : which === 'after' && name === 'c' ? 1 : MIX.find((j) => j.name === name)!.limitMin)
      for (const [which, snap] of [['before', before], ['after', after]] as const) {
        // ±1: at submission the Lua's s is os.time(), which can differ by a second from the recorded
        // submit time read here; one second moves 870·log10(s) by 1.5e-5, the encoding by 0.03 at most
        for (const j of MIX) expect(Math.abs(snap[j.name].prio - BASE - sf(60 * limits(j.name, which), j.cpus, snap[j.name].s)), `${which}: ${j.name}`).toBeLessThanOrEqual(1)
      }
      // log10(r)·n (the s terms differ by at most 870·log10(1 + 1/s) ≈ 1e-5): before, b 23.6 < e 24.9 < f 27.25 < d 27.3
      // < a 28.6 < c 31.2; after, e 14·log10(1200) = 43.1 is last and c 15·log10(60) = 26.7 comes second
      expect(Object.keys(before).sort((x, y) => before[y].prio - before[x].prio)).toEqual(['b', 'e', 'f', 'd', 'a', 'c'])
      expect(c.startOrder()).toEqual(['blk', 'b', 'c', 'f', 'd', 'a', 'e'])
    } finally {
      c.stop()
    }
  }, 60_000)

  it('SPF with a 3 s threshold (site-factor script run once: old jobs first, FCFS)', async () => {
    const { real, expected } = await runScenario('SPF', 3, ['c', 'e', 'f'])
    expect(expected).toEqual(['blk', 'a', 'b', 'd', 'e', 'c', 'f'])
    expect(real).toEqual(expected)
  }, 55_000)
})

describe('exported Slurm features that need slurmdbd (Age): checked from the generated values', () => {
  it('a mixture with a wait term: PriorityWeightAge, PriorityMaxAge and the other terms order jobs as the simulator does', () => {
    const spec: MixedSpec = { kind: 'mixed', weights: [0.2, 0.3, 0.5, 0, 0, 0], scale: [4, 3600, 7200, 1, 1, 1] }
    const result = resultFor(spec, { machineProcs: 64, maxWait: 3 * 86_400 })
    const conf = exportConfig(result, 'slurm').files[0].content
    const value = (key: string) => Number(new RegExp(`^${key}=(?:CPU=)?(-?\\d+)$`, 'm').exec(conf)![1])
    const age = value('PriorityWeightAge'), maxAge = value('PriorityMaxAge'), tres = value('PriorityWeightTRES')
    expect(maxAge).toBe(6 * 1440) // twice the longest wait, in minutes
    expect(age).toBeGreaterThan(0)
    expect(tres).toBeLessThan(0)
    expect(value('PriorityWeightPartition')).toBe(BASE)
    const plan = slurmPlan(readExportInput(result))
    if (plan.mode !== 'linear' || plan.lua === null || plan.enc.kind !== 'linear') throw new Error(`unexpected plan ${plan.mode}`)
    const { lua, enc } = plan
    // Slurm: base + TRES·q + age·min(1, w/MaxAge) + site factor; simulator: the mixed policy
    const policy = resolvePolicy(spec)
    const jobs = Array.from({ length: 40 }, (_, i) => ({ q: 1 + ((i * 7) % 64), p: 60 * (1 + ((i * 13) % 600)), w: (i * 4111) % (2 * 86_400) }))
    const slurmPrio = jobs.map((j) => BASE + tres * j.q + age * Math.min(1, j.w / (maxAge * 60)) + enc.offset + Math.round(enc.scale * evaluate(lua, { ...j, t: 0 })))
    for (const x of slurmPrio) expect(x > 1 && x < 2 ** 32).toBe(true)
    const now = 10 * 86_400
    const input = { submit: Float64Array.from(jobs, (j) => now - j.w), requested: Float64Array.from(jobs, (j) => j.p), procs: Int32Array.from(jobs, (j) => j.q), windowStart: 0 }
    const simPrio = jobs.map((_, i) => policy.priority(input, i, now))
    const order = (v: number[]) => v.map((x, i) => ({ x, i })).sort((a, b) => b.x - a.x || a.i - b.i).map((e) => e.i)
    // equal up to integer rounding: compare only pairs the simulator separates clearly
    const sim = order(simPrio), real = order(slurmPrio)
    const rank = new Map(real.map((j, k) => [j, k]))
    for (let k = 1; k < sim.length; k++) {
      const a = sim[k - 1], b = sim[k]
      if (simPrio[a] - simPrio[b] > 1e-3) expect(rank.get(a)! < rank.get(b)!, `jobs ${a} and ${b}`).toBe(true)
    }
  })
})
