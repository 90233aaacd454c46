// The offline report's time-limits section (docs/PREDICTIONS.md §Deployment, part b): what can be
// deployed besides ordering by prediction is better limits, through user education and default
// limits per partition; the section names the users and partitions to start with, from the
// walltimes analysis (src/core/predict/walltimes.ts, `easytune walltimes --json`), read here as
// hostile input. Users are pseudonymised unless the caller asks for names (for local eyes only):
// an analysis made with real names is pseudonymised again here, by its own ranks.
import type { Block, ReportSection } from './report-model'
import { pseudonym, WALLTIMES_SCHEMA_VERSION, type WalltimesGroup, type WalltimesReport } from '../predict/walltimes'
import { formatDuration } from '../util/duration'
import { formatInt, formatPercent, formatRatio, NO_VALUE } from '../util/format'

export interface WalltimesSectionOptions {
  /** Show the user names the analysis holds (only when it was made with names). Default false. */
  readonly names?: boolean
}

/** Slurm's DefaultTime is in minutes; the suggestion is rounded up to this many minutes. */
export const DEFAULT_TIME_STEP_MIN = 15

const fail = (path: string, want: string): never => { throw new Error(`this is not a valid walltimes analysis (easytune walltimes --json): ${path} should be ${want}`) }
const isObj = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x)
const num = (o: Record<string, unknown>, k: string, path: string, nullable = false): void => {
  const x = o[k]
  if (!(typeof x === 'number' && Number.isFinite(x)) && !(nullable && x === null)) fail(`${path}.${k}`, nullable ? 'a number or null' : 'a number')
}

function checkGroup(g: unknown, path: string): void {
  if (!isObj(g)) fail(path, 'an object')
  const o = g as Record<string, unknown>
  if (typeof o.name !== 'string' || o.name.length > 200) fail(`${path}.name`, 'text')
  if (typeof o.unknown !== 'boolean') fail(`${path}.unknown`, 'true or false')
  for (const k of ['rank', 'jobs', 'overRequestedCpuHours', 'shareOfOverRequest', 'usedShare', 'runtimeP90']) num(o, k, path)
  num(o, 'overRequestedNodeHours', path, true)
  if (!isObj(o.ratio)) fail(`${path}.ratio`, 'an object')
  for (const k of ['p10', 'p25', 'p50', 'p75', 'p90', 'max']) num(o.ratio as Record<string, unknown>, k, `${path}.ratio`)
  if (!isObj(o.commonLimit)) fail(`${path}.commonLimit`, 'an object')
  for (const k of ['seconds', 'share']) num(o.commonLimit as Record<string, unknown>, k, `${path}.commonLimit`)
}

/** Checks the fields the section reads; throws an Error in plain words naming the field. */
export function validateWalltimes(x: unknown): WalltimesReport {
  if (!isObj(x)) fail('the file', 'a JSON object')
  const o = x as Record<string, unknown>
  if (o.schemaVersion !== WALLTIMES_SCHEMA_VERSION) fail('schemaVersion', String(WALLTIMES_SCHEMA_VERSION))
  if (o.names !== 'pseudonyms' && o.names !== 'real') fail('names', '"pseudonyms" or "real"')
  if (o.hours !== 'node-hours' && o.hours !== 'cpu-hours') fail('hours', '"node-hours" or "cpu-hours"')
  if (!isObj(o.site)) fail('site', 'an object')
  const site = o.site as Record<string, unknown>
  for (const k of ['jobs', 'overRequestedCpuHours', 'usedShare']) num(site, k, 'site')
  num(site, 'overRequestedNodeHours', 'site', true)
  if (site.ratio !== null) {
    if (!isObj(site.ratio)) fail('site.ratio', 'an object or null')
    num(site.ratio as Record<string, unknown>, 'p50', 'site.ratio')
  }
  for (const k of ['users', 'partitions'] as const) {
    if (!Array.isArray(o[k])) fail(k, 'a list')
    ;(o[k] as unknown[]).forEach((g, i) => checkGroup(g, `${k}.${i}`))
  }
  if (!isObj(o.startWith)) fail('startWith', 'an object')
  for (const k of ['users', 'partitions'] as const) {
    const list = (o.startWith as Record<string, unknown>)[k]
    if (!Array.isArray(list)) fail(`startWith.${k}`, 'a list')
    ;(list as unknown[]).forEach((s, i) => {
      if (!isObj(s) || typeof s.name !== 'string') fail(`startWith.${k}.${i}.name`, 'text')
      num(s as Record<string, unknown>, 'rank', `startWith.${k}.${i}`)
    })
  }
  return x as unknown as WalltimesReport
}

/** The over-requested hours in the analysis's ranking unit. */
function hours(w: WalltimesReport, g: { overRequestedNodeHours: number | null; overRequestedCpuHours: number }): string {
  const h = w.hours === 'node-hours' ? g.overRequestedNodeHours : g.overRequestedCpuHours
  return h === null ? NO_VALUE : `${formatInt(h)} ${w.hours === 'node-hours' ? 'node-hours' : 'CPU-hours'}`
}

/** A partition's suggested DefaultTime (minutes), under the analysis's own rule for a lower
 * default (walltimes.ts startPartitions: half or more of the jobs ask the same limit and 90 % of
 * them end within half of it): its runtimes' 90th percentile, rounded up to the step, at most that
 * limit. null when the rule does not hold: a lower default would cut too many jobs short. */
export function suggestedDefaultMinutes(g: Pick<WalltimesGroup, 'runtimeP90' | 'commonLimit'>): number | null {
  if (!(g.commonLimit.share >= 0.5 && g.runtimeP90 <= g.commonLimit.seconds / 2)) return null
  const step = DEFAULT_TIME_STEP_MIN
  const p90 = Math.max(step, Math.ceil(g.runtimeP90 / 60 / step) * step)
  return Math.min(p90, Math.floor(g.commonLimit.seconds / 60))
}

/** The section (b) of the report: who and where to start with better time limits. */
export function walltimesSection(input: unknown, opts: WalltimesSectionOptions = {}): ReportSection {
  const w = validateWalltimes(input)
  const showNames = opts.names === true && w.names === 'real'
  // The analysis's own pseudonyms: rank among the named users, of that many (walltimes.ts).
  const named = w.users.filter((g) => !g.unknown).length
  const userName = (g: WalltimesGroup) => (g.unknown ? 'unknown' : showNames || w.names === 'pseudonyms' ? g.name : pseudonym('user', g.rank, named))
  const byName = new Map(w.users.map((g) => [g.name, g]))
  const partByName = new Map(w.partitions.map((g) => [g.name, g]))
  const users = w.startWith.users.map((s) => byName.get(s.name)).filter((g): g is WalltimesGroup => g !== undefined)
  const parts = w.startWith.partitions.map((s) => partByName.get(s.name)).filter((g): g is WalltimesGroup => g !== undefined)
  const blocks: Block[] = [
    { kind: 'text', text: 'Slurm plans its reservations and its backfilling on the time limits, so a runtime prediction cannot replace them there. Two things can be deployed: (a) ordering the queue by predicted runtime through the site factor (the predicted-order export, with its measured fidelity), and (b) better limits, by talking to the users whose limits are furthest from their runtimes and by default limits per partition. This section names where to start with (b).' },
    { kind: 'facts', rows: [
      ['Jobs analysed', formatInt(w.site.jobs)],
      ['Requested / actual time, median job', w.site.ratio === null ? NO_VALUE : formatRatio(w.site.ratio.p50)],
      ['Time asked beyond what the jobs used', hours(w, w.site)],
      ['Share of the requested CPU time used', formatPercent(w.site.usedShare)],
    ] },
  ]
  if (users.length) {
    blocks.push({ kind: 'heading', text: 'Users to start with (user education)' })
    blocks.push({ kind: 'table', caption: `Ranked by ${w.hours === 'node-hours' ? 'node-hours' : 'CPU-hours'} asked beyond the runtimes; ratio = requested / actual time per job`,
      head: ['Rank', 'User', 'Jobs', 'Ratio, median', 'Ratio, 90th pct', 'Asked beyond use', 'Share of the site\'s', 'Requested time used'], align: ['r', 'l', 'r', 'r', 'r', 'r', 'r', 'r'], nowrap: [1],
      rows: users.map((g) => [String(g.rank), userName(g), formatInt(g.jobs), formatRatio(g.ratio.p50), formatRatio(g.ratio.p90), hours(w, g), formatPercent(g.shareOfOverRequest), formatPercent(g.usedShare)]) })
    const share = users.reduce((a, g) => a + g.shareOfOverRequest, 0)
    blocks.push({ kind: 'text', tone: 'note', text: `These ${formatInt(users.length)} users account for ${formatPercent(share)} of the time asked beyond use. Show each the runtimes of their recent jobs against their limits: a limit close to the runtime lets their jobs backfill sooner.` })
  } else {
    blocks.push({ kind: 'text', tone: 'note', text: named > 0 ? 'No user stands out: the time asked beyond use is spread thinly.' : 'The log records no users: the analysis cannot name any.' })
  }
  if (parts.length) {
    blocks.push({ kind: 'heading', text: 'Partitions to start with (default limits)' })
    blocks.push({ kind: 'table', caption: `Suggested DefaultTime: when half or more of the jobs ask the same limit and 90 % of them end within half of it, the 90th percentile of the runtimes rounded up to ${DEFAULT_TIME_STEP_MIN} min`,
      head: ['Partition', 'Jobs', 'Most common limit (jobs asking it)', 'Runtime, 90th pct', 'Ratio, median', 'Asked beyond use', 'Suggested DefaultTime'], align: ['l', 'r', 'r', 'r', 'r', 'r', 'r'], nowrap: [0],
      rows: parts.map((g) => {
        const d = suggestedDefaultMinutes(g)
        return [g.unknown ? 'unknown' : g.name, formatInt(g.jobs), `${formatDuration(g.commonLimit.seconds)} (${formatPercent(g.commonLimit.share)})`, formatDuration(g.runtimeP90), formatRatio(g.ratio.p50), hours(w, g), d === null ? 'none: talk to its users' : `${formatInt(d)} min`]
      }) })
    blocks.push({ kind: 'text', tone: 'note', text: 'A limit asked by most jobs is usually a default nobody changes. With a suggested DefaultTime, about one job in ten of the partition ran longer than it: those jobs must then ask for their limit (a job that reaches its limit is killed), so announce the change first. Where none is suggested, no limit is asked by half of the jobs, or 90 % of them do not end within half of it: a lower default would cut too many short, and their users are where to start.' })
  } else if (w.partitions.length === 0) {
    blocks.push({ kind: 'text', tone: 'note', text: 'The log records no partitions: default limits per partition cannot be suggested from it.' })
  }
  blocks.push({ kind: 'text', tone: 'note', text: showNames
    ? 'Real user names are shown, as asked: keep this report on the machine that made it.'
    : `Users are pseudonyms (${pseudonym('user', 1, Math.max(1, named))} is the user with the most time asked beyond use); the names stay on the machine that ran the analysis. Partitions keep their names: they are the site's configuration, not people.` })
  return { id: 'time-limits', title: 'Time limits: user education and default limits per partition', blocks }
}
