// The app's own origin. The renderer is served from a privileged custom scheme, app://easytune/,
// instead of file:// (see ../app-protocol.ts for why): every page of ours has this one origin, so
// "is this our page?" is a plain origin comparison, both for navigation and for IPC senders.
export const APP_SCHEME = 'app'
export const APP_HOST = 'easytune'
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`
/** The wizard's entry page. */
export const APP_ENTRY = `${APP_ORIGIN}/index.html`

/** The URL's origin (scheme://host[:port]) or null when the string is not an absolute URL. */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url)
    // WHATWG URL gives 'null' as the origin of non-special schemes (app:, file:): build it.
    return `${u.protocol}//${u.host}`
  } catch {
    return null
  }
}

/** True when `url` is a page or resource of the app itself (app://easytune/...). */
export function isAppUrl(url: string): boolean {
  return originOf(url) === APP_ORIGIN
}
