// How a candidate would be deployed on Slurm, as the exporter itself would do it: the weakest
// fidelity among its exported parts, what is lost, and a rank for "simplest to deploy" (native
// Slurm before job_submit.lua before a site-factor script before not exportable; no threshold
// before a threshold). Used to resolve ties between equivalent candidates and to state the
// recommendation's export fidelity, and to derive the default `slurm` candidate preset
// (src/core/tune/presets.ts: the candidates whose `lost` is empty). `lost` is what the export
// itself says (export/lost.ts), so the preset, the verdict and the exported files agree.
import { findPolicy } from '../sim/policies'
import type { PolicySpec } from '../sim/types'
import { lostParts } from './lost'
import { slurmItems } from './slurm'
import { slurmPlan } from './slurm-plan'
import type { Fidelity } from './types'
import type { ExportInput, PolicyChoice } from './validate'

export const FIDELITY_ORDER: readonly Fidelity[] = ['native', 'job_submit.lua', 'site factor', 'not exportable']

export interface Deployment {
  /** The weakest fidelity among the exported parts. */
  fidelity: Fidelity
  /** Lower is simpler to deploy: 2 × the fidelity's place in FIDELITY_ORDER, + 1 with a threshold. */
  rank: number
  /** Each part that is not exported as evaluated, in words. */
  lost: string[]
}

/** The export's view of a policy spec (a registry id or a mixed policy with its scales). */
export function choiceOf(p: PolicySpec): PolicyChoice {
  if (typeof p === 'string') return { kind: 'pure', id: findPolicy(p)?.id ?? p }
  return { kind: 'mixed', weights: [...p.weights], scale: [...(p.scale ?? [1, 1, 1, 1, 1, 1])] }
}

export function slurmDeployment(candidate: { primary: PolicySpec; backfill: PolicySpec | 'same' }, threshold: number | null): Deployment {
  const backfill = candidate.backfill === 'same' ? 'same' : typeof candidate.backfill === 'string' ? (findPolicy(candidate.backfill)?.id ?? candidate.backfill) : 'mixed'
  const x: ExportInput = {
    primary: choiceOf(candidate.primary), backfill, threshold, machineProcs: 1, longestWait: null, baseline: false, label: '',
    sha256: null, objective: null, gains: { train: null, test: null, testCi: null, maxWaitRatio: null },
  }
  const items = slurmItems(x, slurmPlan(x))
  let worst = 0
  for (const it of items) worst = Math.max(worst, FIDELITY_ORDER.indexOf(it.fidelity))
  return {
    fidelity: FIDELITY_ORDER[worst],
    rank: 2 * worst + (threshold === null ? 0 : 1),
    lost: lostParts(items),
  }
}
