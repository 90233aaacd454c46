// The verdict card's words (issue #19 item 9): what the evaluation concludes, with the evidence an
// administrator needs before acting — train and test gains with their intervals, the longest-wait
// risk, who loses, how the order deploys on Slurm, and how well the simulator matched this log's
// history. One function builds it; the Results step (VerdictCard.vue) and the offline report
// (report-model.ts) both lay out this model, so the two can never disagree. Pure; reads schema 1
// documents too (their verdict is derived: baseline recommended = keep, else switch).
import type { EvaluationResult, Verdict } from '../tune/result'
import type { PartSummary } from '../tune/select'
import type { ImpactGroup, PartImpact } from '../tune/impact'
import { formatDuration } from '../util/duration'
import { formatInt, formatPercent, formatRatio, objectiveName } from '../util/format'

export interface VerdictCardRow {
  /** Stable id (tests and styling). */
  key: 'train' | 'test' | 'risk' | 'losers' | 'export' | 'deployed' | 'calibration' | 'data' | 'equivalent'
  label: string
  text: string
  tone?: 'warning' | 'note'
}

export interface VerdictCard {
  verdict: Verdict
  /** The verdict in words: "Switch to EASY-SPF Θ=20 h", "Keep what you have (EASY-FCFS)", "Not enough data". */
  title: string
  /** Why, in one or two sentences. */
  reason: string
  rows: VerdictCardRow[]
}

/** The optional schema-2 fields, read defensively (absent in schema-1 documents). */
type Protocol2 = { minGain?: number; confidence?: number; minWeeks?: number; criterion?: string; risk: { maxWaitRatio: number | null } }
type Summary2 = PartSummary & { p99Wait?: number; p99WaitRatio?: number; maxP99Wait?: number; maxP99WaitRatio?: number }

const ok = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)
const pct = (x: number) => (ok(x) ? formatPercent(x, 1) : '–')
const dur = (s: number | undefined) => (ok(s) ? formatDuration(s) : '–')
/** A group's mean-wait ratio; null (or Infinity, in documents written before null) = EASY-FCFS had no wait there. */
const ratio = (x: number | null | undefined) => (x === null || x === Infinity ? 'unbounded (EASY-FCFS had no wait)' : ok(x) ? formatRatio(x, 2) : '–')

/** The verdict of a document: its own (schema 2), else derived from a schema-1 recommendation. */
export function verdictOf(r: EvaluationResult): Verdict {
  const v = r.recommendation.verdict
  if (v === 'switch' || v === 'keep' || v === 'insufficient-data') return v
  const rec = r.recommended === undefined ? undefined : r.candidates[r.recommended]
  return !rec || rec.baseline || r.recommendation.testDisagrees ? 'keep' : 'switch'
}

/** The confidence level of the intervals: the protocol's (schema 2), 90 % in schema-1 documents. */
export function confidenceOf(r: EvaluationResult): number {
  const c = (r.protocol as Protocol2).confidence
  return ok(c) && c > 0 && c < 1 ? c : 0.9
}

/** The candidate whose evidence the card shows: the recommendation; for `keep`, the best
 * candidate on train other than the baseline (the one that failed to earn a switch). */
export function contenderOf(r: EvaluationResult): number | null {
  if (verdictOf(r) === 'switch') return r.recommended ?? null
  const rank = Array.isArray(r.ranking) ? r.ranking : []
  const c = rank.find((i) => r.candidates[i] && !r.candidates[i].baseline && r.candidates[i].admissible) ?? rank.find((i) => r.candidates[i] && !r.candidates[i].baseline)
  return c ?? null
}

/** A gain with its interval: "12.3% less average wait than EASY-FCFS (95% interval 8.1% to 16.0%)". */
export function gainWithInterval(s: PartSummary, what: string, confidence: number): string {
  const ci = Array.isArray(s.gainCi) && s.gainCi.length === 2 ? `${formatPercent(confidence, 0)} interval ${pct(s.gainCi[0])} to ${pct(s.gainCi[1])}` : 'no interval'
  const dir = ok(s.gain) && s.gain < 0 ? `${pct(-s.gain)} more ${what} than EASY-FCFS` : `${pct(s.gain)} less ${what} than EASY-FCFS`
  return `${dir} (${ci})`
}

/** True when the interval contains 0 (or touches it): no significant difference. */
export function touchesZero(s: PartSummary): boolean {
  return !(Array.isArray(s.gainCi) && s.gainCi[0] > 0) && !(Array.isArray(s.gainCi) && s.gainCi[1] < 0)
}

function groupText(g: ImpactGroup): string {
  return `${g.label} (${formatInt(g.jobs)} jobs): mean wait ${dur(g.baselineMeanWait)} → ${dur(g.meanWait)} (${ratio(g.meanRatio)}), 95th percentile ${dur(g.baselineP95Wait)} → ${dur(g.p95Wait)}`
}

/** The groups whose mean wait rises most on one part, largest rise first (only rises). */
export function topLosers(p: PartImpact | undefined, n = 3): ImpactGroup[] {
  if (!p) return []
  const all = [...(p.bySize ?? []), ...(p.byRequested ?? []), ...(p.byAccount ?? [])].filter((g) => g && g.jobs > 0 && g.meanWait > g.baselineMeanWait)
  const r = (g: ImpactGroup) => g.meanRatio ?? Infinity
  return all.sort((a, b) => (r(b) - r(a)) || (b.jobs - a.jobs)).slice(0, n)
}

const DIMENSION: Record<string, string> = { size: 'size class', requested: 'requested-time class', account: 'account' }

export function buildVerdictCard(r: EvaluationResult): VerdictCard {
  const verdict = verdictOf(r)
  const p = r.protocol as EvaluationResult['protocol'] & Protocol2
  const rec = r.recommendation
  const what = objectiveName(r.protocol.objective)
  const conf = confidenceOf(r)
  const limit = p.risk?.maxWaitRatio ?? null
  const ci = contenderOf(r)
  const c = ci === null ? null : r.candidates[ci]
  const base = r.candidates.find((x) => x.baseline) ?? r.candidates[0]
  const rows: VerdictCardRow[] = []

  let title: string
  if (verdict === 'switch') title = `Switch to ${r.candidates[r.recommended ?? 0].label}`
  else if (verdict === 'keep') title = `Keep what you have (${base.label})`
  else title = 'Not enough data to recommend a change'
  const noDifference = verdict === 'keep' && c !== null && touchesZero(c.train)
  let reason = typeof rec.reason === 'string' && rec.reason ? rec.reason : ''
  if (!reason) {
    reason = verdict === 'switch' ? `It removed ${pct(r.candidates[r.recommended ?? 0].train.gain)} of EASY-FCFS's ${what} on the training weeks, within the limit on the longest wait.`
      : verdict === 'keep' ? (c ? `No candidate earned a switch: the best, ${c.label}, ${noDifference ? 'is not significantly different from EASY-FCFS' : `removed ${pct(c.train.gain)} of the ${what}`} on the training weeks.` : 'No candidate beat EASY-FCFS on the training weeks.')
        : 'The log has too few weeks or jobs in a part for an honest comparison.'
  }
  if (noDifference && !/no significant difference/i.test(reason)) reason = `No significant difference: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`

  if (verdict === 'insufficient-data') {
    const rs = r.protocol.resample, sp = r.protocol.split
    const need = ok(p.minWeeks) ? ` (at least ${formatInt(p.minWeeks)} weeks and 1,000 jobs per part are needed)` : ''
    rows.push({ key: 'data', label: 'Data', tone: 'warning', text: `Training part: ${formatInt(rs.trainOriginalWeeks)} weeks, ${formatInt(sp.train.jobs)} jobs; test part: ${formatInt(rs.testOriginalWeeks)} weeks, ${formatInt(sp.test.jobs)} jobs${need}. Nothing to export.` })
  } else if (c) {
    const who = verdict === 'switch' ? '' : `${c.label}: `
    rows.push({ key: 'train', label: 'Gain on the training weeks (the evidence)', text: `${who}${gainWithInterval(c.train, what, conf)}${noDifference ? ': no significant difference' : ''}.` })
    rows.push({ key: 'test', label: 'Gain on the test weeks (the check)', tone: c.test.gain <= 0 && verdict === 'switch' ? 'warning' : undefined,
      text: `${who}${gainWithInterval(c.test, what, conf)}. The test weeks check the choice; they are not the evidence for it.` })
    const s = c.train as Summary2, t = c.test as Summary2
    const p99 = (x: Summary2) => (ok(x.maxP99Wait) ? `, 99th percentile ${dur(x.maxP99Wait)}` : ok(x.p99Wait) ? `, 99th percentile ${dur(x.p99Wait)}` : '')
    const lim = limit === null ? 'no limit set' : `limit ${formatRatio(limit, 1)}: ${s.maxMaxWaitRatio <= limit ? 'held' : 'exceeded'}`
    rows.push({ key: 'risk', label: 'Longest wait', tone: limit !== null && s.maxMaxWaitRatio > limit ? 'warning' : undefined,
      text: `${ratio(s.maxMaxWaitRatio)} EASY-FCFS's on the training weeks (${dur(s.maxMaxWait)}${p99(s)}; ${lim}); ${ratio(t.maxMaxWaitRatio)} on the test weeks (${dur(t.maxMaxWait)}${p99(t)}).` })
  } else {
    rows.push({ key: 'train', label: 'Gain on the training weeks (the evidence)', text: 'EASY-FCFS was the only configuration evaluated.' })
  }

  const impact = rec.impact
  if (verdict === 'switch') {
    if (!impact) rows.push({ key: 'losers', label: 'Who loses', tone: 'note', text: 'Not computed for this result (it predates the per-group comparison).' })
    else if (impact.overRisk?.length) {
      const list = impact.overRisk.slice(0, 4).map((g) => `${g.label} (${DIMENSION[g.dimension] ?? g.dimension}, ${formatInt(g.jobs)} jobs, ${g.part === 'train' ? 'training' : 'test'} weeks): mean wait ${ratio(g.meanRatio)}`)
      rows.push({ key: 'losers', label: 'Who loses', tone: 'warning', text: `Mean wait rises by more than ${limit === null ? 'the risk ratio' : formatRatio(limit, 1)} for ${list.join('; ')}${impact.overRisk.length > 4 ? `; and ${impact.overRisk.length - 4} more groups` : ''}.` })
    } else {
      const top = topLosers(impact.train, 2)
      rows.push({ key: 'losers', label: 'Who loses', text: top.length ? `No group's mean wait rises beyond the limit. Largest rises on the training weeks: ${top.map(groupText).join('; ')}.` : 'No group\'s mean wait rises on the training weeks.' })
    }
  }

  if (verdict === 'switch') {
    const ex = rec.export
    if (ex) rows.push({ key: 'export', label: 'Export to Slurm', tone: ex.lost?.length ? 'warning' : undefined,
      text: `${fidelityWords(ex.fidelity)}.${ex.lost?.length ? ` Not exported as evaluated: ${ex.lost.join('; ')}.` : ' Nothing is lost: Slurm runs the order as it was evaluated.'}` })
    else rows.push({ key: 'export', label: 'Export to Slurm', tone: 'note', text: 'Not recorded in this result (it predates the deployability check): see the exported configuration for each part\'s fidelity.' })
  } else if (verdict === 'keep') {
    rows.push({ key: 'export', label: 'Export to Slurm', text: 'Nothing to change: keep your current configuration.' })
  }

  // The exported configuration itself, simulated under Slurm's scheduling (result schema v3).
  const dep = rec.asDeployed
  if (dep && !dep.same && dep.train?.real && dep.test?.real) {
    const g = (x: { gain: number; ci: [number, number] }) => `${formatPercent(x.gain, 1)} (interval ${formatPercent(x.ci[0], 1)} to ${formatPercent(x.ci[1], 1)})`
    rows.push({ key: 'deployed', label: 'As deployed on Slurm', tone: dep.differs ? 'warning' : undefined,
      text: `The exported configuration, simulated with Slurm's own priority, main scheduler and backfill on ${r.machine?.kind === 'cluster' ? 'this machine' : 'the processors as one-CPU nodes'}: ${g(dep.train.real)} on the training weeks, ${g(dep.test.real)} on the test weeks, against the baseline as Slurm runs it.` +
        (dep.differs ? ' This lies outside the idealised order\'s interval: the verdict uses this figure.' : '') })
  }

  if (!dep && typeof rec.asDeployedNote === 'string') rows.push({ key: 'deployed', label: 'As deployed on Slurm', tone: 'note', text: `${rec.asDeployedNote.charAt(0).toUpperCase()}${rec.asDeployedNote.slice(1)}.` })

  if (Array.isArray(rec.equivalent) && rec.equivalent.length) {
    const names = rec.equivalent.filter((i) => r.candidates[i]).map((i) => r.candidates[i].label)
    if (names.length) rows.push({ key: 'equivalent', label: 'As good', text: `${names.slice(0, 5).join(', ')}${names.length > 5 ? ` and ${names.length - 5} more` : ''}: not significantly different; the simplest to deploy was chosen.` })
  }

  rows.push({ key: 'calibration', label: 'Simulator against history', text: calibrationWords(r) })
  return { verdict, title, reason, rows }
}

export function fidelityWords(f: string): string {
  switch (f) {
    case 'native': return 'Native Slurm settings (slurm.conf only)'
    case 'job_submit.lua': return 'Native settings plus a job_submit.lua script'
    case 'site factor': return 'Native settings plus a site-factor script'
    case 'not exportable': return 'Not exportable to Slurm as evaluated'
    default: return `Fidelity: ${f}`
  }
}

/** How well simulated EASY-FCFS matched the waits the log recorded, in words with numbers. */
export function calibrationWords(r: EvaluationResult): string {
  const c = r.calibration
  if (!c) return 'This log records no waits, so the simulator could not be compared with the real scheduler: trust the comparisons between orders, not the absolute waits.'
  const level = c.spearman >= 0.6 ? 'closely' : c.spearman >= 0.3 ? 'loosely' : 'poorly'
  const ratioText = c.recordedMean > 0 && ok(c.simulatedMean) ? ` (${formatRatio(c.simulatedMean / c.recordedMean, 2)})` : ''
  const who = r.machine?.kind === 'cluster' ? (r.machine.scheduler === 'slurm' ? 'Slurm\'s scheduling, simulated on this machine,' : 'Simulated EASY-FCFS on this machine\'s nodes') : 'Simulated EASY-FCFS'
  return `${who} follows the recorded waits ${level}: rank correlation ${ok(c.spearman) ? c.spearman.toFixed(2) : '–'} per job, mean wait ${dur(c.simulatedMean)} simulated against ${dur(c.recordedMean)} recorded${ratioText}, median ${dur(c.simulatedMedian)} against ${dur(c.recordedMedian)}, on ${formatInt(c.jobs)} jobs (${formatPercent(c.share, 0)} of the log).`
}
