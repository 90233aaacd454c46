// Merging the export into the site's slurm.conf (src/core/export/slurm-conf.ts, slurm.ts): every
// unrelated line kept, changes[] in words, approximate fidelity when fair-share stays, bf_window
// from the log and capped at Slurm's 43200, keep / insufficient-data, hostile files. Expected
// values are worked by hand from the site file in test/slurm/site-conf.ts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { Backend } from '../../src/backend/backend'
import { exportConfig, ExportInputError, InsufficientDataError } from '../../src/core/export/index'
import { parseSlurmConf, slurmMinutes, SlurmConfError } from '../../src/core/export/slurm-conf'
import { APPROXIMATE, MERGED_CONF_FILE } from '../../src/core/export/slurm'
import type { EvaluationResult } from '../../src/core/tune/result'
import type { ExportBundle } from '../../src/shared/api'
import { ExportOptionsSchema } from '../../src/shared/schemas'
import { runCli } from '../support/cli'
import { resultFor } from '../slurm/harness'
import { SITE_CHANGED, siteConf } from '../slurm/site-conf'

const tmp = mkdtempSync(join(tmpdir(), 'easytune-merge-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const SITE = siteConf({ dir: '/srv/slurm', ctldPort: 6817, nodePorts: [6818, 6819] })
const DAY = 86_400

/** A result recommending `primary`, whose log's longest request is `maxReq` seconds. */
function result(primary: unknown, maxReq: number | null = 3 * DAY, extra: (r: Record<string, any>) => void = () => {}): EvaluationResult { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = resultFor(primary) as unknown as Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
  if (maxReq !== null) r.log.maxRequestedSeconds = maxReq
  extra(r)
  return r as unknown as EvaluationResult
}
const merged = (b: ExportBundle) => b.files.find((f) => f.name === MERGED_CONF_FILE)!.content
const change = (b: ExportBundle, key: string) => b.changes!.find((c) => c.setting === key)

describe('merging into a realistic slurm.conf', () => {
  const b = exportConfig(result('SQF'), 'slurm', { currentConf: SITE })
  const out = merged(b).split('\n')

  it('keeps every line it does not change, verbatim and in order', () => {
    const changedLines = new Set(Object.values(SITE_CHANGED))
    const inLines = SITE.split('\n').filter((l) => !changedLines.has(l) && l !== 'bf_max_job_test=5000,bf_resolution=120')
    // each kept line appears in the output, in the same order
    let at = 0
    for (const l of inLines) {
      const i = out.indexOf(l, at)
      expect(i, `line kept: ${JSON.stringify(l)}`).toBeGreaterThanOrEqual(at)
      at = i + 1
    }
    // unrelated site policies among them
    for (const l of ['PriorityWeightFairshare=100000  # fair share first', 'priorityweightqos=20000', 'PriorityDecayHalfLife=7-0', 'PriorityMaxAge=14-0',
      'Include /srv/slurm/etc/auth.conf', 'Include /srv/slurm/etc/extra.conf']) expect(out).toContain(l)
    expect(out.filter((l) => /^PartitionName=/.test(l))).toHaveLength(2)
    expect(out.filter((l) => /^NodeName=/.test(l))).toHaveLength(2)
    expect(parseSlurmConf(merged(b)).get('privatedata')!.value).toBe('jobs,usage') // a continued line, kept as two lines
    // the header says what the file is, then the site's own first line
    expect(out[0]).toMatch(/^# EasyTune export for Slurm 22\.05: queue order SQF/)
    expect(out[3]).toBe('# slurm.conf of the "easytune" test site (Slurm 22.05)')
  })

  it('rewrites the changed keys where Slurm reads them, keeping their spelling and comments', () => {
    expect(out).toContain('PriorityWeightPartition=1100000000  # EasyTune: was PriorityWeightPartition=1000')
    expect(out).toContain('priorityweightage=0 # favour old jobs  # EasyTune: was priorityweightage=1000')
    expect(out).toContain('PRIORITYWEIGHTJOBSIZE=0  # EasyTune: was PRIORITYWEIGHTJOBSIZE=500')
    expect(out).toContain('PriorityFlags=SMALL_RELATIVE_TO_TIME,CALCULATE_RUNNING,NO_NORMAL_TRES  # EasyTune: was PriorityFlags=SMALL_RELATIVE_TO_TIME,CALCULATE_RUNNING')
    // the continued line is one line now; bf_window 1440 → 5760 (the long partition's 4 days), bf_max_job_test 5000 kept
    expect(out).toContain('SchedulerParameters=bf_interval=30,bf_window=5760,default_queue_depth=200,bf_max_job_test=5000,bf_resolution=120,bf_job_part_count_reserve=1,bf_continue'
      + '  # EasyTune: was SchedulerParameters=bf_interval=30,bf_window=1440,default_queue_depth=200,bf_max_job_test=5000,bf_resolution=120')
    // absent: appended at the end
    expect(out.slice(-3)).toEqual(['# --- added by EasyTune: settings this slurm.conf did not have ---', 'PriorityWeightTRES=CPU=-1', ''])
    // the merged file reads back with the new values and nothing lost
    const back = parseSlurmConf(merged(b))
    expect(back.get('PriorityWeightFairshare')!.value).toBe('100000')
    expect(back.get('SchedulerParameters')!.value).toMatch(/^bf_interval=30,bf_window=5760,/)
    expect(back.duplicates).toEqual([])
  })

  it('lists each change as {setting, from, to, why} in plain words, and nothing unchanged', () => {
    expect(b.changes!.map((c) => [c.setting, c.from, c.to])).toEqual([
      ['PriorityWeightPartition', '1000', '1100000000'],
      ['PriorityWeightAge', '1000', '0'],
      ['PriorityWeightJobSize', '500', '0'],
      ['PriorityWeightTRES', null, 'CPU=-1'],
      ['PriorityFlags', 'SMALL_RELATIVE_TO_TIME,CALCULATE_RUNNING', 'SMALL_RELATIVE_TO_TIME,CALCULATE_RUNNING,NO_NORMAL_TRES'],
      ['SchedulerParameters', 'bf_interval=30,bf_window=1440,default_queue_depth=200,bf_max_job_test=5000,bf_resolution=120',
        'bf_interval=30,bf_window=5760,default_queue_depth=200,bf_max_job_test=5000,bf_resolution=120,bf_job_part_count_reserve=1,bf_continue'],
    ])
    for (const c of b.changes!) expect(c.why.length, c.setting).toBeGreaterThan(20)
    expect(change(b, 'PriorityWeightTRES')!.why).toMatch(/priority moves by -1 per CPU/)
    expect(change(b, 'PriorityFlags')!.why).toMatch(/added NO_NORMAL_TRES; every other entry kept/)
    expect(change(b, 'SchedulerParameters')!.why).toMatch(/added bf_job_part_count_reserve=1; bf_window=1440 → bf_window=5760; added bf_continue; every other entry kept/)
    expect(change(b, 'SchedulerParameters')!.why).toMatch(/longest requested time in the log is 4,?320 min; the partitions' longest MaxTime is 5,?760 min/)
  })

  it('marks the export approximate when fair-share and QOS stay, comparing their range with the order\'s term', () => {
    // fair-share 100000 + QOS 20000 = 120000 points; SQF's term spans 16 − 1 = 15 points (1 per CPU)
    expect(b.approximate).toMatch(new RegExp(`^${APPROXIMATE}\\. Your fair-share \\(weight 100,?000\\), QOS \\(weight 20,?000\\) weights stay on`))
    expect(b.approximate).toMatch(/add up to 120,?000 priority points/)
    expect(b.approximate).toMatch(/spans about 15 points, so jobs whose order terms differ by less than 120,?000 points \(all of them\) can swap/)
    // with the weights at 0, exact again
    const exact = exportConfig(result('SQF'), 'slurm', { currentConf: SITE.replace('PriorityWeightFairshare=100000', 'PriorityWeightFairshare=0').replace('priorityweightqos=20000', 'priorityweightqos=0') })
    expect(exact.approximate).toBeNull()
    // FCFS gives every job the same priority: fair-share alone decides
    expect(exportConfig(result('FCFS'), 'slurm', { currentConf: SITE }).approximate).toMatch(/these terms alone decide the order/)
  })

  it('reports Include lines (kept, not read) and duplicate keys (last wins: the earlier copy commented out)', () => {
    expect(b.notes!.filter((n) => /^Include /.test(n))).toEqual([
      expect.stringMatching(/^Include \/srv\/slurm\/etc\/auth\.conf \(line 8\) is kept but was not read: .*overrides this merge/),
      expect.stringMatching(/^Include \/srv\/slurm\/etc\/extra\.conf \(line 51\) is kept but was not read/),
    ])
    const dup = SITE.replace('# --- scheduling ---', 'SchedulerParameters=bf_interval=99 # old\nPriorityWeightQOS=5')
    const d = exportConfig(result('SQF'), 'slurm', { currentConf: dup })
    expect(d.notes).toContain('SchedulerParameters is set 2 times (lines 47, 50); Slurm uses the last (line 50): EasyTune changed that one and commented out the earlier ones.')
    expect(d.notes).toContain('PriorityWeightQOS is set 2 times (lines 39, 48); Slurm uses the last (line 48): kept as is.')
    const lines = merged(d).split('\n')
    expect(lines).toContain('#[EasyTune: SchedulerParameters set again later, Slurm uses the later line] SchedulerParameters=bf_interval=99 # old')
    expect(lines).toContain('PriorityWeightQOS=5')
    expect(parseSlurmConf(merged(d)).all('SchedulerParameters')).toHaveLength(1)
  })

  it('merges JobSubmitPlugins as a set (a plugin prefix is the same plugin)', () => {
    const withPlugins = (v: string) => exportConfig(result('SPF'), 'slurm', { currentConf: `${SITE}JobSubmitPlugins=${v}\n` })
    expect(change(withPlugins('job_submit/require_timelimit'), 'JobSubmitPlugins')).toMatchObject({ from: 'job_submit/require_timelimit', to: 'job_submit/require_timelimit,lua' })
    expect(change(withPlugins('job_submit/lua,pbs'), 'JobSubmitPlugins')).toBeUndefined()
    expect(change(exportConfig(result('SPF'), 'slurm', { currentConf: SITE }), 'JobSubmitPlugins')).toMatchObject({ from: null, to: 'lua' })
  })

  it('does not write a key the file lacks when the order wants Slurm\'s default for it', () => {
    // SPF: no CPU term (PriorityWeightTRES unset = no TRES weight); SchedulerType's default is sched/backfill
    const b = exportConfig(result('SPF'), 'slurm', { currentConf: SITE.replace('SchedulerType=sched/backfill\n', '') })
    expect(b.changes!.map((c) => c.setting)).toEqual(['PriorityWeightPartition', 'PriorityWeightAge', 'PriorityWeightJobSize', 'JobSubmitPlugins', 'SchedulerParameters'])
    expect(merged(b)).not.toMatch(/^(PriorityWeightTRES|SchedulerType)=/m)
    // present with another value: changed
    expect(change(exportConfig(result('SPF'), 'slurm', { currentConf: `${SITE}PriorityWeightTRES=CPU=100,Mem=50\n` }), 'PriorityWeightTRES')).toMatchObject({ from: 'CPU=100,Mem=50', to: 'CPU=0' })
  })

  it('changes nothing the file already has right, and says nothing for it', () => {
    const right = merged(b)
    const again = exportConfig(result('SQF'), 'slurm', { currentConf: right })
    expect(again.changes).toEqual([])
    expect(merged(again).split('\n').slice(3)).toEqual(right.split('\n')) // only the header is new
  })
})

describe('bf_window', () => {
  const sched = (b: ExportBundle, name = MERGED_CONF_FILE) => /^SchedulerParameters=(\S*)/m.exec(b.files.find((f) => f.name === name)!.content)![1]
  const bfOf = (b: ExportBundle, name?: string) => Number(/bf_window=(\d+)/.exec(sched(b, name))![1])

  it('is the longest requested time in the log, in minutes (rounded up), without a current file', () => {
    expect(bfOf(exportConfig(result('SQF', 5 * DAY - 30), 'slurm'), 'slurm.conf.easytune')).toBe(7200) // 7,199.5 min → 7,200
    expect(bfOf(exportConfig(result('SQF', null), 'slurm'), 'slurm.conf.easytune')).toBe(10_080) // not recorded: 7 days
  })
  it('follows the log when no partition has a MaxTime, and keeps a larger current value', () => {
    const noMax = SITE.replace(/ MaxTime=\S+/g, '')
    expect(bfOf(exportConfig(result('SQF', 2 * DAY + 1), 'slurm', { currentConf: noMax }))).toBe(2881) // 2,880 min + 1 s → 2,881
    expect(bfOf(exportConfig(result('SQF', 600), 'slurm', { currentConf: noMax }))).toBe(1440) // the site's 1440 is larger than 10 min
    expect(bfOf(exportConfig(result('SQF', null), 'slurm', { currentConf: noMax.replace('bf_window=1440,', '') }))).toBe(10_080) // nothing known: 7 days
  })
  it('is capped at 43200 (Slurm rejects more) and says so when requests exceed 30 days', () => {
    const b = exportConfig(result('SQF', 60 * DAY), 'slurm', { currentConf: SITE })
    expect(bfOf(b)).toBe(43_200)
    expect(b.notes!.join('\n')).toMatch(/Requests reach 60 d(ays)?, more than 30 days: bf_window is capped at 43,?200 min, Slurm's maximum \(a larger value is rejected and falls back to one day\)/)
    const frag = exportConfig(result('SQF', 60 * DAY), 'slurm')
    expect(bfOf(frag, 'slurm.conf.easytune')).toBe(43_200)
    expect(frag.notes!.join('\n')).toMatch(/more than 30 days/)
    // a partition without limit, and an invalid current value
    const inf = exportConfig(result('SQF', DAY), 'slurm', { currentConf: SITE.replace('MaxTime=4-00:00:00', 'MaxTime=INFINITE').replace('bf_window=1440', 'bf_window=50000') })
    expect(bfOf(inf)).toBe(2880)
    expect(inf.notes!.join('\n')).toMatch(/Partition long has MaxTime=INFINITE/)
    expect(inf.notes!.join('\n')).toMatch(/Your bf_window=50000 is outside 1–43,?200 minutes: slurmctld rejects it/)
  })
  it('reads Slurm times', () => {
    expect(['90', '10:30', '1:30:00', '2-0', '2-00:00:00', '4-12', '1-2:3', '1-0:0:1', 'INFINITE', 'unlimited', 'x', '1:2:3:4'].map(slurmMinutes))
      .toEqual([90, 11, 90, 2880, 2880, 6480, 1563, 1441, Infinity, Infinity, null, null])
  })
})

describe('the fragment without a current configuration', () => {
  it('says in its first lines which site policies it overrides', () => {
    const conf = exportConfig(result('SPF'), 'slurm').files[0].content.split('\n')
    expect(conf[0]).toBe('# Pasted at the end of slurm.conf, this fragment OVERRIDES these site policies:')
    expect(conf[1]).toMatch(/^# {3}- PriorityWeightFairshare=0, PriorityWeightQOS=0 and PriorityWeightAssoc=0: fair-share, QOS and association priorities stop acting;$/)
    expect(conf.slice(0, 10).join('\n')).toMatch(/JobSubmitPlugins=lua replaces your whole list/)
    expect(conf.slice(0, 10).join('\n')).toMatch(/SchedulerParameters replaced as a whole/)
    expect(conf.slice(0, 12).join('\n')).toMatch(/--current-conf/)
  })
})

describe('verdicts', () => {
  it('keep (v2 verdict, or a v1 result recommending the baseline) exports nothing and says so', () => {
    const v2 = result('SPF', DAY, (r) => { r.schemaVersion = 2; r.recommendation = { sentence: 'x', verdict: 'keep' } })
    const v1 = result('FCFS', DAY, (r) => { r.candidates[0].baseline = true })
    for (const r of [v2, v1]) {
      const b = exportConfig(r, 'slurm', { currentConf: SITE })
      expect(b.files).toEqual([])
      expect(b.changes).toEqual([])
      expect(b.notes!.join(' ')).toMatch(/keep.*nothing is exported/)
    }
  })
  it('insufficient-data refuses with the reason', () => {
    const r = result('SPF', DAY, (x) => { x.schemaVersion = 2; x.recommendation = { sentence: 'x', verdict: 'insufficient-data', reason: 'the train part has 3 weeks, fewer than 8\u0007' }; delete x.recommended })
    expect(() => exportConfig(r, 'slurm')).toThrow(InsufficientDataError)
    expect(() => exportConfig(r, 'slurm')).toThrow(/too little data to recommend an order\), so there is nothing to export: the train part has 3 weeks, fewer than 8$/)
    expect(() => exportConfig(result('SPF', DAY, (x) => { x.recommendation = { verdict: 'maybe' } }), 'slurm')).toThrow(/verdict must be switch, keep or insufficient-data/)
  })
})

describe('hostile slurm.conf', () => {
  const err = (text: string) => { try { parseSlurmConf(text); return null } catch (e) { expect(e).toBeInstanceOf(SlurmConfError); return (e as Error).message } }
  it('refuses NUL, binary, huge lines and non-settings with the line named', () => {
    expect(err('A=1\nB=2\u0000x\n')).toBe('slurm.conf line 2 holds a NUL character at column 4: a slurm.conf is plain text')
    expect(err('A=1\n\n\u00ff\ufffd\u0001')).toMatch(/^slurm\.conf line 3 holds bytes that are not text at column 2/)
    expect(err(`A=1\nB=${'x'.repeat(70_000)}`)).toMatch(/^slurm\.conf line 2 is 70002 characters long/)
    expect(err('A=1\nthis is prose\n')).toBe('slurm.conf line 2: "this" is not a Key=Value setting')
    expect(err('A="unclosed\n')).toMatch(/line 1: the quote after A= is never closed/)
    expect(err('=5\n')).toMatch(/line 1: "=5" is not a Key=Value setting/)
    expect(() => parseSlurmConf('A=1\n'.repeat(600_000))).toThrow(/at most 2000000/)
    expect(() => parseSlurmConf(42)).toThrow(/must be text/)
  })
  it('reads Windows line ends and a byte-order mark, and says the merged file has neither', () => {
    const b = exportConfig(result('SQF'), 'slurm', { currentConf: `\ufeff${SITE.replace(/\n/g, '\r\n')}` })
    expect(merged(b)).toBe(merged(exportConfig(result('SQF'), 'slurm', { currentConf: SITE })))
    expect(b.notes!.slice(0, 2)).toEqual(['In the merged file, the byte-order mark at the start was removed.', 'In the merged file, Windows line ends (CR LF) became Unix ones (LF).'])
  })
  it('reads pathological but legal lines in linear time', () => {
    const t0 = Date.now()
    expect(parseSlurmConf(`A${' '.repeat(65_000)}=1\nB=${'x '.repeat(15_000)}`.replace(/x /g, 'x=1 ')).get('A')!.value).toBe('1')
    expect(() => parseSlurmConf(`A=1${' '.repeat(65_000)}B`)).toThrow(/line 1: "B" is not a Key=Value setting/)
    expect(() => parseSlurmConf(`${'\\\n'.repeat(100_000)}A=1`)).not.toThrow() // 100,000 continued empty lines
    expect(Date.now() - t0).toBeLessThan(2000)
  })
  it('never crashes on random bytes: either reads them or refuses in words', () => {
    let seed = 7
    const rnd = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31)
    const alphabet = 'Aa=#\\ \n\t,"x1-:\u0000\u00e9'
    for (let k = 0; k < 300; k++) {
      const text = Array.from({ length: 1 + Math.floor(rnd() * 200) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('')
      try {
        const b = exportConfig(result('SPF'), 'slurm', { currentConf: text })
        expect(parseSlurmConf(merged(b))).toBeTruthy() // the merged file reads back
      } catch (e) {
        expect(e, JSON.stringify(text)).toBeInstanceOf(ExportInputError)
      }
    }
  })
  it('passes through Backend.exportConfig (the operation the GUI calls)', async () => {
    const backend = new Backend({ mode: 'browser', stateDir: join(tmp, 'state'), cacheDir: null })
    try {
      const b = backend.exportConfig(result('SQF'), 'slurm', { currentConf: SITE })
      expect(b.files[0].name).toBe('slurm.conf')
      expect(b.changes).toEqual(exportConfig(result('SQF'), 'slurm', { currentConf: SITE }).changes)
    } finally { await backend.close() }
  })
  it('bounds the text in the API contract', () => {
    expect(ExportOptionsSchema.safeParse({ currentConf: SITE }).success).toBe(true)
    expect(ExportOptionsSchema.safeParse({ currentConf: 'x'.repeat(2_000_001) }).success).toBe(false)
  })
})

describe('easytune export --current-conf', () => {
  const write = (name: string, content: string) => { const p = join(tmp, name); writeFileSync(p, content); return p }
  it('writes the whole merged slurm.conf and changes[] in the JSON', async () => {
    const res = write('spf.json', JSON.stringify(result('SPF', 3 * DAY)))
    const conf = write('slurm.conf', SITE)
    const out = join(tmp, 'out')
    const r = await runCli(['export', res, '--target', 'slurm', '--current-conf', conf, '--out', out, '--json'])
    expect(r.code, r.stderr).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.schemaVersion).toBe(2)
    expect(j.files.map((f: { name: string }) => f.name)).toEqual(['slurm.conf', 'job_submit.lua', 'easytune-recommendation.json'])
    expect(j.changes.map((c: { setting: string }) => c.setting)).toContain('JobSubmitPlugins')
    expect(j.approximate).toMatch(/^approximate: fair-share and QOS also act/)
    expect(readFileSync(join(out, 'slurm.conf'), 'utf8')).toContain('PriorityWeightFairshare=100000  # fair share first')
    const text = await runCli(['export', res, '--target', 'slurm', '--current-conf', conf, '--out', out])
    expect(text.stdout).toMatch(/Settings changed \(from → to: why\):\n {2}- PriorityWeightPartition: 1000 → 1100000000: /)
  })
  it('keep: exit 0, no file, changes []; insufficient-data: exit 2 with the reason; a bad file: exit 2 naming the line', async () => {
    const keep = write('keep.json', JSON.stringify(result('SPF', DAY, (r) => { r.schemaVersion = 2; r.recommendation = { sentence: 'x', verdict: 'keep' } })))
    const k = await runCli(['export', keep, '--target', 'slurm', '--current-conf', write('s2.conf', SITE), '--out', join(tmp, 'keep'), '--json'])
    expect(k.code).toBe(0)
    expect(JSON.parse(k.stdout)).toMatchObject({ files: [], changes: [] })
    const none = write('none.json', JSON.stringify(result('SPF', DAY, (r) => { r.schemaVersion = 2; r.recommendation = { sentence: 'x', verdict: 'insufficient-data', reason: 'only 3 weeks' }; delete r.recommended })))
    const n = await runCli(['export', none, '--target', 'slurm', '--out', join(tmp, 'none')])
    expect(n.code).toBe(2)
    expect(n.stderr).toMatch(/too little data to recommend an order\), so there is nothing to export: only 3 weeks/)
    const bad = await runCli(['export', write('ok.json', JSON.stringify(result('SPF'))), '--target', 'slurm', '--current-conf', write('bad.conf', 'A=1\n\u0000'), '--out', join(tmp, 'bad')])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/bad\.conf: slurm\.conf line 2 holds a NUL character/)
    expect((await runCli(['export', keep, '--target', 'pbs', '--current-conf', join(tmp, 's2.conf'), '--out', tmp])).code).toBe(2)
  })
})
