// The backfill map of whole-node reservations (src/core/cluster/slurm/nodespace.ts): the inclusive
// overlap of a candidate window, later_start, the strict overlap of a rounded slot, clipping.
import { describe, expect, it } from 'vitest'
import { NodeSpace } from '../../src/core/cluster/slurm/nodespace'

const nodes = (...xs: number[]) => Int32Array.from(xs)

function walk(ns: NodeSpace, s: number, e: number, cand = [1, 1, 1, 1]) {
  const blocked = new Uint8Array(4), list = new Int32Array(4), len = { n: 0 }
  const later = ns.block(s, e, Uint8Array.from(cand), blocked, list, len)
  return { later, blocked: Array.from(blocked) }
}

describe('NodeSpace', () => {
  const ns = new NodeSpace(4)
  ns.reset(0, 10_000)
  ns.add(600, 1200, 60, nodes(0, 1), 2) // A on n0,n1 over [600,1200)
  ns.add(1200, 1800, 60, nodes(1), 1) // B on n1 right after A
  ns.add(3000, 3600, 60, nodes(2), 1)

  it('a window blocks the nodes of every reservation it touches, inclusive of a slot starting at its end', () => {
    expect(walk(ns, 0, 600).blocked).toEqual([1, 1, 0, 0])
    expect(walk(ns, 0, 599).blocked).toEqual([0, 0, 0, 0])
    // A reservation ending at the window's start does not block (slot end > start).
    expect(walk(ns, 1800, 2000).blocked).toEqual([0, 0, 0, 0])
  })
  it('later_start: the earliest time a blocked candidate node becomes free again (n1 is held back to back until 1800)', () => {
    expect(walk(ns, 0, 600).later).toBe(1200) // n0 frees at 1200
    expect(walk(ns, 0, 600, [0, 1, 1, 1]).later).toBe(1800) // only n1 is a candidate: B holds it from 1200
    expect(walk(ns, 0, 100).later).toBe(0)
  })
  it('the rounded slot of a job overlaps strictly (slot end > start and slot begin < end)', () => {
    expect(ns.overlaps(nodes(0), 1, 0, 600)).toBe(false)
    expect(ns.overlaps(nodes(0), 1, 0, 601)).toBe(true)
    expect(ns.overlaps(nodes(3), 1, 0, 10_000)).toBe(false)
  })
  it('clips to the map and holds at least one resolution step', () => {
    const m = new NodeSpace(2)
    m.reset(100, 1000)
    m.add(0, 50, 60, nodes(0), 1) // clipped to start 100, at least [100,160)
    expect(m.overlaps(nodes(0), 1, 150, 170)).toBe(true)
    expect(m.overlaps(nodes(0), 1, 160, 170)).toBe(false)
    m.add(900, 5000, 60, nodes(1), 1) // end clipped at the map's end: no later_start from it
    const blocked = new Uint8Array(2), list = new Int32Array(2), len = { n: 0 }
    expect(m.block(950, 960, Uint8Array.from([1, 1]), blocked, list, len)).toBe(0)
    expect(Array.from(blocked)).toEqual([0, 1])
    m.reset(0, 1000)
    expect(m.size).toBe(0)
    expect(m.overlaps(nodes(0, 1), 2, 0, 1000)).toBe(false)
  })
})
