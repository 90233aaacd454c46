// The node-level machine (src/core/cluster/machine.ts, docs/CLUSTER.md §Allocation): each job's
// per-node demand, which nodes it gets, allocation bookkeeping, the quick reject, and the shadow
// time of a reservation. Every expected value below is worked from the rules, by hand.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  buildDemand, Machine, PREF_BUSY_NOW, PREF_NONE, PREF_RESERVED, Selection, VIEW_CAPPED, VIEW_EMPTY, VIEW_FREE, VIEW_SHADOW,
} from '../../src/core/cluster/machine'
import type { ClusterSpec } from '../../src/core/cluster/types'
import { cluster, clusterJobs, node, partition, type CJob } from '../support/cluster'

function machineOf(spec: ClusterSpec, jobs: CJob[]): { m: Machine; sel: Selection } {
  const cj = clusterJobs(jobs)
  const m = new Machine(spec, buildDemand(cj, spec))
  return { m, sel: new Selection(spec.nodes.length) }
}

const J = (procs: number, extra: Partial<CJob> = {}): CJob => ({ submit: 0, runtime: 10, requested: 10, procs, ...extra })

function nodesOf(sel: Selection): number[] { return [...sel.nodes.subarray(0, sel.len)] }
function cpusOf(sel: Selection): number[] { return [...sel.cpus.subarray(0, sel.len)] }
/** node:CPUs:memory:GPUs of each chosen node, by node (the set a selection takes, whatever its order). */
function takenSet(sel: Selection): string[] {
  return Array.from({ length: sel.len }, (_, k) => [sel.nodes[k], sel.cpus[k], sel.mem[k], sel.gpus[k]]).sort((x, y) => x[0] - y[0]).map((x) => x.join(':'))
}

describe('buildDemand: what a job asks of each node', () => {
  it('N nodes: ceil(total/N) CPUs per node; flexible keeps the total; a GPU job without a node count gets one node', () => {
    const spec = cluster([node('a', 8, { gpus: 2 })], [])
    const d = buildDemand(clusterJobs([J(10, { nodes: 3 }), J(10), J(3, { gpusPerNode: 1 })]), spec)
    expect([...d.nodes]).toEqual([3, 0, 1])
    expect([...d.cpus]).toEqual([4, 10, 3]) // ceil(10/3) = 4
    expect([...d.gpus]).toEqual([0, 0, 1])
  })

  it('whole nodes from --exclusive, partition OverSubscribe=EXCLUSIVE, or select/linear', () => {
    const nodes = [node('a', 4), node('b', 4)]
    const spec = cluster(nodes, [partition('p', [0, 1]), partition('x', [0, 1], { overSubscribe: 'EXCLUSIVE' })])
    const jobs = clusterJobs([J(1), J(1, { exclusive: true }), J(1, { partition: 1 })])
    expect([...buildDemand(jobs, spec).whole]).toEqual([0, 1, 1])
    expect([...buildDemand(jobs, cluster(nodes, spec.partitions, { type: 'linear' })).whole]).toEqual([1, 1, 1])
  })

  it('memory: the job\'s own per node; else the partition\'s default, else the cluster\'s; else all memory; nothing when not consumable', () => {
    const nodes = [node('a', 8, { memMB: 8000 })]
    const parts = [partition('p', [0]), partition('q', [0], { defMemPerNode: 3000 }), partition('r', [0], { defMemPerCpu: 500 })]
    const jobs = clusterJobs([
      J(2, { nodes: 1, memPerNode: 1234 }), // own request per node
      J(2, { nodes: 1 }), // p: no default → cluster's DefMemPerCPU 700 → 700 per CPU
      J(2, { nodes: 1, partition: 1 }), // q: DefMemPerNode 3000 (the partition's wins over the cluster's)
      J(2, { nodes: 1, partition: 2 }), // r: DefMemPerCPU 500
      J(4, { memPerNode: 2000 }), // flexible: total 2000 MB over 4 CPUs = 500 per CPU
    ])
    const d = buildDemand(jobs, cluster(nodes, parts, { memory: true }, { defMemPerCpu: 700 }))
    expect([...d.memPerNode]).toEqual([1234, 0, 3000, 0, 0])
    expect([...d.memPerCpu]).toEqual([0, 700, 0, 500, 500])
    expect([...d.memAll]).toEqual([0, 0, 0, 0, 0])
    // No default anywhere: "0 means all memory of the node".
    const none = buildDemand(jobs, cluster(nodes, parts.slice(0, 1).concat(parts.slice(0, 1), parts.slice(0, 1)), { memory: true }))
    expect([...none.memAll]).toEqual([0, 1, 1, 1, 0])
    // Memory not consumable: no memory demand at all.
    const off = buildDemand(jobs, cluster(nodes, parts))
    expect([...off.memPerNode, ...off.memPerCpu, ...off.memAll]).toEqual(new Array(15).fill(0))
  })
})

describe('select: which nodes a job gets', () => {
  it('one-node job: the sufficient node with the fewest free CPUs, the first on ties', () => {
    const { m, sel } = machineOf(cluster([node('a', 8), node('b', 4), node('c', 4), node('d', 2)], []), [J(3, { nodes: 1 })])
    // d has 2 < 3: not sufficient; b and c have 4 each: b (first).
    expect(m.select(0, VIEW_FREE, PREF_NONE, sel)).toBe(true)
    expect(nodesOf(sel)).toEqual([1])
    expect(cpusOf(sel)).toEqual([3])
  })

  it('Weight groups first: a heavier node is used only when no lighter one is sufficient', () => {
    const spec = cluster([node('a', 2, { weight: 5 }), node('b', 8, { weight: 1 }), node('c', 4, { weight: 5 })], [])
    const { m, sel } = machineOf(spec, [J(2, { nodes: 1 }), J(8, { nodes: 1 }), J(4, { nodes: 1 })])
    expect(m.select(0, VIEW_FREE, PREF_NONE, sel) && nodesOf(sel)).toEqual([1]) // b (weight 1) though a fits tighter
    m.allocate(1, (m.select(1, VIEW_FREE, PREF_NONE, sel), sel)) // 8 CPUs on b: b full
    expect(m.select(0, VIEW_FREE, PREF_NONE, sel) && nodesOf(sel)).toEqual([0]) // a (2 CPUs) before c (4)
  })

  it('GPUs before CPUs: a node short of GPUs is out whatever its CPUs', () => {
    const spec = cluster([node('g1', 4, { gpus: 2 }), node('g2', 16, { gpus: 2 })], [])
    const { m, sel } = machineOf(spec, [J(1, { nodes: 1, gpusPerNode: 2 }), J(1, { nodes: 1, gpusPerNode: 1 }), J(1, { nodes: 1, gpusPerNode: 2 })])
    m.allocate(0, (m.select(0, VIEW_FREE, PREF_NONE, sel), sel)) // g1 (fewest CPUs): its 2 GPUs
    expect(nodesOf(sel)).toEqual([0])
    // g1 has 3 idle CPUs but no GPU: job 1 goes to g2.
    expect(m.select(1, VIEW_FREE, PREF_NONE, sel) && nodesOf(sel)).toEqual([1])
    m.allocate(1, sel)
    // g2 has 15 idle CPUs and 1 GPU: job 2 (2 GPUs) fits nowhere.
    expect(m.select(2, VIEW_FREE, PREF_NONE, sel)).toBe(false)
  })

  it('best fit packs: a second 2-CPU job joins the half-used node, keeping the other node whole', () => {
    const spec = cluster([node('a', 4), node('b', 4)], [])
    const { m, sel } = machineOf(spec, [J(2, { nodes: 1 }), J(2, { nodes: 1 }), J(4, { nodes: 1 })])
    m.allocate(0, (m.select(0, VIEW_FREE, PREF_NONE, sel), sel)) // tie 4/4: a
    m.allocate(1, (m.select(1, VIEW_FREE, PREF_NONE, sel), sel)) // a has 2 (fewest sufficient): a
    expect(nodesOf(sel)).toEqual([0])
    expect(m.fitsNow(2, sel) && nodesOf(sel)).toEqual([1])
  })

  it('fragmentation: 2 + 2 free CPUs on two nodes do not start a one-node 4-CPU job; a flexible 4-CPU job does start', () => {
    const spec = cluster([node('a', 4), node('b', 4)], [])
    const { m, sel } = machineOf(spec, [J(2, { nodes: 2 }), J(4, { nodes: 1 }), J(4)])
    m.allocate(0, (m.select(0, VIEW_FREE, PREF_NONE, sel), sel))
    expect(cpusOf(sel)).toEqual([1, 1]) // ceil(2/2) = 1 per node... job 0 takes 1 on a and 1 on b
    const { m: m3, sel: s3 } = machineOf(spec, [J(4, { nodes: 2 }), J(4, { nodes: 1 }), J(4)])
    m3.allocate(0, (m3.select(0, VIEW_FREE, PREF_NONE, s3), s3)) // 2 on a, 2 on b
    expect(cpusOf(s3)).toEqual([2, 2])
    expect(m3.totalFreeCpu).toBe(4)
    expect(m3.quickReject(1)).toBe(true) // no node has 4 free: the largest free count per node is 2
    expect(m3.select(1, VIEW_FREE, PREF_NONE, s3)).toBe(false)
    expect(m3.fitsNow(2, s3)).toBe(true) // flexible: 2 + 2
    expect(nodesOf(s3)).toEqual([0, 1])
    expect(cpusOf(s3)).toEqual([2, 2])
  })

  it('CR_Core with ThreadsPerCore=2 rounds a node\'s share up to whole cores; CR_CPU does not', () => {
    const nodes = [node('a', 4, { threadsPerCore: 2 })]
    const jobs = [J(1, { nodes: 1 }), J(1, { nodes: 1 }), J(1, { nodes: 1 })]
    const core = machineOf(cluster(nodes, [], { unit: 'core' }), jobs)
    core.m.allocate(0, (core.m.select(0, VIEW_FREE, PREF_NONE, core.sel), core.sel))
    expect(cpusOf(core.sel)).toEqual([2]) // one core = 2 CPUs
    core.m.allocate(1, (core.m.select(1, VIEW_FREE, PREF_NONE, core.sel), core.sel))
    expect(core.m.fitsNow(2, core.sel)).toBe(false) // 4 CPUs = 2 cores, both taken
    const cpu = machineOf(cluster(nodes, [], { unit: 'cpu' }), jobs)
    for (const j of [0, 1, 2]) { expect(cpu.m.fitsNow(j, cpu.sel)).toBe(true); cpu.m.allocate(j, cpu.sel) }
    expect(cpu.m.freeCpu[0]).toBe(1)
  })

  it('a whole-node job still needs a node with enough CPUs', () => {
    const spec = cluster([node('a', 4), node('b', 6)], [partition('x', [0, 1], { overSubscribe: 'EXCLUSIVE' })])
    const { m, sel } = machineOf(spec, [J(5, { nodes: 1 })])
    expect(m.select(0, VIEW_FREE, PREF_NONE, sel) && nodesOf(sel)).toEqual([1])
    expect(cpusOf(sel)).toEqual([6])
  })

  it('whole-node jobs need an empty node and take all its CPUs', () => {
    const spec = cluster([node('a', 8), node('b', 8)], [partition('p', [0, 1], { overSubscribe: 'EXCLUSIVE' })])
    const { m, sel } = machineOf(spec, [J(2, { nodes: 1 }), J(2, { nodes: 1 }), J(1, { nodes: 1 })])
    m.allocate(0, (m.select(0, VIEW_FREE, PREF_NONE, sel), sel))
    expect(cpusOf(sel)).toEqual([8])
    m.allocate(1, (m.select(1, VIEW_FREE, PREF_NONE, sel), sel))
    expect(nodesOf(sel)).toEqual([1])
    expect(m.partIdle[0]).toBe(0)
    expect(m.quickReject(2)).toBe(true)
  })

  it('consumable memory without a default: a job takes all the node\'s memory, so one job per node', () => {
    const spec = cluster([node('a', 8, { memMB: 8000 })], [], { memory: true })
    const { m, sel } = machineOf(spec, [J(2, { nodes: 1 }), J(2, { nodes: 1 })])
    m.allocate(0, (m.select(0, VIEW_FREE, PREF_NONE, sel), sel))
    expect([...sel.mem.subarray(0, 1)]).toEqual([8000])
    expect(m.freeCpu[0]).toBe(6)
    expect(m.fitsNow(1, sel)).toBe(false) // 6 idle CPUs, but no memory
    // With DefMemPerCPU=1000: 2000 MB each, both fit.
    const withDef = machineOf(cluster(spec.nodes, [], { memory: true }, { defMemPerCpu: 1000 }), [J(2, { nodes: 1 }), J(2, { nodes: 1 })])
    withDef.m.allocate(0, (withDef.m.select(0, VIEW_FREE, PREF_NONE, withDef.sel), withDef.sel))
    expect(withDef.m.fitsNow(1, withDef.sel)).toBe(true)
    expect(withDef.m.freeMem[0]).toBe(6000)
  })

  it('per-node memory limits a node like any resource; a flexible job spreads its memory per CPU', () => {
    const spec = cluster([node('a', 8, { memMB: 1000 }), node('b', 8, { memMB: 4000 })], [], { memory: true })
    const { m, sel } = machineOf(spec, [J(2, { nodes: 1, memPerNode: 2000 }), J(8, { memPerNode: 4000 })])
    expect(m.select(0, VIEW_FREE, PREF_NONE, sel) && nodesOf(sel)).toEqual([1]) // a has 1000 MB < 2000
    // Flexible 8 CPUs × 500 MB/CPU: a offers min(8, 1000/500 = 2) CPUs, b 8: takes 2 on a and 6 on b.
    expect(m.select(1, VIEW_FREE, PREF_NONE, sel)).toBe(true)
    expect(nodesOf(sel)).toEqual([0, 1])
    expect(cpusOf(sel)).toEqual([2, 6])
    expect([...sel.mem.subarray(0, 2)]).toEqual([1000, 3000])
  })

  it('N-node jobs: the N sufficient nodes with the fewest free CPUs, by index on ties', () => {
    const spec = cluster([node('a', 8), node('b', 4), node('c', 8), node('d', 4), node('e', 2)], [])
    const { m, sel } = machineOf(spec, [J(6, { nodes: 2 })])
    // 3 per node; e (2) is not sufficient; b and d have 4: b, d.
    expect(m.select(0, VIEW_FREE, PREF_NONE, sel)).toBe(true)
    expect(nodesOf(sel)).toEqual([1, 3])
    expect(m.select(0, VIEW_EMPTY, PREF_NONE, sel)).toBe(true)
  })

  it('a job uses only its partition\'s nodes; partitions sharing a node see the same free CPUs', () => {
    const spec = cluster([node('a', 4), node('b', 4)], [partition('A', [0, 1]), partition('B', [1])])
    const { m, sel } = machineOf(spec, [J(4, { nodes: 1 }), J(4, { nodes: 1 }), J(1, { nodes: 1, partition: 1 })])
    m.allocate(0, (m.select(0, VIEW_FREE, PREF_NONE, sel), sel)) // a
    m.allocate(1, (m.select(1, VIEW_FREE, PREF_NONE, sel), sel)) // b (shared with B)
    expect(nodesOf(sel)).toEqual([1])
    expect(m.partFreeCpu[1]).toBe(0)
    expect(m.fitsNow(2, sel)).toBe(false)
    m.release(0) // a is free, but a is not in B
    expect(m.fitsNow(2, sel)).toBe(false)
    m.release(1)
    expect(m.fitsNow(2, sel) && nodesOf(sel)).toEqual([1])
  })

  it('an excluded node is invisible', () => {
    const spec = cluster([node('a', 4), node('b', 4)], [])
    const { m, sel } = machineOf(spec, [J(1, { nodes: 1 })])
    m.setExclude(Uint8Array.from([1, 0]))
    expect(m.select(0, VIEW_FREE, PREF_NONE, sel) && nodesOf(sel)).toEqual([1])
    m.setExclude(null)
    expect(m.select(0, VIEW_FREE, PREF_NONE, sel) && nodesOf(sel)).toEqual([0])
  })
})

describe('earliest: the shadow time of a reservation', () => {
  it('releases running jobs by estimated end, keeps the nodes busy now for the reservation, leaves the rest in VIEW_CAPPED', () => {
    // 5 single-CPU nodes. Jobs 0 on n1 and 1 on n2 (est. end 10), 4 on n3 (est. end 20); n4, n5 free.
    // Job 2 needs 3 nodes: at 10, n1, n2, n4, n5 are free → shadow 10. The reservation prefers the
    // nodes busy now (n1, n2), then n4 by index, so n5 stays usable now beside it (VIEW_CAPPED).
    const spec = cluster(Array.from({ length: 5 }, (_, i) => node(`n${i + 1}`, 1)), [])
    const { m, sel } = machineOf(spec, [J(1, { nodes: 1 }), J(1, { nodes: 1 }), J(3, { nodes: 3 }), J(1, { nodes: 1 }), J(1, { nodes: 1 })])
    for (const j of [0, 1, 4]) m.allocate(j, (m.select(j, VIEW_FREE, PREF_NONE, sel), sel))
    expect(m.fitsNow(2, sel)).toBe(false)
    const res = new Selection(5)
    // The running jobs by estimated end, and each one's end beside it (the running list's slots).
    expect(m.earliest(2, 5, Int32Array.from([0, 1, 4]), 3, Float64Array.from([10, 10, 20]), res)).toBe(10)
    expect(nodesOf(res)).toEqual([0, 1, 3])
    expect([0, 1, 2, 3, 4].map((i) => m.cpusAvailable(i, VIEW_CAPPED))).toEqual([0, 0, 0, 0, 1])
    expect(m.select(3, VIEW_CAPPED, PREF_NONE, sel) && nodesOf(sel)).toEqual([4])
  })

  it('shadow view and capped view per resource', () => {
    // Node a: 8 CPUs, 2 GPUs. R holds 6 CPUs and 2 GPUs until 10. B (1 node, 4 CPUs, 1 GPU) is blocked
    // (no GPU free) and reserved at 10 on a: at 10 a has 8 CPUs, 2 GPUs; after B, 4 CPUs and 1 GPU left.
    // Capped now: min(free now = 2 CPUs / 0 GPU, left = 4 / 1) = 2 CPUs, 0 GPU.
    const spec = cluster([node('a', 8, { gpus: 2 })], [])
    const { m, sel } = machineOf(spec, [J(6, { nodes: 1, gpusPerNode: 2 }), J(4, { nodes: 1, gpusPerNode: 1 }), J(2, { nodes: 1 })])
    m.allocate(0, (m.select(0, VIEW_FREE, PREF_NONE, sel), sel))
    expect(m.fitsNow(1, sel)).toBe(false)
    const res = new Selection(1)
    expect(m.earliest(1, 3, Int32Array.from([0]), 1, Float64Array.from([10]), res)).toBe(10)
    expect(m.cpusAvailable(0, VIEW_SHADOW)).toBe(4)
    expect(m.gpusAvailable(0, VIEW_SHADOW)).toBe(1)
    expect(m.cpusAvailable(0, VIEW_CAPPED)).toBe(2)
    expect(m.gpusAvailable(0, VIEW_CAPPED)).toBe(0)
    expect(m.select(2, VIEW_CAPPED, PREF_NONE, sel)).toBe(true) // 2 CPUs, no GPU: fits beside the reservation
  })

  it('a running job past its estimated end counts as ending now (the shadow time is never before now)', () => {
    const spec = cluster([node('a', 2)], [])
    const { m, sel } = machineOf(spec, [J(2, { nodes: 1 }), J(2, { nodes: 1 })])
    m.allocate(0, (m.select(0, VIEW_FREE, PREF_NONE, sel), sel))
    expect(m.earliest(1, 50, Int32Array.from([0]), 1, Float64Array.from([10]), new Selection(1))).toBe(50)
  })

  it('throws when the job does not fit even on the empty partition', () => {
    const spec = cluster([node('a', 2)], [])
    const { m } = machineOf(spec, [J(3, { nodes: 1 })])
    expect(() => m.earliest(0, 0, new Int32Array(0), 0, new Float64Array(0), new Selection(1))).toThrow(/does not fit/)
  })

  it('PREF_RESERVED sends a job ending before the reservation onto the reserved nodes', () => {
    // 3 single-CPU nodes; n1 busy until 10. Job 1 needs 2 nodes → shadow 10 on n1 + n2 (n1 busy now first).
    // A short one-node job then prefers n2 (reserved, 0 left at 10) over n3 (1 left).
    const spec = cluster(Array.from({ length: 3 }, (_, i) => node(`n${i + 1}`, 1)), [])
    const { m, sel } = machineOf(spec, [J(1, { nodes: 1 }), J(3, { nodes: 3 }), J(1, { nodes: 1 })])
    m.allocate(0, (m.select(0, VIEW_FREE, PREF_NONE, sel), sel))
    const res = new Selection(3)
    expect(m.earliest(1, 1, Int32Array.from([0]), 1, Float64Array.from([10]), res)).toBe(10)
    expect(nodesOf(res)).toEqual([0, 1, 2])
    const r2 = new Selection(3)
    const c = machineOf(spec, [J(1, { nodes: 1 }), J(2, { nodes: 2, procs: 2 }), J(1, { nodes: 1 }), J(1, { nodes: 1 })])
    c.m.allocate(0, (c.m.select(0, VIEW_FREE, PREF_NONE, c.sel), c.sel)) // n1
    c.m.allocate(3, (c.m.select(3, VIEW_FREE, PREF_NONE, c.sel), c.sel)) // n2
    // Job 1 (2 nodes) blocked: one free node (n3). Estimated ends: n1's job 10, n2's job 20.
    expect(c.m.fitsNow(1, c.sel)).toBe(false)
    expect(c.m.earliest(1, 1, Int32Array.from([0, 3]), 2, Float64Array.from([10, 20]), r2)).toBe(10)
    expect(nodesOf(r2)).toEqual([0, 2]) // n1 (busy now) and n3
    expect(c.m.select(2, VIEW_FREE, PREF_RESERVED, c.sel) && nodesOf(c.sel)).toEqual([2]) // the only free node
  })
})

describe('earliestCount: the count reservation of a flexible CPU-only job', () => {
  it('counts only the CPUs released on the blocked job\'s partition', () => {
    // Nodes a, b, c (4 CPUs). A = {a, b}, B = {b, c}, ALL = {a, b, c}.
    // J1 (B, flexible 8) holds b and c until 10; J2 (A, one node, 4) holds a until 20.
    // F (A, flexible 6): at 10 J1 gives back b's 4 CPUs to A (c is not A's): 4 < 6; at 20 J2's 4: 8 → shadow 20, extra 2.
    // G (ALL, flexible 6): at 10 J1's 8 → shadow 10, extra 2.
    const spec = cluster([node('a', 4), node('b', 4), node('c', 4)], [partition('A', [0, 1], { isDefault: true }), partition('B', [1, 2]), partition('ALL', [0, 1, 2])])
    const { m, sel } = machineOf(spec, [J(8, { partition: 1 }), J(4, { nodes: 1 }), J(6), J(6, { partition: 2 })])
    m.allocate(0, (m.select(0, VIEW_FREE, PREF_NONE, sel), sel))
    expect(nodesOf(sel)).toEqual([1, 2])
    m.allocate(1, (m.select(1, VIEW_FREE, PREF_NONE, sel), sel))
    expect(nodesOf(sel)).toEqual([0])
    expect(m.isCountOnly(2) && m.isCountOnly(3)).toBe(true)
    const order = Int32Array.from([0, 1]), est = Float64Array.from([10, 20]) // ends beside the jobs
    expect(m.earliestCount(2, 1, order, 2, est)).toBe(20)
    expect(m.extraCount).toBe(2)
    expect(m.earliestCount(3, 1, order, 2, est)).toBe(10)
    expect(m.extraCount).toBe(2)
    expect(m.cpusIn(sel, 1)).toBe(0) // J2's selection (node a) has no CPU in B
  })
})

describe('allocation bookkeeping', () => {
  it('random allocate/release keeps the free state and the per-partition totals equal to a recount', () => {
    const spec = cluster(
      [node('a', 4, { gpus: 1, memMB: 4000 }), node('b', 8, { memMB: 8000 }), node('c', 2, { threadsPerCore: 2, memMB: 2000 }), node('d', 6, { gpus: 2, memMB: 6000 })],
      [partition('p', [0, 1, 2]), partition('q', [1, 2, 3]), partition('x', [0, 3], { overSubscribe: 'EXCLUSIVE' })],
      { unit: 'core', memory: true }, { defMemPerCpu: 250 },
    )
    const jobArb = fc.record({ procs: fc.integer({ min: 1, max: 12 }), nodes: fc.integer({ min: 0, max: 3 }), partition: fc.integer({ min: 0, max: 2 }), gpus: fc.integer({ min: 0, max: 1 }) })
    fc.assert(fc.property(fc.array(jobArb, { minLength: 1, maxLength: 40 }), fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 80, maxLength: 80 }), (js, ops) => {
      const jobs = js.map((x) => J(x.procs, { nodes: x.nodes, partition: x.partition, gpusPerNode: x.gpus }))
      const { m, sel } = machineOf(spec, jobs)
      const running: number[] = []
      for (const op of ops) {
        if (op % 2 === 0 && running.length > 0) {
          const j = running.splice(op % running.length, 1)[0]
          m.release(j)
        } else {
          const j = op % jobs.length
          if (m.allocOff[j] >= 0) continue
          const can = m.select(j, VIEW_FREE, PREF_NONE, sel)
          if (m.quickReject(j)) expect(can).toBe(false) // the quick reject never refuses a job that fits
          if (can) { m.allocate(j, sel); running.push(j) }
        }
        // Recount from the allocations.
        const cpu = spec.nodes.map((x) => x.cpus), mem = spec.nodes.map((x) => x.memMB), gpu = spec.nodes.map((x) => x.gpus)
        for (const j of running) {
          for (let k = m.allocOff[j]; k < m.allocOff[j] + m.allocLen[j]; k++) {
            const i = m.allocNode(k)
            cpu[i] -= m.allocCpus(k); mem[i] -= m.allocMem(k); gpu[i] -= m.allocGpus(k)
          }
        }
        expect([...m.freeCpu]).toEqual(cpu)
        expect([...m.freeMem]).toEqual(mem)
        expect([...m.freeGpu]).toEqual(gpu)
        expect(cpu.every((c) => c >= 0) && mem.every((x) => x >= 0) && gpu.every((x) => x >= 0)).toBe(true)
        spec.partitions.forEach((p, pi) => {
          expect(m.partFreeCpu[pi]).toBe(p.nodes.reduce((s, i) => s + cpu[i], 0))
          expect(m.partFreeGpu[pi]).toBe(p.nodes.reduce((s, i) => s + gpu[i], 0))
          expect(m.partIdle[pi]).toBe(p.nodes.filter((i) => cpu[i] === spec.nodes[i].cpus).length)
          expect(m.partMaxFree[pi]).toBe(Math.max(...p.nodes.map((i) => cpu[i])))
        })
        expect(m.totalFreeCpu).toBe(cpu.reduce((s, c) => s + c, 0))
      }
    }), { numRuns: 150 })
  })

  it('the allocation pool compacts when full and keeps every running job\'s entries', () => {
    // 2 single-CPU nodes: pool capacity 2·2 + 2 = 6 entries; 50 cycles force compactions.
    const spec = cluster([node('a', 1), node('b', 1)], [])
    const jobs = Array.from({ length: 100 }, () => J(1, { nodes: 1 }))
    const { m, sel } = machineOf(spec, jobs)
    m.allocate(0, (m.select(0, VIEW_FREE, PREF_NONE, sel), sel)) // a, held throughout
    for (let j = 1; j < 100; j++) {
      expect(m.fitsNow(j, sel) && nodesOf(sel)).toEqual([1])
      m.allocate(j, sel)
      m.release(j)
    }
    expect(m.allocNode(m.allocOff[0])).toBe(0)
    expect(m.freeCpu[0]).toBe(0)
    m.release(0)
    expect(m.totalFreeCpu).toBe(2)
    expect(m.runningCount).toBe(0)
  })

  it('releasing a job that is not running, or allocating one twice, is an error', () => {
    const { m, sel } = machineOf(cluster([node('a', 2)], []), [J(1, { nodes: 1 })])
    expect(() => m.release(0)).toThrow(/not running/)
    m.allocate(0, (m.select(0, VIEW_FREE, PREF_NONE, sel), sel))
    expect(() => m.allocate(0, sel)).toThrow(/already running/)
  })

  it('a release after a reservation moves the node in VIEW_CAPPED to min(scratch, free), by hand', () => {
    // Node a, 4 CPUs: R1 (1 CPU) and R2 (2 CPUs) run, so 1 is free. A first scratch: both released
    // (4), a 3-CPU reservation leaves 1 = the free CPU, capped 1. A second: R1 released (2), a 2-CPU
    // reservation leaves 0, below the free CPU: capped 0, and a 1-CPU job cannot go beside it; then
    // R2 released: scratch 2, above the free CPU: capped back to min(2, 1) = 1, and it can.
    const { m, sel } = machineOf(cluster([node('a', 4)], []), [J(1, { nodes: 1 }), J(2, { nodes: 1 }), J(3, { nodes: 1 }), J(1, { nodes: 1 })])
    for (const j of [0, 1]) m.allocate(j, (m.select(j, VIEW_FREE, PREF_NONE, sel), sel))
    expect(m.cpusAvailable(0, VIEW_FREE)).toBe(1)
    m.scratchBegin()
    m.scratchRelease(0) // scratch 2
    expect(m.select(2, VIEW_SHADOW, PREF_BUSY_NOW, sel)).toBe(false) // 3 CPUs: not yet
    m.scratchRelease(1) // scratch 4
    expect(m.select(2, VIEW_SHADOW, PREF_BUSY_NOW, sel)).toBe(true)
    m.scratchTake(sel) // scratch 1 = free 1
    expect(m.cpusAvailable(0, VIEW_CAPPED)).toBe(1)
    m.scratchBegin()
    m.scratchRelease(0) // scratch 2
    expect(m.select(2, VIEW_SHADOW, PREF_BUSY_NOW, sel)).toBe(false)
    const two = new Selection(1)
    two.nodes[0] = 0; two.cpus[0] = 2; two.len = 1
    m.scratchTake(two) // scratch 0, below the free CPU: capped 0
    expect(m.cpusAvailable(0, VIEW_CAPPED)).toBe(0)
    expect(m.partCappedCpu[0]).toBe(0)
    expect(m.select(3, VIEW_CAPPED, PREF_NONE, sel)).toBe(false)
    m.scratchRelease(1) // scratch 2, above the free CPU: capped back to 1
    expect(m.cpusAvailable(0, VIEW_CAPPED)).toBe(1)
    expect(m.partCappedCpu[0]).toBe(1)
    expect(m.cappedReject(3)).toBe(false)
    expect(m.select(3, VIEW_CAPPED, PREF_NONE, sel)).toBe(true)
  })

  it('VIEW_SHADOW copies on touch: releasing into the scratch leaves the real state alone', () => {
    const { m, sel } = machineOf(cluster([node('a', 4), node('b', 4)], []), [J(4, { nodes: 1 }), J(4, { nodes: 2 })])
    m.allocate(0, (m.select(0, VIEW_FREE, PREF_NONE, sel), sel))
    m.scratchBegin()
    m.scratchRelease(0)
    expect(m.cpusAvailable(0, VIEW_SHADOW)).toBe(4)
    expect(m.cpusAvailable(0, VIEW_FREE)).toBe(0)
    expect(m.select(1, VIEW_SHADOW, PREF_BUSY_NOW, sel)).toBe(true)
    m.scratchBegin() // a new scratch forgets the release
    expect(m.cpusAvailable(0, VIEW_SHADOW)).toBe(0)
  })
})

describe('select (bucketed) equals selectScan (the plain scan) in every view and preference', () => {
  it('random machines, allocations, scratch releases and reservations', () => {
    const nodeArb = fc.record({ cpus: fc.integer({ min: 1, max: 6 }), tpc: fc.constantFrom(1, 2), mem: fc.constantFrom(1000, 4000), gpus: fc.integer({ min: 0, max: 2 }), weight: fc.integer({ min: 1, max: 2 }) })
    const jobArb = fc.record({ procs: fc.integer({ min: 1, max: 10 }), nodes: fc.integer({ min: 0, max: 3 }), partition: fc.integer({ min: 0, max: 1 }), gpus: fc.integer({ min: 0, max: 1 }), mem: fc.constantFrom(0, 0, 800), exclusive: fc.boolean() })
    fc.assert(fc.property(
      fc.array(nodeArb, { minLength: 1, maxLength: 40 }), fc.array(jobArb, { minLength: 2, maxLength: 30 }),
      fc.record({ unit: fc.constantFrom<'cpu' | 'core'>('cpu', 'core'), memory: fc.boolean() }), fc.array(fc.integer({ min: 0, max: 999 }), { minLength: 10, maxLength: 60 }),
      (ns, js, sel0, ops) => {
        const nodes = ns.map((x, i) => node(`n${i}`, x.cpus * x.tpc, { threadsPerCore: x.tpc, memMB: x.mem, gpus: x.gpus, weight: x.weight }))
        const all = nodes.map((_, i) => i)
        const spec = cluster(nodes, [partition('a', all, { isDefault: true }), partition('b', all.filter((i) => i % 3 !== 1))], sel0, { defMemPerCpu: null })
        const jobs = js.map((x) => J(x.procs, { nodes: x.nodes, partition: x.partition, gpusPerNode: x.gpus, memPerNode: x.mem, exclusive: x.exclusive }))
        const { m, sel } = machineOf(spec, jobs)
        const ref = new Selection(nodes.length)
        const running: number[] = []
        const same = (j: number, view: 0 | 1 | 2, pref: 0 | 1 | 2) => {
          const a = m.select(j, view, pref, sel)
          const b = m.selectScan(j, view, pref, ref)
          expect(a, `job ${j} view ${view} pref ${pref}`).toBe(b)
          if (a) {
            expect(nodesOf(sel), `job ${j} view ${view} pref ${pref}`).toEqual(nodesOf(ref))
            expect(cpusOf(sel)).toEqual(cpusOf(ref))
            // Unordered (a reservation's set): the same nodes with the same CPUs, memory and GPUs.
            expect(m.select(j, view, pref, sel, true)).toBe(true)
            expect(takenSet(sel), `job ${j} view ${view} pref ${pref} unordered`).toEqual(takenSet(ref))
          } else expect(m.select(j, view, pref, sel, true)).toBe(false)
        }
        for (const op of ops) {
          const j = op % jobs.length
          if (op % 5 === 0 && running.length > 0) { m.release(running.splice(op % running.length, 1)[0]); continue }
          if (op % 5 === 1 && running.length > 0) {
            // A scratch: release some running jobs, reserve a job there, then compare every view.
            m.scratchBegin()
            for (let k = 0; k < running.length; k += 2) m.scratchRelease(running[k])
            if (m.allocOff[j] < 0 && m.select(j, VIEW_SHADOW, PREF_BUSY_NOW, ref)) m.scratchTake(ref)
            const compare = () => {
              // The capped layer's per-partition totals, while it is kept, are the capped view's CPUs.
              if ((m as unknown as { cappedLive: boolean }).cappedLive) {
                spec.partitions.forEach((part, p) => expect(m.partCappedCpu[p], `partition ${p}`).toBe(part.nodes.reduce((a, i) => a + m.cpusAvailable(i, VIEW_CAPPED), 0)))
              }
              for (let q = 0; q < jobs.length; q++) {
                if (m.allocOff[q] >= 0) continue
                for (const v of [VIEW_FREE, VIEW_SHADOW, VIEW_CAPPED] as const) for (const pr of [PREF_NONE, PREF_BUSY_NOW, PREF_RESERVED] as const) same(q, v, pr)
                // The capped quick reject never refuses a job that fits beside the reservation.
                if (m.cappedReject(q)) expect(m.selectScan(q, VIEW_CAPPED, PREF_NONE, ref)).toBe(false)
              }
            }
            compare()
            // Releases after the reservation took CPUs (the scratch below the free state on its
            // nodes): the capped layer must follow them too.
            if (op % 3 === 0) {
              for (let k = 1; k < running.length; k += 2) m.scratchRelease(running[k])
              compare()
            }
            continue
          }
          if (m.allocOff[j] >= 0) continue
          same(j, VIEW_FREE, PREF_NONE)
          if (m.select(j, VIEW_FREE, PREF_NONE, sel)) { m.allocate(j, sel); running.push(j) }
        }
      }), { numRuns: 200 })
  })
})
