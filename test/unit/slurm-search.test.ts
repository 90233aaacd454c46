// The search of the site's own Slurm settings (src/core/cluster/slurm-search.ts; docs/CLUSTER.md
// §Site settings as candidates): its space decoded by hand, which settings it moves on which
// scheduling, and the search on objectives whose best point is known by construction.
import { describe, expect, it } from 'vitest'
import { parseSlurmConf } from '../../src/core/cluster/config'
import { decodePoint, searchedSettings, slurmSearchSteps, type SlurmSearchRecord } from '../../src/core/cluster/slurm-search'
import { applySlurmChange, type SlurmChange } from '../../src/core/cluster/slurm-family'
import { simulateCluster } from '../../src/core/cluster/simulate'
import type { ClusterJobs } from '../../src/core/cluster/types'
import { runSteps } from '../../src/core/tune/mixed'

const NODES = 'NodeName=n[1-4] CPUs=4\nPartitionName=p Nodes=n[1-4] Default=YES\n'
const scheduling = (lines: string[]) => parseSlurmConf(lines.join('\n') + '\n' + NODES, 'site.conf').scheduling
// Backfill with bf_window 60 min, bf_max_job_test 100, bf_interval 30 s, reserve 0; multifactor
// with a QOS weight (acts without slurmdbd) and an age weight (needs slurmdbd: not searched).
const SITE = scheduling([
  'SchedulerType=sched/backfill', 'SchedulerParameters=bf_window=60,bf_max_job_test=100,bf_interval=30',
  'PriorityType=priority/multifactor', 'PriorityWeightQOS=1000', 'PriorityWeightAge=500',
])

describe('the space of the search', () => {
  it('moves the settings that act on this scheduling, in slurm-family order', () => {
    expect(searchedSettings(SITE)).toEqual(['bf_job_part_count_reserve', 'bf_window', 'bf_max_job_test', 'bf_interval', 'PriorityWeightQOS'])
    // On a log whose jobs all have the same QOS factor the QOS weight acts on nothing: not a coordinate.
    expect(searchedSettings(SITE, { qos: false, partition: true })).toEqual(['bf_job_part_count_reserve', 'bf_window', 'bf_max_job_test', 'bf_interval'])
    // sched/builtin has no backfill cycle; FIFO priority has no weights: nothing to search.
    expect(searchedSettings(scheduling(['SchedulerType=sched/builtin']))).toEqual([])
  })

  it('decodes a point: 0 is today, +1 doubles, −1 halves, a reservation count moves by one, within ±2 doublings and the bounds', () => {
    const s = searchedSettings(SITE)
    expect(decodePoint(SITE, s, [0, 0, 0, 0, 0])).toBeNull()
    // Rounded to whole units, small moves are today's values: 0.4 reservations → 0, 60·2^0.01 = 60.4 min → 60,
    // 100·2^−0.005 = 99.7 → 100, 30·2^0.01 = 30.2 s → 30, 1000·2^0.0001 → 1000.
    expect(decodePoint(SITE, s, [0.4, 0.01, -0.005, 0.01, 0.0001])).toBeNull()
    expect(decodePoint(SITE, s, [0, 0.2, 0, 0, 0])).toEqual({ bf_window: 69 }) // 60·2^0.2 = 68.9
    expect(decodePoint(SITE, s, [0, 1, -1, 0, 1])).toEqual({ bf_window: 120, bf_max_job_test: 50, PriorityWeightQOS: 2000 })
    expect(decodePoint(SITE, s, [1, 0, 0, 0, 0])).toEqual({ bf_job_part_count_reserve: 1 })
    expect(decodePoint(SITE, s, [-3, 0, 0, 0, 0])).toBeNull() // 0 − 2 clamps to the bound 0: today's
    // Beyond the span: 60 min × 2^2 at most, 30 s ÷ 2^2 = 7.5 → 8 at least.
    expect(decodePoint(SITE, s, [0, 9, 0, -9, 0])).toEqual({ bf_window: 240, bf_interval: 8 })
    expect(decodePoint(SITE, s, [0, Number.NaN, 0, Infinity, 0])).toBeNull() // a point XNES cannot give counts as today
  })
})

/** The search answered in this process by an objective of the change (null = today). */
function search(objective: (c: SlurmChange | null) => number, budget: number, seed = 1): { record: SlurmSearchRecord; asked: (SlurmChange | null)[] } {
  const asked: (SlurmChange | null)[] = []
  const record = runSteps(slurmSearchSteps(SITE, { budget, seed }), (batch) => { asked.push(...batch); return batch.map(objective) })
  return { record, asked }
}

describe('the search', () => {
  // A wait that falls as bf_window grows (a longer window sees the blocked job): the best reachable
  // point has the longest window, 240 min; everything else is indifferent.
  const longerWindowIsBetter = (c: SlurmChange | null) => 1000 - (c?.bf_window ?? 60)

  it('starts from today\'s configuration and finds a better window within its budget; its trace never rises', () => {
    const { record, asked } = search(longerWindowIsBetter, 24)
    expect(asked[0]).toBeNull() // today's configuration first
    expect(record.currentObjective).toBe(940)
    expect(record.best?.bf_window).toBeGreaterThan(60)
    expect(record.bestObjective).toBe(1000 - record.best!.bf_window!)
    expect(record.evaluations).toBeLessThanOrEqual(24)
    expect(record.trace[0]).toBe(940)
    for (let i = 1; i < record.trace.length; i++) expect(record.trace[i]).toBeLessThanOrEqual(record.trace[i - 1])
    // Each distinct change was asked for once (the caller simulates it once).
    const labels = asked.map((c) => JSON.stringify(c))
    expect(new Set(labels).size).toBe(labels.length)
    expect(record.simulations).toBe(asked.length)
  })

  it('keeps today\'s configuration when nothing is strictly better (a change must earn its place)', () => {
    const { record } = search(() => 5, 24)
    expect(record.best).toBeNull()
    expect(record.bestObjective).toBe(5)
  })

  it('is the same for the same seed, another for another seed, and a budget of 1 evaluates today only', () => {
    expect(search(longerWindowIsBetter, 24, 7).record).toEqual(search(longerWindowIsBetter, 24, 7).record)
    expect(search(longerWindowIsBetter, 24, 7).asked).not.toEqual(search(longerWindowIsBetter, 24, 8).asked)
    const one = search(longerWindowIsBetter, 1)
    expect(one.asked).toEqual([null])
    expect(one.record.best).toBeNull()
    expect(() => search(longerWindowIsBetter, 0)).toThrow(/budget/)
  })
})

describe('the search on the simulator: a case whose best settings are known by construction', () => {
  // One partition of 4 one-CPU nodes, Slurm's backfill testing at most 2 queued jobs per cycle,
  // reserving for every tested job, over a one-day window. A runs on 3 CPUs for 1000 s; B, C1, C2,
  // C3 need all 4 (blocked behind A: the main scheduler stops the partition at B); D needs 1 CPU for
  // 100 s and is 5th in the queue. It fits now in the free CPU and ends long before A, so a backfill
  // cycle that tests it starts it at once. B and C1 both reach the will-run test (each gets a
  // reservation), which is what bf_max_job_test counts: with 2 tests the cycle stops before D,
  // whatever the interval or the window, and D waits behind the four 1000-s jobs; with 5 tests or
  // more (more than the jobs ahead of it) the cycle surely reaches D. (With 3 or 4 it depends on
  // whether C2 and C3 are planned too: the node space holds bf_max_job_test slots.) Reserving for
  // the first blocked job only (bf_job_part_count_reserve=1) also reaches D: C1…C3 are then tested
  // for "now" only and, B's reservation holding every node, are not counted. So every change better
  // than today's tests 3 jobs or more (the span reaches 2 × 2² = 8) or reserves for one job.
  const conf = [
    'NodeName=n[1-4] CPUs=1', 'PartitionName=p Nodes=n[1-4] Default=YES MaxTime=INFINITE', 'SelectType=select/cons_tres', 'SelectTypeParameters=CR_CPU',
    'SchedulerType=sched/backfill', 'SchedulerParameters=bf_max_job_test=2,bf_interval=30,bf_window=1440', '',
  ].join('\n')
  const base = parseSlurmConf(conf, 'site.conf')
  //          A     B     C1    C2    C3    D
  const procs = [3, 4, 4, 4, 4, 1]
  const runtime = [1000, 1000, 1000, 1000, 1000, 100]
  const n = procs.length
  const jobs: ClusterJobs = {
    count: n, submit: Float64Array.from([0, 1, 2, 3, 4, 5]), runtime: Float64Array.from(runtime), requested: Float64Array.from(runtime, (r) => r + 60),
    procs: Int32Array.from(procs), partition: new Int32Array(n), nodes: new Int32Array(n), memPerNode: new Float64Array(n), gpusPerNode: new Int32Array(n),
    exclusive: new Uint8Array(n), user: new Int32Array(n), account: new Int32Array(n), qos: new Int32Array(n).fill(-1), eligible: Float64Array.from([0, 1, 2, 3, 4, 5]),
  }
  /** Mean wait (s) of the jobs under the configuration with the change merged in, as the campaign simulates a candidate. */
  const meanWait = (c: SlurmChange | null) => {
    const s = parseSlurmConf(c === null ? conf : applySlurmChange(conf, c).text, 'site.conf')
    const run = simulateCluster(jobs, s.cluster, { kind: 'slurm', scheduling: s.scheduling })
    let sum = 0
    for (let j = 0; j < n; j++) sum += run.start[j] - jobs.submit[j]
    return sum / n
  }

  it('D waits behind the 1000-s jobs with 2 tests per cycle, whatever the interval and window, and starts in the first cycle with 5 or with one reservation (the construction holds)', () => {
    const waitOfD = (c: SlurmChange | null) => {
      const s = parseSlurmConf(c === null ? conf : applySlurmChange(conf, c).text, 'site.conf')
      return simulateCluster(jobs, s.cluster, { kind: 'slurm', scheduling: s.scheduling }).start[5] - 5
    }
    expect(waitOfD(null)).toBeGreaterThan(1000)
    expect(waitOfD({ bf_interval: 8, bf_window: 360 })).toBeGreaterThan(1000)
    expect(waitOfD({ bf_max_job_test: 2, bf_interval: 120, bf_window: 5760 })).toBeGreaterThan(1000)
    expect(waitOfD({ bf_max_job_test: 5 })).toBeLessThanOrEqual(30)
    expect(waitOfD({ bf_job_part_count_reserve: 1 })).toBeLessThanOrEqual(30)
  })

  it('finds a change better than today\'s, and it tests more jobs per cycle or reserves for one', () => {
    const record = runSteps(slurmSearchSteps(base.scheduling, { budget: 24, seed: 1 }), (batch) => batch.map(meanWait))
    expect(record.settings).toContain('bf_max_job_test')
    expect(record.currentObjective).toBe(meanWait(null))
    expect(record.best).not.toBeNull()
    expect(record.bestObjective).toBeLessThan(record.currentObjective)
    const best = record.best!
    expect((best.bf_max_job_test ?? 2) >= 3 || (best.bf_job_part_count_reserve ?? 0) >= 1, JSON.stringify(best)).toBe(true)
    expect(record.bestObjective).toBe(meanWait(record.best))
  })
})
