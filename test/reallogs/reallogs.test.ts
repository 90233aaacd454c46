// Real logs from ../shared/data: every file imports with the counts its provenance documents and
// an independent plain reading gives, and EASY simulations on the research's logs pass the
// independent schedule checker.
import { readFileSync } from 'node:fs'
import { describe, expect, it, type TestContext } from 'vitest'
import { simulate } from '../../src/core/sim/easy'
import { computeMetrics } from '../../src/core/sim/metrics'
import type { SimConfig } from '../../src/core/sim/types'
import { FileInputError, readLog } from '../../src/node/read-log'
import { checkSchedule } from '../support/checker'
import { requireData } from '../support/data'
import { documentedJobCounts, plainClean, plainSwf } from '../support/plain-reading'

const rule = (w: Awaited<ReturnType<typeof readLog>>, id: string) => w.report.rules.find((r) => r.rule === id)?.count ?? 0
/** The report's removal counts, rule → count, without the zeros. */
const removedByRule = (w: Awaited<ReturnType<typeof readLog>>) =>
  Object.fromEntries(w.report.rules.filter((r) => r.effect === 'removed' && r.count > 0).map((r) => [r.rule, r.count]))
const thousands = (n: number) => n.toLocaleString('en-US')

/** SOURCES.md's job count for `file` (documented provenance, not EasyTune's output). */
function documented(ctx: TestContext, file: string): number {
  const counts = documentedJobCounts(readFileSync(requireData(ctx, 'SOURCES.md'), 'utf8'))
  const n = counts.get(file)
  if (n === undefined) throw new Error(`SOURCES.md documents no job count for ${file}`)
  return n
}

// Every expected count below comes from SOURCES.md or from the plain reading of the same file
// (plain-reading.ts): line splitting and the cleaning rules written out again.
describe('every SWF file in ../shared/data imports', () => {
  it.for([
    'swf/KTH-SP2-1996-2.1-cln.swf.gz', 'swf/CTC-SP2-1996-3.1-cln.swf.gz', 'swf/SDSC-BLUE-2000-4.2-cln.swf.gz',
    'swf/CEA-Curie-2011-2.1-cln.swf.gz', 'swf/LLNL-Atlas-2006-2.1-cln.swf.gz', 'swf/LANL-CM5-1994-4.1-cln.swf.gz',
  ])('%s', async (file, ctx) => {
    const path = requireData(ctx, file)
    const plain = plainSwf(path)
    expect(plain.jobs.length).toBe(documented(ctx, file))
    expect(plain.jobs.every((f) => f.length === 18 && f.every(Number.isFinite))).toBe(true)
    const machine = Number(plain.header.get('MaxProcs')?.split(/\s/)[0])
    const expected = plainClean(plain, machine)

    const w = await readLog(path)
    expect(w.report.jobsRead).toBe(plain.jobs.length)
    expect(w.report.badLines.count).toBe(0)
    expect(w.report.machine.source).toBe('header-maxprocs')
    expect(w.machineProcs).toBe(machine)
    expect(removedByRule(w)).toEqual(expected.removed)
    for (const r of w.report.rules.filter((x) => x.effect === 'removed' && x.count > 0)) {
      expect(r.exampleLines.length, r.rule).toBeGreaterThan(0)
      expect(r.exampleLines, r.rule).toEqual(expected.lines[r.rule].slice(0, r.exampleLines.length))
    }
    expect(rule(w, 'C4-procs-from-allocated')).toBe(expected.procsFromAllocated)
    expect(w.report.requestedMissing).toBe(expected.requestedMissing)
    expect(w.jobs.count).toBe(expected.kept)
    expect(w.jobs.count).toBeGreaterThan(0.5 * plain.jobs.length) // the rules keep most of a cleaned log
  })

  it('documents the data caveats: SDSC-BLUE runtimes of -1 and LANL-CM5 missing requested times', async (ctx) => {
    const bluePath = requireData(ctx, 'swf/SDSC-BLUE-2000-4.2-cln.swf.gz')
    const blue = await readLog(bluePath)
    const bluePlain = plainSwf(bluePath).jobs
    // SOURCES.md: "The run time (field 4) is -1 for 10,744 SDSC-BLUE jobs"
    expect(bluePlain.filter((f) => f[3] === -1).length).toBe(10744)
    expect(rule(blue, 'C5-runtime')).toBe(bluePlain.filter((f) => f[1] >= 0 && f[3] < 0).length)

    const lanlPath = requireData(ctx, 'swf/LANL-CM5-1994-4.1-cln.swf.gz')
    const lanl = await readLog(lanlPath)
    const lanlPlain = plainSwf(lanlPath)
    // SOURCES.md: "It is -1 for many jobs in LANL-CM5 (11,290)"; the importer counts only those
    // that reach the requested-time rule (jobs without processors are removed before it)
    expect(lanlPlain.jobs.filter((f) => f[8] === -1).length).toBe(11290)
    const missing = plainClean(lanlPlain, Number(lanlPlain.header.get('MaxProcs'))).requestedMissing
    expect(missing).toBeLessThan(11290)
    expect(lanl.report.requestedMissing).toBe(missing)
    expect(lanl.report.warnings.join(' ')).toContain(`Requested time is missing for ${thousands(missing)} jobs`)
  })

  it.for([
    ['swf/NASA-iPSC-1993-3.1-cln.swf.gz', 'MaxProcs', 'header-maxprocs'],
    ['swf/SDSC-Par-1996-3.1-cln.swf.gz', 'MaxProcs', 'header-maxprocs'],
    ['swf-model/lublin_256.swf', 'MaxNodes', 'header-maxnodes'],
    ['swf-model/lublin-aaroh.swf', 'MaxNodes', 'header-maxnodes'],
  ] as const)('%s has no requested times: imports, says so, and keeps every job with a fallback', async ([file, sizeKey, source], ctx) => {
    const path = requireData(ctx, file)
    const plain = plainSwf(path)
    const read = plain.jobs.length
    expect(read).toBe(documented(ctx, file))
    expect(plain.jobs.every((f) => f[8] === -1)).toBe(true) // SOURCES.md: no requested time anywhere
    expect(plain.header.has('MaxProcs')).toBe(sizeKey === 'MaxProcs')
    const procs = Number(plain.header.get(sizeKey))

    // Without a fallback every job is removed, and an import that keeps no job is refused in words
    // that name the missing requested times and the fallback to use.
    const refused = await readLog(path).then(() => null, (e: unknown) => e)
    expect(refused).toBeInstanceOf(FileInputError)
    expect((refused as Error).message).toMatch(new RegExp(`no job was kept: all ${thousands(read)} jobs read were removed by cleaning`))
    expect((refused as Error).message).toMatch(/--requested-fallback runtime/)
    expect((refused as Error).message).toMatch(/requested time/i)
    const filled = await readLog(path, { requestedFallback: 'runtime' })
    expect(filled.report.jobsRead).toBe(read)
    expect(filled.report.machine).toMatchObject({ procs, source })
    const expected = plainClean(plain, procs, true)
    expect(removedByRule(filled)).toEqual(expected.removed)
    expect(filled.jobs.count).toBe(expected.kept)
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
  it.for(configs.map((c) => [`${String(c.primary)}/${String(c.backfill)}/${c.threshold}`, c] as const))('KTH-SP2 %s', async ([, config], ctx) => {
    const w = await readLog(requireData(ctx, 'swf/KTH-SP2-1996-2.1-cln.swf.gz'))
    const start = simulate(w.jobs, w.machineProcs, config)
    expect(checkSchedule(w.jobs, w.machineProcs, config, start)).toEqual([])
  })

  it('CTC-SP2, SDSC-BLUE (first 30,000 jobs) and CEA-Curie (first 30,000 jobs) under FCFS and SPF/20 h', async (ctx) => {
    for (const file of ['swf/CTC-SP2-1996-3.1-cln.swf.gz', 'swf/SDSC-BLUE-2000-4.2-cln.swf.gz', 'swf/CEA-Curie-2011-2.1-cln.swf.gz']) {
      const w = await readLog(requireData(ctx, file))
      const n = Math.min(30000, w.jobs.count)
      const j = w.jobs
      const part = { count: n, submit: j.submit.subarray(0, n), runtime: j.runtime.subarray(0, n), requested: j.requested.subarray(0, n), procs: j.procs.subarray(0, n) }
      for (const config of configs.slice(0, 2)) {
        const start = simulate(part, w.machineProcs, config)
        expect(checkSchedule(part, w.machineProcs, config, start), `${file} ${String(config.primary)}`).toEqual([])
      }
    }
  })

  it('FCFS with any threshold is FCFS on a real log (the baseline cannot move, docs/PROTOCOL.md §Campaign grid)', async (ctx) => {
    const w = await readLog(requireData(ctx, 'swf/KTH-SP2-1996-2.1-cln.swf.gz'))
    const base = simulate(w.jobs, w.machineProcs, { primary: 'FCFS', backfill: 'same', threshold: null })
    for (const t of [0, 3600, 72000, 200000]) {
      expect(simulate(w.jobs, w.machineProcs, { primary: 'FCFS', backfill: 'same', threshold: t })).toEqual(base)
    }
  })

  it('reordering pays off on KTH-SP2 as the research reports: SPF cuts AvgWait, and a threshold caps MaxWait', async (ctx) => {
    const w = await readLog(requireData(ctx, 'swf/KTH-SP2-1996-2.1-cln.swf.gz'))
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
