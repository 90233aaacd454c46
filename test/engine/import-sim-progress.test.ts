// Issue #20: the whole-log EASY-FCFS run of an import (src/engine/import.ts) reports its progress
// (jobs started of the jobs kept) through the import's progress, and the import's cancel stops it
// in the middle. A synthetic overloaded log (60,000 jobs, tens of times the machine) makes that run
// take far longer than a progress slice.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { importLogFile, type ImportProgress } from '../../src/engine/import'
import { baselineFidelity, campaignMachine } from '../../src/core/cluster/model'
import { readLog } from '../../src/node/read-log'

const dir = mkdtempSync(join(tmpdir(), 'easytune-import-sim-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function overloadedLog(jobs: number): string {
  const lines = ['; MaxProcs: 64']
  let seed = 11
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
  let submit = 0
  for (let i = 1; i <= jobs; i++) {
    submit += Math.floor(rnd() * 20)
    const q = 1 + Math.floor(rnd() * 64), p = 60 + Math.floor(rnd() * 1800)
    lines.push(`${i} ${submit} -1 ${p} ${q} -1 -1 ${q} ${p + 600} -1 1 1 1 -1 -1 -1 -1 -1`)
  }
  const path = join(dir, `overloaded-${jobs}.swf`)
  writeFileSync(path, lines.join('\n') + '\n')
  return path
}

describe('the import\'s whole-log simulation', () => {
  it('reports jobs simulated of the jobs kept, then stops when the import is cancelled', async () => {
    const path = overloadedLog(60_000)
    const abort = new AbortController()
    const seen: ImportProgress[] = []
    const t0 = performance.now()
    const run = importLogFile(path, {}, (p) => {
      seen.push(p)
      if (p.simulated) abort.abort() // cancel as soon as the simulation has said where it is
    }, abort.signal)
    await expect(run).rejects.toThrow(/abort/i)
    expect(performance.now() - t0).toBeLessThan(30_000)
    const sim = seen.filter((p) => p.simulated)
    expect(sim.length).toBe(1) // nothing after the cancel
    const s = sim[0].simulated!
    expect(s.of).toBe(60_000) // every job kept (none is larger than the machine or overruns)
    expect(s.jobs).toBeGreaterThan(0)
    expect(s.jobs).toBeLessThan(60_000)
    // the reading was over: the bytes are all read
    expect(sim[0].bytesRead).toBe(sim[0].totalBytes)
    expect(sim[0].jobsRead).toBe(60_000)
  }, 60_000)

  it('a small log is simulated without a progress report of the simulation and with its timing', async () => {
    const path = join(dir, 'small.swf')
    writeFileSync(path, ['; MaxProcs: 4', '1 0 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1', '2 5 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 -1 -1 -1 -1'].join('\n') + '\n')
    const seen: ImportProgress[] = []
    const r = await importLogFile(path, {}, (p) => seen.push(p))
    expect(seen.some((p) => p.simulated)).toBe(false)
    expect(r.simSeconds).toBeGreaterThanOrEqual(0)
    expect(r.simSeconds).toBeLessThan(1)
    expect(r.workload.jobs.count).toBe(2)
  })
})

/** A sacct log (-P) of `jobs` one-node jobs on 4 nodes of 8 CPUs (named, so the machine is inferred
 * from them), overloaded: the node-level replay of the Inspect step takes more than a slice. */
function sacctOnNodes(jobs: number): string {
  const lines = ['JobID|User|Partition|Submit|Start|End|ElapsedRaw|Timelimit|NCPUS|NNodes|NodeList|State']
  let seed = 5
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
  const iso = (t: number) => new Date(Date.UTC(2024, 0, 1) + t * 1000).toISOString().slice(0, 19)
  let submit = 0
  for (let i = 1; i <= jobs; i++) {
    submit += Math.floor(rnd() * 10)
    const cpus = 1 + Math.floor(rnd() * 8), run = 60 + Math.floor(rnd() * 600), start = submit + Math.floor(rnd() * 3600)
    lines.push(`${i}|u${i % 7}|batch|${iso(submit)}|${iso(start)}|${iso(start + run)}|${run}|00:20:00|${cpus}|1|n${1 + (i % 4)}|COMPLETED`)
  }
  const path = join(dir, `sacct-${jobs}.psv`)
  writeFileSync(path, lines.join('\n') + '\n')
  return path
}

describe('the import\'s replay on the nodes a log names', () => {
  it('reports jobs simulated on the nodes (with their number), and the import\'s cancel stops it', async () => {
    const path = sacctOnNodes(40_000)
    const abort = new AbortController()
    const seen: ImportProgress[] = []
    const run = importLogFile(path, {}, (p) => {
      seen.push(p)
      if (p.simulated?.nodes !== undefined) abort.abort()
    }, abort.signal)
    await expect(run).rejects.toThrow(/abort/i)
    const onNodes = seen.filter((p) => p.simulated?.nodes !== undefined)
    expect(onNodes).toHaveLength(1) // nothing after the cancel
    expect(onNodes[0].simulated).toMatchObject({ nodes: 4, of: 40_000 })
    expect(onNodes[0].simulated!.jobs).toBeGreaterThan(0)
    expect(onNodes[0].simulated!.jobs).toBeLessThan(40_000)
  }, 120_000)

  it('gives the fidelity evaluate\'s calibration gives (the same baseline on the same inferred machine)', async () => {
    const path = sacctOnNodes(3_000)
    const r = await importLogFile(path, {})
    expect(r.inspect.machine).toMatch(/4 nodes/)
    const w = await readLog(path)
    const expected = baselineFidelity(w, campaignMachine(undefined, w), 'none')
    expect(expected).not.toBeNull()
    expect(r.inspect.fidelity).toEqual(expected)
  }, 60_000)
})

describe('the import\'s reading and hashing stop together', () => {
  it('a log refused while read rejects with the read\'s error (file and line), not the hashing\'s stop', async () => {
    const path = join(dir, 'long-line.swf')
    const job = '1 0 5 100 4 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1\n'
    writeFileSync(path, job.repeat(10) + 'x'.repeat((1 << 20) + 5) + '\n' + job.repeat(200_000))
    await expect(importLogFile(path, {})).rejects.toMatchObject({ name: 'FileInputError', file: path, line: 11, message: expect.stringMatching(/^line 11 is longer than 1 MiB/) })
  })

  it('an import cancelled before it starts rejects with AbortError', async () => {
    await expect(importLogFile(overloadedLog(100), {}, undefined, AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' })
  })
})
