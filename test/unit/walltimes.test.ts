// The time-limits analysis (docs/PREDICTIONS.md §Time limits): ratio quantiles, over-requested
// node- and CPU-hours, groups, pseudonyms and the users/partitions to start with, every value
// worked by hand on tiny logs; hostile input.
import { describe, expect, it } from 'vitest'
import { analyzeWalltimes, limitRatio, pseudonym, walltimesNames, RATIO_BIN_EDGES, WALLTIMES_DEPLOYMENT, WALLTIMES_SCHEMA_VERSION, type WalltimesInput } from '../../src/core/predict/walltimes'
import { importText } from '../../src/core/workload/import'
import type { JobTable } from '../../src/core/workload/types'
import { TINY_SACCT } from '../support/walltimes-fixture'


// Per job: ratio max(p̃,60)/max(p,60), over = p̃ − p, node-h = over·nodes/3600, CPU-h = over·q/3600
//  1 alice A short  3600/600 = 6      3000 s  3000·1/3600 = 0.8333  3000·4/3600  = 3.3333
//  2 alice A short  3600/1800 = 2     1800 s  1800·2/3600 = 1       1800·4/3600  = 2
//  3 alice A long   7200/60 = 120     7200 s  7200·2/3600 = 4       7200·8/3600  = 16
//  4 bob   B short  3600/3600 = 1        0 s  0                     0
//  5 bob   B long   60/60 = 1           30 s  30/3600 = 0.008333    30·1/3600    = 0.008333
//  6 carol B long   14400/3600 = 4   10800 s  10800·4/3600 = 12     10800·16/3600 = 48
const NODE_H = { alice: 0.8333333 + 1 + 4, bob: 30 / 3600, carol: 12 }
const CPU_H = { alice: 3000 * 4 / 3600 + 2 + 16, bob: 30 / 3600, carol: 48 }

function table(rows: { p: number; req: number; q?: number; user?: number; nodes?: number; part?: number; acct?: number }[], cols: { nodes?: boolean; part?: boolean; acct?: boolean } = {}): JobTable {
  const n = rows.length
  const f = (g: (r: typeof rows[number], i: number) => number) => Float64Array.from(rows, g)
  const i = (g: (r: typeof rows[number]) => number) => Int32Array.from(rows, g)
  return {
    count: n, id: f((_, k) => k + 1), submit: f((_, k) => k * 10), runtime: f((r) => r.p), requested: f((r) => r.req),
    procs: i((r) => r.q ?? 1), user: i((r) => r.user ?? -1), recordedWait: f(() => NaN), line: i(() => 1),
    ...(cols.nodes ? { nodes: i((r) => r.nodes ?? -1) } : {}),
    ...(cols.part ? { partition: i((r) => r.part ?? -1) } : {}),
    ...(cols.acct ? { account: i((r) => r.acct ?? -1) } : {}),
  }
}
const input = (jobs: JobTable, users: string[] = [], extra: Partial<WalltimesInput> = {}): WalltimesInput => ({ name: 'test', jobs, users, ...extra })

describe('the requested/actual ratio', () => {
  it('floors runtimes and limits at 60 s, so a job that ended at once is not infinite', () => {
    expect(limitRatio(3600, 600)).toBe(6)
    expect(limitRatio(7200, 0)).toBe(120)
    expect(limitRatio(60, 30)).toBe(1)
    expect(limitRatio(30, 5)).toBe(1) // both under a minute: the limit was as short as it can be
    expect(limitRatio(600, 900)).toBeCloseTo(2 / 3, 12) // ran past its limit (--overrun keep)
  })
})

describe('analyzeWalltimes on a tiny sacct log (worked by hand)', () => {
  const w = importText(TINY_SACCT)
  const r = analyzeWalltimes(w)

  it('says what the log records and which hours it ranks by', () => {
    expect(r.schemaVersion).toBe(WALLTIMES_SCHEMA_VERSION)
    expect(r.recorded).toEqual({ users: true, accounts: true, partitions: true, nodes: true })
    expect(r.hours).toBe('node-hours')
    expect(r.ratioFloor).toBe(60)
    expect(r.deployment).toBe(WALLTIMES_DEPLOYMENT)
    expect(r.whatIf).toBeNull()
  })

  it('site totals: quantiles of [1, 1, 2, 4, 6, 120] by nearest rank, hours and the used share', () => {
    expect(r.site.jobs).toBe(6)
    // p10: rank ⌈0.6⌉ = 1 → 1; p25: ⌈1.5⌉ = 2 → 1; p50: ⌈3⌉ = 3 → 2; p75: ⌈4.5⌉ = 5 → 6; p90: ⌈5.4⌉ = 6 → 120
    expect(r.site.ratio).toEqual({ p10: 1, p25: 1, p50: 2, p75: 6, p90: 120, max: 120 })
    expect(r.site.overRequestedNodeHours).toBeCloseTo(NODE_H.alice + NODE_H.bob + NODE_H.carol, 4)
    expect(r.site.overRequestedNodeHours).toBeCloseTo(17.8417, 4)
    expect(r.site.overRequestedCpuHours).toBeCloseTo(69.3417, 4)
    // Σ p·q = 2400 + 7200 + 0 + 7200 + 30 + 57600 = 74,430; Σ p̃·q = 14400 + 14400 + 57600 + 7200 + 60 + 230400 = 324,060
    expect(r.site.usedShare).toBeCloseTo(74430 / 324060, 12)
    expect(r.site.poorJobs).toBe(4) // ratios 6, 2, 120, 4
    expect(r.site.jobsWithoutNodes).toBe(0)
  })

  it('the distribution of p̃/p over all jobs', () => {
    expect(r.distribution.map((b) => b.from)).toEqual([...RATIO_BIN_EDGES])
    expect(r.distribution.map((b) => b.to)).toEqual([1, 2, 5, 10, 20, 50, 100, null])
    // 1, 1 | 2, 4 | 6 | 120
    expect(r.distribution.map((b) => b.jobs)).toEqual([0, 2, 2, 1, 0, 0, 0, 1])
    expect(r.distribution[1].share).toBeCloseTo(2 / 6, 12)
  })

  it('users sorted by over-requested node-hours, named by rank', () => {
    expect(r.users.map((u) => u.name)).toEqual(['user-001', 'user-002', 'user-003']) // carol, alice, bob
    const [carol, alice, bob] = r.users
    expect(carol.jobs).toBe(1)
    expect(carol.overRequestedNodeHours).toBeCloseTo(NODE_H.carol, 6)
    expect(carol.overRequestedCpuHours).toBeCloseTo(CPU_H.carol, 6)
    expect(carol.ratio).toEqual({ p10: 4, p25: 4, p50: 4, p75: 4, p90: 4, max: 4 })
    expect(alice.jobs).toBe(3)
    // [2, 6, 120]: p10, p25 rank 1 → 2; p50 rank 2 → 6; p75 rank 3, p90 rank 3 → 120
    expect(alice.ratio).toEqual({ p10: 2, p25: 2, p50: 6, p75: 120, p90: 120, max: 120 })
    expect(alice.overRequestedNodeHours).toBeCloseTo(NODE_H.alice, 4)
    expect(alice.overRequestedCpuHours).toBeCloseTo(CPU_H.alice, 6)
    expect(alice.shareOfOverRequest).toBeCloseTo(NODE_H.alice / 17.841666, 4)
    // Σ p·q = 2400 + 7200 + 0; Σ p̃·q = 14400 + 14400 + 57600
    expect(alice.usedShare).toBeCloseTo(9600 / 86400, 12)
    expect(alice.rank).toBe(2)
    expect(bob.ratio.p50).toBe(1)
    expect(bob.overRequestedNodeHours).toBeCloseTo(NODE_H.bob, 9)
    expect(r.users.every((u) => !u.unknown)).toBe(true)
  })

  it('accounts and partitions', () => {
    // acctB = bob + carol: 12.00833 node-hours; acctA = alice: 5.8333
    expect(r.accounts.map((a) => [a.name, a.jobs])).toEqual([['account-001', 3], ['account-002', 3]])
    expect(r.accounts[0].overRequestedNodeHours).toBeCloseTo(12 + 30 / 3600, 6)
    // partitions keep their names (the site's configuration, not people): long = 4 + 0.00833 + 12, short = 0.8333 + 1 + 0
    expect(r.partitions.map((p) => [p.name, p.jobs])).toEqual([['long', 3], ['short', 3]])
    expect(r.partitions[0].overRequestedNodeHours).toBeCloseTo(16.008333, 5)
    expect(r.partitions[1].overRequestedNodeHours).toBeCloseTo(1.833333, 5)
    expect(r.partitions[0].ratio.p50).toBe(4) // [1, 4, 120]
    expect(r.partitions[1].ratio.p50).toBe(2) // [1, 2, 6]
    // every short job asks 1 h; the long ones ask 2 h, 1 min and 4 h: one each, the shortest shown
    expect(r.partitions[1].commonLimit).toEqual({ seconds: 3600, share: 1 })
    expect(r.partitions[0].commonLimit).toEqual({ seconds: 60, share: 1 / 3 })
    expect(r.partitions[1].runtimeP90).toBe(3600) // runtimes [600, 1800, 3600]: rank ⌈2.7⌉ = 3
  })

  it('too few jobs to name anyone to start with', () => {
    expect(r.startWith).toEqual({ users: [], partitions: [] })
  })

  it('--names shows the real names; the numbers do not change', () => {
    const real = analyzeWalltimes(w, { names: true })
    expect(real.names).toBe('real')
    expect(real.users.map((u) => u.name)).toEqual(['carol', 'alice', 'bob'])
    expect(real.accounts.map((a) => a.name)).toEqual(['acctB', 'acctA'])
    expect(real.users.map((u) => u.overRequestedNodeHours)).toEqual(r.users.map((u) => u.overRequestedNodeHours))
  })
})

describe('pseudonyms', () => {
  it('are the rank, zero-padded to the width of the count (at least 3 digits)', () => {
    expect(pseudonym('user', 7, 212)).toBe('user-007')
    expect(pseudonym('user', 7, 5)).toBe('user-007')
    expect(pseudonym('account', 12, 1500)).toBe('account-0012')
  })

  it('hide every real name and do not depend on the names (renaming the users changes nothing)', () => {
    const names = ['alice', 'bob', 'carol', 'acctA', 'acctB']
    const a = analyzeWalltimes(importText(TINY_SACCT))
    const text = JSON.stringify(a)
    for (const n of names) expect(text).not.toContain(n)
    // Swap alice and carol, rename the accounts: the same jobs give the same report.
    const renamed = TINY_SACCT.replace(/alice/g, 'X').replace(/carol/g, 'alice').replace(/X/g, 'carol').replace(/acctA/g, 'zeta').replace(/acctB/g, 'alpha')
    expect(analyzeWalltimes(importText(renamed))).toEqual({ ...a, log: a.log })
  })

  it('name users and accounts by index the way the report does, for every other surface', () => {
    const w = importText(TINY_SACCT)
    expect(w.users).toEqual(['alice', 'bob', 'carol'])
    expect(walltimesNames(w, 'user')).toEqual(['user-002', 'user-003', 'user-001'])
    expect(walltimesNames(w, 'account')).toEqual(['account-002', 'account-001']) // acctA, acctB
    expect(walltimesNames(w, 'user', { names: true })).toEqual(['alice', 'bob', 'carol'])
    // a name with no job in the cleaned log appears nowhere, not even as itself
    expect(walltimesNames(input(table([{ p: 60, req: 600, user: 1 }]), ['ghost', 'real']), 'user')).toEqual(['', 'user-001'])
    expect(walltimesNames(input(table([{ p: 60, req: 600 }]), []), 'account')).toEqual([])
  })

  it('are stable for the same log', () => {
    expect(analyzeWalltimes(importText(TINY_SACCT))).toEqual(analyzeWalltimes(importText(TINY_SACCT)))
  })
})

describe('the users and partitions to start with', () => {
  // user 0 ("u0"): 10 jobs asking 2 h, using 10 min (ratio 12; 6,600 s over each, 1 CPU): 18.33 CPU-hours, partition batch
  // user 1 ("u1"): 20 jobs asking 10 h, using 9 h (ratio 1.11; 3,600 s × 8 CPUs each): 160 CPU-hours, partition gpu
  // user 2 ("u2"): 5 jobs asking 100 min, using 1 min (ratio 100; 5,940 s each): 8.25 CPU-hours, partition gpu
  const rows = [
    ...Array.from({ length: 10 }, () => ({ p: 600, req: 7200, user: 0, part: 0 })),
    ...Array.from({ length: 20 }, () => ({ p: 9 * 3600, req: 10 * 3600, q: 8, user: 1, part: 1 })),
    ...Array.from({ length: 5 }, () => ({ p: 60, req: 6000, user: 2, part: 1 })),
  ]
  const r = analyzeWalltimes(input(table(rows, { part: true }), ['u0', 'u1', 'u2'], { partitions: ['batch', 'gpu'] }))

  it('ranks by CPU-hours when the log records no nodes, and says so', () => {
    expect(r.hours).toBe('cpu-hours')
    expect(r.recorded.nodes).toBe(false)
    expect(r.site.overRequestedNodeHours).toBeNull()
    expect(r.users.map((u) => [u.name, u.overRequestedNodeHours])).toEqual([['user-001', null], ['user-002', null], ['user-003', null]])
    expect(r.users.map((u) => u.overRequestedCpuHours)).toEqual([160, 10 * 6600 / 3600, 5 * 5940 / 3600])
  })

  it('names the users with enough jobs of which a quarter ask 2× or more, not the biggest over-requester with accurate limits nor a user of 5 jobs', () => {
    expect(r.startWith.users.map((u) => u.name)).toEqual(['user-002']) // u0
    // 18.33 of 160 + 18.33 + 8.25 = 186.58 CPU-hours: 9.8 %
    expect(r.startWith.users[0].reason).toBe('18 CPU-hours over-requested (9.8% of the site\'s); a quarter of their 10 jobs ask at least 12× the time they use, half at least 12×')
  })

  it('names a partition whose jobs ask far more than they use, with its common limit', () => {
    expect(r.startWith.partitions.map((p) => p.name)).toEqual(['batch'])
    expect(r.startWith.partitions[0].reason).toBe('half of its 10 jobs ask at least 12× the time they use; 100.0% of them ask exactly 2 h (likely its default or maximum limit), while 90 % of them end within 10 min: a default limit closer to that')
  })

  it('suggests a lower default only when 90 % of the jobs end within half of the common limit, and skips partitions of little weight', () => {
    // part 0: 10 jobs ask 1 h, 9 use 1 min and one 54 min: median 60×, runtime p90 (rank 9) 1 min → advice
    // part 1: 10 jobs ask 1 h, 6 use 1 min and 4 use 54 min: ratios [1.11 ×4, 60 ×6], median (rank 5) 60×;
    //         runtimes [1 min ×6, 54 min ×4], p90 (rank 9) 54 min > 30 min → no advice
    // part 2: 10 jobs ask 2 min, use 1 min: ratio 2, 600 CPU-seconds over, 0.1 % of the site's → not named
    const t = table([
      ...Array.from({ length: 10 }, (_, k) => ({ p: k === 9 ? 3240 : 60, req: 3600, part: 0, q: 10 })),
      ...Array.from({ length: 10 }, (_, k) => ({ p: k < 6 ? 60 : 3240, req: 3600, part: 1, q: 10 })),
      ...Array.from({ length: 10 }, () => ({ p: 60, req: 120, part: 2 })),
    ], { part: true })
    const r = analyzeWalltimes(input(t, [], { partitions: ['a', 'b', 'c'] }))
    // over-requested CPU-hours: a = (9·3540 + 360)·10/3600 = 89.5; b = (6·3540 + 4·360)·10/3600 = 63; c = 600/3600 = 0.167 (0.1 %)
    expect(r.partitions.map((p) => [p.name, p.overRequestedCpuHours])).toEqual([['a', 89.5], ['b', 63], ['c', 600 / 3600]])
    expect(r.partitions[2].ratio.p50).toBe(2)
    expect(r.startWith.partitions.map((p) => p.name)).toEqual(['a', 'b'])
    expect(r.startWith.partitions[0].reason).toBe('half of its 10 jobs ask at least 60× the time they use; 100.0% of them ask exactly 60 min (likely its default or maximum limit), while 90 % of them end within 60 s: a default limit closer to that')
    expect(r.startWith.partitions[1].reason).toBe('half of its 10 jobs ask at least 60× the time they use; 100.0% of them ask exactly 60 min (likely its default or maximum limit), while 90 % of them end within 54 min')
  })

  it('stops once the named users make half of the over-requested hours', () => {
    // three users of 10 jobs, ratio 10: 60 %, 30 %, 10 % of the hours → only the first is named
    const t = table([
      ...Array.from({ length: 10 }, () => ({ p: 600, req: 6000, q: 6, user: 0 })),
      ...Array.from({ length: 10 }, () => ({ p: 600, req: 6000, q: 3, user: 1 })),
      ...Array.from({ length: 10 }, () => ({ p: 600, req: 6000, q: 1, user: 2 })),
    ])
    expect(analyzeWalltimes(input(t, ['a', 'b', 'c'])).startWith.users.map((u) => u.name)).toEqual(['user-001'])
  })
})

describe('hostile input', () => {
  it('an empty job table gives an empty report, not a crash', () => {
    const r = analyzeWalltimes(input(table([])))
    expect(r.site).toEqual({ jobs: 0, ratio: null, overRequestedNodeHours: null, overRequestedCpuHours: 0, usedShare: 0, jobsWithoutNodes: 0, poorJobs: 0 })
    expect(r.users).toEqual([])
    expect(r.distribution.every((b) => b.jobs === 0 && b.share === 0)).toBe(true)
    expect(r.startWith).toEqual({ users: [], partitions: [] })
  })

  it('jobs of no known user form one unknown group, never named to start with', () => {
    const r = analyzeWalltimes(input(table(Array.from({ length: 12 }, () => ({ p: 0, req: 3600 })))))
    expect(r.recorded.users).toBe(false)
    expect(r.users).toHaveLength(1)
    expect(r.users[0]).toMatchObject({ name: 'unknown', unknown: true, rank: 0, jobs: 12 })
    expect(r.users[0].ratio.p50).toBe(60) // runtime 0 counts as 1 min: 3600/60
    expect(r.site.ratio!.max).toBe(60)
    expect(r.startWith.users).toEqual([])
  })

  it('jobs of unknown node count are left out of the node-hours and counted', () => {
    const r = analyzeWalltimes(input(table([{ p: 0, req: 3600, q: 4, nodes: -1, user: 0 }, { p: 1800, req: 3600, q: 4, nodes: 2, user: 0 }], { nodes: true }), ['u']))
    expect(r.site.jobsWithoutNodes).toBe(1)
    expect(r.site.overRequestedNodeHours).toBe(1) // 1800 s × 2 nodes
    expect(r.site.overRequestedCpuHours).toBe(6) // (3600 + 1800) s × 4 CPUs / 3600
    expect(r.users[0].overRequestedNodeHours).toBe(1)
  })

  it('a node column with no known value counts as no node column', () => {
    const r = analyzeWalltimes(input(table([{ p: 0, req: 3600, nodes: -1 }], { nodes: true })))
    expect(r.hours).toBe('cpu-hours')
    expect(r.site.overRequestedNodeHours).toBeNull()
  })

  it('jobs that ran past their limit (kept on import) have a ratio under 1 and no over-request', () => {
    const r = analyzeWalltimes(input(table([{ p: 900, req: 600, user: 0 }]), ['u']))
    expect(r.site.ratio!.p50).toBeCloseTo(2 / 3, 12)
    expect(r.distribution[0].jobs).toBe(1)
    expect(r.site.overRequestedCpuHours).toBe(0)
  })

  it('a user index beyond the name list and an account column of unknowns do not crash', () => {
    const r = analyzeWalltimes(input(table([{ p: 60, req: 120, user: 3, acct: -1 }], { acct: true }), ['only'], { accounts: [] }))
    expect(r.users.map((u) => u.name)).toEqual(['user-001'])
    expect(analyzeWalltimes(input(table([{ p: 60, req: 120, user: 3 }]), ['only']), { names: true }).users[0].name).toBe('3')
    expect(r.accounts).toEqual([])
    expect(r.recorded.accounts).toBe(false)
  })
})
