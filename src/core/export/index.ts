// Export of the recommended queue order to a batch system's configuration (docs/POLICIES.md, "Export to Slurm and PBS"):
// the entry used by the CLI, the desktop app, browser mode and the report. Pure: no Node.
// The result is untrusted input (validate.ts); generated files are built from typed values only.
import type { ExportBundle, ExportTarget } from './types'
import { findPolicy } from '../sim/policies'
import type { EvaluationResult } from '../tune/result'
import { pbsFormula, exportPbs } from './pbs'
import { describeMixed, isDynamic, mixedCoefficients } from './policy'
import { checkSlurmVersion, DEFAULT_SLURM_VERSION, exportSlurm } from './slurm'
import { MAX_CONF_CHARS } from './slurm-conf'
import { MERGED_CONF_FILE } from './slurm'
import { applySlurmChange, slurmChangeLabel, type SlurmChange } from '../cluster/slurm-family'
import { ExportInputError, readExportInput, type ExportInput } from './validate'

export { ExportInputError, InsufficientDataError } from './validate'
export { checkSlurmVersion, DEFAULT_SLURM_VERSION } from './slurm'

export const RECOMMENDATION_FILE = 'easytune-recommendation.json'
export const RECOMMENDATION_SCHEMA_VERSION = 1
export const EXPORT_TARGETS: readonly ExportTarget[] = ['slurm', 'pbs']

export interface ExportOptions {
  slurmVersion?: string
  /** The site's current slurm.conf (text): Slurm exports then write the whole merged file. */
  currentConf?: string
}

/** The configuration files for `target`, each exported item's fidelity, the known gaps, and (Slurm)
 * every setting changed. A `keep` verdict exports nothing and says so. Throws ExportInputError
 * (plain words) for a result or slurm.conf it cannot read, InsufficientDataError when the
 * evaluation found too little data. */
export function exportConfig(result: EvaluationResult, target: ExportTarget, options?: ExportOptions): ExportBundle {
  const x = readExportInput(result)
  if (!EXPORT_TARGETS.includes(target)) throw new ExportInputError(`unknown export target; use ${EXPORT_TARGETS.join(' or ')}`)
  if (options?.currentConf !== undefined && target !== 'slurm') throw new ExportInputError('a current configuration is only read for the Slurm export')
  if (x.verdict === 'keep') {
    return {
      target, files: [], items: [], gaps: [], changes: [], approximate: null,
      notes: ['The evaluation says keep: the baseline order stays (no candidate passed every condition to switch), so nothing is exported and no setting changes.'],
    }
  }
  // The slurm.conf the evaluation simulated the candidates on (--current-conf / --slurm-conf,
  // recorded in the result): merged into without being given again; a given one wins.
  const recorded = options?.currentConf === undefined && target === 'slurm' ? recordedConf(result) : null
  if (x.slurm) return exportSlurmChange(x.slurm, target, options?.currentConf ?? recordedConf(result)?.text, recordedConf(result)?.file)
  const bundle: ExportBundle = target === 'slurm'
    ? exportSlurm(x, checkSlurmVersion(options?.slurmVersion ?? DEFAULT_SLURM_VERSION), options?.currentConf ?? recorded?.text)
    : { ...exportPbs(x), changes: [], notes: [], approximate: null }
  if (recorded) (bundle.notes ??= []).unshift(`Merged into the slurm.conf the evaluation simulated (${recorded.file}, recorded in the result).`)
  bundle.files.push({
    name: RECOMMENDATION_FILE,
    content: JSON.stringify(recommendationOf(x), null, 2) + '\n',
    description: 'the recommendation as plain JSON, for other tools',
  })
  return bundle
}

/** The recommendation as plain JSON for other tools (policy, evaluation figures, per-target
 * fidelity). Only validated values: no string of the result is copied. */
export function recommendationJson(result: EvaluationResult): object {
  return recommendationOf(readExportInput(result))
}

function recommendationOf(x: ExportInput): object {
  const p = x.primary
  const policy = p.kind === 'pure'
    ? { kind: 'pure', id: p.id, name: findPolicy(p.id)?.name ?? p.id, formula: findPolicy(p.id)?.formula ?? null }
    : { kind: 'mixed', weights: p.weights, scale: p.scale, coefficients: mixedCoefficients(p), formula: describeMixed(p) }
  const slurm = exportSlurm(x, DEFAULT_SLURM_VERSION)
  const pbs = exportPbs(x)
  const f = pbsFormula(x)
  return {
    schemaVersion: RECOMMENDATION_SCHEMA_VERSION,
    kind: 'easytune-recommendation',
    policy: { primary: policy, backfill: x.backfill, threshold: x.threshold, dynamic: isDynamic(p), label: x.label },
    keepBaseline: x.baseline,
    evaluation: {
      objective: x.objective,
      trainGain: x.gains.train, testGain: x.gains.test, testGainCi90: x.gains.testCi,
      longestWaitRatio: x.gains.maxWaitRatio, longestWaitSeconds: x.longestWait,
    },
    log: { sha256: x.sha256, machineProcs: x.machineProcs },
    targets: {
      slurm: { items: slurm.items, gaps: slurm.gaps, lost: slurm.lost, files: slurm.files.map((fl) => fl.name) },
      pbs: { items: pbs.items, gaps: pbs.gaps, lost: pbs.lost, jobSortFormula: f.formula },
    },
  }
}

/** The slurm.conf recorded in a result (schema v3 `machine.conf`), checked as untrusted input. */
function recordedConf(result: unknown): { file: string; text: string } | null {
  const m = (result as { machine?: unknown } | null)?.machine
  const c = m !== null && typeof m === 'object' ? (m as { conf?: unknown }).conf : undefined
  if (c === null || typeof c !== 'object') return null
  const { file, text } = c as { file?: unknown; text?: unknown }
  if (typeof text !== 'string' || text.length > MAX_CONF_CHARS) return null
  const name = typeof file === 'string' ? file.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').slice(0, 200) : 'slurm.conf'
  return { file: name, text }
}

/** A recommended change of the site's own Slurm settings: that change merged into its slurm.conf
 * (the evaluation simulated exactly this file), nothing else. PBS has no such settings. */
function exportSlurmChange(change: SlurmChange, target: ExportTarget, conf: string | undefined, file: string | undefined): ExportBundle {
  const what = slurmChangeLabel(change)
  if (target !== 'slurm') {
    return { target, files: [], items: [{ feature: `Slurm settings (${what})`, fidelity: 'not exportable', note: 'a change of Slurm\'s own settings has no PBS counterpart' }], gaps: [], lost: [`Slurm settings (${what}): no PBS counterpart`], changes: [], notes: [], approximate: null }
  }
  if (conf === undefined) throw new ExportInputError('the recommendation changes the site\'s own Slurm settings: give the slurm.conf it was evaluated on (--current-conf)')
  const merged = applySlurmChange(conf, change, ['# Merged by EasyTune into the slurm.conf you gave: every line it does not change is kept as it was;', `# changed settings end with "# EasyTune: was …" (${what}). Then: scontrol reconfigure.`])
  return {
    target, files: [{ name: MERGED_CONF_FILE, content: merged.text, description: `your slurm.conf with the evaluated change (${what}); every other line kept` }],
    items: [{ feature: `Slurm settings (${what})`, fidelity: 'native', note: 'the change itself, as simulated' }], gaps: [], lost: [],
    changes: merged.changes, notes: [...(file ? [`Merged into the slurm.conf the evaluation simulated (${file}).`] : []), ...merged.notes], approximate: null,
  }
}

// Ordering by predicted runtime through the site factor (docs/PREDICTIONS.md §Deployment): not a
// recommendation of an evaluation, so its own entry; the Export step and the CLI call it.
export { exportPredictedOrder, type PredictedExport, type PredictedExportOptions } from './predicted'
export { predictedOrderFidelity, type PredictedOrderFidelity } from './predicted-fidelity'
