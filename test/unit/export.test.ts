// Export to Slurm and PBS (src/core/export): fidelity labels for every policy, hostile results,
// PBS formulas, and the generated Lua, awk and Python actually run and order jobs like the
// simulator's policy (each needs its interpreter: skipped with the reason if absent, failed under CI).
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { policyEntry } from '../../src/core/export/catalog'
import { exportConfig, ExportInputError, recommendationJson } from '../../src/core/export/index'
import { pbsFormula } from '../../src/core/export/pbs'
import { EPOCH0, SF_MAX } from '../../src/core/export/slurm-plan'
import { readExportInput } from '../../src/core/export/validate'
import { POLICIES, resolvePolicy } from '../../src/core/sim/policies'
import type { PolicySpec } from '../../src/core/sim/types'
import type { ExportBundle } from '../../src/shared/api'
import { runCli } from '../support/cli'
import { requireTool } from '../support/tools'
import { writeJobSubmitRunner } from '../support/job-submit-runner'
import { resultFor } from '../slurm/harness'

const dir = mkdtempSync(join(tmpdir(), 'easytune-export-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const labels = (b: ExportBundle) => Object.fromEntries(b.items.map((i) => [i.feature, i.fidelity]))
const slurm = (p: unknown, o: Parameters<typeof resultFor>[1] = {}) => exportConfig(resultFor(p, o), 'slurm')
const pbs = (p: unknown, o: Parameters<typeof resultFor>[1] = {}) => exportConfig(resultFor(p, o), 'pbs')
const file = (b: ExportBundle, name: string) => b.files.find((f) => f.name === name)?.content

const SLURM_LABEL: Record<string, string> = {
  FCFS: 'native', SQF: 'native', LQF: 'native', LCFS: 'job_submit.lua', SPF: 'job_submit.lua', LPF: 'job_submit.lua',
  LRF: 'job_submit.lua', SRF: 'job_submit.lua', LAF: 'job_submit.lua', SAF: 'job_submit.lua',
  LEXP: 'site factor', SEXP: 'site factor', WFP3: 'site factor', UNICEF: 'site factor',
  F1: 'not exportable', F2: 'not exportable', F3: 'not exportable', F4: 'not exportable',
}
const PBS_FORMULA: Record<string, string | null> = {
  FCFS: 'eligible_time', LCFS: '(-eligible_time)', SPF: '(-walltime)', LPF: 'walltime', SQF: '(-ncpus)', LQF: 'ncpus',
  LEXP: '((eligible_time + walltime) / walltime)', SEXP: '(-((eligible_time + walltime) / walltime))',
  LRF: '(walltime / ncpus)', SRF: '(-(walltime / ncpus))', LAF: '(walltime * ncpus)', SAF: '(-(walltime * ncpus))',
  WFP3: '(pow((eligible_time / walltime), 3) * ncpus)', UNICEF: null, F1: null, F2: null, F3: null, F4: null,
}
/** A result as an attacker sees it: any field can be anything. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Hostile = Record<string, any>
const MIX = (w: number[], scale = [1, 1, 1, 1, 1, 1]) => ({ kind: 'mixed', weights: w, scale })

/** Jobs for ordering checks: CPUs, requested seconds (whole minutes), submit (epoch seconds). */
const NOW = EPOCH0 + 10 * 86_400
const JOBS = Array.from({ length: 60 }, (_, i) => ({ q: 1 + ((i * 37) % 128), p: 60 * (1 + ((i * 53) % 2000)), submit: NOW - 30 - ((i * 7919) % 300_000) }))
  .sort((a, b) => a.submit - b.submit)

/** The simulator's queue order at NOW (priority, then submit; Θ first when given). */
function simOrder(spec: PolicySpec, threshold: number | null = null): { order: number[]; prio: number[] } {
  const pol = resolvePolicy(spec)
  const input = { submit: Float64Array.from(JOBS, (j) => j.submit), requested: Float64Array.from(JOBS, (j) => j.p), procs: Int32Array.from(JOBS, (j) => j.q), windowStart: 0 }
  const prio = JOBS.map((_, i) => pol.priority(input, i, NOW))
  const up = (i: number) => threshold !== null && NOW - JOBS[i].submit > threshold
  const order = JOBS.map((_, i) => i).sort((a, b) => Number(up(b)) - Number(up(a)) || (up(a) ? a - b : prio[b] - prio[a] || a - b))
  return { order, prio }
}

/** Every pair the simulator separates clearly (relative gap > tol) is ordered alike by `score`. */
function expectSameOrder(spec: PolicySpec, score: number[], threshold: number | null = null, tol = 1e-6) {
  const { order, prio } = simOrder(spec, threshold)
  const up = (i: number) => threshold !== null && NOW - JOBS[i].submit > threshold
  for (let k = 1; k < order.length; k++) {
    const a = order[k - 1], b = order[k]
    const clear = up(a) !== up(b) || (up(a) ? JOBS[a].submit < JOBS[b].submit : prio[a] - prio[b] > tol * Math.max(1, Math.abs(prio[a])))
    if (clear) expect(score[a] > score[b], `${JSON.stringify(spec)}: job ${a} before ${b} (scores ${score[a]}, ${score[b]})`).toBe(true)
  }
}

describe('fidelity labels', () => {
  // The tables above are the specification of the 18 policies of the research; a policy added
  // later states its own fidelity in its own test (docs/POLICIES.md, "Adding a policy").
  const SPECIFIED = POLICIES.filter((p) => p.id in SLURM_LABEL)
  it('labels the queue order of every registry policy, for Slurm and PBS', () => {
    expect(SPECIFIED.length).toBe(Object.keys(SLURM_LABEL).length)
    for (const p of SPECIFIED) {
      expect(labels(slurm(p.id))[`queue order ${p.id}`], p.id).toBe(SLURM_LABEL[p.id])
      expect(labels(pbs(p.id))[`queue order ${p.id}`], p.id).toBe(PBS_FORMULA[p.id] === null ? 'not exportable' : 'native')
    }
  })
  it('labels thresholds, backfill orders and the EASY shape', () => {
    for (const p of SPECIFIED) {
      const s = labels(slurm(p.id, { threshold: 72_000, backfill: 'SQF' }))
      const want = p.id === 'FCFS' ? 'native' : SLURM_LABEL[p.id] === 'not exportable' ? 'not exportable' : 'site factor'
      expect([s['threshold'], s[`queue order ${p.id}`]], p.id).toEqual([want, p.id === 'FCFS' || want === 'not exportable' ? SLURM_LABEL[p.id] : 'site factor'])
      expect(s['backfill order SQF']).toBe('not exportable')
      expect(s['EASY backfilling (one reservation)']).toBe('native')
      expect(labels(pbs(p.id, { threshold: 72_000 }))['threshold']).toBe(PBS_FORMULA[p.id] === null ? 'not exportable' : 'native')
    }
    const b = slurm('SPF', { backfill: 'LQF' })
    expect(b.items.find((i) => i.feature === 'backfill order LQF')!.note).toMatch(/primary order SPF is used for backfilling instead of LQF/)
    expect(b.gaps.join(' ')).toMatch(/per partition.*whole nodes.*periodically.*No separate backfill order/s)
    expect(labels(slurm('SPF'))['backfill order SPF']).toBeUndefined()
  })
  it('maps mixtures per docs/POLICIES.md §Mixed policies: linear terms natively or in Lua, −exp and negative waits to the site factor', () => {
    expect(labels(slurm(MIX([0.5, 0.5, 0, 0, 0, 0])))).toMatchObject({ 'mixed term -q': 'native', 'mixed term -p': 'job_submit.lua' })
    const age = slurm(MIX([0, 0.5, 0.5, 0, 0, 0]))
    expect(labels(age)['mixed term wait']).toBe('native')
    expect(age.items.find((i) => i.feature === 'mixed term wait')!.note).toMatch(/slurmdbd/)
    expect(file(age, 'slurm.conf.easytune')).toMatch(/^PriorityMaxAge=\d+$/m)
    expect(labels(slurm(MIX([0, 0, 0.5, 0.5, 0, 0])))['queue order mixed']).toBe('site factor')
    expect(labels(slurm(MIX([0.5, 0, -0.5, 0, 0, 0])))['queue order mixed']).toBe('site factor')
    expect(labels(slurm(MIX([0, 0, 1, 0, 0, 0])))['queue order mixed']).toBe('native') // wait alone = FCFS
    expect(labels(pbs(MIX([0.2, 0.2, 0.2, 0.2, 0.1, 0.1])))['queue order mixed']).toBe('native')
  })
  it('writes the files each mechanism needs', () => {
    expect(slurm('SQF').files.map((f) => f.name)).toEqual(['slurm.conf.easytune', 'easytune-recommendation.json'])
    expect(slurm('SPF').files.map((f) => f.name)).toContain('job_submit.lua')
    expect(slurm('LEXP').files.map((f) => f.name)).toEqual(['slurm.conf.easytune', 'job_submit.lua', 'easytune-site-factor.sh', 'easytune-recommendation.json'])
    const conf = file(slurm('SPF'), 'slurm.conf.easytune')!
    for (const key of ['PriorityType=priority/multifactor', 'PriorityFavorSmall=NO', 'PriorityCalcPeriod=', 'SchedulerType=sched/backfill', 'bf_job_part_count_reserve=1', 'bf_window=10080', 'bf_continue', 'bf_max_job_test=', 'JobSubmitPlugins=lua']) expect(conf).toContain(key)
    expect(file(slurm('SQF'), 'slurm.conf.easytune')).toMatch(/^PriorityWeightTRES=CPU=-1\n(#.*\n)?PriorityFlags=NO_NORMAL_TRES$/m)
    expect(file(pbs('SPF'), 'sched_config.easytune')).toMatch(/^strict_ordering: True ALL$/m)
    expect(file(pbs('SPF'), 'pbs-easytune.sh')).toMatch(/^qmgr -c 'set server eligible_time_enable = True'$[\s\S]*^qmgr -c 'set server backfill_depth = 1'$/m)
  })
})

describe('PBS job_sort_formula', () => {
  it('is the documented formula for each policy, with the threshold as a step', () => {
    for (const p of POLICIES.filter((x) => x.id in PBS_FORMULA)) {
      const f = pbsFormula(readExportInput(resultFor(p.id)))
      expect(f.formula, p.id).toBe(PBS_FORMULA[p.id])
      if (f.formula) expect(file(pbs(p.id), 'pbs-easytune.sh')).toContain(`qmgr -c 'set server job_sort_formula = "${f.formula}"'`)
    }
    expect(pbsFormula(readExportInput(resultFor('SPF', { threshold: 72_000 }))).formula)
      .toBe('(eligible_time > 72000) * (1000000000000000 + eligible_time) + (eligible_time <= 72000) * (-walltime)')
  })
  it('orders jobs like the simulator when Python evaluates it', (ctx) => {
    const python = requireTool(ctx, ['python3'], 'apt-get install -y python3')
    // every exportable registry policy, including any added after these tables
    const specs: [PolicySpec, number | null][] = [...POLICIES.filter((p) => policyEntry(p).pbs.jobSortFormula !== null).map((p): [PolicySpec, null] => [p.id, null]), ['SPF', 20_000], ['WFP3', 50_000]]
    const formulas = specs.map(([s, t]) => pbsFormula(readExportInput(resultFor(s, { threshold: t }))).formula!)
    const py = `import json,sys\nfs=json.loads(sys.argv[1]); jobs=json.loads(sys.argv[2])\nprint(json.dumps([[eval(f, {'eligible_time': j[0], 'walltime': j[1], 'ncpus': j[2]}) for j in jobs] for f in fs]))`
    const r = spawnSync(python, ['-c', py, JSON.stringify(formulas), JSON.stringify(JOBS.map((j) => [NOW - j.submit, j.p, j.q]))], { encoding: 'utf8' })
    expect(r.status, r.stderr).toBe(0)
    const values = JSON.parse(r.stdout) as number[][]
    specs.forEach(([s, t], k) => expectSameOrder(s, values[k], t))
  })
})

describe('hostile results', () => {
  const EVIL = "]] os.execute('rm -rf /') --[[\n\"; PriorityWeightAge=1\n$(reboot)`id`"
  it('never lets strings from the result reach any output', () => {
    const r = resultFor('SPF', { threshold: 3600 }) as unknown as Hostile
    r.generator = EVIL; r.log.name = EVIL; r.log.format = EVIL; r.candidates[0].label = EVIL
    r.recommendation = { label: EVIL, sentence: EVIL }; r.log.importReport = { users: EVIL, header: { Computer: EVIL } }
    r.candidates[0].primary = EVIL // the label; the raw spec candidate.primary wins
    for (const target of ['slurm', 'pbs'] as const) {
      const text = exportConfig(r as never, target).files.map((f) => f.content).join('\n') + JSON.stringify(recommendationJson(r as never))
      for (const bad of ['os.execute', 'rm -rf', 'reboot', '`id`', 'PriorityWeightAge=1\n']) expect(text).not.toContain(bad)
    }
  })
  it('refuses bad fields with an error in plain words', () => {
    const bad = (mutate: (r: Hostile) => void, msg: RegExp) => {
      const r = resultFor('SPF') as unknown as Hostile
      mutate(r)
      expect(() => exportConfig(r as never, 'slurm')).toThrow(ExportInputError)
      expect(() => exportConfig(r as never, 'slurm')).toThrow(msg)
    }
    bad((r) => { r.candidates[0].candidate.primary = EVIL }, /not a known policy/)
    bad((r) => { r.candidates[0].candidate.primary = 'NOPE' }, /not a known policy \(known: FCFS/)
    bad((r) => { r.candidates[0].candidate.backfill = { toString: () => 'x' } }, /backfill order is not a known policy/)
    bad((r) => { r.candidates[0].threshold = NaN }, /threshold/)
    bad((r) => { r.candidates[0].threshold = 1e300 }, /threshold/)
    bad((r) => { r.candidates[0].threshold = '3600' }, /threshold/)
    bad((r) => { r.candidates[0].threshold = -1 }, /threshold/)
    bad((r) => { r.log.machineProcs = 1e300 }, /machineProcs/)
    bad((r) => { r.log.machineProcs = NaN }, /machineProcs/)
    bad((r) => { r.candidates[0].candidate.primary = MIX([NaN, 0, 0, 0, 0, 0]) }, /6 finite numbers/)
    bad((r) => { r.candidates[0].candidate.primary = MIX([1e300, 0, 0, 0, 0, 0]) }, /6 finite numbers/)
    bad((r) => { r.candidates[0].candidate.primary = MIX([1, 0, 0, 0, 0, 0], [-1, 1, 1, 1, 1, 1]) }, /negative/)
    bad((r) => { r.schemaVersion = 4 }, /schemaVersion 4/)
    bad((r) => { r.schemaVersion = 2 }, /no verdict/) // a version 2 result must carry its verdict
    bad((r) => { r.kind = 'x' }, /not an EasyTune evaluation/)
    bad((r) => { r.recommended = 5 }, /recommended/)
    bad((r) => { r.recommended = '0' }, /recommended/)
    bad((r) => { r.candidates = {} }, /no candidates/)
    expect(() => exportConfig(null as never, 'pbs')).toThrow(/not an EasyTune evaluation result/)
    expect(() => exportConfig(resultFor('SPF'), 'slurm', { slurmVersion: '22.05\nPriorityType=x' })).toThrow(/not a Slurm version/)
    expect(() => exportConfig(resultFor('SPF'), 'slurm', { slurmVersion: '18.08' })).toThrow(/too old/)
    expect(file(exportConfig(resultFor('SPF'), 'slurm', { slurmVersion: '23.02.7' }), 'slurm.conf.easytune')).toMatch(/^# EasyTune export for Slurm 23\.02\.7:/m)
  })
  it('keeps every emitted integer inside Slurm\'s 32-bit ranges, even for extreme inputs', () => {
    const cases = [resultFor(MIX([1e-9, 1e9, 0.5, 0, 1e6, 1e-6], [1e-6, 1, 1, 1, 1, 1e9]), { machineProcs: 1e8, maxWait: 1e9 }), resultFor('SQF', { machineProcs: 1e8 })]
    for (const r of cases) {
      const conf = file(exportConfig(r, 'slurm'), 'slurm.conf.easytune')!
      const ints = [...conf.matchAll(/^[A-Za-z]+=(?:CPU=)?(-?\d+)$/gm)].map((m) => Number(m[1]))
      for (const x of ints) expect(Number.isSafeInteger(x) && Math.abs(x) < 2 ** 32, String(x)).toBe(true)
      expect(conf).not.toMatch(/NaN|Infinity|e\+/)
    }
  })
})

describe('generated job_submit.lua and site-factor script', () => {
  const LUA_SPECS: [PolicySpec | ReturnType<typeof MIX>, number | null][] = [
    ...POLICIES.filter((p) => policyEntry(p).slurm.fidelity !== 'not exportable').map((p): [string, null] => [p.id, null]),
    ['SPF', 72_000], ['LEXP', 72_000], [MIX([0.3, 0.3, 0, 0, 0.2, 0.2], [1, 3600, 1, 1, 10, 1e5]), null], [MIX([0.5, 0.5, 0.5, 0.5, 0, 0], [1, 3600, 3600, 1, 1, 1]), 3600],
  ]
  it('is valid Lua 5.1 (luac -p)', (ctx) => {
    const luac = requireTool(ctx, ['luac5.1', 'luac'], 'apt-get install -y lua5.1')
    for (const [spec, t] of LUA_SPECS) {
      const lua = file(slurm(spec, { threshold: t }), 'job_submit.lua')
      if (!lua) continue
      writeFileSync(join(dir, 'job_submit.lua'), lua)
      const r = spawnSync(luac, ['-p', join(dir, 'job_submit.lua')], { encoding: 'utf8' })
      expect(r.status, `${JSON.stringify(spec)}: ${r.stderr}`).toBe(0)
    }
  })
  it('sets site factors in [0, 2147483645] that order jobs like the policy (static policies)', (ctx) => {
    const lua = requireTool(ctx, ['lua5.1', 'lua'], 'apt-get install -y lua5.1')
    const runner = writeJobSubmitRunner(dir)
    writeFileSync(join(dir, 'jobs.txt'), JOBS.map((j) => `${j.q} ${j.p / 60} ${j.submit}`).join('\n') + '\n')
    for (const [spec, t] of LUA_SPECS) {
      if (t !== null || resolvePolicy(spec as PolicySpec).dynamic) continue
      writeFileSync(join(dir, 'job_submit.lua'), file(slurm(spec), 'job_submit.lua') ?? 'function slurm_job_submit(j) j.site_factor = 0 end')
      const r = spawnSync(lua, [runner, join(dir, 'job_submit.lua'), join(dir, 'jobs.txt')], { encoding: 'utf8' })
      expect(r.status, r.stderr).toBe(0)
      const sf = r.stdout.trim().split('\n').map(Number)
      for (const x of sf) expect(Number.isInteger(x) && x >= 0 && x <= SF_MAX, String(x)).toBe(true)
      const tres = (file(slurm(spec), 'slurm.conf.easytune')!.match(/^PriorityWeightTRES=CPU=(-?\d+)$/m) ?? [])[1]
      expectSameOrder(spec as PolicySpec, sf.map((x, i) => x + Number(tres ?? 0) * JOBS[i].q), null, 1e-5)
    }
  })
  it('the periodic script orders pending jobs like the policy with its threshold (fake squeue/scontrol)', () => {
    const bin = join(dir, 'bin'), log = join(dir, 'scontrol.log')
    mkdirSync(bin, { recursive: true })
    const limit = (s: number) => { const m = s / 60; return m >= 1440 ? `${Math.floor(m / 1440)}-${String(Math.floor((m % 1440) / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}:00` : m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:00` : `${m}:00` }
    writeFileSync(join(dir, 'squeue.txt'), [...JOBS.map((j, i) => `${i + 1} ${j.submit} ${limit(j.p)} ${j.q}`), '99;reboot 1 2:00 4', 'x 1 UNLIMITED 1'].join('\n') + '\n')
    const stub = (name: string, body: string) => writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`, { mode: 0o755 })
    stub('date', `echo ${NOW}`); stub('squeue', `cat '${join(dir, 'squeue.txt')}'`); stub('scontrol', `echo "$@" >> '${log}'`)
    for (const [spec, t] of LUA_SPECS) {
      const sh = file(slurm(spec, { threshold: t }), 'easytune-site-factor.sh')
      if (!sh) continue
      writeFileSync(join(dir, 'sf.sh'), sh); rmSync(log, { force: true })
      const r = spawnSync('sh', [join(dir, 'sf.sh')], { encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } })
      expect(r.status, r.stderr).toBe(0)
      const updates = readFileSync(log, 'utf8').trim().split('\n').map((l) => /^update JobId=(\d+) SiteFactor=(\d+)$/.exec(l)!)
      expect(updates.map((m) => Number(m[1]))).toEqual(JOBS.map((_, i) => i + 1))
      const sf = updates.map((m) => Number(m[2]))
      for (const x of sf) expect(x >= 0 && x <= SF_MAX).toBe(true)
      expectSameOrder(spec as PolicySpec, sf, t, 1e-5)
    }
  })
})

describe('easytune export (CLI)', () => {
  it('writes the files, prints the fidelity table, and exits 2 for a bad or hostile file', async () => {
    const res = join(dir, 'r.json'), out = join(dir, 'out')
    writeFileSync(res, JSON.stringify(resultFor('LEXP', { threshold: 72_000 })))
    const ok = await runCli(['export', res, '--target', 'slurm', '--out', out])
    expect(ok.code).toBe(0)
    expect(ok.stdout).toMatch(/easytune-site-factor\.sh[\s\S]*queue order LEXP\s+site factor[\s\S]*Known gaps/)
    expect(readFileSync(join(out, 'job_submit.lua'), 'utf8')).toMatch(/slurm_job_submit/)
    const js = await runCli(['export', res, '--target', 'pbs', '--out', out, '--json'])
    expect(JSON.parse(js.stdout).items[0]).toMatchObject({ fidelity: 'native' })
    writeFileSync(res, '{"schemaVersion": 1, "kind": "easytune-evaluation", "candidates": [{"candidate": {"primary": "os.execute(1)"}}], "recommended": 0}')
    const bad = await runCli(['export', res, '--target', 'slurm', '--out', out])
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringMatching(/r\.json: cannot export this result: the recommended queue order is not a known policy/)])
    writeFileSync(res, '{ not json')
    expect((await runCli(['export', res, '--target', 'pbs', '--out', out])).code).toBe(2)
    expect((await runCli(['export', res, '--target', 'lsf', '--out', out])).code).toBe(2)
    writeFileSync(res, JSON.stringify(resultFor('F2')))
    expect((await runCli(['export', res, '--target', 'slurm', '--out', join(dir, 'none')])).code).toBe(1)
  })
})
