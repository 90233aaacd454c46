// How a worker reports a cell's progress (src/engine/progress.ts), in process with a fake clock:
// the parent's stream without a progress port, the port's stream and the parent's quarters with
// one, a port that fails, and a port replaced after a reload.
import { describe, expect, it, vi } from 'vitest'
import { ProgressReporter } from '../../src/engine/progress'
import type { WorkerProgressMessage } from '../../src/engine/protocol'

function reporter() {
  const parent: { samplesDone: number }[] = []
  let now = 0
  const r = new ProgressReporter((m) => parent.push({ samplesDone: m.samplesDone }), 777, () => now)
  const run = (samples: number, msPerSample = 1, toWindow = true) => {
    const cb = r.forCell(9, 'EASY-SPF Θ=20 h (train)', samples, toWindow)
    for (let k = 0; k < samples; k++) { now += msPerSample; cb(k) }
  }
  return { r, parent, run }
}

const port = () => {
  const got: WorkerProgressMessage[] = []
  return { got, postMessage: vi.fn((m: WorkerProgressMessage) => { got.push(m) }), close: vi.fn() }
}

describe('ProgressReporter', () => {
  it('without a port, sends the parent every 25 samples or every 500 ms, never the last sample', () => {
    const { parent, run } = reporter()
    run(100)
    expect(parent.map((m) => m.samplesDone)).toEqual([25, 50, 75])
    const slow = reporter()
    slow.run(4, 300)
    expect(slow.parent.map((m) => m.samplesDone)).toEqual([2])
  })

  it('with a port, posts that stream (and the first sample) on the port and only quarters to the parent', () => {
    const { r, parent, run } = reporter()
    const p = port()
    r.usePort(p, 2)
    run(100)
    expect(p.got.map((m) => m.samplesDone)).toEqual([1, 25, 50, 75])
    expect(p.got[0]).toEqual({ kind: 'worker-progress', worker: 2, pid: 777, cell: 'EASY-SPF Θ=20 h (train)', samplesDone: 1, samples: 100 })
    expect(parent.map((m) => m.samplesDone)).toEqual([25, 50, 75])
    parent.length = 0
    run(1000)
    expect(parent.map((m) => m.samplesDone)).toEqual([250, 500, 750])
    expect(p.got.length).toBe(4 + 1 + 39)
  })

  it('a cell of no campaign (a mixed search\'s report) stays off the port: the parent gets the full stream', () => {
    const { r, parent, run } = reporter()
    const p = port()
    r.usePort(p, 2)
    run(100, 1, false)
    expect(p.got).toEqual([])
    expect(parent.map((m) => m.samplesDone)).toEqual([25, 50, 75])
    run(100)
    expect(p.got.length).toBe(4) // the port is still there for campaign cells
  })

  it('a port that throws is dropped: the parent gets the full stream again', () => {
    const { r, parent, run } = reporter()
    const p = port()
    p.postMessage.mockImplementation(() => { throw new Error('closed') })
    r.usePort(p, 1)
    run(100)
    expect(r.hasPort).toBe(false)
    expect(p.close).toHaveBeenCalled()
    expect(parent.map((m) => m.samplesDone)).toEqual([25, 50, 75])
  })

  it('a new port replaces and closes the old one', () => {
    const { r, run } = reporter()
    const a = port(), b = port()
    r.usePort(a, 1)
    r.usePort(b, 1)
    expect(a.close).toHaveBeenCalledTimes(1)
    run(30)
    expect(a.got).toEqual([])
    expect(b.got.map((m) => m.samplesDone)).toEqual([1, 25])
  })
})
