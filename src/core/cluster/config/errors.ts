// The error every cluster-file reader throws (docs/CLUSTER.md §Configuration files): a plain-words
// message naming the file and, where there is one, the line. Imports nothing, so the class exists
// whatever order the module graph loads in.

/** A slurm.conf, gres.conf or scontrol output that cannot be read; `line` is 1-based, null when the
 * problem is the whole file (too large, no node records). */
export class ClusterConfigError extends Error {
  readonly file: string
  readonly line: number | null
  constructor(message: string, file: string, line: number | null) {
    super(line === null ? `${file}: ${message}` : `${file} line ${line}: ${message}`)
    this.name = 'ClusterConfigError'
    this.file = file
    this.line = line
  }
}

/** Most nodes one configuration may declare (a bound against hostile input, far above real
 * machines; the same bound as one hostlist, src/core/util/hostlist.ts). */
export const MAX_NODES = 1_000_000
