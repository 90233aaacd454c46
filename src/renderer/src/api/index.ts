// The renderer's one back end API: Electron's preload (`window.easytune`) when present, else the
// browser-mode client over HTTP + WebSocket (token from the page URL). main.ts installs it with
// setApi(api) (apiRef.ts); stores and steps call useApi().
import type { EasyTuneApi } from '../../../shared/api'
import { createBrowserApi, tokenFromLocation } from './browser'

export { createBrowserApi, tokenFromLocation } from './browser'

export function resolveApi(): EasyTuneApi {
  const preload = typeof window !== 'undefined' ? window.easytune : undefined
  return preload ?? createBrowserApi({ token: tokenFromLocation() })
}

export const api: EasyTuneApi = resolveApi()

/** Browser mode only: `easytune serve --sample` adds `&sample=1`, asking the wizard to open
 * with the bundled sample loaded (importLog({ kind: 'sample' }, {})). */
export function startupFlags(search: string = globalThis.location?.search ?? ''): { sample: boolean } {
  return { sample: new URLSearchParams(search).get('sample') === '1' }
}
