// Every security rule, applied to every web contents the app ever creates (the main window, the
// hidden report window, devtools): app.on('web-contents-created'). Each rule is a small module
// with an `apply(contents)` and pure helpers the unit tests check (test/main/security.test.ts).
// The window itself is created with contextIsolation, sandbox, nodeIntegration off and
// webSecurity on (../window.ts); IPC senders are checked in ./sender.ts.
import type { App, WebContents } from 'electron'
import * as csp from './csp'
import * as navigation from './navigation'
import * as permissions from './permissions'
import * as webview from './webview'
import * as windowOpen from './window-open'

export const RULES: readonly { apply(contents: WebContents): void }[] = [csp, permissions, navigation, windowOpen, webview]

export function applySecurity(contents: WebContents): void {
  for (const rule of RULES) rule.apply(contents)
}

export function installSecurity(app: App): void {
  app.on('web-contents-created', (_event, contents) => applySecurity(contents))
}
