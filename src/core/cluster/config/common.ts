// What slurm.conf and `scontrol show` share (docs/CLUSTER.md §Configuration files): how one value is
// read (whole numbers, Slurm times, Gres counts, OverSubscribe), and one partition built from its
// settings. Every problem is a ClusterConfigError naming the file and line.
import { slurmMinutes } from '../../export/slurm-conf'
import { expandHostlist, HostlistError } from '../../util/hostlist'
import type { OverSubscribe, PartitionSpec } from '../types'
import { SLURM_DEFAULTS } from './defaults'
import { ClusterConfigError, MAX_NODES } from './errors'

/** Where a value was read, for the error. */
export interface At { readonly file: string; readonly line: number | null }

export const fail = (at: At, message: string): never => { throw new ClusterConfigError(message, at.file, at.line) }

/** A value quoted in a message: short, whatever the input holds. */
export const quote = (v: string): string => `"${v.length > 40 ? `${v.slice(0, 40)}…` : v}"`

/** A whole number in [min, max] ("Key=value" in messages); larger ones are refused, not rounded. */
export function wholeNumber(key: string, v: string, at: At, min = 0, max = 2 ** 32 - 1): number {
  const s = v.trim()
  if (!/^[+-]?\d{1,16}$/.test(s)) return fail(at, `${key}=${quote(v)} is not a whole number`)
  const n = Number(s)
  if (n < min || n > max) return fail(at, `${key}=${s} is out of range (${min} to ${max})`)
  return n
}

/** A Slurm time (minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS) in seconds, whole minutes as
 * Slurm keeps them (seconds round up to the next minute: time_str2mins); null = UNLIMITED/INFINITE
 * (and NONE when `none` is allowed, as scontrol prints an unset DefaultTime). */
export function slurmTimeSeconds(key: string, v: string, at: At, none = false): number | null {
  const s = v.trim()
  if (none && /^none$/i.test(s)) return null
  const m = slurmMinutes(s)
  if (m === null) return fail(at, `${key}=${quote(v)} is not a Slurm time (minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS or UNLIMITED)`)
  if (m === Infinity) return null
  if (m > 1e9) return fail(at, `${key}=${quote(v)} is too long a time`)
  return m * 60
}

/** Slurm's booleans (YES/NO, TRUE/FALSE, 1/0, UP/DOWN as s_p_get_boolean reads them). */
export function yesNo(key: string, v: string, at: At): boolean {
  const s = v.trim().toLowerCase()
  if (s === 'yes' || s === 'true' || s === '1' || s === 'up') return true
  if (s === 'no' || s === 'false' || s === '0' || s === 'down') return false
  return fail(at, `${key}=${quote(v)} is neither YES nor NO`)
}

/** A Gres count: digits with an optional K/M/G suffix (×1024 each, as Slurm reads counts). */
function gresCount(s: string, key: string, at: At): number | null {
  const m = /^(\d{1,12})([kmg]?)$/i.exec(s)
  if (m === null) return null
  const n = Number(m[1]) * 1024 ** ' kmg'.indexOf(m[2].toLowerCase() || ' ')
  if (n > 1e9) return fail(at, `${key}: a count of ${s} is out of range`)
  return n
}

/** GPUs of a Gres list: `gpu:2`, `gpu:a100:4`, `gpu:a100:2,gpu:v100:2`, `gpu` (one),
 * `gpu:a100:4(S:0-1)` (scontrol's socket binding), summed over types; other GRES (mps, shard)
 * are not GPUs and are counted in `others`. `(null)` and '' give 0. */
export function gresGpus(key: string, v: string, at: At): { gpus: number; others: string[] } {
  const s = v.trim()
  const others: string[] = []
  if (s === '' || s === '(null)' || /^none$/i.test(s)) return { gpus: 0, others }
  let gpus = 0
  // commas inside "(S:0,1)" are not separators
  for (const raw of s.replace(/\([^)]*\)/g, '').split(',')) {
    const item = raw.trim()
    if (item === '') continue
    const parts = item.split(':')
    const name = parts[0].toLowerCase()
    if (!/^[a-z][a-z0-9_/-]*$/.test(name)) return fail(at, `${key}=${quote(v)}: ${quote(item)} is not a GRES (name[:type][:count])`)
    let count = 1
    if (parts.length > 1) {
      const last = parts[parts.length - 1]
      const c = gresCount(last, key, at)
      if (c !== null) count = c
      // gpu:tesla is one GPU of type tesla; gpu:a100:many or gpu:-2 is no count at all
      else if (parts.length > 2 || /^[+-]?\d/.test(last)) return fail(at, `${key}=${quote(v)}: the count of ${quote(item)} is not a number`)
    }
    if (name === 'gpu') gpus += count
    else if (!others.includes(name)) others.push(name)
  }
  if (gpus > 1e6) return fail(at, `${key}=${quote(v)}: ${gpus} GPUs on one node is out of range`)
  return { gpus, others }
}

/** OverSubscribe (or the older Shared): NO | YES[:N] | FORCE[:N] | EXCLUSIVE. The job count N is
 * not kept (the simulator does not share cores between jobs); `counted` says one was given. */
export function overSubscribe(key: string, v: string, at: At): { value: OverSubscribe; counted: boolean } {
  const m = /^(no|yes|force|exclusive)(?::(\d{1,5}))?$/i.exec(v.trim())
  if (m === null || (m[2] !== undefined && m[1].toLowerCase() !== 'yes' && m[1].toLowerCase() !== 'force')) {
    return fail(at, `${key}=${quote(v)} is not NO, YES[:N], FORCE[:N] or EXCLUSIVE`)
  }
  return { value: m[1].toUpperCase() as OverSubscribe, counted: m[2] !== undefined }
}

/** A memory default in MB (DefMemPerCPU / DefMemPerNode); UNLIMITED or 0 = unset (scontrol prints
 * UNLIMITED when none is set). */
export function memDefault(key: string, v: string, at: At): number | null {
  if (/^unlimited$/i.test(v.trim())) return null
  const n = wholeNumber(key, v, at, 0, 1e12)
  return n === 0 ? null : n
}

/** A hostlist, with the hostlist's own error turned into one that names the file and line. */
export function hosts(key: string, v: string, at: At, max = MAX_NODES): string[] {
  try {
    return expandHostlist(v, max)
  } catch (e) {
    if (e instanceof HostlistError) return fail(at, `${key}=${quote(v)}: ${e.message}`)
    throw e
  }
}

/** Settings of a partition that change which jobs may run where, and that the simulator does not
 * model: each set one (to anything but "no restriction") gives a note. */
const PARTITION_UNMODELLED: readonly [string, (v: string) => boolean, string][] = [
  ['allowaccounts', (v) => !/^all$/i.test(v), 'AllowAccounts (every account may use it here)'],
  ['allowgroups', (v) => !/^all$/i.test(v), 'AllowGroups (every user may use it here)'],
  ['allowqos', (v) => !/^all$/i.test(v), 'AllowQos (every QOS may use it here)'],
  ['denyaccounts', (v) => v !== '' && v !== '(null)', 'DenyAccounts'],
  ['denyqos', (v) => v !== '' && v !== '(null)', 'DenyQos'],
  ['maxnodes', (v) => !/^unlimited$/i.test(v), 'MaxNodes (jobs above it would pend)'],
  ['minnodes', (v) => !/^[01]$/.test(v), 'MinNodes'],
  ['maxcpuspernode', (v) => !/^unlimited$/i.test(v), 'MaxCPUsPerNode (all CPUs of a node are usable here)'],
  ['maxmempercpu', (v) => !/^unlimited$/i.test(v) && v !== '0', 'MaxMemPerCPU'],
  ['maxmempernode', (v) => !/^unlimited$/i.test(v) && v !== '0', 'MaxMemPerNode'],
  ['qos', (v) => !/^(n\/a|normal|)$/i.test(v), 'the partition QOS (its limits are not applied)'],
  ['lln', (v) => /^yes$/i.test(v), 'LLN=YES (nodes are chosen best-fit, not least-loaded)'],
  ['exclusiveuser', (v) => /^yes$/i.test(v), 'ExclusiveUser=YES'],
  ['tresbillingweights', (v) => v !== '' && v !== '(null)', 'TRESBillingWeights (fair-share usage counts CPUs)'],
  ['selecttypeparameters', (v) => !/^none$/i.test(v), 'the partition\'s own SelectTypeParameters (the cluster\'s apply)'],
]

/** The node indices of a partition's Nodes= (hostlist or ALL), ascending, without repeats. */
function partitionNodes(name: string, v: string | undefined, nodeIndex: ReadonlyMap<string, number>, at: At, missing: string): number[] {
  if (v === undefined) return []
  const s = v.trim()
  if (/^all$/i.test(s)) return Array.from(nodeIndex.values()).sort((a, b) => a - b)
  const seen = new Uint8Array(nodeIndex.size)
  for (const host of hosts('Nodes', s, at)) {
    const i = nodeIndex.get(host)
    if (i === undefined) return fail(at, `partition ${name} lists node ${quote(host)}, which ${missing}`)
    seen[i] = 1
  }
  const out: number[] = []
  for (let i = 0; i < seen.length; i++) if (seen[i] === 1) out.push(i)
  return out
}

/** One partition from its settings (lower-case keys; slurm.conf's PartitionName=DEFAULT already
 * merged in). `notes` gains a line for anything read approximately. */
export function buildPartition(
  name: string, get: (lowerKey: string) => string | undefined, nodeIndex: ReadonlyMap<string, number>,
  at: At, notes: string[], missing: string,
): PartitionSpec {
  const D = SLURM_DEFAULTS
  const nodes = partitionNodes(name, get('nodes'), nodeIndex, at, missing)
  const maxTimeRaw = get('maxtime')
  const maxTime = maxTimeRaw === undefined ? null : slurmTimeSeconds('MaxTime', maxTimeRaw, at)
  const defRaw = get('defaulttime')
  let defaultTime = defRaw === undefined ? null : slurmTimeSeconds('DefaultTime', defRaw, at, true)
  if (defRaw !== undefined && defaultTime === null && maxTime !== null && /^(unlimited|infinite)$/i.test(defRaw.trim())) {
    notes.push(`Partition ${name}: DefaultTime=${defRaw.trim()} with MaxTime set is read as unset (jobs without a time limit get MaxTime).`)
    defaultTime = null
  }
  // The older Priority= set both the job factor and the tier; the newer keys win.
  const prio = get('priority')
  const oldPrio = prio === undefined ? null : wholeNumber('Priority', prio, at, 0, 65535)
  const tierRaw = get('prioritytier'), factorRaw = get('priorityjobfactor')
  const priorityTier = tierRaw !== undefined ? wholeNumber('PriorityTier', tierRaw, at, 0, 65535) : oldPrio ?? D.partitionPriorityTier.value
  const priorityJobFactor = factorRaw !== undefined ? wholeNumber('PriorityJobFactor', factorRaw, at, 0, 65535) : oldPrio ?? D.partitionPriorityJobFactor.value
  const osRaw = get('oversubscribe') ?? get('shared')
  let os: OverSubscribe = 'NO'
  if (osRaw !== undefined) {
    const o = overSubscribe(get('oversubscribe') !== undefined ? 'OverSubscribe' : 'Shared', osRaw, at)
    os = o.value
    if (o.counted) notes.push(`Partition ${name}: OverSubscribe=${osRaw.trim()}: the job count per core is not simulated (jobs do not share cores).`)
  }
  const defRawD = get('default')
  const stateRaw = (get('state') ?? 'UP').trim().toUpperCase()
  if (stateRaw !== 'UP' && stateRaw !== 'DOWN' && stateRaw !== 'DRAIN' && stateRaw !== 'INACTIVE') fail(at, `State=${quote(stateRaw)} of partition ${name} is not UP, DOWN, DRAIN or INACTIVE`)
  const dmc = get('defmempercpu'), dmn = get('defmempernode')
  const unmodelled = PARTITION_UNMODELLED.filter(([k, restricts]) => { const v = get(k); return v !== undefined && restricts(v.trim()) }).map(([, , what]) => what)
  if (unmodelled.length > 0) notes.push(`Partition ${name}: not simulated: ${unmodelled.join('; ')}.`)
  return {
    name, nodes, maxTime, defaultTime, priorityTier, priorityJobFactor, overSubscribe: os,
    isDefault: defRawD !== undefined && yesNo('Default', defRawD, at),
    defMemPerCpu: dmc === undefined ? null : memDefault('DefMemPerCPU', dmc, at),
    defMemPerNode: dmn === undefined ? null : memDefault('DefMemPerNode', dmn, at),
    state: stateRaw as PartitionSpec['state'],
  }
}

/** Indices of `names` in natural order: by the name without its trailing number, then by that
 * number (r2 before r10), then by the whole name (a01 and a1 stay apart). Each name is split once. */
export function naturalOrder(names: readonly string[]): number[] {
  const prefix: string[] = [], num = new Float64Array(names.length)
  names.forEach((n, i) => { const m = /^(.*?)(\d*)$/.exec(n)!; prefix.push(m[1]); num[i] = m[2] === '' ? -1 : Number(m[2]) })
  return names.map((_, i) => i).sort((a, b) => {
    if (prefix[a] !== prefix[b]) return prefix[a] < prefix[b] ? -1 : 1
    if (num[a] !== num[b]) return num[a] - num[b]
    return names[a] < names[b] ? -1 : names[a] > names[b] ? 1 : 0
  })
}
