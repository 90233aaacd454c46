// The export's errors, in a module that imports nothing: the classes are defined when any export
// module is evaluated, whatever order the module graph loads them in (validate.ts reads results,
// which link back to the export through deploy.ts).

/** The result (or the site's slurm.conf) cannot be exported; the message says why in plain words. */
export class ExportInputError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ExportInputError'
  }
}

/** The evaluation says there is too little data: nothing to export (the CLI exits 2 with the reason). */
export class InsufficientDataError extends ExportInputError {}
