// Properties of the Slurm scheduler on pseudo-random mixes (two partitions sharing nodes, GPUs,
// flexible and N-node jobs, wrong limits): what must hold whatever the settings
// (docs/CLUSTER.md §Slurm scheduling).
import { describe, expect, it } from 'vitest'
import { runSlurm } from '../../src/core/cluster/slurm/scheduler'
import { jobsOf, machine, scheduling, type JobDef } from '../support/slurm-cluster'
import type { SlurmScheduling } from '../../src/core/cluster/types'

function lcg(seed: number) { let s = seed; return () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648 } }

const cl = machine(
  Array.from({ length: 8 }, (_, i) => ({ name: `n${i + 1}`, cpus: 4, gpus: i < 2 ? 2 : 0 })),
  [{ name: 'all', nodes: ['n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8'] }, { name: 'gpu', nodes: ['n1', 'n2'], tier: 2 }],
)

function mix(seed: number, n: number, onePartition = false): JobDef[] {
  const r = lcg(seed)
  const out: JobDef[] = []
  let at = 0
  for (let k = 0; k < n; k++) {
    at += Math.floor(r() * 6)
    const gpu = !onePartition && r() < 0.2
    const nodes = gpu ? 1 : (r() < 0.4 ? 0 : 1 + Math.floor(r() * 4))
    const runs = 1 + Math.floor(r() * 40)
    out.push({
      name: `j${k}`, at, runs, limit: runs + Math.floor(r() * 3 * runs), part: gpu ? 'gpu' : 'all', nodes,
      cpus: nodes === 0 ? 1 + Math.floor(r() * 8) : nodes * (1 + Math.floor(r() * 4)), gpusPerNode: gpu ? 1 + Math.floor(r() * 2) : 0,
      user: k % 3, account: k % 2,
    })
  }
  return out
}

const settings: Array<[string, SlurmScheduling]> = [
  ['builtin', scheduling({ type: 'builtin' })],
  ['backfill', scheduling()],
  ['EASY per partition', scheduling({ bf: { jobPartCountReserve: 1 } })],
  ['tight limits', scheduling({ sched: { defaultQueueDepth: 2, maxJobStart: 1 }, bf: { maxJobTest: 3, maxJobStart: 1, window: 30 * 60, resolution: 600, maxJobUser: 1 } })],
  ['multifactor', scheduling({ priority: { type: 'multifactor', weightAge: 1000, weightFairshare: 2000, weightJobSize: 500, favorSmall: true, accounting: true, calcPeriod: 60, maxAge: 3600 } })],
]

describe('every mix, every setting', () => {
  for (const [name, sch] of settings) {
    for (const idealised of [false, true]) {
      it(`${name}, ${idealised ? 'idealised' : 'real'} timing: every job starts, not before it is submitted, the same twice`, () => {
        for (const seed of [1, 2, 3]) {
          const defs = mix(seed, 120)
          const jobs = jobsOf(cl, defs)
          // Every allocation, to check the nodes' CPUs and GPUs are never over-used.
          const use: Array<[number, number, number, number, number]> = [] // start, end, node, cpus, gpus
          const a = runSlurm(jobs, cl, sch, {}, { idealised, unixStartTime: 17, trace: {
            start: (j, t, nodes, cpus, gpus) => nodes.forEach((i, k) => use.push([t, t + jobs.runtime[j], i, cpus[k], gpus[k]])),
          } })
          for (const [t] of use) {
            for (let i = 0; i < cl.nodes.length; i++) {
              let c = 0, g = 0
              for (const [s, e, x, cc, gg] of use) if (x === i && s <= t && t < e) { c += cc; g += gg }
              expect(c).toBeLessThanOrEqual(cl.nodes[i].cpus)
              expect(g).toBeLessThanOrEqual(cl.nodes[i].gpus)
            }
          }
          const b = runSlurm(jobs, cl, sch, {}, { idealised, unixStartTime: 17 })
          expect(Array.from(a.start)).toEqual(Array.from(b.start))
          for (let j = 0; j < jobs.count; j++) {
            expect(a.start[j]).toBeGreaterThanOrEqual(jobs.submit[j])
            expect(a.firstNode[j]).toBeGreaterThanOrEqual(0)
            if (jobs.gpusPerNode[j] > 0) expect(a.firstNode[j]).toBeLessThan(2) // GPU jobs only on n1, n2
            if (sch.schedulerType === 'builtin') expect(a.backfilled[j]).toBe(0)
          }
        }
      })
    }
  }
})

describe('sched/builtin, FIFO, one partition: nothing overtakes (the pass stops at the first blocked job)', () => {
  it('starts are in submit order', () => {
    for (const seed of [4, 5, 6]) {
      const defs = mix(seed, 150, true)
      const jobs = jobsOf(cl, defs)
      const run = runSlurm(jobs, cl, scheduling({ type: 'builtin' }), {}, {})
      for (let j = 1; j < jobs.count; j++) expect(run.start[j]).toBeGreaterThanOrEqual(run.start[j - 1])
      // …while the backfill does let jobs overtake on the same mix.
      const bf = runSlurm(jobs, cl, scheduling(), {}, {})
      let overtakes = 0
      for (let j = 1; j < jobs.count; j++) if (bf.start[j] < bf.start[j - 1]) overtakes++
      expect(overtakes).toBeGreaterThan(0)
    }
  })
})
