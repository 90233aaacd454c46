// Golden schedules of Slurm's main scheduler and backfill cycle, worked by hand from the Slurm
// spec's §8 scenarios (restated in each test; the rules they check are listed in
// docs/CLUSTER.md §Slurm scheduling). Idealised timing (§8): every submit and job end
// triggers a main pass and then a backfill cycle at once. Times in minutes from t = 0; nodes have
// one CPU unless said; cons_tres CR_CPU; priority/basic (FIFO by submit).
import { describe, expect, it } from 'vitest'
import { machine, oneCpuNodes, scheduling, startsOf, type JobDef } from '../../support/slurm-cluster'

describe('G1: the main scheduler stops a partition at its first blocked job (sched/builtin)', () => {
  // p = n1,n2; q = n3. R(p,1 node,10) at 0; B(p,2 nodes,10) at 1; C(p,1,5) at 2; D(q,1,5) at 3.
  // t=0: R starts on n1. t=1: B needs n1,n2, n1 is busy: B blocked, p is failed for the pass.
  // t=2: the pass meets B first (FIFO): blocked again, p failed, so C is not even tried although
  // n2 is idle (no backfilling in the main pass). t=3: D is in q, which shares no node with p: D
  // starts 3 on n3. t=10: R ends, B starts 10–20 on n1,n2; C blocked. t=20: C starts 20–25.
  const cl = machine(oneCpuNodes(3), [{ name: 'p', nodes: ['n1', 'n2'] }, { name: 'q', nodes: ['n3'] }])
  const jobs: JobDef[] = [
    { name: 'R', at: 0, limit: 10, part: 'p' }, { name: 'B', at: 1, limit: 10, part: 'p', nodes: 2 },
    { name: 'C', at: 2, limit: 5, part: 'p' }, { name: 'D', at: 3, limit: 5, part: 'q' },
  ]
  it('C waits for B although n2 is idle; D in the other partition starts at once', () => {
    const r = startsOf(cl, jobs, scheduling({ type: 'builtin' }))
    expect(r.start).toEqual({ R: 0, B: 10, C: 20, D: 3 })
    expect(r.firstNode).toEqual({ R: 'n1', B: 'n1', C: 'n1', D: 'n3' })
    expect(Object.values(r.backfilled).some(Boolean)).toBe(false)
  })

  it('G2: with sched/backfill, C (window [2,7]) ends before B\'s reservation at 10 and is backfilled at 2 on n2', () => {
    // The cycle at t=2: B's will-run test removes R (ends 10): B is reserved on n1,n2 over [10,20).
    // C's window [2,7] touches no slot of that reservation, so n2 is a candidate and C fits now.
    const r = startsOf(cl, jobs, scheduling())
    expect(r.start).toEqual({ R: 0, B: 10, C: 2, D: 3 })
    expect(r.backfilled).toEqual({ R: false, B: false, C: true, D: false })
    expect(r.firstNode.C).toBe('n2')
  })
})

describe('G3: two partitions sharing a node; the tier order; the failed partition\'s nodes leave avail', () => {
  // A = n1,n2 with PriorityTier=2; Bp = n2 with PriorityTier=1. R(A,1,10) at 0 on n1; X(A,2,10) at 1;
  // Y(Bp,1,5) at 2.
  const cl = machine(oneCpuNodes(2), [{ name: 'A', nodes: ['n1', 'n2'], tier: 2 }, { name: 'Bp', nodes: ['n2'], tier: 1 }])
  const jobs: JobDef[] = [
    { name: 'R', at: 0, limit: 10, part: 'A' }, { name: 'X', at: 1, limit: 10, part: 'A', nodes: 2 },
    { name: 'Y', at: 2, limit: 5, part: 'Bp' },
  ]
  it('sched/builtin: X blocks, A is failed and n1,n2 leave avail: Y finds no node although n2 is idle', () => {
    // t=2: X (tier 2) sorts first, cannot start: A failed, n1 and n2 removed from avail. Y (Bp)
    // then has 0 nodes left (< 1): Bp failed too. t=10: R ends, X 10–20; Y again finds n2 taken.
    // t=20: Y starts.
    expect(startsOf(cl, jobs, scheduling({ type: 'builtin' })).start).toEqual({ R: 0, X: 10, Y: 20 })
  })
  it('sched/backfill: X is reserved from 10; Y\'s window [2,7] is before it: Y starts 2 on n2', () => {
    const r = startsOf(cl, jobs, scheduling())
    expect(r.start).toEqual({ R: 0, X: 10, Y: 2 })
    expect(r.backfilled.Y).toBe(true)
  })
})
