// Ordering by predicted runtime (docs/PREDICTIONS.md §Deployment) on a real Slurm 22.05 on
// loopback, as root (test/slurm/README.md): the exported fragment and job_submit.lua run as they
// are; the exported periodic script runs once against the real squeue and scontrol, with a fake
// sacct (this cluster has no slurmdbd) holding a hand-made history of four users. Jobs submitted
// as those users (sbatch --uid) queue behind a blocker; they must start in the order of their
// predictions worked by hand, which neither FCFS nor the time limits give.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exportPredictedOrder, PREDICTED_SCRIPT_FILE } from '../../src/core/export/predicted'
import { inCi, skipSuite } from '../support/tools'
import { Cluster, freePorts, prepareSlurm, whyNotSlurm } from './harness'

const NODES = 16
/** Every job needs more than half the machine: they run one at a time, in priority order. */
const JOBS = [
  { name: 'a', user: 'nobody', cpus: 12, limitMin: 2 }, // no history: its limit, 120 s
  { name: 'b', user: 'bin', cpus: 9, limitMin: 20 }, // one job of 600 s: 600 s
  { name: 'c', user: 'daemon', cpus: 15, limitMin: 10 }, // (60 + 120) / 2 = 90 s
  { name: 'd', user: 'root', cpus: 10, limitMin: 8 }, // (30 + 30) / 2 = 30 s
  { name: 'e', user: 'nobody', cpus: 14, limitMin: 1 }, // no history: 60 s
  { name: 'f', user: 'daemon', cpus: 11, limitMin: 1 }, // 90 s capped at its 60 s limit: ties with e, submitted after it
]
/** Shortest prediction first; e and f tie (60 s) and keep their submit order. */
const EXPECTED = ['blk', 'd', 'e', 'f', 'c', 'a', 'b']
// sacct --parsable2: JobIDRaw|User|Start|End|ElapsedRaw|State; every job ended long before the test.
const HISTORY = [
  '900001|daemon|1000000000|1000000060|60|COMPLETED', '900002|daemon|1000000100|1000000220|120|COMPLETED',
  '900003|bin|1000000000|1000000600|600|TIMEOUT',
  '900004|root|1000000000|1000000030|30|COMPLETED', '900005|root|1000000100|1000000130|30|FAILED',
]

const skip = skipSuite('the real-Slurm predicted-order test', whyNotSlurm()?.concat('. Run as root on Debian (apt) to check the exported predicted order on slurmctld') ?? null)

describe.skipIf(skip)('the exported predicted order on a real loopback Slurm', () => {
  let dir = ''
  let cluster: Cluster | null = null

  beforeAll(async () => {
    const why = prepareSlurm()
    if (why) throw new Error(`the real-Slurm test cannot run: ${why}${inCi() ? ' (EASYTUNE_CI=1: it must run here)' : ''}`)
    dir = mkdtempSync(join(tmpdir(), 'easytune-slurm-pred-'))
    chmodSync(dir, 0o755) // the jobs of other users write their start stamps under it
    const [ctld, ...nodes] = await freePorts(NODES + 1)
    cluster = new Cluster(dir, ctld, nodes)
  }, 240_000)

  afterAll(() => {
    try {
      if (cluster?.running) cluster.stop()
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)

  it('starts the jobs by their AVE₂ prediction from the accounting, set by the script through SiteFactor', async () => {
    const c = cluster!
    const bundle = exportPredictedOrder()
    c.configure(bundle)
    const fake = join(dir, 'fakebin')
    mkdirSync(fake, { recursive: true })
    writeFileSync(join(fake, 'sacct'), `#!/bin/sh\ncat <<'EOF'\n${HISTORY.join('\n')}\nEOF\n`, { mode: 0o755 })
    chmodSync(join(dir, 'etc', PREDICTED_SCRIPT_FILE), 0o755)
    try {
      c.start()
      chmodSync(join(dir, 'out'), 0o777)
      const submit = (j: { name: string; user: string; cpus: number; limitMin: number }, sleep = 0) => c.run('sbatch', [
        '--parsable', `--uid=${j.user}`, '-J', j.name, '-n', String(j.cpus), '-t', String(j.limitMin), '-o', '/dev/null',
        '--wrap', `date +%s.%N > ${join(dir, 'out', `start.${j.name}`)}; sleep ${sleep}`]).trim()
      const blk = submit({ name: 'blk', user: 'root', cpus: NODES, limitMin: 1 }, 8)
      await c.waitFor('the blocker to run', () => c.state(blk) === 'RUNNING', 15_000)
      for (const j of JOBS) { submit(j); await new Promise((r) => setTimeout(r, 1100)) } // distinct submit seconds
      const before = c.run('squeue', ['-h', '-t', 'PD', '-o', '%j %u %Q'])
      const r = c.run('sh', ['-c', `PATH='${fake}':$PATH sh '${join(dir, 'etc', PREDICTED_SCRIPT_FILE)}'; echo "exit $?"`])
      expect(r.trim().split('\n').pop()).toBe('exit 0')
      const after = c.run('squeue', ['-h', '-t', 'PD', '-o', '%j %u %Q'])
      expect(c.state(blk), 'the blocker must still run once the order is set').toBe('RUNNING')
      await c.waitFor('every job to finish', () => c.pending() === 0, 40_000)
      expect(c.configErrors()).toEqual([])
      console.info(`predicted order: priorities at submission (job_submit.lua, by limit):\n${before}after the script:\n${after}`)
      // priority = PriorityWeightPartition + site factor: the site factors of the hand-worked predictions
      const prio = Object.fromEntries(after.trim().split('\n').map((l) => l.split(' ')).map(([n, , q]) => [n, Number(q)]))
      const base = prio.d - (1e9 - 60)
      expect({ a: prio.a - base, b: prio.b - base, c: prio.c - base, e: prio.e - base, f: prio.f - base })
        .toEqual({ a: 1e9 - 240, b: 1e9 - 1200, c: 1e9 - 180, e: 1e9 - 120, f: 1e9 - 120 })
      expect(c.startOrder()).toEqual(EXPECTED)
    } finally {
      c.stop()
    }
  })
})
