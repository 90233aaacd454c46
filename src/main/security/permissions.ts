// Rule: web permissions are denied. The app needs no camera, microphone, geolocation,
// notifications, MIDI, HID, serial, USB, fullscreen API... One exception: the app's own page may
// write (sanitized) text to the clipboard, so the wizard's "Copy" buttons work for exported
// configuration lines. Reading the clipboard stays denied.
import type { Session, WebContents } from 'electron'
import { isAppUrl } from './origin'

const ALLOWED_FOR_APP = new Set(['clipboard-sanitized-write'])

/** The one decision both Electron handlers use. */
export function isPermissionAllowed(permission: string, requestingUrl: string): boolean {
  return ALLOWED_FOR_APP.has(permission) && isAppUrl(requestingUrl)
}

const installed = new WeakSet<Session>()

export function installPermissionHandlers(session: Session): void {
  if (installed.has(session)) return
  installed.add(session)
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(isPermissionAllowed(permission, details.requestingUrl ?? ''))
  })
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) => isPermissionAllowed(permission, requestingOrigin))
  // Device pickers (HID, serial, USB, Bluetooth): nothing is ever granted.
  session.setDevicePermissionHandler(() => false)
}

export function apply(contents: WebContents): void {
  installPermissionHandlers(contents.session)
}
