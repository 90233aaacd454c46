// buildClusterJobs (src/core/cluster/jobs.ts, docs/CLUSTER.md §Job columns): from a cleaned
// JobTable's resource columns to the node-level simulator's input. Expected values by hand.
import { describe, expect, it } from 'vitest'
import { buildClusterJobs, ClusterJobsError } from '../../src/core/cluster/jobs'
import type { JobTable } from '../../src/core/workload/types'
import { cluster, node, partition } from '../support/cluster'

interface Row { procs: number; requested?: number; partition?: number; nodes?: number; memMB?: number; gpus?: number; exclusive?: number; eligible?: number; qos?: number; submit?: number }

/** A JobTable with the given rows; a column is present when any row sets it. */
function table(rows: Row[]): JobTable {
  const n = rows.length
  const col = <K extends keyof Row>(k: K, dflt: number) => rows.some((r) => r[k] !== undefined) ? rows.map((r) => r[k] ?? dflt) : undefined
  const i32 = (a?: number[]) => (a ? Int32Array.from(a) : undefined)
  const part = col('partition', -1), nodes = col('nodes', -1), mem = col('memMB', -1), gpus = col('gpus', -1), ex = col('exclusive', 0), el = col('eligible', NaN), qos = col('qos', -1)
  return {
    count: n,
    id: Float64Array.from(rows, (_, k) => k + 1),
    submit: Float64Array.from(rows, (r) => r.submit ?? 0),
    runtime: Float64Array.from(rows, () => 10),
    requested: Float64Array.from(rows, (r) => r.requested ?? 100),
    procs: Int32Array.from(rows, (r) => r.procs),
    user: new Int32Array(n),
    recordedWait: new Float64Array(n).fill(NaN),
    line: Int32Array.from(rows, (_, k) => k + 2),
    ...(part ? { partition: i32(part) } : {}),
    ...(nodes ? { nodes: i32(nodes) } : {}),
    ...(mem ? { memMB: Float64Array.from(mem) } : {}),
    ...(gpus ? { gpus: i32(gpus) } : {}),
    ...(ex ? { exclusive: Uint8Array.from(ex) } : {}),
    ...(el ? { eligible: Float64Array.from(el) } : {}),
    ...(qos ? { qos: i32(qos) } : {}),
  }
}

const machine = cluster(
  [node('c1', 8, { memMB: 8000 }), node('c2', 8, { memMB: 8000 }), node('g1', 8, { gpus: 4, memMB: 16000 })],
  [partition('cpu', [0, 1], { isDefault: true, maxTime: 3600 }), partition('gpu', [2], { defaultTime: 600, maxTime: 7200 }), partition('all', [0, 1, 2])],
)

describe('buildClusterJobs', () => {
  it('partitions by name; several partitions → the first the machine has; missing or unknown → the default, each counted', () => {
    const t = table([{ procs: 1, partition: 0 }, { procs: 1, partition: 1 }, { procs: 1, partition: 2 }, { procs: 1, partition: -1 }, { procs: 1, partition: 3 }])
    const { jobs, notes } = buildClusterJobs(t, machine, { partitions: ['gpu', 'all', 'nosuch,gpu', 'debug'] })
    expect([...jobs.partition]).toEqual([1, 2, 1, 0, 0])
    expect(notes).toContain('1 jobs have no partition: placed in the default partition cpu')
    expect(notes).toContain('1 jobs name a partition the machine does not have (debug): placed in the default partition cpu')
    expect(notes).toContain('1 jobs were submitted to several partitions: each is simulated in the first of them the machine has')
    // No partition column at all: every job in the default partition.
    const none = buildClusterJobs(table([{ procs: 1 }, { procs: 2 }]), machine)
    expect([...none.jobs.partition]).toEqual([0, 0])
    expect(none.notes).toContain('2 jobs have no partition: placed in the default partition cpu')
  })

  it('nodes: the count, or 0 (flexible) when unknown; memory total → per node; GPUs total → per node; a GPU job without a count gets the fewest nodes holding its GPUs', () => {
    const t = table([
      { procs: 16, nodes: 2, memMB: 6000 }, // 3000 MB per node
      { procs: 4, nodes: -1, memMB: 2000 }, // flexible: total kept (spread per CPU by the machine)
      { procs: 4, partition: 0, nodes: 1, gpus: 3 }, // gpu partition: 3 GPUs on its node
      { procs: 2, partition: 0, gpus: 4 }, // count unknown: 4 GPUs / 4 per node → 1 node
    ])
    const { jobs } = buildClusterJobs(t, machine, { partitions: ['gpu'] })
    expect([...jobs.nodes]).toEqual([2, 0, 1, 1])
    expect([...jobs.memPerNode]).toEqual([3000, 2000, 0, 0])
    expect([...jobs.gpusPerNode]).toEqual([0, 0, 3, 4])
  })

  it('requested time cut to MaxTime; missing → DefaultTime, else MaxTime; eligible NaN or early → submit', () => {
    const t = table([
      { procs: 1, requested: 5000 }, // cpu: MaxTime 3600
      { procs: 1, requested: 0, partition: 0 }, // gpu: DefaultTime 600
      { procs: 1, requested: -1 }, // cpu: no DefaultTime → MaxTime 3600
      { procs: 1, submit: 5, eligible: 9 },
      { procs: 1, submit: 5, eligible: 2 },
    ])
    const { jobs, notes } = buildClusterJobs(t, machine, { partitions: ['gpu'] })
    expect([...jobs.requested]).toEqual([3600, 600, 3600, 100, 100])
    expect([...jobs.eligible]).toEqual([0, 0, 0, 9, 5])
    expect(notes).toContain("1 jobs requested more than their partition's MaxTime: requested time cut to MaxTime")
    expect(notes).toContain("2 jobs had no requested time: their partition's DefaultTime (else MaxTime) is used")
    expect(notes).toContain('1 jobs were eligible before their submit: eligible = submit')
  })

  it('no requested time and no DefaultTime/MaxTime: an error naming the line', () => {
    expect(() => buildClusterJobs(table([{ procs: 1, requested: 0, partition: 0 }]), machine, { partitions: ['all'] })).toThrow(/line 2 has no requested time and partition all/)
  })

  it('a job that can never fit its partition moves to the first partition that can hold it; none → an error naming its line', () => {
    // 12 CPUs on one node: no node has 12 CPUs, so the job spreads its CPUs over the cpu
    // partition's two 8-CPU nodes (flexible, its own partition) rather than being moved.
    const spread = buildClusterJobs(table([{ procs: 1 }, { procs: 12, nodes: 1 }]), machine)
    expect([...spread.jobs.nodes]).toEqual([0, 0])
    expect([...spread.jobs.partition]).toEqual([0, 0])
    expect(spread.notes).toContain('1 jobs used more per node than this machine\'s nodes have: each spreads its CPUs over as many nodes as it needs')
    // 20 CPUs on one node: cpu has 16 CPUs in all; "all" has 24: spread there, moved with a note.
    expect([...buildClusterJobs(table([{ procs: 20, nodes: 1 }]), machine).jobs.partition]).toEqual([2])
    // 40 CPUs: no partition holds it, even spread: an error naming its line.
    expect(() => buildClusterJobs(table([{ procs: 1 }, { procs: 40, nodes: 1 }]), machine)).toThrow(ClusterJobsError)
    expect(() => buildClusterJobs(table([{ procs: 1 }, { procs: 40, nodes: 1 }]), machine)).toThrow(/line 3 \(40 CPUs on 1 nodes\) can never fit partition cpu, nor any other/)
    // 2 GPUs in the cpu partition (no GPUs there): moved to gpu, the first (after the default) that holds it.
    const { jobs, notes } = buildClusterJobs(table([{ procs: 1, partition: 0, nodes: 1, gpus: 2 }]), machine, { partitions: ['cpu'] })
    expect([...jobs.partition]).toEqual([1])
    expect(notes).toContain('1 jobs can never fit their partition on this machine and were moved (cpu → gpu)')
    // 3 nodes of 8 CPUs: only "all" has 3 nodes.
    const three = buildClusterJobs(table([{ procs: 24, nodes: 3 }]), machine)
    expect([...three.jobs.partition]).toEqual([2])
  })

  it('QOS, exclusive and users are carried; absent columns are unknown', () => {
    const t = table([{ procs: 1, qos: 1, exclusive: 1 }, { procs: 1, qos: -1, exclusive: 0 }])
    const { jobs } = buildClusterJobs(t, machine, { qosNames: ['normal', 'high'] })
    expect([...jobs.qos]).toEqual([1, -1])
    expect([...jobs.exclusive]).toEqual([1, 0])
    expect([...buildClusterJobs(table([{ procs: 1 }]), machine).jobs.qos]).toEqual([-1])
    expect([...buildClusterJobs(table([{ procs: 1 }]), machine).jobs.account]).toEqual([-1])
  })

  it('a partition that is not UP: its jobs are simulated as if it were, with a note', () => {
    const down = cluster(machine.nodes, [partition('cpu', [0, 1], { isDefault: true, state: 'DOWN' })])
    expect(buildClusterJobs(table([{ procs: 1 }]), down).notes).toContain('partition cpu is not UP in the machine file: its jobs are simulated as if it were (the log shows they ran)')
  })
})
