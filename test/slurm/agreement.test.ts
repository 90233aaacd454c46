// Real-Slurm agreement (issue #21, test/slurm/README.md §Agreement): a loopback slurmctld 22.05 on
// a heterogeneous machine (4 CPU nodes + 2 GPU nodes of 4 CPUs, fake GPUs through gres.conf, two
// partitions sharing the GPU nodes, CR_Core) runs job mixes under three scheduler configurations;
// the node-level simulator, given the same slurm.conf, must predict the start order Slurm records.
//
// Three layers, so that a failure says which side moved:
// 1. the fixture (mixes.json) is well formed: every job named once, every wave lists every job;
// 2. the simulator predicts the fixture's orders from the mixes' nominal timings (no Slurm needed);
// 3. live (root + Slurm): Slurm still produces the fixture's order, its log says the jobs that
//    jumped a pending higher-priority job were backfill starts, and the simulator, fed the
//    submit times and runtimes Slurm recorded, predicts the same waves and backfill starts.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inCi, skipSuite } from '../support/tools'
import { inputFromRecord, jumpedJobs, mixJobs, nominalInput, readFixture, simulateForMix, waves } from './agreement'
import {
  AGREEMENT_NODES, AgreementCluster, agreementGresConf, agreementSlurmConf, CLUSTER_SH, freePorts, prepareSlurm, runMix, whyNotSlurm,
  type RecordedJob,
} from './harness'

const FIXTURE = readFixture()
const W = FIXTURE.waveSeconds
type FixtureMix = (typeof FIXTURE.mixes)[number]

const isSetup = (mix: FixtureMix, name: string) => mix.setup.some((g) => g.some((j) => j.name === name))
/** The waves of the jobs under test (the setup jobs' own order is not under test). */
const underTest = (mix: FixtureMix, start: ReadonlyMap<string, number>) =>
  waves(mix.jobs.map((j) => ({ name: j.name, t: start.get(j.name)! })), W)
/** Every setup job started before every job under test (the machine was filled first). */
const setupFirst = (mix: FixtureMix, start: ReadonlyMap<string, number>) =>
  Math.max(...mix.setup.flat().map((j) => start.get(j.name)!)) < Math.min(...mix.jobs.map((j) => start.get(j.name)!))
/** Node names of each partition, as the agreement slurm.conf declares them. */
const PARTITION_NODES: Record<string, string[]> = {
  cpu: AGREEMENT_NODES.map((n) => n.name),
  gpu: AGREEMENT_NODES.filter((n) => n.gpus > 0).map((n) => n.name),
}

describe('real-Slurm agreement fixture (test/slurm/mixes.json)', () => {
  it('every mix names each job once, and each expected order lists every job once, for the configurations it runs under', () => {
    expect(FIXTURE.configs.map((c) => c.name)).toEqual(['backfill', 'reserve1', 'builtin'])
    for (const mix of FIXTURE.mixes) {
      const names = mixJobs(mix).map((j) => j.name)
      expect(new Set(names).size, mix.name).toBe(names.length)
      // at least two configurations per mix, each a declared one
      expect(Object.keys(mix.expected).length, mix.name).toBeGreaterThan(1)
      for (const c of Object.keys(mix.expected)) expect(FIXTURE.configs.map((x) => x.name), mix.name).toContain(c)
      for (const [config, e] of Object.entries(mix.expected)) {
        expect(e.waves.flat().sort(), `${mix.name}/${config}`).toEqual(mix.jobs.map((j) => j.name).sort())
        for (const j of e.jumped) expect(mix.jobs.map((x) => x.name), `${mix.name}/${config} jumped ${j}`).toContain(j)
        // the recorded seconds group into the recorded waves (the fixture agrees with itself)
        expect(Object.keys(e.observedStarts).sort(), `${mix.name}/${config} observedStarts`).toEqual([...names].sort())
        const observed = Object.entries(e.observedStarts).map(([name, t]) => ({ name, t }))
        expect(waves(observed.filter((x) => !isSetup(mix, x.name)), W), `${mix.name}/${config} observedStarts`).toEqual(e.waves)
        if (config === 'builtin') expect(e.jumped, `${mix.name}: sched/builtin never starts a job past a blocked one`).toEqual([])
      }
      // the configurations must disagree somewhere, or the mix tells them apart from nothing
      expect(new Set(Object.values(mix.expected).map((e) => JSON.stringify(e.waves))).size, mix.name).toBeGreaterThan(1)
    }
  })

  it('waves group starts less than waveSeconds after the first start of the wave', () => {
    expect(waves([{ name: 'b', t: 10.2 }, { name: 'a', t: 10 }, { name: 'c', t: 11.9 }, { name: 'd', t: 12 }, { name: 'e', t: 20 }], 2))
      .toEqual([['a', 'b', 'c'], ['d'], ['e']])
  })

  it('a job "jumped" when a lower job id of a partition holding one of its nodes started in a later wave', () => {
    const job = (jobId: number, name: string, partition: string, stamp: number, nodes: string): RecordedJob =>
      ({ jobId, name, partition, submit: 0, start: Math.floor(stamp), end: 0, nodes, stamp, startedBy: null })
    const jobs = [job(1, 'G1', 'gpu', 20, 'g1'), job(2, 'W', 'cpu', 5, 'c[1-4]'), job(3, 'C5', 'cpu', 5.5, 'g2'), job(4, 'C6', 'cpu', 9, 'c1')]
    // W ran on c1-c4 (not G1's partition); C5 on g2 while G1 pended; C6 after W but before G1, on c1
    expect(jumpedJobs(jobs, PARTITION_NODES, W)).toEqual(['C5'])
  })
})

describe('the simulator predicts the recorded Slurm orders from the mixes alone (nominal timings, no Slurm)', () => {
  for (const config of FIXTURE.configs) {
    for (const mix of FIXTURE.mixes.filter((m) => config.name in m.expected)) {
      it(`${config.name} × ${mix.name}`, async () => {
        const dir = '/tmp/easytune-agreement'
        const conf = agreementSlurmConf(dir, 6817, AGREEMENT_NODES.map((_, i) => 17001 + i), config)
        const sim = await simulateForMix(conf, agreementGresConf(dir), nominalInput(mix))
        const e = mix.expected[config.name]
        expect(setupFirst(mix, sim.start), `simulated starts: ${JSON.stringify([...sim.start])}`).toBe(true)
        expect(underTest(mix, sim.start), `simulated starts: ${JSON.stringify([...sim.start])}`).toEqual(e.waves)
        for (const j of e.jumped) expect(sim.backfilled.has(j), `${j} must be a backfill start`).toBe(true)
        if (config.schedulerType === 'sched/builtin') expect([...sim.backfilled]).toEqual([])
      })
    }
  }
})

// Collection time: cheap checks only; installing the packages (if needed) happens in beforeAll.
const skip = skipSuite('the real-Slurm agreement test', whyNotSlurm()?.concat('. Run as root on Debian (apt) to run the job mixes on slurmctld') ?? null)

describe.skipIf(skip)('real Slurm 22.05 and the simulator agree on start orders (loopback, heterogeneous nodes, fake GPUs)', () => {
  let dir = ''
  let cluster: AgreementCluster | null = null
  const t0 = Date.now()
  const live = new Map<string, { jobs: RecordedJob[]; slurmConf: string; gresConf: string }>()

  beforeAll(async () => {
    const why = prepareSlurm()
    if (why) throw new Error(`the real-Slurm agreement test cannot run: ${why}${inCi() ? ' (EASYTUNE_CI=1: it must run here)' : ''}`)
    dir = mkdtempSync(join(tmpdir(), 'easytune-agree-'))
    // ports from the OS (never the fixed ones of another test or another cluster on this machine)
    const [ctld, ...nodes] = await freePorts(1 + AGREEMENT_NODES.length)
    cluster = new AgreementCluster(dir, ctld, nodes)
  }, 240_000)

  afterAll(() => {
    try {
      if (cluster?.running) cluster.stop()
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true })
      console.info(`real-Slurm agreement test: ${((Date.now() - t0) / 1000).toFixed(1)} s (cluster script ${CLUSTER_SH})`)
    }
  }, 60_000)

  for (const config of FIXTURE.configs) {
    for (const mix of FIXTURE.mixes.filter((m) => config.name in m.expected)) {
      const key = `${config.name} × ${mix.name}`
      const e = mix.expected[config.name]

      it(`${key}: Slurm still starts the jobs in the recorded order`, async () => {
        const run = await runMix(cluster!, config, mix)
        live.set(key, run)
        const stamps = new Map(run.jobs.map((j) => [j.name, j.stamp]))
        const got = underTest(mix, stamps)
        const table = run.jobs.map((j) => `${j.name} id=${j.jobId} ${j.partition} submit=${j.submit - run.jobs[0].submit} start=+${(j.stamp - run.jobs[0].stamp).toFixed(2)}s end=${j.end - run.jobs[0].submit} nodes=${j.nodes} by=${j.startedBy}`).join('\n')
        console.info(`${key}: Slurm's starts\n${table}`)
        expect(setupFirst(mix, stamps), `every setup job starts before the jobs under test:\n${table}`).toBe(true)
        expect(got, `Slurm's starts:\n${table}`).toEqual(e.waves)
        expect(jumpedJobs(run.jobs, PARTITION_NODES, W), table).toEqual(e.jumped)
        // the log names the scheduler that started each job: the jumps were backfill starts
        for (const name of e.jumped) expect(run.jobs.find((j) => j.name === name)!.startedBy, `${name}\n${table}`).toBe('backfill')
        if (config.schedulerType === 'sched/builtin') expect(run.jobs.filter((j) => j.startedBy === 'backfill').map((j) => j.name)).toEqual([])
      }, 120_000)

      it(`${key}: the simulator, given the same slurm.conf and Slurm's recorded times, predicts that order`, async () => {
        const run = live.get(key)
        if (!run) throw new Error(`no live run of ${key} (the previous test failed before Slurm finished the mix)`)
        const { input, unixStartTime } = inputFromRecord(mix, run.jobs)
        const sim = await simulateForMix(run.slurmConf, run.gresConf, input, unixStartTime)
        const real = underTest(mix, new Map(run.jobs.map((j) => [j.name, j.stamp])))
        expect(setupFirst(mix, sim.start), `simulated starts: ${JSON.stringify([...sim.start])}`).toBe(true)
        expect(underTest(mix, sim.start), `simulated starts: ${JSON.stringify([...sim.start])}; input ${JSON.stringify(input.map((x) => [x.job.name, x.submit, x.runtime]))}`).toEqual(real)
        // backfill starts where observable: every jump is one; a job the main pass started is none
        for (const name of jumpedJobs(run.jobs, PARTITION_NODES, W)) expect(sim.backfilled.has(name), `${name} was a backfill start`).toBe(true)
        for (const j of run.jobs.filter((x) => x.startedBy === 'main')) expect(sim.backfilled.has(j.name), `${j.name} was started by the main pass`).toBe(false)
      })
    }
  }
})
