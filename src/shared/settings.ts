// The app's settings, declared once: the schema (zod) is the one validator for every place that
// reads or writes them (electron-store in the desktop app, the settings file of browser mode, the
// API's setSettings), and the TypeScript type and the defaults come from here. electron-store's
// own JSON schema is derived from it (settingsJsonSchema), so the file is guarded by the same rules.
import { z } from 'zod'
import { InputError } from '../core/workload/errors'

export const THEMES = ['system', 'light', 'dark'] as const
/** Most engine workers a person may ask for. */
export const MAX_WORKERS = 64
/** Recent projects remembered (newest first). */
export const MAX_RECENT = 10
export const MAX_PATH_CHARS = 4096

/** An absolute file path (Electron hands these from dialogs; never shown to the web page): `/…`,
 * `C:\…` or `C:/…`, or a `\\server\…` share, without NUL. A regular expression rather than a
 * refinement so that the JSON schema derived for electron-store carries the same rule. */
export const AbsolutePathSchema = z.string().min(1).max(MAX_PATH_CHARS)
  .regex(/^(?:\/|[A-Za-z]:[\\/]|\\\\)[^\0]*$/, 'a recent project must be an absolute path without NUL characters')

export const SettingsSchema = z.strictObject({
  theme: z.enum(THEMES),
  /** Engine workers; null = the default (cores − 1, at least 1). */
  workers: z.number().int().min(1).max(MAX_WORKERS).nullable(),
  /** Project files opened or saved lately, newest first, no duplicates. */
  recentProjects: z.array(AbsolutePathSchema).max(MAX_RECENT)
    .refine((l) => new Set(l).size === l.length, 'the recent projects must not repeat a path'),
})

export type Settings = z.infer<typeof SettingsSchema>

/** What setSettings takes: any subset of the settings, nothing else. */
export const SettingsPatchSchema = SettingsSchema.partial()

export const DEFAULT_SETTINGS: Settings = { theme: 'system', workers: null, recentProjects: [] }

/** A zod error in words: "workers: Too big: expected number to be <=64; theme: …". */
export function settingsProblems(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length > 0 ? i.path.join('.') : 'the settings'}: ${i.message}`).join('; ')
}

/** Checks a partial update as any store receives it; an InputError with the problems in words
 * otherwise (a 400 in browser mode, a rejected promise in the desktop app). */
export function checkSettingsPatch(v: unknown): Partial<Settings> {
  const r = SettingsPatchSchema.safeParse(v)
  if (!r.success) throw new InputError(`invalid settings: ${settingsProblems(r.error)}`)
  // A key given as undefined is a key not given (JSON cannot carry it anyway).
  return Object.fromEntries(Object.entries(r.data).filter(([, x]) => x !== undefined)) as Partial<Settings>
}

/** Checks whole settings as read back from a file; null when they do not match the schema. */
export function readSettings(v: unknown): Settings | null {
  const r = SettingsSchema.safeParse(v)
  return r.success ? r.data : null
}

/**
 * The per-key JSON schemas of `schema` (draft-07, as electron-store's ajv expects), derived from
 * the zod schema plus any extra keys a store keeps beside the settings. A unique-items check on
 * the recent list has no draft-07 spelling through zod; the stores check with zod as well.
 */
export function settingsJsonSchema<T extends z.ZodRawShape>(extra: T): Record<string, unknown> {
  const schema = z.toJSONSchema(SettingsSchema.extend(extra), { target: 'draft-7', unrepresentable: 'any' }) as { properties: Record<string, unknown> }
  return schema.properties
}
