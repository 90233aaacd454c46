// Golden schedules of the research's EASY on the node-level machine (docs/CLUSTER.md §Allocation,
// §EASY on nodes), worked by hand from those rules — never pasted from the program's output. Each
// case says, event by event, why each job starts when it does. Order FCFS, no threshold, backfill
// in the same order unless said. Jobs run exactly their requested time unless said. Times in s.
// An independent checker (test/support/cluster.ts) also replays each schedule on its own per-node
// bookkeeping: no node ever holds more than it has.
import { describe, expect, it } from 'vitest'
import { ClusterEasySimulator } from '../../../src/core/cluster/easy'
import type { Selection } from '../../../src/core/cluster/machine'
import type { ClusterSpec } from '../../../src/core/cluster/types'
import type { SimConfig } from '../../../src/core/sim/types'
import { checkNodeCapacity, cluster, clusterJobs, node, partition, type CJob, type Placement } from '../../support/cluster'

const FCFS: SimConfig = { primary: 'FCFS', backfill: 'same', threshold: null }

interface Named extends CJob { name: string }

/** Runs EASY on nodes; answers name → start, name → backfilled, name → first node's name, and checks capacities. */
function run(spec: ClusterSpec, list: Named[], config: SimConfig = FCFS): { start: Record<string, number>; backfilled: Record<string, number>; node: Record<string, string> } {
  const jobs = clusterJobs(list)
  const sim = new ClusterEasySimulator(jobs, spec, config)
  const placements: Placement[][] = list.map(() => [])
  const m = sim.machine
  const allocate = m.allocate.bind(m)
  m.allocate = (j: number, sel: Selection) => {
    for (let k = 0; k < sel.len; k++) placements[j].push({ node: sel.nodes[k], cpus: sel.cpus[k], mem: sel.mem[k], gpus: sel.gpus[k] })
    allocate(j, sel)
  }
  expect(sim.runUntil(Infinity)).toBe(false)
  expect(checkNodeCapacity(spec, jobs, sim.start, placements, (j) => m.demand.whole[j] !== 0)).toEqual([])
  const start: Record<string, number> = {}, backfilled: Record<string, number> = {}, nodeOf: Record<string, string> = {}
  list.forEach((x, j) => { start[x.name] = sim.start[j]; backfilled[x.name] = sim.backfilled[j]; nodeOf[x.name] = spec.nodes[sim.firstNode[j]].name })
  return { start, backfilled, node: nodeOf }
}

const job = (name: string, submit: number, procs: number, requested: number, extra: Partial<CJob> = {}): Named =>
  ({ name, submit, procs, requested, runtime: requested, nodes: 1, ...extra })

describe('GPUs binding before CPUs', () => {
  it('a GPU job waits with idle CPUs; a CPU job is backfilled beside its reservation', () => {
    // Node g1: 4 CPUs, 2 GPUs (CR_CPU).
    // t=0 G1 (1 CPU, 2 GPUs, 10) starts on g1: 3 CPUs, 0 GPUs free.
    // t=1 G2 (1 CPU, 1 GPU, 10): no free GPU, so g1 is out whatever its 3 idle CPUs: blocked.
    //     Shadow: G1 ends at 10 → g1 has 4 CPUs, 2 GPUs → G2 reserved on g1 at 10, leaving 3 CPUs, 1 GPU there.
    // t=2 C (2 CPUs, no GPU, 30): fits now (3 idle CPUs); ends 32 > 10, but 2 CPUs ≤ the 3 left
    //     beside the reservation (min(free now 3, left 3)): backfilled at 2.
    // t=10 G1 ends: g1 has 2 CPUs, 2 GPUs: G2 starts (main pass).
    // (Slurm reserves whole nodes and would start C at 10: docs/CLUSTER.md §EASY on nodes; the research's EASY is per resource.)
    const spec = cluster([node('g1', 4, { gpus: 2 })], [])
    const r = run(spec, [job('G1', 0, 1, 10, { gpusPerNode: 2 }), job('G2', 1, 1, 10, { gpusPerNode: 1 }), job('C', 2, 2, 30)])
    expect(r.start).toEqual({ G1: 0, G2: 10, C: 2 })
    expect(r.backfilled).toEqual({ G1: 0, G2: 0, C: 1 })
  })

  it('a node with idle CPUs but no free GPU is skipped for a CPU-rich GPU-poor choice', () => {
    // Nodes a (16 CPUs, 0 GPUs) and g (4 CPUs, 1 GPU). t=0 X (2 CPUs, 1 GPU, 10) → g (the only node with a GPU).
    // t=1 Y (1 CPU, 1 GPU, 10): a has 16 idle CPUs but no GPU; g has no free GPU: blocked, reserved on g at 10.
    // t=2 Z (2 CPUs, no GPU, 30): long. g is reserved: left at 10 = 4 − 1 = 3 CPUs, free now 2 → fits there;
    //     a is not reserved: 16 free. Best fit: g (2 usable CPUs) before a (16): Z on g at 2, backfilled.
    // t=10 X ends: g has 2 CPUs, 1 GPU: Y starts at 10.
    const spec = cluster([node('a', 16), node('g', 4, { gpus: 1 })], [])
    const r = run(spec, [job('X', 0, 2, 10, { gpusPerNode: 1 }), job('Y', 1, 1, 10, { gpusPerNode: 1 }), job('Z', 2, 2, 30)])
    expect(r.start).toEqual({ X: 0, Y: 10, Z: 2 })
    expect(r.node).toEqual({ X: 'g', Y: 'g', Z: 'g' })
  })
})

describe('node fragmentation', () => {
  it('free CPUs on several nodes do not start a one-node job', () => {
    // Nodes a, b: 4 CPUs each. t=0 A (2 nodes, 4 CPUs → 2 per node, 10): a and b keep 2 free each.
    // t=1 B (1 node, 4 CPUs, 10): 4 CPUs are free in all, but no node has 4: blocked. (The single pool
    //     of 8 CPUs would start it at 1.) Shadow 10: A ends, a and b have 4 each; B reserved on a
    //     (tie on CPUs at 10 and on CPUs free now (2): first by index); left at 10: a 0, b 4.
    // t=2 D (1 node, 2 CPUs, 30): long; a: min(free 2, left 0) = 0, b: min(2, 4) = 2 → D on b, backfilled.
    // t=3 E (1 node, 2 CPUs, 30): long; a: left 0; b: free now 0 → refused.
    // t=10 A ends: a 4 free, b 2 free. B (4 CPUs) → a. E (2 CPUs) → b (only node with 2 left... a is full): starts 10.
    const spec = cluster([node('a', 4), node('b', 4)], [])
    const r = run(spec, [job('A', 0, 4, 10, { nodes: 2 }), job('B', 1, 4, 10), job('D', 2, 2, 30), job('E', 3, 2, 30)])
    expect(r.start).toEqual({ A: 0, B: 10, D: 2, E: 10 })
    expect(r.node).toEqual({ A: 'a', B: 'a', D: 'b', E: 'b' })
    expect(r.backfilled).toEqual({ A: 0, B: 0, D: 1, E: 0 })
  })

  it('a flexible job (no node count) spreads over the scattered CPUs', () => {
    // Same machine and A; F (flexible, 4 CPUs, 10) at 1 takes 2 on a and 2 on b: starts 1.
    const spec = cluster([node('a', 4), node('b', 4)], [])
    const r = run(spec, [job('A', 0, 4, 10, { nodes: 2 }), job('F', 1, 4, 10, { nodes: 0 })])
    expect(r.start).toEqual({ A: 0, F: 1 })
  })
})

describe('whole-node versus per-core partitions (Slurm scenario G10, docs/CLUSTER.md §Allocation: one node n1, 8 CPUs, 8000 MB)', () => {
  // t=0 A (-n2, 10), t=1 B (-n2, 10).
  const n1 = [node('n1', 8, { memMB: 8000 })]
  const jobs = (bExclusive = false): Named[] => [job('A', 0, 2, 10), job('B', 1, 2, 10, { exclusive: bExclusive })]
  it('CR_Core_Memory, no DefMemPerCPU, no --mem: A takes all 8000 MB, B waits until 10', () => {
    expect(run(cluster(n1, [], { unit: 'core', memory: true }), jobs()).start).toEqual({ A: 0, B: 10 })
  })
  it('the same with DefMemPerCPU=1000: A takes 2000 MB, B starts at 1', () => {
    expect(run(cluster(n1, [], { unit: 'core', memory: true }, { defMemPerCpu: 1000 }), jobs()).start).toEqual({ A: 0, B: 1 })
  })
  it('CR_Core, partition OverSubscribe=EXCLUSIVE: A gets all 8 CPUs, B starts at 10', () => {
    expect(run(cluster(n1, [partition('p', [0], { overSubscribe: 'EXCLUSIVE' })], { unit: 'core' }), jobs()).start).toEqual({ A: 0, B: 10 })
  })
  it('CR_Core, partition OverSubscribe=NO (the default): B starts at 1', () => {
    expect(run(cluster(n1, [partition('p', [0], { overSubscribe: 'NO' })], { unit: 'core' }), jobs()).start).toEqual({ A: 0, B: 1 })
  })
  it('CR_Core, B --exclusive: B needs the node empty, starts at 10', () => {
    expect(run(cluster(n1, [], { unit: 'core' }), jobs(true)).start).toEqual({ A: 0, B: 10 })
  })
  it('select/linear: whole nodes for everyone, B at 10', () => {
    expect(run(cluster(n1, [], { type: 'linear' }), jobs()).start).toEqual({ A: 0, B: 10 })
  })

  it('CR_Core with ThreadsPerCore=2 versus CR_CPU: three 1-CPU jobs on a 4-CPU node', () => {
    // CR_Core: each 1-CPU job takes a whole core = 2 CPUs: J1, J2 at 0 fill the node, J3 at 10.
    // CR_CPU: each takes 1 CPU: all three at 0.
    const n = [node('h', 4, { threadsPerCore: 2 })]
    const three = [job('J1', 0, 1, 10), job('J2', 0, 1, 10), job('J3', 0, 1, 10)]
    expect(run(cluster(n, [], { unit: 'core' }), three).start).toEqual({ J1: 0, J2: 0, J3: 10 })
    expect(run(cluster(n, [], { unit: 'cpu' }), three).start).toEqual({ J1: 0, J2: 0, J3: 0 })
  })
})

describe('two partitions sharing nodes', () => {
  it('a job in B waits for A\'s job on the shared node, and starts there when it ends', () => {
    // Nodes n1, n2 (4 CPUs). Partition A = n1, n2; partition B = n2.
    // t=0 R (A, 4 CPUs, 10) → n1 (tie: first); S (A, 4 CPUs, 20) → n2.
    // t=1 Y (B, 1 CPU, 5): its only node n2 is held by A's S: blocked. Shadow: R's end (10) frees n1,
    //     which is not B's; S's end (20) frees n2 → reserved on n2 at 20.
    // t=2 Z (A, 4 CPUs, 30): no node has 4 free now: waits.
    // t=10 R ends (n1 free). Y still blocked, shadow 20 on n2 (left there: 3 CPUs; n1 not reserved).
    //     Z: fits on n1 now; ends 40 > 20, but n1 is not reserved: no constraint → backfilled at 10 on n1.
    // t=20 S ends: Y starts on n2.
    const spec = cluster([node('n1', 4), node('n2', 4)], [partition('A', [0, 1], { isDefault: true }), partition('B', [1])])
    const r = run(spec, [
      job('R', 0, 4, 10), job('S', 0, 4, 20), job('Y', 1, 1, 5, { partition: 1 }), job('Z', 2, 4, 30),
    ])
    expect(r.start).toEqual({ R: 0, S: 0, Y: 20, Z: 10 })
    expect(r.node).toEqual({ R: 'n1', S: 'n2', Y: 'n2', Z: 'n1' })
    expect(r.backfilled).toEqual({ R: 0, S: 0, Y: 0, Z: 1 })
  })

  it('a job in B uses the shared node left free by A\'s jobs at once', () => {
    // Same machine. t=0 R (A, 4 CPUs, 10) → n1 (tie, first). t=1 Y (B, 4 CPUs, 5) → n2: starts 1.
    // t=2 T (A, 1 CPU, 10): n1 full, n2 full (Y): waits; at 6 Y ends → T on n2 at 6.
    const spec = cluster([node('n1', 4), node('n2', 4)], [partition('A', [0, 1], { isDefault: true }), partition('B', [1])])
    const r = run(spec, [job('R', 0, 4, 10), job('Y', 1, 4, 5, { partition: 1 }), job('T', 2, 1, 10)])
    expect(r.start).toEqual({ R: 0, Y: 1, T: 6 })
    expect(r.node).toEqual({ R: 'n1', Y: 'n2', T: 'n2' })
  })
})

describe('memory as a consumable resource', () => {
  it('no DefMemPerCPU: a job without --mem takes the whole node\'s memory, so one job per node', () => {
    // Nodes a, b (8 CPUs, 8000 MB), CR_CPU_Memory. t=0 J1, J2, J3 (1 CPU, 10 each).
    // J1 → a (tie, first) with all 8000 MB; J2: a has 7 CPUs but no memory → b; J3: no node has all its
    // memory free: blocked, reserved at 10. At 10 J1, J2 end: J3 → a.
    const spec = cluster([node('a', 8, { memMB: 8000 }), node('b', 8, { memMB: 8000 })], [], { memory: true })
    const three = [job('J1', 0, 1, 10), job('J2', 0, 1, 10), job('J3', 0, 1, 10)]
    expect(run(spec, three).start).toEqual({ J1: 0, J2: 0, J3: 10 })
    // With DefMemPerCPU=1000: 1000 MB each, all three on a at 0 (best fit: a has fewer free CPUs after J1).
    const def = run(cluster(spec.nodes, [], { memory: true }, { defMemPerCpu: 1000 }), three)
    expect(def.start).toEqual({ J1: 0, J2: 0, J3: 0 })
    expect(def.node).toEqual({ J1: 'a', J2: 'a', J3: 'a' })
  })

  it('a job\'s own memory request blocks a node with free CPUs', () => {
    // Node a (8 CPUs, 4000 MB), CR_CPU_Memory. t=0 M1 (1 CPU, 3000 MB, 10). t=1 M2 (1 CPU, 2000 MB, 10):
    // 7 CPUs free but 1000 MB: blocked, reserved at 10 (left: 7 CPUs, 2000 MB).
    // t=2 M3 (2 CPUs, 500 MB, 30): fits now (7 CPUs, 1000 MB); long; min(now, left) = 7 CPUs, 1000 MB → backfilled at 2.
    // t=10 M1 ends: 6 CPUs, 3500 MB free: M2 starts.
    const spec = cluster([node('a', 8, { memMB: 4000 })], [], { memory: true })
    const r = run(spec, [job('M1', 0, 1, 10, { memPerNode: 3000 }), job('M2', 1, 1, 10, { memPerNode: 2000 }), job('M3', 2, 2, 30, { memPerNode: 500 })])
    expect(r.start).toEqual({ M1: 0, M2: 10, M3: 2 })
  })
})

describe('the reservation on nodes and the extra rule, per node', () => {
  it('a long job is backfilled only within what the reserved node has left at the shadow time', () => {
    // Node n1: 16 CPUs.
    // t=0 R (12 CPUs, 10) starts: 4 free.
    // t=1 B (14 CPUs, 10): blocked; shadow 10 (R ends: 16 free) → reserved 14 on n1, 2 left at 10.
    // t=2 C (3 CPUs, 30): fits now (4 free) but ends 32 > 10 and 3 > the 2 left: refused.
    // t=3 D (2 CPUs, 30): ends 33 > 10, 2 ≤ 2 left: backfilled at 3 (nothing left at 10 now).
    // t=4 E (2 CPUs, 6): ends 10 ≤ 10 (the shadow time counts): backfilled at 4 (free now: 2).
    // t=10 R and E end: 14 free: B starts. C (3): 0 free; reserved at 20 (B's end).
    // t=20 B ends: C starts.
    const spec = cluster([node('n1', 16)], [])
    const r = run(spec, [job('R', 0, 12, 10), job('B', 1, 14, 10), job('C', 2, 3, 30), job('D', 3, 2, 30), job('E', 4, 2, 6)])
    expect(r.start).toEqual({ R: 0, B: 10, C: 20, D: 3, E: 4 })
    expect(r.backfilled).toEqual({ R: 0, B: 0, C: 0, D: 1, E: 1 })
  })

  it('the reservation takes the nodes busy now, keeping the idle ones for a long backfill', () => {
    // Nodes n1..n4 (1 CPU). t=0 R1 (n1, 10), R2 (n2, 10) → n1, n2.
    // t=1 B (3 nodes, 10): 2 idle nodes: blocked. At 10, n1..n4 are free; the reservation takes the
    //     nodes busy now first: n1, n2, then n3 (index). n4 is left at 10.
    // t=2 L (1 node, 50): long; n3: min(free 1, left 0) = 0; n4: min(1, 1) = 1 → backfilled on n4.
    //     (The single pool agrees: extra = 4 − 3 = 1.)
    // t=10 R1, R2 end: n1, n2, n3 free: B starts.
    const spec = cluster(Array.from({ length: 4 }, (_, i) => node(`n${i + 1}`, 1)), [])
    const r = run(spec, [job('R1', 0, 1, 10), job('R2', 0, 1, 10), job('B', 1, 3, 10, { nodes: 3 }), job('L', 2, 1, 50)])
    expect(r.start).toEqual({ R1: 0, R2: 0, B: 10, L: 2 })
    expect(r.node.L).toBe('n4')
    expect(r.node.B).toBe('n1')
  })
})
