// The one place the renderer gets the typed back end API from. main.ts installs the real one
// (Electron preload or browser mode); tests install a fake. Stores and steps call useApi().
import type { EasyTuneApi } from '../../shared/api'
import { controlWords } from './format'

let current: EasyTuneApi | null = null

export function setApi(api: EasyTuneApi): void {
  current = api
}

export function useApi(): EasyTuneApi {
  if (!current) throw new Error('EasyTune: the back end API is not installed (main.ts calls setApi first)')
  return current
}

/** The message of anything thrown, for people (never "[object Object]"), in the GUI's words: a
 * back-end message naming a CLI flag names the wizard's control instead (format.ts controlWords). */
export function errorMessage(e: unknown): string {
  return controlWords(rawMessage(e))
}
function rawMessage(e: unknown): string {
  if (e instanceof Error) return e.message
  if (typeof e === 'string') return e
  try { return JSON.stringify(e) } catch { return String(e) }
}
