// Hand-worked golden schedules for the EASY simulator (see README.md in this folder).
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importText } from '../../src/core/workload/import'
import { simulate } from '../../src/core/sim/easy'
import type { SimConfig } from '../../src/core/sim/types'

interface Golden {
  description: string
  config: SimConfig
  starts: Record<string, number>
}

const dir = import.meta.dirname
const fixtures = readdirSync(dir).filter((f) => f.endsWith('.expected.json')).sort()

describe('golden EASY schedules', () => {
  it('has fixtures', () => expect(fixtures.length).toBeGreaterThanOrEqual(10))

  for (const file of fixtures) {
    const swf = `${file.split('.')[0]}.swf`
    const golden = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Golden
    it(file, () => {
      const workload = importText(readFileSync(join(dir, swf), 'utf8'), { name: swf })
      const jobs = workload.jobs
      const starts = simulate(jobs, workload.machineProcs, golden.config)
      const got: Record<string, number> = {}
      for (let i = 0; i < jobs.count; i++) got[String(jobs.id[i])] = starts[i]
      // Compare as objects so a mismatch names the job id (and a dropped job shows as missing).
      expect(got).toEqual(golden.starts)
    })
  }
})
