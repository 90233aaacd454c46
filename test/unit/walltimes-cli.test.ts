// `easytune walltimes` (docs/PREDICTIONS.md §Time limits, docs/CLI.md): exit codes, the --json
// shape, pseudonyms in the text and the JSON, and the what-if on the bundled KTH sample.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'
import { SAMPLE, SAMPLE_LOG } from '../support/sample'
import { TINY_SACCT } from '../support/walltimes-fixture'
import { findWhatIf, runWalltimesWhatIf, WHATIF_SCENARIOS, whatIfSimulator } from '../../src/core/predict/walltimes-whatif'
import { WALLTIMES_DEPLOYMENT } from '../../src/core/predict/walltimes'
import { simulate } from '../../src/core/sim/easy'
import { computeMetrics } from '../../src/core/sim/metrics'
import { importBytes } from '../../src/core/workload/import'

const NAMES = ['alice', 'bob', 'carol', 'acctA', 'acctB']
let dir = ''
let tiny = ''
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'easytune-walltimes-'))
  tiny = join(dir, 'tiny.sacct')
  writeFileSync(tiny, TINY_SACCT)
})

describe('easytune walltimes: usage', () => {
  it('has help (exit 0), is listed in the main help, and refuses bad usage with exit 2', async () => {
    const help = await runCli(['walltimes', '--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/--names/)
    expect(help.stdout).toMatch(/--no-what-if/)
    expect((await runCli(['--help'])).stdout).toMatch(/walltimes <log>/)
    const noLog = await runCli(['walltimes'])
    expect(noLog.code).toBe(2)
    expect(noLog.stderr).toMatch(/walltimes needs a log file/)
    expect((await runCli(['walltimes', tiny, '--nmaes'])).code).toBe(2)
    const bad = await runCli(['walltimes', tiny, '--what-if', 'clairvoyant,oracle'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--what-if: unknown scenario "oracle"; known: clairvoyant, eloss, easy\+\+/)
    const both = await runCli(['walltimes', tiny, '--what-if', 'eloss', '--no-what-if'])
    expect(both.code).toBe(2)
    expect(both.stderr).toMatch(/cannot go together/)
    expect((await runCli(['walltimes', tiny, '--top', '0'])).code).toBe(2)
  })

  it('a missing file or a log with no usable job is bad input (exit 2), naming the file', async () => {
    const missing = await runCli(['walltimes', join(dir, 'nope.swf')])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('nope.swf')
    const empty = join(dir, 'empty.sacct')
    writeFileSync(empty, 'JobID|User|Submit|Start|End|ElapsedRaw|TimelimitRaw|AllocCPUS\n')
    const r = await runCli(['walltimes', empty])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('empty.sacct')
    expect(r.stdout).toBe('')
  })
})

describe('easytune walltimes: output', () => {
  it('--json prints one document: users[], accounts[], partitions[], each with jobs, ratio quantiles and over-requested hours', async () => {
    const r = await runCli(['walltimes', tiny, '--json', '--no-what-if'])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.schemaVersion).toBe(1)
    expect(j.names).toBe('pseudonyms')
    expect(j.hours).toBe('node-hours')
    expect(j.whatIf).toBeNull()
    for (const key of ['users', 'accounts', 'partitions']) {
      expect(Array.isArray(j[key])).toBe(true)
      expect(j[key].length).toBeGreaterThan(0)
      for (const g of j[key]) {
        expect(Number.isInteger(g.jobs)).toBe(true)
        for (const q of ['p10', 'p25', 'p50', 'p75', 'p90', 'max']) expect(typeof g.ratio[q]).toBe('number')
        expect(typeof g.overRequestedNodeHours).toBe('number')
        expect(typeof g.overRequestedCpuHours).toBe('number')
      }
    }
    // the hand-worked values of walltimes.test.ts: carol first with 12 node-hours, 1 job, ratio 4
    expect(j.users[0]).toMatchObject({ name: 'user-001', jobs: 1, overRequestedNodeHours: 12, overRequestedCpuHours: 48 })
    expect(j.users[0].ratio.p50).toBe(4)
    expect(j.site.overRequestedNodeHours).toBeCloseTo(17.8417, 4)
    expect(j.distribution).toHaveLength(8)
    expect(j.deployment).toBe(WALLTIMES_DEPLOYMENT)
  })

  it('hides every real name in the JSON and the text by default; --names shows them', async () => {
    const json = await runCli(['walltimes', tiny, '--json', '--no-what-if'])
    const text = await runCli(['walltimes', tiny, '--no-what-if'])
    expect(text.code).toBe(0)
    for (const n of NAMES) {
      expect(json.stdout).not.toContain(n)
      expect(text.stdout).not.toContain(n)
      expect(text.stderr).not.toContain(n)
    }
    const real = await runCli(['walltimes', tiny, '--no-what-if', '--names'])
    for (const n of NAMES) expect(real.stdout).toContain(n)
    expect(real.stdout).toMatch(/REAL user and account names are shown/)
    const realJson = JSON.parse((await runCli(['walltimes', tiny, '--no-what-if', '--names', '--json'])).stdout)
    expect(realJson.names).toBe('real')
    expect(realJson.users.map((u: { name: string }) => u.name)).toEqual(['carol', 'alice', 'bob'])
  })

  it('the text puts units on the numbers and states what can be deployed', async () => {
    const r = await runCli(['walltimes', tiny, '--no-what-if'])
    expect(r.stdout).toMatch(/Over-requested\s+18 node-hours \(69 CPU-hours\)/)
    expect(r.stdout).toMatch(/median 2\.0× \(p25 1\.0×, p75 6\.0×, p90 120×\)/)
    expect(r.stdout).toMatch(/user-001\s+1\s+4\.0×\s+4\.0×\s+12 h\s+67\.3%/) // 12 / 17.84 node-hours
    expect(r.stdout).toContain(`Deployment: ${WALLTIMES_DEPLOYMENT}`)
  })

  it('says plainly when the hours are CPU-hours (no node count in the log)', async () => {
    const r = await runCli(['walltimes', SAMPLE_LOG, '--no-what-if', '--top', '3'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/CPU-hours \(the log records no node counts: processors × hours\)/)
    expect(r.stdout).toMatch(/Accounts: the log records none\./)
    expect(r.stdout).toMatch(/… and [\d,]+ more \(--top N, or --json for every row\)/)
  })

  it('--json <file> writes the file and prints the text', async () => {
    const out = join(dir, 'w.json')
    const r = await runCli(['walltimes', tiny, '--json', out, '--no-what-if'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^Time limits on tiny\.sacct: 6 jobs, 3 users/)
    expect(JSON.parse(readFileSync(out, 'utf8')).site.jobs).toBe(6)
  })
})

describe('the what-if on the bundled KTH sample', () => {
  const w = importBytes(gunzipSync(readFileSync(SAMPLE_LOG)))

  it('today\'s limits are plain EASY-FCFS; every scenario runs on every job', async () => {
    expect(w.jobs.count).toBe(SAMPLE.jobsKept)
    const plain = computeMetrics(w.jobs, w.machineProcs, simulate(w.jobs, w.machineProcs, { primary: 'FCFS', backfill: 'same', threshold: null }))
    const r = await runCli(['walltimes', SAMPLE_LOG, '--json', '--what-if', 'clairvoyant,easy++'])
    expect(r.code).toBe(0)
    const wi = JSON.parse(r.stdout).whatIf
    expect(wi).toMatchObject({ order: 'EASY-FCFS', machineProcs: SAMPLE.machine, tau: 10, jobs: SAMPLE.jobsKept })
    expect(wi.outcomes.map((o: { id: string }) => o.id)).toEqual(['requested', 'clairvoyant', 'easy++'])
    const [today, exact, easypp] = wi.outcomes
    expect(today.avgWait).toBeCloseTo(plain.avgWait, 6)
    expect(today.avgBsld).toBeCloseTo(plain.avgBsld, 6)
    expect(today.waitVsToday).toBe(1)
    expect(today.corrections).toBe(0)
    // requested: MAE = mean(p̃ − p); clairvoyant: predictions max(p, 1 s), so MAE = share of 0 s jobs × 1 s
    let over = 0, zero = 0
    for (let j = 0; j < w.jobs.count; j++) { over += w.jobs.requested[j] - w.jobs.runtime[j]; if (w.jobs.runtime[j] === 0) zero++ }
    expect(today.mae).toBeCloseTo(over / w.jobs.count, 6)
    expect(exact.mae).toBeCloseTo(zero / w.jobs.count, 9)
    expect(exact.corrections).toBe(0)
    expect(exact.waitVsToday).toBeCloseTo(exact.avgWait / today.avgWait, 12)
    // AVE₂ falls short of some runtimes on KTH: corrections happen
    expect(easypp.corrections).toBeGreaterThan(0)
    expect(easypp.error).toBeNull()
    expect(Number.isFinite(easypp.avgBsld)).toBe(true)
  })

  it('exact limits on a log whose limits already are the runtimes is plain EASY, job for job', () => {
    const runtime = w.jobs.runtime.map((p) => Math.max(p, 1))
    const jobs = { ...w.jobs, runtime, requested: runtime.slice() }
    const plain = simulate(jobs, w.machineProcs, { primary: 'FCFS', backfill: 'same', threshold: null })
    const sim = whatIfSimulator(findWhatIf('clairvoyant')!, jobs, w.machineProcs)
    if (typeof sim === 'string') throw new Error(sim)
    sim.runUntil(Infinity)
    expect(Array.from(sim.start)).toEqual(Array.from(plain))
    const wi = runWalltimesWhatIf(jobs, w.machineProcs, { scenarios: ['clairvoyant'] })
    const m = computeMetrics(jobs, w.machineProcs, plain)
    expect(wi.outcomes.map((o) => o.id)).toEqual(['requested', 'clairvoyant'])
    for (const o of wi.outcomes) {
      expect(o.avgWait).toBe(m.avgWait)
      expect(o.avgBsld).toBe(m.avgBsld)
      expect(o.mae).toBe(0)
    }
  })

  // Fails until the learner (src/core/predict/learner.ts) replaces its placeholder: the what-if then
  // shows the learned predictions instead of "not available".
  it('learned predictions (E-Loss + incremental + SJBF) run on the whole log', () => {
    const wi = runWalltimesWhatIf(w.jobs, w.machineProcs, { scenarios: ['eloss'] })
    const learned = wi.outcomes.find((o) => o.id === 'eloss')!
    expect(learned.error).toBeNull()
    expect(learned.prediction).toEqual(WHATIF_SCENARIOS.find((s) => s.id === 'eloss')!.prediction)
    expect(learned.prediction).toEqual({ predictor: { id: 'eloss' }, correction: 'incremental', sjbf: true })
    expect(Number.isFinite(learned.avgWait)).toBe(true)
    expect(learned.mae).toBeGreaterThan(0)
  })

  it('a scenario that cannot run is shown in words and the others still run', async () => {
    const r = await runCli(['walltimes', SAMPLE_LOG, '--what-if', 'eloss', '--top', '1'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/What if \(the site's order, EASY-FCFS, on the whole log: 28,\d{3} jobs, 100 processors; bounded slowdown with τ = 10 s\)/)
    expect(r.stdout).toMatch(/Today's limits\s+\d[\d.]* (min|h)\s+[\d,]+ s\s+[\d.,]+/)
    const learned = r.stdout.split('\n').filter((l) => l.includes('Learned predictions'))
    expect(learned.length).toBeGreaterThan(0) // numbers once the learner lands, "not available: …" before
  })
})
