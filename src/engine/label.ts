// A readable cell name, shared by the pool (progress, messages) and the workers (the progress they
// post straight to the window in the desktop app), so both name a cell the same way.
import { configLabel, type CellSpec } from '../core/tune/campaign'

/** "EASY-SPF Θ=20 h (train)"; never throws, even for an unknown policy. */
export function cellLabel(cell: CellSpec): string {
  try {
    return `${configLabel(cell.candidate, cell.threshold)} (${cell.part})`
  } catch {
    return `${JSON.stringify(cell.candidate)} Θ=${cell.threshold ?? 'none'} (${cell.part})`
  }
}
