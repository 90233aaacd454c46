// Hand-worked golden schedules for the EASY simulator (see README.md in this folder).
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importText } from '../../src/core/workload/import'
import { simulate } from '../../src/core/sim/easy'
import type { SimConfig, SimOptions } from '../../src/core/sim/types'
import { referenceSimulate, shadowTiesOf } from '../support/reference-sim'

interface Golden {
  description: string
  config: SimConfig
  /** Simulator options, e.g. { compat: 'ocst' } for the seeds' shadow-time rule; absent = defaults. */
  options?: SimOptions
  starts: Record<string, number>
}

const dir = import.meta.dirname
const fixtures = readdirSync(dir).filter((f) => f.endsWith('.expected.json')).sort()

describe('golden EASY schedules', () => {
  it('has fixtures', () => expect(fixtures.length).toBeGreaterThanOrEqual(10))

  it('the two shadow-time rules are both worked by hand on shadow_ties, and differ there', () => {
    const a = JSON.parse(readFileSync(join(dir, 'shadow_ties.default.expected.json'), 'utf8')) as Golden
    const b = JSON.parse(readFileSync(join(dir, 'shadow_ties.ocst.expected.json'), 'utf8')) as Golden
    expect(a.options?.compat ?? 'none').toBe('none')
    expect(b.options?.compat).toBe('ocst')
    expect(a.starts).not.toEqual(b.starts)
  })

  for (const file of fixtures) {
    const swf = `${file.split('.')[0]}.swf`
    const golden = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Golden
    const workload = () => importText(readFileSync(join(dir, swf), 'utf8'), { name: swf })
    const byId = (jobs: { count: number; id: Float64Array }, starts: Float64Array) => {
      const got: Record<string, number> = {}
      for (let i = 0; i < jobs.count; i++) got[String(jobs.id[i])] = starts[i]
      return got
    }
    it(file, () => {
      const w = workload()
      // Compare as objects so a mismatch names the job id (and a dropped job shows as missing).
      expect(byId(w.jobs, simulate(w.jobs, w.machineProcs, golden.config, golden.options))).toEqual(golden.starts)
    })
    it(`${file} (brute-force reference)`, () => {
      const w = workload()
      expect(byId(w.jobs, referenceSimulate(w.jobs, w.machineProcs, golden.config, golden.options, shadowTiesOf(golden.options)))).toEqual(golden.starts)
    })
  }
})
