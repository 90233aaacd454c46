// Reading the machine and Slurm's scheduling from cluster files, and inferring the machine from a
// log (src/core/cluster/config, docs/CLUSTER.md §Configuration files, §Inferred machine). Every
// expected value is worked by hand from the fixture text (test/fixtures/slurm/site-tigris.conf,
// its gres.conf, scontrol-nodes-partitions.txt, the loopback configs of the Slurm test recipe, and
// the merge tests' site file test/slurm/site-conf.ts), never
// pasted from the program's output.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  ClusterConfigError, defaultScheduling, detectConfigKind, inferCluster, parseScontrol, parseSlurmConf,
  SLURM_DEFAULTS, SLURM_DEFAULTS_VERSION,
} from '../../src/core/cluster/config/index'
import type { NodeSpec, PartitionSpec } from '../../src/core/cluster/types'
import { fixture } from '../support/data'
import { siteConf } from '../slurm/site-conf'

const read = (rel: string): string => readFileSync(fixture(rel), 'utf8')
const DAY = 86_400
const range = (a: number, b: number): number[] => Array.from({ length: b - a + 1 }, (_, i) => a + i)
const node = (name: string, cpus: number, threadsPerCore: number, memMB: number, gpus: number, weight: number): NodeSpec => ({ name, cpus, threadsPerCore, memMB, gpus, weight })
const part = (p: Partial<PartitionSpec> & { name: string; nodes: number[] }): PartitionSpec => ({
  maxTime: null, defaultTime: null, priorityTier: 1, priorityJobFactor: 1, overSubscribe: 'NO', isDefault: false,
  defMemPerCpu: null, defMemPerNode: null, state: 'UP', ...p,
})
/** A minimal slurm.conf around some lines. */
const conf = (...lines: string[]): string => ['NodeName=n[1-2] CPUs=4', 'PartitionName=p Nodes=ALL Default=YES', ...lines].join('\n')

describe('slurm.conf of a real-looking site (tigris)', () => {
  const text = read('slurm/site-tigris.conf')
  const { cluster, scheduling } = parseSlurmConf(text, 'site-tigris.conf')

  it('expands the NodeName lines in file order, NodeName=DEFAULT applying to the lines after it', () => {
    // c001–c096: 2 sockets × 16 cores × 2 threads = 64 CPUs; g*: 2 × 24 × 1 = 48 (g05–06 say CPUs=48).
    expect(cluster.nodes).toHaveLength(96 + 6)
    expect(cluster.nodes[0]).toEqual(node('c001', 64, 2, 256000, 0, 10))
    expect(cluster.nodes[63]).toEqual(node('c064', 64, 2, 256000, 0, 10))
    expect(cluster.nodes[64]).toEqual(node('c065', 64, 2, 512000, 0, 20))
    expect(cluster.nodes[95]).toEqual(node('c096', 64, 2, 512000, 0, 20))
    expect(cluster.nodes.slice(96)).toEqual([
      node('g01', 48, 1, 512000, 4, 50), node('g02', 48, 1, 512000, 4, 50), node('g03', 48, 1, 512000, 4, 50), node('g04', 48, 1, 512000, 4, 50),
      // gpu:v100:2,gpu:t4:1 → 3 GPUs; the "\" continuation carries Weight=50
      node('g05', 48, 1, 512000, 3, 50), node('g06', 48, 1, 512000, 3, 50),
    ])
  })

  it('reads the partitions with PartitionName=DEFAULT, Slurm time formats and node sharing', () => {
    expect(cluster.partitions).toEqual([
      part({ name: 'batch', nodes: range(0, 95), maxTime: 3 * DAY, defaultTime: 3600, priorityJobFactor: 10, isDefault: true }),
      part({ name: 'bigmem', nodes: range(64, 95), maxTime: 7 * DAY, defaultTime: 3600, priorityJobFactor: 20, defMemPerCpu: 15000 }),
      part({ name: 'gpu', nodes: range(96, 101), maxTime: 2 * DAY, defaultTime: 3600, priorityTier: 2, overSubscribe: 'FORCE' }),
      part({ name: 'debug', nodes: [0, 1, 2, 3, 96], maxTime: 30 * 60, defaultTime: 10 * 60, priorityTier: 10, priorityJobFactor: 100, overSubscribe: 'EXCLUSIVE' }),
      part({ name: 'long', nodes: range(0, 31), maxTime: null, defaultTime: 2 * DAY, state: 'DRAIN' }),
    ])
  })

  it('reads the allocation rules and the cluster memory default', () => {
    expect(cluster.select).toEqual({ type: 'cons_tres', unit: 'core', memory: true })
    expect(cluster.defMemPerCpu).toBe(3900)
    expect(cluster.defMemPerNode).toBeNull()
    expect(cluster.source).toEqual({ kind: 'slurm.conf', file: 'site-tigris.conf' })
  })

  it('reads SchedulerParameters: bf_window in minutes stored in seconds, the rest at their defaults', () => {
    expect(scheduling.schedulerType).toBe('backfill')
    expect(scheduling.sched).toEqual({ interval: 60, defaultQueueDepth: 200, partitionJobDepth: 0, maxJobStart: 0 })
    expect(scheduling.bf).toEqual({
      interval: 30, window: 2880 * 60, resolution: 300, maxJobTest: 500, maxJobStart: 0, maxJobUser: 20,
      maxJobPart: 0, jobPartCountReserve: 1, minAgeReserve: 0, continue: true,
    })
    // the continuation joined the two physical lines; unknown entries stay in the raw string
    expect(scheduling.schedulerParameters).toBe('bf_window=2880,bf_job_part_count_reserve=1,default_queue_depth=200,bf_resolution=300,bf_max_job_user=20,bf_continue,batch_sched_delay=10,max_rpc_cnt=150')
  })

  it('reads the priority settings with their units', () => {
    expect(scheduling.priority).toEqual({
      type: 'multifactor',
      weightAge: 10000, weightFairshare: 100000, weightJobSize: 1000, weightPartition: 5000, weightQos: 20000, weightAssoc: 0,
      weightTres: { cpu: 1000, mem: 0.5, 'gres/gpu': 3000 },
      maxAge: (2 * 1440 + 12 * 60) * 60, // 2-12 = 2 days 12 hours
      decayHalfLife: 14 * DAY,
      calcPeriod: 10 * 60, // minutes
      favorSmall: false,
      fairTree: true,
      flags: ['SMALL_RELATIVE_TO_TIME', 'NO_NORMAL_TRES'],
      dampeningFactor: 5,
      qosPriority: {},
      accounting: true,
    })
  })

  it('notes what it does not follow or simulate, in plain words', () => {
    const notes = cluster.notes.join('\n')
    expect(notes).toMatch(/Include \/etc\/slurm\/auth\.conf \(line 6\) was not followed/)
    expect(notes).toMatch(/Include \/etc\/slurm\/partitions-extra\.conf \(line 59\) was not followed/)
    expect(notes).toMatch(/Features= \(jobs' constraints \(sbatch -C\) are not simulated/)
    expect(notes).toMatch(/Partition gpu: OverSubscribe=FORCE:1: the job count per core is not simulated/)
    expect(notes).toMatch(/Partition long: not simulated: AllowAccounts/)
    expect(notes).not.toMatch(/Preemption/) // PreemptType=preempt/none changes nothing
    expect(notes).not.toMatch(/SelectType is not set/)
  })

  it('keeps the text for the export', () => {
    expect(parseSlurmConf(text, 'x').text).toBe(text)
  })

  it('gres.conf replaces the GPU counts of the nodes it names, and only those', () => {
    const gres = { text: read('slurm/site-tigris-gres.conf'), file: 'gres.conf' }
    const withGres = parseSlurmConf(text, 'site-tigris.conf', gres).cluster
    // g01–g04: File=/dev/nvidia[0-3] = 4 each; g05: 2 v100 + 1 t4 on two lines = 3; g06: Count=1 (slurm.conf said 3)
    expect(withGres.nodes.slice(96).map((n) => n.gpus)).toEqual([4, 4, 4, 4, 3, 1])
    expect(withGres.nodes.slice(0, 96).every((n) => n.gpus === 0)).toBe(true)
    expect(withGres.source).toEqual({ kind: 'slurm.conf', file: 'site-tigris.conf', gresFile: 'gres.conf' })
    expect(withGres.notes.join('\n')).toMatch(/gres\.conf: GPU-to-core binding \(Cores=\) is not simulated/)
  })

  it('gres.conf lines without NodeName apply to the nodes slurm.conf gives GPUs; unknown nodes are noted', () => {
    const text = 'NodeName=c[1-2] CPUs=4\nNodeName=g[1-2] CPUs=8 Gres=gpu:1\nPartitionName=p Nodes=ALL'
    const c = parseSlurmConf(text, 'a.conf', { text: 'Name=gpu File=/dev/nvidia0,/dev/nvidia1\nNodeName=zz9 Name=gpu Count=2\nName=mps Count=100', file: 'g.conf' }).cluster
    expect(c.nodes.map((n) => n.gpus)).toEqual([0, 0, 2, 2])
    expect(c.notes.join('\n')).toMatch(/g\.conf names 1 node\(s\) that slurm\.conf does not declare \(e\.g\. zz9\)/)
    const none = parseSlurmConf(conf(), 'a.conf', { text: 'Name=gpu Count=4', file: 'g.conf' }).cluster
    expect(none.nodes.map((n) => n.gpus)).toEqual([0, 0])
    expect(none.notes.join('\n')).toMatch(/g\.conf line 1 has no NodeName= and no node declares GPUs/)
  })
  it('gres.conf Count with a K suffix, and several types on one node add up', () => {
    const text = 'NodeName=g1 CPUs=8 Gres=gpu:1\nPartitionName=p Nodes=ALL'
    const c = parseSlurmConf(text, 'a.conf', { text: 'NodeName=g1 Name=gpu Type=a Count=2\nNodeName=g1 Name=gpu Type=b Count=1k', file: 'g.conf' }).cluster
    expect(c.nodes[0].gpus).toBe(2 + 1024)
  })
})

describe('the loopback configurations of the Slurm test recipe (test/fixtures/README.md)', () => {
  it('the 16-node multi-node configuration', () => {
    const { cluster, scheduling } = parseSlurmConf(read('slurm/loopback-multi.conf'), 'etc-multi/slurm.conf')
    expect(cluster.nodes).toHaveLength(16)
    expect(cluster.nodes[0]).toEqual(node('n01', 4, 1, 1000, 0, 1))
    expect(cluster.nodes[15].name).toBe('n16')
    expect(cluster.partitions).toEqual([part({ name: 'main', nodes: range(0, 15), maxTime: null, defaultTime: 600, isDefault: true })])
    expect(cluster.select).toEqual({ type: 'cons_tres', unit: 'cpu', memory: false })
    expect(scheduling.bf.interval).toBe(1)
    expect(scheduling.bf.resolution).toBe(1)
    expect(scheduling.sched.interval).toBe(1) // sched_interval=1, not confused with sched_min_interval=0
    expect(scheduling.bf.continue).toBe(true)
    expect(scheduling.priority.type).toBe('multifactor')
    expect(scheduling.priority.calcPeriod).toBe(60)
    expect(scheduling.priority.maxAge).toBe(DAY)
    expect(scheduling.priority.accounting).toBe(false)
    const notes = cluster.notes.join('\n')
    expect(notes).toMatch(/Include \$RUN_DIR\/etc\/auth\.conf \(line 9\)/)
    expect(notes).toMatch(/Include \$RUN_DIR\/etc\/prio\.conf \(line 40\)/)
  })

  it('Include lines are followed when the caller gives the files (the prio.conf of the jobsize profile)', () => {
    const files: Record<string, string> = {
      '$RUN_DIR/etc/auth.conf': 'AuthType=auth/none\nCredType=cred/none\n',
      '$RUN_DIR/etc/prio.conf': '# jobsize / waves\nPriorityWeightJobSize=100000\nPriorityFavorSmall=YES\nPriorityWeightAge=1000          # ignored without slurmdbd (see above)\n',
    }
    const asked: string[] = []
    const { cluster, scheduling } = parseSlurmConf(read('slurm/loopback-multi.conf'), 'slurm.conf', undefined, (path) => {
      asked.push(path)
      return path in files ? { text: files[path], file: path.replace('$RUN_DIR/etc/', '') } : null
    })
    expect(asked).toEqual(['$RUN_DIR/etc/auth.conf', '$RUN_DIR/etc/prio.conf'])
    expect(scheduling.priority).toMatchObject({ weightJobSize: 100000, favorSmall: true, weightAge: 1000, accounting: false })
    expect(cluster.notes.join('\n')).not.toMatch(/was not followed/)
    // a setting of an included file is named with its file in notes
    expect(cluster.notes.join('\n')).toMatch(/PriorityWeightAge=1000 and PriorityWeightFairshare=0 are set, but AccountingStorageType is not/)
  })

  it('the single-node configuration', () => {
    const { cluster } = parseSlurmConf(read('slurm/loopback-single.conf'), 'etc/slurm.conf')
    expect(cluster.nodes).toEqual([node('localhost', 64, 1, 1000, 0, 1)])
    expect(cluster.partitions[0].nodes).toEqual([0])
  })
})

describe('the merge tests\' site file (test/slurm/site-conf.ts)', () => {
  it('reads its nodes, partitions and scheduling (mixed-case keys, continued SchedulerParameters)', () => {
    const { cluster, scheduling } = parseSlurmConf(siteConf({ dir: '/srv/slurm', ctldPort: 6817, nodePorts: [6818, 6819] }), 'site.conf')
    expect(cluster.nodes).toEqual([node('n01', 1, 1, 1000, 0, 1), node('n02', 1, 1, 1000, 0, 1)])
    expect(cluster.partitions).toEqual([
      part({ name: 'short', nodes: [0, 1], maxTime: 2 * DAY, defaultTime: 600, isDefault: true }),
      part({ name: 'long', nodes: [0, 1], maxTime: 4 * DAY, defaultTime: 3600 }),
    ])
    expect(cluster.select).toEqual({ type: 'cons_tres', unit: 'cpu', memory: false })
    // bf_interval=30,bf_window=1440,default_queue_depth=200,\ + bf_max_job_test=5000,bf_resolution=120
    expect(scheduling.bf).toMatchObject({ interval: 30, window: 1440 * 60, maxJobTest: 5000, resolution: 120 })
    expect(scheduling.sched.defaultQueueDepth).toBe(200)
    expect(scheduling.priority).toMatchObject({
      type: 'multifactor', weightFairshare: 100000, weightQos: 20000, weightAssoc: 0, weightPartition: 1000, weightAge: 1000,
      weightJobSize: 500, maxAge: 14 * DAY, decayHalfLife: 7 * DAY, flags: ['SMALL_RELATIVE_TO_TIME', 'CALCULATE_RUNNING'], accounting: false,
    })
  })
})

describe('Slurm 22.05 defaults', () => {
  it('a slurm.conf that sets nothing gets 22.05\'s values', () => {
    const { cluster, scheduling } = parseSlurmConf('NodeName=n1\nPartitionName=p Nodes=n1', 'min.conf')
    expect(SLURM_DEFAULTS_VERSION).toBe('22.05')
    // NodeName with nothing: 1 CPU, RealMemory 1 MB, Weight 1
    expect(cluster.nodes).toEqual([node('n1', 1, 1, 1, 0, 1)])
    expect(cluster.partitions).toEqual([part({ name: 'p', nodes: [0] })])
    expect(cluster.select).toEqual({ type: 'linear', unit: 'cpu', memory: false }) // select/linear in 22.05
    expect(cluster.notes.join('\n')).toMatch(/SelectType is not set: Slurm 22\.05's default select\/linear/)
    expect(scheduling.schedulerType).toBe('backfill')
    expect(scheduling.sched).toEqual({ interval: 60, defaultQueueDepth: 100, partitionJobDepth: 0, maxJobStart: 0 })
    expect(scheduling.bf).toEqual({
      interval: 30, window: 1440 * 60, resolution: 60, maxJobTest: 500, maxJobStart: 0, maxJobUser: 0, maxJobPart: 0,
      jobPartCountReserve: 0, minAgeReserve: 0, continue: false,
    })
    const p = scheduling.priority
    expect(p.type).toBe('basic')
    expect([p.weightAge, p.weightFairshare, p.weightJobSize, p.weightPartition, p.weightQos, p.weightAssoc]).toEqual([0, 0, 0, 0, 0, 0])
    expect(p.weightTres).toEqual({})
    expect(p.calcPeriod).toBe(5 * 60)
    expect(p.maxAge).toBe(7 * DAY)
    expect(p.decayHalfLife).toBe(7 * DAY)
    expect([p.favorSmall, p.fairTree, p.dampeningFactor, p.accounting]).toEqual([false, true, 1, false])
    expect(scheduling.schedulerParameters).toBe('')
  })

  it('defaultScheduling() is the same table', () => {
    expect(parseSlurmConf('NodeName=n1\nPartitionName=p Nodes=n1', 'min.conf').scheduling).toEqual(defaultScheduling())
  })

  it('every default says why', () => {
    for (const [k, v] of Object.entries(SLURM_DEFAULTS)) expect(v.why.length, k).toBeGreaterThan(10)
  })

  it('cons_tres without SelectTypeParameters is CR_Core_Memory', () => {
    expect(parseSlurmConf(conf('SelectType=select/cons_tres'), 'a').cluster.select).toEqual({ type: 'cons_tres', unit: 'core', memory: true })
    expect(parseSlurmConf(conf('SelectType=select/cons_res'), 'a').cluster.select).toEqual({ type: 'cons_tres', unit: 'core', memory: true })
  })
})

describe('Slurm times', () => {
  const maxTime = (v: string): number | null => parseSlurmConf(conf(`PartitionName=q Nodes=n1 MaxTime=${v}`), 'a').cluster.partitions[1].maxTime
  it('reads every format Slurm takes, in whole minutes (seconds round up)', () => {
    expect(maxTime('90')).toBe(90 * 60) // minutes
    expect(maxTime('1:30')).toBe(2 * 60) // MM:SS: 90 s is 2 minutes for Slurm
    expect(maxTime('2:00')).toBe(2 * 60)
    expect(maxTime('01:30:00')).toBe(90 * 60) // HH:MM:SS
    expect(maxTime('2-6')).toBe(2 * DAY + 6 * 3600) // D-HH
    expect(maxTime('2-06:30')).toBe(2 * DAY + 6 * 3600 + 30 * 60) // D-HH:MM
    expect(maxTime('2-06:30:15')).toBe(2 * DAY + 6 * 3600 + 31 * 60) // D-HH:MM:SS, 15 s round up
    expect(maxTime('UNLIMITED')).toBeNull()
    expect(maxTime('infinite')).toBeNull()
  })
  it('refuses what is not a time, naming the file and line', () => {
    for (const bad of ['1:2:3:4', '-5', 'abc', '1.5', '2-']) {
      expect(() => maxTime(bad), bad).toThrow(ClusterConfigError)
      expect(() => maxTime(bad), bad).toThrow(/^a line 3: MaxTime=/)
    }
  })
  it('PriorityMaxAge and PriorityDecayHalfLife take the same formats; PriorityCalcPeriod is in minutes', () => {
    const pr = (line: string) => parseSlurmConf(conf(line), 'a').scheduling.priority
    expect(pr('PriorityMaxAge=7-0').maxAge).toBe(7 * DAY)
    expect(pr('PriorityMaxAge=30').maxAge).toBe(30 * 60)
    expect(pr('PriorityMaxAge=12:00:00').maxAge).toBe(12 * 3600)
    expect(pr('PriorityDecayHalfLife=0').decayHalfLife).toBe(0)
    expect(pr('PriorityDecayHalfLife=1-0').decayHalfLife).toBe(DAY)
    expect(pr('PriorityCalcPeriod=1').calcPeriod).toBe(60)
    expect(pr('PriorityCalcPeriod=1:00:00').calcPeriod).toBe(3600)
    expect(() => pr('PriorityCalcPeriod=0')).toThrow(/line 3: PriorityCalcPeriod="0" is below 1 minute/)
    expect(() => pr('PriorityMaxAge=UNLIMITED')).toThrow(/line 3: PriorityMaxAge/)
  })
})

describe('SchedulerParameters as Slurm reads them', () => {
  const sched = (v: string) => parseSlurmConf(conf(`SchedulerParameters=${v}`), 'a')
  it('case-insensitive substring search: the first occurrence counts', () => {
    expect(sched('BF_WINDOW=10').scheduling.bf.window).toBe(600)
    expect(sched('bf_window=60,bf_window=120').scheduling.bf.window).toBe(3600)
    expect(sched('Bf_Continue').scheduling.bf.continue).toBe(true)
  })
  it('reads every modelled parameter with its unit', () => {
    const s = sched('bf_interval=45,bf_window=600,bf_resolution=120,bf_max_job_test=1000,bf_max_job_start=50,bf_max_job_user=7,bf_max_job_part=30,bf_job_part_count_reserve=2,bf_min_age_reserve=600,sched_interval=20,default_queue_depth=50,partition_job_depth=10,sched_max_job_start=25').scheduling
    expect(s.bf).toEqual({ interval: 45, window: 600 * 60, resolution: 120, maxJobTest: 1000, maxJobStart: 50, maxJobUser: 7, maxJobPart: 30, jobPartCountReserve: 2, minAgeReserve: 600, continue: false })
    expect(s.sched).toEqual({ interval: 20, defaultQueueDepth: 50, partitionJobDepth: 10, maxJobStart: 25 })
  })
  it('bf_max_job_user= is not read from bf_max_job_user_part=, nor bf_window= from bf_window_linear=', () => {
    const s = sched('bf_max_job_user_part=5,bf_window_linear=30').scheduling
    expect(s.bf.maxJobUser).toBe(0)
    expect(s.bf.window).toBe(1440 * 60)
  })
  it('bf_interval=-1 disables backfill; an invalid value keeps the default with a note, as Slurm does', () => {
    expect(sched('bf_interval=-1').scheduling.bf.interval).toBe(-1)
    const bad = sched('bf_window=0,bf_resolution=abc')
    expect(bad.scheduling.bf.window).toBe(1440 * 60)
    expect(bad.scheduling.bf.resolution).toBe(60)
    expect(bad.cluster.notes.join('\n')).toMatch(/bf_window=0 is not valid .* keeps its default 1440 minutes/)
  })
  it('values outside Slurm\'s ranges keep the default (backfill.c _load_config())', () => {
    expect(sched('bf_window=43200').scheduling.bf.window).toBe(30 * DAY) // the largest: 30 days
    expect(sched('bf_window=43201').scheduling.bf.window).toBe(DAY)
    expect(sched('bf_resolution=3600').scheduling.bf.resolution).toBe(3600)
    expect(sched('bf_resolution=3601').scheduling.bf.resolution).toBe(60)
    expect(sched('bf_interval=10801').scheduling.bf.interval).toBe(30)
    expect(sched('bf_max_job_test=1000001').scheduling.bf.maxJobTest).toBe(500)
    expect(sched('bf_max_job_start=10001').scheduling.bf.maxJobStart).toBe(0)
    expect(sched('bf_job_part_count_reserve=-1').scheduling.bf.jobPartCountReserve).toBe(0)
    expect(sched('bf_min_age_reserve=2592001').scheduling.bf.minAgeReserve).toBe(0)
    expect(sched('default_queue_depth=-5').scheduling.sched.defaultQueueDepth).toBe(100)
    expect(sched('sched_interval=-2').scheduling.sched.interval).toBe(60)
  })
  it('sched_interval=-1 (no main scheduler) is kept; atoi reads leading digits only', () => {
    expect(sched('sched_interval=-1').scheduling.sched.interval).toBe(-1)
    expect(sched('bf_max_job_test=200jobs').scheduling.bf.maxJobTest).toBe(200)
  })
  it('bf_max_job_assoc makes Slurm ignore bf_max_job_user; parameters not simulated are noted', () => {
    const c = sched('bf_max_job_user=3,bf_max_job_assoc=5,bf_busy_nodes')
    expect(c.scheduling.bf.maxJobUser).toBe(0)
    expect(c.cluster.notes.join('\n')).toMatch(/SchedulerParameters not simulated: bf_max_job_assoc .*; bf_busy_nodes .*\(line 3\)/)
    expect(sched('bf_max_job_user=3').scheduling.bf.maxJobUser).toBe(3)
  })
  it('SchedulerType=sched/builtin', () => {
    expect(parseSlurmConf(conf('SchedulerType=sched/builtin'), 'a').scheduling.schedulerType).toBe('builtin')
  })
})

describe('priority settings', () => {
  const pr = (...lines: string[]) => parseSlurmConf(conf(...lines), 'a')
  it('PriorityFlags: Fair Tree unless NO_FAIR_TREE or DEPTH_OBLIVIOUS; flags upper case', () => {
    expect(pr('PriorityFlags=no_fair_tree,INCR_ONLY').scheduling.priority).toMatchObject({ fairTree: false, flags: ['NO_FAIR_TREE', 'INCR_ONLY'] })
    expect(pr('PriorityFlags=DEPTH_OBLIVIOUS').scheduling.priority.fairTree).toBe(false)
    expect(pr('PriorityFlags=ACCRUE_ALWAYS,NO_NORMAL_PART').scheduling.priority).toMatchObject({ fairTree: true, flags: ['ACCRUE_ALWAYS', 'NO_NORMAL_PART'] })
    expect(pr('PriorityFlags=BOGUS').cluster.notes.join('\n')).toMatch(/PriorityFlags BOGUS \(line 3\) not known/)
  })
  it('PriorityWeightTRES: doubles, negative allowed, names lower case', () => {
    expect(pr('PriorityWeightTRES=CPU=-2000,Mem=1.5e-3,GRES/gpu=300').scheduling.priority.weightTres).toEqual({ cpu: -2000, mem: 0.0015, 'gres/gpu': 300 })
  })
  it('PriorityFavorSmall=YES, FairShareDampeningFactor, PriorityWeightAssoc', () => {
    const p = pr('PriorityFavorSmall=YES', 'FairShareDampeningFactor=3', 'PriorityWeightAssoc=7').scheduling.priority
    expect([p.favorSmall, p.dampeningFactor, p.weightAssoc]).toEqual([true, 3, 7])
  })
  it('age and fair-share weights without slurmdbd are kept, with accounting false and a note', () => {
    const c = pr('PriorityType=priority/multifactor', 'PriorityWeightAge=1000')
    expect(c.scheduling.priority.weightAge).toBe(1000)
    expect(c.scheduling.priority.accounting).toBe(false)
    expect(c.cluster.notes.join('\n')).toMatch(/not accounting_storage\/slurmdbd: Slurm then forces both weights to 0/)
  })
  it('the last of a repeated key wins, as in Slurm', () => {
    expect(pr('PriorityWeightAge=5', 'PriorityWeightAge=9').scheduling.priority.weightAge).toBe(9)
  })
})

describe('nodes and partitions', () => {
  it('CPUs from the topology, and Slurm\'s reset when CPUs matches no product', () => {
    const nodes = parseSlurmConf([
      'NodeName=a1 Sockets=2 CoresPerSocket=8 ThreadsPerCore=2', // 32 CPUs, 2 threads per core
      'NodeName=a2 CPUs=16 Sockets=2 CoresPerSocket=8 ThreadsPerCore=2', // CPUs = cores: threads not scheduled apart
      'NodeName=a3 CPUs=20 Sockets=2 CoresPerSocket=8 ThreadsPerCore=2', // matches nothing: reset to 32
      'NodeName=a4 Boards=2 SocketsPerBoard=2 CoresPerSocket=4', // 2 × 2 × 4 = 16
      'PartitionName=p Nodes=ALL',
    ].join('\n'), 'a').cluster
    expect(nodes.nodes.map((n) => [n.cpus, n.threadsPerCore])).toEqual([[32, 2], [16, 1], [32, 2], [16, 1]])
    expect(nodes.notes.join('\n')).toMatch(/a3 \(line 3\): CPUs=20 does not match .* \(32\)/)
  })
  it('hostlists with padding and products; Nodes=ALL; node order = file order', () => {
    const c = parseSlurmConf('NodeName=rack[1-2]n[1-2] CPUs=2\nNodeName=a[09-10,20] CPUs=1\nPartitionName=p Nodes=a[09-10],rack2n1\nPartitionName=q Nodes=ALL', 'a').cluster
    expect(c.nodes.map((n) => n.name)).toEqual(['rack1n1', 'rack1n2', 'rack2n1', 'rack2n2', 'a09', 'a10', 'a20'])
    expect(c.partitions[0].nodes).toEqual([2, 4, 5]) // ascending indices
    expect(c.partitions[1].nodes).toEqual(range(0, 6))
  })
  it('Shared= (older name of OverSubscribe), Priority= (older tier and factor), DefMemPerNode', () => {
    const p = parseSlurmConf(conf('PartitionName=q Nodes=n1 Shared=EXCLUSIVE Priority=5 DefMemPerNode=8000', 'PartitionName=r Nodes=n2 Priority=5 PriorityTier=2 OverSubscribe=YES'), 'a').cluster.partitions
    expect(p[1]).toMatchObject({ overSubscribe: 'EXCLUSIVE', priorityTier: 5, priorityJobFactor: 5, defMemPerNode: 8000 })
    expect(p[2]).toMatchObject({ overSubscribe: 'YES', priorityTier: 2, priorityJobFactor: 5 })
  })
  it('only the last Default=YES partition is the default', () => {
    const c = parseSlurmConf(conf('PartitionName=q Nodes=n1 Default=YES'), 'a').cluster
    expect(c.partitions.map((p) => p.isDefault)).toEqual([false, true])
    expect(c.notes.join('\n')).toMatch(/Several partitions say Default=YES \(p, q\)/)
  })
  it('SelectTypeParameters: CR_CPU_Memory, CR_Socket, CR_Memory alone, linear with CR_Memory', () => {
    const sel = (...l: string[]) => parseSlurmConf(conf(...l), 'a').cluster
    expect(sel('SelectType=select/cons_tres', 'SelectTypeParameters=CR_CPU_Memory').select).toEqual({ type: 'cons_tres', unit: 'cpu', memory: true })
    expect(sel('SelectType=select/cons_tres', 'SelectTypeParameters=CR_Core,CR_ONE_TASK_PER_CORE').select).toEqual({ type: 'cons_tres', unit: 'core', memory: false })
    const sock = sel('SelectType=select/cons_tres', 'SelectTypeParameters=CR_Socket_Memory')
    expect(sock.select).toEqual({ type: 'cons_tres', unit: 'socket', memory: true })
    expect(sock.notes.join('\n')).toMatch(/CR_Socket is simulated as CR_Core/)
    expect(sel('SelectType=select/cons_tres', 'SelectTypeParameters=CR_Memory').select).toEqual({ type: 'cons_tres', unit: 'cpu', memory: true })
    expect(sel('SelectType=select/linear', 'SelectTypeParameters=CR_Memory').select).toEqual({ type: 'linear', unit: 'cpu', memory: true })
  })
  it('settings that change scheduling and are not simulated give a note; harmless ones do not', () => {
    const notes = parseSlurmConf(conf('TopologyPlugin=topology/tree', 'PreemptType=preempt/partition_prio', 'Licenses=matlab:10', 'JobSubmitPlugins=lua', 'ClusterName=x', 'MailProg=/bin/true'), 'a').cluster.notes.join('\n')
    expect(notes).toMatch(/The network topology \(TopologyPlugin\) is not simulated.*\(line 3\)/)
    expect(notes).toMatch(/Preemption \(PreemptType\) is not simulated.*\(line 4\)/)
    expect(notes).toMatch(/Licenses are not simulated/)
    expect(notes).toMatch(/JobSubmitPlugins are not run/)
    expect(notes).not.toMatch(/ClusterName|MailProg/)
  })
})

describe('scontrol show node / show partition', () => {
  const text = read('slurm/scontrol-nodes-partitions.txt')
  const c = parseScontrol(text, 'scontrol.txt')
  it('reads the node records (CPUTot, ThreadsPerCore, RealMemory, Gres with socket binding, Weight)', () => {
    expect(c.nodes).toEqual([node('r1', 20, 1, 128000, 0, 1), node('r2', 20, 1, 128000, 0, 1), node('g1', 64, 2, 384000, 2, 5)])
  })
  it('reads the partition records (NONE, UNLIMITED, (null) nodes, EXCLUSIVE, FORCE:4, INACTIVE)', () => {
    expect(c.partitions).toEqual([
      part({ name: 'core', nodes: [0, 1], maxTime: 10 * DAY, defaultTime: 3600, priorityJobFactor: 10, isDefault: true, defMemPerCpu: 6400 }),
      part({ name: 'gpu', nodes: [2], maxTime: 2 * DAY, priorityTier: 2, overSubscribe: 'EXCLUSIVE' }),
      part({ name: 'devel', nodes: [0, 2], maxTime: 3600, overSubscribe: 'FORCE' }),
      part({ name: 'spare', nodes: [], state: 'INACTIVE' }),
    ])
    const notes = c.notes.join('\n')
    expect(notes).toMatch(/Partition devel: not simulated: MaxNodes/)
    expect(notes).toMatch(/1 node\(s\) were down, drained or powered off when the output was taken \(r2\): the machine is simulated with every node up/)
    expect(notes).toMatch(/SelectType is not in scontrol output/)
  })
  it('assumes per-core allocation without consumable memory, and says where it came from', () => {
    expect(c.select).toEqual({ type: 'cons_tres', unit: 'core', memory: false })
    expect(c.source).toEqual({ kind: 'scontrol', file: 'scontrol.txt' })
  })
  it('reads the one-line form (scontrol -o) and CPUEfctv of newer versions', () => {
    const one = [
      'NodeName=node-a1 Arch=x86_64 CoresPerSocket=16 CPUAlloc=8 CPUEfctv=30 CPUTot=32 CPULoad=8.60 Gres=gpu:a100:4(S:0-1) NodeAddr=node-a1 Version=23.02.7 OS=Linux 5.15.0-107-generic #117-Ubuntu SMP RealMemory=256000 Sockets=2 Boards=1 State=MIXED ThreadsPerCore=1 Weight=1 Partitions=gpu-high',
      'NodeName=node-c1 Arch=x86_64 CoresPerSocket=16 CPUAlloc=0 CPUTot=32 Gres=(null) RealMemory=128000 Sockets=2 ThreadsPerCore=1 Weight=10 Partitions=cpu-low',
      'PartitionName=gpu-high AllowGroups=ALL Default=NO QoS=N/A DefaultTime=NONE MaxTime=7-00:00:00 Nodes=node-a1 PriorityJobFactor=1 PriorityTier=100 OverSubscribe=NO State=UP TotalCPUs=32 TotalNodes=1 DefMemPerNode=UNLIMITED',
      'PartitionName=cpu-low AllowGroups=ALL Default=YES QoS=N/A DefaultTime=00:30:00 MaxTime=1-00:00:00 Nodes=node-c1 PriorityJobFactor=1 PriorityTier=1 OverSubscribe=NO State=UP TotalCPUs=32 TotalNodes=1',
    ].join('\n')
    const s = parseScontrol(one, 'o.txt')
    expect(s.nodes).toEqual([node('node-a1', 30, 1, 256000, 4, 1), node('node-c1', 32, 1, 128000, 0, 10)])
    expect(s.partitions).toEqual([
      part({ name: 'gpu-high', nodes: [0], maxTime: 7 * DAY, priorityTier: 100 }),
      part({ name: 'cpu-low', nodes: [1], maxTime: DAY, defaultTime: 1800, isDefault: true }),
    ])
  })
  it('node output alone: partitions from the nodes\' Partitions= lists, with a note', () => {
    const nodesOnly = text.slice(0, text.indexOf('PartitionName='))
    const s = parseScontrol(nodesOnly, 'n.txt')
    expect(s.partitions).toEqual([part({ name: 'core', nodes: [0, 1] }), part({ name: 'devel', nodes: [0, 2] }), part({ name: 'gpu', nodes: [2] })])
    expect(s.notes.join('\n')).toMatch(/taken from the nodes' Partitions= lists.*add `scontrol show partition` output/)
  })
  it('partition output alone is refused: it does not hold the nodes', () => {
    expect(() => parseScontrol(text.slice(text.indexOf('PartitionName=')), 'p.txt')).toThrow(/^p\.txt: only `scontrol show partition` output.*Add the output of `scontrol show node`/)
  })
  it('a partition naming a node without a record is refused with its line', () => {
    expect(() => parseScontrol('NodeName=a CPUTot=4\n\nPartitionName=p Nodes=a,b', 'x')).toThrow(/^x line 3: partition p lists node "b", which no `scontrol show node` record describes/)
  })
})

describe('detectConfigKind', () => {
  it('tells scontrol output from a slurm.conf', () => {
    expect(detectConfigKind(read('slurm/scontrol-nodes-partitions.txt'))).toBe('scontrol')
    expect(detectConfigKind(read('slurm/site-tigris.conf'))).toBe('slurm.conf')
    expect(detectConfigKind(read('slurm/loopback-multi.conf'))).toBe('slurm.conf')
    expect(detectConfigKind('PartitionName=batch\n   AllowGroups=ALL\n   State=UP TotalCPUs=3248 TotalNodes=116')).toBe('scontrol')
    expect(detectConfigKind('\n# only\nNodeName=a CPUs=4\n')).toBe('slurm.conf')
    expect(detectConfigKind('# made from: scontrol show node (CPUTot=20)\nNodeName=a CPUs=20\n')).toBe('slurm.conf')
  })
  it('neither for a log or an empty file', () => {
    expect(detectConfigKind('JobID|User|Partition\n1|a|b\n')).toBeNull()
    expect(detectConfigKind('')).toBeNull()
    expect(detectConfigKind('; Version: 2.2\n1 0 10 100 4')).toBeNull()
  })
})

describe('the machine inferred from a log', () => {
  it('node names: CPUs and GPUs per name group, partitions on the nodes their jobs used', () => {
    const c = inferCluster({
      count: 4, procs: [20, 4, 8, 16], partition: [0, 0, 0, 1], partitions: ['core', 'gpu'],
      nodesSeen: [
        { name: 'r10', maxCpus: 16, maxGpus: 0, partitions: [0] },
        { name: 'r1', maxCpus: 20, maxGpus: 0, partitions: [0] },
        { name: 'g2', maxCpus: -1, maxGpus: 0, partitions: [1] },
        { name: 'r2', maxCpus: 4, maxGpus: 0, partitions: [0] },
        { name: 'g1', maxCpus: 8, maxGpus: 2, partitions: [1] },
      ],
    })
    // natural order: g1, g2, r1, r2, r10; group g: 8 CPUs, 2 GPUs; group r: 20 CPUs
    expect(c.nodes).toEqual([node('g1', 8, 1, 0, 2, 1), node('g2', 8, 1, 0, 2, 1), node('r1', 20, 1, 0, 0, 1), node('r2', 20, 1, 0, 0, 1), node('r10', 20, 1, 0, 0, 1)])
    expect(c.partitions).toEqual([part({ name: 'core', nodes: [2, 3, 4], isDefault: true }), part({ name: 'gpu', nodes: [0, 1] })])
    expect(c.select).toEqual({ type: 'cons_tres', unit: 'core', memory: false })
    expect(c.source).toEqual({ kind: 'inferred', note: '5 nodes named in the log: 2 nodes (g1…g2) × 8 CPUs + 2 GPUs, 3 nodes (r1…r10) × 20 CPUs, the most seen on one node of each name group; partitions core, gpu from the jobs.' })
    expect(c.notes.join('\n')).toMatch(/Memory is not a consumable resource here/)
    expect(c.notes.join('\n')).toMatch(/Partition core is the default \(most jobs\)/)
  })
  it('node names: memory per node is the largest job memory per node, so no job is refused for memory', () => {
    const c = inferCluster({ count: 2, procs: [4, 8], nodes: [1, 2], memMB: [3000, 10000], nodesSeen: [{ name: 'a1', maxCpus: 4, maxGpus: 0, partitions: [] }] })
    expect(c.nodes[0].memMB).toBe(5000) // 10,000 MB over 2 nodes
    expect(c.partitions).toEqual([part({ name: 'all', nodes: [0], isDefault: true })])
  })
  it('node counts without names: the most common CPUs per node of multi-node jobs × the largest allocation', () => {
    const c = inferCluster({ count: 5, procs: [64, 128, 32, 16, 96], nodes: [2, 4, 1, 1, 3], partitions: ['standard', 'short'], partition: [0, 0, 1, 0, 0] })
    expect(c.nodes).toEqual([1, 2, 3, 4].map((i) => node(`n${i}`, 32, 1, 0, 0, 1)))
    expect(c.partitions).toEqual([part({ name: 'standard', nodes: [0, 1, 2, 3], isDefault: true }), part({ name: 'short', nodes: [0, 1, 2, 3] })])
    expect(c.source).toEqual({ kind: 'inferred', note: '4 nodes (the log gives node counts, not names: the largest allocation) × 32 CPUs (the most common CPUs per node of multi-node jobs); partitions standard, short from the jobs.' })
  })
  it('node counts: more nodes when the largest job needs them; jobs above the inferred CPUs per node are counted', () => {
    const c = inferCluster({ count: 3, procs: [64, 40, 200], nodes: [2, 1, -1], gpus: [4, 0, -1] })
    // mode of multi-node jobs: 64/2 = 32; the largest allocation is 2 nodes, but 200 CPUs need ceil(200/32) = 7
    expect(c.nodes).toHaveLength(7)
    expect(c.nodes[0]).toEqual(node('n1', 32, 1, 0, 2, 1)) // 4 GPUs over 2 nodes
    expect(c.source.kind === 'inferred' && c.source.note).toBe('7 nodes (the log gives node counts, not names: enough for the largest job) × 32 CPUs (the most common CPUs per node of multi-node jobs) + 2 GPUs (the most per node of any job); one partition (the log names none).')
    expect(c.notes.join('\n')).toMatch(/1 job used more CPUs per node than the 32 CPUs inferred/) // 40 CPUs on 1 node
  })
  it('node counts: the most nodes busy at once when the log has start times', () => {
    // busy: [0,100) 2 nodes, [10,110) 3 nodes, [20,25) 1 node → 6 at t=20; the largest allocation is 3
    const c = inferCluster({ count: 3, procs: [8, 12, 4], nodes: [2, 3, 1], start: [0, 10, 20], runtime: [100, 100, 5] })
    expect(c.nodes).toHaveLength(6)
    expect(c.nodes[0].cpus).toBe(4)
    expect(c.source.kind === 'inferred' && c.source.note).toMatch(/^6 nodes \(the log gives node counts, not names: the most nodes busy at once in the log \(the largest allocation is 3 nodes\)\)/)
    // a job ending at t frees its nodes before one starting at t takes them: 3, not 5
    expect(inferCluster({ count: 2, procs: [8, 12], nodes: [2, 3], start: [0, 100], runtime: [100, 50] }).nodes).toHaveLength(3)
  })
  it('no node column: the single pool as single-CPU nodes (the stated machine size, else the largest job)', () => {
    const c = inferCluster({ count: 3, procs: [4, 16, 8] })
    expect(c.nodes).toHaveLength(16)
    expect(c.nodes[0]).toEqual(node('cpu01', 1, 1, 0, 0, 1))
    expect(c.partitions).toEqual([part({ name: 'all', nodes: range(0, 15), isDefault: true })])
    expect(c.source.kind === 'inferred' && c.source.note).toBe('One pool of 16 CPUs (the largest job; the log has no node column), each CPU a node of its own; one partition (the log names none).')
    expect(inferCluster({ count: 3, procs: [4, 16, 8], machineProcs: 100 }).nodes).toHaveLength(100)
    expect(inferCluster({ count: 3, procs: [4, 16, 8], machineProcs: 10 }).nodes).toHaveLength(16) // a stated size below the largest job is not believed
  })
  it('no node column: the most CPUs busy at once when the log has start times and no size is given', () => {
    // [0,10) 4 CPUs, [0,10) 16 CPUs, [5,15) 8 CPUs → 28 at t=5
    const c = inferCluster({ count: 3, procs: [4, 16, 8], start: [0, 0, 5], runtime: [10, 10, 10] })
    expect(c.nodes).toHaveLength(28)
    expect(c.source.kind === 'inferred' && c.source.note).toMatch(/^One pool of 28 CPUs \(the most CPUs busy at once in the log;/)
    expect(inferCluster({ count: 3, procs: [4, 16, 8], start: [0, 0, 5], runtime: [10, 10, 10], machineProcs: 20 }).nodes).toHaveLength(20) // the size given wins
  })
})
