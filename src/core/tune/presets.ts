// The candidate presets (docs/PROTOCOL.md §Campaign grid; the lists are generated into
// docs/POLICIES.md §Candidate presets, so the page cannot drift from the code):
// - `slurm` (default): the orders Slurm runs exactly as they were evaluated. Derived, never written
//   by hand: every declared policy with one order for reservation and backfilling (`backfill
//   same`) whose export loses nothing (src/core/export/deploy.ts) under every threshold offered.
// - `ch5`: the thesis's ch. 5 grid, 7 primaries × 7 pure backfill orders. The diagonal EASY-P-P
//   backfills in P's own order, without the threshold's promotion ([001] §5.5.1: the threshold
//   reorders the primary queue only), which `backfill same` would not do under a threshold. A
//   research grid: Slurm cannot backfill in another order than its priority order.
// - `ch6`: the 12 single-queue orders of thesis ch. 6, backfilling in the same (thresholded) order.
import { DEFAULTS } from '../defaults'
import { slurmDeployment } from '../export/deploy'
import { CH5_POLICIES, CH6_POLICIES, POLICIES } from '../sim/policies'
import { RESEARCH_GRID_NOTE, type Candidate, type PresetId } from './campaign'

export { PRESET_IDS, RESEARCH_GRID_NOTE, type PresetId } from './campaign'

export interface PresetInfo {
  id: PresetId
  /** A few words for lists and radio buttons. */
  title: string
  /** What the preset holds, in one sentence. */
  describe: string
  /** Shown wherever the preset is shown when its candidates cannot all run on Slurm as evaluated. */
  note: string | null
}

/** The thresholds a preset is checked against when none are given: the standard ones. */
const OFFERED: readonly (number | null)[] = DEFAULTS.thresholds.value

/** Every declared policy whose single order (reservation and backfilling) Slurm runs as evaluated
 * under every one of `thresholds`: what `slurmDeployment` reports as lost is empty. */
export function slurmExportablePolicies(thresholds: readonly (number | null)[] = OFFERED): string[] {
  const ts = thresholds.length ? thresholds : [null]
  return POLICIES.filter((p) => ts.every((t) => slurmDeployment({ primary: p.id, backfill: 'same' }, t).lost.length === 0)).map((p) => p.id)
}

/** The policies left out of the `slurm` preset, each with what its export would lose. */
export function slurmExcludedPolicies(thresholds: readonly (number | null)[] = OFFERED): { id: string; lost: string[] }[] {
  const keep = new Set(slurmExportablePolicies(thresholds))
  const ts = thresholds.length ? thresholds : [null]
  return POLICIES.filter((p) => !keep.has(p.id)).map((p) => ({
    id: p.id,
    lost: [...new Set(ts.flatMap((t) => slurmDeployment({ primary: p.id, backfill: 'same' }, t).lost))],
  }))
}

/** The candidates of a preset. `thresholds`: those the campaign tries (the `slurm` preset keeps
 * only orders that lose nothing under each of them); the standard ones by default. */
export function presetCandidates(preset: PresetId, thresholds: readonly (number | null)[] = OFFERED): Candidate[] {
  if (preset === 'slurm') return slurmExportablePolicies(thresholds).map((p) => ({ primary: p, backfill: 'same' }))
  if (preset === 'ch6') return CH6_POLICIES.map((p) => ({ primary: p, backfill: 'same' }))
  const out: Candidate[] = []
  // Pure backfill orders everywhere, the diagonal included (EASY-P-P as the thesis defines it).
  for (const p of CH5_POLICIES) for (const b of CH5_POLICIES) out.push({ primary: p, backfill: b })
  return out
}

export const PRESETS: readonly PresetInfo[] = [
  {
    id: 'slurm', title: 'Deployable on Slurm',
    describe: 'every declared order that Slurm runs exactly as evaluated (natively, by job_submit.lua or by the site-factor script), one order for reservation and backfilling',
    note: null,
  },
  {
    id: 'ch5', title: '49 pairs (thesis ch. 5)',
    describe: `every primary order with every pure backfill order among ${CH5_POLICIES.join(', ')} (EASY-P-P backfills in P's own order, as in the thesis)`,
    note: RESEARCH_GRID_NOTE,
  },
  {
    id: 'ch6', title: '12 orders (thesis ch. 6)',
    describe: `the single-key orders ${CH6_POLICIES.join(', ')}, backfilling in the same order`,
    note: null,
  },
]

export function presetInfo(id: PresetId): PresetInfo {
  return PRESETS.find((p) => p.id === id)!
}
