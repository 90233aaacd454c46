// Settings in electron-store: schema, defaults, the 0 → 1 migration, recent list, and recovery
// from an unusable file. electron is mocked (its binary is not available here) and electron-store
// is inlined by vitest.config.ts so the mock reaches it (docs/TOOLCHAIN.md §Main-process code in plain Node).
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
    expect(() => s.set({ theme: 'purple' as never })).toThrow(/schema/)
    expect(() => s.set({ workers: 0 })).toThrow(/schema/)
    expect(() => s.set({ workers: 2.5 })).toThrow(/schema/)
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
  })
})
