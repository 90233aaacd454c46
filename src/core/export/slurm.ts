// Slurm export (docs/POLICIES.md, "Slurm"): a commented slurm.conf fragment, job_submit.lua and the
// periodic site-factor script when the policy needs them, each item labelled with its fidelity.
import { isFnSpec } from '../sim/fn'
import { usesVar } from '../sim/formula'
import type { ExportBundle, ExportFile, Fidelity, SettingChange } from './types'
import { formatDuration } from '../util/duration'
import { fmtInt, fmtNum } from './expr'
import { describeMixed, FEATURE_NAMES } from './policy'
import { lostGap, lostHeader, lostParts } from './lost'
import { jobSubmitLua, LUA_FILE, SITE_FACTOR_FILE, siteFactorScript } from './scripts'
import { listEntry, mergeSlurmConf, parseSlurmConf, slurmMinutes, type SlurmConf, type Want } from './slurm-conf'
import { BASE, BF_MAX_JOB_TEST, BF_WINDOW_MAX_MIN, BF_WINDOW_MIN, ENC_CAP, LIMIT_IF_UNSET_MIN, LINEAR_BUDGET, needsLua, slurmPlan, type SlurmPlan } from './slurm-plan'
import { ExportInputError } from './errors'
import { choiceLabel, type ExportInput } from './validate'

export const SLURM_CONF_FILE = 'slurm.conf.easytune'
/** The whole merged configuration, written when the current slurm.conf is given. */
export const MERGED_CONF_FILE = 'slurm.conf'
/** The export's fidelity note when site priority terms stay on beside the order's. */
export const APPROXIMATE = 'approximate: fair-share and QOS also act'
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
    case 'lua': {
      // As job_submit.lua does (scripts.ts): recomputed on a change only when the order reads the limit or the CPUs.
      const follows = usesVar(plan.expr, 'p') || usesVar(plan.expr, 'q')
      const note = !follows ? 'static per-job term: the site factor is set once, at submission (the order reads neither the time limit nor the CPUs)'
        : usesVar(plan.expr, 't') ? 'static per-job term: the site factor is set at submission and again when the time limit or CPU count changes, with s from the submit time Slurm recorded (Slurm 20.02 and later; 19.05 keeps the value from submission)'
          : 'static per-job term: the site factor is set at submission (and follows time-limit changes)'
      return [
        it(name, 'job_submit.lua', note),
        ...(plan.approx ? [it(`${name}, its s term`, 'not exportable', plan.approx)] : []),
      ]
    }
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

export function priorityLines(plan: SlurmPlan): string[] {
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
  const order = x.primary.kind === 'mixed' ? `mixed ${describeMixed(x.primary)}` : isFnSpec(x.primary.id) ? `${x.primary.id} (a learned function: lower f runs first, the priority is -f)` : x.primary.id
  const theta = x.threshold === null ? 'no threshold' : `threshold ${fmtInt(Math.round(x.threshold), 1e9)} s (${formatDuration(x.threshold)})`
  return [
    `EasyTune export for Slurm ${version}: queue order ${order}, ${theta}.`,
    ...(x.sha256 ? [`Evaluated on the log with sha256 ${x.sha256}.`] : []),
  ]
}

/** The site policies a pasted fragment switches off or replaces (its first lines say so). */
export function overrides(plan: SlurmPlan): string[] {
  const tres = plan.mode === 'tres' || (plan.mode === 'linear' && plan.tresPerCpu !== 0)
  const out = plan.mode === 'none' ? [] : [
    'PriorityWeightFairshare=0, PriorityWeightQOS=0 and PriorityWeightAssoc=0: fair-share, QOS and association priorities stop acting;',
    `PriorityWeightPartition=${fmtInt(BASE)}: partitions with different PriorityJobFactor would outweigh the order (keep them equal);`,
    'PriorityWeightAge, PriorityWeightJobSize, PriorityFavorSmall and PriorityWeightTRES: your age, size and TRES terms are replaced by the order\'s;',
    ...(tres ? ['PriorityFlags=NO_NORMAL_TRES replaces your whole PriorityFlags list;'] : []),
    ...(needsLua(plan) ? ['JobSubmitPlugins=lua replaces your whole list of job_submit plugins;'] : []),
  ]
  out.push('SchedulerType=sched/backfill, and SchedulerParameters replaced as a whole: every other option you set there (bf_interval, default_queue_depth, …) is dropped.')
  return out
}

/** bf_window (minutes): at least the longest requested time in the log and the partitions' longest
 * MaxTime (and the site's current value if larger), at most Slurm's maximum (docs/POLICIES.md). */
export function bfWindow(maxRequestedSec: number | null | undefined, conf: SlurmConf | null): { minutes: number; why: string; notes: string[] } {
  const notes: string[] = []
  const fromLog = maxRequestedSec ? Math.ceil(maxRequestedSec / 60) : null
  const times = (conf?.partitions ?? []).map((p) => ({ p, m: p.get('MaxTime') === null ? null : slurmMinutes(p.get('MaxTime')!) }))
  const unlimited = times.filter((t) => t.m === Infinity).map((t) => t.p.name)
  const finite = times.map((t) => t.m).filter((m): m is number => m !== null && Number.isFinite(m))
  const fromParts = finite.length ? Math.max(...finite) : null
  const curText = listEntry(conf, 'SchedulerParameters', 'bf_window')
  const cur = curText === null ? null : Number(curText)
  if (cur !== null && !(Number.isInteger(cur) && cur >= 1 && cur <= BF_WINDOW_MAX_MIN)) {
    notes.push(`Your bf_window=${curText!.slice(0, 20)} is outside 1–${fmtInt(BF_WINDOW_MAX_MIN)} minutes: slurmctld rejects it ("Invalid SchedulerParameters bf_window") and uses one day instead.`)
  }
  const need = Math.max(fromLog ?? 0, fromParts ?? 0)
  const current = cur !== null && Number.isInteger(cur) && cur >= 1 && cur <= BF_WINDOW_MAX_MIN ? cur : 0
  const wanted = need > 0 ? need : BF_WINDOW_MIN
  const minutes = Math.min(BF_WINDOW_MAX_MIN, Math.max(wanted, current))
  const why = [
    fromLog !== null ? `the longest requested time in the log is ${fmtInt(fromLog, 1e9)} min` : 'the log\'s longest requested time is not recorded in this result',
    ...(fromParts !== null ? [`the partitions' longest MaxTime is ${fmtInt(fromParts, 1e9)} min`] : []),
    ...(need === 0 ? [`${fmtInt(BF_WINDOW_MIN)} min (7 days) is assumed`] : []),
    ...(current > wanted ? [`your larger bf_window=${fmtInt(current)} is kept`] : []),
  ]
  if (need > BF_WINDOW_MAX_MIN) {
    notes.push(`Requests reach ${formatDuration(need * 60)}, more than 30 days: bf_window is capped at ${fmtInt(BF_WINDOW_MAX_MIN)} min, Slurm's maximum (a larger value is rejected and falls back to one day), so jobs that would start more than 30 days ahead get no backfill reservation.`)
  }
  if (unlimited.length) notes.push(`Partition${unlimited.length > 1 ? 's' : ''} ${unlimited.join(', ')} ha${unlimited.length > 1 ? 've' : 's'} MaxTime=INFINITE: a job may ask for more than bf_window (${fmtInt(minutes)} min) and then gets no reservation; set a MaxTime if you can.`)
  return { minutes, why: `backfill must look as far ahead as the longest job can run, so every job gets its reservation: ${why.join('; ')}${need > BF_WINDOW_MAX_MIN ? `; capped at Slurm's maximum, ${fmtInt(BF_WINDOW_MAX_MIN)} min (30 days)` : ''}`, notes }
}

function confFragment(x: ExportInput, plan: SlurmPlan, items: Item[], gaps: string[], version: string, bf: number): string {
  const lines = [
    // What is not run as evaluated comes first of all: it changes what the numbers mean.
    ...lostHeader(lostParts(items), '#'),
    '# Pasted at the end of slurm.conf, this fragment OVERRIDES these site policies:',
    ...overrides(plan).map((l) => `#   - ${l}`),
    '# To keep them, export with your current slurm.conf (--current-conf, or paste it in the Export',
    '# step): EasyTune then writes the whole merged file and lists every change it makes.',
    '#',
    ...title(x, version).map((l) => `# ${l}`),
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
    `# bf_window (minutes) must be at least your longest MaxTime (at most ${fmtInt(BF_WINDOW_MAX_MIN)}, Slurm's maximum).`,
    `SchedulerParameters=bf_job_part_count_reserve=1,bf_window=${fmtInt(bf)},bf_continue,bf_max_job_test=${fmtInt(BF_MAX_JOB_TEST)}`,
    '',
  )
  return lines.join('\n')
}

/** What the order needs in slurm.conf, each with why (the merge keeps everything else). */
export function wants(plan: SlurmPlan, conf: SlurmConf | null, bf: number): Want[] {
  const w: Want[] = []
  // slurm.conf(5) defaults: every priority weight 0, SchedulerType sched/backfill
  const value = (key: string, v: string, why: string, slurmDefault?: string) => w.push({ kind: 'value', key, value: v, why, slurmDefault })
  if (plan.mode !== 'none') {
    const tres = plan.mode === 'tres' ? plan.perCpu : plan.mode === 'linear' ? plan.tresPerCpu : 0
    const age = plan.mode === 'linear' ? plan.ageWeight : 0
    value('PriorityType', 'priority/multifactor', 'the order is expressed through the multifactor priority plugin')
    value('PriorityWeightPartition', fmtInt(BASE), 'every job gets the same base priority from the partition factor, which keeps the order\'s terms (negative ones too) above 0 and below 2^32; keep PriorityJobFactor equal on your partitions')
    value('PriorityWeightAge', fmtInt(age, 2 ** 32 - 1), age ? 'the order\'s wait term (Age factor, needs slurmdbd)' : 'the order has no wait term: an age weight would pull the order towards first-come-first-served', '0')
    value('PriorityWeightJobSize', '0', 'the order\'s size term, if any, is the exact CPU count through TRES: the job-size factor would add another one', '0')
    value('PriorityWeightTRES', `CPU=${fmtInt(tres)}`, `${tres ? `the order's CPU term: priority moves by ${fmtInt(tres)} per CPU` : 'the order has no CPU term'}; weights on other TRES (memory, GPUs, …) are removed: they would add terms the order does not have`, 'CPU=0')
    if (tres !== 0) w.push({ kind: 'list', key: 'PriorityFlags', entries: [{ name: 'NO_NORMAL_TRES', value: null }], why: 'the CPU factor must be the raw count of CPUs, not a share of the partition' })
    if (age !== 0 && plan.mode === 'linear') {
      value('PriorityMaxAge', fmtInt(plan.maxAgeMin), 'the age factor must grow linearly over the waits seen in the log: twice the longest simulated wait, in minutes')
      value('PriorityCalcPeriod', '1', 'the wait term is recomputed every minute')
    }
    if (needsLua(plan)) w.push({ kind: 'list', key: 'JobSubmitPlugins', entries: [{ name: 'lua', value: null }], why: `${LUA_FILE} sets each job's site factor at submission` })
  }
  value('SchedulerType', 'sched/backfill', 'EASY backfilling', 'sched/backfill')
  const test = Number(listEntry(conf, 'SchedulerParameters', 'bf_max_job_test'))
  w.push({
    kind: 'list', key: 'SchedulerParameters', why: 'EASY shape: one reservation per partition, a window as long as the longest job, and the whole queue examined',
    entries: [
      { name: 'bf_job_part_count_reserve', value: '1' },
      { name: 'bf_window', value: fmtInt(bf) },
      { name: 'bf_continue', value: null },
      { name: 'bf_max_job_test', value: fmtInt(Number.isInteger(test) && test > BF_MAX_JOB_TEST && test <= 1e9 ? test : BF_MAX_JOB_TEST, 1e9) },
    ],
  })
  return w
}

/** How many priority points the order's own term spans across the log's jobs, or null when it is
 * open-ended (submit times, log-encoded ratios); 0 for FCFS (every job equal). */
function orderSpan(plan: SlurmPlan, x: ExportInput): number | null {
  switch (plan.mode) {
    case 'fcfs': return 0
    case 'tres': return Math.max(1, x.machineProcs - 1)
    case 'linear': return LINEAR_BUDGET
    case 'lua': {
      if (plan.enc.kind === 'log') return 2 * ENC_CAP
      return plan.enc.scale === 1 / 60 ? Math.ceil((x.maxRequested ?? LIMIT_IF_UNSET_MIN * 60) / 60) : null
    }
    case 'sitefactor': return 2 * ENC_CAP
    case 'none': return null
  }
}

/** Site priority terms that stay on beside the order's, compared with the order's span. */
function siteTermsNote(plan: SlurmPlan, x: ExportInput, conf: SlurmConf): string | null {
  const num = (k: string) => { const v = conf.get(k)?.value; const n = v === undefined ? 0 : Number(v); return Number.isFinite(n) && n > 0 ? n : 0 }
  const terms = [['fair-share', num('PriorityWeightFairshare')], ['QOS', num('PriorityWeightQOS')], ['association', num('PriorityWeightAssoc')]] as const
  const on = terms.filter(([, v]) => v > 0)
  if (!on.length || plan.mode === 'none') return null
  const total = on.reduce((a, [, v]) => a + v, 0)
  const span = orderSpan(plan, x)
  const names = on.map(([n, v]) => `${n} (weight ${fmtNum(v)})`).join(', ')
  const cmp = span === 0
    ? 'the order itself gives every job the same priority, so these terms alone decide the order: it is not the evaluated one'
    : span === null
      ? `jobs whose order terms differ by less than ${fmtNum(total)} priority points can swap`
      : `the order's term spans about ${fmtNum(span)} points, so jobs whose order terms differ by less than ${fmtNum(total)} points (${total >= span ? 'all of them' : `${((100 * total) / span).toPrecision(2)} % of that span`}) can swap`
  return `${APPROXIMATE}. Your ${names} weights stay on, as asked: they add up to ${fmtNum(total)} priority points on top of the order's term; ${cmp}. Set them to 0 to run the order exactly as evaluated.`
}

export function partitionNote(conf: SlurmConf): string | null {
  const f = conf.partitions.map((p) => ({ name: p.name, f: Number(p.get('PriorityJobFactor') ?? 1) }))
  const values = new Set(f.map((p) => p.f))
  return values.size > 1 ? `Your partitions have different PriorityJobFactor (${f.map((p) => `${p.name}=${p.f}`).join(', ')}): with PriorityWeightPartition=${fmtInt(BASE)} that difference outweighs the order; set them equal, or mind that jobs are ordered partition by partition.` : null
}

export interface SlurmExport extends Omit<ExportBundle, 'files'> { files: ExportFile[]; changes: SettingChange[]; notes: string[]; approximate: string | null }

export function exportSlurm(x: ExportInput, version: string, currentConf?: string): SlurmExport {
  const plan = slurmPlan(x)
  const items = slurmItems(x, plan)
  const lost = lostParts(items)
  const gap = lostGap(lost)
  const gaps = [...(gap ? [gap] : []), ...slurmGaps(plan)]
  const head = title(x, version)
  const conf = currentConf === undefined ? null : parseSlurmConf(currentConf)
  const bf = bfWindow(x.maxRequested, conf)
  const want = wants(plan, conf, bf.minutes)
  const bfWhy = (w: Want) => (w.key === 'SchedulerParameters' ? { ...w, why: `${w.why}; bf_window: ${bf.why}` } : w)
  const files: ExportFile[] = []
  let changes: SettingChange[]
  const notes = [...bf.notes]
  let approximate: string | null = null
  if (conf === null) {
    files.push({ name: SLURM_CONF_FILE, content: confFragment(x, plan, items, gaps, version, bf.minutes), description: 'slurm.conf fragment: priority weights and backfill settings (append at the end of slurm.conf); its first lines list the site policies it overrides' })
    // without the current file, what it was is unknown: from = null
    changes = want.map(bfWhy).map((w) => ({ setting: w.key, from: null, to: w.kind === 'value' ? w.value : w.entries.map((e) => (e.value === null ? e.name : `${e.name}=${e.value}`)).join(','), why: w.why }))
    notes.push('No current slurm.conf given: the fragment replaces your priority weights and SchedulerParameters (its first lines list them). Give your slurm.conf to get the whole merged file instead.')
  } else {
    const header = [
      `# ${head[0]}`,
      '# Merged by EasyTune into the slurm.conf you gave: every line it does not change is kept as it was;',
      '# changed settings end with "# EasyTune: was …". Then: scontrol reconfigure.',
    ]
    const merged = mergeSlurmConf(conf, want.map(bfWhy), header)
    files.push({ name: MERGED_CONF_FILE, content: merged.text, description: 'your slurm.conf merged with the recommended order: every setting the order does not need is kept' })
    changes = merged.changes
    notes.push(...merged.notes)
    approximate = siteTermsNote(plan, x, conf)
    const part = partitionNote(conf)
    if (part) notes.push(part)
  }
  if (needsLua(plan)) files.push({ name: LUA_FILE, content: jobSubmitLua(plan, head), description: 'job_submit.lua: sets each job\'s site factor at submission (next to slurm.conf)' })
  if (plan.mode === 'sitefactor') files.push({ name: SITE_FACTOR_FILE, content: siteFactorScript(plan, head), description: 'periodic script (root, every minute): refreshes pending jobs\' site factors' })
  return { target: 'slurm', files, items, gaps, lost, changes, notes, approximate }
}
