// The desktop app's preload (src/preload/index.ts) exposes the typed API as `window.easytune`
// through contextBridge; in browser mode it is absent and src/renderer/src/api/browser.ts is used.
import type { EasyTuneApi } from '../../../shared/api'

declare global {
  interface Window {
    easytune?: EasyTuneApi
  }
}

export {}
