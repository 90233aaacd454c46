// Golden priorities of priority/multifactor (the Slurm spec's §8, G11–G14), worked by hand from
// the formula of §3.1–3.2 and the recomputation moments of §3.5 (docs/CLUSTER.md §Slurm scheduling).
import { describe, expect, it } from 'vitest'
import { MIN, jobsOf, machine, oneCpuNodes, scheduling, startsOf, type JobDef } from '../../support/slurm-cluster'
import { runSlurm, type SlurmTrace } from '../../../src/core/cluster/slurm/scheduler'
import type { ClusterSpec, SlurmScheduling } from '../../../src/core/cluster/types'

/** Runs and records every stored priority by job name: [minute, value, when]. */
function priorities(cl: ClusterSpec, defs: JobDef[], sch: SlurmScheduling, extra: { nice?: Int32Array } = {}, assumeAccounting = false) {
  const seen: Record<string, Array<[number, number, string]>> = {}
  const trace: SlurmTrace = { priority: (j, t, v, when) => { (seen[defs[j].name] ??= []).push([t / MIN, v, when]) } }
  const run = runSlurm(jobsOf(cl, defs), cl, sch, extra, { idealised: true, trace, assumeAccounting })
  return { seen, run }
}
const at = (rows: Array<[number, number, string]>, minute: number, when = 'tick') => rows.find(([t, , w]) => t === minute && w === when)?.[1]

describe('G11: the arithmetic (weights × normalised factors, nice, the floor at 1, truncation)', () => {
  // PriorityWeightPartition=1000, other weights 0. p1 PriorityJobFactor=1, p2 =3: factors 1/3 and 1.
  // p1: 1000·1/3 = 333.33 → 333 (truncated); p2: 1000; p1 nice 100: 233.33 → 233; p1 nice 500:
  // −166.67 → floored to 1. A busy node keeps them pending; priorities at submit.
  const cl = machine(oneCpuNodes(1), [{ name: 'p1', nodes: ['n1'], factor: 1 }, { name: 'p2', nodes: ['n1'], factor: 3 }])
  const defs: JobDef[] = [
    { name: 'busy', at: 0, limit: 60, part: 'p1' },
    { name: 'a', at: 1, limit: 10, part: 'p1' }, { name: 'b', at: 1, limit: 10, part: 'p2' },
    { name: 'c', at: 1, limit: 10, part: 'p1' }, { name: 'd', at: 1, limit: 10, part: 'p1' },
  ]
  const sch = scheduling({ priority: { type: 'multifactor', weightPartition: 1000 } })
  it('333, 1000, 233 and 1', () => {
    const { seen } = priorities(cl, defs, sch, { nice: Int32Array.from([0, 0, 0, 100, 500]) })
    expect([at(seen.a, 1, 'submit'), at(seen.b, 1, 'submit'), at(seen.c, 1, 'submit'), at(seen.d, 1, 'submit')]).toEqual([333, 1000, 233, 1])
  })
  it('the order follows: b (1000) first, then a, c, d, although a was submitted first', () => {
    const r = startsOf(cl, defs, sch, { idealised: true }, { nice: Int32Array.from([0, 0, 0, 100, 500]) })
    expect(r.start).toEqual({ busy: 0, b: 60, a: 70, c: 80, d: 90 })
  })
})

describe('G12: age saturates at PriorityMaxAge', () => {
  // slurmdbd, PriorityWeightAge=1000, PriorityMaxAge=10 min, PriorityCalcPeriod=1 min (ticks at whole
  // minutes), other weights 0; the node is busy throughout. X submitted 0: 1 at submit (age 0, floor),
  // then 100 at 1, 500 at 5, 1000 at 10 and still 1000 at 20 (cap). Y submitted 12: 1, 100 at 13,
  // 900 at 21, 1000 at 22; from 22 on they tie and X wins on submit time.
  const cl = machine(oneCpuNodes(1), [{ name: 'p', nodes: ['n1'] }])
  const defs: JobDef[] = [
    { name: 'busy', at: 0, limit: 30, part: 'p' }, { name: 'X', at: 0, limit: 5, part: 'p' }, { name: 'Y', at: 12, limit: 5, part: 'p' },
  ]
  const sch = scheduling({ priority: { type: 'multifactor', weightAge: 1000, maxAge: 10 * MIN, calcPeriod: 1 * MIN, accounting: true } })
  it('X: 1, 100, 500, 1000, 1000; Y: 1, 100, 900, 1000', () => {
    const { seen } = priorities(cl, defs, sch)
    expect([at(seen.X, 0, 'submit'), at(seen.X, 1), at(seen.X, 5), at(seen.X, 10), at(seen.X, 20)]).toEqual([1, 100, 500, 1000, 1000])
    expect([at(seen.Y, 12, 'submit'), at(seen.Y, 13), at(seen.Y, 21), at(seen.Y, 22)]).toEqual([1, 100, 900, 1000])
  })
  it('X before Y (tie at 1000 broken by submit time)', () => {
    expect(startsOf(cl, defs, sch).start).toEqual({ busy: 0, X: 30, Y: 35 })
  })
  it('without slurmdbd Slurm forces the age weight to 0: X stays 1 (never recomputed); a caller may keep the weight', () => {
    const noDbd = scheduling({ priority: { ...sch.priority, accounting: false } })
    const { seen } = priorities(cl, defs, noDbd)
    expect(seen.X).toEqual([[0, 1, 'submit']])
    const kept = priorities(cl, defs, noDbd, {}, true).seen
    expect([at(kept.X, 5), at(kept.X, 20)]).toEqual([500, 1000])
  })
})

describe('G13: fair-share reorders two users', () => {
  // root → acc → u1, u2 (1 share each; exactly two user associations). PriorityWeightFairshare=1000,
  // other weights 0; no decay (PriorityDecayHalfLife=0) so u1's usage is exactly what it ran.
  // u1's job W holds the 100-CPU node from 0 to 60 min: 100 CPUs × 3600 s = 360,000 CPU·s, u2 has 0.
  // u1 submits J1 at 1, u2 submits J2 at 2, both needing the whole node.
  // Classic: acc U_e = 1; u1 U_e = 1 + (1−1)·½ = 1, S = ½, F = 2^(−2) = 0.25 → 250; u2 U_e = 0 + (1−0)·½
  // = 0.5, F = 2^(−1) → 500. Fair Tree: u2 LF = ½/0 = ∞, rank 2/2 → 1000; u1 LF = ½/1, rank 1/2 → 500.
  // Either way J2 starts first (60) despite the later submit, J1 after it (120).
  const cl = machine([{ name: 'n1', cpus: 100 }], [{ name: 'p', nodes: ['n1'] }])
  const defs: JobDef[] = [
    { name: 'W', at: 0, limit: 60, part: 'p', cpus: 100, user: 1 },
    { name: 'J1', at: 1, limit: 60, part: 'p', cpus: 100, user: 1 },
    { name: 'J2', at: 2, limit: 60, part: 'p', cpus: 100, user: 2 },
  ]
  const sch = (fairTree: boolean) => scheduling({ priority: {
    type: 'multifactor', weightFairshare: 1000, decayHalfLife: 0, calcPeriod: 5 * MIN, fairTree, accounting: true,
  } })
  it('classic (NO_FAIR_TREE): 250 and 500 at the tick at 60', () => {
    const { seen, run } = priorities(cl, defs, sch(false))
    expect([at(seen.J1, 60), at(seen.J2, 60)]).toEqual([250, 500])
    expect([run.start[1] / MIN, run.start[2] / MIN]).toEqual([120, 60])
  })
  it('Fair Tree: 500 and 1000', () => {
    const { seen, run } = priorities(cl, defs, sch(true))
    expect([at(seen.J1, 60), at(seen.J2, 60)]).toEqual([500, 1000])
    expect([run.start[1] / MIN, run.start[2] / MIN]).toEqual([120, 60])
  })
  it('without fair-share J1 goes first (FIFO on equal priorities)', () => {
    const r = startsOf(cl, defs, scheduling({ priority: { type: 'multifactor', accounting: true } }))
    expect(r.start).toEqual({ W: 0, J1: 60, J2: 120 })
  })
})

describe('G14: PriorityCalcPeriod staleness flips an order', () => {
  // slurmdbd, PriorityWeightAge=6000, PriorityMaxAge=60 min, PriorityWeightPartition=500,
  // PriorityCalcPeriod=5 min (ticks 0, 5, 10…). pa (PriorityJobFactor=0) and pb (=1), both on n1.
  // R holds n1 until 9.5. X(pa) submitted 0.5: 1 at submit, 6000·4.5/60 = 450 at the tick at 5.
  // Y(pb) submitted 6: 500 at submit (age 0). At 9.5 R ends and the pass compares Y 500 > X 450
  // (stale): Y 9.5–19.5, X 19.5. Recomputed every 30 s instead, X would be 900 and Y 850 at 9.5: X first.
  const cl = machine(oneCpuNodes(1), [{ name: 'pa', nodes: ['n1'], factor: 0 }, { name: 'pb', nodes: ['n1'], factor: 1 }])
  const defs: JobDef[] = [
    { name: 'R', at: 0, limit: 10, runs: 9.5, part: 'pa' }, { name: 'X', at: 0.5, limit: 10, part: 'pa' },
    { name: 'Y', at: 6, limit: 10, part: 'pb' },
  ]
  const sch = (calcPeriod: number) => scheduling({ priority: {
    type: 'multifactor', weightAge: 6000, maxAge: 60 * MIN, weightPartition: 500, calcPeriod, accounting: true,
  } })
  it('every 5 min: X 450 (stale) < Y 500: Y 9.5, X 19.5', () => {
    const { seen } = priorities(cl, defs, sch(5 * MIN))
    expect([at(seen.X, 0.5, 'submit'), at(seen.X, 5), at(seen.Y, 6, 'submit')]).toEqual([1, 450, 500])
    expect(startsOf(cl, defs, sch(5 * MIN)).start).toEqual({ R: 0, X: 19.5, Y: 9.5 })
  })
  it('every 30 s (nearly continuous): X 900 > Y 850 at 9.5: X first', () => {
    const { seen } = priorities(cl, defs, sch(30))
    expect([at(seen.X, 9.5), at(seen.Y, 9.5)]).toEqual([900, 850])
    expect(startsOf(cl, defs, sch(30)).start).toEqual({ R: 0, X: 9.5, Y: 19.5 })
  })
})
