// What an export produces (src/core/export): plain data, shown by the CLI, the wizard and the report.

export type ExportTarget = 'slurm' | 'pbs'
export type Fidelity = 'native' | 'job_submit.lua' | 'site factor' | 'not exportable'

export interface ExportFile {
  name: string
  content: string
  /** What the file is, in one line. */
  description: string
}

/** One setting an export changes in the site's slurm.conf, in plain words; `from` is null when the
 * file did not set it (or, for a fragment exported without the current file, when it is unknown). */
export interface SettingChange { setting: string; from: string | null; to: string; why: string }

export interface ExportBundle {
  target: ExportTarget
  files: ExportFile[]
  /** Each exported item with how faithfully the target can express it. */
  items: { feature: string; fidelity: Fidelity; note: string }[]
  /** Known gaps between the target and the simulated EASY (what is lost, if anything, first). */
  gaps: string[]
  /** Each part of the evaluated candidate not exported as evaluated, "feature: why" (empty when
   * nothing is lost; export/lost.ts). Set by every exporter; derivable from `items`. */
  lost?: string[]
  /** Every setting changed in slurm.conf (Slurm; empty for a `keep` verdict and for PBS). */
  changes?: SettingChange[]
  /** Plain-words remarks: Include files not read, duplicate keys, bf_window capped, keep, … */
  notes?: string[]
  /** Set when the site's fair-share/QOS/association weights stay on beside the order's term
   * ("approximate: fair-share and QOS also act", with the comparison). A flag beside the items'
   * fidelities rather than a new Fidelity value: it qualifies the whole export, not one part, and
   * the Fidelity ranking (deploy.ts, the verdict's export) stays about what Slurm can express. */
  approximate?: string | null
}
