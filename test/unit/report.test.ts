// The offline report without a browser: the result check (hostile input), the model (sections,
// numbers with units, citations, exports), the chart builders (JSON-safe, labelled axes, the
// right points) and the HTML (self-contained, escaped, no external URL), plus the CLI's exits.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildReportModel, dataCitations, validateResult, type Block } from '../../src/core/export/report-model'
import type { EvaluationResult } from '../../src/core/tune/result'
import { defaultExports, renderReportHtml } from '../../src/node/report/index'
import type { ExportBundle } from '../../src/shared/api'
import { buildChart, CHART_IDS, PALETTE, scatterRisk, thresholdTradeoff, tooltipLabel, trainVsTest, weeklyDistribution, withTooltips, type ChartPoint } from '../../src/shared/charts'
import { runCli } from '../support/cli'

const EVIL = '<img src=x onerror=alert(1)></script><script>alert(2)</script>\u2028\u2029"q" & \'a\' <!--'

const part = (gain: number, maxRatio: number, extra: Record<string, unknown> = {}) => ({
  mean: 1000 * (1 - gain), baselineMean: 1000, gain, gainCi: [gain - 0.05, gain + 0.05], meanRatio: 1 - gain, p10Ratio: 0.7, p90Ratio: 1.1, ratioWeeks: 4,
  ratioOfSums: 1 - gain, meanMaxWait: 40000 * maxRatio, meanMaxWaitRatio: maxRatio, maxMaxWait: 60000 * maxRatio, maxMaxWaitRatio: maxRatio, ...extra,
})
const cand = (label: string, primary: string, backfill: string, threshold: number | null, train: number, test: number, ratio: number, admissible = true) =>
  ({ label, candidate: { primary, backfill }, primary, backfill, threshold, baseline: label === 'EASY-FCFS', admissible, train: part(train, ratio), test: part(test, ratio) })

function fakeResult(): EvaluationResult & { citation?: string } {
  // A version 1 document (before issue #19): readers upgrade it (upgradeResult).
  return v1Result()
}
function v1Result(): EvaluationResult & { citation?: string } {
  const rule = (r: string, count: number, effect: 'removed' | 'info' = 'removed') => ({ rule: r, description: `${r} rule`, effect, count, exampleLines: count ? [3, 9] : [] })
  const doc = {
    schemaVersion: 1, kind: 'easytune-evaluation', generator: 'easytune 0.1.0',
    log: {
      name: EVIL, sha256: 'ab'.repeat(32), format: 'swf', machineProcs: 128, machineSource: 'given', jobsRead: 1200, jobsKept: 1100, unixStartTime: 1_600_000_000,
      importReport: {
        schemaVersion: 1, name: EVIL, format: 'swf', formatSource: 'detected', linesRead: 1210, jobsRead: 1200, jobsKept: 1100, jobsRemoved: 100,
        machine: { procs: 128, source: 'given', note: '128 processors, given' }, rules: [rule('C7-overrun', 100), rule('zero-runtime', 2, 'info')],
        badLines: { count: 1, examples: [{ line: 7, code: 'not-a-number', message: `bad ${EVIL}` }] }, warnings: [`warn ${EVIL}`],
        span: { firstSubmit: 0, lastSubmit: 8e6, seconds: 8e6, unixStartTime: 1_600_000_000, startIso: null, endIso: null },
        users: 12, requestedMissing: 0, recordedWaits: 1100, options: { overrun: 'drop', requestedFallback: 'drop', procs: 128 },
        header: { Acknowledge: `Ada ${EVIL}`, Installation: 'Site X', Information: 'https://example.org/' },
      },
    },
    protocol: {
      split: { spec: { kind: 'midpoint' }, at: 4e6, atIso: '2020-10-30T09:46:40.000Z', train: { jobs: 500, start: 0, end: 3.9e6, seconds: 3.9e6, load: 0.7 }, test: { jobs: 600, start: 4e6, end: 8e6, seconds: 4e6, load: 0.65 } },
      resample: { method: 'user-weeks', weeks: 4, seed: 7, trainOriginalWeeks: 6, testOriginalWeeks: 6, trainSamples: 4, testSamples: 4 },
      objective: 'avgWait', tau: 10, thresholds: [null, 72000], candidates: [{ primary: 'FCFS', backfill: 'same' }, { primary: 'SPF', backfill: 'same' }, { primary: 'SPF', backfill: 'SQF' }, { primary: 'LPF', backfill: 'same' }],
      risk: { maxWaitRatio: 1.5 }, cells: 14,
    },
    calibration: { jobs: 1100, share: 1, recordedMean: 7200, simulatedMean: 3600, recordedMedian: 300, simulatedMedian: 0, recordedP90: 20000, simulatedP90: 9000, pearson: 0.4, spearman: 0.3, meanDifference: -3600, verdict: 'loosely.' },
    candidates: [
      cand('EASY-FCFS', 'FCFS', 'same', null, 0, 0, 1),
      cand(`EASY-SPF Θ=none ${EVIL}`, 'SPF', 'same', null, 0.3, 0.2, 1.4),
      cand('EASY-SPF Θ=20 h', 'SPF', 'same', 72000, 0.25, 0.28, 1.1),
      cand('EASY-SPF-SQF Θ=none', 'SPF', 'SQF', null, 0.35, 0.1, 2.5, false),
      cand('EASY-SPF-SQF Θ=20 h', 'SPF', 'SQF', 72000, 0.2, 0.15, 1.2),
      cand('EASY-LPF Θ=none', 'LPF', 'same', null, -0.1, -0.2, 3),
    ] as EvaluationResult['candidates'],
    recommended: 1, bestOnTest: 2, bestOnTrain: 3, ranking: [3, 1, 2, 4, 0, 5],
    recommendation: { label: 'EASY-SPF', sentence: `EASY with SPF order cut the average wait by 20% ${EVIL}`, testDisagrees: false },
    weekly: [{ label: 'EASY-FCFS', train: [900, 1100, 1000, 1000], test: [1300, 700, 1000, 1000] }, { label: `EASY-SPF Θ=none ${EVIL}`, train: [700, 700, 700, 700], test: [800, 900, 700, 800] }, { label: 'EASY-SPF Θ=20 h', train: [750, 750, 750, 750], test: [700, 800, 700, 680] }],
  }
  return doc as unknown as EvaluationResult & { citation?: string }
}
const bundle: ExportBundle = { target: 'slurm', files: [{ name: 'job_submit.lua', content: `-- ${EVIL}\nreturn slurm.SUCCESS`, description: 'the plugin' }], items: [{ feature: 'SPF order', fidelity: 'job_submit.lua', note: 'via priority' }], gaps: ['no threshold in SLURM'] }
const texts = (b: Block[]) => JSON.stringify(b)

describe('validateResult', () => {
  const broken = (f: (r: Record<string, unknown>) => void) => { const r = fakeResult() as unknown as Record<string, unknown>; f(r); return () => validateResult(r) }
  it('accepts a good result and refuses the rest in plain words', () => {
    expect(validateResult(fakeResult()).log.jobsKept).toBe(1100)
    expect(() => validateResult([])).toThrow(/not an EasyTune result/)
    expect(broken((r) => { r.kind = 'other' })).toThrow(/kind is the text "other"/)
    expect(broken((r) => { r.schemaVersion = 4 })).toThrow(/schema version number 4 is not supported: this EasyTune reads versions 1 to 3/)
    // Version 1 (this fixture) is read through the upgrade: the verdict its recommendation implied.
    expect(validateResult(fakeResult()).recommendation).toMatchObject({ verdict: 'switch', equivalent: [], impact: null, export: { target: 'slurm' } })
    expect(broken((r) => { r.schemaVersion = 2 })).toThrow(/recommendation\.verdict should be text, but it is missing/)
    expect(broken((r) => { delete (r.log as Record<string, unknown>).name })).toThrow(/log\.name should be text, but it is missing/)
    expect(broken((r) => { r.recommended = 9 })).toThrow(/recommended \(9\) is not a candidate index/)
    expect(broken((r) => { r.candidates = [] })).toThrow(/candidates is empty/)
    expect(broken((r) => { (r.candidates as { test: { gainCi: number[] } }[])[2].test.gainCi = [1] })).toThrow(/candidates\.2\.test\.gainCi should hold 2 numbers/)
    expect(broken((r) => { (r.candidates as { train: { gain: unknown } }[])[1].train.gain = '5' })).toThrow(/candidates\.1\.train\.gain should be a number or null/)
    expect(broken((r) => { r.weekly = [{ label: 'x', train: ['1'], test: [] }] })).toThrow(/weekly\.0\.train should be a list of numbers/)
  })
})

describe('report model', () => {
  it('lists the files of a log read from several files; a malformed file list is refused in words', () => {
    const r = fakeResult()
    const files = [
      { name: 'day-1.log', jobsRead: 700, duplicates: 0, firstSubmit: 0, lastSubmit: 3600, startIso: null, endIso: null },
      { name: 'day-2.log', jobsRead: 500, duplicates: 3, firstSubmit: 3600, lastSubmit: null, startIso: null, endIso: null },
    ]
    const withFiles = { ...r, log: { ...r.log, importReport: { ...r.log.importReport, files, duplicates: 3 } } }
    const log = buildReportModel(validateResult(JSON.parse(JSON.stringify(withFiles)))).sections.find((x) => x.id === 'log')!
    const table = log.blocks.find((b) => b.kind === 'table' && b.caption.startsWith('Files read as one log')) as Extract<Block, { kind: 'table' }>
    expect(table.caption).toBe('Files read as one log (3 jobs found in several files, kept once)')
    expect(table.rows.map((row) => row.slice(0, 3))).toEqual([['day-1.log', '700', '0'], ['day-2.log', '500', '3']])
    expect(table.rows[1][4]).toBe('–')
    const bad = { ...r, log: { ...r.log, importReport: { ...r.log.importReport, files: 'day-1.log' } } }
    expect(() => validateResult(JSON.parse(JSON.stringify(bad)))).toThrow(/log\.importReport\.files should be a list, but it is/)
  })

  it('has every section, with numbers in units and NaN shown as a dash', () => {
    const r = fakeResult()
    r.candidates[2].test.meanRatio = null as unknown as number // NaN in JSON
    const m = buildReportModel(r, [bundle, { target: 'pbs', error: 'PBS cannot express LPF' }], { generatedAt: '2025-01-01 00:00 UTC' })
    expect(m.sections.map((s) => s.id)).toEqual(['recommendation', 'log', 'protocol', 'risk', 'charts', 'candidates', 'export', 'calibration', 'citations'])
    const s = Object.fromEntries(m.sections.map((x) => [x.id, texts(x.blocks)]))
    expect(s.recommendation).toContain('20.0% (90% interval 15.0% to 25.0%)')
    // The section opens with the verdict card, the model the Results step shows (verdict-card.ts).
    expect(m.sections[0].blocks[0].kind).toBe('verdict')
    expect(s.recommendation).toContain('In hindsight, the best on the test months was EASY-SPF Θ=20 h')
    expect(s.log).toContain('1,200 read, 1,100 kept, 100 removed')
    expect(s.log).toContain('2020-09-13 12:26 UTC')
    expect(s.protocol).toContain('user-weeks: 4 weeks asked per part')
    expect(s.protocol).toContain('none, 20 h')
    expect(s.risk).toContain('23.3 h (1.40×)')
    expect(s.candidates).toContain('– [0.70×–1.10×]')
    expect(s.export).toContain('job_submit.lua')
    expect(s.export).toContain('Could not export to PBS: PBS cannot express LPF')
    expect(s.calibration).toContain('Pearson 0.40, Spearman (rank) 0.30')
    expect(s.citations).toContain('Tuning EASY-Backfilling Queues')
    const table = m.sections[5].blocks[0] as Extract<Block, { kind: 'table' }>
    expect(table.rows.map((row) => row[1].split(' ')[0])).toEqual(['EASY-SPF-SQF', 'EASY-SPF', 'EASY-SPF', 'EASY-SPF-SQF', 'EASY-FCFS', 'EASY-LPF'])
    expect(table.marked).toEqual([1])
  })

  it('cites the result\'s own citation, else the log header and the archive', () => {
    const r = fakeResult()
    expect(dataCitations(r)[0]).toMatch(/^Log courtesy of Ada [\s\S]* \(Site X\)\.$/)
    expect(dataCitations(r)[1]).toMatch(/Parallel Workloads Archive/)
    expect(dataCitations({ ...r, citation: 'Given citation.' })).toEqual(['Given citation.'])
    expect(dataCitations({ ...r, log: { ...r.log, format: 'sacct', importReport: { ...r.log.importReport, header: {} } } })).toEqual([])
  })

  it('says so when the test disagrees, and when the log records no wait', () => {
    const r = { ...fakeResult(), calibration: null, recommendation: { label: 'x', sentence: 'bad', testDisagrees: true } }
    const m = buildReportModel(r)
    expect(texts(m.sections[0].blocks)).toContain('did not improve on the test months')
    expect(texts(m.sections[7].blocks)).toContain('records no waits')
    // A schema-1 result is upgraded from its training choice alone (the test period is never the
    // evidence): a recommended non-baseline candidate reads as `switch` even when its test disagreed.
    expect(validateResult(r).recommendation.verdict).toBe('switch')
    expect(texts(buildReportModel({ ...r, recommended: 0 }).sections[6].blocks)).toContain('Nothing to change: keep your current configuration.')
    expect(texts(buildReportModel(fakeResult()).sections[6].blocks)).toContain('No configuration was exported')
  })
})

describe('chart builders', () => {
  const r = fakeResult()
  it('are JSON-safe, titled, with every axis labelled with its unit, in both themes', () => {
    for (const id of CHART_IDS) for (const theme of ['light', 'dark'] as const) {
      const c = buildChart(id, r, { theme })
      expect(JSON.parse(JSON.stringify(c))).toEqual(c)
      expect(c.type).toBe('scatter')
      expect(c.options?.animation).toBe(false)
      for (const axis of ['x', 'y'] as const) {
        const t = (c.options?.scales?.[axis] as { title: { text: string | string[]; display: boolean } }).title
        expect(t.display).toBe(true)
        expect([t.text].flat()[0]).toMatch(/\((%|×|min|h|%, .*)[^)]*\)/)
      }
      expect(c.data.datasets.length).toBeGreaterThan(1)
    }
    expect(PALETTE.dark.text).not.toBe(PALETTE.light.text)
    expect(JSON.stringify(buildChart('risk', r, { theme: 'dark' }))).toContain(PALETTE.dark.recommended)
  })

  it('risk scatter: highlights, whiskers, the risk limit', () => {
    const c = scatterRisk(r)
    const by = (re: RegExp) => c.data.datasets.find((d) => re.test(d.label ?? ''))!
    expect(by(/^Recommended/).data).toEqual([expect.objectContaining({ x: 1.4, y: 20 })])
    expect(by(/^Best on test/).data[0].y).toBeCloseTo(28, 9)
    expect(by(/baseline/).data[0]).toMatchObject({ x: 1, y: 0 })
    expect(by(/^Outside the risk limit/).data.map((p) => p.x)).toEqual([2.5])
    const w = by(/confidence interval/)
    expect(w.data.length).toBe(3 * 6)
    const seg = w.data.slice(3, 6)
    expect(seg.map((p) => p.x)).toEqual([1.4, 1.4, 1.4])
    expect(seg[0].y).toBeCloseTo(15, 9)
    expect(seg[1].y).toBeCloseTo(25, 9)
    expect(seg[2].y).toBeNull()
    expect(by(/^Risk limit: 1.5×/).data[0].x).toBe(1.5)
    const ratio = scatterRisk(r, { x: 'mean', y: 'ratio', part: 'train' })
    expect(ratio.data.datasets.some((d) => /Risk limit/.test(d.label ?? ''))).toBe(false)
    expect(ratio.data.datasets.find((d) => /p10–p90/.test(d.label ?? ''))!.data.slice(0, 2)).toEqual([{ x: 1, y: 0.7 }, { x: 1, y: 1.1 }])
  })

  it('train vs test, thresholds and weekly', () => {
    const tv = trainVsTest(r)
    expect(tv.data.datasets.find((d) => /Test gain = train gain/.test(d.label ?? ''))!.data).toEqual([{ x: -20, y: -20 }, { x: 35, y: 35 }])
    const th = thresholdTradeoff(r, { orders: 2 })
    const orders = th.data.datasets.filter((d) => d.showLine)
    expect(orders.map((d) => d.label)).toEqual(['EASY-SPF-SQF', 'EASY-SPF'])
    expect(orders[0].data.map((p) => p.label?.split(':')[0])).toEqual(['EASY-SPF-SQF Θ=none', 'EASY-SPF-SQF Θ=20 h'])
    expect(th.data.datasets.filter((d) => d.data.length === 0).map((d) => d.label)).toEqual(['Θ = none', 'Θ = 20 h'])
    const wk = weeklyDistribution(r)
    expect(wk.data.datasets[0].data.map((p) => p.y)).toEqual([700 / 60, 1000 / 60, 1000 / 60, 1300 / 60])
    expect(wk.data.datasets[0].data.map((p) => p.x)).toEqual([12.5, 37.5, 62.5, 87.5])
    expect(wk.data.datasets[1].label).toMatch(/\(recommended\), mean 13\.3 min$/)
    expect((wk.options?.scales?.y as { title: { text: string[] } }).title.text[0]).toBe('Weekly average wait (min)')
  })

  it('withTooltips shows each point\'s label', () => {
    const c = withTooltips(scatterRisk(r))
    const cb = c.options?.plugins?.tooltip?.callbacks?.label
    expect(cb).toBe(tooltipLabel)
    const point: ChartPoint = { x: 1, y: 2, label: 'hello' }
    expect(tooltipLabel({ raw: point, dataset: { label: 'd' }, formattedValue: '2' } as never)).toBe('hello')
    expect(tooltipLabel({ raw: { x: 1, y: 2 }, dataset: { label: 'd' }, formattedValue: '2' } as never)).toBe('d: 2')
  })
})

describe('report HTML', () => {
  const html = renderReportHtml(fakeResult(), [bundle], { generatedAt: 'now' })
  it('is one self-contained, escaped page', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true)
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline';`)
    expect(html.match(/<script\b/g)).toHaveLength(4)
    expect(html.match(/<\/script>/g)).toHaveLength(4)
    expect(html.match(/<canvas data-chart="(risk|trainVsTest|thresholds|weekly)"/g)).toHaveLength(4)
    expect(html).not.toContain('<img')
    expect(html).not.toContain('<!--')
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;&lt;/script&gt;')
    // Attributes of real tags (script bodies left out): only in-page anchors.
    const markup = html.replace(/(<script\b[^>]*>)[\s\S]*?<\/script>/g, '$1')
    const tags = markup.match(/<[a-z][^>]*>/gi) ?? []
    expect(tags.length).toBeGreaterThan(50)
    for (const t of tags) for (const m of t.matchAll(/\s(?:src|href|action|srcset|poster|data|formaction)\s*=\s*["']?([^"'\s>]*)/gi)) expect(m[1], t).toMatch(/^#/)
    expect(markup.match(/<(link|iframe|object|embed|base|img)\b|@import|url\(/gi)).toBeNull()
    const json = [...html.matchAll(/<script type="application\/json" id="([\w-]+)">([\s\S]*?)<\/script>/g)]
    expect(json.map((m) => m[1])).toEqual(['easytune-charts', 'easytune-result'])
    for (const [, , body] of json) expect(body).not.toMatch(/[<>&\u2028\u2029]/)
    expect(JSON.parse(json[1][2])).toEqual(fakeResult())
    expect(JSON.parse(json[0][2]).dark.risk.type).toBe('scatter')
  })

  it('throws on a bad result, and exports by itself when not given bundles', () => {
    expect(() => renderReportHtml({ kind: 'easytune-evaluation', schemaVersion: 4 })).toThrow(/schema version number 4/)
    expect(renderReportHtml(fakeResult())).toMatch(/<h3>SLURM<\/h3>[\s\S]*<h3>PBS<\/h3>/)
  })
})

describe('easytune report', () => {
  const dir = mkdtempSync(join(tmpdir(), 'easytune-report-'))
  const good = join(dir, 'r.json')
  writeFileSync(good, JSON.stringify(fakeResult()))
  it('writes the HTML; exits 2 naming a bad file; 1 when the PDF cannot be made', async () => {
    const ok = await runCli(['report', good, '--out', join(dir, 'r.html')])
    expect(ok.code, ok.stderr).toBe(0)
    expect(readFileSync(join(dir, 'r.html'), 'utf8')).toContain('<canvas data-chart="weekly"')
    const missing = await runCli(['report', join(dir, 'nope.json'), '--out', join(dir, 'x.html')])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('nope.json')
    writeFileSync(join(dir, 'bad.json'), '{"schemaVersion": 1,')
    const bad = await runCli(['report', join(dir, 'bad.json')])
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringMatching(/bad\.json: is not a JSON result file/)])
    writeFileSync(join(dir, 'v4.json'), JSON.stringify({ ...fakeResult(), schemaVersion: 4 }))
    const v4 = await runCli(['report', join(dir, 'v4.json'), '--out', join(dir, 'v4.html')])
    expect([v4.code, v4.stderr]).toEqual([2, expect.stringMatching(/v4\.json: result schema version number 4 is not supported/)])
    expect(existsSync(join(dir, 'v4.html'))).toBe(false)
    const before = process.env.EASYTUNE_CHROMIUM
    process.env.EASYTUNE_CHROMIUM = join(dir, 'no-such-browser')
    try {
      const pdf = await runCli(['report', good, '--out', join(dir, 'p.html'), '--pdf', join(dir, 'p.pdf')])
      expect(pdf.code).toBe(1)
      expect(pdf.stderr).toMatch(/no PDF: no Chromium or Chrome found/)
      expect(existsSync(join(dir, 'p.html'))).toBe(true)
    } finally {
      if (before === undefined) delete process.env.EASYTUNE_CHROMIUM
      else process.env.EASYTUNE_CHROMIUM = before
    }
    expect((await runCli(['report'])).code).toBe(2)
  })
})

describe('schema 2: the report opens with the verdict card', () => {
  it('reads the three verdicts of the fixtures; the card is the same model the Results step shows', async () => {
    const { switchResult, keepResult, insufficientResult } = await import('../fixtures/results/results')
    const { buildVerdictCard } = await import('../../src/core/export/verdict-card')
    for (const r of [switchResult(), keepResult(), insufficientResult()]) {
      const m = buildReportModel(r, [])
      const first = m.sections[0].blocks[0]
      expect(first.kind).toBe('verdict')
      expect((first as Extract<Block, { kind: 'verdict' }>).card).toEqual(buildVerdictCard({ ...r, recommended: r.recommended ?? 0 }))
    }
    // "Within limit" only with a limit.
    const limited = buildReportModel(switchResult(), [])
    const head = (m: typeof limited) => (m.sections.find((x) => x.id === 'candidates')!.blocks[0] as Extract<Block, { kind: 'table' }>).head
    expect(head(limited)).toContain('Within limit')
    expect(head(limited)).toContain('Test 95% interval')
    const free = switchResult()
    free.protocol.risk.maxWaitRatio = null
    expect(head(buildReportModel(free, []))).not.toContain('Within limit')
    // No export for keep or insufficient data: the report says why.
    const exportText = (r: unknown) => JSON.stringify(buildReportModel(r, defaultExports(r as Parameters<typeof defaultExports>[0])).sections.find((x) => x.id === 'export'))
    expect(exportText(keepResult())).toContain('Nothing to change: keep your current configuration.')
    expect(exportText(insufficientResult())).toContain('Nothing to export: not enough data for a verdict.')
    expect(defaultExports(switchResult()).map((e) => e.target)).toEqual(['slurm', 'pbs'])
    // insufficient-data has no `recommended`, and the caller's document is not changed.
    const ins = insufficientResult()
    buildReportModel(ins, [])
    expect('recommended' in ins).toBe(false)
  })

  it('refuses a hostile impact or verdict in plain words instead of crashing', async () => {
    const { switchResult } = await import('../fixtures/results/results')
    const bad1 = switchResult() as unknown as { recommendation: { impact: { train: { bySize: unknown } } } }
    bad1.recommendation.impact.train.bySize = 7
    expect(() => validateResult(bad1)).toThrow(/recommendation\.impact\.train\.bySize should be a list/)
    const bad2 = switchResult() as unknown as { recommendation: { verdict: unknown } }
    bad2.recommendation.verdict = 'maybe'
    expect(() => validateResult(bad2)).toThrow(/recommendation\.verdict should be switch, keep or insufficient-data/)
  })
})
