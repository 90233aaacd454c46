// Rule: pages never open windows. window.open and target=_blank links are denied; an https link
// goes to the system browser through the vetted openExternal instead.
import type { WebContents } from 'electron'
import { noExternalLinks, openExternalVetted } from './external'

export function windowOpenHandler(details: { url: string }, openExternal: (url: string) => unknown = openExternalVetted): { action: 'deny' } {
  void openExternal(details.url)
  return { action: 'deny' }
}

export function apply(contents: WebContents): void {
  contents.setWindowOpenHandler((details) => windowOpenHandler(details, noExternalLinks.has(contents) ? () => {} : openExternalVetted))
}
