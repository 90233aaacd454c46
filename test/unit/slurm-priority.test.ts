// priority/multifactor factor by factor (docs/CLUSTER.md §Slurm scheduling, "Priority"), and the
// fair-share arithmetic (classic and Fair Tree). Every expected value is worked by hand in the comment.
import { describe, expect, it } from 'vitest'
import { finishPriority, PRIORITY_MAX, qosFactors, SlurmPriority } from '../../src/core/cluster/slurm/priority'
import { decayPerSecond, FairShare } from '../../src/core/cluster/slurm/fairshare'
import { jobsOf, machine, priority, type JobDef } from '../support/slurm-cluster'

// 4 nodes × 8 CPUs = 32 CPUs; partitions p (factor 2, all nodes) and q (factor 4, n1 only).
const cl = machine(
  [1, 2, 3, 4].map((k) => ({ name: `n${k}`, cpus: 8, memMB: 1000, gpus: 2 })),
  [{ name: 'p', nodes: ['n1', 'n2', 'n3', 'n4'], factor: 2 }, { name: 'q', nodes: ['n1'], factor: 4 }],
)
const defs: JobDef[] = [
  { name: 'small', at: 0, limit: 10, part: 'p', nodes: 1, cpus: 8 },
  { name: 'big', at: 0, limit: 10, part: 'p', nodes: 4, cpus: 32, memPerNode: 500, gpusPerNode: 2 },
  { name: 'inQ', at: 0, limit: 10, part: 'q', nodes: 1, cpus: 4, qos: 1 },
]
const jobs = jobsOf(cl, defs)
const P = (over: Parameters<typeof priority>[0], extra: Partial<ConstructorParameters<typeof SlurmPriority>[0]> = {}) =>
  new SlurmPriority({ jobs, cluster: cl, config: priority({ type: 'multifactor', ...over }), qosNames: ['normal', 'high'], ...extra })

describe('the final arithmetic', () => {
  it('floors at 1, caps at 2^32 − 1, truncates toward zero', () => {
    expect([finishPriority(0.4), finishPriority(-5), finishPriority(1.99), finishPriority(333.9), finishPriority(5e9)]).toEqual([1, 1, 1, 333, PRIORITY_MAX])
    expect(finishPriority(NaN)).toBe(1)
  })
})

describe('factors', () => {
  it('job size, favouring large: (nodes/N + cpus/C)/2', () => {
    // small: (1/4 + 8/32)/2 = 0.25 → 1000·0.25 = 250; big: (4/4 + 32/32)/2 = 1 → 1000.
    const pr = P({ weightJobSize: 1000 })
    expect([pr.compute(0, 0, NaN, 0), pr.compute(1, 0, NaN, 0)]).toEqual([250, 1000])
  })
  it('PriorityFavorSmall: ((N − nodes)/N + (C − cpus)/C)/2', () => {
    // small: (3/4 + 24/32)/2 = 0.75 → 750; big: 0 → floored to 1.
    const pr = P({ weightJobSize: 1000, favorSmall: true })
    expect([pr.compute(0, 0, NaN, 0), pr.compute(1, 0, NaN, 0)]).toEqual([750, 1])
  })
  it('partition: PriorityJobFactor over the largest (p: 2/4, q: 4/4); NO_NORMAL_PART: raw', () => {
    expect([P({ weightPartition: 100 }).compute(0, 0, NaN, 0), P({ weightPartition: 100 }).compute(2, 0, NaN, 0)]).toEqual([50, 100])
    expect(P({ weightPartition: 100, flags: ['NO_NORMAL_PART'] }).compute(2, 0, NaN, 0)).toBe(400)
  })
  it('QOS: its priority over the largest, looked up by name; a job without QOS gets 0', () => {
    // high = 30, the largest is 60 (other): 0.5 → 500.
    const pr = P({ weightQos: 1000, qosPriority: { normal: 0, high: 30, other: 60 } })
    expect([pr.compute(2, 0, NaN, 0), pr.compute(0, 0, NaN, 0)]).toEqual([500, 1])
  })
  it('QOS: a name every object has ("constructor", "toString") is an unknown QOS, priority 0 (not NaN)', () => {
    expect(qosFactors(priority({ weightQos: 1000, qosPriority: { high: 30 } }), ['constructor', 'toString', '__proto__', 'high'])).toEqual([0, 0, 0, 1])
  })
  it('TRES: value over the partition total; NO_NORMAL_TRES uses the raw value', () => {
    // big in p: cpu 32/32 = 1, gres/gpu 8/8 = 1, mem 2000/4000 = 0.5. Weights cpu 100, mem 100, gpu 1000:
    // 100 + 50 + 1000 = 1150. Raw: 32·100 + 2000·100 + 8·1000 = 211,200.
    const w = { cpu: 100, mem: 100, 'gres/gpu': 1000 }
    expect(P({ weightTres: w }).compute(1, 0, NaN, 0)).toBe(1150)
    expect(P({ weightTres: w, flags: ['NO_NORMAL_TRES'] }).compute(1, 0, NaN, 0)).toBe(211200)
  })
  it('age: from the accrue time, saturating at PriorityMaxAge; 0 while the accrue time is unset', () => {
    const pr = P({ weightAge: 1000, maxAge: 1000, accounting: true })
    expect([pr.compute(0, 500, NaN, 0), pr.compute(0, 500, 0, 0), pr.compute(0, 5000, 0, 0), pr.compute(0, 100, 200, 0)]).toEqual([1, 500, 1000, 1])
  })
  it('age and fair-share weights are 0 without slurmdbd unless the caller keeps them', () => {
    expect(P({ weightAge: 1000, weightFairshare: 1000, maxAge: 1000 }).compute(0, 500, 0, 1)).toBe(1)
    expect(P({ weightAge: 1000, weightFairshare: 1000, maxAge: 1000 }, { assumeAccounting: true }).compute(0, 500, 0, 1)).toBe(1500)
  })
  it('site factor (static and dynamic) and nice are raw integers added and subtracted', () => {
    const st = P({ weightPartition: 100 }, { siteFactor: { kind: 'static', value: Float64Array.from([7, 0, 0]) }, nice: Int32Array.from([2, 0, 0]) })
    expect(st.compute(0, 0, NaN, 0)).toBe(50 + 7 - 2)
    const dyn = P({ weightPartition: 100 }, { siteFactor: { kind: 'dynamic', value: (j, now) => j + now } })
    expect(dyn.compute(1, 10, NaN, 0)).toBe(50 + 11)
    expect(dyn.timeDependent).toBe(true)
  })
  it('priority/basic: every job 1 (the queue falls back to submit order)', () => {
    const pr = new SlurmPriority({ jobs, cluster: cl, config: priority({ weightPartition: 1000 }) })
    expect(pr.compute(2, 0, NaN, 0)).toBe(1)
    expect(pr.timeDependent).toBe(false)
  })
})

describe('fair-share', () => {
  const fsJobs = (pairs: Array<[number, number]>) => jobsOf(cl, pairs.map(([account, user], k) => ({ name: `j${k}`, at: 0, limit: 1, part: 'p', account, user })))

  it('decay: d = 1 − 0.693/HL per second, applied as d^Δt at a tick', () => {
    expect(decayPerSecond(693)).toBeCloseTo(0.999, 12)
    expect(decayPerSecond(0)).toBe(1)
    const fs = new FairShare(fsJobs([[0, 1]]), 693, false, 1)
    fs.addUsage(0, 10, 100) // 1000 CPU·s decayed as if at the interval start: 1000·0.999^100
    expect(fs.usage[0]).toBeCloseTo(1000 * 0.999 ** 100, 9)
    fs.beginTick(50)
    expect(fs.usage[0]).toBeCloseTo(1000 * 0.999 ** 150, 9)
  })

  it('classic over two accounts: F = 2^(−(U_e/S)/damp)', () => {
    // Accounts a0 (users u1, u2) and a1 (user u3); all usage is u1's, 100 CPU·s.
    // a0: U_e = 1; u1: U_n 1, U_e = 1 + (1−1)·½ = 1, S = ½·½ = ¼ → 2^(−4) = 0.0625.
    // u2: U_e = 0 + 1·½ = ½ → 2^(−2) = 0.25. u3: a1 U_e = 0, U_e = 0 → 1.
    const fs = new FairShare(fsJobs([[0, 1], [0, 2], [1, 3]]), 0, false, 1)
    fs.addUsage(0, 1, 100)
    fs.beginTick(0); fs.endTick()
    expect(Array.from(fs.factor)).toEqual([0.0625, 0.25, 1])
    // FairShareDampeningFactor 2 halves every exponent: 2^(−2), 2^(−1), 1.
    const damp = new FairShare(fsJobs([[0, 1], [0, 2], [1, 3]]), 0, false, 2)
    damp.addUsage(0, 1, 100); damp.beginTick(0); damp.endTick()
    expect(Array.from(damp.factor)).toEqual([0.25, 0.5, 1])
  })

  it('classic: the accounts\' effective usage trails by one tick (taken before the tick\'s new usage)', () => {
    // First tick after u1's first usage: a0's U_e is still 0 (no usage before the tick), so u1's
    // U_e = 1 + (0 − 1)·½ = ½, S = ½ → 2^(−1) = 0.5; the next tick gives 2^(−2) = 0.25.
    const fs = new FairShare(fsJobs([[0, 1], [0, 2]]), 0, false, 1)
    fs.beginTick(60); fs.addUsage(0, 1, 60); fs.endTick()
    expect(fs.factor[0]).toBe(0.5)
    fs.beginTick(60); fs.addUsage(0, 1, 60); fs.endTick()
    expect(fs.factor[0]).toBe(0.25)
  })

  it('Fair Tree: ranks by level fair-share; equal LF shares a rank; tied accounts have their users merged', () => {
    // a0: u1 (usage 100), u2 (0); a1: u3 (usage 100). Root usage 200: a0 and a1 both U = ½, S = ½,
    // LF 1: tied, merged → users u1 (LF ½/1 = ½), u2 (∞), u3 (1/1 = 1). Order u2, u3, u1:
    // ranks 3, 2, 1 of 3 user associations → 1, 2/3, 1/3.
    const fs = new FairShare(fsJobs([[0, 1], [0, 2], [1, 3]]), 0, true, 1)
    fs.addUsage(0, 1, 100); fs.addUsage(2, 1, 100)
    fs.beginTick(0); fs.endTick()
    expect(Array.from(fs.factor)).toEqual([1 / 3, 1, 2 / 3])
    // No usage at all: every LF is ∞, all tied at rank 3: 1.0 each.
    const idle = new FairShare(fsJobs([[0, 1], [0, 2], [1, 3]]), 0, true, 1)
    expect(Array.from(idle.factor)).toEqual([1, 1, 1])
  })

  it('raw shares when given: level_shares is the siblings\' sum', () => {
    // a0 (3 shares) → u1; a1 (1 share) → u2; 100 CPU·s each, root 200.
    // Classic: u1 U_e = ½, S = ¾ → 2^(−(½)/(¾)) = 2^(−2/3); u2 U_e = ½, S = ¼ → 2^(−2) = 0.25.
    // Fair Tree: a0 LF = ¾/½ = 1.5 before a1 LF = ¼/½ = 0.5: u1 rank 2/2 = 1, u2 rank 1/2 = 0.5.
    const shares = { account: [3, 1] }
    const classic = new FairShare(fsJobs([[0, 1], [1, 2]]), 0, false, 1, shares)
    classic.addUsage(0, 1, 100); classic.addUsage(1, 1, 100); classic.beginTick(0); classic.endTick()
    expect(classic.factor[0]).toBeCloseTo(2 ** (-2 / 3), 12)
    expect(classic.factor[1]).toBe(0.25)
    const tree = new FairShare(fsJobs([[0, 1], [1, 2]]), 0, true, 1, shares)
    tree.addUsage(0, 1, 100); tree.addUsage(1, 1, 100); tree.beginTick(0); tree.endTick()
    expect(Array.from(tree.factor)).toEqual([1, 0.5])
    // Equal shares instead: the accounts tie (LF 1), merged; the users tie too: both rank 2 → 1.
    const equal = new FairShare(fsJobs([[0, 1], [1, 2]]), 0, true, 1)
    equal.addUsage(0, 1, 100); equal.addUsage(1, 1, 100); equal.beginTick(0); equal.endTick()
    expect(Array.from(equal.factor)).toEqual([1, 1])
  })
})
