// Age and fair-share on a real Slurm with slurmdbd (issue #21; test/slurm/README.md §slurmdbd):
// slurmctld ignores PriorityWeightAge and PriorityWeightFairshare without accounting through
// slurmdbd, so the agreement cluster (agreement.test.ts) cannot show them. Here cluster.sh also
// starts MariaDB and slurmdbd, creates accounts a and b (user root in both), and one mix runs under
// multifactor priority with both weights:
//
//   hog   (account a) fills the machine (24 CPUs) and runs, so a accumulates usage at each
//         PriorityCalcPeriod tick (1 min, Slurm's minimum);
//   a_old (a) is submitted right after; once its age has saturated at PriorityMaxAge (1 min) in
//         Slurm's own sprio, a has usage in sshare, and at least two minutes have passed (then the
//         simulator's ticks, whose phase differs from Slurm's, have saturated it too),
//   a_new (a) and then b_new (b) are submitted, and the hog is cancelled.
//
// Each of the three needs the whole machine, so they run one at a time, in priority order:
//   a_old = 20000·1 (age) + 10000·F(a), b_new ≈ 10000·1 + small age, a_new ≈ 10000·F(a) + small age,
// with F(a) < 1 (a has usage, b none): a_old, b_new, a_new. Without the age factor b_new would go
// first; without fair-share a_new (submitted before b_new) would go second; without slurmdbd
// (both weights ignored) the order is FIFO. The simulator-only layer checks that it predicts each
// of those orders, so the live layer tells the factors apart; the live layer checks that Slurm
// runs the first order and that the simulator, given the same slurm.conf text and the times Slurm
// recorded, predicts it.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inCi, onPath, skipSuite } from '../support/tools'
import { inputFromRecord, simulateForMix, type SimInputJob } from './agreement'
import {
  AGREEMENT_NODES, AgreementCluster, agreementGresConf, agreementSlurmConf, freePorts, prepareSlurm, whyNotSlurm,
  type AgreementConfig, type Mix, type MixJob, type RecordedJob,
} from './harness'

const WEIGHT_AGE = 20000
const WEIGHT_FS = 10000
const priorityLines = (age: number, fs: number) => [
  'PriorityType=priority/multifactor', `PriorityWeightAge=${age}`, 'PriorityMaxAge=1', `PriorityWeightFairshare=${fs}`,
  'PriorityCalcPeriod=1', 'PriorityDecayHalfLife=7-0',
]
const config = (name: string, age: number, fs: number): AgreementConfig => ({
  name, schedulerType: 'sched/backfill', priority: priorityLines(age, fs),
  schedulerParameters: 'bf_interval=1,bf_resolution=1,sched_interval=1,sched_min_interval=0,batch_sched_delay=0,bf_continue',
})
const CONFIG = config('age and fair-share', WEIGHT_AGE, WEIGHT_FS)

const whole = (name: string, account: string, sleep: number, limitMin: number): MixJob =>
  ({ name, partition: 'cpu', cpus: AGREEMENT_NODES.length * 4, account, limitMin, sleep })
const HOG = whole('hog', 'a', 900, 20)
const A_OLD = whole('a_old', 'a', 2, 1)
const A_NEW = whole('a_new', 'a', 2, 1)
const B_NEW = whole('b_new', 'b', 2, 1)
/** Submission order: a_new before b_new, so that only fair-share puts b_new ahead of it. */
const MIX: Mix = { name: 'age-fairshare', setup: [[HOG]], jobs: [A_OLD, A_NEW, B_NEW] }
/** The hog runs at least this long after a_old's submission (two calc periods: both clocks tick). */
const AGE_WAIT_S = 125

const order = (start: ReadonlyMap<string, number>) => MIX.jobs.map((j) => j.name).sort((x, y) => start.get(x)! - start.get(y)!)

/** Nominal timings (no Slurm): a_old queued at 1 s, a_new and b_new at 130 s, the hog ends at 135 s. */
const nominal: SimInputJob[] = [
  { job: HOG, submit: 0, runtime: 135 }, { job: A_OLD, submit: 1, runtime: 2.5 },
  { job: A_NEW, submit: 130, runtime: 2.5 }, { job: B_NEW, submit: 130.3, runtime: 2.5 },
]
const confFor = (c: AgreementConfig, dbd: boolean) =>
  agreementSlurmConf('/tmp/easytune-dbd', 6817, AGREEMENT_NODES.map((_, i) => 17001 + i), c, dbd ? 6819 : undefined)

describe('age and fair-share decide this mix in the simulator (nominal timings, no Slurm)', () => {
  const cases: [string, AgreementConfig, boolean, string[]][] = [
    ['both factors, with slurmdbd', CONFIG, true, ['a_old', 'b_new', 'a_new']],
    ['no age weight: fair-share alone puts b_new first', config('fs only', 0, WEIGHT_FS), true, ['b_new', 'a_old', 'a_new']],
    ['no fair-share weight: age alone keeps submission order', config('age only', WEIGHT_AGE, 0), true, ['a_old', 'a_new', 'b_new']],
    ['no slurmdbd: Slurm ignores both weights (FIFO)', CONFIG, false, ['a_old', 'a_new', 'b_new']],
  ]
  for (const [what, c, dbd, expected] of cases) {
    it(what, async () => {
      const sim = await simulateForMix(confFor(c, dbd), agreementGresConf('/tmp/easytune-dbd'), nominal)
      expect(order(sim.start), JSON.stringify([...sim.start])).toEqual(expected)
    })
  }
})

const DBD_BINARIES = ['slurmdbd', 'mariadbd', 'mariadb-install-db', 'mariadb', 'sacctmgr', 'sprio', 'sshare']
const DBD_PACKAGES = ['slurmdbd', 'mariadb-server']

function whyNotDbd(): string | null {
  const why = whyNotSlurm()
  if (why !== null) return why
  if (DBD_BINARIES.every(onPath)) return null
  return onPath('apt-get') ? null : `slurmdbd or MariaDB is not installed and apt-get is not available to install ${DBD_PACKAGES.join(' ')}`
}

/** Installs Slurm, then slurmdbd and MariaDB when missing (root + apt); null when the test can run. */
async function prepareDbd(): Promise<string | null> {
  const why = prepareSlurm()
  if (why !== null || DBD_BINARIES.every(onPath)) return why
  const { spawnSync } = await import('node:child_process')
  const r = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...DBD_PACKAGES], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, encoding: 'utf8' })
  if (r.status !== 0) return `apt-get install ${DBD_PACKAGES.join(' ')} failed: ${(r.stderr || r.stdout).slice(-400)}`
  const missing = DBD_BINARIES.filter((b) => !onPath(b))
  return missing.length ? `still missing after install: ${missing.join(', ')}` : null
}

const skip = skipSuite('the slurmdbd age and fair-share test', whyNotDbd()?.concat('. Run as root on Debian (apt) to run it') ?? null)

describe.skipIf(skip)('real Slurm 22.05 with slurmdbd: age and fair-share order the queue as the simulator predicts', () => {
  let dir = ''
  let cluster: AgreementCluster | null = null
  let run: { jobs: RecordedJob[]; slurmConf: string; gresConf: string } | null = null
  const t0 = Date.now()

  beforeAll(async () => {
    const why = await prepareDbd()
    if (why) throw new Error(`the slurmdbd test cannot run: ${why}${inCi() ? ' (EASYTUNE_CI=1: it must run here)' : ''}`)
    dir = mkdtempSync(join(tmpdir(), 'easytune-dbd-'))
    const [ctld, dbdPort, dbPort, ...nodes] = await freePorts(3 + AGREEMENT_NODES.length)
    cluster = new AgreementCluster(dir, ctld, nodes)
    const texts = cluster.configureAgreement(CONFIG, { dbdPort, dbPort, accounts: ['a', 'b'] })
    cluster.start()
    const c = cluster
    const sprio = (id: string) => c.run('sprio', ['-h', '-j', id, '-o', '%Y %A %F']).trim().split(/\s+/).map(Number)
    const usageOfA = () => Number(c.run('sshare', ['-h', '-P', '-A', 'a', '-u', 'root', '-o', 'RawUsage']).trim().split('\n').pop() || 'NaN')
    const hog = c.submitMixJob(HOG)
    await c.waitFor('the hog to run', () => c.state(hog) === 'RUNNING', 15_000)
    const aOld = c.submitMixJob(A_OLD)
    const queued = Date.now()
    // Slurm's own view before the jobs under test arrive: a_old's age saturated, a has usage.
    await c.waitFor(`a_old's age to saturate and account a to have usage (${AGE_WAIT_S} s at least)`,
      () => Date.now() - queued >= AGE_WAIT_S * 1000 && sprio(aOld)[1] === WEIGHT_AGE && usageOfA() > 0, 200_000)
    const aNew = c.submitMixJob(A_NEW)
    const bNew = c.submitMixJob(B_NEW)
    await c.waitFor('a_new and b_new to get their priorities', () => [aNew, bNew].every((id) => sprio(id).length === 3 && sprio(id)[0] > 0), 10_000)
    const prio = { a_old: sprio(aOld)[0], a_new: sprio(aNew)[0], b_new: sprio(bNew)[0] }
    console.info(`slurmdbd test: priorities before the hog ends ${JSON.stringify(prio)}; usage of a ${usageOfA()}`)
    // Slurm's own priorities already say a_old > b_new > a_new (the order under test)
    expect(prio.a_old, JSON.stringify(prio)).toBeGreaterThan(prio.b_new)
    expect(prio.b_new, JSON.stringify(prio)).toBeGreaterThan(prio.a_new)
    expect([aOld, aNew, bNew].map((id) => c.state(id))).toEqual(['PENDING', 'PENDING', 'PENDING'])
    c.run('scancel', [hog])
    await c.waitFor('the mix to finish', () => c.pending() === 0, 60_000)
    await c.waitFor('jobcomp lines for every job', () => c.recorded().length === 4, 5_000)
    run = { jobs: c.recorded(), ...texts }
    c.stop()
  }, 420_000)

  afterAll(() => {
    try {
      if (cluster?.running) cluster.stop()
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true })
      console.info(`slurmdbd test: ${((Date.now() - t0) / 1000).toFixed(1)} s`)
    }
  }, 60_000)

  it('Slurm starts a_old (age), then b_new (fair-share), then a_new', () => {
    const stamps = new Map(run!.jobs.map((j) => [j.name, j.stamp]))
    const table = run!.jobs.map((j) => `${j.name} id=${j.jobId} submit=${j.submit} start=${j.start} end=${j.end} stamp=${j.stamp.toFixed(2)}`).join('\n')
    expect(order(stamps), table).toEqual(['a_old', 'b_new', 'a_new'])
    expect(Math.max(...MIX.jobs.map((j) => stamps.get(j.name)!)) > stamps.get('hog')!, table).toBe(true)
  })

  it('the simulator, given the same slurm.conf and the times Slurm recorded, predicts that order', async () => {
    const { input, unixStartTime } = inputFromRecord(MIX, run!.jobs)
    const sim = await simulateForMix(run!.slurmConf, run!.gresConf, input, unixStartTime)
    expect(order(sim.start), `simulated ${JSON.stringify([...sim.start])}; input ${JSON.stringify(input.map((x) => [x.job.name, x.submit, x.runtime]))}`)
      .toEqual(['a_old', 'b_new', 'a_new'])
  })
})
