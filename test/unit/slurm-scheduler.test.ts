// The main scheduler's and the backfill cycle's settings, one rule per test
// (docs/CLUSTER.md §Slurm scheduling). Each scenario is small enough to work by hand: the expected
// starts are reasoned in the comments, and each test has a contrasting default that gives a
// different answer.
import { describe, expect, it } from 'vitest'
import { jobsOf, MIN, machine, oneCpuNodes, scheduling, startsOf, type JobDef } from '../support/slurm-cluster'
import { runSlurm, type SlurmTrace } from '../../src/core/cluster/slurm/scheduler'
import { SimulationStopped } from '../../src/core/sim/easy'

describe('main pass: default_queue_depth, partition_job_depth, sched_max_job_start', () => {
  // Partitions a, b, c on n1, n2, n3. Busy holds n1. At 0.5 min Xa (blocked), Yb, Zc are submitted.
  const cl = machine(oneCpuNodes(3), [{ name: 'a', nodes: ['n1'] }, { name: 'b', nodes: ['n2'] }, { name: 'c', nodes: ['n3'] }])
  const jobs: JobDef[] = [
    { name: 'busy', at: 0, limit: 30, part: 'a' }, { name: 'Xa', at: 0.5, limit: 5, part: 'a' },
    { name: 'Yb', at: 0.5, limit: 5, part: 'b' }, { name: 'Zc', at: 0.5, limit: 5, part: 'c' },
  ]
  it('default_queue_depth=1: the event pass examines two records (Xa, Yb); Zc waits for the full pass at 1 min', () => {
    const r = startsOf(cl, jobs, scheduling({ type: 'builtin', sched: { defaultQueueDepth: 1 } }))
    expect(r.start).toEqual({ busy: 0, Xa: 30, Yb: 0.5, Zc: 1 })
  })
  it('default depth (100): all examined at 0.5', () => {
    expect(startsOf(cl, jobs, scheduling({ type: 'builtin' })).start).toEqual({ busy: 0, Xa: 30, Yb: 0.5, Zc: 0.5 })
  })
  it('sched_max_job_start=1: one start per pass; Zc starts in the full pass at 1 min', () => {
    const r = startsOf(cl, jobs, scheduling({ type: 'builtin', sched: { maxJobStart: 1 } }))
    expect(r.start).toEqual({ busy: 0, Xa: 30, Yb: 0.5, Zc: 1 })
  })
  it('partition_job_depth=1: a second record of the same partition waits for the next pass', () => {
    const cl2 = machine(oneCpuNodes(2), [{ name: 'p', nodes: ['n1', 'n2'] }])
    const two: JobDef[] = [{ name: 'J1', at: 0.5, limit: 5, part: 'p' }, { name: 'J2', at: 0.5, limit: 5, part: 'p' }]
    expect(startsOf(cl2, two, scheduling({ type: 'builtin', sched: { partitionJobDepth: 1 } })).start).toEqual({ J1: 0.5, J2: 1 })
    expect(startsOf(cl2, two, scheduling({ type: 'builtin' })).start).toEqual({ J1: 0.5, J2: 0.5 })
  })
})

describe('bf_min_age_reserve', () => {
  // n1,n2. R(1,10) on n1 at 0; A(2 nodes,10) at 1; L(1 node,30) at 2.
  const cl = machine(oneCpuNodes(2), [{ name: 'p', nodes: ['n1', 'n2'] }])
  const jobs: JobDef[] = [
    { name: 'R', at: 0, limit: 10, part: 'p' }, { name: 'A', at: 1, limit: 10, part: 'p', nodes: 2 },
    { name: 'L', at: 2, limit: 30, part: 'p' },
  ]
  it('default: A reserved at 10 blocks L (window [2,32]): A 10, L 20', () => {
    expect(startsOf(cl, jobs, scheduling()).start).toEqual({ R: 0, A: 10, L: 20 })
  })
  it('60 min: A is young, so it neither fails its partition in the main pass nor reserves: L starts 2 in the main pass, A at 32', () => {
    const r = startsOf(cl, jobs, scheduling({ bf: { minAgeReserve: 60 * MIN } }))
    expect(r.start).toEqual({ R: 0, A: 32, L: 2 })
    expect(r.backfilled.L).toBe(false)
  })
})

describe('bf_max_job_start, bf_max_job_user, bf_max_job_part', () => {
  // n1..n3. R(1,10) on n1 at 0; A(3 nodes,10) at 1, reserved [10,20); S1 and S2 (1 node,5) at 2: both
  // windows [2,7] end before A's slot, so both are backfilled at 2 by default.
  const cl = machine(oneCpuNodes(3), [{ name: 'p', nodes: ['n1', 'n2', 'n3'] }, { name: 'q', nodes: ['n1', 'n2', 'n3'] }])
  const jobs = (s2Part = 'p'): JobDef[] => [
    { name: 'R', at: 0, limit: 10, part: 'p', user: 1 }, { name: 'A', at: 1, limit: 10, part: 'p', nodes: 3, user: 1 },
    { name: 'S1', at: 2, limit: 5, part: 'p', user: 1 }, { name: 'S2', at: 2, limit: 5, part: s2Part, user: 2 },
  ]
  it('default: S1 and S2 at 2', () => {
    expect(startsOf(cl, jobs(), scheduling()).start).toEqual({ R: 0, A: 10, S1: 2, S2: 2 })
  })
  it('bf_max_job_start=1 (real timing, cycles at k·30 s): the cycle at 2 min stops after S1; S2 waits for the next cycle, 2.5 min', () => {
    expect(startsOf(cl, jobs(), scheduling({ bf: { maxJobStart: 1 } }), {}).start).toEqual({ R: 0, A: 10, S1: 2, S2: 2.5 })
    expect(startsOf(cl, jobs(), scheduling(), {}).start).toEqual({ R: 0, A: 10, S1: 2, S2: 2 })
  })
  it('bf_max_job_user=1: user 1 is tested once (A): S1 is skipped, S2 (user 2) starts 2; S1 after A, at 20', () => {
    expect(startsOf(cl, jobs(), scheduling({ bf: { maxJobUser: 1 } })).start).toEqual({ R: 0, A: 10, S1: 20, S2: 2 })
  })
  it('bf_max_job_part=1: partition p is tested once (A): S1 skipped, S2 in q starts 2', () => {
    expect(startsOf(cl, jobs('q'), scheduling({ bf: { maxJobPart: 1 } })).start).toEqual({ R: 0, A: 10, S1: 20, S2: 2 })
  })
})

describe('the inclusive overlap rule', () => {
  // n1,n2. R(1,10) on n1; A(2 nodes,10) at 1: reserved [10,20). B(1 node) at 2 with limit 8 ends
  // exactly at 10, when A's slot begins: that counts as overlapping (slot begin ≤ start + limit).
  const cl = machine(oneCpuNodes(2), [{ name: 'p', nodes: ['n1', 'n2'] }])
  const jobs = (bLimit: number): JobDef[] => [
    { name: 'R', at: 0, limit: 10, part: 'p' }, { name: 'A', at: 1, limit: 10, part: 'p', nodes: 2 },
    { name: 'B', at: 2, limit: bLimit, part: 'p' },
  ]
  it('window [2,10] touches the slot starting at 10: B waits for A (20)', () => {
    expect(startsOf(cl, jobs(8), scheduling()).start).toEqual({ R: 0, A: 10, B: 20 })
  })
  it('window [2,9.5] does not: B starts 2', () => {
    expect(startsOf(cl, jobs(7.5), scheduling()).start).toEqual({ R: 0, A: 10, B: 2 })
  })
})

describe('the will-run test removes running jobs in groups', () => {
  // n1..n3, bf_resolution=1 s to see the raw estimate. R1 (n1) ends at 600 s, R2 (n2) at 650 s; X needs
  // 2 nodes at 1 min: only n3 is free. First group: T0 = 600 rounded up to the next multiple of 30
  // (an exact multiple moves up: 630); every job ending ≤ 630 + 30 = 660 goes: R1 and R2. The test
  // then fits, and the answer is the end of the LAST job removed: 650, not the earliest fit (600).
  const cl = machine(oneCpuNodes(3), [{ name: 'p', nodes: ['n1', 'n2', 'n3'] }])
  const jobs: JobDef[] = [
    { name: 'R1', at: 0, limit: 10, part: 'p' }, { name: 'R2', at: 0, limit: 650 / MIN, part: 'p' },
    { name: 'X', at: 1, limit: 10, part: 'p', nodes: 2 },
  ]
  it('X is planned at 650 s, and starts at 600 s in the main pass when R1 ends', () => {
    const plans: number[] = []
    const trace: SlurmTrace = { reservation: (j, t, s) => { if (j === 2 && t === 60) plans.push(s) } }
    const r = startsOf(cl, jobs, scheduling({ bf: { resolution: 1 } }), { idealised: true, trace, estimates: true })
    expect(plans).toEqual([650])
    expect(r.start.X).toBe(10)
  })
  // Only jobs holding a candidate node are removed, and Slurm's loop skips the others with a
  // `continue` placed before its peek at the next job (22.05 cons_common/job_test.c
  // _will_run_test). Partitions a (n1, n2) and b (n3): R1 (n1) ends at 600 s, W (partition b, on n3)
  // at 650 s, R2 (n2) at 1,200 s. X (partition a, 1 node) at 1 min: n1 and n2 are busy. R1 is removed;
  // the next job, W, ends by 660 s, so the group stays open; W holds no node of a and is skipped,
  // and with it the check on R2, which is removed in the same group although it ends at 1,200 s.
  // The last job removed is R2: X is planned at 1,200 s (earliest fit: 600 s). Were W removed
  // too, the answer would be W's end, 650 s.
  // The same with memory tracked and X asking for 1 MB per node: the general test (not the
  // CPU-only shortcut) decides what a removal frees.
  it.each([['CPUs only', false], ['with memory', true]] as const)('a job on nodes the tested job cannot use is not removed, and the job after it joins the group unchecked (Slurm 22.05): %s', (_label, memory) => {
    const cl2 = machine(oneCpuNodes(3), [{ name: 'a', nodes: ['n1', 'n2'] }, { name: 'b', nodes: ['n3'] }], { memory })
    const defs: JobDef[] = [
      { name: 'R1', at: 0, limit: 10, part: 'a' }, { name: 'R2', at: 0, limit: 20, part: 'a' },
      { name: 'W', at: 0, limit: 650 / MIN, part: 'b' }, { name: 'X', at: 1, limit: 10, part: 'a', ...(memory ? { memPerNode: 1 } : {}) },
    ]
    const plans: number[] = []
    const trace: SlurmTrace = { reservation: (j, t, s) => { if (j === 3 && t === 60) plans.push(s) } }
    const r = startsOf(cl2, defs, scheduling({ bf: { resolution: 1 } }), { idealised: true, trace, estimates: true })
    expect(plans).toEqual([1200])
    expect(r.start.X).toBe(10) // R1 ends at 600 s: the main pass starts X on n1
  })
})

describe('timing: real cycles every bf_interval on the absolute clock, versus idealised', () => {
  // G2's machine and jobs, with t = 0 at 10 s past a multiple of 30 s. C is submitted at 2 min =
  // absolute 130 s: the main pass cannot start it (B blocks p); the next cycle is at absolute 150 s.
  const cl = machine(oneCpuNodes(3), [{ name: 'p', nodes: ['n1', 'n2'] }, { name: 'q', nodes: ['n3'] }])
  const jobs: JobDef[] = [
    { name: 'R', at: 0, limit: 10, part: 'p' }, { name: 'B', at: 1, limit: 10, part: 'p', nodes: 2 },
    { name: 'C', at: 2, limit: 5, part: 'p' }, { name: 'D', at: 3, limit: 5, part: 'q' },
  ]
  it('real: C is backfilled at the next k·30 s, 2 min 20 s; idealised: at 2 min', () => {
    const real = startsOf(cl, jobs, scheduling(), { unixStartTime: 10 })
    expect(real.start.C! * MIN).toBe(140)
    expect(real.backfilled.C).toBe(true)
    expect(startsOf(cl, jobs, scheduling(), { idealised: true, unixStartTime: 10 }).start.C).toBe(2)
  })
  it('cycles with nothing changed since the previous one are skipped', () => {
    const cycles = new Set<number>()
    const trace: SlurmTrace = { reservation: (_j, t) => cycles.add(t) }
    // A long wait: R holds n1 for 10 h, A (2 nodes) waits; nothing else happens.
    const long: JobDef[] = [{ name: 'R', at: 0, limit: 600, part: 'p' }, { name: 'A', at: 1, limit: 10, part: 'p', nodes: 2 }]
    startsOf(cl, long, scheduling(), { trace, estimates: true })
    // One cycle, at A's submit (1 min is on the 30 s clock), not one every 30 s for 10 hours.
    expect([...cycles]).toEqual([60])
  })
})

describe('jobs that never start', () => {
  const cl = machine(oneCpuNodes(2), [{ name: 'p', nodes: ['n1', 'n2'], maxTime: 60 * MIN }])
  it('over MaxTime (PartitionTimeLimit), or larger than the partition (BadConstraints): start is NaN', () => {
    const r = startsOf(cl, [
      { name: 'long', at: 0, limit: 120, part: 'p' }, { name: 'big', at: 0, limit: 10, part: 'p', nodes: 3 },
      { name: 'ok', at: 0, limit: 10, part: 'p' },
    ], scheduling())
    expect(r.start).toEqual({ long: null, big: null, ok: 0 })
  })
  it('bf_interval=-1 disables the backfill (G2 then schedules as G1)', () => {
    const cl2 = machine(oneCpuNodes(3), [{ name: 'p', nodes: ['n1', 'n2'] }, { name: 'q', nodes: ['n3'] }])
    const r = startsOf(cl2, [
      { name: 'R', at: 0, limit: 10, part: 'p' }, { name: 'B', at: 1, limit: 10, part: 'p', nodes: 2 },
      { name: 'C', at: 2, limit: 5, part: 'p' },
    ], scheduling({ bf: { interval: -1 } }))
    expect(r.start).toEqual({ R: 0, B: 10, C: 20 })
  })
})

describe('a job without a time limit, and a job eligible after its submit (§1.2, §2.5 step 4)', () => {
  // n1, n2. R (n1, limit 10) at 0; A (2 nodes, limit 10) at 1 is reserved at 10; B (1 node) at 2
  // runs 3 min.
  const jobs = (bLimit: number): JobDef[] => [
    { name: 'R', at: 0, limit: 10, part: 'p' }, { name: 'A', at: 1, limit: 10, part: 'p', nodes: 2 },
    { name: 'B', at: 2, limit: bLimit, runs: 3, part: 'p' },
  ]
  it('no limit: the partition\'s DefaultTime (30 min) is planned, so B\'s window [2,32] meets A\'s slot: B after A, at 20', () => {
    const cl = machine(oneCpuNodes(2), [{ name: 'p', nodes: ['n1', 'n2'], defaultTime: 30 * MIN }])
    expect(startsOf(cl, jobs(0), scheduling()).start).toEqual({ R: 0, A: 10, B: 20 })
    // The contrast: B's own 5-minute limit ends before A's slot, so it is backfilled at 2.
    expect(startsOf(cl, jobs(5), scheduling()).start).toEqual({ R: 0, A: 10, B: 2 })
  })
  it('no limit and no DefaultTime: MaxTime (60 min) is planned', () => {
    const cl = machine(oneCpuNodes(2), [{ name: 'p', nodes: ['n1', 'n2'], maxTime: 60 * MIN }])
    expect(startsOf(cl, jobs(0), scheduling()).start).toEqual({ R: 0, A: 10, B: 20 })
  })
  it('a job eligible at 20 (submitted at 1 with --begin) is not queued before: B, submitted later, starts first', () => {
    // n1. R runs 0-10. A is submitted at 1 but eligible at 20; B is submitted at 2. FIFO by submit
    // would put A first at 10; as A is not queued until 20, B starts at 10 and A at 20.
    const cl = machine(oneCpuNodes(1), [{ name: 'p', nodes: ['n1'] }])
    const r = startsOf(cl, [
      { name: 'R', at: 0, limit: 10, part: 'p' }, { name: 'A', at: 1, eligibleAt: 20, limit: 5, part: 'p' },
      { name: 'B', at: 2, limit: 5, part: 'p' },
    ], scheduling())
    expect(r.start).toEqual({ R: 0, A: 20, B: 10 })
  })
})

describe('ending a cycle after the last record that could start now changes no start', () => {
  // A pseudo-random mix on 6 nodes of 4 CPUs (1–3 node jobs and flexible ones, limits 1–5× the run
  // time): the starts with every tested record planned (estimates: true) and with the cycle cut
  // short are the same, job by job. Real timing, so cycles see several changes at once.
  let s = 12345
  const rnd = () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648 }
  const cl = machine(Array.from({ length: 6 }, (_, i) => ({ name: `n${i + 1}`, cpus: 4 })), [{ name: 'p', nodes: ['n1', 'n2', 'n3', 'n4', 'n5', 'n6'] }])
  const jobs: JobDef[] = []
  let at = 0
  for (let k = 0; k < 300; k++) {
    at += Math.floor(rnd() * 8)
    const nodes = rnd() < 0.5 ? 0 : 1 + Math.floor(rnd() * 3)
    const runs = 1 + Math.floor(rnd() * 60)
    jobs.push({ name: `j${k}`, at, runs, limit: runs * (1 + Math.floor(rnd() * 5)), part: 'p', nodes, cpus: nodes === 0 ? 1 + Math.floor(rnd() * 6) : nodes * 4, user: k % 4 })
  }
  it('300 jobs, default settings and bf_job_part_count_reserve=1', () => {
    for (const sch of [scheduling(), scheduling({ bf: { jobPartCountReserve: 1 } })]) {
      const cut = startsOf(cl, jobs, sch, {})
      const full = startsOf(cl, jobs, sch, { estimates: true })
      expect(cut.start).toEqual(full.start)
      expect(cut.backfilled).toEqual(full.backfilled)
      expect(Object.values(cut.backfilled).filter(Boolean).length).toBeGreaterThan(10) // the backfill did work here
    }
  })
})

describe('progress hook', () => {
  it('onCheck answering true stops the run between two event times (SimulationStopped)', () => {
    const cl = machine(oneCpuNodes(1), [{ name: 'p', nodes: ['n1'] }])
    const jobs = jobsOf(cl, Array.from({ length: 20 }, (_, k) => ({ name: `j${k}`, at: k, limit: 5, part: 'p' })))
    const seen: number[] = []
    expect(() => runSlurm(jobs, cl, scheduling(), {}, { checkEvery: 3, onCheck: (started) => { seen.push(started); return started >= 4 } }))
      .toThrow(SimulationStopped)
    expect(seen.at(-1)).toBeGreaterThanOrEqual(4)
    expect(seen.at(-1)).toBeLessThan(20)
    const all = runSlurm(jobs, cl, scheduling(), {}, { checkEvery: 3, onCheck: () => false })
    expect(all.start.every((x) => Number.isFinite(x))).toBe(true)
  })
})

describe('more jobs running at once than the running-job structures first hold (they grow)', () => {
  // One node of 2,000 CPUs. At 0, 1,500 one-CPU jobs A_k (k = 0..1499) start, each running
  // 10 + (k mod 100) min with a 1,400-min limit, except A_1300 (runs 10 min, limit 120 min). At 1 min,
  // 1,500 one-CPU jobs B_m, each running 10,000 min: 500 CPUs are free, so B_0..B_499 start at 1;
  // B_m for m >= 500 starts when the (m - 499)-th A ends (FIFO order, one freed CPU each, the event
  // pass after every end), i.e. at the (m - 500)-th smallest A end time. 2,000 jobs run at once,
  // far more than the heap and lists hold at first (1,024), and 2,000 starts come between two
  // reads of the list by estimated end.
  const cl = machine([{ name: 'big', cpus: 2000 }], [{ name: 'p', nodes: ['big'] }])
  const a: JobDef[] = Array.from({ length: 1500 }, (_, k) => ({
    name: `A${k}`, at: 0, part: 'p', nodes: 0, cpus: 1, runs: k === 1300 ? 10 : 10 + (k % 100), limit: k === 1300 ? 120 : 1400,
  }))
  const b: JobDef[] = Array.from({ length: 1500 }, (_, m) => ({ name: `B${m}`, at: 1, part: 'p', nodes: 0, cpus: 1, limit: 10_000 }))
  it('every start is where the worked order puts it', () => {
    const r = startsOf(cl, [...a, ...b], scheduling(), {})
    const aEnds = a.map((d) => d.runs!).sort((x, y) => x - y)
    for (let k = 0; k < 1500; k++) expect(r.start[`A${k}`]).toBe(0)
    for (let m = 0; m < 1500; m++) expect(r.start[`B${m}`], `B${m}`).toBe(m < 500 ? 1 : aEnds[m - 500])
  })
  it('the first backfill reservation (B_500, the first blocked record) is at A_1300\'s expected end, 120 min: the list by estimated end holds the job started 1,301st', () => {
    const resv: { job: number; start: number }[] = []
    const jobs = jobsOf(cl, [...a, ...b])
    // estimates: plan every tested record (otherwise a cycle where nothing can start plans nothing).
    runSlurm(jobs, cl, scheduling(), {}, { estimates: true, trace: { reservation: (job, _t, start) => { resv.push({ job, start }) } } })
    expect(resv[0]).toEqual({ job: 1500 + 500, start: 120 * MIN })
  })
  it('a job of 1,700 CPUs at 1 min is planned at 1,400 min (500 CPUs free + A_1300 at 120 min + the 1,499 others at 1,400: all 1,500 in the list) and starts at the 1,200th A end', () => {
    const c: JobDef = { name: 'C', at: 1, part: 'p', nodes: 0, cpus: 1700, limit: 60 }
    const resv: { job: number; t: number; start: number }[] = []
    const jobs = jobsOf(cl, [...a, c])
    const run = runSlurm(jobs, cl, scheduling(), {}, { estimates: true, trace: { reservation: (job, t, start) => { resv.push({ job, t, start }) } } })
    // Planned in the first cycle after its submission (1 min, a multiple of bf_interval = 30 s).
    expect(resv[0]).toEqual({ job: 1500, t: 1 * MIN, start: 1400 * MIN })
    expect(run.start[1500]).toBe(a.map((d) => d.runs!).sort((x, y) => x - y)[1199] * MIN)
  })
})
