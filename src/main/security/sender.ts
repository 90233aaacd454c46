// Rule: an IPC call is answered only when it comes from the main window's top frame while that
// frame shows the app's own page. Calls from another window, a subframe, a frame that navigated
// elsewhere or a destroyed frame are refused with an error (the renderer sees a rejected promise).
import { isAppUrl } from './origin'

/** The parts of an IpcMainInvokeEvent the check needs (fakes in tests). */
export interface SenderEvent {
  sender: unknown
  senderFrame: { url: string } | null
}

/** The parts of the main window the check needs. */
export interface TrustedWindow {
  webContents: { mainFrame: unknown; isDestroyed?(): boolean }
}

/** Why the sender is refused, or null when it is trusted. */
export function senderProblem(event: SenderEvent, trusted: TrustedWindow | null): string | null {
  if (!trusted || trusted.webContents.isDestroyed?.()) return 'no main window'
  if (event.sender !== trusted.webContents) return 'not the main window'
  const frame = event.senderFrame
  if (!frame) return 'the calling frame is gone'
  if (frame !== trusted.webContents.mainFrame) return 'not the top frame of the main window'
  if (!isAppUrl(frame.url)) return `a page outside the app (${safeOrigin(frame.url)})`
  return null
}

export function assertTrustedSender(channel: string, event: SenderEvent, trusted: TrustedWindow | null): void {
  const problem = senderProblem(event, trusted)
  if (problem) throw new Error(`EasyTune refused ${channel}: it did not come from the app's window (${problem}).`)
}

function safeOrigin(url: string): string {
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.host}`
  } catch {
    return 'unknown'
  }
}
