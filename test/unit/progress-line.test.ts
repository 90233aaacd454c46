// The CLI's progress line (src/cli/output.ts Progress): at most one redraw every PROGRESS_REDRAW_MS
// while its label stays the same, at once when the label changes; nothing off a terminal.
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { Progress, PROGRESS_REDRAW_MS, type Io } from '../../src/cli/output'

beforeEach(() => { vi.useFakeTimers(); vi.setSystemTime(1_000_000) })
afterEach(() => { vi.useRealTimers() })

const io = (tty: boolean) => {
  const writes: string[] = []
  const it: Io = { out: () => {}, err: (s) => { writes.push(s) }, tty }
  return { it, writes }
}

test('updates of the same label closer than the redraw interval are not drawn; a new label is', () => {
  const { it, writes } = io(true)
  const p = new Progress(it, 0)
  p.update('simulating', 0.1, '1/10 cells') // drawn
  vi.setSystemTime(1_000_000 + PROGRESS_REDRAW_MS - 1)
  p.update('simulating', 0.2, '2/10 cells') // 99 ms later: skipped
  p.update('selecting', null) // another label: drawn
  vi.setSystemTime(1_000_000 + 2 * PROGRESS_REDRAW_MS)
  p.update('selecting', null, 'again') // 101 ms after the last draw: drawn
  expect(writes).toHaveLength(3)
  expect(writes[0]).toContain('1/10 cells')
  expect(writes[1]).toContain('selecting')
  expect(writes[2]).toContain('again')
})

test('off a terminal nothing is drawn', () => {
  const { it, writes } = io(false)
  new Progress(it, 0).update('simulating', 0.5)
  expect(writes).toEqual([])
})
