// Readable names of work units, shared by the lifecycle (progress, crash and error messages) and
// the workers (the progress they post straight to the window in the desktop app), so both name a
// cell the same way.
import { configLabel, type CellSpec } from '../core/tune/campaign'
import type { WorkUnit } from './protocol'

/** "EASY-SPF Θ=20 h (train)"; never throws, even for an unknown policy. */
export function cellLabel(cell: CellSpec): string {
  try {
    return `${configLabel(cell.candidate, cell.threshold)} (${cell.part}${cell.samples === 'real' ? ', real weeks' : ''})`
  } catch {
    return `${JSON.stringify(cell.candidate)} Θ=${cell.threshold ?? 'none'} (${cell.part})`
  }
}

/** The unit's own name: a cell's label, "trace 3", a weight vector, a file name. */
export function unitLabel(u: WorkUnit): string {
  switch (u.kind) {
    case 'cell': return cellLabel(u.cell)
    case 'online-trace': return String(u.trace + 1)
    case 'baseline-fidelity': return 'fidelity'
    case 'impact': return 'impact'
    case 'mixed-stats': return 'feature statistics'
    case 'mixed-objective': return `(${u.primary.weights.map((v) => Number(v.toFixed(3))).join(', ')})`
    case 'walltimes-whatif': return u.scenario
    case 'predicted-order-replay': return u.replay
    case 'prediction-triple': return u.triple
    case 'learn-tuple': return `tuple ${u.tuple + 1}`
    case 'learn-fit': return `functions ${u.from + 1}–${u.to}`
    case 'machine-view': return 'machine'
    case 'import': return u.options.name ?? u.path
  }
}

/** The unit in a sentence: "cell EASY-SPF Θ=20 h (train)", "trace 3", "the import of kth.swf". */
export function unitName(u: WorkUnit): string {
  switch (u.kind) {
    case 'cell': return `cell ${unitLabel(u)}`
    case 'online-trace': return `online trace ${unitLabel(u)}`
    case 'baseline-fidelity': return 'the baseline on the whole log against the recorded history'
    case 'impact': return 'who gains and who loses under the recommendation'
    case 'mixed-stats': return 'the feature statistics of the mixed search'
    case 'mixed-objective': return `weight vector ${unitLabel(u)}`
    case 'walltimes-whatif': return `the time-limits what-if with ${unitLabel(u)}`
    case 'predicted-order-replay': return `the ${unitLabel(u)} replay of the predicted-order fidelity`
    case 'prediction-triple': return `prediction triple ${unitLabel(u)}`
    case 'learn-tuple': return `the learning trials of ${unitLabel(u)}`
    case 'learn-fit': return `the regression of ${unitLabel(u)} of ℱ`
    case 'machine-view': return 'the baseline on the chosen machine'
    case 'import': return `the import of ${unitLabel(u)}`
  }
}
