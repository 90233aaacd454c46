// The research's EASY on nodes (src/core/cluster/easy.ts, docs/CLUSTER.md §EASY on nodes).
// (1) The proof that "EASY on all resources" is the research's EASY: on one partition of M
//     single-CPU nodes (N = q nodes, or flexible), or on one node of M CPUs (flexible), jobs
//     without memory or GPUs start exactly when simulate() (src/core/sim/easy.ts) starts them, on
//     random workloads and every policy family, thresholds and explicit backfill orders included.
// (2) On random multi-resource machines, an independent checker (test/support/cluster.ts) finds no
//     node ever over-full, and every job starts.
// (3) The resumable form gives the same schedule when stopped at every check; 'slurm' goes to runSlurm.
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { ClusterEasySimulator, simulateEasyOnNodes } from '../../src/core/cluster/easy'
import { buildDemand, Machine, PREF_NONE, Selection, VIEW_EMPTY } from '../../src/core/cluster/machine'
import { ClusterSimulation, simulateCluster } from '../../src/core/cluster/simulate'
import type { ClusterJobs, ClusterSpec, SlurmScheduling } from '../../src/core/cluster/types'
import { simulate } from '../../src/core/sim/easy'
import type { SimConfig } from '../../src/core/sim/types'
import { checkNodeCapacity, cluster, node, partition, singleCpuNodes, type Placement } from '../support/cluster'
import { anyWorkloadArb, configArb, describePolicy, windowStartArb, type Workload } from '../support/random-workload'

// runSlurm is helper D's; here only that simulateCluster hands it the 'slurm' scheduler's parts.
vi.mock('../../src/core/cluster/slurm/scheduler', () => ({
  runSlurm: vi.fn((_jobs: unknown, _cluster: unknown, scheduling: unknown, extra: unknown, options: unknown) => ({ sentinel: true, scheduling, extra, options })),
}))

const SEED = Number(process.env.EASY_PROP_SEED ?? 20261125)

function asCluster(w: Workload, nodes: 'perProc' | 'flexible'): ClusterJobs {
  const n = w.jobs.count
  return {
    count: n, submit: w.jobs.submit, runtime: w.jobs.runtime, requested: w.jobs.requested, procs: w.jobs.procs,
    partition: new Int32Array(n), nodes: nodes === 'perProc' ? Int32Array.from(w.jobs.procs) : new Int32Array(n),
    memPerNode: new Float64Array(n), gpusPerNode: new Int32Array(n), exclusive: new Uint8Array(n),
    user: new Int32Array(n).fill(-1), account: new Int32Array(n).fill(-1), qos: new Int32Array(n).fill(-1), eligible: Float64Array.from(w.jobs.submit),
  }
}

function describeCase(w: Workload, config: SimConfig, windowStart: number | undefined): string {
  return [`machine ${w.machineProcs}, primary ${describePolicy(config.primary)}, backfill ${describePolicy(config.backfill)}, threshold ${config.threshold}, windowStart ${windowStart}`,
    ...w.raw.map((j, i) => `  ${i}: submit ${j.submit}, runtime ${j.runtime}, requested ${j.requested}, procs ${j.procs}`)].join('\n')
}

const VARIANTS: { name: string; spec: (m: number) => ClusterSpec; nodes: 'perProc' | 'flexible' }[] = [
  { name: 'M single-CPU nodes, a q-CPU job on q nodes', spec: singleCpuNodes, nodes: 'perProc' },
  { name: 'M single-CPU nodes, flexible jobs', spec: singleCpuNodes, nodes: 'flexible' },
  { name: 'one node of M CPUs, flexible jobs', spec: (m) => cluster([node('big', m)], []), nodes: 'flexible' },
]

describe('EASY on nodes equals the single-pool EASY where the two models coincide', () => {
  for (const v of VARIANTS) {
    it(`${v.name}: the same start times as simulate(), every policy family (seed ${SEED})`, () => {
      fc.assert(fc.property(anyWorkloadArb, configArb, windowStartArb, (w, config, windowStart) => {
        const options = windowStart === undefined ? {} : { windowStart }
        const single = simulate(w.jobs, w.machineProcs, config, options)
        const run = simulateEasyOnNodes(asCluster(w, v.nodes), v.spec(w.machineProcs), config, options)
        const same = single.every((x, i) => Object.is(x, run.start[i]))
        if (!same) throw new Error(`${describeCase(w, config, windowStart)}\nsingle pool [${[...single].join(', ')}]\non nodes    [${[...run.start].join(', ')}]`)
      }), { seed: SEED, numRuns: 400 })
    })
  }

  it('backfilled marks exactly the jobs that started past a blocked job (hand case)', () => {
    // 2 single-CPU nodes. t=0: A (1 node, 10) and B (2 nodes, 10) — B blocked, reserved at 10;
    // C (1 node, requested 5) ends by 10: backfilled at 0. At 10: B starts (main pass).
    const spec = singleCpuNodes(2)
    const w = { count: 3, submit: Float64Array.of(0, 0, 0), runtime: Float64Array.of(10, 10, 5), requested: Float64Array.of(10, 10, 5), procs: Int32Array.of(1, 2, 1) }
    const jobs: ClusterJobs = { ...w, partition: new Int32Array(3), nodes: Int32Array.of(1, 2, 1), memPerNode: new Float64Array(3), gpusPerNode: new Int32Array(3), exclusive: new Uint8Array(3), user: new Int32Array(3), account: new Int32Array(3), qos: new Int32Array(3), eligible: new Float64Array(3) }
    const run = simulateEasyOnNodes(jobs, spec, { primary: 'FCFS', backfill: 'same', threshold: null })
    expect([...run.start]).toEqual([0, 10, 0])
    expect([...run.backfilled]).toEqual([0, 0, 1])
    expect([...run.firstNode]).toEqual([0, 0, 1])
  })
})

/** Runs EASY on nodes and records every job's per-node allocation, for the checker. */
export function runRecorded(jobs: ClusterJobs, spec: ClusterSpec, config: SimConfig): { start: Float64Array; placements: Placement[][]; whole: (j: number) => boolean } {
  const sim = new ClusterEasySimulator(jobs, spec, config)
  const placements: Placement[][] = Array.from({ length: jobs.count }, () => [])
  const m = sim.machine
  const allocate = m.allocate.bind(m)
  m.allocate = (j: number, sel: Selection) => {
    for (let k = 0; k < sel.len; k++) placements[j].push({ node: sel.nodes[k], cpus: sel.cpus[k], mem: sel.mem[k], gpus: sel.gpus[k] })
    allocate(j, sel)
  }
  expect(sim.runUntil(Infinity)).toBe(false)
  return { start: sim.start, placements, whole: (j) => m.demand.whole[j] !== 0 }
}

describe('EASY on random multi-resource machines', () => {
  const jobArb = fc.record({
    submit: fc.integer({ min: 0, max: 60 }), runtime: fc.integer({ min: 0, max: 40 }), extra: fc.integer({ min: 0, max: 20 }),
    procs: fc.integer({ min: 1, max: 12 }), nodes: fc.integer({ min: 0, max: 3 }), partition: fc.integer({ min: 0, max: 2 }),
    gpus: fc.integer({ min: 0, max: 2 }), mem: fc.constantFrom(0, 0, 500, 2000), exclusive: fc.boolean(),
  })
  const specArb = fc.record({ memory: fc.boolean(), unit: fc.constantFrom<'cpu' | 'core'>('cpu', 'core'), defMem: fc.constantFrom<number | null>(null, 250) })
  it('no node ever holds more CPUs, memory or GPUs than it has; whole-node jobs are alone; everything starts', () => {
    fc.assert(fc.property(fc.array(jobArb, { minLength: 1, maxLength: 30 }), specArb, configArb, (raw, s, config) => {
      const spec = cluster(
        [node('a', 4, { gpus: 2, memMB: 4000 }), node('b', 8, { memMB: 8000, weight: 2 }), node('c', 4, { threadsPerCore: 2, memMB: 4000 }), node('d', 12, { gpus: 2, memMB: 12000 })],
        [partition('p', [0, 1, 2], { isDefault: true }), partition('q', [1, 2, 3]), partition('x', [0, 3], { overSubscribe: 'EXCLUSIVE' })],
        { unit: s.unit, memory: s.memory }, { defMemPerCpu: s.defMem },
      )
      const sorted = [...raw].sort((a, b) => a.submit - b.submit)
      // Keep every job placeable: GPU jobs in x or q (nodes a, d), at most 4 CPUs per node.
      const list = sorted.map((r) => {
        const part = r.gpus > 0 ? (r.partition === 0 ? 2 : r.partition) : r.partition
        const nn = r.nodes === 0 ? 0 : Math.min(r.nodes, 2)
        const procs = nn === 0 ? Math.min(r.procs, r.gpus > 0 ? 4 : 12) : Math.min(r.procs, 4 * nn)
        const q = r.gpus > 0 && nn === 0 ? Math.min(procs, 4) : procs
        return { ...r, partition: part, nodes: Math.min(r.gpus > 0 && nn === 0 ? 1 : nn, q), procs: q }
      })
      const all = toJobs(list)
      const empty = new Machine(spec, buildDemand(all, spec))
      const sel = new Selection(spec.nodes.length)
      const fits = list.filter((_, j) => empty.select(j, VIEW_EMPTY, PREF_NONE, sel))
      fc.pre(fits.length > 0)
      const jobs = toJobs(fits)
      const { start, placements, whole } = runRecorded(jobs, spec, config)
      const errors = checkNodeCapacity(spec, jobs, start, placements, whole)
      if (errors.length > 0) throw new Error(errors.slice(0, 5).join('\n'))
    }), { seed: SEED, numRuns: 300 })
  })
})

interface RJob { submit: number; runtime: number; extra: number; procs: number; nodes: number; partition: number; gpus: number; mem: number; exclusive: boolean }
function toJobs(list: readonly RJob[]): ClusterJobs {
      const n = list.length
      return {
        count: n, submit: Float64Array.from(list, (r) => r.submit), runtime: Float64Array.from(list, (r) => r.runtime),
        requested: Float64Array.from(list, (r) => r.runtime + r.extra + 1), procs: Int32Array.from(list, (r) => r.procs),
        partition: Int32Array.from(list, (r) => r.partition), nodes: Int32Array.from(list, (r) => r.nodes),
        memPerNode: Float64Array.from(list, (r) => r.mem), gpusPerNode: Int32Array.from(list, (r) => r.gpus),
        exclusive: Uint8Array.from(list, (r) => (r.exclusive ? 1 : 0)), user: new Int32Array(n), account: new Int32Array(n), qos: new Int32Array(n), eligible: Float64Array.from(list, (r) => r.submit),
      }
}

describe('simulateCluster and its resumable form', () => {
  const spec = cluster([node('a', 4), node('b', 4)], [])
  const w = { count: 4, submit: Float64Array.of(0, 1, 2, 3), runtime: Float64Array.of(10, 5, 3, 8), requested: Float64Array.of(10, 6, 4, 9), procs: Int32Array.of(4, 8, 2, 4) }
  const jobs: ClusterJobs = { ...w, partition: new Int32Array(4), nodes: Int32Array.of(1, 2, 1, 0), memPerNode: new Float64Array(4), gpusPerNode: new Int32Array(4), exclusive: new Uint8Array(4), user: new Int32Array(4), account: new Int32Array(4), qos: new Int32Array(4), eligible: Float64Array.from(w.submit) }
  const config: SimConfig = { primary: 'SPF', backfill: 'same', threshold: null }

  it("'easy' dispatches to EASY on nodes; stopping at every check and resuming gives the same schedule", () => {
    const plain = simulateCluster(jobs, spec, { kind: 'easy', config })
    expect([...plain.start]).toEqual([...simulateEasyOnNodes(jobs, spec, config).start])
    const sim = new ClusterSimulation(jobs, spec, { kind: 'easy', config }, { checkEvery: 1, onCheck: () => true })
    let stops = 0
    while (sim.runUntil(Infinity)) stops++
    expect(stops).toBeGreaterThan(0)
    expect([...sim.result().start]).toEqual([...plain.start])
    expect(sim.jobsStarted).toBe(4)
  })

  it('an empty log gives an empty schedule', () => {
    const none: ClusterJobs = { count: 0, submit: new Float64Array(0), runtime: new Float64Array(0), requested: new Float64Array(0), procs: new Int32Array(0), partition: new Int32Array(0), nodes: new Int32Array(0), memPerNode: new Float64Array(0), gpusPerNode: new Int32Array(0), exclusive: new Uint8Array(0), user: new Int32Array(0), account: new Int32Array(0), qos: new Int32Array(0), eligible: new Float64Array(0) }
    const run = simulateCluster(none, spec, { kind: 'easy', config })
    expect([run.start.length, run.backfilled.length, run.firstNode.length]).toEqual([0, 0, 0])
  })

  it('a job that can never fit its partition is a clear error, not a hang', () => {
    const big: ClusterJobs = { ...jobs, count: 1, submit: Float64Array.of(0), runtime: Float64Array.of(1), requested: Float64Array.of(1), procs: Int32Array.of(5), nodes: Int32Array.of(1), partition: Int32Array.of(0), memPerNode: Float64Array.of(0), gpusPerNode: Int32Array.of(0), exclusive: Uint8Array.of(0), eligible: Float64Array.of(0) }
    // 5 CPUs on one node of a machine of 4-CPU nodes: blocked with nothing running → no shadow time.
    expect(() => simulateCluster(big, spec, { kind: 'easy', config })).toThrow(/does not fit partition all even when every running job has ended/)
  })

  it("'slurm' goes to runSlurm with the scheduling, site factor, nice and options", () => {
    const scheduling = { schedulerType: 'backfill' } as unknown as SlurmScheduling
    const nice = Int32Array.of(0, 0, 0, 0)
    const out = simulateCluster(jobs, spec, { kind: 'slurm', scheduling, nice }, { unixStartTime: 5 }) as unknown as Record<string, unknown>
    expect(out).toEqual({ sentinel: true, scheduling, extra: { siteFactor: undefined, nice }, options: { unixStartTime: 5 } })
  })
})

describe('the node-capacity checker itself', () => {
  it('reports an over-full node, a whole-node job sharing, a node outside the partition and a job that never started', () => {
    const spec = cluster([node('a', 4), node('b', 4)], [partition('p', [0])])
    const w = { count: 3, submit: Float64Array.of(0, 0, 0), runtime: Float64Array.of(10, 10, 10), requested: Float64Array.of(10, 10, 10), procs: Int32Array.of(3, 2, 1) }
    const jobs: ClusterJobs = { ...w, partition: new Int32Array(3), nodes: Int32Array.of(1, 1, 1), memPerNode: new Float64Array(3), gpusPerNode: new Int32Array(3), exclusive: new Uint8Array(3), user: new Int32Array(3), account: new Int32Array(3), qos: new Int32Array(3), eligible: new Float64Array(3) }
    const pl = (node: number, cpus: number): Placement[] => [{ node, cpus, mem: 0, gpus: 0 }]
    // 3 + 2 CPUs on a 4-CPU node at t=0.
    expect(checkNodeCapacity(spec, jobs, Float64Array.of(0, 0, 20), [pl(0, 3), pl(0, 2), pl(0, 1)], () => false).join(' ')).toMatch(/holds 5 CPUs of 4/)
    // Job 1 starts when job 0 ends (t=10): fine; job 2 on node b (not in p).
    expect(checkNodeCapacity(spec, jobs, Float64Array.of(0, 10, 20), [pl(0, 3), pl(0, 2), pl(1, 1)], () => false).join(' ')).toMatch(/outside its partition/)
    expect(checkNodeCapacity(spec, jobs, Float64Array.of(0, 10, 20), [pl(0, 3), pl(0, 2), pl(0, 1)], () => false)).toEqual([])
    expect(checkNodeCapacity(spec, jobs, Float64Array.of(0, 0, NaN), [pl(0, 1), pl(0, 2), pl(0, 1)], (j) => j === 0).join(' ')).toMatch(/shares a whole-node job.*never started|never started.*shares a whole-node job/)
  })
})
