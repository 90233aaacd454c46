// The IPC handlers, derived from the API contract (src/shared/contract.ts): one
// `ipcMain.handle('easytune:<operation>')` per operation, registered by one loop that names no
// operation. Every handler first checks the sender (the main window's top frame showing
// app://easytune, security/sender.ts), then parses its arguments with the operation's schemas (a
// malformed call is rejected with their plain-words message), calls the implementation of the
// same name (the Backend, or main's own service for a few: services.ts) and finishes by KIND:
//   'call'     the value is the answer;
//   'file-in'  the argument is { path } of the File the preload read with webUtils, or nothing
//              (the implementation then asks with a dialog);
//   'save'     the implementation answers the file to save (or already saved it: a boolean);
//              main asks where with a save dialog and writes it: true, or false when cancelled.
// One more channel opens the window's events port for the three streams (events-port.ts), and
// 'easytune:operations' (synchronous, answered as the preload loads) describes the contract to
// the preload: [name, kind] pairs and the stream names. That list is public (it is the source)
// and grants nothing: every operation's own channel checks the sender.
// No handler ever returns a path.
import type { IpcMain } from 'electron'
import { CONTRACT, OPERATION_NAMES, parseArgs, STREAM_NAMES, type Implementation, type OperationKind, type SaveFile } from '../shared/contract'
import { ApiInputError } from '../shared/errors'
import type { Dialogs } from './dialogs'
import { assertTrustedSender, type SenderEvent, type TrustedWindow } from './security/sender'

export const CHANNEL_PREFIX = 'easytune:'
export const channelOf = (operation: string) => `${CHANNEL_PREFIX}${operation}`
/** The page asks for its events port here (the preload, on the first subscription to any stream). */
export const EVENTS_CHANNEL = 'easytune:events'
/** The preload's synchronous question: which operations and streams are there? */
export const OPERATIONS_CHANNEL = 'easytune:operations'

export type IpcMainLike = Pick<IpcMain, 'handle' | 'removeHandler' | 'on' | 'removeAllListeners'>

/** What the preload builds window.easytune from: the contract's operations and streams. */
export function describeContract(): { operations: [string, OperationKind][]; streams: string[] } {
  return { operations: OPERATION_NAMES.map((n) => [n, CONTRACT[n].kind]), streams: [...STREAM_NAMES] }
}

export interface IpcDeps {
  /** Every operation's implementation (services.ts: the Backend with main's own services). */
  impl: Implementation
  dialogs: Pick<Dialogs, 'saveFile'>
  writeFile(path: string, data: string | Uint8Array): Promise<void>
  /** Hands the calling window a MessagePort for the three streams (events-port.ts) and one per
   * running engine worker for its per-sample progress (worker-ports.ts). */
  openEventsPort(sender: unknown): void
  /** The main window (null while there is none): the only trusted sender. */
  getWindow(): TrustedWindow | null
}

type Finish = (value: unknown, deps: IpcDeps) => unknown
const FINISH: Record<OperationKind, Finish> = {
  'call': (value) => value,
  'file-in': (value) => value,
  'save': async (value, deps) => {
    if (typeof value === 'boolean') return value
    const file = value as SaveFile
    const path = await deps.dialogs.saveFile(file.name, file.mime)
    if (!path) return false
    await deps.writeFile(path, file.content)
    return true
  },
}

/** Registers every handler; returns the channels (to remove them on shutdown). */
export function registerIpc(ipcMain: IpcMainLike, deps: IpcDeps): string[] {
  const channels: string[] = []
  const add = (channel: string, fn: (event: SenderEvent, raw: unknown[]) => unknown) => {
    ipcMain.handle(channel, async (event, ...raw: unknown[]) => {
      assertTrustedSender(channel, event, deps.getWindow())
      return fn(event, raw)
    })
    channels.push(channel)
  }
  for (const name of OPERATION_NAMES) {
    const { kind } = CONTRACT[name]
    add(channelOf(name), async (_event, raw) => {
      const args: unknown[] = parseArgs(name, raw)
      const fn = deps.impl[name] as (...a: unknown[]) => unknown
      // A 'file-in' implementation always gets its one argument: the file, or null.
      const value = await (kind === 'file-in' ? fn(args[0] ?? null) : fn(...args))
      return FINISH[kind](value, deps)
    })
  }
  add(EVENTS_CHANNEL, (event, raw) => {
    if (raw.length !== 0) throw new ApiInputError(`the events channel takes no arguments, got ${raw.length}`)
    deps.openEventsPort(event.sender)
  })
  ipcMain.on(OPERATIONS_CHANNEL, (event) => { event.returnValue = describeContract() })
  return channels
}

export function unregisterIpc(ipcMain: IpcMainLike, channels: string[]): void {
  for (const c of channels) ipcMain.removeHandler(c)
  ipcMain.removeAllListeners(OPERATIONS_CHANNEL)
}
