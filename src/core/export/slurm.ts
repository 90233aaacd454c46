// Slurm export (docs/POLICIES.md, "Slurm"): a commented slurm.conf fragment, job_submit.lua and the
// periodic site-factor script when the policy needs them, each item labelled with its fidelity.
import type { ExportBundle, ExportFile, Fidelity } from './types'
import { formatDuration } from '../util/duration'
import { fmtInt } from './expr'
import { describeMixed, FEATURE_NAMES } from './policy'
import { lostGap, lostHeader, lostParts } from './lost'
import { jobSubmitLua, LUA_FILE, SITE_FACTOR_FILE, siteFactorScript } from './scripts'
import { BASE, BF_MAX_JOB_TEST, BF_WINDOW_MIN, needsLua, slurmPlan, type SlurmPlan } from './slurm-plan'
import { choiceLabel, ExportInputError, type ExportInput } from './validate'

export const SLURM_CONF_FILE = 'slurm.conf.easytune'
export const DEFAULT_SLURM_VERSION = '22.05'
type Item = ExportBundle['items'][number]

/** "22.05", "23.02.7", …; the site factor needs 19.05 or later. */
export function checkSlurmVersion(version: string): string {
  const m = /^(\d{2})\.(\d{2})(\.\d{1,3})?$/.exec(version)
  if (!m) throw new ExportInputError(`"${version.slice(0, 40)}" is not a Slurm version such as 22.05 or 23.02`)
  if (Number(m[1]) * 100 + Number(m[2]) < 1905) throw new ExportInputError(`Slurm ${version} is too old: the exported order needs the site factor of Slurm 19.05 or later`)
  return version
}

export function orderItem(x: ExportInput, plan: SlurmPlan): Item[] {
  const name = `queue order ${choiceLabel(x.primary)}`
  const it = (feature: string, fidelity: Fidelity, note: string): Item => ({ feature, fidelity, note })
  switch (plan.mode) {
    case 'fcfs': return [it(name, 'native', 'every job gets the same priority, so Slurm orders by submit time, then job id (no slurmdbd needed)')]
    case 'tres': return [it(name, 'native', `PriorityWeightTRES=CPU=${plan.perCpu} with PriorityFlags=NO_NORMAL_TRES: priority moves by ${plan.perCpu} per CPU; faithful within one partition`)]
    case 'lua': return [it(name, 'job_submit.lua', 'static per-job term: the site factor is set at submission (and follows time-limit changes)')]
    case 'sitefactor': return [it(name, 'site factor', `${SITE_FACTOR_FILE} recomputes every pending job's site factor; the order is as fresh as its last run`)]
    case 'none': return [it(name, 'not exportable', plan.reason)]
    case 'linear': {
      const out: Item[] = []
      const c = plan.coef
      if (c[0] !== 0) out.push(it(`mixed term ${FEATURE_NAMES[0]}`, 'native', `PriorityWeightTRES=CPU=${plan.tresPerCpu} (NO_NORMAL_TRES), rounded to a whole number`))
      if (c[2] !== 0) out.push(it(`mixed term ${FEATURE_NAMES[2]}`, 'native', `PriorityWeightAge=${plan.ageWeight} with PriorityMaxAge=${plan.maxAgeMin} min; needs slurmdbd (Slurm ignores the age weight without it) and waits below PriorityMaxAge`))
      for (const i of [1, 4, 5]) if (c[i] !== 0) out.push(it(`mixed term ${FEATURE_NAMES[i]}`, 'job_submit.lua', 'static per-job term in the site factor, scaled like the other terms'))
      return out
    }
  }
}

export function slurmItems(x: ExportInput, plan: SlurmPlan): Item[] {
  const items = orderItem(x, plan)
  if (x.threshold !== null) {
    items.push(plan.mode === 'fcfs'
      ? { feature: 'threshold', fidelity: 'native', note: 'jobs past the threshold are the oldest ones: the FCFS order already runs them first' }
      : plan.mode === 'none'
        ? { feature: 'threshold', fidelity: 'not exportable', note: 'the queue order itself cannot be exported' }
        : { feature: 'threshold', fidelity: 'site factor', note: `${SITE_FACTOR_FILE} lifts jobs that waited longer than the threshold above all others, oldest first; resolution = how often it runs` })
  }
  if (x.backfill !== 'same') items.push(backfillItem(x, plan))
  items.push({ feature: 'EASY backfilling (one reservation)', fidelity: 'native', note: 'sched/backfill with bf_job_part_count_reserve=1: approximate, see the known gaps' })
  return items
}

/** A separate backfill order (EASY-P_R-P_B): Slurm's backfill walks the priority order, so only
 * the primary's own policy without a threshold (or FCFS, which a threshold cannot change) is
 * exported as evaluated (docs/POLICIES.md, "Slurm"). */
function backfillItem(x: ExportInput, plan: SlurmPlan): Item {
  const feature = `backfill order ${x.backfill}`
  const samePolicy = x.primary.kind === 'pure' && x.primary.id === x.backfill
  if (samePolicy && plan.mode !== 'none' && (x.threshold === null || plan.mode === 'fcfs')) {
    return { feature, fidelity: 'native', note: "the primary order itself, which Slurm's backfill walks" }
  }
  if (samePolicy) {
    return { feature, fidelity: 'not exportable', note: `Slurm's backfill walks the thresholded priority order (jobs past the threshold first), whereas the evaluated backfill scanned the pure ${x.backfill} order without the threshold's promotion` }
  }
  return { feature, fidelity: 'not exportable', note: `Slurm's backfill walks the same priority order: the exported primary order ${choiceLabel(x.primary)} is used for backfilling instead of ${x.backfill}` }
}

export function slurmGaps(plan: SlurmPlan): string[] {
  const gaps = [
    'One reservation per partition, not per cluster (bf_job_part_count_reserve counts per partition).',
    'Backfill reserves whole nodes, not single CPUs; EasyTune simulates a pool of CPUs.',
    'Backfill runs periodically (bf_interval) and the event-driven main scheduler stops a partition at its first blocked job.',
    "No separate backfill order: Slurm's backfill walks the same priority order.",
    'Partition PriorityTier, preemption and advance reservations come before job priority.',
    'Requested time is the time limit, in whole minutes; jobs without one count as 7 days here.',
  ]
  if (plan.mode === 'sitefactor') gaps.push(`The order is only as fresh as the last run of ${SITE_FACTOR_FILE} (the simulator re-sorts at every event).`)
  if (plan.mode === 'linear' && plan.coef[2] !== 0) gaps.push('The wait term uses the Age factor: it needs slurmdbd, counts from eligibility (accrue time), and stops growing at PriorityMaxAge.')
  if (plan.mode === 'linear' || plan.mode === 'tres') gaps.push('CPU counts are raw (NO_NORMAL_TRES), the same in every partition.')
  return gaps
}

function priorityLines(plan: SlurmPlan): string[] {
  const tres = plan.mode === 'tres' ? plan.perCpu : plan.mode === 'linear' ? plan.tresPerCpu : 0
  const age = plan.mode === 'linear' ? plan.ageWeight : 0
  const lines = [
    'PriorityType=priority/multifactor',
    '# Every job gets the same base priority from the partition factor (keep PriorityJobFactor',
    '# equal on all partitions); the order comes from the terms below. Total stays < 2^32.',
    `PriorityWeightPartition=${fmtInt(BASE)}`,
    `PriorityWeightAge=${fmtInt(age, 2 ** 32 - 1)}`,
    'PriorityWeightAssoc=0',
    'PriorityWeightFairshare=0',
    'PriorityWeightQOS=0',
    '# The job-size factor averages a node term and a CPU term (approximate); CPUs use TRES.',
    'PriorityWeightJobSize=0',
    'PriorityFavorSmall=NO',
    `PriorityWeightTRES=CPU=${fmtInt(tres)}`,
  ]
  if (tres !== 0) lines.push('# the CPU factor is the raw count of CPUs, not a share of the partition', 'PriorityFlags=NO_NORMAL_TRES')
  if (plan.mode === 'linear' && age !== 0) lines.push('# the age factor grows linearly up to PriorityMaxAge (minutes): twice the longest simulated wait', `PriorityMaxAge=${fmtInt(plan.maxAgeMin)}`)
  else lines.push('# PriorityMaxAge is not used (PriorityWeightAge=0)')
  lines.push('# minutes between priority recalculations', `PriorityCalcPeriod=${plan.mode === 'linear' && age !== 0 ? 1 : 5}`)
  if (needsLua(plan)) lines.push(`# ${LUA_FILE} must sit next to slurm.conf; add lua to any JobSubmitPlugins you already use`, 'JobSubmitPlugins=lua')
  if (plan.mode === 'sitefactor') lines.push(`# run ${SITE_FACTOR_FILE} as root every minute (cron or a service loop)`)
  return lines
}

function title(x: ExportInput, version: string): string[] {
  const order = x.primary.kind === 'mixed' ? `mixed ${describeMixed(x.primary)}` : x.primary.id
  const theta = x.threshold === null ? 'no threshold' : `threshold ${fmtInt(Math.round(x.threshold), 1e9)} s (${formatDuration(x.threshold)})`
  return [
    `EasyTune export for Slurm ${version}: queue order ${order}, ${theta}.`,
    ...(x.sha256 ? [`Evaluated on the log with sha256 ${x.sha256}.`] : []),
  ]
}

function confFragment(x: ExportInput, plan: SlurmPlan, items: Item[], gaps: string[], version: string): string {
  const lines = [
    ...title(x, version).map((l) => `# ${l}`),
    ...lostHeader(lostParts(items), '#'),
    '# Generated from typed values only: nothing read from a job log is pasted into this file.',
    '# Append it at the END of slurm.conf or Include it last: later lines override earlier ones',
    '# (Slurm logs "specified more than once, latest value used"). Then: scontrol reconfigure.',
    '#',
    '# What is exported, and how faithfully:',
    ...items.map((i) => `#   [${i.fidelity}] ${i.feature}: ${i.note}`),
    '# Known gaps between Slurm and the simulated EASY:',
    ...gaps.map((g) => `#   - ${g}`),
    '',
  ]
  if (plan.mode === 'none') lines.push('# The queue order cannot be exported; only the backfill settings follow.')
  else lines.push('# --- queue order ---', ...priorityLines(plan))
  lines.push(
    '',
    '# --- EASY shape: one reservation, a window as long as the longest time limit ---',
    'SchedulerType=sched/backfill',
    '# This line replaces your SchedulerParameters: merge in any options you rely on.',
    `# bf_window (minutes) must be at least your longest MaxTime; ${BF_WINDOW_MIN} = 7 days.`,
    `SchedulerParameters=bf_job_part_count_reserve=1,bf_window=${fmtInt(BF_WINDOW_MIN)},bf_continue,bf_max_job_test=${fmtInt(BF_MAX_JOB_TEST)}`,
    '',
  )
  return lines.join('\n')
}

export function exportSlurm(x: ExportInput, version: string): Omit<ExportBundle, 'files'> & { files: ExportFile[] } {
  const plan = slurmPlan(x)
  const items = slurmItems(x, plan)
  const lost = lostParts(items)
  const gap = lostGap(lost)
  const gaps = [...(gap ? [gap] : []), ...slurmGaps(plan)]
  const head = title(x, version)
  const files: ExportFile[] = [{ name: SLURM_CONF_FILE, content: confFragment(x, plan, items, gaps, version), description: 'slurm.conf fragment: priority weights and backfill settings (append at the end of slurm.conf)' }]
  if (needsLua(plan)) files.push({ name: LUA_FILE, content: jobSubmitLua(plan, head), description: 'job_submit.lua: sets each job\'s site factor at submission (next to slurm.conf)' })
  if (plan.mode === 'sitefactor') files.push({ name: SITE_FACTOR_FILE, content: siteFactorScript(plan, head), description: 'periodic script (root, every minute): refreshes pending jobs\' site factors' })
  return { target: 'slurm', files, items, gaps, lost }
}
