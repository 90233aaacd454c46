// What an export produces (src/core/export): plain data, shown by the CLI, the wizard and the report.

export type ExportTarget = 'slurm' | 'pbs'
export type Fidelity = 'native' | 'job_submit.lua' | 'site factor' | 'not exportable'

export interface ExportFile {
  name: string
  content: string
  /** What the file is, in one line. */
  description: string
}

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
}
