// Real logs from ../shared/data: every file imports with the counts its provenance documents, and
// EASY simulations on the research's logs pass the independent schedule checker.
import { describe, expect, it } from 'vitest'
import { simulate } from '../../src/core/sim/easy'
import { computeMetrics } from '../../src/core/sim/metrics'
import type { SimConfig } from '../../src/core/sim/types'
import { readLog } from '../../src/node/read-log'
import { checkSchedule } from '../support/checker'
import { dataFile } from '../support/data'

const rule = (w: Awaited<ReturnType<typeof readLog>>, id: string) => w.report.rules.find((r) => r.rule === id)?.count

describe('every SWF file in ../shared/data imports', () => {
  // [file, jobs read (SOURCES.md), machine size, jobs kept]
  const cases: [string, number, number, number][] = [
    ['swf/KTH-SP2-1996-2.1-cln.swf.gz', 28476, 100, 28000],
    ['swf/CTC-SP2-1996-3.1-cln.swf.gz', 77222, 338, 70042],
    ['swf/SDSC-BLUE-2000-4.2-cln.swf.gz', 243306, 1152, 209128],
    ['swf/CEA-Curie-2011-2.1-cln.swf.gz', 312826, 93312, 307391],
    ['swf/LLNL-Atlas-2006-2.1-cln.swf.gz', 43778, 9216, 29562],
    ['swf/LANL-CM5-1994-4.1-cln.swf.gz', 122060, 1024, 70590],
  ]
  it.each(cases)('%s', async (file, read, procs, kept) => {
    const w = await readLog(dataFile(file))
    expect(w.report.jobsRead).toBe(read)
    expect(w.machineProcs).toBe(procs)
    expect(w.report.machine.source).toBe('header-maxprocs')
    expect(w.jobs.count).toBe(kept)
    expect(w.report.badLines.count).toBe(0)
    const removed = w.report.rules.filter((r) => r.effect === 'removed').reduce((a, r) => a + r.count, 0)
    expect(removed).toBe(read - kept)
  })

  it('documents the data caveats: SDSC-BLUE runtimes of -1 and LANL-CM5 missing requested times', async () => {
    const blue = await readLog(dataFile('swf/SDSC-BLUE-2000-4.2-cln.swf.gz'))
    expect(rule(blue, 'C5-runtime')).toBe(10744)
    const lanl = await readLog(dataFile('swf/LANL-CM5-1994-4.1-cln.swf.gz'))
    expect(lanl.report.requestedMissing).toBe(11287) // 11,290 in SOURCES.md, 3 of them have no processor count either
    expect(lanl.report.warnings.join(' ')).toMatch(/Requested time is missing for 11,287 jobs/)
  })

  it.each([
    ['swf/NASA-iPSC-1993-3.1-cln.swf.gz', 18239, 128, 'header-maxprocs'],
    ['swf/SDSC-Par-1996-3.1-cln.swf.gz', 32135, 400, 'header-maxprocs'],
    ['swf-model/lublin_256.swf', 10000, 256, 'header-maxnodes'],
    ['swf-model/lublin-aaroh.swf', 10000, 256, 'header-maxnodes'],
  ] as const)('%s has no requested times: imports, says so, and keeps every job with a fallback', async (file, read, procs, source) => {
    const w = await readLog(dataFile(file))
    expect(w.report.jobsRead).toBe(read)
    expect(w.jobs.count).toBe(0)
    expect(w.report.machine).toMatchObject({ procs, source })
    expect(w.report.warnings.join(' ')).toMatch(new RegExp(`Requested time is missing for ${read.toLocaleString('en-US')} jobs \\(100.0%\\)`))
    const filled = await readLog(dataFile(file), { requestedFallback: 'runtime' })
    expect(filled.jobs.count).toBe(read - (rule(filled, 'C4-no-procs') ?? 0) - (rule(filled, 'C3-too-big') ?? 0))
    expect(filled.jobs.count).toBeGreaterThan(read * 0.95)
  })
})

describe('EASY on the research logs passes the independent checker', () => {
  const configs: SimConfig[] = [
    { primary: 'FCFS', backfill: 'same', threshold: null },
    { primary: 'SPF', backfill: 'same', threshold: 72000 },
    { primary: 'LQF', backfill: 'SPF', threshold: null },
    { primary: 'LEXP', backfill: 'same', threshold: 144000 },
    { primary: 'SAF', backfill: 'FCFS', threshold: 200000 },
  ]
  it.each(configs.map((c) => [`${String(c.primary)}/${String(c.backfill)}/${c.threshold}`, c] as const))('KTH-SP2 %s', async (_label, config) => {
    const w = await readLog(dataFile('swf/KTH-SP2-1996-2.1-cln.swf.gz'))
    const start = simulate(w.jobs, w.machineProcs, config)
    expect(checkSchedule(w.jobs, w.machineProcs, config, start)).toEqual([])
  })

  it('CTC-SP2, SDSC-BLUE (first 30,000 jobs) and CEA-Curie (first 30,000 jobs) under FCFS and SPF/20 h', async () => {
    for (const file of ['swf/CTC-SP2-1996-3.1-cln.swf.gz', 'swf/SDSC-BLUE-2000-4.2-cln.swf.gz', 'swf/CEA-Curie-2011-2.1-cln.swf.gz']) {
      const w = await readLog(dataFile(file))
      const n = Math.min(30000, w.jobs.count)
      const j = w.jobs
      const part = { count: n, submit: j.submit.subarray(0, n), runtime: j.runtime.subarray(0, n), requested: j.requested.subarray(0, n), procs: j.procs.subarray(0, n) }
      for (const config of configs.slice(0, 2)) {
        const start = simulate(part, w.machineProcs, config)
        expect(checkSchedule(part, w.machineProcs, config, start), `${file} ${String(config.primary)}`).toEqual([])
      }
    }
  })

  it('FCFS with any threshold is FCFS on a real log (the baseline cannot move, docs/PROTOCOL.md §Campaign grid)', async () => {
    const w = await readLog(dataFile('swf/KTH-SP2-1996-2.1-cln.swf.gz'))
    const base = simulate(w.jobs, w.machineProcs, { primary: 'FCFS', backfill: 'same', threshold: null })
    for (const t of [0, 3600, 72000, 200000]) {
      expect(simulate(w.jobs, w.machineProcs, { primary: 'FCFS', backfill: 'same', threshold: t })).toEqual(base)
    }
  })

  it('reordering pays off on KTH-SP2 as the research reports: SPF cuts AvgWait, and a threshold caps MaxWait', async () => {
    const w = await readLog(dataFile('swf/KTH-SP2-1996-2.1-cln.swf.gz'))
    const m = (c: SimConfig) => computeMetrics(w.jobs, w.machineProcs, simulate(w.jobs, w.machineProcs, c))
    const fcfs = m({ primary: 'FCFS', backfill: 'same', threshold: null })
    const spf = m({ primary: 'SPF', backfill: 'same', threshold: null })
    const spf20 = m({ primary: 'SPF', backfill: 'same', threshold: 72000 })
    expect(spf.avgWait).toBeLessThan(0.8 * fcfs.avgWait)
    expect(spf.maxWait).toBeGreaterThan(fcfs.maxWait)
    expect(spf20.maxWait).toBeLessThan(spf.maxWait)
    expect(spf20.avgWait).toBeLessThan(fcfs.avgWait)
  })
})
