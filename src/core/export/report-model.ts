// The offline report's content (pure): an EvaluationResult (docs/RESULT-SCHEMA.md), checked as
// hostile input, plus the exported configurations, turned into sections of sentences, facts and
// tables with every number formatted with its unit. The HTML renderer (src/node/report) only lays
// these out and escapes them; the charts come from src/shared/charts.ts.
import type { ExportBundle } from './types'
import { RESULT_SCHEMA_VERSION, upgradeResult, type EvaluationResult } from '../tune/result'
import { candidateSetNote, PRESET_IDS } from '../tune/campaign'
import type { PartSummary } from '../tune/select'
import { RECOMMENDATION_FILE } from './index'
import { buildVerdictCard, confidenceOf, type VerdictCard } from './verdict-card'
import { formatDuration, formatThreshold } from '../util/duration'
import { walltimesSection } from './report-walltimes'
import { formatInt, formatObjective, formatPercent, formatRatio, formatUtcMinute, objectiveName } from '../util/format'

export type Block =
  | { kind: 'text'; text: string; tone?: 'key' | 'note' | 'warning' }
  | { kind: 'heading'; text: string }
  | { kind: 'facts'; rows: [string, string][] }
  /** align: per column; marked: rows to emphasise; nowrap: columns kept on one line. */
  | { kind: 'table'; caption: string; head: string[]; rows: string[][]; align: ('l' | 'r')[]; marked?: number[]; nowrap?: number[] }
  | { kind: 'list'; items: string[] }
  | { kind: 'chart'; id: 'risk' | 'trainVsTest' | 'thresholds' | 'weekly' }
  | { kind: 'file'; name: string; description: string; content: string }
  /** The verdict card, the same model the Results step shows (verdict-card.ts). */
  | { kind: 'verdict'; card: VerdictCard }

export interface ReportSection { id: string; title: string; blocks: Block[] }
export interface ReportModel { title: string; subtitle: string; sections: ReportSection[] }
/** An export, or why it could not be made. */
export type ReportExport = ExportBundle | { target: string; error: string }

export const RESEARCH_CITATIONS = [
  'V. Reis, "Learning to control large-scale parallel platforms", PhD thesis, Univ. Grenoble Alpes, 2018 (chapters 5 and 6: the protocol and the figures of this report).',
  'J. Lelong, V. Reis, D. Trystram, "Tuning EASY-Backfilling Queues", JSSPP 2017.',
  'É. Gaussier, J. Lelong, V. Reis, D. Trystram, "Online Tuning of EASY-Backfilling using Queue Reordering Policies", IEEE TPDS, 2018.',
  'D. Carastan-Santos, R. Y. de Camargo, "Obtaining Dynamic Scheduling Policies with Simulation and Machine Learning", SC 2017.',
  'A. Legrand, D. Trystram, S. Zrigui, Inria research report RR-9212, 2018 (mixed linear queue orders).',
]
const PWA = 'Parallel Workloads Archive: D. G. Feitelson, D. Tsafrir, D. Krakov, "Experience with using the Parallel Workloads Archive", Journal of Parallel and Distributed Computing 74(10):2967–2982, 2014.'

// ---- validation: plain-words errors naming the field ----
type Want = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'number?' | 'string?' | 'object?' | 'numbers'
function describe(v: unknown): string {
  return v === undefined ? 'missing' : v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'string' ? `the text "${v.slice(0, 40)}"` : `${typeof v} ${String(v).slice(0, 40)}`
}
function field(root: unknown, path: string, want: Want): unknown {
  let v: unknown = root
  for (const k of path.split('.')) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined
  const ok = want === 'array' ? Array.isArray(v)
    : want === 'numbers' ? Array.isArray(v) && v.every((x) => x === null || typeof x === 'number')
      : want.endsWith('?') ? v === null || v === undefined || typeof v === want.slice(0, -1)
        : want === 'object' ? v !== null && typeof v === 'object' && !Array.isArray(v) : typeof v === want
  const words: Record<Want, string> = { string: 'text', number: 'a number', boolean: 'true or false', object: 'an object', array: 'a list', numbers: 'a list of numbers', 'number?': 'a number or null', 'string?': 'text or null', 'object?': 'an object or null' }
  if (!ok) throw new Error(`this is not a valid EasyTune result: ${path} should be ${words[want]}, but it is ${describe(v)}`)
  return v
}
const SUMMARY = ['mean', 'baselineMean', 'gain', 'meanRatio', 'p10Ratio', 'p90Ratio', 'ratioWeeks', 'meanMaxWait', 'meanMaxWaitRatio', 'maxMaxWait', 'maxMaxWaitRatio']

/** Checks the fields the report and the charts read; throws an Error in plain words. */
export function validateResult(x: unknown): EvaluationResult {
  if (x === null || typeof x !== 'object' || Array.isArray(x)) throw new Error('this is not an EasyTune result: expected a JSON object from `easytune evaluate --json`')
  // Version 1 is read as version 2 (upgradeResult copies what it fills in); then a shallow copy,
  // so the defaults filled in below never change the caller's document.
  const o = { ...(upgradeResult(x) as Record<string, unknown>) }
  if (o.kind !== 'easytune-evaluation') throw new Error(`this is not an EasyTune evaluation result (kind is ${describe(o.kind)}; expected "easytune-evaluation", from \`easytune evaluate --json\`)`)
  if (o.schemaVersion !== RESULT_SCHEMA_VERSION) throw new Error(`result schema version ${describe(o.schemaVersion)} is not supported: this EasyTune reads versions 1 to ${RESULT_SCHEMA_VERSION}`)
  for (const p of ['generator', 'log.name', 'log.sha256', 'log.format', 'log.machineSource', 'recommendation.label', 'recommendation.sentence', 'recommendation.verdict', 'recommendation.reason', 'protocol.objective', 'protocol.resample.method']) field(o, p, 'string')
  for (const p of ['log.machineProcs', 'log.jobsRead', 'log.jobsKept', 'protocol.split.at', 'protocol.tau', 'protocol.cells', 'protocol.resample.weeks', 'protocol.resample.seed', 'protocol.resample.trainSamples', 'protocol.resample.testSamples', 'protocol.resample.trainOriginalWeeks', 'protocol.resample.testOriginalWeeks']) field(o, p, 'number')
  for (const part of ['train', 'test']) for (const k of ['jobs', 'start', 'end', 'seconds', 'load']) field(o, `protocol.split.${part}.${k}`, 'number')
  field(o, 'log.unixStartTime', 'number?'); field(o, 'protocol.split.atIso', 'string?'); field(o, 'protocol.risk.maxWaitRatio', 'number?')
  field(o, 'protocol.thresholds', 'numbers'); field(o, 'protocol.split.spec.kind', 'string'); field(o, 'recommendation.testDisagrees', 'boolean')
  for (const p of ['log.importReport.rules', 'log.importReport.warnings', 'log.importReport.badLines.examples', 'protocol.candidates']) field(o, p, 'array')
  ;(field(o, 'protocol.candidates', 'array') as unknown[]).forEach((_, i) => { field(o, `protocol.candidates.${i}.primary`, 'string'); field(o, `protocol.candidates.${i}.backfill`, 'string') })
  for (const p of ['log.importReport.machine', 'log.importReport.span', 'log.importReport.header', 'log.importReport.options']) field(o, p, 'object')
  const report = o.log as { importReport: { rules: unknown[]; badLines: { examples: unknown[] }; header: Record<string, unknown> } }
  report.importReport.rules.forEach((_, i) => { field(o, `log.importReport.rules.${i}.rule`, 'string'); field(o, `log.importReport.rules.${i}.description`, 'string'); field(o, `log.importReport.rules.${i}.count`, 'number'); field(o, `log.importReport.rules.${i}.exampleLines`, 'numbers') })
  report.importReport.badLines.examples.forEach((_, i) => { field(o, `log.importReport.badLines.examples.${i}.line`, 'number'); field(o, `log.importReport.badLines.examples.${i}.message`, 'string') })
  ;(field(o, 'log.importReport.warnings', 'array') as unknown[]).forEach((_, i) => field(o, `log.importReport.warnings.${i}`, 'string'))
  for (const k of Object.keys(report.importReport.header)) field(report.importReport.header, k, 'string')
  // A log of several files (optional): the fields the report's file table reads.
  const files = (report.importReport as { files?: unknown }).files
  if (files !== undefined) {
    (field(o, 'log.importReport.files', 'array') as unknown[]).forEach((_, i) => {
      field(o, `log.importReport.files.${i}.name`, 'string'); field(o, `log.importReport.files.${i}.jobsRead`, 'number'); field(o, `log.importReport.files.${i}.duplicates`, 'number')
      field(o, `log.importReport.files.${i}.firstSubmit`, 'number?'); field(o, `log.importReport.files.${i}.lastSubmit`, 'number?')
    })
    field(o, 'log.importReport.duplicates', 'number?')
  }
  const cands = field(o, 'candidates', 'array') as unknown[]
  if (cands.length === 0) throw new Error('this is not a valid EasyTune result: candidates is empty (the baseline EASY-FCFS should come first)')
  cands.forEach((_, i) => {
    const c = `candidates.${i}`
    for (const k of ['label', 'primary', 'backfill']) field(o, `${c}.${k}`, 'string')
    field(o, `${c}.threshold`, 'number?'); field(o, `${c}.baseline`, 'boolean'); field(o, `${c}.admissible`, 'boolean')
    for (const part of ['train', 'test']) {
      for (const k of SUMMARY) field(o, `${c}.${part}.${k}`, 'number?')
      const ci = field(o, `${c}.${part}.gainCi`, 'numbers') as unknown[]
      if (ci.length !== 2) throw new Error(`this is not a valid EasyTune result: ${c}.${part}.gainCi should hold 2 numbers`)
    }
  })
  // Schema 2 has no `recommended` for insufficient-data: the tables then mark EASY-FCFS (index 0).
  const insufficient = (o.recommendation as { verdict?: unknown } | undefined)?.verdict === 'insufficient-data'
  if (insufficient && o.recommended === undefined) o.recommended = 0
  for (const k of ['recommended', 'bestOnTest', 'bestOnTrain']) {
    if (k === 'recommended' && o.recommended === undefined && (o.recommendation as Record<string, unknown>).verdict === 'insufficient-data') continue
    const v = field(o, k, 'number') as number
    if (!Number.isInteger(v) || v < 0 || v >= cands.length) throw new Error(`this is not a valid EasyTune result: ${k} (${v}) is not a candidate index (0 to ${cands.length - 1})`)
  }
  const ranking = field(o, 'ranking', 'numbers') as number[]
  if (ranking.some((v) => !Number.isInteger(v) || v < 0 || v >= cands.length)) throw new Error('this is not a valid EasyTune result: ranking holds a number that is not a candidate index')
  ;(field(o, 'weekly', 'array') as unknown[]).forEach((_, i) => { field(o, `weekly.${i}.label`, 'string'); field(o, `weekly.${i}.train`, 'numbers'); field(o, `weekly.${i}.test`, 'numbers') })
  if (field(o, 'calibration', 'object?') != null) {
    for (const k of ['jobs', 'share', 'recordedMean', 'simulatedMean', 'recordedMedian', 'simulatedMedian', 'recordedP90', 'simulatedP90', 'pearson', 'spearman', 'meanDifference']) field(o, `calibration.${k}`, 'number?')
    field(o, 'calibration.verdict', 'string')
  }
  field(o, 'citation', 'string?')
  // Schema 2's verdict (optional in schema 1): checked before the verdict card reads it.
  const v = field(o, 'recommendation.verdict', 'string?')
  if (v != null && !['switch', 'keep', 'insufficient-data'].includes(v as string)) throw new Error(`this is not a valid EasyTune result: recommendation.verdict should be switch, keep or insufficient-data, but it is ${describe(v)}`)
  field(o, 'recommendation.reason', 'string?')
  for (const p of ['protocol.minGain', 'protocol.confidence', 'protocol.minWeeks']) field(o, p, 'number?')
  if (field(o, 'recommendation.export', 'object?') != null) {
    field(o, 'recommendation.export.fidelity', 'string')
    ;(field(o, 'recommendation.export.lost', 'array') as unknown[]).forEach((_, i) => field(o, `recommendation.export.lost.${i}`, 'string'))
  }
  if (o.recommendation && (o.recommendation as Record<string, unknown>).equivalent !== undefined) field(o, 'recommendation.equivalent', 'numbers')
  if (field(o, 'recommendation.impact', 'object?') != null) {
    for (const part of ['train', 'test']) {
      for (const dim of ['bySize', 'byRequested', 'byAccount']) {
        (field(o, `recommendation.impact.${part}.${dim}`, 'array') as unknown[]).forEach((_, i) => {
          const g = `recommendation.impact.${part}.${dim}.${i}`
          field(o, `${g}.label`, 'string')
          for (const k of ['jobs', 'baselineMeanWait', 'meanWait', 'baselineP95Wait', 'p95Wait', 'meanRatio']) field(o, `${g}.${k}`, 'number?')
        })
      }
    }
    (field(o, 'recommendation.impact.overRisk', 'array') as unknown[]).forEach((_, i) => {
      for (const k of ['part', 'dimension', 'label']) field(o, `recommendation.impact.overRisk.${i}.${k}`, 'string')
      for (const k of ['meanRatio', 'jobs']) field(o, `recommendation.impact.overRisk.${i}.${k}`, 'number?')
    })
  }
  return o as unknown as EvaluationResult
}

// ---- formatting: every number with its unit; null (a NaN in JSON) shows as "–" ----
const ok = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)
export const fmtInt = formatInt
export const fmtPct = formatPercent
export const fmtRatio = formatRatio
export const fmtDur = (s: number) => (ok(s) ? formatDuration(s) : '–')
const objective = (r: EvaluationResult) => objectiveName(r.protocol.objective)
const objValue = (r: EvaluationResult, v: number) => formatObjective(r.protocol.objective, v)
function when(r: EvaluationResult, t: number): string {
  if (r.log.unixStartTime === null || !ok(t)) return `${fmtDur(t)} after the log's time 0`
  const d = new Date((r.log.unixStartTime + t) * 1000)
  return Number.isNaN(d.getTime()) ? fmtDur(t) : formatUtcMinute(d)
}
const ci = (s: PartSummary) => `${fmtPct(s.gainCi[0])} to ${fmtPct(s.gainCi[1])}`

function roleOf(r: EvaluationResult, i: number): string {
  return [i === r.recommended && 'recommended', i === r.bestOnTest && 'best on test', i === r.bestOnTrain && i !== r.recommended && 'best on train (ignores the risk limit)', i === 0 && 'baseline']
    .filter(Boolean).join(', ')
}

/** The data citation: the result's own (CLI), else the log's acknowledgement header (+ the PWA for SWF). */
export function dataCitations(r: EvaluationResult & { citation?: string | null }): string[] {
  if (typeof r.citation === 'string' && r.citation) return [r.citation]
  const h = r.log.importReport.header, out: string[] = []
  if (h['Acknowledge']) out.push(`Log courtesy of ${h['Acknowledge']}${h['Installation'] ? ` (${h['Installation']})` : ''}.`)
  if (r.log.format === 'swf') out.push(PWA)
  return out
}

/** `walltimes`: the walltimes analysis (easytune walltimes --json), for the time-limits section;
 * `names`: show the user names it holds (pseudonyms otherwise). */
export function buildReportModel(input: unknown, exports: ReportExport[] = [], opts: { generatedAt?: string; walltimes?: unknown; names?: boolean } = {}): ReportModel {
  const r = validateResult(input)
  const p = r.protocol, rep = r.log.importReport, what = objective(r)
  const rec = r.candidates[r.recommended ?? 0], base = r.candidates[0], best = r.candidates[r.bestOnTest]
  const limit = p.risk.maxWaitRatio === null ? 'none' : `longest wait on train at most ${p.risk.maxWaitRatio}× EASY-FCFS's`

  const level = `${fmtPct(confidenceOf(r), 0)} interval`
  const card = buildVerdictCard(r)
  const summary: Block[] = [{ kind: 'verdict', card }, { kind: 'text', tone: 'note', text: r.recommendation.sentence }]
  if (r.recommendation.testDisagrees) summary.push({ kind: 'text', tone: 'warning', text: 'The configuration chosen on the training months did not improve on the test months: do not deploy it as is.' })
  if (r.bestOnTest !== r.recommended) summary.push({ kind: 'text', tone: 'note', text: `In hindsight, the best on the test months was ${best.label} (test gain ${fmtPct(best.test.gain)}): the gap between choosing on past months and knowing the future.` })
  if (card.verdict !== 'insufficient-data') summary.push({ kind: 'facts', rows: [
    ['Recommended configuration', rec.label],
    ['Gain on train', `${fmtPct(rec.train.gain)} of EASY-FCFS's ${what} removed (${level} ${ci(rec.train)})`],
    ['Gain on test', `${fmtPct(rec.test.gain)} (${level} ${ci(rec.test)})`],
    ['Longest wait on test', `${fmtDur(rec.test.maxMaxWait)}, ${fmtRatio(rec.test.maxMaxWaitRatio)} EASY-FCFS's (${fmtDur(base.test.maxMaxWait)})`],
    [`EASY-FCFS ${what}`, `${objValue(r, base.train.mean)} on train, ${objValue(r, base.test.mean)} on test (mean over sampled weeks)`],
    ['Risk limit', limit],
  ] })

  const headerRows = Object.entries(rep.header).map(([k, v]): [string, string] => [`Header: ${k}`, v])
  const logBlocks: Block[] = [{ kind: 'facts', rows: [
    ['File', r.log.name], ['SHA-256', r.log.sha256], ['Format', `${r.log.format} (${rep.formatSource ?? 'detected'})`],
    ['Machine', `${fmtInt(r.log.machineProcs)} processors: ${rep.machine.note ?? r.log.machineSource}`],
    ['Jobs', `${fmtInt(r.log.jobsRead)} read, ${fmtInt(r.log.jobsKept)} kept, ${fmtInt(r.log.jobsRead - r.log.jobsKept)} removed by cleaning`],
    ['Submits', `${when(r, rep.span.firstSubmit)} to ${when(r, rep.span.lastSubmit)} (${fmtDur(rep.span.seconds)})`],
    ['Users', fmtInt(rep.users)], ['Jobs with a recorded wait', fmtInt(rep.recordedWaits)],
    ['Cleaning options', `overrun: ${rep.options.overrun}; missing requested time: ${typeof rep.options.requestedFallback === 'object' ? fmtDur(rep.options.requestedFallback?.seconds) : rep.options.requestedFallback}`],
    ...headerRows,
  ] }, { kind: 'table', caption: 'Cleaning rules (line numbers of up to five examples)', head: ['Rule', 'What it does', 'Jobs', 'Example lines'], align: ['l', 'l', 'r', 'l'],
    rows: rep.rules.map((u) => [u.rule, u.description, fmtInt(u.count), u.exampleLines.join(', ')]), nowrap: [0], marked: rep.rules.flatMap((u, i) => (u.count > 0 && u.effect === 'removed' ? [i] : [])) }]
  // A log read from several files (docs/SIMULATOR.md §Several files): each file with its jobs and span.
  if (rep.files && rep.files.length > 1) {
    logBlocks.push({ kind: 'table', caption: `Files read as one log (${fmtInt(rep.duplicates ?? 0)} jobs found in several files, kept once)`, head: ['File', 'Jobs', 'Already in an earlier file', 'First submit', 'Last submit'], align: ['l', 'r', 'r', 'l', 'l'],
      rows: rep.files.map((f) => [f.name, fmtInt(f.jobsRead), fmtInt(f.duplicates), typeof f.firstSubmit === 'number' ? when(r, f.firstSubmit) : '–', typeof f.lastSubmit === 'number' ? when(r, f.lastSubmit) : '–']), nowrap: [0] })
  }
  if (rep.badLines?.count) logBlocks.push({ kind: 'text', tone: 'note', text: `${fmtInt(rep.badLines.count)} unreadable lines, e.g. ${rep.badLines.examples.map((e) => `line ${e.line}: ${e.message}`).join('; ')}` })
  if (rep.warnings.length) logBlocks.push({ kind: 'list', items: rep.warnings.map((w) => `Warning: ${w}`) })

  const splitWords = p.split.spec.kind === 'midpoint' ? 'at the midpoint of the submit times' : p.split.spec.kind === 'fraction' ? `at ${fmtPct(p.split.spec.fraction, 0)} of the span` : 'at a given date'
  const partRow = (name: string, s: typeof p.split.train, orig: number, samples: number) => [name, fmtInt(s.jobs), when(r, s.start), when(r, s.end), fmtDur(s.seconds), fmtPct(s.load), fmtInt(orig), fmtInt(samples)]
  const orders = p.candidates.map((c) => (c.backfill === 'same' ? c.primary : `${c.primary}/${c.backfill}`))
  const protocol: Block[] = [
    { kind: 'facts', rows: [['Split', `${splitWords}: test starts ${p.split.atIso ? p.split.atIso.slice(0, 16).replace('T', ' ') + ' UTC' : when(r, p.split.at)}`]] },
    { kind: 'table', caption: 'Train and test parts', head: ['Part', 'Jobs', 'First submit', 'Last submit', 'Span', 'Offered load', 'Original weeks', 'Sampled weeks'], align: ['l', 'r', 'l', 'l', 'r', 'r', 'r', 'r'],
      rows: [partRow('Train', p.split.train, p.resample.trainOriginalWeeks, p.resample.trainSamples), partRow('Test', p.split.test, p.resample.testOriginalWeeks, p.resample.testSamples)] },
    { kind: 'facts', rows: [
      ['Resampling', `${p.resample.method}: ${fmtInt(p.resample.weeks)} weeks asked per part`], ['Seed', String(p.resample.seed)],
      ['Objective', p.objective === 'avgWait' ? 'average wait (mean over weeks of the weekly mean wait)' : `average bounded slowdown, τ = ${fmtDur(p.tau)}`],
      ['Thresholds', p.thresholds.map(formatThreshold).join(', ')],
      ['Candidate orders', `${PRESET_IDS.some((x) => x === p.preset) ? `preset ${p.preset}, ` : ''}${fmtInt(p.candidates.length)} (primary/backfill): ${orders.join(', ')}${candidateSetNote(p.candidates) ? ` (${candidateSetNote(p.candidates)})` : ''}`],
      ['Configurations compared', `${fmtInt(r.candidates.length)} (orders × thresholds, duplicates removed, EASY-FCFS first)`],
      ['Risk limit', limit], ['Simulation cells', fmtInt(p.cells)], ['Generator', r.generator],
    ] },
  ]

  // "Within limit" only when a limit was set (issue #19 item 3).
  const limited = p.risk.maxWaitRatio !== null
  const lim = <T>(row: T[]): T[] => (limited ? row : row.slice(0, -1))
  const riskIdx = [...new Set([0, r.recommended ?? 0, r.bestOnTest, r.bestOnTrain])]
  const riskRows = riskIdx.map((i) => {
    const c = r.candidates[i]
    return lim([`${c.label} (${roleOf(r, i)})`, ...(['train', 'test'] as const).flatMap((pt) => [`${fmtDur(c[pt].meanMaxWait)} (${fmtRatio(c[pt].meanMaxWaitRatio)})`, `${fmtDur(c[pt].maxMaxWait)} (${fmtRatio(c[pt].maxMaxWaitRatio)})`]), c.admissible ? 'yes' : 'no'])
  })
  const risk: Block[] = [
    { kind: 'text', text: `A better ${what} can come with a few jobs waiting much longer. The risk view compares each week's longest wait (MaxWait) with EASY-FCFS's on the same weeks. Risk limit: ${limit}.` },
    { kind: 'table', caption: 'Longest wait: mean over weeks and worst week (× EASY-FCFS\'s)', head: lim(['Configuration', 'Train: mean weekly', 'Train: worst week', 'Test: mean weekly', 'Test: worst week', 'Within limit']), align: lim<'l' | 'r'>(['l', 'r', 'r', 'r', 'r', 'l']), rows: riskRows, marked: [riskIdx.indexOf(r.recommended ?? 0)] },
  ]

  const order = [...new Set([...r.ranking, ...r.candidates.map((_, i) => i)])]
  const candidates: Block[] = [{ kind: 'table', caption: `All ${fmtInt(r.candidates.length)} configurations, best on train first. Gain = share of EASY-FCFS's ${what} removed on the same weeks; ratio = weekly ${what} / EASY-FCFS's.`,
    head: lim(['#', 'Configuration', 'Train gain', 'Test gain', `Test ${level}`, 'Test weekly ratio, mean [p10–p90]', 'Test longest wait', 'Within limit']), align: lim<'l' | 'r'>(['r', 'l', 'r', 'r', 'r', 'r', 'r', 'l']),
    rows: order.map((i, k) => {
      const c = r.candidates[i], role = roleOf(r, i)
      return lim([String(k + 1), role ? `${c.label} (${role})` : c.label, fmtPct(c.train.gain), fmtPct(c.test.gain), ci(c.test), `${fmtRatio(c.test.meanRatio)} [${fmtRatio(c.test.p10Ratio)}–${fmtRatio(c.test.p90Ratio)}]`, `${fmtDur(c.test.maxMaxWait)} (${fmtRatio(c.test.maxMaxWaitRatio)})`, c.admissible ? 'yes' : 'no'])
    }), marked: order.flatMap((i, k) => (i === r.recommended ? [k] : [])), nowrap: [1] }]

  const nothing = card.verdict === 'keep' ? 'Nothing to change: keep your current configuration.'
    : card.verdict === 'insufficient-data' ? 'Nothing to export: not enough data for a verdict.' : 'No configuration was exported with this report.'
  const exportBlocks: Block[] = exports.length ? [] : [{ kind: 'text', tone: 'note', text: nothing }]
  for (const e of exports) {
    const name = String(e.target).toUpperCase()
    exportBlocks.push({ kind: 'heading', text: name })
    if ('error' in e) { exportBlocks.push({ kind: 'text', tone: 'warning', text: `Could not export to ${name}: ${e.error}` }); continue }
    if (e.items.length) exportBlocks.push({ kind: 'table', caption: `How faithfully ${name} expresses the simulated EASY`, head: ['Feature', 'Fidelity', 'Note'], align: ['l', 'l', 'l'], rows: e.items.map((it) => [it.feature, it.fidelity, it.note]) })
    if (e.gaps.length) exportBlocks.push({ kind: 'list', items: e.gaps.map((g) => `Gap: ${g}`) })
    for (const f of e.files) {
      // The machine-readable recommendation repeats this report: named, not printed.
      if (f.name === RECOMMENDATION_FILE) exportBlocks.push({ kind: 'text', tone: 'note', text: `${f.name}: ${f.description} (also written by the export; its content repeats this report, so it is not printed here).` })
      else exportBlocks.push({ kind: 'file', name: f.name, description: f.description, content: f.content })
    }
    if (!e.items.length && !e.files.length) exportBlocks.push({ kind: 'text', tone: 'note', text: `The ${name} export produced no file for this recommendation.` })
  }

  const c = r.calibration
  const calibration: Block[] = c === null
    ? [{ kind: 'text', text: 'The log records no waits (or too few), so the simulator could not be compared with the real scheduler on this log.' }]
    : [{ kind: 'table', caption: `Waits of the ${fmtInt(c.jobs)} jobs with a recorded wait (${fmtPct(c.share, 0)} of the kept jobs)`, head: ['', 'Recorded (the real scheduler)', 'Simulated EASY-FCFS'], align: ['l', 'r', 'r'],
      rows: [['Mean wait', fmtDur(c.recordedMean), fmtDur(c.simulatedMean)], ['Median wait', fmtDur(c.recordedMedian), fmtDur(c.simulatedMedian)], ['90th percentile', fmtDur(c.recordedP90), fmtDur(c.simulatedP90)]] },
    { kind: 'facts', rows: [['Correlation of per-job waits', `Pearson ${ok(c.pearson) ? c.pearson.toFixed(2) : '–'}, Spearman (rank) ${ok(c.spearman) ? c.spearman.toFixed(2) : '–'}`], ['Mean difference (simulated − recorded)', fmtDur(c.meanDifference)]] },
    { kind: 'text', tone: 'note', text: c.verdict }]

  const data = dataCitations(r)
  const sections: ReportSection[] = [
    { id: 'recommendation', title: 'Verdict', blocks: summary },
    { id: 'log', title: 'The log and its cleaning', blocks: logBlocks },
    { id: 'protocol', title: 'Split, protocol and seed', blocks: protocol },
    { id: 'risk', title: 'Risk: the longest wait', blocks: risk },
    { id: 'charts', title: 'Charts', blocks: (['risk', 'trainVsTest', 'thresholds', 'weekly'] as const).map((id) => ({ kind: 'chart', id })) },
    { id: 'candidates', title: 'All candidates', blocks: candidates },
    { id: 'export', title: 'Exported configuration', blocks: exportBlocks },
    ...(opts.walltimes === undefined ? [] : [walltimesSection(opts.walltimes, { names: opts.names })]),
    { id: 'calibration', title: 'Calibration against recorded waits', blocks: calibration },
    { id: 'citations', title: 'Citations', blocks: [{ kind: 'heading', text: 'The research' }, { kind: 'list', items: RESEARCH_CITATIONS }, { kind: 'heading', text: 'The data' },
      data.length ? { kind: 'list', items: data } : { kind: 'text', text: 'Your own log: no data citation needed.' }] },
  ]
  return { title: `EasyTune report: ${r.log.name}`, subtitle: `${r.generator}${opts.generatedAt ? `, ${opts.generatedAt}` : ''}; ${fmtInt(r.log.jobsKept)} jobs on ${fmtInt(r.log.machineProcs)} processors`, sections }
}
