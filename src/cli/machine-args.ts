// The machine flags shared by simulate and evaluate (docs/CLUSTER.md §Inputs): one meaning each.
import { SCHEDULER_KINDS, type ConfFile, type MachineInputs } from '../core/cluster/model'
import type { SchedulerKind } from '../core/cluster/types'
import { dirname, isAbsolute, join } from 'node:path'
import { readRegularFileSync } from '../node/regular-file'
import { oneOf, str, UsageError, type FlagKind, type ParsedArgs } from './args'

export const MACHINE_FLAGS: Record<string, FlagKind> = {
  cluster: 'string', 'slurm-conf': 'string', 'gres-conf': 'string', scheduler: 'string', 'qos-priority': 'string',
}

export const MACHINE_HELP = `Machine (docs/CLUSTER.md):
  --cluster FILE           the machine only: a slurm.conf, or the output of scontrol show node
                           (and show partition); scheduling stays EASY with the chosen order
  --slurm-conf FILE        the machine AND Slurm's scheduling as configured there (multifactor
                           priority, main scheduler, backfill parameters)
  --gres-conf FILE         the gres.conf that goes with that slurm.conf (GPU counts per node)
  --scheduler easy|slurm   which scheduling runs on the machine (default: slurm with
                           --slurm-conf or --current-conf, easy otherwise)
  --qos-priority N=V,...   QOS priorities (Slurm keeps them in its database: sacctmgr show qos)
                           Without a file, the machine is inferred from the log when it names
                           nodes or partitions (sacct, jobcomp); SWF logs keep their header.`

/** The machine inputs of the command line; `current` is evaluate's --current-conf. */
export function machineInputs(a: ParsedArgs, current?: string): MachineInputs {
  const read = (flag: string, path: string, follow = true): ConfFile => {
    let text: string
    try {
      text = readRegularFileSync(path)
    } catch (e) {
      throw new UsageError(`--${flag}: ${(e as Error).message}`)
    }
    return follow ? { file: path, text, includes: readIncludes(path, text) } : { file: path, text }
  }
  const clusterPath = str(a, 'cluster'), confPath = str(a, 'slurm-conf'), gresPath = str(a, 'gres-conf')
  const given = [clusterPath && '--cluster', confPath && '--slurm-conf', current && '--current-conf'].filter(Boolean)
  if (given.length > 1) throw new UsageError(`${given.join(' and ')} each give the machine: give one (--current-conf is --slurm-conf plus "this runs today")`)
  const scheduler = oneOf<SchedulerKind>(a, 'scheduler', SCHEDULER_KINDS)
  const qos = str(a, 'qos-priority')
  const inputs: { -readonly [K in keyof MachineInputs]: MachineInputs[K] } = {}
  if (clusterPath) inputs.cluster = read('cluster', clusterPath)
  if (confPath) inputs.slurmConf = { ...read('slurm-conf', confPath), current: false }
  if (current) inputs.slurmConf = { ...read('current-conf', current), current: true }
  if (gresPath) inputs.gres = read('gres-conf', gresPath, false)
  if (scheduler) inputs.scheduler = scheduler
  if (qos !== undefined) inputs.qosPriority = qosPriorities(qos)
  return inputs
}

/** `normal=10,high=1000` → { normal: 10, high: 1000 } (whole numbers from 0 to 2³²−1, as Slurm's). */
export function qosPriorities(text: string): Record<string, number> {
  const out: Record<string, number> = Object.create(null) as Record<string, number>
  for (const item of text.split(',')) {
    const m = /^\s*([A-Za-z0-9_.-]{1,64})\s*=\s*(\d{1,10})\s*$/.exec(item)
    if (m === null || Number(m[2]) > 4294967295) throw new UsageError(`--qos-priority: "${item.trim()}" is not name=priority (a QOS name and a whole number from 0 to 4294967295)`)
    out[m[1]] = Number(m[2])
  }
  return out
}

/** Most files an Include chain may name (a bound against include loops and bombs). */
const MAX_INCLUDES = 32

/**
 * The files a slurm.conf's Include lines name, read here (core cannot read files), keyed by the
 * path as written: relative paths are resolved from the including file's folder, as slurmctld
 * resolves them from its configuration folder. A file that cannot be read is left out (the
 * reader then notes the Include as not followed).
 */
function readIncludes(path: string, text: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>
  const queue: [string, string][] = [[path, text]]
  let n = 0
  while (queue.length > 0 && n < MAX_INCLUDES) {
    const [from, body] = queue.shift()!
    for (const m of body.matchAll(/^[ \t]*include[ \t]+(\S+)/gim)) {
      const written = m[1]
      if (Object.hasOwn(out, written) || n >= MAX_INCLUDES) continue
      try {
        const t = readRegularFileSync(isAbsolute(written) ? written : join(dirname(from), written))
        out[written] = t
        n++
        queue.push([isAbsolute(written) ? written : join(dirname(from), written), t])
      } catch {
        // left out: noted by the reader
      }
    }
  }
  return out
}
