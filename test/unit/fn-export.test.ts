// Exporting a learned function fn:… (docs/LEARN.md §Export): a static order, carried by
// job_submit.lua (run for real with lua); an s term is counted from EPOCH0 and said to be lost
// as evaluated; with a threshold an s term cannot be carried; PBS has no logarithm.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { deployedSiteFactor } from '../../src/core/cluster/deployed'
import type { ClusterJobs } from '../../src/core/cluster/types'
import { choiceOf, slurmDeployment } from '../../src/core/export/deploy'
import { pbsFormula } from '../../src/core/export/pbs'
import { exportSlurm } from '../../src/core/export/slurm'
import { ENC_SCALE, EPOCH0, SF_OFFSET, slurmPlan } from '../../src/core/export/slurm-plan'
import type { ExportInput } from '../../src/core/export/validate'
import { FAMILY } from '../../src/core/learn/family'
import { regress } from '../../src/core/learn/regression'
import { parseFn, printFn } from '../../src/core/sim/fn'
import { evaluate } from '../../src/core/sim/formula'
import { requireTool } from '../support/tools'
import { writeJobSubmitRunner } from '../support/job-submit-runner'

const dir = mkdtempSync(join(tmpdir(), 'easytune-fn-export-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const input = (primary: string, threshold: number | null): ExportInput => ({
  verdict: 'switch', maxRequested: null, primary: choiceOf(primary), backfill: 'same', threshold, machineProcs: 512, longestWait: null,
  baseline: false, label: '', sha256: null, objective: null, gains: { train: null, test: null, testCi: null, maxWaitRatio: null },
})
const F1 = 'fn:log10(r)*n + 870*log10(s)'

describe('an fn: order exports like a static order', () => {
  it('the choice keeps the canonical id', () => {
    expect(choiceOf('fn: sqrt(r) · n')).toEqual({ kind: 'pure', id: 'fn:sqrt(r)*n' })
  })
  it('in r and n alone: job_submit.lua, nothing lost', () => {
    const plan = slurmPlan(input('fn:sqrt(r)*n', null))
    expect(plan.mode).toBe('lua')
    const d = slurmDeployment({ primary: 'fn:sqrt(r)*n', backfill: 'same' }, null)
    expect(d.fidelity).toBe('job_submit.lua')
    expect(d.lost).toEqual([])
  })
  it('in r and n with a threshold: the periodic site-factor script', () => {
    expect(slurmPlan(input('fn:sqrt(r)*n', 72_000)).mode).toBe('sitefactor')
    expect(slurmDeployment({ primary: 'fn:sqrt(r)*n', backfill: 'same' }, 72_000).lost).toEqual([])
  })
  it('with an s term: job_submit.lua with s from EPOCH0, and the s term said to be lost as evaluated', () => {
    const plan = slurmPlan(input(F1, null))
    expect(plan.mode).toBe('lua')
    const d = slurmDeployment({ primary: F1, backfill: 'same' }, null)
    expect(d.lost).toHaveLength(1)
    expect(d.lost[0]).toMatch(/its s term: .*2026-01-01/)
    const files = exportSlurm(input(F1, null), '22.05').files
    expect(files.find((f) => f.name === 'slurm.conf.easytune')!.content).toMatch(/WARNING: .* Lost:\n.*its s term/)
    expect(files.find((f) => f.name === 'job_submit.lua')!.content).toMatch(/lower f runs first/)
    // the fidelity item says what the Lua does: it follows a change of time limit, s from the recorded submit time
    const item = exportSlurm(input(F1, null), '22.05').items.find((i) => i.feature === `queue order ${'fn:log10(r)*n+870*log10(s)'}`)!
    expect(item.note).toMatch(/again when the time limit or CPU count changes, with s from the submit time Slurm recorded/)
  })
  it('with an s term and a threshold: not exportable, in words', () => {
    expect(slurmPlan(input(F1, 72_000)).mode).toBe('none')
    expect(slurmDeployment({ primary: F1, backfill: 'same' }, 72_000).fidelity).toBe('not exportable')
  })
  it('PBS: a product is a job_sort_formula (priority −f), a logarithm or s is not exportable', () => {
    expect(pbsFormula(input('fn:r*n', null))).toEqual({ formula: '(-(max(walltime, 1) * ncpus))' })
    expect(pbsFormula(input('fn:log10(r)*n', null)).formula).toBeNull()
    expect(pbsFormula(input(F1, null)).formula).toBeNull()
  })

  it('the generated job_submit.lua, run for real, sets −f encoded, with s = seconds since EPOCH0', (ctx) => {
    const lua = requireTool(ctx, ['lua5.1', 'lua'], 'apt-get install -y lua5.1')
    const runner = writeJobSubmitRunner(dir)
    // q = 4 CPUs, 10 min limit (r = 600 s), submitted 1000 s after EPOCH0 (s = 1000); and q = 1, 1 min, at EPOCH0 + 10 (s = 10)
    writeFileSync(join(dir, 'jobs.txt'), `4 10 ${EPOCH0 + 1000}\n1 1 ${EPOCH0 + 10}\n`)
    writeFileSync(join(dir, 'job_submit.lua'), exportSlurm(input(F1, null), '22.05').files.find((f) => f.name === 'job_submit.lua')!.content)
    const r = spawnSync(lua, [runner, join(dir, 'job_submit.lua'), join(dir, 'jobs.txt')], { encoding: 'utf8' })
    expect(r.status, r.stderr).toBe(0)
    const got = r.stdout.trim().split('\n').map(Number)
    // f = log10(600)·4 + 870·log10(1000) = 4·2.77815… + 2610; f = log10(60)·1 + 870·1 = 871.778…; priority −f, log-encoded
    const enc = (f: number) => SF_OFFSET - Math.floor(Math.log(1 + f) * ENC_SCALE + 0.5)
    expect(got).toEqual([enc(4 * Math.log10(600) + 2610), enc(Math.log10(60) + 870)])
    expect(got[1]).toBeGreaterThan(got[0]) // lower f runs first: higher site factor
    // and the as-deployed simulation gives each job the same site factor
    const jobs = { count: 2, submit: new Float64Array([1000, 10]), procs: new Int32Array([4, 1]), requested: new Float64Array([600, 60]) } as unknown as ClusterJobs
    const sf = deployedSiteFactor(slurmPlan(input(F1, null)), jobs, EPOCH0)
    expect(sf?.kind).toBe('static')
    expect(sf?.kind === 'static' ? Array.from(sf.value) : null).toEqual(got)
  })

  const enc = (x: number) => (x < 0 ? SF_OFFSET - Math.floor(Math.log(1 + -x) * ENC_SCALE + 0.5) : SF_OFFSET + Math.floor(Math.log(1 + x) * ENC_SCALE + 0.5))
  /** Runs the job_submit.lua already written to `file` on the runner's jobs lines. */
  const runLua = (lua: string, file: string, jobs: string): string[] => {
    writeFileSync(join(dir, `${file}.jobs`), jobs)
    const r = spawnSync(lua, [writeJobSubmitRunner(dir), join(dir, file), join(dir, `${file}.jobs`)], { encoding: 'utf8' })
    expect(r.status, r.stderr).toBe(0)
    return r.stdout.trim().split('\n')
  }
  const exported = (spec: string) => exportSlurm(input(spec, null), '22.05').files.find((f) => f.name === 'job_submit.lua')!.content

  it('a change of time limit recomputes −f with the new r and the recorded submit time as s (slurm_job_modify)', (ctx) => {
    const lua = requireTool(ctx, ['lua5.1', 'lua'], 'apt-get install -y lua5.1')
    writeFileSync(join(dir, 'modify.lua'), exported(F1))
    // q = 4, 10 min at EPOCH0 + 1000; the limit becomes 30 min (Slurm recorded the submit one second
    // after os.time() at submission); then 2 min on a Slurm that passes no submit time (19.05)
    const out = runLua(lua, 'modify.lua', `4 10 ${EPOCH0 + 1000}\nmodify 30 ${EPOCH0 + 1001}\nmodify 2 -\n`)
    // f = 4·log10(600) + 870·3; then 4·log10(1800) + 870·log10(1001); then unchanged
    expect(out).toEqual([String(enc(-(4 * Math.log10(600) + 2610))), String(enc(-(4 * Math.log10(1800) + 870 * Math.log10(1001)))), 'kept'])
    expect(Number(out[1])).toBeLessThan(Number(out[0])) // a longer limit: a larger f, so it runs later
  })

  it('in r and n alone the recomputation needs no submit time; an order of the submit time alone (LCFS) has nothing to recompute', (ctx) => {
    const lua = requireTool(ctx, ['lua5.1', 'lua'], 'apt-get install -y lua5.1')
    writeFileSync(join(dir, 'rn.lua'), exported('fn:sqrt(r)*n'))
    // q = 2, 1 min (r = 60), then 4 min (r = 240): f = 2·√60, then 2·√240
    expect(runLua(lua, 'rn.lua', `2 1 ${EPOCH0 + 5}\nmodify 4 -\n`)).toEqual([String(enc(-2 * Math.sqrt(60))), String(enc(-2 * Math.sqrt(240)))])
    const lcfs = exportSlurm(input('LCFS', null), '22.05').files.find((f) => f.name === 'job_submit.lua')!.content
    expect(lcfs).toMatch(/no later change of the job can move it/)
    expect(lcfs).not.toMatch(/slurm_job_modify[^]*site_factor[^]*\nend/)
    writeFileSync(join(dir, 'lcfs.lua'), lcfs)
    expect(runLua(lua, 'lcfs.lua', `2 1 ${EPOCH0 + 5}\nmodify 4 ${EPOCH0 + 5}\n`)).toEqual(['5', 'kept'])
  })

  it('learned functions round-trip through the export: the id written back parses to the same function, and the Lua evaluates it', (ctx) => {
    const lua = requireTool(ctx, ['lua5.1', 'lua'], 'apt-get install -y lua5.1')
    // functions learned by the regression from synthetic scores (F1-like and two other members of ℱ)
    const samples = Array.from({ length: 60 }, (_, i) => {
      const r = 60 * (1 + (i * 7) % 50), n = 1 + (i * 5) % 16, s = 1 + i * 997
      return { r, n, s, score: 1e-3 * (Math.log10(r) * n + 3.5 * Math.log10(s)) }
    })
    const ids = ['log10*id+log10', 'sqrt*id+inv', 'id+log10+sqrt']
    const members = ids.map((id) => FAMILY.find((m) => m.id === id)!)
    const learned = regress(samples, { members }).functions
    expect(learned.map((f) => f.id).sort()).toEqual(ids.map((id) => `learned:${id}`).sort())
    const jobs = [[4, 10, 1000], [1, 1, 10], [16, 600, 86_400], [3, 7, 123_456]]
    for (const f of learned) {
      const text = exported(`fn:${f.expression}`)
      // the order the file names, read back: the canonical id of the same expression
      const id = /queue order (fn:\S+) \(a learned function/.exec(text)![1]
      expect(id).toBe(`fn:${f.expression}`)
      const back = parseFn(id.slice(3))
      expect(printFn(back)).toBe(printFn(parseFn(f.expression)))
      writeFileSync(join(dir, 'learned.lua'), text)
      const got = runLua(lua, 'learned.lua', jobs.map(([q, tl, s]) => `${q} ${tl} ${EPOCH0 + s}`).join('\n') + '\n')
      // −f of the read-back expression, r = limit in seconds, n = CPUs, s = seconds since EPOCH0
      expect(got.map(Number), f.expression).toEqual(jobs.map(([q, tl, s]) => enc(-evaluate(back, { p: tl * 60, q, s }))))
    }
  })
})
