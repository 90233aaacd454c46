// `easytune walltimes <log>`: the administrator's view of the time limits (issue #22 item 5;
// docs/PREDICTIONS.md §Time limits): whose limits are worst, and what better ones would gain.
import { bool, jsonTarget, parseArgs, positiveInt, positiveNumber, UsageError } from '../args'
import { citation, IMPORT_FLAGS, IMPORT_HELP, importOptions, loadWorkload, logArg } from '../common'
import { INTERRUPTED, int, num, pct, Progress, SLICE_CHECK_EVERY, SLICE_MS, sliceProgress, table, untilInterrupted, writeJson, type Io } from '../output'
import { DEFAULTS } from '../../core/defaults'
import { analyzeWalltimes, type RatioQuantiles, type WalltimesGroup, type WalltimesReport, type WalltimesWhatIf, type WhatIfOutcome } from '../../core/predict/walltimes'
import { campaignOf, findWhatIf, WHATIF_SCENARIOS, whatIfFailed, whatIfOutcome, whatIfReport, whatIfSimulator } from '../../core/predict/walltimes-whatif'
import type { WhatIfId } from '../../core/predict/walltimes'
import { formatDuration } from '../../core/util/duration'
import { formatRatio } from '../../core/util/format'
import type { Workload } from '../../core/workload/import'
import { shown, whyDefaults } from '../defaults-help'

export const walltimesHelp = `easytune walltimes <log>… [options]

How far the users' time limits are from what their jobs use, per user, account and partition
(the requested/actual ratio and the node-hours asked for beyond the runtime), the users and
partitions to start with, and what EASY-FCFS would give on the whole log with exact limits and
with learned predictions.

User and account names are pseudonymised (user-001 = the user who over-requests most in this
log) in the text and the JSON, so that both can leave the machine.

Options:
  --names                  show the real user and account names (for your eyes only: do not
                           share the output)
  --no-what-if             skip the what-if simulations (the analysis alone takes a second)
  --what-if S,S…           the scenarios to simulate besides today's limits: clairvoyant, eloss,
                           easy++ (default: all)
  --top N                  rows per table in the text (default 10; the JSON has every row)
  --tau S                  bound of the bounded slowdown in seconds (default ${shown('tau')})
${IMPORT_HELP}
  --json [file]            print the result as JSON (to stdout, or to the file)

${whyDefaults([['tau', 'tau'], ['overrun', 'overrun'], ['requested-fallback', 'requestedFallback']])}
How the ratio and the names to start with are chosen: ${DEFAULTS.walltimes.why}.
`

const TOP = 10

export async function walltimesCommand(argv: string[], io: Io): Promise<number> {
  const a = parseArgs(argv, { ...IMPORT_FLAGS, names: 'boolean', 'no-what-if': 'boolean', 'what-if': 'string', top: 'string', tau: 'string', json: 'optional', help: 'boolean' })
  if (bool(a, 'help')) { io.out(walltimesHelp); return 0 }
  const log = await logArg(a, 'walltimes', io)
  const tau = positiveNumber(a, 'tau') ?? DEFAULTS.tau.value
  const top = positiveInt(a, 'top') ?? TOP
  const scenarios = whatIfFlag(a)
  const json = jsonTarget(a)
  const w = await loadWorkload(io, log, importOptions(a))
  if (w.jobs.count === 0) {
    io.err(`easytune: ${log.label}: no job is left after cleaning, nothing to analyse.\n`)
    for (const warning of w.report.warnings) io.err(`  ${warning}\n`)
    return 1
  }
  const base = analyzeWalltimes(w, { names: bool(a, 'names') })
  let whatIf: WalltimesWhatIf | null = null
  if (scenarios !== null) {
    const progress = new Progress(io)
    const r = await untilInterrupted(io, progress, (signal) => runWhatIf(io, progress, w, scenarios, tau, signal))
    if (r === INTERRUPTED) return 130
    whatIf = r
  }
  const report: WalltimesReport = { ...base, whatIf, campaign: campaignOf(whatIf) }
  if (json) writeJson(io, json, { ...report, citation: citation(w) })
  if (!json || json.file !== null) io.out(formatWalltimes(report, w, top))
  return 0
}

/** The scenarios to simulate (today's limits always), or null for --no-what-if. */
function whatIfFlag(a: ReturnType<typeof parseArgs>): WhatIfId[] | null {
  const list = a.flags.get('what-if')
  if (bool(a, 'no-what-if')) {
    if (list !== undefined) throw new UsageError('--no-what-if and --what-if cannot go together')
    return null
  }
  if (typeof list !== 'string') return WHATIF_SCENARIOS.map((s) => s.id)
  const ids: WhatIfId[] = ['requested']
  for (const part of list.split(',')) {
    const s = findWhatIf(part.trim().toLowerCase())
    if (!s) throw new UsageError(`--what-if: unknown scenario "${part.trim()}"; known: ${WHATIF_SCENARIOS.filter((x) => x.id !== 'requested').map((x) => x.id).join(', ')}`)
    if (!ids.includes(s.id)) ids.push(s.id)
  }
  return ids
}


/** Each scenario on the whole log in slices, with progress; a scenario that cannot run (the learner
 * not available) is reported in words and the others go on. */
async function runWhatIf(io: Io, progress: Progress, w: Workload, ids: readonly WhatIfId[], tau: number, signal: AbortSignal): Promise<WalltimesWhatIf> {
  const jobs = w.jobs
  const chosen = WHATIF_SCENARIOS.filter((s) => ids.includes(s.id))
  const outcomes: WhatIfOutcome[] = []
  let today: WhatIfOutcome | null = null
  const show = sliceProgress(io, progress)
  for (const [k, s] of chosen.entries()) {
    let sliceEnd = 0
    const sim = whatIfSimulator(s, jobs, w.machineProcs, { checkEvery: SLICE_CHECK_EVERY, onCheck: () => performance.now() >= sliceEnd })
    if (typeof sim === 'string') { outcomes.push(whatIfFailed(s, sim)); continue }
    let failed: string | null = null
    for (;;) {
      sliceEnd = performance.now() + SLICE_MS
      let more: boolean
      try {
        more = sim.runUntil(Infinity)
      } catch (e) {
        if (e instanceof Error && /not (yet )?(available|implemented)/i.test(e.message)) { failed = e.message; break }
        throw e
      }
      if (!more) break
      await new Promise((resolve) => setImmediate(resolve))
      signal.throwIfAborted()
      show(`what-if ${k + 1} of ${chosen.length} (${s.label})`, (k + sim.jobsStarted / Math.max(1, jobs.count)) / chosen.length, `${int(sim.jobsStarted)} of ${int(jobs.count)} jobs started`)
    }
    if (failed !== null) { outcomes.push(whatIfFailed(s, failed)); continue }
    const o = whatIfOutcome(s, jobs, w.machineProcs, sim.start, sim, tau, today)
    if (s.id === 'requested') today = o
    outcomes.push(o)
  }
  return whatIfReport(jobs, w.machineProcs, tau, outcomes)
}

const hoursUnit = (r: WalltimesReport) => r.hours === 'node-hours' ? 'node-hours' : 'CPU-hours'
const x = (v: number) => formatRatio(v, v >= 10 ? 0 : 1)
const quantilesText = (q: RatioQuantiles) => `median ${x(q.p50)} (p25 ${x(q.p25)}, p75 ${x(q.p75)}, p90 ${x(q.p90)})`

/** The text report: units on every number. */
export function formatWalltimes(r: WalltimesReport, w: Workload, top: number): string {
  const unit = hoursUnit(r)
  const lines: string[] = []
  const users = r.users.filter((u) => !u.unknown).length
  lines.push(`Time limits on ${r.log}: ${int(r.site.jobs)} jobs, ${users > 0 ? `${int(users)} users` : 'no user recorded'}`)
  if (users > 0 || r.recorded.accounts) lines.push(r.names === 'pseudonyms'
    ? 'Users and accounts are pseudonymised: user-001 is the one who over-requests most in this log (--names shows the real names, for your eyes only).'
    : 'REAL user and account names are shown (--names): do not share this output.')
  lines.push(`Ratio = requested time / actual runtime; runtimes and limits under ${formatDuration(r.ratioFloor)} count as ${formatDuration(r.ratioFloor)}.`)
  lines.push('')
  const s = r.site
  const overText = r.hours === 'node-hours'
    ? `${int(s.overRequestedNodeHours ?? 0)} node-hours (${int(s.overRequestedCpuHours)} CPU-hours)${s.jobsWithoutNodes > 0 ? `; ${int(s.jobsWithoutNodes)} jobs of unknown node count left out of the node-hours` : ''}`
    : `${int(s.overRequestedCpuHours)} CPU-hours (the log records no node counts: processors × hours)`
  lines.push('Site')
  lines.push(table([
    ['  Requested / actual', s.ratio ? quantilesText(s.ratio) : '–'],
    [`  Jobs asking ${x(DEFAULTS.walltimes.value.poorRatio)} or more what they use`, `${pct(s.poorJobs / Math.max(1, s.jobs))} (${int(s.poorJobs)} jobs)`],
    ['  Over-requested', overText],
    ['  Requested CPU time used', `${pct(s.usedShare)} (Σ runtime × processors / Σ limit × processors)`],
  ]).trimEnd())
  lines.push('')
  lines.push('Requested / actual, all jobs')
  const widest = Math.max(1, ...r.distribution.map((b) => b.share))
  lines.push(table(r.distribution.map((b) => [`  ${b.to === null ? `${x(b.from)} and more` : b.from === 0 ? `under ${x(b.to)} (ran past the limit)` : `${x(b.from)} to ${x(b.to)}`}`, pct(b.share), `${int(b.jobs)} jobs`, '#'.repeat(Math.round((b.share / widest) * 30))]), ['l', 'r', 'r', 'l']).trimEnd())
  groupTable(lines, 'Users', r.users, r, top)
  if (r.recorded.accounts) groupTable(lines, 'Accounts', r.accounts, r, top)
  else lines.push('', 'Accounts: the log records none.')
  if (r.recorded.partitions) groupTable(lines, 'Partitions', r.partitions, r, top)
  else lines.push('', 'Partitions: the log records none.')
  lines.push('', `Start with (by over-requested ${unit})`)
  if (r.startWith.users.length === 0) lines.push(`  Users: none stands out (at least ${DEFAULTS.walltimes.value.minJobs} jobs, a quarter of them asking ${x(DEFAULTS.walltimes.value.poorRatio)} or more what they use).`)
  for (const u of r.startWith.users) lines.push(`  User ${u.name}: ${u.reason}.`)
  if (r.recorded.partitions && r.startWith.partitions.length === 0) lines.push('  Partitions: none stands out.')
  for (const p of r.startWith.partitions) lines.push(`  Partition ${p.name}: ${p.reason}.`)
  if (r.whatIf) whatIfText(lines, r.whatIf)
  if (r.campaign) lines.push('', `The prediction campaign selects ${r.campaign.label}, by leave-one-out across ${r.campaign.logs.join(', ')} (easytune predictions; every fold chose it without the log it held out, so it was chosen on other logs than this one)${r.campaign.outcome?.avgBsld != null ? `: on this log it gives an average bounded slowdown of ${num(r.campaign.outcome.avgBsld)}${r.campaign.outcome.bsldVsToday != null ? ` (${change(r.campaign.outcome.bsldVsToday)} vs today's limits)` : ''}` : ''}.`)
  lines.push('', `Deployment: ${r.deployment}`)
  const cite = citation(w)
  if (cite) lines.push('', `Data: ${cite}`)
  return lines.join('\n') + '\n'
}

function groupTable(lines: string[], title: string, groups: readonly WalltimesGroup[], r: WalltimesReport, top: number): void {
  const unit = hoursUnit(r)
  lines.push('', `${title} (by over-requested ${unit}, most first)`)
  const rows = [['  Name', 'Jobs', 'Median ratio', 'p90 ratio', `Over-requested ${unit}`, 'Share', 'Limit used']]
  for (const g of groups.slice(0, top)) {
    rows.push([`  ${g.name}`, int(g.jobs), x(g.ratio.p50), x(g.ratio.p90), `${int(g.overRequestedNodeHours ?? g.overRequestedCpuHours)} h`, pct(g.shareOfOverRequest), pct(g.usedShare)])
  }
  lines.push(table(rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r']).trimEnd())
  if (groups.length > top) lines.push(`  … and ${int(groups.length - top)} more (--top N, or --json for every row)`)
}

function whatIfText(lines: string[], wi: WalltimesWhatIf): void {
  lines.push('', `What if (the site's order, EASY-FCFS, on the whole log: ${int(wi.jobs)} jobs, ${int(wi.machineProcs)} processors; bounded slowdown with τ = ${wi.tau} s)`)
  const rows = [['  Scenario', 'Average wait', '', 'Average bounded slowdown', 'vs today\'s limits']]
  for (const o of wi.outcomes) {
    if (o.error !== null) { rows.push([`  ${o.label}`, 'not available', '', '', '']); continue }
    const vs = o.id === 'requested' ? '' : `wait ${change(o.waitVsToday)}, slowdown ${change(o.bsldVsToday)}`
    rows.push([`  ${o.label}`, formatDuration(o.avgWait ?? NaN), `${num(o.avgWait ?? NaN, 0)} s`, num(o.avgBsld ?? NaN), vs])
  }
  lines.push(table(rows, ['l', 'r', 'r', 'r', 'l']).trimEnd())
  for (const o of wi.outcomes) {
    const s = findWhatIf(o.id)
    if (o.error !== null) lines.push(`  ${o.label}: not available: ${o.error}.`)
    else if (s) lines.push(`  ${o.label}: ${s.explain}.`)
  }
}

/** 0.8 → "−20.0%", 1.02 → "+2.0%", 1 → "0.0%". */
const change = (v: number | null) => v === null ? '–' : `${v > 1 && pct(v - 1) !== pct(0) ? '+' : ''}${pct(v - 1)}`
