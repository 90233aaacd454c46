// `easytune predictions` (src/cli/commands/predictions.ts; docs/CLI.md, docs/PREDICTIONS.md
// §Campaign) on three tiny logs written here: help, --list-losses, bad input (exit 2), the --json
// shape, the leave-one-out choice it prints, the cache, and the same result for any number of workers.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { LOSSES, LOSS_IDS } from '../../src/core/predict/losses'
import { MULTIPLE_TESTING_NOTE } from '../../src/core/predict/campaign'
import { runCli } from '../support/cli'

let dir = ''
let logs: string[] = []
const BASE = ['--predictors', 'requested,clairvoyant,ave2']

/** A tiny SWF log on 8 processors: `n` jobs of 3 users, from a seeded generator (requested ≥ runtime). */
function tinyLog(seed: number, n: number): string {
  let s = seed
  const rnd = () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648 }
  const lines = ['; MaxProcs: 8']
  let t = 0
  for (let i = 1; i <= n; i++) {
    t += Math.floor(rnd() * 200)
    const run = 10 + Math.floor(rnd() * 1500)
    const procs = 1 + Math.floor(rnd() * 8)
    const req = run * (1 + Math.floor(rnd() * 5))
    const user = 1 + Math.floor(rnd() * 3)
    lines.push(`${i} ${t} -1 ${run} ${procs} -1 -1 ${procs} ${req} -1 1 ${user} 1 -1 -1 -1 -1 -1`)
  }
  return lines.join('\n') + '\n'
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'easytune-predictions-'))
  logs = [1, 2, 3].map((k) => { const p = join(dir, `tiny${k}.swf`); writeFileSync(p, tinyLog(k * 7919, 60 + 10 * k)); return p })
})

describe('easytune predictions', () => {
  it('has help, and is listed by easytune --help', async () => {
    const h = await runCli(['predictions', '--help'])
    expect(h.code).toBe(0)
    expect(h.stdout).toMatch(/^easytune predictions <log>…/)
    expect(h.stdout).toMatch(/130 triples per log/)
    expect(h.stdout).toMatch(/--list-losses/)
    expect(h.stdout).toMatch(/--workers N/)
    expect((await runCli(['--help'])).stdout).toMatch(/predictions <log>…/)
  })

  it('--list-losses prints the 20 losses of Table 4.5 with their formulas and exits 0', async () => {
    const r = await runCli(['predictions', '--list-losses'])
    expect(r.code).toBe(0)
    expect(LOSS_IDS.length).toBe(20)
    for (const l of LOSSES) expect(r.stdout).toContain(l.formula)
    for (const id of LOSS_IDS) expect(r.stdout).toMatch(new RegExp(`^${id}\\b`, 'm'))
    expect(r.stdout).toMatch(/^sq-abs-large-area \(E-Loss, the default\)/m)
    expect(r.stdout).toContain('log(q·p)')
    expect((await runCli(['predictions', '--list-losses', logs[0]])).code).toBe(2)
  })

  it('exits 2 on bad usage or input, saying why', async () => {
    const cases: [string[], RegExp][] = [
      [[], /needs at least one log/],
      [[logs[0], '--predictors', 'oracle'], /unknown predictor "oracle"/],
      [[logs[0], '--primary', 'XYZ'], /unknown policy "XYZ"/],
      [[logs[0], '--workers', '0'], /--workers must be a whole number above 0/],
      [[logs[0], '--threshold', '0'], /--threshold/],
      [[logs[0], '--frobnicate'], /unknown option --frobnicate/],
      [[logs[0], logs[0]], /given twice/],
      [[join(dir, 'missing.swf')], /missing\.swf/],
    ]
    for (const [args, message] of cases) {
      const r = await runCli(['predictions', ...args])
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stderr, args.join(' ')).toMatch(message)
    }
  })

  it('--json gives every (log, triple) and the leave-one-out choice among the runnable triples', async () => {
    const r = await runCli(['predictions', ...logs, ...BASE, '--no-cache', '--workers', '2', '--json'])
    expect(r.code, r.stderr).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.schemaVersion).toBe(1)
    expect(j.options).toEqual({ primary: 'FCFS', threshold: null, tau: 10, extremeQuantile: 0.999 })
    expect(j.named).toEqual({ easy: 'requested+none+same', easyPlusPlus: 'ave2+incremental+sjbf', clairvoyant: 'clairvoyant+none+same', clairvoyantSjbf: 'clairvoyant+none+sjbf', thesisChoice: 'eloss:sq-abs-large-area+incremental+sjbf' })
    expect(j.triples.length).toBe(10) // 2·2 without correction + AVE₂·3·2
    expect(j.logs.length).toBe(3)
    for (const log of j.logs) {
      expect(log.results.map((x: { triple: string }) => x.triple)).toEqual(j.triples.map((t: { id: string }) => t.id))
      for (const x of log.results) {
        for (const k of ['avgBsld', 'maxBsld', 'avgWait', 'extremeShare', 'extremeJobs', 'extremeBound', 'mae', 'meanELoss', 'underShare', 'corrections', 'jobs']) expect(typeof x[k], k).toBe('number')
        expect(x.avgBsld).toBeGreaterThanOrEqual(1)
        expect(x.extremeBound).toBe(log.extremeBound)
      }
      const by = Object.fromEntries(log.results.map((x: { triple: string }) => [x.triple, x]))
      expect(by['clairvoyant+none+same'].mae).toBe(0) // runtimes ≥ 10 s here: nothing is floored
      expect(by['requested+none+same'].corrections).toBe(0)
      expect(by['requested+none+same'].extremeShare).toBeLessThanOrEqual(0.001 + 1e-12)
      expect(log.bestLearned).toBeNull()
      expect(log.jobs).toBe(by['requested+none+same'].jobs)
    }
    // The folds are what leave-one-out gives on the printed table (computed here again, by its definition).
    const ids: string[] = j.triples.map((t: { id: string }) => t.id)
    const cand = j.triples.filter((t: { selectable: boolean }) => t.selectable).map((t: { id: string }) => t.id)
    expect(cand).not.toContain('clairvoyant+none+same')
    const value = (l: number, id: string) => j.logs[l].results[ids.indexOf(id)].avgBsld
    expect(j.selection.folds.length).toBe(3)
    j.selection.folds.forEach((f: { heldOut: string; chosen: string; heldOutAvgBsld: number; heldOutRank: number; of: number }, l: number) => {
      expect(f.heldOut).toBe(j.logs[l].name)
      const others = (id: string) => [0, 1, 2].filter((k) => k !== l).reduce((s, k) => s + value(k, id), 0)
      const best = cand.reduce((b: string, id: string) => (others(id) < others(b) ? id : b))
      expect(f.chosen).toBe(best)
      expect(f.heldOutAvgBsld).toBe(value(l, best))
      expect(f.heldOutRank).toBe(1 + cand.filter((id: string) => value(l, id) < value(l, best)).length)
      expect(f.of).toBe(8)
    })
    expect(j.selection.notes).toEqual([MULTIPLE_TESTING_NOTE])
    expect(j.selection.correlations.length).toBe(3)
    for (let a = 0; a < 3; a++) expect(j.selection.correlations[a][a]).toBeCloseTo(1, 12)
  })

  it('runs all 130 triples, the learned ones included, with the same result for 1 and 2 workers', async () => {
    const args = ['predictions', ...logs, '--no-cache', '--json']
    const one = await runCli([...args, '--workers', '1'])
    expect(one.code, one.stderr).toBe(0)
    expect((await runCli([...args, '--workers', '2'])).stdout).toBe(one.stdout)
    const j = JSON.parse(one.stdout)
    expect(j.triples.length).toBe(130)
    expect(j.selection.folds.every((f: { of: number }) => f.of === 128)).toBe(true)
    const learned = new Set(j.triples.filter((t: { learned: boolean }) => t.learned).map((t: { id: string }) => t.id))
    for (const log of j.logs) {
      expect(learned.has(log.bestLearned)).toBe(true)
      expect(learned.has(log.worstLearned)).toBe(true)
      const value = (id: string) => log.results.find((x: { triple: string }) => x.triple === id).avgBsld
      for (const id of learned) {
        expect(value(id as string)).toBeGreaterThanOrEqual(value(log.bestLearned))
        expect(value(id as string)).toBeLessThanOrEqual(value(log.worstLearned))
      }
    }
  })

  it('prints the same result with 1 and 2 workers, and the same again from its cache', async () => {
    const args = ['predictions', ...logs, ...BASE, '--json']
    const one = await runCli([...args, '--no-cache', '--workers', '1'])
    expect(one.code, one.stderr).toBe(0)
    expect((await runCli([...args, '--no-cache', '--workers', '2'])).stdout).toBe(one.stdout)
    const cacheDir = join(dir, 'cache')
    const first = await runCli([...args, '--cache-dir', cacheDir, '--workers', '2'])
    expect(first.stdout).toBe(one.stdout)
    expect(first.stderr).toMatch(/simulated 30 \(log, triple\) pairs \(0 from the cache\)/)
    const again = await runCli([...args, '--cache-dir', cacheDir, '--workers', '2'])
    expect(again.stdout).toBe(one.stdout)
    expect(again.stderr).toMatch(/simulated 0 \(log, triple\) pairs \(30 from the cache\)/)
    // Another queue order is another key: nothing is taken from the cache.
    const spf = await runCli([...args, '--cache-dir', cacheDir, '--workers', '2', '--primary', 'SPF'])
    expect(spf.stderr).toMatch(/\(0 from the cache\)/)
    expect(JSON.parse(spf.stdout).options.primary).toBe('SPF')
  })

  it('says in words what one and two logs can tell', async () => {
    const one = await runCli(['predictions', logs[0], ...BASE, '--no-cache', '--workers', '1'])
    expect(one.code).toBe(0)
    expect(one.stdout).toMatch(/EASY\+\+ +\d/)
    expect(one.stdout).toMatch(/Clairvoyant EASY-SJBF +\d/)
    expect(one.stdout).toMatch(/One log: leave-one-out needs at least two logs[^]*no triple is selected/)
    expect(one.stdout).toContain('(no learned triple in this run)')
    const two = await runCli(['predictions', logs[0], logs[1], ...BASE, '--no-cache', '--workers', '1'])
    expect(two.stdout).toMatch(/Two logs: each log's triple is chosen on the one other log alone/)
    expect(two.stdout).toMatch(/tiny1\.swf +\S+ +[\d.]+ +\d+\/8/)
  })
})
