import { describe, expect, it } from 'vitest'
import { EasySimulator, simulate } from '../../src/core/sim/easy'
import type { SimJobs } from '../../src/core/sim/types'
import { DEFAULT_ONLINE, emulate, emulateTrace, periodCosts, runOnline, summarize, type OnlineSpec, type TraceRuns } from '../../src/core/tune/online'
import { onlineJson } from '../../src/core/tune/reports'
import { readLog } from '../../src/node/read-log'
import { Rng } from '../../src/core/util/random'
import { runCli } from '../support/cli'

const KTH = 'resources/KTH-SP2-1996-2.1-cln.swf.gz'

/** Jobs as [submit, runtime, requested, procs], already sorted by submit. */
function jobs(list: [number, number, number, number][]): SimJobs {
  return {
    count: list.length,
    submit: Float64Array.from(list, (j) => j[0]), runtime: Float64Array.from(list, (j) => j[1]),
    requested: Float64Array.from(list, (j) => j[2]), procs: Int32Array.from(list, (j) => j[3]),
  }
}

/** A busy random workload on 8 processors: `n` jobs over about n·20 seconds. */
function randomTrace(n: number, seed: number): SimJobs {
  const rng = new Rng(seed)
  const list: [number, number, number, number][] = []
  let t = 0
  for (let k = 0; k < n; k++) {
    t += rng.int(40)
    const run = 1 + rng.int(300)
    list.push([t, run, run + rng.int(300), 1 + rng.int(rng.next() < 0.3 ? 8 : 3)])
  }
  return jobs(list)
}

const spec = (over: Partial<OnlineSpec>): OnlineSpec => ({ ...DEFAULT_ONLINE, threshold: null, period: 1000, ...over })

/** Start times of a continuous run that switches to choices[t] at t·period (an independent replay). */
function replay(trace: SimJobs, m: number, s: OnlineSpec, choices: Int32Array): Float64Array {
  const cfg = (i: number) => ({ primary: s.policies[i], backfill: 'same' as const, threshold: s.threshold })
  const sim = new EasySimulator(trace, m, cfg(choices[0]), {})
  for (let t = 0; t < choices.length; t++) {
    if (t > 0) sim.setConfig(cfg(choices[t]))
    sim.runUntil((t + 1) * s.period)
  }
  sim.runUntil(Infinity)
  return sim.start
}

const totalWait = (trace: SimJobs, start: Float64Array) => trace.submit.reduce((a, r, j) => a + start[j] - r, 0)

describe('online selection: full and noisy simulated feedback (eq. 6.2–6.6)', () => {
  // Period 0: a 2-processor job blocks the machine, then a long job L and a short job S arrive.
  // FCFS/LPF run L first (waits 99 + 598), SPF runs S first (98 + 109): SPF is best in period 0.
  // Period 1: S arrives before L, so FCFS = SPF (207) and LPF is worst (697).
  const trace = jobs([
    [0, 100, 100, 2], [1, 500, 500, 2], [2, 10, 10, 2],
    [1000, 100, 100, 2], [1001, 10, 10, 2], [1002, 500, 500, 2],
  ])
  const policies = ['FCFS', 'LPF', 'SPF']

  it('measures each period alone from an empty machine', () => {
    expect(Array.from(periodCosts(trace, 2, policies, 1000, 2, null))).toEqual([697, 697, 207, 207, 697, 207])
  })

  it('starts with FCFS, then picks the policy that was best on the past periods', () => {
    const choose = (lambda: number) => Array.from(emulate(trace, 2, spec({ policies, lambda, strategies: ['full'] }), 1, { periods: 3 }).strategies.full!.choices!)
    // λ = 1: cumulative costs after period 1 are FCFS 904, LPF 1394, SPF 414 → SPF.
    expect(choose(1)).toEqual([0, 2, 2])
    // λ = 0: only the last period counts; FCFS and SPF tie in period 1, the list order wins.
    expect(choose(0)).toEqual([0, 2, 0])
  })

  it('chooses the argmin of the cumulative simulated costs on a random trace', () => {
    const tr = randomTrace(1500, 7)
    const s = spec({ policies: ['FCFS', 'SPF', 'LPF', 'SAF', 'LAF', 'LEXP'], strategies: ['full'], period: 2000 })
    const r = emulate(tr, 8, s, 3)
    const cost = periodCosts(tr, 8, s.policies, s.period, r.periods, null)
    const cum = new Float64Array(s.policies.length)
    const expected = [0]
    for (let t = 1; t < r.periods; t++) {
      for (let i = 0; i < cum.length; i++) cum[i] += cost[(t - 1) * cum.length + i]
      expected.push(cum.indexOf(Math.min(...cum)))
    }
    expect(Array.from(r.strategies.full!.choices!)).toEqual(expected)
    expect(new Set(expected).size).toBeGreaterThan(1)
    expect(r.strategies.full!.totalWait).toBe(totalWait(tr, replay(tr, 8, s, r.strategies.full!.choices!)))
  })

  it('noisy with ρ fixed to 1 equals full; with ρ ~ U[0.8, 1.2] it may differ but stays seeded', () => {
    const tr = randomTrace(1500, 11)
    const base = spec({ policies: ['FCFS', 'SPF', 'SQF', 'SAF', 'LCFS'], strategies: ['full', 'noisy'], period: 1500 })
    const exact = emulate(tr, 8, { ...base, noise: [1, 1] }, 5)
    expect(exact.strategies.noisy).toEqual(exact.strategies.full)
    const a = emulate(tr, 8, base, 5), b = emulate(tr, 8, base, 5)
    expect(a.strategies.noisy).toEqual(b.strategies.noisy)
  })
})

describe('online selection: ε-greedy bandit feedback (eq. 6.7–6.9)', () => {
  const policies = ['FCFS', 'SPF', 'LPF', 'SAF']
  const tr = randomTrace(3000, 21)
  const s = spec({ policies, strategies: ['egreedy'], period: 1000, epsilon: 0 })

  it('ε = 0: tries every policy once in list order, then always the lowest observed average wait per started job', () => {
    const r = emulate(tr, 8, s, 1)
    const choices = r.strategies.egreedy!.choices!
    expect(Array.from(choices.slice(0, 4))).toEqual([0, 1, 2, 3])
    // Replay the same switches and recompute the averages over the jobs started in each period.
    const start = replay(tr, 8, s, choices)
    expect(r.strategies.egreedy!.totalWait).toBe(totalWait(tr, start))
    const sum = new Float64Array(4), count = new Float64Array(4)
    for (let t = 0; t < choices.length; t++) {
      if (t >= 4) {
        const avg = Array.from(sum, (x, i) => x / count[i])
        expect(choices[t]).toBe(avg.indexOf(Math.min(...avg)))
      }
      for (let j = 0; j < tr.count; j++) {
        if (start[j] >= t * s.period && start[j] < (t + 1) * s.period) { sum[choices[t]] += start[j] - tr.submit[j]; count[choices[t]]++ }
      }
    }
  })

  it('ε = 1: a uniformly random policy every period, different from the greedy choices', () => {
    const greedy = emulate(tr, 8, s, 1).strategies.egreedy!.choices!
    const explore = emulate(tr, 8, { ...s, epsilon: 1 }, 1).strategies.egreedy!.choices!
    const counts = [0, 0, 0, 0]
    explore.forEach((c) => counts[c]++)
    for (const c of counts) expect(c).toBeGreaterThan(explore.length / 4 * 0.5)
    expect(Array.from(explore)).not.toEqual(Array.from(greedy))
  })
})

describe('online selection: random strategy and fixed runs', () => {
  const tr = randomTrace(2000, 3)
  const policies = ['FCFS', 'LCFS', 'SPF', 'LPF', 'SQF', 'LQF']
  const s = spec({ policies, strategies: ['random'], period: 100 })

  it('is uniform-ish and seeded', () => {
    const a = emulate(tr, 8, s, 1).strategies.random!.choices!
    expect(a.length).toBeGreaterThan(300)
    const counts = new Array(6).fill(0)
    a.forEach((c) => counts[c]++)
    for (const c of counts) expect(Math.abs(c - a.length / 6)).toBeLessThan(a.length / 6 * 0.35)
    expect(emulate(tr, 8, s, 1).strategies.random!.choices).toEqual(a)
    expect(emulate(tr, 8, s, 2).strategies.random!.choices).not.toEqual(a)
  })

  it('a run that never switches equals simulate() of that policy', () => {
    for (const p of ['FCFS', 'SPF', 'LEXP', 'SAF']) {
      for (const strategy of ['random', 'egreedy', 'full'] as const) {
        const one = spec({ policies: [p], strategies: [strategy], period: 100, threshold: 3000 })
        const r = emulate(tr, 8, one, 1)
        const direct = totalWait(tr, simulate(tr, 8, { primary: p, backfill: 'same', threshold: 3000 }))
        expect(r.strategies[strategy]!.totalWait).toBe(direct)
        expect(r.strategies[strategy]!.finishedWait).toEqual(r.fixed[0].finishedWait)
      }
    }
  })

  it('reports the baseline against itself as no gain, and curves that end at the total gain', () => {
    const runs = [1, 2].map((seed) => emulate(randomTrace(1200, seed), 8, spec({ policies, strategies: ['random', 'full'], period: 500 }), seed, { periods: 60 }))
    const res = summarize(spec({ policies, strategies: ['random', 'full'], period: 500 }), runs)
    const base = res.runs.find((r) => r.id === 'baseline')!
    expect(base.gain).toBe(0)
    expect(base.gainCurve.mean.every((v) => v === 0)).toBe(true)
    expect(res.runs.find((r) => r.id === 'fixed:FCFS')!.gainCurve.p90.every((v) => v === 0)).toBe(true)
    const baseSum = base.totalWait[0] + base.totalWait[1]
    for (const r of res.runs) {
      const sum = r.totalWait[0] + r.totalWait[1]
      expect(r.relative).toBeCloseTo((sum - baseSum) / baseSum, 12)
      expect(r.gainCurve.mean[59]).toBeCloseTo((baseSum - sum) / 2, 6)
    }
    const share = res.runs.find((r) => r.id === 'random')!.share!
    for (let t = 0; t < 60; t++) expect(policies.reduce((a, p) => a + share[p][t], 0)).toBeCloseTo(1, 12)
  })
})

describe('online selection: traces are independent units', () => {
  it('emulated in any order and merged in trace order, they give runOnline\'s result', async () => {
    const w = await readLog(KTH, {})
    const s: OnlineSpec = { ...DEFAULT_ONLINE, strategies: ['full', 'egreedy'], weeks: 2, traces: 3, seed: 9 }
    const runs = new Array<TraceRuns>(3)
    for (const k of [2, 0, 1]) runs[k] = emulateTrace(w.jobs, w.machineProcs, s, k)
    expect(summarize(s, runs)).toEqual(runOnline(w.jobs, w.machineProcs, s))
    // Each trace has its own seeds: two traces differ.
    expect(runs[0].baseline.totalWait).not.toBe(runs[1].baseline.totalWait)
    expect(() => emulateTrace(w.jobs, w.machineProcs, s, 3)).toThrow(/not one of the 3 traces/)
  })
})

describe('easytune online', () => {
  it('runs on the KTH sample and prints valid, deterministic JSON', async () => {
    const args = ['online', KTH, '--weeks', '8', '--period', 'week', '--traces', '2', '--seed', '3', '--json']
    const r = await runCli(args)
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.schemaVersion).toBe(1)
    expect(j.periods).toBe(8)
    expect(j.config).toMatchObject({ period: 604800, threshold: 144000, epsilon: 0.1, lambda: 1, weeks: 8, traces: 2 })
    expect(j.runs.map((x: { id: string }) => x.id)).toEqual(['baseline', 'full', 'noisy', 'egreedy', 'random', ...DEFAULT_ONLINE.policies.map((p) => `fixed:${p}`)])
    for (const run of j.runs) {
      expect(run.gainCurve.mean).toHaveLength(8)
      expect(run.totalWait).toHaveLength(2)
    }
    expect((await runCli(args)).stdout).toBe(r.stdout)
    const human = await runCli(['online', KTH, '--weeks', '4', '--traces', '1', '--period', 'day', '--strategy', 'egreedy,random'])
    expect(human.code).toBe(0)
    expect(human.stdout).toMatch(/ε-greedy bandit feedback/)
    expect(human.stdout).toMatch(/Most chosen policies/)
  })

  it('prints exactly the shared document (onlineJson) that the app\'s engine worker sends', async () => {
    const r = await runCli(['online', KTH, '--weeks', '3', '--traces', '1', '--strategy', 'full,random', '--seed', '4', '--json'])
    expect(r.code).toBe(0)
    const w = await readLog(KTH, {})
    const spec: OnlineSpec = { ...DEFAULT_ONLINE, strategies: ['full', 'random'], weeks: 3, traces: 1, seed: 4 }
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(JSON.stringify(onlineJson(w, spec, runOnline(w.jobs, w.machineProcs, spec)))))
  })

  it('prints the same JSON byte for byte with 1 and 2 workers', async () => {
    const args = ['online', KTH, '--weeks', '3', '--traces', '3', '--strategy', 'noisy,random', '--seed', '6', '--json']
    const one = await runCli([...args, '--workers', '1'])
    expect(one.code).toBe(0)
    expect((await runCli([...args, '--workers', '2'])).stdout).toBe(one.stdout)
  })

  it('rejects bad options with exit code 2', async () => {
    for (const bad of [['--workers', '0'], ['--strategy', 'ucb'], ['--epsilon', '2'], ['--period', 'month'], ['--policies', 'FCFS,XYZ'], ['--weeks', '0'], ['--lambda', '-1']]) {
      const r = await runCli(['online', KTH, ...bad])
      expect(r.code, bad.join(' ')).toBe(2)
    }
  })
})
