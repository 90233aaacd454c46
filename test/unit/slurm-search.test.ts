// The search of the site's own Slurm settings (src/core/cluster/slurm-search.ts; docs/CLUSTER.md
// §Site settings as candidates): its space decoded by hand, which settings it moves on which
// scheduling, and the search on objectives whose best point is known by construction.
import { describe, expect, it } from 'vitest'
import { parseSlurmConf } from '../../src/core/cluster/config'
import { decodePoint, searchedSettings, slurmSearchSteps, type SlurmSearchRecord } from '../../src/core/cluster/slurm-search'
import type { SlurmChange } from '../../src/core/cluster/slurm-family'
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
