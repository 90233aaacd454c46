// The whole real SLURM logs from ../shared/data through the sacct and jobcomp parsers. Every
// expected count comes from SOURCES.md or from a plain reading of the same file in the test
// (split on the separator, pick the columns); nothing is pasted from EasyTune's output. The small
// excerpts with hand-checked rows are in test/unit/parsers-slurm.test.ts.
import { describe, expect, it } from 'vitest'
import { createJobcompParser } from '../../src/core/workload/jobcomp'
import { createSacctParser } from '../../src/core/workload/sacct'
import type { ParsedLog } from '../../src/core/workload/types'
import { requireData } from '../support/data'
import { rows, run } from '../support/parsing'
import { keyValues, lines, readText } from '../support/plain-reading'

const drop = (log: ParsedLog, rule: string) => log.parserDrops.find((d) => d.rule === rule)?.count ?? 0
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)
const max = (xs: number[]) => xs.reduce((a, b) => Math.max(a, b), -Infinity)
const bytes = (text: string) => new TextEncoder().encode(text)
const thousands = (n: number) => n.toLocaleString('en-US')

/** A table with a header line: one record per data line, keyed by column name. */
function table(text: string, separator: string): Record<string, string>[] {
  const [head, ...data] = lines(text)
  const names = head.split(separator)
  return data.map((l) => {
    const cells = l.split(separator)
    if (cells.length !== names.length) throw new Error(`${cells.length} cells, header has ${names.length}: ${l}`)
    return Object.fromEntries(names.map((n, i) => [n, cells[i]]))
  })
}

describe('real SLURM logs', () => {
  it('Cirrus sacct CSV: every row read, jobs cancelled before they started set aside', (ctx) => {
    const text = readText(requireData(ctx, 'slurm/cirrus-epcc/2024_Q1_CPU-sacct-subset.csv'))
    const all = table(text, ',') // no quotes in this file: a plain split is exact
    expect(all).toHaveLength(11635) // SOURCES.md
    const started = all.filter((r) => r.Start !== 'None')
    expect(all.length - started.length).toBe(199) // SOURCES.md: 199 cancelled before they started

    const log = run(createSacctParser(), bytes(text), 65536)
    expect(log.linesRead).toBe(all.length + 1)
    expect(log.badLines).toBe(0)
    expect(drop(log, 'slurm-never-started')).toBe(all.length - started.length)
    expect(drop(log, 'slurm-steps')).toBe(all.filter((r) => r.JobID.includes('.')).length)
    expect(log.jobs.count).toBe(started.length)
    const r = rows(log)
    expect(log.unixStartTime).toBe(Math.min(...started.map((x) => Number(x.Submit))))
    expect(sum(r.map((j) => j.runtime))).toBe(sum(started.map((x) => Number(x.ElapsedRaw))))
    expect(sum(r.map((j) => j.wait))).toBe(sum(started.map((x) => Number(x.Start) - Number(x.Submit))))
    expect(max(r.map((j) => j.alloc))).toBe(max(started.map((x) => Number(x.NCPUS))))
    // array tasks 5313029_1 … keep the parent id
    expect(r.filter((j) => j.id === 5313029)).toHaveLength(started.filter((x) => x.JobID.startsWith('5313029_')).length)
    expect(r.every((j) => j.requested === -1)).toBe(true) // SOURCES.md: no Timelimit column
    expect(log.warnings[0]).toMatch(/^The file has no Timelimit column/)
  })

  it('Kabré sacct -P: run time from CPUTimeRAW, wait from ResvCPURAW, ISO submits', (ctx) => {
    const text = readText(requireData(ctx, 'slurm/kabre-cenat/sacct.csv.gz'))
    const all = table(text, '|')
    expect(all).toHaveLength(30376) // SOURCES.md
    // No Start column: a job never started when it was cancelled with no CPU time.
    const runtime = (x: Record<string, string>) => Math.round(Number(x.CPUTimeRAW) / Number(x.ReqCPUS))
    const ran = all.filter((x) => !(x.State.startsWith('CANCELLED') && runtime(x) <= 0))
    const limit = (x: Record<string, string>) => /^\d+$/.test(x.TimelimitRaw) ? Number(x.TimelimitRaw) * 60 : -1

    const log = run(createSacctParser(), bytes(text))
    expect(log.linesRead).toBe(all.length + 1)
    expect(log.badLines).toBe(0)
    expect(drop(log, 'slurm-never-started')).toBe(all.length - ran.length)
    expect(log.jobs.count).toBe(ran.length)
    const r = rows(log)
    expect(r.map((j) => j.runtime)).toEqual(ran.map(runtime))
    expect(r.map((j) => j.wait)).toEqual(ran.map((x) => Math.round(Number(x.ResvCPURAW) / Number(x.ReqCPUS))))
    expect(r.map((j) => j.requested)).toEqual(ran.map(limit))
    expect(max(r.map((j) => j.req))).toBe(1000) // SOURCES.md: the largest job requests 1,000 CPUs
    const overLimit = ran.filter((x) => limit(x) >= 0 && runtime(x) > limit(x)).length
    expect(log.warnings[0]).toContain(`CPUTimeRAW / ReqCPUS for ${thousands(ran.length)} jobs`)
    expect(log.warnings[0]).toContain(`for ${thousands(overLimit)} jobs it exceeds the time limit`)
    expect(log.warnings[1]).toContain(`ResvCPURAW / ReqCPUS for ${thousands(ran.length)} jobs`)
    // every Submit is an ISO time without a zone
    expect(all.every((x) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/.test(x.Submit))).toBe(true)
    expect(log.warnings.at(-1)).toMatch(new RegExp(`^No time zone on ${thousands(all.length)} time stamps \\(e\\.g\\. ${all[0].Submit}\\)`))
    const earliest = all.map((x) => x.Submit).sort()[0] // ISO stamps sort as text
    expect(log.unixStartTime).toBe(Date.parse(`${earliest}Z`) / 1000)
  })

  it.for([
    ['slurm/rackham-uppmax-jobcomp/2021-05-30.anon.gz', 16997],
    ['slurm/rackham-uppmax-jobcomp/2021-06-15.anon.gz', 16036],
  ] as const)('Rackham jobcomp %s: every line read, jobs never allocated a node set aside', ([file, documented], ctx) => {
    const text = readText(requireData(ctx, file))
    const records = lines(text).map(keyValues)
    expect(records).toHaveLength(documented) // SOURCES.md
    // never started: no node allocated (nodes= empty) or no start time
    const ran = records.filter((x) => (x.get('nodes') ?? '') !== '' && /^\d+$/.test(x.get('start') ?? ''))

    const log = run(createJobcompParser(), bytes(text), 65536)
    expect(log.linesRead).toBe(records.length)
    expect(log.badLines).toBe(0)
    expect(drop(log, 'slurm-never-started')).toBe(records.length - ran.length)
    expect(log.jobs.count).toBe(ran.length)
    expect(log.users).toHaveLength(new Set(ran.map((x) => x.get('username'))).size)
    const submits = ran.map((x) => Number(x.get('submit')))
    expect(log.unixStartTime).toBe(Math.min(...submits))
    const r = rows(log)
    expect(r.map((j) => j.id)).toEqual(ran.map((x) => Number(x.get('jobid'))))
    expect(r.map((j) => j.runtime)).toEqual(ran.map((x) => Number(x.get('end')) - Number(x.get('start'))))
    expect(r.map((j) => j.wait)).toEqual(ran.map((x) => Number(x.get('start')) - Number(x.get('submit'))))
    expect(max(r.map((j) => j.alloc))).toBe(max(ran.map((x) => Number(x.get('procs')))))
    expect(log.warnings).toEqual([])
  })
})
