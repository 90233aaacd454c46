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
      let k = this.index.get(name)
      if (k === undefined) {
        if (this.names.length >= this.cap) { this.overflow++; continue }
        k = this.names.length
        this.index.set(name, k)
        this.names.push(name)
        this.maxCpus.push(-1)
        this.maxGpus.push(-1)
        this.parts.push([])
      }
      if (cpn > this.maxCpus[k]) this.maxCpus[k] = cpn
      if (gpn > this.maxGpus[k]) this.maxGpus[k] = gpn
      if (partition >= 0 && !this.parts[k].includes(partition)) this.parts[k].push(partition)
    }
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
