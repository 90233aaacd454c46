// The nodes a log's node lists name (ParsedLog.nodesSeen, for inferring the machine; see
// docs/SIMULATOR.md §Resource columns): per node, the most CPUs and GPUs one job
// was seen to use on it and the partitions of the jobs that ran there. Bounded: at most
// MAX_NODES_SEEN distinct names (hostile input), beyond which new names are counted, not kept.
import { MAX_NODES_SEEN } from './limits'
import { formatInt } from '../util/format'
import type { NodeSeen } from './types'

export class NodeTracker {
  private readonly index = new Map<string, number>()
  private readonly names: string[] = []
  private readonly maxCpus: number[] = []
  private readonly maxGpus: number[] = []
  private readonly parts: number[][] = []
  /** Jobs that named each node kept (for merging chunks: a name beyond the cap counts them all). */
  private readonly mentions: number[] = []
  /** Node names not kept because MAX_NODES_SEEN were already kept (each name counted once per job). */
  overflow = 0

  constructor(private readonly cap = MAX_NODES_SEEN) {}

  /**
   * One job ran on `nodes` with `cpus` CPUs and `gpus` GPUs in all (-1 unknown) in `partition`
   * (-1 unknown). A spread job counts its share per node, rounded up (CPUs / nodes): the most the
   * node must have held.
   */
  add(nodes: readonly string[], cpus: number, gpus: number, partition: number): void {
    const n = nodes.length
    if (n === 0) return
    const cpn = cpus >= 0 ? Math.ceil(cpus / n) : -1
    const gpn = gpus >= 0 ? Math.ceil(gpus / n) : -1
    for (const name of nodes) {
      const k = this.slot(name)
      if (k < 0) { this.overflow++; continue }
      this.mentions[k]++
      if (cpn > this.maxCpus[k]) this.maxCpus[k] = cpn
      if (gpn > this.maxGpus[k]) this.maxGpus[k] = gpn
      if (partition >= 0 && !this.parts[k].includes(partition)) this.parts[k].push(partition)
    }
  }

  /** The index of a node's name, a new one when there is room; -1 for a new name beyond the cap. */
  private slot(name: string): number {
    const k = this.index.get(name)
    if (k !== undefined) return k
    if (this.names.length >= this.cap) return -1
    this.index.set(name, this.names.length)
    this.names.push(name)
    this.maxCpus.push(-1)
    this.maxGpus.push(-1)
    this.parts.push([])
    this.mentions.push(0)
    return this.names.length - 1
  }

  /** The nodes of a chunk of the log, for absorb (partitions as the chunk's indices). */
  part(): NodesPart {
    return { seen: this.finish(), mentions: this.mentions.slice(), overflow: this.overflow }
  }

  /**
   * Takes in the nodes of the next chunk of the log (in file order) as if its jobs had been added
   * here: a node kept updates its most CPUs and GPUs and its partitions (the chunk's indices mapped
   * by `partitionMap`); a new name beyond the cap counts every job that named it in the chunk.
   * Exact unless a chunk alone named more than the cap: its own overflow is added as counted there,
   * which may include names kept here from earlier chunks (only the warning's count of mentions
   * differs, and only for a log of more than MAX_NODES_SEEN nodes).
   */
  absorb(p: NodesPart, partitionMap: readonly number[]): void {
    this.overflow += p.overflow
    p.seen.forEach((node, i) => {
      const k = this.slot(node.name)
      if (k < 0) { this.overflow += p.mentions[i]; return }
      this.mentions[k] += p.mentions[i]
      if (node.maxCpus > this.maxCpus[k]) this.maxCpus[k] = node.maxCpus
      if (node.maxGpus > this.maxGpus[k]) this.maxGpus[k] = node.maxGpus
      for (const q of node.partitions) { const m = partitionMap[q]; if (m >= 0 && !this.parts[k].includes(m)) this.parts[k].push(m) }
    })
  }

  get size(): number {
    return this.names.length
  }

  /** The nodes in the order first seen; partitions ascending. */
  finish(): NodeSeen[] {
    return this.names.map((name, k) => ({ name, maxCpus: this.maxCpus[k], maxGpus: this.maxGpus[k], partitions: this.parts[k].slice().sort((a, b) => a - b) }))
  }

  /** The warning to give when names were left out, else null. */
  warning(): string | null {
    return this.overflow === 0 ? null
      : `The node lists name more than ${formatInt(this.cap)} distinct nodes: the nodes beyond those were not kept ` +
        `(${formatInt(this.overflow)} mentions), so a machine inferred from this log misses them.`
  }
}

/** The nodes a chunk of a log named (NodeTracker.part), with how many jobs named each. */
export interface NodesPart {
  seen: NodeSeen[]
  mentions: number[]
  overflow: number
}

/**
 * Merges the nodes seen in several files (by name): the most CPUs and GPUs of any file, the union of
 * partitions mapped through each file's `partitionMap` (its partition index → the merged index).
 */
export function mergeNodesSeen(parts: readonly { nodes: readonly NodeSeen[]; partitionMap: readonly number[] }[], cap = MAX_NODES_SEEN): { nodes: NodeSeen[]; overflow: number } {
  const t = new NodeTracker(cap)
  for (const p of parts) {
    for (const node of p.nodes) {
      t.add([node.name], node.maxCpus, node.maxGpus, -1)
      for (const q of node.partitions) t.add([node.name], -1, -1, p.partitionMap[q] ?? -1)
    }
  }
  return { nodes: t.finish(), overflow: t.overflow }
}
