import { beforeAll, describe, expect, it } from 'vitest'
import { simulate } from '../../src/core/sim/easy'
import { BASELINE, cellKey, runCell, type CellResult } from '../../src/core/tune/campaign'
import { deriveSeed } from '../../src/core/util/random'
import {
  featureStats, gridK, l1Grid, l1GridSize, mixedReportCells, mixedReportFrom, mixedSearchSteps, mixedSpec, reportMixed, runMixed, runSteps, searchMixed, trainObjective, xnes,
  type MixedOptions,
} from '../../src/core/tune/mixed'
import { prepare, type Prepared } from '../../src/core/tune/prepare'
import { mixedJson } from '../../src/core/tune/reports'
import { WeekSamples, WEEK } from '../../src/core/tune/resample'
import { defaultVerdictOptions, partSummary, summarize, type PartSummary } from '../../src/core/tune/select'
import type { JobTable } from '../../src/core/workload/types'
import { parseSplit } from '../../src/cli/split-arg'
import { UsageError } from '../../src/cli/args'
import { readLog } from '../../src/node/read-log'
import { runCli } from '../support/cli'

const KTH = 'resources/KTH-SP2-1996-2.1-cln.swf.gz'
const l1 = (w: readonly number[]) => w.reduce((s, v) => s + Math.abs(v), 0)
const opts = (o: Partial<MixedOptions> = {}): MixedOptions => ({ features: 3, method: 'xnes', budget: 40, objective: 'avgWait', threshold: null, tau: 10, seed: 7, ...o })

describe('xnes', () => {
  const sphere = (x: number[]) => x.reduce((s, v) => s + v * v, 0)

  it('finds the minimum of the sphere and of a shifted, scaled quadratic within its budget', () => {
    expect(xnes(sphere, [1, 1, 1], { sigma0: 0.5, budget: 600, seed: 1 }).f).toBeLessThan(1e-6)
    const c = [3, -2, 0.5, 1, -1, 2]
    const shifted = (x: number[]) => x.reduce((s, v, i) => s + (i + 1) * (v - c[i]) ** 2, 0)
    const r = xnes(shifted, [0, 0, 0, 0, 0, 0], { sigma0: 1, budget: 3000, seed: 2 })
    r.x.forEach((v, i) => expect(v).toBeCloseTo(c[i], 2))
  })

  it('is seeded: the same seed gives the same run, another seed another', () => {
    const run = (seed: number) => xnes(sphere, [1, -2, 3], { sigma0: 0.5, budget: 50, seed })
    expect(run(5)).toEqual(run(5))
    expect(run(6).x).not.toEqual(run(5).x)
  })

  it('never calls f more often than the budget', () => {
    for (const budget of [1, 6, 7, 8, 13, 100]) {
      let calls = 0
      const r = xnes((x) => { calls++; return sphere(x) }, [1, 1, 1], { sigma0: 0.5, budget, seed: 3 })
      expect(calls).toBe(budget)
      expect(r.evaluations).toBe(budget)
    }
  })
})

describe('the ℓ1-sphere grid', () => {
  it('has only points with ‖w‖₁ = 1, no duplicates, the vertices, and the announced size', () => {
    for (const [d, k] of [[3, 1], [3, 5], [3, 7], [6, 2]]) {
      const g = l1Grid(d, k)
      expect(g.length).toBe(l1GridSize(d, k))
      for (const w of g) expect(l1(w)).toBeCloseTo(1, 12)
      expect(new Set(g.map((w) => w.join(','))).size).toBe(g.length)
      for (let i = 0; i < d; i++) {
        for (const s of [1, -1]) expect(g.some((w) => w.every((v, j) => v === (i === j ? s : 0)))).toBe(true)
      }
    }
    expect(l1GridSize(3, 5)).toBe(4 * 25 + 2)
    expect(gridK(3, 120)).toBe(5)
    expect(gridK(3, 200)).toBe(7)
    expect(gridK(3, 3)).toBe(1)
  })
})

// One week on 4 processors: a blocker holds the machine, then 8 full-machine jobs queue up, the
// longest submitted first. They run one after another, so shortest-first (SPF) is the unique
// optimal order for the average wait; FCFS is the worst.
function spfWorkload(): { samples: WeekSamples; week: JobTable } {
  const rows = [[0, 10000, 4]]
  for (let k = 0; k < 8; k++) rows.push([1 + 1000 * k, 8000 - 1000 * k, 4])
  rows.push([WEEK, 10, 1]) // only so that the part spans exactly one full week (this job, on its end, is in no week)
  const n = rows.length
  const part: JobTable = {
    count: n, id: Float64Array.from(rows, (_, i) => i + 1), submit: Float64Array.from(rows, (r) => r[0]),
    runtime: Float64Array.from(rows, (r) => r[1]), requested: Float64Array.from(rows, (r) => r[1]), procs: Int32Array.from(rows, (r) => r[2]),
    user: new Int32Array(n), recordedWait: new Float64Array(n).fill(NaN), line: Int32Array.from(rows, (_, i) => i + 1),
  }
  const samples = new WeekSamples(part, { method: 'none', weeks: 1, seed: 1 })
  return { samples, week: samples.get(0) }
}

describe('mixed search on a workload where SPF is best', () => {
  const { samples, week } = spfWorkload()
  const spf = simulate(week, 4, { primary: 'SPF', backfill: 'same', threshold: null }, { windowStart: 0 })
  const fcfs = simulate(week, 4, { primary: 'FCFS', backfill: 'same', threshold: null }, { windowStart: 0 })
  const schedule = (spec: ReturnType<typeof mixedSpec>) => Array.from(simulate(week, 4, { primary: spec, backfill: 'same', threshold: null }, { windowStart: 0 }))

  it('xnes and the grid find weights whose schedule is SPF’s', () => {
    expect(Array.from(fcfs)).not.toEqual(Array.from(spf))
    for (const method of ['xnes', 'grid'] as const) {
      const r = searchMixed(samples, 4, opts({ method }))
      expect(schedule(r.spec)).toEqual(Array.from(spf))
      expect(l1(r.weights)).toBeCloseTo(1, 12)
      expect(r.evaluations).toBeLessThanOrEqual(40)
    }
  })

  it('plain XNES from FCFS (no vertex shortcut) reaches SPF’s order', () => {
    const st = featureStats([week], 4)
    const f = (x: number[]) => trainObjective([week], 4, mixedSpec([...x.map((v) => v / l1(x)), 0, 0, 0], st), opts())
    const r = xnes(f, [0, 0, 1], { sigma0: 0.5, budget: 60, seed: 11 })
    expect(schedule(mixedSpec([...r.x.map((v) => v / l1(r.x)), 0, 0, 0], st))).toEqual(Array.from(spf))
  })

  it('keeps a non-increasing trace, respects the budget and is seeded', () => {
    const a = searchMixed(samples, 4, opts({ budget: 25, features: 6 }))
    expect(a.trace.length).toBe(25)
    for (let i = 1; i < a.trace.length; i++) expect(a.trace[i]).toBeLessThanOrEqual(a.trace[i - 1])
    expect(a.trace[a.trace.length - 1]).toBe(a.trainObjective)
    expect(a.simulations).toBeLessThanOrEqual(25)
    expect(searchMixed(samples, 4, opts({ budget: 25, features: 6 }))).toEqual(a)
    expect(searchMixed(samples, 4, opts({ budget: 3 })).evaluations).toBe(3)
    // XNES evaluates FCFS first (its start point), then the other vertices: SPF is number 3.
    expect(a.trace[0]).toBe(trainObjective([week], 4, 'FCFS', opts()))
    expect(a.trace[2]).toBe(trainObjective([week], 4, 'SPF', opts()))
    expect(a.trace[1]).toBeGreaterThan(a.trace[2])
  })

  it('standardises with the train means and stds (a constant feature gets scale 0)', () => {
    const st = featureStats([week], 4)
    expect(st.scale[0]).toBe(0)
    const p = Array.from(week.requested)
    const mean = p.reduce((x, y) => x + y, 0) / p.length
    expect(st.mean[1]).toBeCloseTo(-mean, 6)
    expect(st.scale[1]).toBeCloseTo(Math.sqrt(p.reduce((x, y) => x + (y - mean) ** 2, 0) / p.length), 6)
  })

  it('keeps FCFS when nothing does better (an idle machine: every order gives the same schedule)', () => {
    const part: JobTable = {
      count: 4, submit: Float64Array.of(0, 20000, 40000, WEEK + 1), runtime: Float64Array.of(100, 100, 100, 1), requested: Float64Array.of(100, 200, 300, 1),
      procs: Int32Array.of(1, 2, 3, 1), id: Float64Array.of(1, 2, 3, 4), user: new Int32Array(4), recordedWait: new Float64Array(4), line: Int32Array.of(1, 2, 3, 4),
    }
    for (const method of ['xnes', 'grid'] as const) {
      const r = searchMixed(new WeekSamples(part, { method: 'none', weeks: 1, seed: 1 }), 4, opts({ method, budget: 30 }))
      expect(r.trainObjective).toBe(0)
      if (method === 'xnes') expect(r.weights).toEqual([0, 0, 1, 0, 0, 0])
      else expect(l1(r.weights)).toBeCloseTo(1, 12)
    }
  })
})

describe('reporting on KTH', () => {
  let p: Prepared, m: number, jobs: JobTable
  beforeAll(async () => {
    const w = await readLog(KTH)
    m = w.machineProcs
    jobs = w.jobs
    p = prepare(w.jobs, m, { kind: 'midpoint' }, { method: 'user-weeks', weeks: 12, seed: 5 })
  })

  it('gives the train objective and train/test summaries that runCell + partSummary give', () => {
    const o = opts({ budget: 12, seed: 5, threshold: 72000 })
    const r = runMixed(p, m, o)
    const base = { train: runCell(p.train, m, { candidate: BASELINE, threshold: null, part: 'train' }, 10), test: runCell(p.test, m, { candidate: BASELINE, threshold: null, part: 'test' }, 10) }
    const cand = { primary: r.search.spec, backfill: 'same' as const }
    for (const part of ['train', 'test'] as const) {
      const cell = runCell(p[part], m, { candidate: cand, threshold: 72000, part }, 10)
      expect(r.best[part]).toEqual(partSummary(cell, base[part], 'avgWait', deriveSeed(5, `bootstrap/${part}/${cellKey({ part: 'train', candidate: cand, threshold: 72000 })}`)))
    }
    // The vertex rows are exactly what `evaluate` (select.ts summarize) reports for those candidates.
    const spfCand = { primary: 'SPF', backfill: 'same' as const }
    const results = new Map<string, CellResult>()
    for (const part of ['train', 'test'] as const) {
      results.set(cellKey({ part, candidate: BASELINE, threshold: null }), base[part])
      results.set(cellKey({ part, candidate: spfCand, threshold: 72000 }), runCell(p[part], m, { candidate: spfCand, threshold: 72000, part }, 10))
    }
    // evaluate also needs the real-week cells; the mixed report has none, so its interval and
    // `real` describe its resampled weeks, and only the resampled figures are compared.
    for (const part of ['train', 'test'] as const) {
      const real = part === 'train' ? p.trainReal : p.testReal
      results.set(cellKey({ part, candidate: BASELINE, threshold: null, samples: 'real' }), runCell(real, m, { candidate: BASELINE, threshold: null, part }, 10))
      results.set(cellKey({ part, candidate: spfCand, threshold: 72000, samples: 'real' }), runCell(real, m, { candidate: spfCand, threshold: 72000, part }, 10))
    }
    const sel = summarize({ candidates: [spfCand], thresholds: [72000], split: { kind: 'midpoint' }, resample: p.train.spec, objective: 'avgWait', tau: 10 }, results, { ...defaultVerdictOptions({ maxWaitRatio: null }), replicates: 200 }, 5)
    const spfRow = sel.candidates.find((c) => !c.baseline)
    const resampled = (x: PartSummary | undefined) => { const { gainCi: _c, real: _r, ...rest } = x!; return rest }
    expect(resampled(r.vertices[1].train)).toEqual(resampled(spfRow?.train))
    expect(resampled(r.vertices[1].test)).toEqual(resampled(spfRow?.test))
    expect(resampled(r.baseline.test)).toEqual(resampled(sel.candidates[0].test))
    expect(r.best.train.mean).toBeCloseTo(r.search.trainObjective, 6)
    expect(r.best.train.mean).toBeLessThanOrEqual(Math.min(...r.vertices.map((v) => v.train.mean), r.baseline.train.mean) + 1e-9)
    expect(r.vertices.map((v) => v.label)).toEqual(['EASY-SQF Θ=20 h', 'EASY-SPF Θ=20 h'])
    expect(reportMixed(p, m, r.search, o)).toEqual(r)
  })

  it('the search\'s batches are independent points, each simulated once, and give searchMixed\'s result however they are answered', () => {
    const weeks = Array.from({ length: p.train.count }, (_, k) => p.train.get(k))
    const st = featureStats(weeks, m)
    for (const o of [opts({ budget: 30, seed: 2 }), opts({ budget: 30, features: 6, threshold: 72000 }), opts({ method: 'grid', budget: 20 })]) {
      const batches: number[] = []
      const seen = new Set<string>()
      // Each batch answered last point first, as a pool of workers might finish them.
      const r = runSteps(mixedSearchSteps(st, o), (specs) => {
        batches.push(specs.length)
        for (const spec of specs) {
          const key = spec.weights.join(',')
          expect(seen.has(key)).toBe(false)
          seen.add(key)
        }
        return [...specs].reverse().map((spec) => trainObjective(weeks, m, spec, o)).reverse()
      })
      expect(r).toEqual(searchMixed(p.train, m, o))
      expect(seen.size).toBe(r.simulations)
      if (o.method === 'grid') expect(batches).toEqual([Math.min(o.budget, l1GridSize(o.features, gridK(o.features, o.budget)))]) // the whole grid at once
      else {
        expect(batches[0]).toBe(o.features) // FCFS and the other vertices together
        const lambda = 4 + Math.floor(3 * Math.log(o.features))
        expect(Math.max(...batches.slice(1))).toBeLessThanOrEqual(lambda) // then one generation at a time
        expect(batches.length).toBeGreaterThan(2)
      }
    }
  })

  it('the report\'s cells are distinct and independent: computed in any order they give reportMixed\'s report', () => {
    const o = opts({ budget: 8, seed: 5, features: 6, threshold: 72000 })
    const search = searchMixed(p.train, m, o)
    const cells = mixedReportCells(search, o)
    expect(cells).toHaveLength(2 * (2 + 5))
    expect(new Set(cells.map(cellKey)).size).toBe(cells.length)
    const results = new Array<CellResult>(cells.length)
    for (let i = cells.length - 1; i >= 0; i--) results[i] = runCell(p[cells[i].part], m, cells[i], o.tau)
    expect(mixedReportFrom(search, o, results)).toEqual(reportMixed(p, m, search, o))
    expect(() => mixedReportFrom(search, o, results.slice(1))).toThrow(/needs 14 cell results, got 13/)
  })

  // Seed 2: with seed 1 the 3 weeks drawn since the trailing partial week is kept (issue #19) are
  // ones where no mix beats SPF; on seeds 2–6 XNES gains 1–26 % over the best vertex.
  it('XNES itself improves on the best pure vertex (seed 2, 3 weeks, 40 evaluations)', () => {
    const q = prepare(jobs, m, { kind: 'midpoint' }, { method: 'user-weeks', weeks: 3, seed: 2 })
    const weeks = [0, 1, 2].map((k) => q.train.get(k))
    const r = searchMixed(q.train, m, opts({ seed: 2 }))
    const vertexBest = Math.min(...['FCFS', 'SQF', 'SPF'].map((id) => trainObjective(weeks, m, id, opts())))
    expect(r.trainObjective).toBeLessThan(vertexBest * 0.99)
    expect(r.weights.filter((v) => v !== 0).length).toBeGreaterThan(1)
  })
})

describe('parseSplit', () => {
  const origin = Date.UTC(2020, 0, 1) / 1000
  const span = { first: 0, last: 365 * 86400 }

  it('reads midpoint, fractions and dates', () => {
    expect(parseSplit('midpoint', null)).toEqual({ kind: 'midpoint' })
    expect(parseSplit('0.6', null)).toEqual({ kind: 'fraction', fraction: 0.6 })
    expect(parseSplit('.25', null)).toEqual({ kind: 'fraction', fraction: 0.25 })
    expect(parseSplit('2020-03-01', origin, span)).toEqual({ kind: 'time', at: (Date.UTC(2020, 2, 1) / 1000) - origin })
    expect(parseSplit('2020-03-01T12:00', origin, span)).toEqual({ kind: 'time', at: (Date.UTC(2020, 2, 1, 12) / 1000) - origin })
    expect(parseSplit('2020-03-01T12:00+02:00', origin, span)).toEqual({ kind: 'time', at: (Date.UTC(2020, 2, 1, 10) / 1000) - origin })
  })

  it('refuses bad text, fractions outside (0, 1), impossible dates, dates without an origin or outside the log', () => {
    const err = (text: string, u: number | null = origin) => { try { parseSplit(text, u, span); return '' } catch (e) { expect(e).toBeInstanceOf(UsageError); return (e as Error).message } }
    expect(err('1')).toMatch(/strictly between 0 and 1/)
    expect(err('0')).toMatch(/strictly between 0 and 1/)
    expect(err('half')).toMatch(/not a split/)
    expect(err('2020-02-30')).toMatch(/not a valid date/)
    expect(err('2020-03-01', null)).toMatch(/no absolute time origin/)
    expect(err('2019-12-31')).toMatch(/outside the log.*2020-01-01 to 2020-12-31/)
    expect(err('2021-06-01')).toMatch(/outside the log/)
  })
})

describe('easytune mixed', () => {
  it('runs on the bundled KTH log with tiny settings and prints one valid JSON document', async () => {
    const r = await runCli(['mixed', KTH, '--weeks', '3', '--budget', '10', '--json'])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.schemaVersion).toBe(1)
    expect(j.options).toMatchObject({ features: 3, method: 'xnes', budget: 10, objective: 'avgWait', threshold: null })
    expect(j.search.evaluations).toBe(10)
    expect(j.search.trace).toHaveLength(10)
    expect(l1(j.best.weights)).toBeCloseTo(1, 9)
    expect(j.best.weights.slice(3)).toEqual([0, 0, 0])
    for (const e of [j.best, j.baseline, ...j.vertices]) for (const part of ['train', 'test']) expect(e[part].gainCi).toHaveLength(2)
    expect(j.vertices.map((v: { label: string }) => v.label)).toEqual(['EASY-SQF', 'EASY-SPF'])
    expect(r.stderr).toMatch(/budget 10 evaluations, 3 train and 3 test weeks/)
  })

  it('prints exactly the shared document (mixedJson) that the app\'s engine worker sends', async () => {
    const r = await runCli(['mixed', KTH, '--weeks', '2', '--budget', '6', '--split', '0.4', '--json'])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    const w = await readLog(KTH, {})
    const resample = { method: 'user-weeks' as const, weeks: 2, seed: 1 }
    const o = { features: 3 as const, method: 'xnes' as const, budget: 6, objective: 'avgWait' as const, threshold: null, tau: 10, seed: 1, compat: 'none' as const }
    const p = prepare(w.jobs, w.machineProcs, { kind: 'fraction', fraction: 0.4 }, resample)
    const doc = mixedJson(w, p, o, { kind: 'fraction', fraction: 0.4 }, resample, runMixed(p, w.machineProcs, o), j.seconds)
    expect(j).toEqual(JSON.parse(JSON.stringify(doc)))
  })

  it('prints the same JSON with 1 and 2 workers (all but the elapsed seconds)', async () => {
    const args = ['mixed', KTH, '--weeks', '3', '--budget', '14', '--seed', '4', '--json']
    const doc = async (workers: string) => {
      const r = await runCli([...args, '--workers', workers])
      expect(r.code).toBe(0)
      return r.stdout.replace(/\n {2}"seconds": [^,]+,/, '\n  "seconds": 0,') // the top-level elapsed time
    }
    expect(await doc('2')).toBe(await doc('1'))
  })

  it('prints the weights and the gains for people, and rejects bad flags with exit 2', async () => {
    const r = await runCli(['mixed', KTH, '--weeks', '2', '--budget', '8', '--method', 'grid', '--features', '6'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/−p̃·q .* small area first \(SAF\)/)
    expect(r.stdout).toMatch(/EASY-FCFS .*0\.0% \[0\.0%, 0\.0%\]/)
    expect((await runCli(['mixed', KTH, '--features', '4'])).code).toBe(2)
    const bad = await runCli(['mixed', KTH, '--split', '2005-01-01'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/outside the log/)
    expect((await runCli(['mixed', '--help'])).stdout).toMatch(/--budget N/)
  })
})
