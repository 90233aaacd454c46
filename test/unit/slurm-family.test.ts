// Slurm's own settings as candidates (docs/CLUSTER.md §Site settings as candidates): which changes are
// tried from a configuration, how one is merged into the site's file, and read back from a result.
import { describe, expect, it } from 'vitest'
import { parseSlurmConf } from '../../src/core/cluster/config'
import { applySlurmChange, factorSpread, readSlurmChange, slurmChangeLabel, slurmFamily } from '../../src/core/cluster/slurm-family'

const conf = (extra: string[]) => ['NodeName=n[1-4] CPUs=8', 'PartitionName=p Nodes=n[1-4] Default=YES', ...extra].join('\n') + '\n'
const scheduling = (extra: string[]) => parseSlurmConf(conf(extra), 'slurm.conf').scheduling

describe('the family of Slurm settings changes', () => {
  it('from 22.05 defaults (backfill, priority/basic): the backfill parameters halved and doubled, reserve 0 → 1; no weight (basic has none)', () => {
    // Defaults: bf_window 1440 min, bf_max_job_test 500, bf_interval 30 s, bf_job_part_count_reserve 0.
    expect(slurmFamily(scheduling([])).map(slurmChangeLabel)).toEqual([
      'bf_job_part_count_reserve=1', 'bf_window=720', 'bf_window=2880', 'bf_max_job_test=250', 'bf_max_job_test=1000', 'bf_interval=15', 'bf_interval=60',
    ])
  })

  it('multifactor: a weight is doubled only where it acts (age and fair-share need slurmdbd); PriorityMaxAge with the age weight', () => {
    const plain = slurmFamily(scheduling(['PriorityType=priority/multifactor', 'PriorityWeightAge=1000', 'PriorityWeightJobSize=50'])).map(slurmChangeLabel)
    expect(plain).toContain('PriorityWeightJobSize=100')
    expect(plain.some((l) => l.startsWith('PriorityWeightAge') || l.startsWith('PriorityMaxAge'))).toBe(false)
    const dbd = slurmFamily(scheduling(['PriorityType=priority/multifactor', 'PriorityWeightAge=1000', 'PriorityMaxAge=7-0', 'AccountingStorageType=accounting_storage/slurmdbd'])).map(slurmChangeLabel)
    expect(dbd).toEqual(expect.arrayContaining(['PriorityWeightAge=2000', 'PriorityMaxAge=5040', 'PriorityMaxAge=20160']))
  })

  it('a weight whose factor is the same whole number for every job of the log is not tried: it adds the same to every priority', () => {
    // Partitions p (PriorityJobFactor 1: normalised 1/4) and q (4: normalised 1); QOS high (priority 10:
    // normalised 1) and low (5: 0.5) from --qos-priority.
    const text = ['NodeName=n[1-4] CPUs=8', 'PartitionName=p Nodes=n[1-4] Default=YES PriorityJobFactor=1', 'PartitionName=q Nodes=n[1-4] PriorityJobFactor=4',
      'PriorityType=priority/multifactor', 'PriorityWeightQOS=100', 'PriorityWeightPartition=100', 'PriorityWeightJobSize=10'].join('\n') + '\n'
    const c = parseSlurmConf(text, 'slurm.conf')
    const s = { ...c.scheduling, priority: { ...c.scheduling.priority, qosPriority: { high: 10, low: 5 } } }
    const qosNames = ['high', 'low', 'normal']
    const jobs = (partition: number[], qos: number[]) => ({ count: partition.length, partition: Int32Array.from(partition), qos: Int32Array.from(qos) })
    // No QOS in the log (-1) and all in q: QOS factor 0, partition factor 1 for every job: neither acts.
    expect(factorSpread(s, c.cluster, jobs([1, 1, 1], [-1, -1, -1]), qosNames)).toEqual({ qos: false, partition: false })
    // Every job in the top QOS (1) or in a QOS without a priority (0): still the same whole number.
    expect(factorSpread(s, c.cluster, jobs([1, 1], [0, 0]), qosNames).qos).toBe(false)
    expect(factorSpread(s, c.cluster, jobs([1, 1], [2, 2]), qosNames).qos).toBe(false)
    // One QOS below the top (0.5 for all): not a whole number, Slurm's truncation may break ties differently.
    expect(factorSpread(s, c.cluster, jobs([1, 1], [1, 1]), qosNames).qos).toBe(true)
    // Two QOS, two partitions: both act.
    expect(factorSpread(s, c.cluster, jobs([0, 1], [0, 1]), qosNames)).toEqual({ qos: true, partition: true })
    // All in p (1/4 each): not whole, acts.
    expect(factorSpread(s, c.cluster, jobs([0, 0], [-1, -1]), qosNames).partition).toBe(true)
    const labels = (spread: { qos: boolean; partition: boolean }) => slurmFamily(s, spread).map(slurmChangeLabel).filter((l) => l.startsWith('PriorityWeight'))
    expect(labels({ qos: false, partition: false })).toEqual(['PriorityWeightJobSize=20'])
    expect(labels({ qos: true, partition: true })).toEqual(['PriorityWeightJobSize=20', 'PriorityWeightPartition=200', 'PriorityWeightQOS=200'])
    // Without the log (no spread given), every weight is tried.
    expect(slurmFamily(s).map(slurmChangeLabel).filter((l) => l.startsWith('PriorityWeight'))).toHaveLength(3)
  })

  it('sched/builtin: no backfill parameter is tried (they change nothing there); bf_window is capped at Slurm\'s 30 days', () => {
    expect(slurmFamily(scheduling(['SchedulerType=sched/builtin']))).toEqual([])
    expect(slurmFamily(scheduling(['SchedulerParameters=bf_window=40000'])).map(slurmChangeLabel)).toContain('bf_window=43200')
  })

  it('merges one change into the file, keeping every other entry and line; the reader reads it back', () => {
    const text = conf(['SchedulerParameters=bf_continue,bf_window=2880', 'PriorityType=priority/multifactor', 'PriorityWeightQOS=10'])
    const m = applySlurmChange(text, { bf_interval: 15, PriorityWeightQOS: 20 })
    expect(m.text).toMatch(/^SchedulerParameters=bf_continue,bf_window=2880,bf_interval=15 {2}# EasyTune: was SchedulerParameters=bf_continue,bf_window=2880$/m)
    expect(m.text).toMatch(/^PriorityWeightQOS=20 {2}# EasyTune: was PriorityWeightQOS=10$/m)
    expect(m.text).toContain('NodeName=n[1-4] CPUs=8')
    const s = parseSlurmConf(m.text, 'merged').scheduling
    expect(s.bf.interval).toBe(15)
    expect(s.bf.window).toBe(2880 * 60)
    expect(s.bf.continue).toBe(true)
    expect(s.priority.weightQos).toBe(20)
  })

  it('reads a change from an untrusted result: known settings, whole numbers in range, nothing else', () => {
    expect(readSlurmChange(undefined)).toBeNull()
    expect(readSlurmChange({ bf_window: 2880 })).toEqual({ bf_window: 2880 })
    for (const bad of [{ bf_window: 2.5 }, { bf_window: -1 }, { bf_window: 1e9 }, { JobSubmitPlugins: 1 }, { bf_window: '2880' }, {}, [], 'x']) {
      expect(() => readSlurmChange(bad), JSON.stringify(bad)).toThrow()
    }
  })
})
