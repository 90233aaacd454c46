// Issue #20: the simulator's progress/stop hook never changes a schedule; the offered load over
// 100 % of the machine is computed as worked by hand and warned at import and before `simulate`.
// The CLI side (progress lines, Ctrl-C ending with exit 130) is test/unit/simulate-progress-cli.test.ts.
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { EasySimulator, simulate, SimulationStopped } from '../../src/core/sim/easy'
import type { SimConfig } from '../../src/core/sim/types'
import { importText } from '../../src/core/workload/import'
import { nameMachineSizeControl, offeredLoad, overloadWarning } from '../../src/core/workload/load'
import { runCli } from '../support/cli'
import { anyWorkloadArb, configArb } from '../support/random-workload'

const GOLDEN = join(import.meta.dirname, '..', 'golden')
const CONFIGS: SimConfig[] = [
  { primary: 'FCFS', backfill: 'same', threshold: null },
  { primary: 'SPF', backfill: 'same', threshold: 3600 },
  { primary: 'LEXP', backfill: 'FCFS', threshold: null },
]

/** A run stopped at every check and resumed, as the CLI does between two slices. */
function stoppedAndResumed(jobs: Parameters<typeof simulate>[0], m: number, config: SimConfig, checkEvery: number): { starts: Float64Array; stops: number } {
  const sim = new EasySimulator(jobs, m, config, { checkEvery, onCheck: () => true })
  let stops = 0
  while (sim.runUntil(Infinity)) stops++
  return { starts: sim.start, stops }
}

describe('the simulator progress hook', () => {
  it('stopping at every check and resuming gives the schedule of a run without the hook (golden logs, several orders)', () => {
    const logs = readdirSync(GOLDEN).filter((f) => f.endsWith('.swf'))
    expect(logs.length).toBeGreaterThanOrEqual(10)
    for (const f of logs) {
      const w = importText(readFileSync(join(GOLDEN, f), 'utf8'), { name: f })
      for (const c of CONFIGS) {
        const plain = simulate(w.jobs, w.machineProcs, c)
        const { starts, stops } = stoppedAndResumed(w.jobs, w.machineProcs, c, 1)
        expect([...starts], `${f} ${String(c.primary)}`).toEqual([...plain])
        // every event time but the last is followed by a check that stopped the run (a zero-runtime
        // job's end at its own start time is one more pass at the same time)
        expect(stops, f).toBeGreaterThanOrEqual(new Set([...w.jobs.submit, ...plain.map((s, i) => s + w.jobs.runtime[i])]).size - 1)
      }
    }
  })

  it('the same on random workloads and configurations, whatever the check interval (property)', () => {
    fc.assert(fc.property(anyWorkloadArb, configArb, fc.integer({ min: 1, max: 5 }), (w, config, every) => {
      const plain = simulate(w.jobs, w.machineProcs, config)
      const observed: number[] = []
      const watched = simulate(w.jobs, w.machineProcs, config, { checkEvery: every, onCheck: (started) => { observed.push(started); return false } })
      const { starts } = stoppedAndResumed(w.jobs, w.machineProcs, config, every)
      expect([...watched]).toEqual([...plain])
      expect([...starts]).toEqual([...plain])
      // jobs started only grows and never exceeds the jobs
      for (let k = 1; k < observed.length; k++) expect(observed[k]).toBeGreaterThanOrEqual(observed[k - 1])
      for (const s of observed) expect(s).toBeLessThanOrEqual(w.jobs.count)
    }), { seed: 2020, numRuns: 200 })
  })

  it('reports the jobs started and the simulated time, every checkEvery event times', () => {
    // 3 jobs on 1 processor, each 10 s: event times 0 (all submit, job 1 starts), 10, 20, 30.
    const w = importText(['; MaxProcs: 1', ...[1, 2, 3].map((id) => `${id} 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1`)].join('\n') + '\n')
    const calls: [number, number][] = []
    simulate(w.jobs, 1, CONFIGS[0], { checkEvery: 1, onCheck: (started, now) => { calls.push([started, now]); return false } })
    // a check follows each event time, with the state it leaves
    expect(calls).toEqual([[1, 0], [2, 10], [3, 20], [3, 30]])
  })

  it('simulate() throws SimulationStopped when the hook answers true', () => {
    const w = importText(['; MaxProcs: 1', '1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1', '2 5 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1'].join('\n') + '\n')
    expect(() => simulate(w.jobs, 1, CONFIGS[0], { checkEvery: 2, onCheck: () => true })).toThrow(SimulationStopped)
  })
})

// Machine of 10 processors; submits at 0 and 100 s, so the span is 100 s and the machine offers
// 10 × 100 = 1,000 processor-seconds. Job 1: 50 s × 10 processors = 500; job 2: 51 s × 10 = 510
// (total 1,010: 101 %) or 49 s × 10 = 490 (total 990: 99 %).
const twoJobs = (secondRuntime: number) => ['; MaxProcs: 10',
  '1 0 -1 50 10 -1 -1 10 60 -1 1 1 1 -1 -1 -1 -1 -1',
  `2 100 -1 ${secondRuntime} 10 -1 -1 10 60 -1 1 1 1 -1 -1 -1 -1 -1`].join('\n') + '\n'

describe('offered load over 100 % of the machine', () => {
  it('is Σ p·q / (m × span), worked by hand just over and just under 100 %', () => {
    const over = importText(twoJobs(51))
    const under = importText(twoJobs(49))
    expect(offeredLoad(over.jobs, 10)).toEqual({ ratio: 1.01, work: 1010, spanSeconds: 100 })
    expect(offeredLoad(under.jobs, 10)).toEqual({ ratio: 0.99, work: 990, spanSeconds: 100 })
    // a machine of 20 processors halves it
    expect(offeredLoad(over.jobs, 20).ratio).toBeCloseTo(0.505, 12)
    // one submit time: no span, no load
    expect(offeredLoad(importText(['; MaxProcs: 10', '1 0 -1 50 10 -1 -1 10 60 -1 1 1 1 -1 -1 -1 -1 -1'].join('\n') + '\n').jobs, 10).ratio).toBeNull()
  })

  it('is a warning of the import report above 100 % only, in words that name no control', () => {
    const over = importText(twoJobs(51)).report.warnings.filter((w) => /of the machine/.test(w))
    expect(over).toHaveLength(1)
    expect(over[0]).toMatch(/^The jobs ask for 101 % of the machine .*the machine size is wrong: give the real machine size\.$/)
    expect(over[0]).not.toMatch(/--procs/)
    expect(importText(twoJobs(49)).report.warnings.filter((w) => /of the machine/.test(w))).toEqual([])
    expect(overloadWarning({ ratio: 1, work: 1000, spanSeconds: 100 })).toBeNull() // exactly 100 %: not over
  })

  it('each surface names its own control; other warnings stay as they are', () => {
    const w = overloadWarning({ ratio: 1.5, work: 1500, spanSeconds: 100 })!
    expect(nameMachineSizeControl(w, 'with --procs')).toMatch(/give the real machine size with --procs\.$/)
    expect(nameMachineSizeControl(w, 'in Machine size below')).toMatch(/give the real machine size in Machine size below\.$/)
    expect(nameMachineSizeControl('Something else: give the real machine size.', 'with --procs')).toBe('Something else: give the real machine size.')
  })

  it('the CLI says it with --procs in the import report and before simulate starts; not under 100 %', async () => {
    const dir = (await import('node:fs')).mkdtempSync(join((await import('node:os')).tmpdir(), 'easytune-load-'))
    const { writeFileSync } = await import('node:fs')
    writeFileSync(join(dir, 'over.swf'), twoJobs(51))
    writeFileSync(join(dir, 'under.swf'), twoJobs(49))
    const imp = await runCli(['import', join(dir, 'over.swf')])
    expect(imp.code).toBe(0)
    expect(imp.stdout).toMatch(/- The jobs ask for 101 % of the machine .*give the real machine size with --procs\./)
    const sim = await runCli(['simulate', join(dir, 'over.swf')])
    expect(sim.code).toBe(0)
    expect(sim.stderr).toMatch(/^easytune: warning: The jobs ask for 101 % of the machine .*with --procs\.\n/)
    const fine = await runCli(['simulate', join(dir, 'under.swf')])
    expect(fine.code).toBe(0)
    expect(fine.stderr).not.toMatch(/of the machine/)
    // --json on stdout is not changed by the warning (it goes to stderr)
    const json = await runCli(['simulate', join(dir, 'over.swf'), '--json'])
    expect(JSON.parse(json.stdout).jobs).toBe(2)
  })
})
