// What an export loses: the parts of the evaluated candidate the target cannot run as they were
// simulated (fidelity 'not exportable'). One definition for every place that says it: the
// fragment's first lines, the bundle (`lost`, and first among its gaps), `easytune export`'s
// output and the recommendation's export fidelity (deploy.ts).
import type { ExportBundle } from './types'

type Item = ExportBundle['items'][number]

/** Each part not exported as evaluated, as "feature: why" (empty when nothing is lost). */
export function lostParts(items: readonly Item[]): string[] {
  return items.filter((it) => it.fidelity === 'not exportable').map((it) => `${it.feature}: ${it.note}`)
}

/** The warning that opens a generated file (comment lines with `mark`), or nothing. */
export function lostHeader(lost: readonly string[], mark: string): string[] {
  if (lost.length === 0) return []
  return [
    `${mark} WARNING: this configuration does NOT run the evaluated candidate as it was simulated. Lost:`,
    ...lost.map((l) => `${mark}   - ${l}`),
    `${mark} Its measured gains may not hold once deployed; an order from the default preset (slurm) deploys as evaluated.`,
  ]
}

/** The gap that says what is lost, first among the bundle's gaps (null when nothing is). */
export function lostGap(lost: readonly string[]): string | null {
  return lost.length === 0 ? null : `Not exported as evaluated (the simulated gains may not hold): ${lost.join('; ')}.`
}
