// The three streams' events go to each window over its own MessagePort as { stream, event }
// (src/main/events-port.ts).
import { describe, expect, it, vi } from 'vitest'
import type { StreamMessage } from '../../src/shared/contract'
import { FakeContents } from './fake-electron'

vi.mock('electron', async () => (await import('./fake-electron')).electronModule())
const { EventPorts } = await import('../../src/main/events-port')

const port = () => ({ postMessage: vi.fn(), close: vi.fn(), start: vi.fn() })

describe('EventPorts', () => {
  it('transfers one end to the window and posts events on the other', () => {
    const made: { port1: ReturnType<typeof port>; port2: ReturnType<typeof port> }[] = []
    const ports = new EventPorts(() => { const c = { port1: port(), port2: port() }; made.push(c); return c })
    const w = new FakeContents()
    ports.open(w)
    expect(w.posted).toEqual([{ channel: 'easytune:events-port', message: null, transfer: [made[0]!.port2] }])
    expect(made[0]!.port1.start).toHaveBeenCalled()
    const e: StreamMessage = { stream: 'campaign', event: { campaignId: 'c1', kind: 'warning', message: 'engine worker 1 stopped unexpectedly' } }
    ports.emit(e)
    expect(made[0]!.port1.postMessage).toHaveBeenCalledWith(e)
    expect(made[0]!.port2.postMessage).not.toHaveBeenCalled()
  })

  it('replaces a window\'s port on reload and closes it when the window goes', () => {
    const made: ReturnType<typeof port>[] = []
    const ports = new EventPorts(() => { const c = { port1: port(), port2: port() }; made.push(c.port1); return c })
    const w = new FakeContents()
    ports.open(w)
    ports.open(w)
    expect(made[0]!.close).toHaveBeenCalled()
    expect(ports.openPorts).toBe(1)
    expect(w.listenerCount('destroyed')).toBe(1)
    const other = new FakeContents()
    ports.open(other)
    ports.emit({ stream: 'import', event: { importId: 'i1', kind: 'progress', bytesRead: 1, totalBytes: 2, jobsRead: 0 } })
    expect(made[1]!.postMessage).toHaveBeenCalledTimes(1)
    expect(made[2]!.postMessage).toHaveBeenCalledTimes(1)
    w.emit('destroyed')
    expect(made[1]!.close).toHaveBeenCalled()
    expect(ports.openPorts).toBe(1)
  })

  it('keeps going when one port throws', () => {
    const bad = port()
    bad.postMessage.mockImplementation(() => { throw new Error('closed') })
    const good = port()
    const queue = [bad, good]
    const ports = new EventPorts(() => ({ port1: queue.shift()!, port2: port() }))
    ports.open(new FakeContents())
    ports.open(new FakeContents())
    expect(() => ports.emit({ stream: 'campaign', event: { campaignId: 'c1', kind: 'cancelled' } })).not.toThrow()
    expect(good.postMessage).toHaveBeenCalled()
  })
})
