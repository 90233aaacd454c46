// The "Who pays" block of `easytune evaluate`'s human output (docs/IMPACT.md): the groups of jobs
// whose mean wait rises most under the recommendation, with their job counts, on train and test.
import { DEFAULTS } from '../core/defaults'
import type { Impact, ImpactGroup, PartImpact } from '../core/tune/impact'
import { formatDuration } from '../core/util/duration'
import { formatInt } from '../core/util/format'
import { table } from './output'

/** Groups shown at most. */
const SHOWN = 6

const DIMENSIONS = [['size', 'bySize'], ['requested', 'byRequested'], ['account', 'byAccount']] as const

function ratio(g: ImpactGroup): string {
  return g.meanRatio === null ? 'from 0' : `${g.meanRatio.toFixed(2)}×`
}

function change(g: ImpactGroup | undefined): string[] {
  if (!g) return ['—', '—', '—']
  return [formatInt(g.jobs), `${formatDuration(g.baselineMeanWait)} → ${formatDuration(g.meanWait)} (${ratio(g)})`, `${formatDuration(g.baselineP95Wait)} → ${formatDuration(g.p95Wait)}`]
}

function find(p: PartImpact, key: typeof DIMENSIONS[number][1], label: string): ImpactGroup | undefined {
  return p[key].find((g) => g.label === label)
}

/** The block's lines (empty when there is no impact: insufficient data). */
export function whoPaysLines(impact: Impact | null | undefined, maxWaitRatio: number | null, baseline = 'EASY-FCFS'): string[] {
  if (!impact) return []
  const minJobs = DEFAULTS.impact.value.minJobs
  const risers: { key: typeof DIMENSIONS[number][1]; g: ImpactGroup; rise: number }[] = []
  for (const [, key] of DIMENSIONS) {
    for (const g of impact.train[key]) {
      const rise = g.meanWait - g.baselineMeanWait
      if (g.jobs >= minJobs && rise > 0) risers.push({ key, g, rise })
    }
  }
  risers.sort((a, b) => b.rise - a.rise)
  const who = impact.train.accountKind === 'account' ? 'account' : 'user'
  const lines = ['', `Who pays (mean wait per job, ${baseline} → recommended, each part's real weeks; groups of ${minJobs} jobs or more; ${who}s by name):`]
  if (risers.length === 0) {
    lines.push(`  No job-size class, requested-time class or ${who} waits longer on average on the training months.`)
  } else {
    const rows = [['group', 'train jobs', 'train mean wait', 'train 95th pct', 'test jobs', 'test mean wait', 'test 95th pct']]
    for (const { key, g } of risers.slice(0, SHOWN)) {
      const label = key === 'byAccount' ? `${who} ${g.label}` : g.label
      rows.push([label, ...change(g), ...change(find(impact.test, key, g.label))])
    }
    lines.push(table(rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r']).trimEnd())
    if (risers.slice(0, SHOWN).some((x) => x.key === 'byAccount' && !find(impact.test, x.key, x.g.label))) lines.push(`  — : not among the test months' ${DEFAULTS.impact.value.topAccounts} ${who}s whose total wait grows most.`)
  }
  if (maxWaitRatio !== null) {
    const over = impact.overRisk.map((o) => `${o.dimension === 'account' ? `${who} ${o.label}` : o.label} on ${o.part} (${formatInt(o.jobs)} jobs, mean wait ${o.meanRatio === null ? 'up from 0' : `${o.meanRatio.toFixed(2)}×`})`)
    lines.push(over.length === 0
      ? `  No group's mean wait rises beyond the risk ratio (${maxWaitRatio}×).`
      : `  Beyond the risk ratio (${maxWaitRatio}×): ${over.join('; ')}.`)
  }
  return lines
}
