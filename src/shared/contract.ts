// The API contract: every operation between the renderer and the back end, declared ONCE here —
// its name, its arguments (a zod tuple: the one validator, which also gives the types), its
// result type and its KIND. The transports are derived from this table generically and switch
// on the kind, never on an operation's name:
//   Electron main   src/main/ipc.ts          one ipcMain.handle per operation, sender check, parse
//   preload         src/preload/index.ts     window.easytune: one typed method per operation
//   browser mode    src/server/api.ts        POST /api/<operation>
//   browser client  src/renderer/src/api/browser.ts
// and the implementation is the Backend's method of the same name (src/backend/backend.ts; the
// desktop app replaces a few with main's own services, src/main/services.ts).
//
// Kinds:
//   'call'     plain request / answer: the arguments go as they are (IPC arguments, or a JSON
//              array in the HTTP body) and the implementation's value comes back.
//   'file-in'  the renderer hands a File (the page's own object): the desktop preload sends its
//              path (webUtils: the page never sees it) as { path }, browser mode uploads the bytes
//              (POST /api/<operation>?name=…, streamed to a temporary file with a size limit). The
//              implementation receives a ReceivedFile either way. `optional`: with no File, the
//              desktop app asks main (open dialog) and the browser page shows its file picker.
//   'save'     the renderer asks to save something: the implementation answers the file to save
//              (SaveFile: name, type, content) and the transport hands it to the person — a save
//              dialog and a write in the desktop app, a one-time download in browser mode. The
//              page gets true, or false when the person cancelled. An implementation may also do
//              the saving itself and answer the boolean (the desktop project file remembers where
//              it lives). `saveText` means exactly that everywhere: save this text as a file.
// Streams: three event streams (campaign, import, analysis), each with its own event type; the
// renderer's API has one subscription method per stream (onCampaignEvent, onImportEvent,
// onAnalysisEvent), and a 'call' that starts something declares the stream it reports on
// (`events`). Desktop: one MessagePort per window carries { stream, event }; browser mode: one
// WebSocket carries the same messages.
//
// Adding an operation = its declaration below + the Backend method of the same name + its
// callers. Nothing else names it.
import { z } from 'zod'
import type { ImportReport } from '../core/workload/import'
import type { ExportBundle } from '../core/export/types'
import type { AnalysisEvent, AppInfo, CampaignEstimate, CampaignEvent, ImportEvent, ProjectState, SlurmArrayWritten, SplitPreview, TimeLimitsView, WorkloadSummary } from './api'
import { ApiInputError } from './errors'
import {
  AnalysisRequestSchema, CampaignRequestSchema, EvaluationResultSchema, ExportOptionsSchema, FileNameSchema, IdSchema, ImportOptionsSchema,
  ImportTrackingSchema, LogSourceSchema, MAX_TEXT_CHARS, MimeSchema, parseOrThrow, PathSchema, PredictedExportOptionsSchema, ProjectStateSchema, SaveProjectOptionsSchema,
  SettingsPatchSchema, SlurmArrayOptionsSchema, SplitSchema,
} from './schemas'
import type { Settings } from './settings'

export type OperationKind = 'call' | 'file-in' | 'save'

/** A result's type (results come from our own back end: typed, not re-validated). */
const returns = <T>() => z.custom<T>(() => true)

interface CallDecl<A extends z.ZodTuple = z.ZodTuple, R extends z.ZodType = z.ZodType> {
  kind: 'call'; args: A; names: readonly string[]; result: R
  /** The stream on which what this call starts reports (its events name the id it answers, or
   * the id it was given). The browser client has that stream's socket open before it calls. */
  events?: StreamName
}
interface SaveDecl<A extends z.ZodTuple = z.ZodTuple> { kind: 'save'; args: A; names: readonly string[] }
interface FileInDecl<R extends z.ZodType = z.ZodType, O extends boolean = boolean> {
  kind: 'file-in'; args: z.ZodTuple; names: readonly string[]; result: R
  /** May be called without a File (desktop: main's open dialog; browser: the page's picker). */
  optional: O
  /** The browser file picker's `accept`. */
  accept: string
  /** Largest file (bytes) browser mode takes for it, below the server's upload limit. */
  maxBytes?: number
}
export type OperationDecl = CallDecl | SaveDecl | FileInDecl

/** The desktop wire form of a File: its path on disk (read by the preload, never by the page). */
export const DesktopFileSchema = z.strictObject({ path: PathSchema })

type Items = readonly [z.ZodType, ...z.ZodType[]] | []
function call<const I extends Items, R extends z.ZodType>(names: { [K in keyof I]: string }, items: I, result: R, opts: { events?: StreamName } = {}): CallDecl<z.ZodTuple<I, null>, R> {
  return { kind: 'call', args: z.tuple(items as never) as never, names, result, ...opts }
}
function save<const I extends Items>(names: { [K in keyof I]: string }, items: I): SaveDecl<z.ZodTuple<I, null>> {
  return { kind: 'save', args: z.tuple(items as never) as never, names }
}
function fileIn<R extends z.ZodType, const O extends boolean>(opts: { optional: O; accept: string; maxBytes?: number }, result: R): FileInDecl<R, O> {
  const file = opts.optional ? DesktopFileSchema.nullable().optional() : DesktopFileSchema
  return { kind: 'file-in', args: z.tuple([file]), names: ['file'], result, ...opts }
}

export const CONTRACT = {
  getAppInfo: call([], [], returns<AppInfo>()),
  /** A log file the user dropped on the window or picked: the renderer gets an opaque handle back
   * (for importLog's { kind: 'handle' }), never a path. */
  addLogFile: fileIn({ optional: false, accept: '' }, returns<{ handle: string; name: string }>()),
  /** With `tracking`, the import reports on the import stream under `tracking.importId`, and
   * `cancel(importId)` stops it: importLog then rejects with "the import was cancelled". */
  importLog: call(['source', 'options', 'tracking'], [LogSourceSchema, ImportOptionsSchema.optional(), ImportTrackingSchema.optional()], returns<WorkloadSummary>(), { events: 'import' }),
  getImportReport: call(['workloadId'], [IdSchema], returns<ImportReport>()),
  previewSplit: call(['workloadId', 'split'], [IdSchema, SplitSchema], returns<SplitPreview>()),
  estimateCampaign: call(['request'], [CampaignRequestSchema], returns<CampaignEstimate>()),
  /** Its events come on the campaign stream under the returned id. */
  startCampaign: call(['request'], [CampaignRequestSchema], returns<{ campaignId: string }>(), { events: 'campaign' }),
  /** An online-selection emulation, a mixed-policy search, the Time limits what-if, the
   * predicted-order export's fidelity or the Candidates step's learning of a policy (kind 'learn',
   * the trials and regression of `easytune learn`) on the engine workers; its events come on the analysis stream under the returned id, and cancel(id) stops it. */
  startAnalysis: call(['request'], [AnalysisRequestSchema], returns<{ analysisId: string }>(), { events: 'analysis' }),
  /** The Time limits step's tables: requested against actual time per user, account and partition
   * (pseudonymised, with the real names for local display only). Its what-if is startAnalysis
   * with kind 'walltimes'. */
  getTimeLimits: call(['workloadId'], [IdSchema], returns<TimeLimitsView>()),
  /** "Run on a Slurm cluster…" (docs/CLI.md §Running on a Slurm cluster): writes the campaign's plan
   * folder (plan, job-array and merge scripts) instead of running it, and answers the commands
   * that submit it. Desktop: main asks for the folder (null when the person cancelled); browser
   * mode: a new folder in the folder the server was started in. */
  writeSlurmArray: call(['request', 'options'], [CampaignRequestSchema, SlurmArrayOptionsSchema], returns<SlurmArrayWritten | null>()),
  /** Cancels a campaign, an analysis or a tracked import (by its importId); unknown ids are ignored. */
  cancel: call(['id'], [IdSchema], returns<void>()),
  /** Deletes the cached campaign cells (only a speed-up: a later run computes them again) and
   * says how many and how much space; refused while a campaign runs. */
  clearCellCache: call([], [], returns<{ cells: number; bytes: number }>()),
  /** The Time limits step's "Deploy on Slurm: order by predicted runtime" (docs/PREDICTIONS.md
   * §Deployment): the files of `easytune export <log> --predicted-order` for the workload, with the
   * fidelity the 'predicted-order' analysis measured (its Θ and history must be the options'). */
  exportPredictedOrder: call(['workloadId', 'options'], [IdSchema, PredictedExportOptionsSchema], returns<ExportBundle>()),
  exportConfig: call(['result', 'target', 'options'], [EvaluationResultSchema, z.enum(['slurm', 'pbs']), ExportOptionsSchema.optional()], returns<ExportBundle>()),
  /** Saves text the user asked for (an exported file, an HTML report, a chart) as a file. */
  saveText: save(['name', 'content', 'mime'], [FileNameSchema, z.string().max(MAX_TEXT_CHARS), MimeSchema]),
  /** The offline HTML report (with the SLURM and PBS exports of the recommendation). */
  generateReport: call(['result'], [EvaluationResultSchema], returns<string>()),
  /** The report of `result` as a PDF file: the desktop app renders the report it generates itself
   * (never HTML from the page) and saves it. Browser mode refuses in plain words (save the HTML
   * report and print it from the browser): the server has no browser engine to print with. */
  saveReportPdf: save(['result'], [EvaluationResultSchema]),
  /** Desktop: saves to the project's file (asks where the first time, or with `saveAs`);
   * browser: a download. */
  saveProject: save(['state', 'options'], [ProjectStateSchema, SaveProjectOptionsSchema.optional()]),
  /** A project file: the File given (a drop, a file input), else the open dialog (desktop) or the
   * page's file picker (browser). null when the person cancelled. */
  openProject: fileIn({ optional: true, accept: '.easytune,.json,application/json', maxBytes: MAX_TEXT_CHARS }, returns<ProjectState>()),
  /** Keeps the state safe against a crash (written atomically, debounced by the caller). */
  autosave: call(['state'], [ProjectStateSchema], returns<void>()),
  /** The state autosaved last, restored when the app starts; null when there is none. A project
   * whose log file moved comes back with `log` set and `logMissing: true`: ask for it again. */
  restoreLastProject: call([], [], returns<{ state: ProjectState; workload: WorkloadSummary | null; logMissing: boolean } | null>()),
  getSettings: call([], [], returns<Settings>()),
  setSettings: call(['settings'], [SettingsPatchSchema], returns<Settings>()),
} satisfies Record<string, OperationDecl>

export type Contract = typeof CONTRACT
export type OperationName = keyof Contract
export const OPERATION_NAMES = Object.keys(CONTRACT) as OperationName[]

/** Looks a name up safely (own keys only: "__proto__" or "toString" are not operations). */
export function isOperation(name: unknown): name is OperationName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(CONTRACT, name)
}

// ---------------------------------------------------------------- streams

export interface StreamEvents { campaign: CampaignEvent; import: ImportEvent; analysis: AnalysisEvent }
export type StreamName = keyof StreamEvents
export const STREAM_NAMES: readonly StreamName[] = ['campaign', 'import', 'analysis']
/** What one message of the desktop events port or the browser WebSocket carries. */
export type StreamMessage = { [S in StreamName]: { stream: S; event: StreamEvents[S] } }[StreamName]
type SubscribeName<S extends StreamName> = `on${Capitalize<S>}Event`
export const subscribeName = <S extends StreamName>(s: S) => `on${s[0]!.toUpperCase()}${s.slice(1)}Event` as SubscribeName<S>
export function isStreamName(s: unknown): s is StreamName {
  return typeof s === 'string' && (STREAM_NAMES as readonly string[]).includes(s)
}

// ---------------------------------------------------------------- derived types

/** What a 'file-in' implementation receives: a path on disk (desktop: where the File is; browser
 * mode: the temporary file the upload went to, `temporary` then, named by the upload's name). */
export interface ReceivedFile { path: string; name?: string; temporary?: boolean }
/** What a 'save' implementation answers: the file to hand to the person. */
export interface SaveFile { name: string; mime: string; content: string | Uint8Array }

type Args<D> = D extends { args: infer A extends z.ZodTuple } ? z.output<A> : never
type Result<D> = D extends { result: infer R extends z.ZodType } ? z.output<R> : never
type Awaitable<T> = T | Promise<T>
export type UploadProgress = (sentBytes: number, totalBytes: number) => void

/** One operation as the renderer calls it. */
export type ClientMethod<D> =
  D extends { kind: 'call' } ? (...args: Args<D>) => Promise<Result<D>>
  : D extends { kind: 'save' } ? (...args: Args<D>) => Promise<boolean>
  : D extends { kind: 'file-in'; optional: true } ? (file?: File | null, onProgress?: UploadProgress, signal?: AbortSignal) => Promise<Result<D> | null>
  : D extends { kind: 'file-in' } ? (file: File, onProgress?: UploadProgress, signal?: AbortSignal) => Promise<Result<D>>
  : never

/** One operation as the back end implements it (after its arguments were parsed). */
export type ImplMethod<D> =
  D extends { kind: 'call' } ? (...args: Args<D>) => Awaitable<Result<D>>
  : D extends { kind: 'save' } ? (...args: Args<D>) => Awaitable<SaveFile | boolean>
  : D extends { kind: 'file-in'; optional: true } ? (file: ReceivedFile | null) => Awaitable<Result<D> | null>
  : D extends { kind: 'file-in' } ? (file: ReceivedFile) => Awaitable<Result<D>>
  : never

/** The API the renderer sees: exactly the contract's operations, plus one subscription per
 * stream (each returns an unsubscribe). Derived, never written by hand. */
export type EasyTuneApi = { [K in OperationName]: ClientMethod<Contract[K]> }
  & { [S in StreamName as SubscribeName<S>]: (listener: (event: StreamEvents[S]) => void) => () => void }

/** What implements the contract (the Backend; the desktop app's main services for a few). */
export type Implementation = { [K in OperationName]: ImplMethod<Contract[K]> }

/** Parses one call's raw arguments (whatever arrived) with the operation's schema: the typed
 * arguments, or ApiInputError in plain words. Missing trailing optional arguments are fine;
 * extra ones are refused. */
export function parseArgs<K extends OperationName>(name: K, raw: unknown): Args<Contract[K]> {
  const d: OperationDecl = CONTRACT[name]
  if (!Array.isArray(raw)) throw new ApiInputError(`${name}: the arguments must be a list`)
  const items = d.args.def.items as z.ZodType[]
  const min = items.filter((s) => !s.safeParse(undefined).success).length
  if (raw.length > items.length || raw.length < min) {
    throw new ApiInputError(`${name} takes ${min === items.length ? items.length : `${min} to ${items.length}`} argument${items.length === 1 ? '' : 's'}, got ${raw.length}`)
  }
  return parseOrThrow(d.args, raw, name, d.names) as Args<Contract[K]>
}
