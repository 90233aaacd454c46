// Several files as one log (issue #20): a site's accounting kept as daily jobcomp files. The
// expected values are worked by hand from the hand-made files below: times are hours after
// T0 = 2021-06-01 00:00 UTC.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { mergeParsedLogs } from '../../src/core/workload/merge'
import { createJobcompParser } from '../../src/core/workload/jobcomp'
import type { ParsedLog } from '../../src/core/workload/types'
import { readLogs } from '../../src/node/read-log'
import { runCli } from '../support/cli'

const T0 = 1622505600 // 2021-06-01T00:00:00Z
const H = 3600
/** One jobcomp line: submitted at T0 + `at` seconds, waits 60 s, runs 600 s on 1 processor, limit 1 h. */
const line = (id: number, at: number, user: string) => {
  const submit = T0 + at
  const end = submit + 60 + 600
  return `2021-06-01 00:00:00 jobstate=COMPLETED jobid=${id} username=${user} account=acc start=${submit + 60} end=${end} submit=${submit} nodes=r1 procs=1 batch=yes jobname=j partition=core limit=01:00:00`
}
const A = [line(1, 0, 'alice'), line(2, 1 * H, 'alice'), line(3, 2 * H, 'alice')].join('\n') + '\n'
const B = [line(3, 2 * H, 'alice'), line(4, 3 * H, 'bob')].join('\n') + '\n' // job 3 again: same id and submit
const C = line(5, 72 * H, 'bob') + '\n' // three days after T0
const SWF = '; MaxProcs: 8\n1 0 -1 600 1 -1 -1 1 3600 -1 1 1 1 -1 -1 -1 -1 -1\n'

const parse = (text: string): ParsedLog => {
  const p = createJobcompParser()
  p.feed(new TextEncoder().encode(text))
  return p.end()
}

let dir: string
const file = (name: string, content: string) => { const p = join(dir, name); writeFileSync(p, content); return p }
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'easytune-files-')) })

describe('merging parsed files (pure)', () => {
  it('keeps a job present in two files once, counts it, and merges users by name', () => {
    const m = mergeParsedLogs([{ name: 'a', log: parse(A) }, { name: 'b', log: parse(B) }])
    expect(m.log.jobs.count).toBe(4)
    expect(m.duplicates).toBe(1)
    expect([...m.log.jobs.id]).toEqual([1, 2, 3, 4])
    expect(m.log.users.sort()).toEqual(['alice', 'bob'])
    expect(m.files.map((f) => [f.name, f.jobsRead, f.duplicates, f.firstSubmit, f.lastSubmit])).toEqual([['a', 3, 0, 0, 2 * H], ['b', 2, 1, 2 * H, 3 * H]])
    expect(m.gaps).toEqual([])
    expect(m.log.unixStartTime).toBe(T0)
  })

  it('aligns each file on the calendar: a later file keeps its own dates', () => {
    const m = mergeParsedLogs([{ name: 'c', log: parse(C) }, { name: 'a', log: parse(A) }])
    // c's own start is T0 + 72 h; the merged log starts at T0 (a's first submit).
    expect(m.log.unixStartTime).toBe(T0)
    expect(m.files[0].firstSubmit).toBe(72 * H)
  })

  it('reports a day or more without submits between files, whatever their order', () => {
    const m = mergeParsedLogs([{ name: 'c', log: parse(C) }, { name: 'a', log: parse(A) }, { name: 'b', log: parse(B) }])
    // b's last submit is at 3 h, c's first at 72 h: 69 h uncovered.
    expect(m.gaps).toEqual([{ before: 'b', after: 'c', from: 3 * H, to: 72 * H, seconds: 69 * H }])
    expect(m.log.warnings.join(' ')).toMatch(/Gap of 2\.9 days between b and c/)
  })

  it('refuses files of different formats, naming the odd one', () => {
    const swf = createJobcompParser() // a jobcomp log relabelled: only the format matters here
    swf.feed(new TextEncoder().encode(A))
    const odd = { ...swf.end(), format: 'swf' as const }
    expect(() => mergeParsedLogs([{ name: 'a', log: parse(A) }, { name: 'odd.swf', log: odd }])).toThrow(/odd\.swf is a swf log while a is a jobcomp log/)
  })
})

describe('readLogs: several files cleaned once', () => {
  it('imports two files as one log; the report lists each file', async () => {
    const w = await readLogs([file('a.log', A), file('b.log', B)])
    expect(w.jobs.count).toBe(4)
    expect(w.report.duplicates).toBe(1)
    expect(w.report.files!.map((f) => [f.name, f.jobsRead, f.startIso, f.endIso])).toEqual([
      ['a.log', 3, '2021-06-01T00:00:00.000Z', '2021-06-01T02:00:00.000Z'],
      ['b.log', 2, '2021-06-01T02:00:00.000Z', '2021-06-01T03:00:00.000Z'],
    ])
    expect(w.report.span.seconds).toBe(3 * H)
  })
})

describe('easytune <command> with several files', () => {
  it('import: lists every file, the duplicates kept once and the gap', async () => {
    const r = await runCli(['import', file('a.log', A), file('b.log', B), file('c.log', C)])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/Files \(3, read as one log; 1 jobs found in several files kept once\)/)
    expect(r.stdout).toMatch(/^a\.log +3 +0 +2021-06-01 00:00 +2021-06-01 02:00$/m)
    expect(r.stdout).toMatch(/^b\.log +2 +1 +2021-06-01 02:00 +2021-06-01 03:00$/m)
    expect(r.stdout).toMatch(/Gap: .* between b\.log and c\.log \(2021-06-01 03:00 to 2021-06-04 00:00\)/)
    const j = await runCli(['import', file('a.log', A), file('b.log', B), '--json'])
    const rep = JSON.parse(j.stdout)
    expect([rep.jobsRead, rep.jobsKept, rep.duplicates, rep.files.length]).toEqual([4, 4, 1, 2])
  })

  it('refuses mixed formats with exit 2, naming the odd file and its detected format', async () => {
    const r = await runCli(['import', file('a.log', A), file('odd.swf', SWF)])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/odd\.swf: is a swf log \(detected\) while .*a\.log is a jobcomp log/)
  })

  it('takes a folder: its regular files by name, hidden files and sub-folders left out, and says which', async () => {
    const folder = join(dir, 'daily')
    mkdirSync(join(folder, 'sub'), { recursive: true })
    writeFileSync(join(folder, 'b.log'), B)
    writeFileSync(join(folder, 'a.log'), A)
    writeFileSync(join(folder, '.notes'), 'not a log')
    const r = await runCli(['import', folder, '--json'])
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(/daily: 2 files taken, by name: a\.log, b\.log\n/)
    expect(JSON.parse(r.stdout).files.map((f: { name: string }) => f.name)).toEqual(['a.log', 'b.log'])
    const empty = join(dir, 'empty')
    mkdirSync(empty)
    const e = await runCli(['import', empty])
    expect(e.code).toBe(2)
    expect(e.stderr).toMatch(/empty: is a folder with no log file in it/)
  })

  it('simulate reads the files as one log', async () => {
    const r = await runCli(['simulate', file('a.log', A), file('b.log', B), '--procs', '4', '--json'])
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout)
    // Jobs 1–4 (job 3 once), one processor each, an hour apart and 10 min long: none waits.
    expect([out.log.jobsRead, out.log.machineProcs, out.avgWait]).toEqual([4, 4, 0])
    expect(out.perUser.map((u: { user: string; jobs: number }) => [u.user, u.jobs]).sort()).toEqual([['alice', 3], ['bob', 1]])
    expect(r.stderr).toMatch(/simulated 4 jobs/)
  })
})

describe('what is not a duplicate', () => {
  it('keeps jobs of one file that share an id and submit time (SLURM array tasks), and a different record across files', () => {
    const twice = [line(7, 0, 'alice'), line(7, 0, 'alice')].join('\n') + '\n'
    const other = line(7, 0, 'bob') + '\n' // same id and submit, another user: another job
    const m = mergeParsedLogs([{ name: 'a', log: parse(twice) }, { name: 'b', log: parse(other) }])
    expect([m.log.jobs.count, m.duplicates]).toEqual([3, 0])
    const again = mergeParsedLogs([{ name: 'a', log: parse(twice) }, { name: 'b', log: parse(twice) }])
    expect([again.log.jobs.count, again.duplicates]).toEqual([2, 2])
  })
})
