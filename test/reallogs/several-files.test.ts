// The Rackham daily jobcomp files of ../shared/data (one day each, unusable alone) imported as
// one log, the gap between them reported, and simulated. Expected values come from a plain
// reading of the files (count the `submit=` fields per file and per day), not from EasyTune.
import { gunzipSync } from 'node:zlib'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { requireData } from '../support/data'
import { runCli } from '../support/cli'

const DAY = 86400

describe('Rackham daily jobcomp files as one log', () => {
  it('imports the folder as one log, reports the gap between the days, and simulates it', { timeout: 120_000 }, async (ctx) => {
    const folder = requireData(ctx, 'slurm/rackham-uppmax-jobcomp')
    const names = ['2021-05-30.anon.gz', '2021-06-15.anon.gz']
    const submits = names.map((n) => [...gunzipSync(readFileSync(join(folder, n))).toString('utf8').matchAll(/ submit=(\d+)/g)].map((m) => Number(m[1])))
    const r = await runCli(['import', folder, '--json'])
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(/2 files taken, by name: 2021-05-30\.anon\.gz, 2021-06-15\.anon\.gz/)
    const rep = JSON.parse(r.stdout)
    // Every line is a job; the parser sets aside those that never started, counted once over both files.
    expect(rep.files.map((f: { name: string }) => f.name)).toEqual(names)
    const neverStarted = rep.rules.find((x: { rule: string }) => x.rule === 'slurm-never-started').count
    expect(rep.files[0].jobsRead + rep.files[1].jobsRead + neverStarted).toBe(submits[0].length + submits[1].length)
    expect(rep.linesRead).toBe(submits[0].length + submits[1].length)
    // Job ids of the two days do not overlap: nothing is kept twice.
    expect(rep.duplicates).toBe(0)
    // Each file's bulk of submits is its own day (and the day before); the jobs that ended on
    // 15 June but were submitted from 19 May on are a few hundred stragglers. So one gap, from
    // 30 May to 8 June (the 156th earliest submit of the 15 June file falls on 8 June).
    expect(rep.gaps).toHaveLength(1)
    const g = rep.gaps[0]
    expect([g.before, g.after]).toEqual(names)
    expect(g.fromIso.slice(0, 10)).toBe('2021-05-30')
    expect(g.toIso.slice(0, 10)).toBe('2021-06-08')
    expect(g.seconds).toBeGreaterThan(7 * DAY)
    expect(g.seconds).toBeLessThan(10 * DAY)
    expect(rep.warnings.join(' ')).toMatch(/Gap of \d\.\d days between 2021-05-30\.anon\.gz and 2021-06-15\.anon\.gz/)
    const text = await runCli(['import', ...names.map((n) => join(folder, n))])
    expect(text.stdout).toMatch(/Files \(2, read as one log\)/)
    expect(text.stdout).toMatch(/Gap: the files' submissions leave .* uncovered between 2021-05-30\.anon\.gz and 2021-06-15\.anon\.gz/)

    const sim = await runCli(['simulate', folder, '--json'])
    expect(sim.code).toBe(0)
    const out = JSON.parse(sim.stdout)
    expect(out.log.jobsRead).toBe(rep.jobsRead)
    expect(sim.stderr).toMatch(new RegExp(`simulated ${rep.jobsKept.toLocaleString('en-US')} jobs`))
  })
})
