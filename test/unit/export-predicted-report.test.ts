// The report's time-limits section (docs/PREDICTIONS.md §Deployment, part b): the users and
// partitions to start with, from the walltimes analysis; users pseudonymised by default, even when
// the analysis holds real names; hostile input refused in words; the suggested DefaultTime.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildReportModel, type Block } from '../../src/core/export/report-model'
import { suggestedDefaultMinutes, validateWalltimes, walltimesSection } from '../../src/core/export/report-walltimes'
import { analyzeWalltimes } from '../../src/core/predict/walltimes'
import type { JobTable } from '../../src/core/workload/types'
import { renderReportHtml } from '../../src/node/report/index'
import { runCli } from '../support/cli'

// Three users, two partitions, one CPU per job; 60 jobs so that every user and partition is named.
// alice asks 10 h and runs 1 h (ratio 10), bob asks 2 h and runs 1 h (ratio 2), carol asks 1 h and
// runs 1 h (ratio 1). alice and bob submit to "batch", carol to "short".
const USERS = ['alice.smith', 'bob.jones', 'carol.white']
function jobs(): JobTable {
  const rows: { u: number; req: number; p: number; part: number }[] = []
  for (let k = 0; k < 20; k++) rows.push({ u: 0, req: 36_000, p: 3600, part: 0 }, { u: 1, req: 7200, p: 3600, part: 0 }, { u: 2, req: 3600, p: 3600, part: 1 })
  const n = rows.length
  const f = (g: (r: typeof rows[number], k: number) => number) => Float64Array.from(rows, g)
  const i = (g: (r: typeof rows[number]) => number) => Int32Array.from(rows, g)
  return {
    count: n, id: f((_, k) => k + 1), submit: f((_, k) => k * 10), runtime: f((r) => r.p), requested: f((r) => r.req),
    procs: i(() => 1), user: i((r) => r.u), recordedWait: f(() => NaN), line: i(() => 1), partition: i((r) => r.part),
  }
}
const analysis = (names: boolean) => JSON.parse(JSON.stringify(analyzeWalltimes({ name: 'test', jobs: jobs(), users: USERS, partitions: ['batch', 'short'] }, { names })))
const text = (blocks: Block[]) => JSON.stringify(blocks)
const table = (blocks: Block[], head: string) => blocks.find((b): b is Extract<Block, { kind: 'table' }> => b.kind === 'table' && b.caption.startsWith(head))

describe('the report\'s time-limits section', () => {
  it('names the users to start with by pseudonym by default, even from an analysis with real names', () => {
    for (const names of [false, true]) {
      const s = walltimesSection(analysis(names))
      expect(s.title).toBe('Time limits: user education and default limits per partition')
      for (const u of USERS) expect(text(s.blocks), `analysis names=${names}`).not.toContain(u)
      const t = table(s.blocks, 'Ranked by')!
      // alice over-asks 20 × 9 h = 180 CPU-hours, bob 20 × 1 h = 20: alice first (user-001)
      expect(t.rows[0].slice(0, 3)).toEqual(['1', 'user-001', '20'])
      expect(t.rows[0][3]).toBe('10.00×')
      expect(t.rows[0][5]).toBe('180 CPU-hours')
    }
  })

  it('shows real names only when asked and when the analysis holds them', () => {
    const s = walltimesSection(analysis(true), { names: true })
    expect(table(s.blocks, 'Ranked by')!.rows[0][1]).toBe('alice.smith')
    expect(text(s.blocks)).toContain('keep this report on the machine that made it')
    // an analysis made without names has none to show
    expect(text(walltimesSection(analysis(false), { names: true }).blocks)).not.toContain('alice')
  })

  it('suggests a DefaultTime per partition from its runtimes, under the analysis\'s rule, at most its common limit', () => {
    expect(suggestedDefaultMinutes({ runtimeP90: 3600, commonLimit: { seconds: 36_000, share: 0.5 } })).toBe(60)
    expect(suggestedDefaultMinutes({ runtimeP90: 3601, commonLimit: { seconds: 36_000, share: 0.5 } })).toBe(75) // rounded up to 15 min
    expect(suggestedDefaultMinutes({ runtimeP90: 1790, commonLimit: { seconds: 3600, share: 0.9 } })).toBe(30)
    expect(suggestedDefaultMinutes({ runtimeP90: 10, commonLimit: { seconds: 600, share: 0.6 } })).toBe(10) // at most the limit asked
    // the analysis's rule for a lower default: half of the jobs on one limit, 90 % within half of it
    expect(suggestedDefaultMinutes({ runtimeP90: 1801, commonLimit: { seconds: 3600, share: 0.9 } })).toBeNull()
    expect(suggestedDefaultMinutes({ runtimeP90: 60, commonLimit: { seconds: 3600, share: 0.49 } })).toBeNull()
    const t = table(walltimesSection(analysis(false)).blocks, 'Suggested DefaultTime')
    expect(t).toBeDefined()
    expect(t!.rows[0][0]).toBe('batch') // partitions keep their names
    expect(t!.rows[0][6]).toBe('60 min')
  })

  it('says so when the log records no users', () => {
    const t = jobs(); t.user.fill(-1)
    const w = JSON.parse(JSON.stringify(analyzeWalltimes({ name: 'test', jobs: t, users: [], partitions: ['batch', 'short'] })))
    const s = walltimesSection(w)
    expect(text(s.blocks)).toContain('The log records no users')
    expect(table(s.blocks, 'Ranked by')).toBeUndefined()
  })

  it('refuses a file that is not a walltimes analysis, naming the field', () => {
    expect(() => validateWalltimes({})).toThrow(/schemaVersion/)
    const bad = analysis(false); bad.users[0].ratio.p50 = 'x'
    expect(() => validateWalltimes(bad)).toThrow(/users\.0\.ratio\.p50 should be a number/)
    const long = analysis(false); long.users[0].name = 'x'.repeat(500)
    expect(() => validateWalltimes(long)).toThrow(/users\.0\.name/)
  })

  it('is a section of the report model and of the HTML, after the exports, only when given', () => {
    const result = JSON.parse(readFileSync('test/fixtures/results/kth-v2-switch.json', 'utf8'))
    const ids = (w?: unknown) => buildReportModel(result, [], { walltimes: w }).sections.map((s) => s.id)
    expect(ids()).not.toContain('time-limits')
    const withIt = ids(analysis(true))
    expect(withIt.indexOf('time-limits')).toBe(withIt.indexOf('export') + 1)
    const html = renderReportHtml(result, null, { generatedAt: 'now', walltimes: analysis(true) })
    expect(html).toContain('Time limits: user education and default limits per partition')
    expect(html).toContain('user-001')
    expect(html).not.toContain('alice.smith')
  })
})

describe('easytune report --walltimes', () => {
  it('adds the section, pseudonymised unless --names; refuses a bad file and --names alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'easytune-report-w-'))
    try {
      const w = join(dir, 'w.json'), out = join(dir, 'r.html')
      writeFileSync(w, JSON.stringify(analysis(true)))
      const r = await runCli(['report', 'test/fixtures/results/kth-v2-switch.json', '--walltimes', w, '--out', out])
      expect(r.code, r.stderr).toBe(0)
      expect(readFileSync(out, 'utf8')).toContain('user-001')
      expect(readFileSync(out, 'utf8')).not.toContain('alice.smith')
      expect((await runCli(['report', 'test/fixtures/results/kth-v2-switch.json', '--walltimes', w, '--names', '--out', out])).code).toBe(0)
      expect(readFileSync(out, 'utf8')).toContain('alice.smith')
      writeFileSync(w, '{"schemaVersion": 99}')
      const bad = await runCli(['report', 'test/fixtures/results/kth-v2-switch.json', '--walltimes', w, '--out', out])
      expect(bad.code).toBe(2)
      expect(bad.stderr).toContain('schemaVersion')
      expect((await runCli(['report', 'test/fixtures/results/kth-v2-switch.json', '--names', '--out', out])).code).toBe(2)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
