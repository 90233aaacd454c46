// The helper every suite uses when it needs a tool or the real logs: a visible skip locally, a
// failure under CI, and never a silent pass.
import { afterEach, describe, expect, it, vi, type TestContext } from 'vitest'
import { requireTool, skipOrFail, skipSuite } from '../support/tools'

const before = process.env.EASYTUNE_CI
afterEach(() => {
  if (before === undefined) delete process.env.EASYTUNE_CI
  else process.env.EASYTUNE_CI = before
  vi.restoreAllMocks()
})

/** A stand-in test context whose skip() records its note and throws, as vitest's does. */
function fakeContext() {
  const notes: string[] = []
  const ctx = { task: { name: 'a test' }, skip: (note: string) => { notes.push(note); throw new Error('skipped') } }
  return { ctx: ctx as unknown as TestContext, notes }
}

describe('skipOrFail / requireTool / skipSuite', () => {
  it('returns the first tool found and does nothing else', () => {
    const { ctx, notes } = fakeContext()
    expect(requireTool(ctx, ['no-such-tool-easytune', 'sh'], 'apt-get install dash')).toBe('sh')
    expect(notes).toEqual([])
  })

  it('skips with the reason printed when a tool is missing locally', () => {
    delete process.env.EASYTUNE_CI
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { ctx, notes } = fakeContext()
    expect(() => requireTool(ctx, ['no-such-tool-easytune'], 'apt-get install nothing')).toThrow('skipped')
    expect(notes).toEqual(['no-such-tool-easytune not found on PATH (apt-get install nothing)'])
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('SKIPPED "a test": no-such-tool-easytune not found'))
  })

  it('fails instead under CI (EASYTUNE_CI=1)', () => {
    process.env.EASYTUNE_CI = '1'
    const { ctx, notes } = fakeContext()
    expect(() => skipOrFail(ctx, 'the real logs are missing')).toThrow(/the real logs are missing — EASYTUNE_CI=1/)
    expect(notes).toEqual([])
    expect(skipSuite('a suite', 'no Chromium')).toBe(false)
    expect(skipSuite('a suite', 'no Electron', false)).toBe(true)
  })

  it('skips a whole suite locally when something is missing, never when nothing is', () => {
    delete process.env.EASYTUNE_CI
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    expect(skipSuite('a suite', 'no Chromium')).toBe(true)
    expect(skipSuite('a suite', null)).toBe(false)
  })
})
