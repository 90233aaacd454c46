// PBS Professional / OpenPBS export (docs/POLICIES.md, "PBS Professional / OpenPBS"): job_sort_formula with eligible_time as the
// wait, strict_ordering and backfill_depth=1 for EASY's single reservation.
import { isFnSpec } from '../sim/fn'
import type { ExportBundle, ExportFile } from './types'
import { formatDuration } from '../util/duration'
import { fmtInt, fmtNum, PBS, render } from './expr'
import { lostGap, lostHeader, lostParts } from './lost'
import { describeMixed, isFcfs, notExportableReason, policyExpr } from './policy'
import { choiceLabel, type ExportInput } from './validate'

export const PBS_QMGR_FILE = 'pbs-easytune.sh'
export const PBS_SCHED_FILE = 'sched_config.easytune'
/** Jobs past the threshold score 1e15 + eligible_time, above any policy value below 1e15. */
export const PBS_PROMOTE = 1e15
type Item = ExportBundle['items'][number]

/** The job_sort_formula, or null with the reason when the policy has none in PBS's language. */
export function pbsFormula(x: ExportInput): { formula: string } | { formula: null; reason: string } {
  const expr = policyExpr(x.primary)
  if (expr === null) return { formula: null, reason: (x.primary.kind === 'pure' ? notExportableReason(x.primary.id) : null) ?? 'no formula' }
  const policy = render(expr, PBS)
  if (policy === null) return { formula: null, reason: 'it needs a logarithm, which the sort formula (Python eval without the math module) does not offer' }
  if (x.threshold === null || fcfsOrder(x)) return { formula: policy }
  const t = fmtNum(x.threshold)
  return { formula: `(eligible_time > ${t}) * (${fmtNum(PBS_PROMOTE)} + eligible_time) + (eligible_time <= ${t}) * ${policy}` }
}

/** A registry policy that orders like FCFS: a threshold changes nothing (the oldest jobs are first). */
function fcfsOrder(x: ExportInput): boolean {
  const e = x.primary.kind === 'pure' ? policyExpr(x.primary) : null
  return e !== null && isFcfs(e)
}

function items(x: ExportInput, f: ReturnType<typeof pbsFormula>): Item[] {
  const out: Item[] = [f.formula === null
    ? { feature: `queue order ${choiceLabel(x.primary)}`, fidelity: 'not exportable', note: f.reason }
    : { feature: `queue order ${choiceLabel(x.primary)}`, fidelity: 'native', note: 'job_sort_formula, evaluated for every job at every scheduling cycle; the wait is eligible_time' }]
  if (x.threshold !== null) {
    out.push(f.formula === null
      ? { feature: 'threshold', fidelity: 'not exportable', note: 'the queue order itself cannot be exported' }
      : fcfsOrder(x)
        ? { feature: 'threshold', fidelity: 'native', note: 'jobs past the threshold are the oldest ones: the FCFS order already runs them first' }
        : { feature: 'threshold', fidelity: 'native', note: 'a step in job_sort_formula; comparisons work because the formula is Python-evaluated but are outside the documented syntax: verify on your version' })
  }
  if (x.backfill !== 'same') {
    const samePolicy = x.primary.kind === 'pure' && x.primary.id === x.backfill && f.formula !== null
    out.push(samePolicy && (x.threshold === null || fcfsOrder(x))
      ? { feature: `backfill order ${x.backfill}`, fidelity: 'native', note: 'the primary order itself, which PBS backfills in' }
      : samePolicy
        ? { feature: `backfill order ${x.backfill}`, fidelity: 'not exportable', note: `PBS backfills in the job_sort_formula order, threshold step included, whereas the evaluated backfill scanned the pure ${x.backfill} order without the threshold's promotion` }
        : { feature: `backfill order ${x.backfill}`, fidelity: 'not exportable', note: `PBS backfills in the job_sort_formula order: the exported primary order ${choiceLabel(x.primary)} is used for backfilling instead of ${x.backfill}` })
  }
  out.push({ feature: 'EASY backfilling (one reservation)', fidelity: 'native', note: 'strict_ordering: True ALL with backfill_depth=1 (one top job)' })
  return out
}

export const PBS_GAPS = [
  'eligible_time counts the time a job was eligible to run (holds, dependencies and limits stop it), not the time since submission.',
  'walltime must be requested by every job (set resources_default.walltime on the queues); the formula reads the request, as EasyTune does.',
  'backfill_depth set on a queue overrides the server value: unset it there or set it to 1.',
  "No separate backfill order: PBS backfills in the job_sort_formula order.",
  'Preemption, reservations, dedicated time and fairshare settings act before or beside the formula.',
  'A formula that fails to evaluate for a job gives it 0 (the scheduler logs the error).',
]

function header(x: ExportInput, mark: string): string[] {
  const order = x.primary.kind === 'mixed' ? `mixed ${describeMixed(x.primary)}` : isFnSpec(x.primary.id) ? `${x.primary.id} (a learned function: lower f runs first, the priority is -f)` : x.primary.id
  const theta = x.threshold === null ? 'no threshold' : `threshold ${fmtInt(Math.round(x.threshold), 1e9)} s (${formatDuration(x.threshold)})`
  return [
    `${mark} EasyTune export for PBS Professional / OpenPBS: queue order ${order}, ${theta}.`,
    ...(x.sha256 ? [`${mark} Evaluated on the log with sha256 ${x.sha256}.`] : []),
    `${mark} Generated from typed values only: nothing read from a job log is pasted into this file.`,
  ]
}

export function exportPbs(x: ExportInput): ExportBundle {
  const f = pbsFormula(x)
  const its = items(x, f)
  const label = (i: Item) => `#   [${i.fidelity}] ${i.feature}: ${i.note}`
  const lost = lostParts(its)
  const gap = lostGap(lost)
  const qmgr = [
    '#!/bin/sh',
    ...header(x, '#'),
    ...lostHeader(lost, '#'),
    '# Run as root on the PBS server host. What is exported, and how faithfully:',
    ...its.map(label),
    '# Known gaps:',
    ...PBS_GAPS.map((g) => `#   - ${g}`),
    'set -e',
    '# eligible_time must accrue before the formula can use it',
    "qmgr -c 'set server eligible_time_enable = True'",
    '# EASY: a single top job gets a reservation',
    "qmgr -c 'set server backfill_depth = 1'",
    ...(f.formula === null
      ? ['# the queue order cannot be exported: job_sort_formula is left as it is']
      : ['# higher values run first; overrides job_sort_key', `qmgr -c 'set server job_sort_formula = "${f.formula}"'`]),
    '',
  ].join('\n')
  const sched = [
    ...header(x, '#'),
    ...lostHeader(lost, '#'),
    '# Add to $PBS_HOME/sched_priv/sched_config (replace any strict_ordering line), then',
    '# send the scheduler a HUP (kill -HUP <pbs_sched pid>).',
    '# Run jobs exactly in the sorted order; with backfill_depth=1 this is EASY backfilling.',
    'strict_ordering: True ALL',
    '# help_starving_jobs and max_starve are obsolete: the threshold, if any, is in job_sort_formula.',
    '',
  ].join('\n')
  const files: ExportFile[] = [
    { name: PBS_QMGR_FILE, content: qmgr, description: 'qmgr commands (run as root): eligible_time_enable, backfill_depth=1, job_sort_formula' },
    { name: PBS_SCHED_FILE, content: sched, description: 'sched_config lines: strict_ordering' },
  ]
  return { target: 'pbs', files, items: its, gaps: [...(gap ? [gap] : []), ...PBS_GAPS], lost }
}
