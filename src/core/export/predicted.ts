// Export of the deployable form of walltime prediction (docs/PREDICTIONS.md §Deployment): Slurm
// plans its reservation and its backfill on the time limits, so a prediction cannot replace them;
// what it can do is ORDER the queue by predicted runtime. A periodic script reads the accounting
// history (sacct), computes each pending job's AVE₂ prediction (the mean runtime of its user's last
// two jobs that ended by its submission, at most its time limit) and writes it into the job's site
// factor (shorter first); job_submit.lua gives a new job its time limit's value until the next run.
// The simulator runs the same order as SimConfig.prediction use 'order' (src/core/sim/easy.ts);
// predicted-fidelity.ts measures it. Generated from numbers only; pure.
import { formatDuration } from '../util/duration'
import { formatInt, formatPercent } from '../util/format'
import { fmtInt, fmtNum, neg, v } from './expr'
import { lostHeader } from './lost'
import { jobSubmitLua, LUA_FILE, PRED_OFFSET, PRED_UNITS, PREDICTED_SCRIPT_FILE, predictedOrderScript } from './scripts'
import { bfWindow, checkSlurmVersion, DEFAULT_SLURM_VERSION, MERGED_CONF_FILE, overrides, partitionNote, priorityLines, SLURM_CONF_FILE, slurmGaps, wants, APPROXIMATE } from './slurm'
import { mergeSlurmConf, parseSlurmConf, type SlurmConf } from './slurm-conf'
import { BF_MAX_JOB_TEST, BF_WINDOW_MAX_MIN, PROMOTE_CAP, type SlurmPlan } from './slurm-plan'
import { ExportInputError } from './errors'
import type { PredictedOrderFidelity, ScheduleFigures } from './predicted-fidelity'
import type { ExportBundle, ExportFile, SettingChange } from './types'
import { DEFAULTS } from '../defaults'

export { PRED_OFFSET, PRED_UNITS, PREDICTED_SCRIPT_FILE } from './scripts'
export const PREDICTED_JSON_FILE = 'easytune-predicted-order.json'
export const PREDICTED_README_FILE = 'README-predicted-order.txt'
export const PREDICTED_SCHEMA_VERSION = 1

/** The job_submit.lua plan: a new job's site factor from its time limit (a job with no history). */
export const PREDICTED_LUA_PLAN: SlurmPlan = { mode: 'lua', expr: neg(v('p')), enc: { kind: 'linear', scale: PRED_UNITS, offset: PRED_OFFSET, max: PRED_OFFSET } }

/** The site factor the script writes for a prediction of `seconds` (the Lua's for a time limit). */
export function predictedSiteFactor(seconds: number): number {
  return Math.max(0, PRED_OFFSET - Math.round(PRED_UNITS * seconds))
}

export interface PredictedExportOptions {
  slurmVersion?: string
  /** The site's current slurm.conf: the whole merged file is written instead of a fragment. */
  currentConf?: string
  /** The replays of the log (predicted-fidelity.ts), or null when no log was given. */
  fidelity?: PredictedOrderFidelity | null
  /** The longest time limit in the log, seconds (sizes bf_window). */
  maxRequested?: number | null
  /** Θ in seconds: a job that waited longer runs first, oldest first (null or absent: none). */
  threshold?: number | null
  /** Days of accounting history the script reads (the default: DEFAULTS.predictedOrderHistoryDays). */
  historyDays?: number
  /** The log's name and checksum, for the files' first lines (validated by the caller). */
  sha256?: string | null
}

const gain = (now: number, was: number) => (was > 0 ? 1 - now / was : 0)
function figures(f: ScheduleFigures): string { return `average wait ${formatDuration(Math.round(f.avgWait))}, average bounded slowdown ${f.avgBsld.toFixed(2)}` }

/** "does better than" / "does worse than" / "mixes with" on both measures. */
function versus(a: ScheduleFigures, b: ScheduleFigures): string {
  const w = Math.sign(b.avgWait - a.avgWait), s = Math.sign(b.avgBsld - a.avgBsld)
  if (w > 0 && s > 0) return 'has a lower average wait and bounded slowdown than'
  if (w < 0 && s < 0) return 'has a higher average wait and bounded slowdown than'
  return `has a ${w > 0 ? 'lower' : 'higher'} average wait and a ${s > 0 ? 'lower' : 'higher'} bounded slowdown than`
}

/** The fidelity in sentences: the deployable form against today and against planning with predictions. */
export function fidelityLines(f: PredictedOrderFidelity | null | undefined): string[] {
  if (!f) return ['Fidelity not measured: no job log was given to replay.']
  return [
    `Replayed on the log (${formatInt(f.jobs)} jobs, ${formatInt(f.machineProcs)} processors, EASY on one pool, bounded slowdown with tau = ${fmtNum(f.tau)} s; one replay of the whole log, no interval):`,
    ...(f.withUser < 1 ? [`  ${f.withUser === 0 ? 'The log records no users: every prediction is the time limit, so the exported order replays as EASY-SPF here; on the site, sacct knows the users.' : `${formatPercent(1 - f.withUser)} of the jobs have no recorded user: they are predicted by their time limits here.`}`] : []),
    `  EASY-FCFS today: ${figures(f.today)}.`,
    ...(f.threshold === null ? [] : [`  Both deployable orders below (by time limit, by AVE2) with the threshold: jobs that waited longer than ${formatDuration(f.threshold)} run first.`]),
    `  Exported (queue by AVE2, planning on time limits): ${figures(f.deployable)}; ${formatPercent(gain(f.deployable.avgWait, f.today.avgWait))} of the wait and ${formatPercent(gain(f.deployable.avgBsld, f.today.avgBsld))} of the bounded slowdown removed.`,
    `  Ordered by time limit instead (SPF, no prediction): ${figures(f.byLimit)}; the prediction ${versus(f.deployable, f.byLimit)} ordering by the limits.`,
    `  Thesis, planning with AVE2 (FCFS, incremental correction): ${figures(f.planned)}.`,
    `  Thesis, EASY++ (AVE2, incremental, SJBF backfill): ${figures(f.easyPlusPlus)}.`,
    `  Both thesis forms plan reservations and backfill on the predictions, which Slurm does not do; on this log the exported form ${versus(f.deployable, f.easyPlusPlus)} EASY++.`,
    `  History window: ${formatPercent(f.outsideWindow)} of the jobs would be predicted differently with ${fmtInt(f.historyDays)} days of sacct history (the simulator remembers every past job).`,
    `  Longest wait: ${formatDuration(Math.round(f.today.maxWait))} today, ${formatDuration(Math.round(f.deployable.maxWait))} exported${f.threshold === null ? ' (short predicted jobs keep overtaking long ones: a waiting-time threshold bounds this)' : ''}.`,
  ]
}

/** What the export says about the site's fair-share/QOS/association weights that stay on. */
function siteTerms(conf: SlurmConf): string | null {
  const num = (k: string) => { const x = Number(conf.get(k)?.value ?? 0); return Number.isFinite(x) && x > 0 ? x : 0 }
  const on = ([['fair-share', num('PriorityWeightFairshare')], ['QOS', num('PriorityWeightQOS')], ['association', num('PriorityWeightAssoc')]] as const).filter(([, w]) => w > 0)
  if (!on.length) return null
  const total = on.reduce((a, [, w]) => a + w, 0)
  return `${APPROXIMATE}. Your ${on.map(([name, w]) => `${name} (weight ${fmtNum(w)})`).join(', ')} weights stay on, as asked. The site factor has no weight of its own in Slurm (there is no PriorityWeightSite: it is added as it is), at ${PRED_UNITS} points per second of prediction, so these terms add up to ${fmtNum(total)} points, worth ${formatDuration(total / PRED_UNITS)} of predicted runtime: jobs whose predictions differ by less than that can swap. Set them to 0 to run the order exactly as simulated.`
}

export type PredictedExport = ExportBundle & { predictedOrder: PredictedOrderFidelity | null }

/** The Slurm files for ordering by predicted runtime, with their fidelity. Throws ExportInputError for a bad version or slurm.conf. */
export function exportPredictedOrder(options: PredictedExportOptions = {}): PredictedExport {
  const version = checkSlurmVersion(options.slurmVersion ?? DEFAULT_SLURM_VERSION)
  const days = options.historyDays ?? DEFAULTS.predictedOrderHistoryDays.value
  const fidelity = options.fidelity ?? null
  const threshold = options.threshold ?? null
  if (threshold !== null && !(Number.isInteger(threshold) && threshold >= 0 && threshold <= PROMOTE_CAP)) throw new ExportInputError(`the threshold must be a whole number of seconds from 0 to ${fmtInt(PROMOTE_CAP)}`)
  if (fidelity !== null && fidelity.threshold !== threshold) throw new ExportInputError('the fidelity was replayed with another threshold than the one exported')
  const plan = PREDICTED_LUA_PLAN
  const head = [
    `EasyTune export for Slurm ${version}: queue ordered by predicted runtime (AVE2), planning on time limits, ${threshold === null ? 'no threshold' : `threshold ${fmtInt(threshold, PROMOTE_CAP)} s (${formatDuration(threshold)})`}.`,
    ...(options.sha256 ? [`Fidelity measured on the log with sha256 ${options.sha256}.`] : []),
  ]
  const items: ExportBundle['items'] = [
    { feature: 'queue order by predicted runtime (AVE₂, shortest first)', fidelity: 'site factor', note: `${PREDICTED_SCRIPT_FILE} writes each pending job's prediction into its site factor from sacct; as fresh as its last run` },
    { feature: 'a new job until the next run', fidelity: 'job_submit.lua', note: `${LUA_FILE} gives it its time limit's value (the prediction of a user with no history)` },
    ...(threshold === null ? [] : [{ feature: 'threshold', fidelity: 'site factor' as const, note: `${PREDICTED_SCRIPT_FILE} lifts jobs that waited longer than ${formatDuration(threshold)} above all others, oldest first; resolution = how often it runs` }]),
    { feature: 'EASY backfilling on time limits (one reservation)', fidelity: 'native', note: 'sched/backfill with bf_job_part_count_reserve=1, planning on time limits as simulated' },
  ]
  const gaps = [
    'Planning with predictions (the thesis\'s EASY with AVE₂ and corrections, EASY++) is not deployable: Slurm plans reservations and backfill on time limits; only the order uses the predictions.',
    `A job is ordered by its time limit from submission until the next run of ${PREDICTED_SCRIPT_FILE} (the simulator predicts at submission).`,
    `History is what sacct returns for the last ${fmtInt(days)} days (EASYTUNE_HISTORY_DAYS): an older job is forgotten, the simulator remembers every past job.`,
    'Runtimes are sacct\'s elapsed times in whole seconds; jobs of one user that end in the same second are taken by job id.',
    ...slurmGaps(plan).filter((g) => !g.startsWith('No separate backfill order')),
  ]
  const conf = options.currentConf === undefined ? null : parseSlurmConf(options.currentConf)
  const bf = bfWindow(options.maxRequested, conf)
  const want = wants(plan, conf, bf.minutes).map((w) => (w.key === 'SchedulerParameters' ? { ...w, why: `${w.why}; bf_window: ${bf.why}` } : w))
  const fid = fidelityLines(fidelity)
  const files: ExportFile[] = []
  let changes: SettingChange[]
  const notes = [...bf.notes]
  let approximate: string | null = null
  if (conf === null) {
    const lines = [
      ...lostHeader([], '#'),
      '# Pasted at the end of slurm.conf, this fragment OVERRIDES these site policies:',
      ...overrides(plan).map((l) => `#   - ${l}`),
      '# To keep them, export with your current slurm.conf (--current-conf): EasyTune then writes the',
      '# whole merged file and lists every change it makes.',
      '#',
      ...head.map((l) => `# ${l}`),
      '# Append it at the END of slurm.conf or Include it last. Then: scontrol reconfigure, install',
      `# ${LUA_FILE} next to slurm.conf and run ${PREDICTED_SCRIPT_FILE} as root every minute.`,
      '#',
      '# What is exported, and how faithfully:',
      ...items.map((i) => `#   [${i.fidelity}] ${i.feature}: ${i.note}`),
      ...fid.map((l) => `# ${l}`),
      '# Known gaps:',
      ...gaps.map((g) => `#   - ${g}`),
      '',
      '# --- queue order: the site factor (no weight of its own; PriorityWeightSite does not exist) ---',
      ...priorityLines(plan).filter((l) => !l.startsWith('# PriorityMaxAge')),
      `# ${PREDICTED_SCRIPT_FILE} must run as root every minute (cron or a service loop); it needs slurmdbd (sacct)`,
      '',
      '# --- EASY shape: one reservation, a window as long as the longest time limit ---',
      'SchedulerType=sched/backfill',
      `SchedulerParameters=bf_job_part_count_reserve=1,bf_window=${fmtInt(bf.minutes)},bf_continue,bf_max_job_test=${fmtInt(BF_MAX_JOB_TEST)}`,
      `# bf_window is at most ${fmtInt(BF_WINDOW_MAX_MIN)} minutes (Slurm's maximum).`,
      '',
    ]
    files.push({ name: SLURM_CONF_FILE, content: lines.join('\n'), description: 'slurm.conf fragment: priority on the site factor and backfill settings (append at the end); its first lines list the site policies it overrides' })
    changes = want.map((w) => ({ setting: w.key, from: null, to: w.kind === 'value' ? w.value : w.entries.map((e) => (e.value === null ? e.name : `${e.name}=${e.value}`)).join(','), why: w.why }))
    notes.push('No current slurm.conf given: the fragment replaces your priority weights and SchedulerParameters (its first lines list them). Give your slurm.conf to keep fair-share, QOS and every other setting.')
  } else {
    const merged = mergeSlurmConf(conf, want, [
      `# ${head[0]}`,
      '# Merged by EasyTune into the slurm.conf you gave: every line it does not change is kept as it was;',
      `# changed settings end with "# EasyTune: was …". Then: scontrol reconfigure; run ${PREDICTED_SCRIPT_FILE} every minute.`,
    ])
    files.push({ name: MERGED_CONF_FILE, content: merged.text, description: 'your slurm.conf merged for the order by predicted runtime: every setting it does not need is kept (fair-share, QOS, …)' })
    changes = merged.changes
    notes.push(...merged.notes)
    approximate = siteTerms(conf)
    const part = partitionNote(conf)
    if (part) notes.push(part)
  }
  files.push({ name: LUA_FILE, content: jobSubmitLua(plan, [...head, `It gives a new job the site factor of its time limit (${fmtInt(PRED_OFFSET)} - ${PRED_UNITS} x seconds); ${PREDICTED_SCRIPT_FILE} then replaces it with the job's prediction.`]), description: 'job_submit.lua: a new job\'s site factor from its time limit, until the script\'s next run' })
  files.push({ name: PREDICTED_SCRIPT_FILE, content: predictedOrderScript(head, days, threshold), description: 'periodic script (root, every minute): pending jobs\' site factors from their AVE₂ prediction (sacct)' })
  files.push({ name: PREDICTED_README_FILE, content: readme(head, items, gaps, fid, approximate, days), description: 'what is exported, what it does, its fidelity and its limits' })
  files.push({ name: PREDICTED_JSON_FILE, content: JSON.stringify({ schemaVersion: PREDICTED_SCHEMA_VERSION, kind: 'easytune-predicted-order', slurmVersion: version, historyDays: days, threshold, siteFactor: { offset: PRED_OFFSET, pointsPerSecond: PRED_UNITS }, fidelity }, null, 2) + '\n', description: 'the export and its measured fidelity as plain JSON, for other tools' })
  return { target: 'slurm', files, items, gaps, lost: [], changes, notes, approximate, predictedOrder: fidelity }
}

function readme(head: string[], items: ExportBundle['items'], gaps: string[], fid: string[], approximate: string | null, days: number): string {
  return [
    ...head,
    '',
    'WHAT IT DOES',
    'Slurm plans its reservation and its backfilling on time limits, so a runtime prediction cannot',
    'replace them there. What can be deployed is the ORDER: every pending job is ranked by its',
    'predicted runtime, shortest first, through its site factor (a raw term of the multifactor',
    'priority: there is no PriorityWeightSite). The prediction is AVE2, the mean runtime of the',
    'user\'s last two jobs that ended by the job\'s submission, at most the job\'s time limit.',
    '',
    'FILES',
    `  slurm.conf (or ${SLURM_CONF_FILE})  multifactor priority, JobSubmitPlugins=lua, EASY backfill shape`,
    `  ${LUA_FILE}              a new job's site factor from its time limit`,
    `  ${PREDICTED_SCRIPT_FILE}  every minute as root: sacct history -> AVE2 -> scontrol update SiteFactor=`,
    `  ${PREDICTED_JSON_FILE}  the fidelity below, as JSON`,
    '',
    'INSTALL',
    `  1. slurm.conf and ${LUA_FILE} next to each other; scontrol reconfigure.`,
    `  2. ${PREDICTED_SCRIPT_FILE} in /usr/local/sbin, from root's cron: * * * * * (or "${PREDICTED_SCRIPT_FILE} 60" as a service).`,
    `     It needs slurmdbd (sacct). EASYTUNE_HISTORY_DAYS changes the history window (default ${fmtInt(days)} days).`,
    '  3. Check: sprio -l lists each pending job\'s SITE term.',
    '',
    'HOW FAITHFULLY',
    ...items.map((i) => `  [${i.fidelity}] ${i.feature}: ${i.note}`),
    ...(approximate ? ['', approximate] : []),
    '',
    'FIDELITY',
    ...fid,
    '',
    'LIMITS',
    ...gaps.map((g) => `  - ${g}`),
    '',
  ].join('\n')
}
