// Every policy with what it exports to, derived from its declaration (src/core/sim/policies.ts)
// by the exporters themselves: `easytune policies`, the GUI's help and docs/POLICIES.md read this,
// so a new declaration appears everywhere with its true Slurm and PBS fidelity.
import { VARS, type Var } from '../sim/formula'
import { CH5_POLICIES, CH6_POLICIES, MIXED_FEATURE_DECLARATIONS, POLICIES, UNICEF_LOG2_FLOOR, type Policy } from '../sim/policies'
import { OTHER_REFERENCES, REFERENCES } from '../research'
import { DEFAULTS } from '../defaults'
import { presetInfo, slurmExcludedPolicies, slurmExportablePolicies } from '../tune/presets'
import { formatThreshold } from '../util/duration'
import { fmtInt, fmtNum, LUA, render } from './expr'
import { PBS_PROMOTE, pbsFormula } from './pbs'
import { orderItem } from './slurm'
import { slurmMergeDoc } from './slurm-conf-doc'
import { BASE, EPOCH0, LINEAR_BUDGET, PROMOTE, SF_MAX, SF_OFFSET, slurmPlan } from './slurm-plan'
import type { Fidelity } from './types'
import type { ExportInput } from './validate'

export interface PolicyEntry {
  id: string
  aliases: string[]
  name: string
  /** Priority as shown to users (higher runs first). */
  priority: string
  /** Symbols of the features the formula reads (q, p̃, wait, submit, s). */
  features: string[]
  dynamic: boolean
  family: 'pure' | 'learned'
  source: string
  explain: string
  /** How the order exports without a threshold (a threshold moves Slurm to the site factor). */
  slurm: { fidelity: Fidelity; note: string }
  pbs: { fidelity: Fidelity; note: string; jobSortFormula: string | null }
}

/** The export input of a registry policy alone: no threshold, same backfill order. */
function inputFor(pol: Policy): ExportInput {
  return {
    primary: { kind: 'pure', id: pol.id }, backfill: 'same', threshold: null, machineProcs: 1, longestWait: null,
    baseline: false, label: pol.id, sha256: null, objective: null, gains: { train: null, test: null, testCi: null, maxWaitRatio: null },
  }
}

export function policyEntry(pol: Policy): PolicyEntry {
  const x = inputFor(pol)
  const s = orderItem(x, slurmPlan(x))[0]
  const f = pbsFormula(x)
  return {
    id: pol.id, aliases: [...(pol.aliases ?? [])], name: pol.name, priority: pol.formula,
    features: pol.features.map((v) => VARS[v].symbol), dynamic: pol.dynamic, family: pol.family, source: pol.source, explain: pol.explain,
    slurm: { fidelity: s.fidelity, note: s.note },
    pbs: f.formula === null
      ? { fidelity: 'not exportable', note: f.reason, jobSortFormula: null }
      : { fidelity: 'native', note: 'job_sort_formula, re-evaluated at every scheduling cycle', jobSortFormula: f.formula },
  }
}

/** Every registry policy, in declaration order. */
export function policyCatalog(): PolicyEntry[] {
  return POLICIES.map(policyEntry)
}

/** The mixed features with their formula (as job_submit.lua would compute it). */
export function mixedFeatureCatalog(): { name: string; meaning: string; formula: string }[] {
  return MIXED_FEATURE_DECLARATIONS.map((f) => ({ name: f.name, meaning: f.meaning, formula: render(f.expr, LUA) ?? '' }))
}

const cell = (s: string) => s.replace(/\|/g, '\\|')

/** docs/POLICIES.md, generated from the declarations (scripts/gen-policies-doc.mjs writes it; a
 * test fails when the committed file differs). */
export function policiesMarkdown(): string {
  const rows = policyCatalog()
  const symbols = (Object.keys(VARS) as Var[]).map((v) => `| ${VARS[v].symbol} | ${VARS[v].meaning} |`)
  const refs = Object.values(REFERENCES)
  const out = [
    '# Queue-ordering policies',
    '',
    '<!-- Generated from src/core/sim/policies.ts by scripts/gen-policies-doc.mjs: do not edit by hand. -->',
    '',
    'EASY backfilling keeps one reservation for the job at the head of the queue; a policy only decides',
    'the order of the queue (and, optionally, of the backfilling scan). Each policy is a priority',
    'formula where **higher runs first**; equal priorities run by submit time, then job id. Each is',
    'declared once in `src/core/sim/policies.ts`: the simulator compiles the formula, the exporters',
    'render the same formula for Slurm and PBS, and this page, `easytune policies` and the GUI help',
    'are derived from it.',
    '',
    '| Symbol | Meaning |',
    '|---|---|',
    ...symbols,
    '',
    'A policy **changes with time** when its formula reads the wait: the simulator re-scores the',
    'waiting jobs at every scheduling pass. The others are scored once, at submission (FCFS is',
    'written −submit, which orders jobs exactly as the wait does at any instant, and never changes).',
    '',
    '## The policies',
    '',
    '| Id | Name | Priority (higher first) | Reads | Changes with time | Slurm | PBS | Source |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((p) => `| ${p.id}${p.aliases.length ? ` (${p.aliases.join(', ')})` : ''} | ${cell(p.name)} | ${cell(p.priority)} | ${p.features.join(', ')} | ${p.dynamic ? 'yes' : 'no'} | ${p.slurm.fidelity} | ${p.pbs.fidelity} | ${cell(p.source)} |`),
    '',
    '### What each one favours',
    '',
    ...rows.map((p) => `- **${p.id}**: ${p.explain}`),
    '',
    '## Export to Slurm and PBS',
    '',
    'Fidelity of the queue order alone (no threshold), as computed by the exporters',
    '(`src/core/export`) from each formula:',
    '',
    '| Id | Slurm | How | PBS | job_sort_formula or reason |',
    '|---|---|---|---|---|',
    ...rows.map((p) => `| ${p.id} | ${p.slurm.fidelity} | ${cell(p.slurm.note)} | ${p.pbs.fidelity} | ${cell(p.pbs.jobSortFormula === null ? p.pbs.note : `\`${p.pbs.jobSortFormula}\``)} |`),
    '',
    '### Slurm (priority/multifactor, sched/backfill)',
    '',
    'The mechanism follows from the shape of the formula, so a new policy needs no exporter change:',
    '',
    `- Every job gets the same base priority from the partition factor (\`PriorityWeightPartition=${fmtInt(BASE)}\`); the fragment sets fair-share, QOS and association weights to 0 (a merge keeps the site's, see below).`,
    '- **The wait alone** (FCFS): all priorities are equal, so Slurm orders by submit time, then job id. Native; a threshold changes nothing.',
    '- **±q**: `PriorityWeightTRES=CPU=±1` with `PriorityFlags=NO_NORMAL_TRES` (raw CPU counts). Native.',
    '- **Other static formulas** (no wait): `job_submit.lua` sets each job\'s site factor at submission, and again when its time limit or CPU count changes. ±p̃ is written in whole minutes; the submit time (LCFS) in seconds since ' + new Date(EPOCH0 * 1000).toISOString().slice(0, 10) + '; ratios and products are log-encoded around ' + fmtInt(SF_OFFSET) + `. Site factors stay within [0, ${fmtInt(SF_MAX)}]: Slurm stores them unsigned, and a negative value can read back as "unset".`,
    '- **Formulas that read the wait, and any order with a threshold**: a periodic script (root, e.g. every minute from cron) recomputes every pending job\'s site factor with `scontrol update … SiteFactor=`; between runs the order is that of the last run. Jobs past the threshold get ' + fmtInt(PROMOTE) + ' + their wait, above every encoded score.',
    `- **Mixed policies** that are linear with a non-negative wait weight: the wait maps to \`PriorityWeightAge\` (needs slurmdbd; \`PriorityMaxAge\` is twice the longest simulated wait), −q to the CPU weight, and the static p̃ terms to \`job_submit.lua\`, all scaled to stay within ±${fmtInt(LINEAR_BUDGET)}. A negative wait weight or the −exp feature uses the periodic script.`,
    '- EASY\'s shape: `SchedulerType=sched/backfill` with `bf_job_part_count_reserve=1` (one reservation), `bf_window` as long as the longest time limit, and `bf_continue`. Slurm has no separate backfill order: an explicit backfill policy is not exportable, except the primary\'s own policy with no threshold (the same order; FCFS under any threshold). Under a threshold, EASY-P-P (pure P backfill) is not exported as evaluated either: Slurm\'s backfill walks the thresholded priority order. Each export lists the remaining gaps (per-partition reservations, whole nodes, periodic backfill).',
    ...slurmMergeDoc(),
    '',
    '### PBS Professional / OpenPBS',
    '',
    '- The order is the server\'s `job_sort_formula` (evaluated by Python for every job at every scheduling cycle; higher first), with q = `ncpus`, p̃ = `walltime` and the wait = `eligible_time` (`eligible_time_enable = True`). It has no logarithm, so a formula that needs one is not exportable there.',
    `- A threshold Θ is a step in the formula: \`(eligible_time > Θ) * (${fmtNum(PBS_PROMOTE)} + eligible_time) + (eligible_time <= Θ) * (policy)\`. Comparisons work because the formula is Python-evaluated, but they are outside the documented syntax: verify on your version.`,
    '- EASY\'s single reservation: `strict_ordering: True ALL` with `backfill_depth = 1`. No separate backfill order.',
    '',
    '## Mixed policies',
    '',
    'A mixed policy ([004] §3.3) scores Σ wᵢ·(xᵢ − μᵢ)/σᵢ over six features, each oriented',
    '"higher runs first" as in the ocst simulator (smaller-is-better keys negated); σᵢ = 0 drops',
    'the feature. The weights are searched with ‖w‖₁ = 1.',
    '',
    '| Feature | Meaning | Formula |',
    '|---|---|---|',
    ...mixedFeatureCatalog().map((f) => `| ${f.name} | ${f.meaning} | \`${f.formula}\` |`),
    '',
    '## Guards',
    '',
    `- UNICEF divides by log₂ q, which is 0 for q = 1; [002] gives no guard, so EasyTune uses max(log₂ q, ${UNICEF_LOG2_FLOOR}).`,
    '- F1–F4 take log₁₀ and √ of the requested time and log₁₀ of s: EasyTune uses max(p̃, 1), and s counts',
    '  seconds from the start of the simulated window, at least 1 ([002] gives no origin). A running',
    '  cluster has no such origin, so F1–F4 cannot be exported.',
    '',
    '## Candidate presets',
    '',
    'What `easytune evaluate --preset` and the wizard\'s Candidates step try (src/core/tune/presets.ts):',
    '',
    `- **slurm**${DEFAULTS.preset.value === 'slurm' ? ' (default)' : ''}: ${presetInfo('slurm').describe}. Derived from the exporter, not written by hand: every declared policy, backfilling in its own (thresholded) order, whose Slurm export loses nothing (\`slurmDeployment(...).lost\` empty) with no threshold and with each standard threshold (${DEFAULTS.thresholds.value.map(formatThreshold).join(', ')}; any threshold other than none maps the same way, through the site-factor script). Today: ${slurmExportablePolicies().join(', ')} (${slurmExportablePolicies().length} orders).`,
    ...slurmExcludedPolicies().map((e) => `  - Left out: **${e.id}**, whose export would lose: ${e.lost.join(' — ')}.`),
    `- **ch5**${DEFAULTS.preset.value === 'ch5' ? ' (default)' : ''} (${presetInfo('ch5').note}): thesis ch. 5's 49 primary × backfill pairs of ${CH5_POLICIES.join(', ')}, every backfill order pure: EASY-P-P backfills in P's own order without the threshold's promotion, as the thesis does. Only the diagonal without a threshold (and FCFS with any) deploys as evaluated; exporting any other pair says what is lost.`,
    `- **ch6**: thesis ch. 6's 12 single-queue orders, ${CH6_POLICIES.join(', ')}, each backfilling in its own thresholded order.`,
    '',
    '## Adding a policy',
    '',
    'Add one declaration to `DECLARATIONS` in `src/core/sim/policies.ts` (id, name, formula tree,',
    'formula text, source, family, one-line explanation) and a test with a hand-worked example, then',
    'run `node scripts/gen-policies-doc.mjs`. The simulator, the export, `easytune policies`, the GUI',
    'and this page follow. A declaration may carry a hand-written `fast` priority where the compiled',
    `formula is measurably slower in the simulator (today: ${POLICIES.filter((p) => p.fast).map((p) => p.id).join(', ')}); the tests check that it equals the formula.`,
    '',
    '## References',
    '',
    ...refs.map((r) => `- **${r.tag}** ${r.title}. <${r.url}>. Used for: ${r.use}.`),
    ...OTHER_REFERENCES.map((r) => `- **${r.cite}**: ${r.title}.`),
    '',
  ]
  return out.join('\n')
}
