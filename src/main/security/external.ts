// Rule: the only way out of the app to the web is the system browser, and only for plain https
// URLs. Anything else (http, file:, javascript:, data:, custom schemes, credentials in the URL,
// malformed strings) is refused and logged, never opened.
import { shell } from 'electron'

/** Web contents that must never open anything outside (the hidden report window). */
export const noExternalLinks = new WeakSet<object>()

export type Vetted = { ok: true; url: string } | { ok: false; reason: string }

const MAX_URL_LENGTH = 2048

export function vetExternalUrl(raw: unknown): Vetted {
  if (typeof raw !== 'string' || raw.length === 0) return { ok: false, reason: 'not a URL' }
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: 'URL too long' }
  // Control characters and spaces can smuggle a second command to some URL handlers.
  if (/[\u0000-\u0020\u007f]/.test(raw)) return { ok: false, reason: 'URL contains spaces or control characters' }
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    return { ok: false, reason: 'not an absolute URL' }
  }
  if (u.protocol !== 'https:') return { ok: false, reason: `only https links open outside the app (got ${u.protocol})` }
  if (u.username !== '' || u.password !== '') return { ok: false, reason: 'URLs with credentials are refused' }
  if (u.hostname === '') return { ok: false, reason: 'URL without a host' }
  return { ok: true, url: u.href }
}

/** Opens a vetted https URL in the system browser; returns whether it did. */
export async function openExternalVetted(raw: unknown, open: (url: string) => Promise<void> = (url) => shell.openExternal(url)): Promise<boolean> {
  const v = vetExternalUrl(raw)
  if (!v.ok) {
    console.warn(`EasyTune: refused to open an external link: ${v.reason}`)
    return false
  }
  await open(v.url)
  return true
}
