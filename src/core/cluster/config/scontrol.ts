// The machine from `scontrol show node` and/or `scontrol show partition` output (docs/CLUSTER.md
// §Configuration files). Records start at a NodeName= or PartitionName= token (blank lines between
// records, the indented continuation lines and the one-line -o form all read the same); a value
// may hold spaces (OS=Linux 5.15.0 #1 SMP …, Reason=…): words that are not Key=Value belong to the
// value before them. Partition-only output is refused: the nodes' CPUs are not in it.
import { MAX_CONF_CHARS, MAX_LINE_CHARS } from '../../export/slurm-conf'
import type { ClusterSpec, NodeSpec, PartitionSpec } from '../types'
import { buildPartition, fail, gresGpus, quote, wholeNumber, type At } from './common'
import { SLURM_DEFAULTS } from './defaults'
import { MAX_NODES } from './errors'

interface ScRecord { kind: 'node' | 'partition'; line: number; values: Map<string, string> }

const KEY = /^([A-Za-z][A-Za-z0-9_]*)=(.*)$/

/** The records of the text, in order. */
function records(text: string, file: string): ScRecord[] {
  if (text.length > MAX_CONF_CHARS) fail({ file, line: null }, `the file is ${text.length} characters long (at most ${MAX_CONF_CHARS}): is this really scontrol output?`)
  const out: ScRecord[] = []
  let cur: ScRecord | null = null
  let lastKey: string | null = null
  const lines = text.replace(/^\ufeff/, '').split(/\r?\n/)
  for (let n = 1; n <= lines.length; n++) {
    const line = lines[n - 1]
    const at: At = { file, line: n }
    if (line.length > MAX_LINE_CHARS) fail(at, `the line is ${line.length} characters long (at most ${MAX_LINE_CHARS}): is this really scontrol output?`)
    for (let i = 0; i < line.length; i++) {
      const c = line.charCodeAt(i)
      if ((c < 32 && c !== 9) || c === 127 || c === 0xfffd) fail(at, `the line holds ${c === 0 ? 'a NUL character' : c === 0xfffd ? 'bytes that are not text' : `a control character (code ${c})`} at column ${i + 1}: scontrol output is plain text`)
    }
    for (const word of line.trim().split(/[ \t]+/)) {
      if (word === '') continue
      const m = KEY.exec(word)
      if (m !== null) {
        const key = m[1].toLowerCase()
        if (key === 'nodename' || key === 'partitionname') {
          cur = { kind: key === 'nodename' ? 'node' : 'partition', line: n, values: new Map() }
          out.push(cur)
          if (out.length > MAX_NODES) fail(at, `more than ${MAX_NODES} records`)
        } else if (cur === null) {
          return fail(at, `${quote(word)} comes before any NodeName= or PartitionName=: not the output of scontrol show node / show partition`)
        }
        if (!cur.values.has(key)) cur.values.set(key, m[2]) // a key repeated inside a value (Reason=… x=y) does not replace the first
        lastKey = key
      } else if (cur !== null && lastKey !== null) {
        cur.values.set(lastKey, `${cur.values.get(lastKey)} ${word}`)
      } else {
        return fail(at, `${quote(word)} is not Key=Value: not the output of scontrol show node / show partition`)
      }
    }
  }
  return out
}

function nodeOf(r: ScRecord, file: string): NodeSpec {
  const at: At = { file, line: r.line }
  const name = r.values.get('nodename')!.trim()
  if (name === '' || /[\s,[\]]/.test(name)) fail(at, `NodeName=${quote(name)} is not one node name`)
  // CPUEfctv (23.02 and later) leaves out the CPUs kept for the system; CPUTot is all of them.
  const cpusRaw = r.values.get('cpuefctv') ?? r.values.get('cputot')
  if (cpusRaw === undefined) fail(at, `node ${name} has no CPUTot=: not a full \`scontrol show node\` record`)
  const cpus = wholeNumber('CPUTot', cpusRaw!, at, 1, 1_000_000)
  const num = (key: string, def: number, min: number, max: number): number => { const v = r.values.get(key.toLowerCase()); return v === undefined ? def : wholeNumber(key, v, at, min, max) }
  let gpus = 0
  const g = r.values.get('gres')
  if (g !== undefined) gpus = gresGpus('Gres', g, at).gpus
  else {
    const tres = /(?:^|,)gres\/gpu=(\d{1,7})(?:,|$)/i.exec(r.values.get('cfgtres') ?? '')
    if (tres !== null) gpus = Number(tres[1])
  }
  return {
    name, cpus,
    threadsPerCore: num('ThreadsPerCore', 1, 1, 65535),
    memMB: num('RealMemory', SLURM_DEFAULTS.nodeRealMemoryMB.value, 1, 1e12),
    gpus,
    weight: num('Weight', SLURM_DEFAULTS.nodeWeight.value, 0, 2 ** 32 - 1),
  }
}

/** Parses `scontrol show node` output (with `scontrol show partition` output in the same file, or
 * without: then the partitions come from the nodes' Partitions= lists, with Slurm's defaults).
 * Throws ClusterConfigError naming the file and line. */
export function parseScontrol(text: string, file: string): ClusterSpec {
  const recs = records(text, file)
  const notes: string[] = []
  const nodeRecs = recs.filter((r) => r.kind === 'node')
  const partRecs = recs.filter((r) => r.kind === 'partition')
  if (nodeRecs.length === 0) {
    fail({ file, line: null }, partRecs.length > 0
      ? 'only `scontrol show partition` output: the nodes\' CPUs, memory and GPUs are not in it. Add the output of `scontrol show node` to the file (both may be in one file).'
      : 'no NodeName= record: give the output of `scontrol show node` (and of `scontrol show partition`)')
  }
  const nodes: NodeSpec[] = []
  const index = new Map<string, number>()
  for (const r of nodeRecs) {
    const n = nodeOf(r, file)
    if (index.has(n.name)) fail({ file, line: r.line }, `node ${quote(n.name)} appears twice`)
    index.set(n.name, nodes.length)
    nodes.push(n)
  }
  const down = nodeRecs.filter((r) => /DOWN|DRAIN|FAIL|FUTURE|POWER/i.test(r.values.get('state') ?? '')).map((r) => r.values.get('nodename')!.trim())
  if (down.length > 0) notes.push(`${down.length} node(s) were down, drained or powered off when the output was taken (${down.slice(0, 3).join(', ')}${down.length > 3 ? ', …' : ''}): the machine is simulated with every node up.`)
  const partitions: PartitionSpec[] = []
  if (partRecs.length > 0) {
    const seen = new Set<string>()
    for (const r of partRecs) {
      const at: At = { file, line: r.line }
      const name = r.values.get('partitionname')!.trim()
      if (seen.has(name)) fail(at, `partition ${quote(name)} appears twice`)
      seen.add(name)
      const nodesV = r.values.get('nodes')
      const get = (k: string): string | undefined => (k === 'nodes' && nodesV !== undefined && /^\(null\)$/.test(nodesV.trim()) ? '' : r.values.get(k))
      partitions.push(buildPartition(name, get, index, at, notes, 'no `scontrol show node` record describes (give the output for all nodes)'))
    }
  } else {
    // Partitions from the nodes' Partitions= lists: their limits are not known.
    const members = new Map<string, number[]>()
    nodeRecs.forEach((r, i) => {
      for (const p of (r.values.get('partitions') ?? '').split(',')) {
        const name = p.trim()
        if (name === '' || name === '(null)') continue
        if (!members.has(name)) members.set(name, [])
        members.get(name)!.push(i)
      }
    })
    const D = SLURM_DEFAULTS
    const blank = (name: string, ns: number[]): PartitionSpec => ({
      name, nodes: ns, maxTime: null, defaultTime: null, priorityTier: D.partitionPriorityTier.value,
      priorityJobFactor: D.partitionPriorityJobFactor.value, overSubscribe: 'NO', isDefault: false,
      defMemPerCpu: null, defMemPerNode: null, state: 'UP',
    })
    if (members.size === 0) {
      partitions.push({ ...blank('all', nodes.map((_, i) => i)), isDefault: true })
      notes.push('No partition is named (no `scontrol show partition` output, no Partitions= on the nodes): one partition "all" of every node.')
    } else {
      for (const [name, ns] of members) partitions.push(blank(name, ns))
      notes.push(`Partitions ${[...members.keys()].join(', ')} are taken from the nodes' Partitions= lists: their MaxTime, DefaultTime, PriorityTier, PriorityJobFactor, OverSubscribe and Default are unknown, so Slurm's defaults are used (add \`scontrol show partition\` output to the file to read them).`)
    }
  }
  const sel = SLURM_DEFAULTS.scontrolSelect
  notes.push(`SelectType is not in scontrol output: select/cons_tres with CR_Core, memory not consumable, is assumed (${sel.why}).`)
  return { nodes, partitions, select: sel.value, defMemPerCpu: null, defMemPerNode: null, source: { kind: 'scontrol', file }, notes }
}
