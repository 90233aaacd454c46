// Golden schedules of Slurm's backfill cycle (the Slurm spec's §8, G4–G9a), worked by hand. The
// expected starts are the scenario's; the comments walk through the cycle as implemented
// (docs/CLUSTER.md §Slurm scheduling). Idealised timing unless said; times in minutes; cons_tres CR_CPU.
import { describe, expect, it } from 'vitest'
import { MIN, machine, oneCpuNodes, scheduling, startsOf, type JobDef } from '../../support/slurm-cluster'
import type { SlurmTrace } from '../../../src/core/cluster/slurm/scheduler'

describe('G4: a reservation takes the WHOLE node, also under cons_tres', () => {
  // One node n1 with 8 CPUs. R(6 CPUs,10) at 0; B(4 CPUs,10) at 1; C(2 CPUs, limit 30) at 2.
  // t=1: B does not fit (2 free); the will-run test removes R (ends 10): B reserved on n1 over [10,20).
  // t=2: C's window [2,32] touches that slot, so n1 is not a candidate although B leaves 4 CPUs idle.
  // C is retried at later_start = 20 (B's slot end) and planned there. t=10: R ends; the main pass
  // starts B (4 of 8 CPUs), then C (2 of the remaining 4): C starts 10.
  const cl = machine([{ name: 'n1', cpus: 8 }], [{ name: 'p', nodes: ['n1'] }])
  const jobs = (cLimit: number): JobDef[] => [
    { name: 'R', at: 0, limit: 10, part: 'p', cpus: 6 }, { name: 'B', at: 1, limit: 10, part: 'p', cpus: 4 },
    { name: 'C', at: 2, limit: cLimit, part: 'p', cpus: 2 },
  ]
  it('C (limit 30) is not backfilled: it starts 10 with B; its estimate is B\'s reservation end, 20', () => {
    const plans: Array<[number, number, number]> = []
    const trace: SlurmTrace = { reservation: (j, t, s) => plans.push([j, t / MIN, s / MIN]) }
    const r = startsOf(cl, jobs(30), scheduling(), { idealised: true, trace })
    expect(r.start).toEqual({ R: 0, B: 10, C: 10 })
    expect(r.backfilled.C).toBe(false)
    // In the cycle at t=2: B planned at 10, C at 20.
    expect(plans.filter(([, t]) => t === 2)).toEqual([[1, 2, 10], [2, 2, 20]])
  })
  it('variant: C with limit 5 (window [2,7]) is backfilled at 2', () => {
    const r = startsOf(cl, jobs(5), scheduling())
    expect(r.start).toEqual({ R: 0, B: 10, C: 2 })
    expect(r.backfilled.C).toBe(true)
  })
})

describe('G5: bf_job_part_count_reserve=0 (every tested job reserves) versus 1 (EASY per partition)', () => {
  // n1..n3. R1(1 node,10) and R2(1 node,50) at 0 (on n1, n2); A(3 nodes,10) at 1; B(2,20) at 2; D(1,30) at 3.
  const cl = machine(oneCpuNodes(3), [{ name: 'p', nodes: ['n1', 'n2', 'n3'] }])
  const jobs: JobDef[] = [
    { name: 'R1', at: 0, limit: 10, part: 'p' }, { name: 'R2', at: 0, limit: 50, part: 'p' },
    { name: 'A', at: 1, limit: 10, part: 'p', nodes: 3 }, { name: 'B', at: 2, limit: 20, part: 'p', nodes: 2 },
    { name: 'D', at: 3, limit: 30, part: 'p' },
  ]
  it('default: A reserved [50,60), B reserved on n1,n3 from 10, D planned at 60: A 50, B 10, D 60', () => {
    // t=3 cycle: A needs all three nodes, free when R2 ends: [50,60). B needs 2: after R1 ends (10)
    // n1,n3 are free; its slot [10,30) is before A's, so B is reserved on n1,n3. D's window [3,33]
    // touches B's slot on n1,n3: only n2 is a candidate, free at 50 > later_start 30; at 30 A's slot
    // [50,60) takes every node (window [30,60] inclusive), so D goes to 60. t=10: R1 ends, the main
    // pass is stopped by A; the cycle starts B (window [10,30] before A's slot). t=50: A; t=60: D.
    const r = startsOf(cl, jobs, scheduling())
    expect(r.start).toEqual({ R1: 0, R2: 0, A: 50, B: 10, D: 60 })
    expect(r.backfilled.B).toBe(true)
  })
  it('bf_job_part_count_reserve=1: only A reserves; D starts 3 on n3, B runs after A: D 3, A 50, B 60', () => {
    // B is tested for "now" only and cannot start (n3 alone). D (window [3,33]) meets only A's slot
    // [50,60): it starts at 3 on n3. At 10 B has only n1; at 33 its window [33,53] hits A's slot.
    const r = startsOf(cl, jobs, scheduling({ bf: { jobPartCountReserve: 1 } }))
    expect(r.start).toEqual({ R1: 0, R2: 0, A: 50, B: 60, D: 3 })
    expect(r.backfilled.D).toBe(true)
  })
})

describe('G6: bf_max_job_test cuts the cycle short', () => {
  // n1,n2. R(1,60) at 0 on n1; A(2,10) at 1; J1(2,100) and J2(2,100) at 2; K(1,10) at 3.
  const cl = machine(oneCpuNodes(2), [{ name: 'p', nodes: ['n1', 'n2'] }])
  const jobs: JobDef[] = [
    { name: 'R', at: 0, limit: 60, part: 'p' }, { name: 'A', at: 1, limit: 10, part: 'p', nodes: 2 },
    { name: 'J1', at: 2, limit: 100, part: 'p', nodes: 2 }, { name: 'J2', at: 2, limit: 100, part: 'p', nodes: 2 },
    { name: 'K', at: 3, limit: 10, part: 'p' },
  ]
  it('default: K\'s window [3,13] is before A\'s reservation at 60: K starts 3 on n2', () => {
    const r = startsOf(cl, jobs, scheduling())
    expect(r.start).toEqual({ R: 0, A: 60, J1: 70, J2: 170, K: 3 })
  })
  it('bf_max_job_test=2: A and J1 use both tries, K is never tried; K ends up after J2: 270', () => {
    // t=60: A starts (main pass). t=70: J1 starts; the cycle tries J2 (reserved at 170) and K, whose
    // node is planned for J2 from 170 and busy with J1 until then: K planned after J2. J2 170–270, K 270.
    const r = startsOf(cl, jobs, scheduling({ bf: { maxJobTest: 2 } }))
    expect(r.start).toEqual({ R: 0, A: 60, J1: 70, J2: 170, K: 270 })
  })
})

describe('G7: bf_window hides a long job', () => {
  // n1,n2. R(1,120) at 0 on n1; A(2,10) at 1; B(1,150) at 2.
  const cl = machine(oneCpuNodes(2), [{ name: 'p', nodes: ['n1', 'n2'] }])
  const jobs: JobDef[] = [
    { name: 'R', at: 0, limit: 120, part: 'p' }, { name: 'A', at: 1, limit: 10, part: 'p', nodes: 2 },
    { name: 'B', at: 2, limit: 150, part: 'p' },
  ]
  it('default window (1440 min): A reserved at 120; B\'s window [2,152] overlaps it: A 120, B 130', () => {
    expect(startsOf(cl, jobs, scheduling()).start).toEqual({ R: 0, A: 120, B: 130 })
  })
  it('bf_window=60 min: A\'s start 120 is beyond 2+60, no reservation: B starts 2, A only at 152', () => {
    const r = startsOf(cl, jobs, scheduling({ bf: { window: 60 * MIN } }))
    expect(r.start).toEqual({ R: 0, A: 152, B: 2 })
    expect(r.backfilled.B).toBe(true)
  })
  // At B's arrival (2 min) the cycle tests A first: its start, 120, against 2 + bf_window. A start
  // exactly at the window's end is not beyond it: A is reserved (and counts as such), but the map
  // ends there, so nothing of its slot [120, 130) is kept and B's window overlaps no reservation.
  const reservedAt2 = (window: number) => {
    const resv: number[] = []
    const r = startsOf(cl, jobs, scheduling({ bf: { window: window * MIN } }), { idealised: true, trace: { reservation: (j, t, s) => { if (j === 1 && t === 2 * MIN) resv.push(s / MIN) } } })
    return { start: r.start, resv }
  }
  it('bf_window=118 min: A\'s start 120 is exactly 2+118, the window\'s end: reserved there, a slot the map does not hold: B starts 2', () => {
    expect(reservedAt2(118)).toEqual({ start: { R: 0, A: 152, B: 2 }, resv: [120] })
  })
  it('bf_window=117 min: A\'s start 120 is a minute beyond 2+117: not reserved', () => {
    expect(reservedAt2(117)).toEqual({ start: { R: 0, A: 152, B: 2 }, resv: [] })
  })
})

describe('G8: bf_resolution rounds reservations on absolute time (22.05: both ends rounded down)', () => {
  // t=0 is 00:00:30 (30 s after a multiple of 600). n1,n2. R2(1 node, limit 45) at 0 on n1: ends
  // 00:45:30. A(2 nodes,10) at 0:05; B(1 node, limit 42) at 0:10: B would end 00:42:40.
  const cl = machine(oneCpuNodes(2), [{ name: 'p', nodes: ['n1', 'n2'] }])
  const jobs: JobDef[] = [
    { name: 'R2', at: 0, limit: 45, part: 'p' }, { name: 'A', at: 5 / MIN, limit: 10, part: 'p', nodes: 2 },
    { name: 'B', at: 10 / MIN, limit: 42, part: 'p' },
  ]
  const opts = (trace?: SlurmTrace) => ({ idealised: true, unixStartTime: 30, trace })
  it('bf_resolution=60: A\'s slot starts floor(00:45:30) = 00:45:00 > 00:42:40: B starts 00:00:40', () => {
    const r = startsOf(cl, jobs, scheduling({ bf: { resolution: 60 } }), opts())
    expect(r.start.B! * MIN).toBe(10) // t = 10 s, 00:00:40
    expect(r.backfilled.B).toBe(true)
  })
  it('bf_resolution=600: A\'s slot starts 00:40:00 ≤ 00:42:40: B blocked, planned at 00:50:00, starts 00:55:30', () => {
    const plans: Array<[number, number]> = []
    const r = startsOf(cl, jobs, scheduling({ bf: { resolution: 600 } }),
      opts({ reservation: (j, t, s, e) => { if (t === 10) plans.push([s + 30, e + 30]) } }))
    // At t = 10 s: A's slot [00:40:00, 00:50:00) (absolute seconds 2400, 3000), then B's from 00:50:00.
    expect(plans[0]).toEqual([2400, 3000])
    expect(plans[1][0]).toBe(3000)
    expect(r.start.A! * MIN + 30).toBe(2730) // 00:45:30, when R2 ends
    expect(r.start.B! * MIN + 30).toBe(3330) // 00:55:30, in the main pass at A's end
    expect(r.backfilled.B).toBe(false)
  })
})

describe('G9a: GPUs are matched before CPUs; the whole-node reservation blocks a CPU job', () => {
  // g1: 2 sockets × 2 cores, ThreadsPerCore=1, gpu:2, CR_Core. G1(gpu:2, 1 CPU, 10) at 0;
  // G2(gpu:1, 1 CPU, 10) at 1; C(2 CPUs, no GPU, 30) at 2.
  // G2 waits with 3 idle cores (no free GPU); it is reserved on the whole g1 at 10, so C's window
  // [2,32] is blocked too. At 10 the main pass starts G2, then C (3 free cores): G1 0, G2 10, C 10.
  const cl = machine([{ name: 'g1', cpus: 4, gpus: 2 }], [{ name: 'gpu', nodes: ['g1'] }], { unit: 'core' })
  const jobs = (cLimit: number): JobDef[] => [
    { name: 'G1', at: 0, limit: 10, part: 'gpu', cpus: 1, gpusPerNode: 2 },
    { name: 'G2', at: 1, limit: 10, part: 'gpu', cpus: 1, gpusPerNode: 1 },
    { name: 'C', at: 2, limit: cLimit, part: 'gpu', cpus: 2 },
  ]
  it('G2 and C both start at 10', () => {
    expect(startsOf(cl, jobs(30), scheduling()).start).toEqual({ G1: 0, G2: 10, C: 10 })
  })
  it('with C limit 5 (window [2,7]) C is backfilled at 2 on the idle cores', () => {
    const r = startsOf(cl, jobs(5), scheduling())
    expect(r.start).toEqual({ G1: 0, G2: 10, C: 2 })
    expect(r.backfilled.C).toBe(true)
  })
})

describe('G10: whole-node versus per-core allocation (the rows the node model covers)', () => {
  // n1: 8 CPUs, RealMemory=8000. A(2 CPUs,10) at 0; B(2 CPUs,10) at 1.
  const base = [{ name: 'n1', cpus: 8, memMB: 8000 }]
  const jobs = (bExclusive = false): JobDef[] => [
    { name: 'A', at: 0, limit: 10, part: 'p', cpus: 2 }, { name: 'B', at: 1, limit: 10, part: 'p', cpus: 2, exclusive: bExclusive },
  ]
  it('CR_Core_Memory without DefMemPerCPU and without --mem: A takes all 8000 MB, B waits until 10', () => {
    const cl = machine(base, [{ name: 'p', nodes: ['n1'] }], { unit: 'core', memory: true })
    expect(startsOf(cl, jobs(), scheduling()).start).toEqual({ A: 0, B: 10 })
  })
  it('same with DefMemPerCPU=1000: B starts 1', () => {
    const cl = machine(base, [{ name: 'p', nodes: ['n1'] }], { unit: 'core', memory: true }, { defMemPerCpu: 1000 })
    expect(startsOf(cl, jobs(), scheduling()).start).toEqual({ A: 0, B: 1 })
  })
  it('CR_Core with the partition OverSubscribe=EXCLUSIVE: B starts 10', () => {
    const cl = machine(base, [{ name: 'p', nodes: ['n1'], overSubscribe: 'EXCLUSIVE' }], { unit: 'core' })
    expect(startsOf(cl, jobs(), scheduling()).start).toEqual({ A: 0, B: 10 })
  })
  it('CR_Core with B --exclusive: B starts 10', () => {
    const cl = machine(base, [{ name: 'p', nodes: ['n1'] }], { unit: 'core' })
    expect(startsOf(cl, jobs(true), scheduling()).start).toEqual({ A: 0, B: 10 })
  })
  it('CR_Core and nothing else: B starts 1', () => {
    const cl = machine(base, [{ name: 'p', nodes: ['n1'] }], { unit: 'core' })
    expect(startsOf(cl, jobs(), scheduling()).start).toEqual({ A: 0, B: 1 })
  })
})
