// Settings in electron-store: schema, defaults, the 0 → 1 migration, recent list, and recovery
// from an unusable file; browser mode's settings file (src/backend/settings.ts) with the same
// recovery rule; and both stores accepting and refusing exactly the same values, as the one zod
// declaration (src/shared/settings.ts) says. electron is mocked (its binary is not available here)
// and electron-store is inlined by vitest.config.ts so the mock reaches it (docs/TOOLCHAIN.md §Main-process code in plain Node).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

const removed: string[] = []
vi.mock('electron', () => {
  const e = {
    app: { getPath: () => tmpdir(), getVersion: () => '0.1.0', getName: () => 'EasyTune' },
    ipcMain: { on() {}, removeAllListeners: (ch: string) => { removed.push(ch) } },
    shell: {},
  }
  return { default: e, ...e }
})

const { AppSettings, MAX_RECENT, SETTINGS_VERSION } = await import('../../src/main/settings')
const { SettingsFile } = await import('../../src/backend/settings')
const { MAX_WORKERS } = await import('../../src/shared/settings')

let dir: string
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'easytune-settings-')) })
afterEach(() => { rmSync(dir, { recursive: true, force: true }) })

const file = () => join(dir, 'settings.json')
const onDisk = () => JSON.parse(readFileSync(file(), 'utf8')) as Record<string, unknown>

describe('settings (electron-store)', () => {
  it('starts on the defaults, marks the first run, and records the layout version', () => {
    const s = new AppSettings({ cwd: dir })
    expect(s.get()).toEqual({ theme: 'system', workers: null, recentProjects: [] })
    expect(s.isFirstRun()).toBe(true)
    s.markFirstRunDone()
    expect(new AppSettings({ cwd: dir }).isFirstRun()).toBe(false)
    expect(onDisk()).toMatchObject({ __internal__: { migrations: { version: SETTINGS_VERSION } } })
    // electron-store's renderer channel is removed: the app has no renderer-side store.
    expect(removed).toContain('electron-store-get-data')
  })

  it('validates writes against the schema', () => {
    const s = new AppSettings({ cwd: dir })
    expect(s.set({ theme: 'dark', workers: 3 })).toEqual({ theme: 'dark', workers: 3, recentProjects: [] })
    expect(() => s.set({ theme: 'purple' as never })).toThrow(/invalid settings: theme/)
    expect(() => s.set({ workers: 0 })).toThrow(/invalid settings: workers/)
    expect(() => s.set({ workers: 2.5 })).toThrow(/invalid settings: workers/)
    expect(new AppSettings({ cwd: dir }).get()).toEqual({ theme: 'dark', workers: 3, recentProjects: [] })
  })

  it('keeps the recent list most-recent-first, without duplicates, at most MAX_RECENT long', () => {
    const s = new AppSettings({ cwd: dir })
    for (let i = 0; i < MAX_RECENT + 3; i++) s.addRecent(`/p/${i}.easytune`)
    s.addRecent('/p/5.easytune')
    const list = s.get().recentProjects
    expect(list).toHaveLength(MAX_RECENT)
    expect(list[0]).toBe('/p/5.easytune')
    expect(new Set(list).size).toBe(list.length)
    expect(s.removeRecent('/p/5.easytune')).not.toContain('/p/5.easytune')
    // A path the schema refuses is not remembered, and does not throw (the save itself succeeded).
    expect(s.addRecent('relative.easytune')).toEqual(s.get().recentProjects)
    expect(s.get().recentProjects).not.toContain('relative.easytune')
  })

  it('migrates a version-0 file (no version, old key names) to version 1', () => {
    writeFileSync(file(), JSON.stringify({ theme: 'auto', workerCount: 3, recent: ['/a.easytune', '/a.easytune', 7, '/b.easytune'] }))
    const s = new AppSettings({ cwd: dir })
    expect(s.get()).toEqual({ theme: 'system', workers: 3, recentProjects: ['/a.easytune', '/b.easytune'] })
    expect(s.isFirstRun()).toBe(false)
    const raw = onDisk()
    expect(raw).not.toHaveProperty('recent')
    expect(raw).not.toHaveProperty('workerCount')
    expect(raw).toMatchObject({ __internal__: { migrations: { version: '1.0.0' } } })
    // Runs once: a second start leaves the migrated values alone.
    s.set({ theme: 'light' })
    expect(new AppSettings({ cwd: dir }).get().theme).toBe('light')
  })

  it('maps an invalid version-0 worker count to the default', () => {
    writeFileSync(file(), JSON.stringify({ workerCount: 0 }))
    expect(new AppSettings({ cwd: dir }).get().workers).toBeNull()
  })

  it('moves an unusable file aside and starts on the defaults', () => {
    writeFileSync(file(), JSON.stringify({ theme: 'neon', __internal__: { migrations: { version: '1.0.0' } } }))
    const s = new AppSettings({ cwd: dir })
    expect(s.recovered).toMatch(/settings\.json\.invalid-\d+$/)
    expect(s.get()).toEqual({ theme: 'system', workers: null, recentProjects: [] })
    expect(readdirSync(dir).some((f) => f.startsWith('settings.json.invalid-'))).toBe(true)

    writeFileSync(file(), '{ not json')
    expect(new AppSettings({ cwd: dir }).get().theme).toBe('system')

    // Refused by the JSON schema derived from the declaration (the old desktop limit was 1024)…
    const v1 = { __internal__: { migrations: { version: '1.0.0' } } }
    writeFileSync(file(), JSON.stringify({ ...v1, workers: MAX_WORKERS + 1 }))
    expect(new AppSettings({ cwd: dir }).recovered).not.toBeNull()
    // …and by the zod schema itself (a repeated recent path has no JSON-schema spelling here).
    writeFileSync(file(), JSON.stringify({ ...v1, recentProjects: ['/a.easytune', '/a.easytune'] }))
    const again = new AppSettings({ cwd: dir })
    expect(again.recovered).not.toBeNull()
    expect(again.get().recentProjects).toEqual([])
  })
})

describe('settings file of browser mode', () => {
  it('starts on the defaults and keeps what is set', async () => {
    const f = new SettingsFile(dir)
    expect(await f.get()).toEqual({ theme: 'system', workers: null, recentProjects: [] })
    expect(await f.set({ theme: 'dark', workers: 3 })).toEqual({ theme: 'dark', workers: 3, recentProjects: [] })
    expect(await new SettingsFile(dir).get()).toEqual({ theme: 'dark', workers: 3, recentProjects: [] })
    // A key missing from the file takes its default, as in electron-store.
    writeFileSync(file(), JSON.stringify({ theme: 'light' }))
    expect(await f.get()).toEqual({ theme: 'light', workers: null, recentProjects: [] })
  })

  it('does not lose an update when two come at once', async () => {
    const f = new SettingsFile(dir)
    await Promise.all([f.set({ theme: 'dark' }), f.set({ workers: 5 })])
    expect(await f.get()).toEqual({ theme: 'dark', workers: 5, recentProjects: [] })
  })

  it.each([
    ['not JSON', '{ not json'],
    ['a value the schema refuses', JSON.stringify({ theme: 'neon', workers: null, recentProjects: [] })],
    ['an unknown key', JSON.stringify({ theme: 'dark', colour: 'red' })],
    ['not an object', '[1, 2]'],
  ])('moves a file with %s aside and starts on the defaults', async (_what, text) => {
    writeFileSync(file(), text)
    const f = new SettingsFile(dir)
    expect(await f.get()).toEqual({ theme: 'system', workers: null, recentProjects: [] })
    const aside = readdirSync(dir).filter((n) => n.startsWith('settings.json.invalid-'))
    expect(aside).toHaveLength(1)
    expect(readFileSync(join(dir, aside[0]), 'utf8')).toBe(text)
    // The next write starts from the defaults.
    expect(await f.set({ workers: 2 })).toEqual({ theme: 'system', workers: 2, recentProjects: [] })
  })
})

describe('both stores accept and refuse the same values', () => {
  const recent = (n: number) => Array.from({ length: n }, (_, i) => `/p/${i}.easytune`)
  // [what, patch, accepted?]: the expectations come from the declaration's rules, written by hand.
  const cases: [string, unknown, boolean][] = [
    ['nothing', {}, true],
    ['a theme', { theme: 'dark' }, true],
    ['an unknown theme', { theme: 'purple' }, false],
    ['the old "auto" theme', { theme: 'auto' }, false],
    ['a null theme', { theme: null }, false],
    ['one worker', { workers: 1 }, true],
    ['the most workers', { workers: MAX_WORKERS }, true],
    ['one worker too many', { workers: MAX_WORKERS + 1 }, false],
    ['1024 workers (the old desktop limit)', { workers: 1024 }, false],
    ['0 workers', { workers: 0 }, false],
    ['a fraction of a worker', { workers: 2.5 }, false],
    ['workers as text', { workers: '3' }, false],
    ['the default worker count', { workers: null }, true],
    ['an empty recent list', { recentProjects: [] }, true],
    ['a POSIX path', { recentProjects: ['/home/a/x.easytune'] }, true],
    ['a Windows path', { recentProjects: ['C:\\Users\\a\\x.easytune', 'D:/x.easytune'] }, true],
    ['a UNC path', { recentProjects: ['\\\\server\\share\\x.easytune'] }, true],
    ['a relative path', { recentProjects: ['x.easytune'] }, false],
    ['an empty path', { recentProjects: [''] }, false],
    ['a path with NUL', { recentProjects: ['/a\0b.easytune'] }, false],
    ['a path too long', { recentProjects: ['/' + 'x'.repeat(4096)] }, false],
    ['a repeated path', { recentProjects: ['/a.easytune', '/a.easytune'] }, false],
    ['MAX_RECENT paths', { recentProjects: recent(MAX_RECENT) }, true],
    ['one path too many', { recentProjects: recent(MAX_RECENT + 1) }, false],
    ['a number as a path', { recentProjects: [7] }, false],
    ['an unknown key', { colour: 'red' }, false],
    ['the desktop-only first-run flag', { firstRunDone: true }, false],
    ['a __proto__ key', JSON.parse('{"__proto__": {"theme": "dark"}}'), false],
    ['null', null, false],
    ['a list', [], false],
    ['a word', 'dark', false],
    ['everything at once', { theme: 'light', workers: 4, recentProjects: ['/a.easytune'] }, true],
  ]

  it.each(cases)('%s', async (_what, patch, accepted) => {
    const desktop = new AppSettings({ cwd: join(dir, 'desktop') })
    const browser = new SettingsFile(join(dir, 'browser'))
    const before = desktop.get()
    const onDesktop = (() => { try { return desktop.set(patch as never) } catch (e) { return (e as Error).message } })()
    const inBrowser = await browser.set(patch as never).catch((e: Error) => e.message)
    expect(inBrowser).toEqual(onDesktop)
    if (accepted) {
      expect(onDesktop).toEqual({ ...before, ...(patch as object) })
      expect(await new SettingsFile(join(dir, 'browser')).get()).toEqual(new AppSettings({ cwd: join(dir, 'desktop') }).get())
    } else {
      expect(onDesktop).toMatch(/^invalid settings: /)
      // Nothing was written.
      expect(new AppSettings({ cwd: join(dir, 'desktop') }).get()).toEqual(before)
      expect(await new SettingsFile(join(dir, 'browser')).get()).toEqual(before)
    }
  })
})
