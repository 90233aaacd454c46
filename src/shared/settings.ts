// The app's settings, declared once: the schema (zod) is the one validator for every place that
// reads or writes them (electron-store in the desktop app, the settings file of browser mode, the
// API's setSettings), and the TypeScript type and the defaults come from here.
import { z } from 'zod'

export const THEMES = ['system', 'light', 'dark'] as const
/** Most engine workers a person may ask for. */
export const MAX_WORKERS = 64
/** Recent projects remembered (newest first). */
export const MAX_RECENT = 10
const MAX_PATH_CHARS = 4096

/** An absolute file path (Electron hands these from dialogs; never shown to the web page). */
const absolutePath = z.string().min(1).max(MAX_PATH_CHARS)
  .refine((s) => !s.includes('\0'), 'a path must not contain a NUL character')
  .refine((s) => s.startsWith('/') || /^[A-Za-z]:[\\/]/.test(s) || s.startsWith('\\\\'), 'a path must be absolute')

export const SettingsSchema = z.strictObject({
  theme: z.enum(THEMES),
  /** Engine workers; null = the default (cores − 1, at least 1). */
  workers: z.number().int().min(1).max(MAX_WORKERS).nullable(),
  /** Project files opened or saved lately, newest first. */
  recentProjects: z.array(absolutePath).max(MAX_RECENT),
})

export type Settings = z.infer<typeof SettingsSchema>

export const DEFAULT_SETTINGS: Settings = { theme: 'system', workers: null, recentProjects: [] }
