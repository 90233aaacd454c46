// Which kind of cluster file a text is (the CLI's --cluster takes either; docs/CLUSTER.md
// §Configuration files): scontrol prints state that a slurm.conf never holds (CPUTot=, CPUAlloc=,
// TotalNodes=, …), and its records' keys follow NodeName=/PartitionName= on indented lines.

/** Keys only `scontrol show node` / `show partition` print. */
const SCONTROL_ONLY = /(?:^|[\s])(CPUTot|CPUAlloc|CPULoad|CPUEfctv|AllocMem|FreeMem|CfgTRES|AllocTRES|TotalCPUs|TotalNodes|BootTime|SlurmdStartTime)=/m

/** 'scontrol' for scontrol show node/partition output, 'slurm.conf' for a slurm.conf (or a file in
 * its syntax: Key=Value lines), null for neither. Reads at most the first 64 kB. */
export function detectConfigKind(text: string): 'slurm.conf' | 'scontrol' | null {
  const head = text.slice(0, 65_536)
  // comment lines of a slurm.conf may quote anything
  if (SCONTROL_ONLY.test(head.split(/\r?\n/).filter((l) => !l.trimStart().startsWith('#')).join('\n'))) return 'scontrol'
  for (const raw of head.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, '').trim()
    if (line === '') continue
    return /^(include\s+\S|[A-Za-z][A-Za-z0-9_]*\s*=)/i.test(line) ? 'slurm.conf' : null
  }
  return null
}
