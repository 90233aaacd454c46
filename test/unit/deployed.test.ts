// What is simulated under Slurm's scheduling is what is deployed: the site factor the simulator
// gives each job (src/core/cluster/deployed.ts) must be EXACTLY what the generated job_submit.lua
// sets at submission and what the generated periodic script sets later, run for real (lua5.1,
// sh + awk with fake squeue/scontrol/date).
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { deployedSiteFactor, encodeSiteFactor } from '../../src/core/cluster/deployed'
import type { ClusterJobs } from '../../src/core/cluster/types'
import { choiceOf } from '../../src/core/export/deploy'
import { exportSlurm } from '../../src/core/export/slurm'
import { EPOCH0, ENC_CAP, SF_OFFSET, slurmPlan } from '../../src/core/export/slurm-plan'
import type { ExportInput } from '../../src/core/export/validate'
import type { PolicySpec } from '../../src/core/sim/types'
import { requireTool } from '../support/tools'
import { writeJobSubmitRunner } from '../support/job-submit-runner'

const dir = mkdtempSync(join(tmpdir(), 'easytune-deployed-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const UNIX0 = EPOCH0 + 3 * 86_400 // t = 0 of the jobs' clock
const NOW = UNIX0 + 400_000
const N = 40
const jobs = {
  count: N,
  submit: Float64Array.from({ length: N }, (_, i) => 1000 + ((i * 7919) % 390_000)),
  procs: Int32Array.from({ length: N }, (_, i) => 1 + ((i * 37) % 96)),
  requested: Float64Array.from({ length: N }, (_, i) => 60 * (1 + ((i * 53) % 2880))),
} as unknown as ClusterJobs

const input = (primary: PolicySpec, threshold: number | null): ExportInput => ({
  verdict: 'switch', maxRequested: null, primary: choiceOf(primary), backfill: 'same', threshold, machineProcs: 512, longestWait: null,
  baseline: false, label: '', sha256: null, objective: null, gains: { train: null, test: null, testCi: null, maxWaitRatio: null },
})
const file = (x: ExportInput, name: string) => exportSlurm(x, '22.05').files.find((f) => f.name === name)?.content

describe('the simulated site factor is the deployed one', () => {
  it('encodes like the generated files (NaN, caps, negative scores)', () => {
    expect(encodeSiteFactor({ kind: 'linear', scale: 1 / 60, offset: 100, max: 1000 }, 600)).toBe(110)
    expect(encodeSiteFactor({ kind: 'linear', scale: 1, offset: 0, max: 50 }, 80)).toBe(50)
    expect(encodeSiteFactor({ kind: 'linear', scale: 1, offset: 0, max: 50 }, -3)).toBe(0)
    expect(encodeSiteFactor({ kind: 'log' }, NaN)).toBe(SF_OFFSET)
    expect(encodeSiteFactor({ kind: 'log' }, -(Math.E - 1))).toBe(SF_OFFSET - 13_000_000)
    expect(encodeSiteFactor({ kind: 'log' }, 1e300)).toBe(SF_OFFSET + ENC_CAP)
  })

  it('job_submit.lua sets at submission exactly the static site factor the simulator uses', (ctx) => {
    const lua = requireTool(ctx, ['lua5.1', 'lua'], 'apt-get install -y lua5.1')
    const runner = writeJobSubmitRunner(dir)
    writeFileSync(join(dir, 'jobs.txt'), Array.from({ length: N }, (_, j) => `${jobs.procs[j]} ${jobs.requested[j] / 60} ${UNIX0 + jobs.submit[j]}`).join('\n') + '\n')
    const specs: PolicySpec[] = ['SPF', 'LPF', 'LAF', 'SAF', 'SRF', 'LCFS', { kind: 'mixed', weights: [0.3, 0.3, 0, 0, 0.2, 0.2], scale: [1, 3600, 1, 1, 10, 1e5] }]
    let checked = 0
    for (const spec of specs) {
      const x = input(spec, null)
      const plan = slurmPlan(x)
      const sf = deployedSiteFactor(plan, jobs, UNIX0)
      const text = file(x, 'job_submit.lua')
      if (sf === undefined) { expect(text, JSON.stringify(spec)).toBeUndefined(); continue }
      expect(sf.kind).toBe('static')
      writeFileSync(join(dir, 'job_submit.lua'), text!)
      const r = spawnSync(lua, [runner, join(dir, 'job_submit.lua'), join(dir, 'jobs.txt')], { encoding: 'utf8' })
      expect(r.status, r.stderr).toBe(0)
      const fromLua = r.stdout.trim().split('\n').map(Number)
      const ours = Array.from({ length: N }, (_, j) => (sf.kind === 'static' ? sf.value[j] : NaN))
      expect(ours, JSON.stringify(spec)).toEqual(fromLua)
      checked++
    }
    expect(checked).toBeGreaterThanOrEqual(5)
  })

  it('the periodic script sets exactly the dynamic site factor the simulator uses at that time', () => {
    const bin = join(dir, 'bin'), log = join(dir, 'scontrol.log')
    mkdirSync(bin, { recursive: true })
    const limit = (s: number) => { const m = s / 60; return `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:00` }
    writeFileSync(join(dir, 'squeue.txt'), Array.from({ length: N }, (_, j) => `${j + 1} ${UNIX0 + jobs.submit[j]} ${limit(jobs.requested[j])} ${jobs.procs[j]}`).join('\n') + '\n')
    const stub = (name: string, body: string) => writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`, { mode: 0o755 })
    stub('date', `echo ${NOW}`); stub('squeue', `cat '${join(dir, 'squeue.txt')}'`); stub('scontrol', `echo "$@" >> '${log}'`)
    for (const [spec, t] of [['LEXP', null], ['SPF', 72_000], ['LCFS', 72_000], ['SAF', 200_000]] as [PolicySpec, number | null][]) {
      const x = input(spec, t)
      const sf = deployedSiteFactor(slurmPlan(x), jobs, UNIX0)
      expect(sf?.kind, String(spec)).toBe('dynamic')
      writeFileSync(join(dir, 'sf.sh'), file(x, 'easytune-site-factor.sh')!); rmSync(log, { force: true })
      const r = spawnSync('sh', [join(dir, 'sf.sh')], { encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } })
      expect(r.status, r.stderr).toBe(0)
      const fromScript = readFileSync(log, 'utf8').trim().split('\n').map((l) => Number(/SiteFactor=(\d+)$/.exec(l)![1]))
      const ours = Array.from({ length: N }, (_, j) => (sf!.kind === 'dynamic' ? sf!.value(j, NOW - UNIX0) : NaN))
      // awk prints %.0f of a double: the same integers (the log encoding is an integer already).
      expect(ours, `${String(spec)} Θ=${t}`).toEqual(fromScript)
    }
  })
})
