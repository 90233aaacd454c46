// Slurm's own settings as candidates (docs/CLUSTER.md §Site settings as candidates): which changes are
// tried from a configuration, how one is merged into the site's file, and read back from a result.
import { describe, expect, it } from 'vitest'
import { parseSlurmConf } from '../../src/core/cluster/config'
import { applySlurmChange, readSlurmChange, slurmChangeLabel, slurmFamily } from '../../src/core/cluster/slurm-family'

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
