// Rule: the app's windows never navigate away from the app. Any navigation (link click, form
// post, location change, a file dropped on the window, a redirect, a subframe navigation) to
// another origin is cancelled; an https link the user clicked is offered to the system browser
// through the vetted openExternal instead (./external.ts). Main's own loadURL is not affected.
import type { WebContents } from 'electron'
import { isAppUrl } from './origin'
import { noExternalLinks, openExternalVetted } from './external'

/** Only the app's own pages (app://easytune/...) may be navigated to. */
export function isAllowedNavigation(url: string): boolean {
  return isAppUrl(url)
}

interface NavigationEvent { url: string; isMainFrame?: boolean; preventDefault(): void }

/** The handler shared by will-navigate, will-redirect and will-frame-navigate. */
export function guardNavigation(details: NavigationEvent, openExternal: (url: string) => unknown = openExternalVetted): void {
  if (isAllowedNavigation(details.url)) return
  details.preventDefault()
  // A top-level link to an https page: the user meant to read it, in their browser.
  if (details.isMainFrame !== false) void openExternal(details.url)
}

export function apply(contents: WebContents): void {
  contents.on('will-navigate', (details) => guardNavigation(details, noExternalLinks.has(contents) ? () => {} : openExternalVetted))
  contents.on('will-redirect', (details) => guardNavigation(details, () => {}))
  contents.on('will-frame-navigate', (details) => { if (!details.isMainFrame) guardNavigation(details, () => {}) })
}
