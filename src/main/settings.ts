// Settings and the recent-projects list, in electron-store (userData/settings.json).
// - The settings are declared once, in src/shared/settings.ts (zod). Every write is checked with
//   that schema first (the same check as browser mode's settings file, so both stores accept and
//   refuse the same values), and conf's ajv guards the file on every read and write with a JSON
//   schema derived from it.
// - `migrations` are keyed by the settings layout's own version (SETTINGS_VERSION, independent of
//   the app version): conf records the last applied one in the file and runs the newer ones once.
//   Version 0 is the unversioned layout of the first development builds:
//   { theme: 'auto' | 'light' | 'dark', workerCount: number, recent: string[] }.
// - A file that cannot be read or fails the schema is moved aside (settings.json.invalid-<time>)
//   and the app starts on defaults: a broken settings file must never stop the app.
// electron-store also registers a sync IPC channel for renderer-side stores; the app has none, so
// it is removed (the sandboxed page cannot reach ipcRenderer anyway).
import { existsSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import { app, ipcMain } from 'electron'
import Store, { type Options, type Schema } from 'electron-store'
import { z } from 'zod'
import { AbsolutePathSchema, checkSettingsPatch, DEFAULT_SETTINGS, MAX_RECENT, readSettings, SettingsSchema, settingsJsonSchema, type Settings } from '../shared/settings'

export { MAX_RECENT }
export const SETTINGS_VERSION = '1.0.0'

/** What the store holds: the renderer's Settings plus main-only state. */
export interface StoredSettings extends Settings {
  /** False until the first window has been shown (then the wizard opens the sample). */
  firstRunDone: boolean
}

const MAIN_ONLY = { firstRunDone: z.boolean() }

export const DEFAULTS: StoredSettings = { ...DEFAULT_SETTINGS, firstRunDone: false }

/** conf's per-key JSON schema, derived from the shared zod declaration. */
export const SCHEMA = settingsJsonSchema(MAIN_ONLY) as Schema<StoredSettings>

/** A store as the migrations see it (conf's get/set/delete/has). */
interface MigratingStore {
  get(key: string): unknown
  set(key: string, value: unknown): void
  delete(key: string): void
  has(key: string): boolean
}

export const MIGRATIONS: Record<string, (store: MigratingStore) => void> = {
  /** 0 → 1: renamed keys, 'auto' theme is now 'system', worker count 0 meant "default". */
  '1.0.0': (store) => {
    // A fresh install runs this too (conf starts from version 0.0.0), on the defaults only.
    const fromOldFile = store.has('recent') || store.has('workerCount') || store.get('theme') === 'auto'
    if (store.has('recent')) {
      const old = store.get('recent')
      const list = Array.isArray(old) ? old.filter((p): p is string => AbsolutePathSchema.safeParse(p).success) : []
      store.set('recentProjects', [...new Set(list)].slice(0, MAX_RECENT))
      store.delete('recent')
    }
    if (store.has('workerCount')) {
      const n = store.get('workerCount')
      store.set('workers', SettingsSchema.shape.workers.safeParse(n).success ? n : null)
      store.delete('workerCount')
    }
    const theme = store.get('theme')
    if (theme === 'auto' || (theme !== undefined && theme !== 'light' && theme !== 'dark' && theme !== 'system')) store.set('theme', 'system')
    // A file from version 0 comes from a user who has already run the app.
    if (fromOldFile) store.set('firstRunDone', true)
  },
}

export interface SettingsOptions {
  /** Folder of settings.json (default: Electron's userData). */
  cwd?: string
}

export class AppSettings {
  private readonly store: Store<StoredSettings>
  /** Set when the settings file was unusable and has been moved aside. */
  readonly recovered: string | null

  constructor(opts: SettingsOptions = {}) {
    let recovered: string | null = null
    let store: Store<StoredSettings>
    try {
      store = open(opts)
    } catch (e) {
      const file = join(opts.cwd ?? defaultDir(), 'settings.json')
      if (!existsSync(file)) throw e
      recovered = `${file}.invalid-${Date.now()}`
      renameSync(file, recovered)
      console.warn(`EasyTune: the settings file was unusable (${(e as Error).message}); moved to ${recovered}, using defaults.`)
      store = open(opts)
    }
    this.store = store
    this.recovered = recovered
    ipcMain?.removeAllListeners?.('electron-store-get-data')
  }

  get path(): string { return this.store.path }

  get(): Settings {
    return { theme: this.store.get('theme'), workers: this.store.get('workers'), recentProjects: [...this.store.get('recentProjects')] }
  }

  /** Applies a partial update, checked with the shared schema (an InputError in words if it
   * does not match; nothing is written then). */
  set(patch: Partial<Settings>): Settings {
    const next = checkSettingsPatch(patch)
    // conf sets every key of the object and validates the whole store once, before writing.
    if (Object.keys(next).length > 0) this.store.set(next as StoredSettings)
    return this.get()
  }

  /** Puts `path` first in the recent list (most recent first, no duplicates, at most MAX_RECENT).
   * A path the schema refuses (not absolute, too long) is not remembered: saving or opening the
   * project itself has already succeeded and must not fail for the sake of the menu. */
  addRecent(path: string): string[] {
    if (!AbsolutePathSchema.safeParse(path).success) return this.get().recentProjects
    const list = [path, ...this.store.get('recentProjects').filter((p) => p !== path)].slice(0, MAX_RECENT)
    this.store.set('recentProjects', list)
    return list
  }

  removeRecent(path: string): string[] {
    const list = this.store.get('recentProjects').filter((p) => p !== path)
    this.store.set('recentProjects', list)
    return list
  }

  isFirstRun(): boolean {
    return !this.store.get('firstRunDone')
  }

  markFirstRunDone(): void {
    this.store.set('firstRunDone', true)
  }
}

function open(opts: SettingsOptions): Store<StoredSettings> {
  const options = {
    name: 'settings',
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
    schema: SCHEMA,
    defaults: DEFAULTS,
    // electron-store's typings hide projectVersion (it defaults to the app's version), but it
    // honours one that is given: the migrations follow the settings layout, not app releases.
    projectVersion: SETTINGS_VERSION,
    migrations: MIGRATIONS,
  }
  const store = new Store<StoredSettings>(options as unknown as Options<StoredSettings>)
  // ajv has checked the file against the derived JSON schema; the zod schema is the reference
  // (it also refuses a repeated recent path), so a file it refuses counts as unusable too.
  const s = store.store
  if (readSettings({ theme: s.theme, workers: s.workers, recentProjects: s.recentProjects }) === null) {
    throw new Error('the settings do not match the schema')
  }
  return store
}

function defaultDir(): string {
  return app.getPath('userData')
}
