// Who gains, who loses (issue #19 item 4, docs/IMPACT.md): the groups, their means and 95th
// percentiles, the accounts that pay most, and which groups the verdict names. Every expected value
// below is worked by hand from the schedules described in the comments.
import { describe, expect, it } from 'vitest'
import { measureImpact, overRisk, partImpact, realWeekWaits, recommendationImpact, sizeClassBounds, waitRatio, type PartImpact } from '../../src/core/tune/impact'
import { WEEK } from '../../src/core/tune/resample'
import type { SimConfig } from '../../src/core/sim/types'
import type { JobTable } from '../../src/core/workload/types'
import { DEFAULTS } from '../../src/core/defaults'

const FCFS: SimConfig = { primary: 'FCFS', backfill: 'same', threshold: null }
const SPF: SimConfig = { primary: 'SPF', backfill: 'same', threshold: null }

interface Row { submit: number; p: number; q: number; user: number; req?: number; account?: number }

function jobs(rows: Row[]): JobTable & { account?: Int32Array } {
  const n = rows.length
  const t: JobTable & { account?: Int32Array } = {
    count: n, id: Float64Array.from(rows, (_, i) => i + 1), submit: Float64Array.from(rows, (r) => r.submit),
    runtime: Float64Array.from(rows, (r) => r.p), requested: Float64Array.from(rows, (r) => r.req ?? r.p),
    procs: Int32Array.from(rows, (r) => r.q), user: Int32Array.from(rows, (r) => r.user),
    recordedWait: new Float64Array(n).fill(NaN), line: Int32Array.from(rows, (_, i) => i + 1),
  }
  if (rows.some((r) => r.account !== undefined)) t.account = Int32Array.from(rows, (r) => r.account ?? -1)
  return t
}

// An 8-processor machine. A fills it from 0 to 2000 s; meanwhile the large long job B (8 procs,
// 20,000 s) and three short small jobs C, D (1 proc) and E (2 procs) of 2000 s arrive.
//   EASY-FCFS: B starts at 2000 (wait 1990) and holds the machine until 22,000; C, D, E then
//              start at 22,000: waits 21,980, 21,970, 21,960.
//   EASY-SPF:  at 2000 the short jobs go first: C, D, E start (4 procs), B is reserved for 4000
//              when they end: waits C 1980, D 1970, E 1960, B 3990.
const USERS = ['alice', 'bob', 'carol', 'dave']
const five = () => jobs([
  { submit: 0, p: 2000, q: 8, user: 0 }, // A
  { submit: 10, p: 20000, q: 8, user: 1 }, // B
  { submit: 20, p: 2000, q: 1, user: 2 }, // C
  { submit: 30, p: 2000, q: 1, user: 2 }, // D
  { submit: 40, p: 2000, q: 2, user: 3 }, // E
])

describe('impact groups on a hand-made workload', () => {
  it('the simulated waits are the hand-worked schedules', () => {
    expect(Array.from(realWeekWaits(five(), 8, FCFS))).toEqual([0, 1990, 21980, 21970, 21960])
    expect(Array.from(realWeekWaits(five(), 8, SPF))).toEqual([0, 3990, 1980, 1970, 1960])
  })

  it('SPF delays the large long job: its size and requested-time classes show the increase', () => {
    const w = five()
    const imp = measureImpact({ train: w, test: w }, 8, FCFS, SPF, { users: USERS }, { maxWaitRatio: 1.5, minJobs: 1 })
    // Size classes on 8 processors: 1, 2–4, 5–8.
    expect(imp.train.bySize.map((g) => [g.label, g.jobs])).toEqual([['1 processor', 2], ['2–4 processors', 1], ['5–8 processors', 2]])
    const [one, small, large] = imp.train.bySize
    expect(one.baselineMeanWait).toBe((21980 + 21970) / 2)
    expect(one.meanWait).toBe((1980 + 1970) / 2)
    expect(one.baselineP95Wait).toBe(21980) // nearest rank: ⌈0.95 × 2⌉ = 2nd of [21970, 21980]
    expect(one.p95Wait).toBe(1980)
    expect(small.meanWait).toBe(1960)
    expect(small.meanRatio).toBeCloseTo(1960 / 21960, 12)
    // A and B: (0 + 1990) / 2 = 995 → (0 + 3990) / 2 = 1995.
    expect(large.baselineMeanWait).toBe(995)
    expect(large.meanWait).toBe(1995)
    expect(large.meanRatio).toBeCloseTo(1995 / 995, 12)
    expect(large.baselineP95Wait).toBe(1990)
    expect(large.p95Wait).toBe(3990)
    // Requested time: A, C, D, E ask for 2000 s (≤ 1 h); B for 20,000 s (5.6 h: 4–12 h).
    expect(imp.train.byRequested.map((g) => [g.label, g.jobs])).toEqual([['≤ 1 h requested', 4], ['4–12 h requested', 1]])
    expect(imp.train.byRequested[0].baselineMeanWait).toBe((0 + 21980 + 21970 + 21960) / 4)
    expect(imp.train.byRequested[0].meanWait).toBe((0 + 1980 + 1970 + 1960) / 4)
    expect(imp.train.byRequested[1].meanRatio).toBeCloseTo(3990 / 1990, 12)
    // No account column: users. Only bob's wait grows (1990 → 3990), alice's stays at 0.
    expect(imp.train.accountKind).toBe('user')
    expect(imp.train.byAccount.map((g) => [g.label, g.jobs, g.baselineMeanWait, g.meanWait])).toEqual([['bob', 1, 1990, 3990]])
    // Over the 1.5 ratio: the 5–8 class (×2.005), the 4–12 h class and bob (×2.005), on train and on test.
    expect(imp.overRisk.map((o) => [o.part, o.dimension, o.label, o.jobs])).toEqual([
      ['train', 'size', '5–8 processors', 2], ['train', 'requested', '4–12 h requested', 1], ['train', 'account', 'bob', 1],
      ['test', 'size', '5–8 processors', 2], ['test', 'requested', '4–12 h requested', 1], ['test', 'account', 'bob', 1],
    ])
  })

  it('overRisk names a group only above the ratio, with enough jobs and a rise that matters', () => {
    const w = five()
    const names = { users: USERS }
    const at = (o: { maxWaitRatio: number | null; minJobs?: number; minRise?: number }) =>
      measureImpact({ train: w, test: w }, 8, FCFS, SPF, names, o).overRisk.filter((x) => x.part === 'train').map((x) => x.label)
    // The ratios are 1995/995 = 2.005 (size) and 3990/1990 = 2.005 (requested, bob).
    expect(at({ maxWaitRatio: 2.01, minJobs: 1 })).toEqual([])
    expect(at({ maxWaitRatio: 2.0, minJobs: 1 })).toEqual(['5–8 processors', '4–12 h requested', 'bob'])
    expect(at({ maxWaitRatio: null, minJobs: 1 })).toEqual([])
    // Two jobs at most in each group: the default minimum of 10 names none.
    expect(at({ maxWaitRatio: 1.5 })).toEqual([])
    expect(at({ maxWaitRatio: 1.5, minJobs: 2 })).toEqual(['5–8 processors'])
    // The rises are 1000 s (size) and 2000 s (requested, bob): a floor of 1500 s keeps only the latter.
    expect(at({ maxWaitRatio: 1.5, minJobs: 1, minRise: 1500 })).toEqual(['4–12 h requested', 'bob'])
  })

  it('the recommendation being the baseline changes nothing', () => {
    const w = five()
    const imp = measureImpact({ train: w, test: w }, 8, FCFS, FCFS, { users: USERS }, { maxWaitRatio: 1.5, minJobs: 1 })
    for (const g of [...imp.train.bySize, ...imp.train.byRequested]) {
      expect(g.meanWait).toBe(g.baselineMeanWait)
      expect(g.meanRatio).toBe(1)
    }
    expect(imp.train.byAccount).toEqual([])
    expect(imp.overRisk).toEqual([])
  })
})

describe('the schedules: real weeks, each from an empty machine', () => {
  it('a job of the next week does not wait behind this week\'s long job', () => {
    // One processor. Job 0 runs 10 days from 0; job 1 arrives in the second week (day 8). On one
    // continuous schedule it would wait until day 10; its week starts empty, so it waits 0. A
    // job of the trailing partial week (day 15) is simulated too.
    const day = 86400
    const w = jobs([{ submit: 0, p: 10 * day, q: 1, user: 0 }, { submit: 8 * day, p: 100, q: 1, user: 0 }, { submit: 8 * day + 10, p: 100, q: 1, user: 0 }, { submit: 15 * day, p: 5, q: 1, user: 0 }])
    expect(Array.from(realWeekWaits(w, 1, FCFS))).toEqual([0, 0, 90, 0])
    expect(WEEK).toBe(7 * day)
  })
})

describe('classes', () => {
  it('sizes: powers of four up to the machine size', () => {
    expect(sizeClassBounds(1)).toEqual([1])
    expect(sizeClassBounds(8)).toEqual([1, 4, 8])
    expect(sizeClassBounds(100)).toEqual([1, 4, 16, 64, 100])
    expect(sizeClassBounds(1024)).toEqual([1, 4, 16, 64, 256, 1024])
    expect(sizeClassBounds(1025)).toEqual([1, 4, 16, 64, 256, 1024, 1025])
  })

  it('requested times: ≤ 1 h, 1–4 h, 4–12 h, 12–24 h, > 24 h, bounds inclusive', () => {
    const h = 3600
    const reqs = [h, h + 1, 4 * h, 12 * h, 24 * h, 24 * h + 1]
    const w = jobs(reqs.map((req, i) => ({ submit: i, p: 1, req, q: 1, user: 0 })))
    const zero = new Float64Array(w.count)
    const p = partImpact(w, 1, zero, zero, { users: ['u'] }, { maxWaitRatio: null })
    expect(p.byRequested.map((g) => [g.label, g.jobs])).toEqual([
      ['≤ 1 h requested', 1], ['1–4 h requested', 2], ['4–12 h requested', 1], ['12–24 h requested', 1], ['> 24 h requested', 1],
    ])
  })

  it('a ratio with a zero baseline mean is null, never Infinity', () => {
    expect(waitRatio(0, 0)).toBe(1)
    expect(waitRatio(5, 0)).toBeNull()
    expect(waitRatio(3, 2)).toBe(1.5)
  })
})

describe('the accounts that pay most', () => {
  // Hand-made waits, one processor each. Baseline 1000 s for every job, except u4's (100 s).
  //   u0: 12 jobs, +100 s each  → total +1200
  //   u1: 10 jobs, +200 s each  → total +2000
  //   u2:  1 job, +100,000 s    → a single job: below the minimum of 10, never listed
  //   u3: 15 jobs, −50 s each   → gains: not listed
  //   u4: 11 jobs, 100 → 200 s  → total +1100, mean ×2 but a rise of 100 s
  const plan: [number, number, number, number][] = [[0, 12, 1000, 100], [1, 10, 1000, 200], [2, 1, 1000, 100000], [3, 15, 1000, -50], [4, 11, 100, 100]]
  const rows: Row[] = [], base: number[] = [], rec: number[] = []
  for (const [u, n, b, d] of plan) for (let k = 0; k < n; k++) { rows.push({ submit: rows.length, p: 1, q: 1, user: u }); base.push(b); rec.push(b + d) }
  const w = jobs(rows)
  const names = { users: ['u0', 'u1', 'u2', 'u3', 'u4'] }
  const run = (o: { maxWaitRatio: number | null; topAccounts?: number; minRise?: number; minJobs?: number }): PartImpact =>
    partImpact(w, 4, Float64Array.from(base), Float64Array.from(rec), names, o)

  it('largest total increase first, with the minimum job count', () => {
    expect(DEFAULTS.impact.value.minJobs).toBe(10)
    const p = run({ maxWaitRatio: 1.5 })
    expect(p.byAccount.map((g) => [g.label, g.jobs])).toEqual([['u1', 10], ['u0', 12], ['u4', 11]])
    expect(p.byAccount[0].meanWait - p.byAccount[0].baselineMeanWait).toBe(200)
    expect(p.byAccount[2].meanRatio).toBe(2)
    // A lower minimum lets the single job in, and it pays most.
    expect(run({ maxWaitRatio: 1.5, minJobs: 1 }).byAccount[0].label).toBe('u2')
  })

  it('the top N, then any other account over the risk ratio', () => {
    expect(run({ maxWaitRatio: 1.5, topAccounts: 2 }).byAccount.map((g) => g.label)).toEqual(['u1', 'u0'])
    // u4's mean doubles; with no floor on the rise it is over 1.5× and is listed after the top 2.
    const p = run({ maxWaitRatio: 1.5, topAccounts: 2, minRise: 0 })
    expect(p.byAccount.map((g) => g.label)).toEqual(['u1', 'u0', 'u4'])
    expect(overRisk(p, p, 1.5, 10, 0).filter((o) => o.part === 'train' && o.dimension === 'account').map((o) => o.label)).toEqual(['u4'])
  })

  it('accounts when the log has them, users otherwise; names as the log has them', () => {
    const withAccounts = jobs([0, 1, 2].flatMap((a) => Array.from({ length: 10 }, (_, k) => ({ submit: a * 10 + k, p: 1, q: 1, user: k % 2, account: a }))))
    const b = new Float64Array(30).fill(100), r = Float64Array.from({ length: 30 }, (_, j) => (j < 10 ? 100 : j < 20 ? 300 : 200))
    const p = partImpact(withAccounts, 1, b, r, { users: ['x', 'y'], accounts: ['phys', 'chem', 'bio'] }, { maxWaitRatio: null })
    expect(p.accountKind).toBe('account')
    expect(p.byAccount.map((g) => [g.label, g.meanWait])).toEqual([['chem', 300], ['bio', 200]])
    const noNames = partImpact(withAccounts, 1, b, r, { users: ['x', 'y'] }, { maxWaitRatio: null })
    expect(noNames.accountKind).toBe('user')
  })
})

describe('the evaluation step', () => {
  it('no recommendation (insufficient data): no impact', () => {
    const w = five()
    expect(recommendationImpact({ train: w, test: w }, 8, null, { users: USERS }, 1.5)).toBeNull()
  })

  it('measures the recommended order against EASY-FCFS', () => {
    const w = five()
    const imp = recommendationImpact({ train: w, test: w }, 8, { candidate: { primary: 'SPF', backfill: 'same' }, threshold: null }, { users: USERS }, 1.5)
    expect(imp!.train.bySize[2]).toMatchObject({ label: '5–8 processors', baselineMeanWait: 995, meanWait: 1995 })
  })
})
