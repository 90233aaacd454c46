// Rule: no <webview> tags. They are disabled by default (webviewTag: false); this also stops an
// attach if anything ever turned them on.
import type { WebContents } from 'electron'

export function preventWebview(event: { preventDefault(): void }): void {
  event.preventDefault()
}

export function apply(contents: WebContents): void {
  contents.on('will-attach-webview', (event) => preventWebview(event))
}
