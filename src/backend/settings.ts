// Browser mode's settings: a settings.json in the state folder, checked with the same schema as the
// desktop app's electron-store (src/shared/settings.ts), so both accept and refuse the same values.
// The same rule as the desktop store for a broken file: it is moved aside
// (settings.json.invalid-<time>), the defaults are used, and nothing crashes.
import { promises as fsp } from 'node:fs'
import { join } from 'node:path'
import { readRegularFile } from '../node/regular-file'
import { checkSettingsPatch, DEFAULT_SETTINGS, readSettings, type Settings } from '../shared/settings'
import { writeFileAtomic } from './project'

export const SETTINGS_FILE = 'settings.json'

export class SettingsFile {
  readonly path: string
  /** Writes run one after the other, so two quick updates cannot lose one another. */
  private queue: Promise<unknown> = Promise.resolve()

  constructor(stateDir: string) {
    this.path = join(stateDir, SETTINGS_FILE)
  }

  async get(): Promise<Settings> {
    let text: string
    try {
      text = await readRegularFile(this.path)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { ...DEFAULT_SETTINGS }
      console.warn(`EasyTune: could not read ${this.path} (${(e as Error).message}); using the default settings.`)
      return { ...DEFAULT_SETTINGS }
    }
    let raw: unknown
    try { raw = JSON.parse(text) } catch { raw = undefined }
    // A key missing from the file takes its default (as electron-store does); anything else that
    // does not match the schema makes the whole file unusable.
    const settings = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? readSettings({ ...DEFAULT_SETTINGS, ...raw }) : null
    if (settings) return settings
    await this.moveAside()
    return { ...DEFAULT_SETTINGS }
  }

  /** Applies a partial update checked with the shared schema (an InputError in words otherwise;
   * nothing is written then) and answers the settings now in force. */
  set(patch: Partial<Settings>): Promise<Settings> {
    const run = this.queue.then(async () => {
      const next: Settings = { ...(await this.get()), ...checkSettingsPatch(patch) }
      await writeFileAtomic(this.path, JSON.stringify(next, null, 1) + '\n')
      return next
    })
    this.queue = run.catch(() => {})
    return run
  }

  private async moveAside(): Promise<void> {
    const aside = `${this.path}.invalid-${Date.now()}`
    try {
      await fsp.rename(this.path, aside)
      console.warn(`EasyTune: the settings file was unusable; moved to ${aside}, using defaults.`)
    } catch (e) {
      console.warn(`EasyTune: the settings file was unusable and could not be moved aside (${(e as Error).message}); using defaults.`)
    }
  }
}
