// LBSLD, the policy added as one declaration (src/core/sim/policies.ts): its order on a
// hand-worked example and its export, with nothing else edited.
import { describe, expect, it } from 'vitest'
import { policyEntry } from '../../src/core/export/catalog'
import { exportConfig } from '../../src/core/export/index'
import { findPolicy } from '../../src/core/sim/policies'
import { runCli } from '../support/cli'
import { resultFor } from '../slurm/harness'

describe('LBSLD: largest estimated bounded slowdown first', () => {
  it('orders four waiting jobs by (wait + p̃) / max(p̃, 10 s), unlike LEXP for requests under 10 s', () => {
    // now = 1000.             wait  p̃     LBSLD                 LEXP
    //  A: submit 990, p̃ 2    10    2     (10 + 2) / 10 = 1.2    12 / 2 = 6
    //  B: submit 900, p̃ 100  100   100   200 / 100 = 2          2
    //  C: submit 950, p̃ 5    50    5     55 / 10 = 5.5          55 / 5 = 11
    //  D: submit 500, p̃ 1000 500   1000  1500 / 1000 = 1.5      1.5
    const input = { submit: Float64Array.of(990, 900, 950, 500), requested: Float64Array.of(2, 100, 5, 1000), procs: Int32Array.of(4, 1, 8, 2), windowStart: 0 }
    const order = (id: string) => {
      const pol = findPolicy(id)!
      return [0, 1, 2, 3].sort((a, b) => pol.priority(input, b, 1000) - pol.priority(input, a, 1000) || a - b).map((j) => 'ABCD'[j]).join('')
    }
    const lbsld = findPolicy('lbsld')!
    expect([0, 1, 2, 3].map((j) => lbsld.priority(input, j, 1000))).toEqual([1.2, 2, 5.5, 1.5])
    expect(order('LBSLD')).toBe('CBDA')
    expect(order('LEXP')).toBe('CABD')
    expect(lbsld.dynamic).toBe(true)
  })
  it('exports through the periodic site factor for Slurm and natively for PBS', async () => {
    expect(policyEntry(findPolicy('LBSLD')!)).toMatchObject({
      slurm: { fidelity: 'site factor' },
      pbs: { fidelity: 'native', jobSortFormula: '((eligible_time + walltime) / max(walltime, 10))' },
    })
    const slurm = exportConfig(resultFor('LBSLD'), 'slurm')
    expect(slurm.items[0]).toMatchObject({ feature: 'queue order LBSLD', fidelity: 'site factor' })
    expect(slurm.files.find((f) => f.name === 'easytune-site-factor.sh')!.content).toContain('sf = encode(((w + p) / max2(p, 10)))')
    expect(slurm.files.find((f) => f.name === 'job_submit.lua')!.content).toContain('return ((w + p) / math.max(p, 10))')
    const pbs = exportConfig(resultFor('LBSLD'), 'pbs')
    expect(pbs.files.find((f) => f.name === 'pbs-easytune.sh')!.content).toContain(`job_sort_formula = "((eligible_time + walltime) / max(walltime, 10))"`)
    const cli = await runCli(['policies'])
    expect(cli.stdout).toMatch(/^LBSLD\s+\(wait \+ p̃\) \/ max\(p̃, 10 s\)\s+yes\s+.*site factor\s+native/m)
  })
})
