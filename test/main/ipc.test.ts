// The IPC handlers (src/main/ipc.ts), derived from the contract: every contract operation has its
// channel (found from the contract, not listed here), a call from a foreign sender is refused
// before anything runs, malformed arguments are refused with the schemas' message, and good calls
// reach the implementation (the desktop services over a fake Backend, src/main/services.ts) with
// the parsed arguments; 'save' operations go through the save dialog.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { CONTRACT, OPERATION_NAMES, STREAM_NAMES } from '../../src/shared/contract'
import { FakeContents } from './fake-electron'

vi.mock('electron', async () => (await import('./fake-electron')).electronModule())

const { registerIpc, unregisterIpc, channelOf, describeContract, EVENTS_CHANNEL, OPERATIONS_CHANNEL } = await import('../../src/main/ipc')
const { desktopImplementation } = await import('../../src/main/services')
const { EventPorts } = await import('../../src/main/events-port')

type Listener = (event: unknown, ...args: unknown[]) => Promise<unknown>
const dir = mkdtempSync(join(tmpdir(), 'easytune-ipc-'))
const logFile = join(dir, 'log.swf')
writeFileSync(logFile, '; a log\n')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function setup() {
  const handlers = new Map<string, Listener>()
  const syncListeners = new Map<string, (event: { returnValue?: unknown }) => void>()
  const ipcMain = {
    handle: vi.fn((ch: string, l: Listener) => { handlers.set(ch, l) }), removeHandler: vi.fn((ch: string) => { handlers.delete(ch) }),
    on: vi.fn((ch: string, l: (event: { returnValue?: unknown }) => void) => { syncListeners.set(ch, l) }), removeAllListeners: vi.fn((ch: string) => { syncListeners.delete(ch) }),
  }
  const mainContents = new FakeContents()
  const win = { webContents: mainContents }
  // A fake Backend: one mock per contract operation (derived), a few with answers.
  const backend: Record<string, ReturnType<typeof vi.fn>> = Object.fromEntries(OPERATION_NAMES.map((n) => [n, vi.fn()]))
  Object.assign(backend, {
    getAppInfo: vi.fn(() => ({ version: '0.1.0', mode: 'desktop', versions: {}, citations: [] })),
    addLogFile: vi.fn(async (f: { path: string }) => ({ handle: 'h1', name: f.path.split('/').pop()! })),
    importLog: vi.fn(async () => ({ id: 'w1' })),
    importFromPath: vi.fn(async () => ({ id: 'w2' })),
    getImportReport: vi.fn(() => ({ rows: 1 })),
    previewSplit: vi.fn(() => ({ at: 5 })),
    startCampaign: vi.fn(() => ({ campaignId: 'c1' })),
    startAnalysis: vi.fn(() => ({ analysisId: 'a1' })),
    generateReport: vi.fn(() => '<html>report</html>'),
    saveText: vi.fn((name: string, content: string, mime: string) => ({ name, content, mime })),
    restoreLastProject: vi.fn(async () => null),
    writeSlurmArrayIn: vi.fn(async (folder: string) => ({ folder, cells: 20, shards: 4 })),
  })
  const dialogs = { openLog: vi.fn(async (): Promise<string | readonly string[] | null> => logFile), saveFile: vi.fn(async (): Promise<string | null> => join(dir, 'out.txt')), chooseFolder: vi.fn(async (): Promise<string | null> => join(dir, 'plan')) }
  const project = { save: vi.fn(async () => true), open: vi.fn(async () => null), autosave: vi.fn(async () => {}) }
  const settings = { get: vi.fn(() => ({ theme: 'system' as const, workers: null, recentProjects: [] })), set: vi.fn((p: object) => ({ theme: 'dark' as const, workers: null, recentProjects: [], ...p })) }
  const ports = new EventPorts(() => ({ port1: { postMessage: vi.fn(), close: vi.fn(), start: vi.fn() }, port2: { postMessage: vi.fn(), close: vi.fn(), start: vi.fn() } }))
  const writeFile = vi.fn(async () => {})
  const renderPdf = vi.fn(async () => new Uint8Array([37, 80, 68, 70]))
  const impl = desktopImplementation(backend as never, { project, settings, dialogs, renderPdf })
  const deps = { impl, dialogs, writeFile, openEventsPort: (s: unknown) => ports.open(s as never), getWindow: () => win }
  const channels = registerIpc(ipcMain as never, deps as never)
  const good = { sender: mainContents, senderFrame: mainContents.mainFrame }
  const invoke = (channel: string, event: unknown, ...args: unknown[]) => handlers.get(channel)!(event, ...args)
  const call = (method: string, event: unknown, ...args: unknown[]) => invoke(channelOf(method), event, ...args)
  const ok = (method: string, ...args: unknown[]) => call(method, good, ...args)
  return { ipcMain, handlers, syncListeners, channels, backend, dialogs, project, settings, writeFile, renderPdf, mainContents, invoke, call, ok, ports, good }
}

let t: ReturnType<typeof setup>
beforeEach(() => { t = setup() })

describe('registration', () => {
  it('registers exactly one channel per contract operation, plus the events channel', () => {
    expect([...t.handlers.keys()].sort()).toEqual([...OPERATION_NAMES.map(channelOf), EVENTS_CHANNEL].sort())
    expect(t.channels).toHaveLength(OPERATION_NAMES.length + 1)
  })
  it('describes the contract to the preload (synchronously): each operation\'s kind and the streams', () => {
    const event: { returnValue?: unknown } = {}
    t.syncListeners.get(OPERATIONS_CHANNEL)!(event)
    expect(event.returnValue).toEqual(describeContract())
    expect(describeContract().operations).toEqual(OPERATION_NAMES.map((n) => [n, CONTRACT[n].kind]))
    expect(describeContract().streams).toEqual([...STREAM_NAMES])
  })
  it('removes every handler on shutdown', () => {
    unregisterIpc(t.ipcMain as never, t.channels)
    expect(t.handlers.size).toBe(0)
    expect(t.syncListeners.size).toBe(0)
  })
})

describe('hostile senders', () => {
  const foreign = () => {
    const other = new FakeContents()
    const main = t.mainContents
    return [
      ['another window', { sender: other, senderFrame: other.mainFrame }],
      ['a subframe of the main window', { sender: main, senderFrame: { url: 'app://easytune/index.html' } }],
      ['a destroyed frame', { sender: main, senderFrame: null }],
    ] as const
  }
  it.each([...OPERATION_NAMES, 'events'])('%s refuses calls that do not come from the main window\'s top frame', async (method) => {
    for (const [what, event] of foreign()) await expect(t.call(method, event), what).rejects.toThrow(/refused easytune:/)
    for (const f of Object.values(t.backend)) expect(f).not.toHaveBeenCalled()
    expect(t.dialogs.openLog).not.toHaveBeenCalled()
  })
  it('refuses the main window once its top frame shows another origin', async () => {
    t.mainContents.mainFrame.url = 'https://evil.example/page'
    await expect(t.call('getSettings', { sender: t.mainContents, senderFrame: t.mainContents.mainFrame })).rejects.toThrow(/outside the app/)
    expect(t.settings.get).not.toHaveBeenCalled()
  })
})

const SLURM_REQUEST = { workloadId: 'w1', split: { kind: 'midpoint' }, resample: { method: 'none', weeks: 1, seed: 1 }, candidates: { preset: 'ch5' }, thresholds: [null], objective: 'avgWait', tau: 10, maxWaitRatio: null, workers: null }

describe('malformed arguments', () => {
  it.each([
    ['writeSlurmArray', [SLURM_REQUEST, { shards: 0, cpusPerTask: 1 }], /shards must be at least 1/],
    ['writeSlurmArray', [SLURM_REQUEST, { shards: 2.5, cpusPerTask: 1 }], /shards/],
    ['writeSlurmArray', [SLURM_REQUEST, { shards: 2, cpusPerTask: 1, folder: '/etc' }], /unknown field "folder"/],
    ['writeSlurmArray', [SLURM_REQUEST], /takes 2 arguments, got 1/],
    ['importLog', [{ kind: 'path', path: '/etc/passwd' }, {}], /source's kind must be sample, dialog, handle or handles/],
    ['importLog', [{ kind: 'sample', path: '/etc/passwd' }, {}], /unknown field "path"/],
    ['importLog', [{ kind: 'handle', handle: '../../etc' }, {}], /not a valid id/],
    ['importLog', [{ kind: 'sample' }, { procs: -1 }], /options' procs must be at least 1/],
    ['previewSplit', ['w1'], /takes 2 arguments, got 1/],
    ['previewSplit', ['w1', { kind: 'fraction', fraction: 2 }], /fraction/],
    ['getImportReport', [{ toString: 1 }], /must be a text/],
    ['cancel', ['x'.repeat(200)], /too long/],
    ['setSettings', [JSON.parse('{"__proto__": {"polluted": true}}')], /forbidden key/],
    ['setSettings', [{ theme: 'hacker' }], /theme must be one of/],
    ['addLogFile', [{ path: 'relative/path.swf' }], /absolute path/],
    ['addLogFile', [{ path: `/tmp/a\u0000b` }], /NUL/],
    ['addLogFile', ['/tmp/a.swf'], /file must be an object/],
    ['saveText', ['../../.bashrc', 'x', 'text/plain'], /plain file name/],
    ['saveText', ['a.txt', 'x', 'text/html<script>'], /not a valid MIME type/],
    ['saveReportPdf', ['<html>evil</html>'], /result must be an object/],
    ['openProject', [{ path: '/a.easytune', text: '{}' }], /unknown field "text"/],
    ['getSettings', [1], /takes 0 arguments/],
    ['events', ['x'], /no arguments/],
    ['autosave', [{ version: 2 }], /version must be 1/],
  ])('%s(%j) is refused', async (method, args, message) => {
    await expect(t.ok(method, ...args)).rejects.toThrow(message)
    for (const f of Object.values(t.backend)) expect(f).not.toHaveBeenCalled()
    expect(t.settings.set).not.toHaveBeenCalled()
    expect(t.project.autosave).not.toHaveBeenCalled()
    expect(t.renderPdf).not.toHaveBeenCalled()
  })
})

describe('good calls reach the implementation', () => {
  it('passes parsed arguments and returns the result', async () => {
    await expect(t.ok('previewSplit', 'w1', { kind: 'midpoint' })).resolves.toEqual({ at: 5 })
    expect(t.backend.previewSplit).toHaveBeenCalledWith('w1', { kind: 'midpoint' })
    await expect(t.ok('importLog', { kind: 'sample' }, {})).resolves.toEqual({ id: 'w1' })
    expect(t.backend.importLog).toHaveBeenCalledWith({ kind: 'sample' }, {}, undefined)
    await expect(t.ok('setSettings', { theme: 'dark' })).resolves.toMatchObject({ theme: 'dark' })
    expect(t.settings.set).toHaveBeenCalledWith({ theme: 'dark' })
    await expect(t.ok('cancel', 'c1')).resolves.toBeUndefined()
    expect(t.backend.cancel).toHaveBeenCalledWith('c1')
    const analysis = { workloadId: 'w1', kind: 'mixed', options: { features: 6, method: 'grid', budget: 50, weeks: 10, objective: 'avgBsld', seed: 3 }, split: { kind: 'midpoint' } }
    await expect(t.ok('startAnalysis', analysis)).resolves.toEqual({ analysisId: 'a1' })
    expect(t.backend.startAnalysis).toHaveBeenCalledWith(analysis)
    await expect(t.ok('startAnalysis', { ...analysis, options: { ...analysis.options, budget: 5000 } })).rejects.toThrow(/budget must be at most 1000/)
    expect(t.backend.startAnalysis).toHaveBeenCalledTimes(1)
    await expect(t.ok('getAppInfo')).resolves.toMatchObject({ mode: 'desktop', citations: expect.arrayContaining([expect.stringMatching(/Tuning EASY-Backfilling Queues/)]) })
  })
  it('writes a Slurm job array\'s plan into the folder main\'s dialog chose; nothing when cancelled', async () => {
    await expect(t.ok('writeSlurmArray', SLURM_REQUEST, { shards: 4, cpusPerTask: 2 })).resolves.toEqual({ folder: join(dir, 'plan'), cells: 20, shards: 4 })
    expect(t.backend.writeSlurmArrayIn).toHaveBeenCalledWith(join(dir, 'plan'), expect.objectContaining({ workloadId: 'w1', thresholds: [null] }), { shards: 4, cpusPerTask: 2 })
    expect(t.backend.writeSlurmArray).not.toHaveBeenCalled()
    t.dialogs.chooseFolder.mockResolvedValueOnce(null)
    await expect(t.ok('writeSlurmArray', SLURM_REQUEST, { shards: 4, cpusPerTask: 2 })).resolves.toBeNull()
    expect(t.backend.writeSlurmArrayIn).toHaveBeenCalledTimes(1)
  })
  it('imports through the open dialog: the path stays in main', async () => {
    await expect(t.ok('importLog', { kind: 'dialog' }, { overrun: 'clamp' })).resolves.toEqual({ id: 'w2' })
    expect(t.backend.importFromPath).toHaveBeenCalledWith(logFile, { overrun: 'clamp' }, undefined)
    t.dialogs.openLog.mockResolvedValueOnce(null)
    await expect(t.ok('importLog', { kind: 'dialog' }, {})).rejects.toThrow(/no file was chosen/)
    // Several files chosen in the dialog: one log, every path handed to the Backend in order.
    t.dialogs.openLog.mockResolvedValueOnce(['/logs/2021-05-30.gz', '/logs/2021-06-15.gz'])
    await t.ok('importLog', { kind: 'dialog' }, {})
    expect(t.backend.importFromPath).toHaveBeenLastCalledWith(['/logs/2021-05-30.gz', '/logs/2021-06-15.gz'], {}, undefined)
  })
  it('passes importLog\'s tracking on (handle, sample and dialog imports), and cancel(importId)', async () => {
    const tracking = { importId: '0b8f9c4e-1d2a-4c3b-9e8f-7a6b5c4d3e2f' }
    await t.ok('importLog', { kind: 'handle', handle: 'h1' }, {}, tracking)
    expect(t.backend.importLog).toHaveBeenCalledWith({ kind: 'handle', handle: 'h1' }, {}, tracking)
    await t.ok('importLog', { kind: 'dialog' }, { procs: 8 }, tracking)
    expect(t.backend.importFromPath).toHaveBeenCalledWith(logFile, { procs: 8 }, tracking)
    await expect(t.ok('importLog', { kind: 'sample' }, {}, { importId: '../../x' })).rejects.toThrow(/tracking's importId is not a valid id/)
    expect(t.backend.importLog).toHaveBeenCalledTimes(1)
    await t.ok('cancel', tracking.importId)
    expect(t.backend.cancel).toHaveBeenCalledWith(tracking.importId)
  })
  it('hands a dropped file\'s path to the Backend (file-in), which answers a handle', async () => {
    await expect(t.ok('addLogFile', { path: logFile })).resolves.toEqual({ handle: 'h1', name: 'log.swf' })
    expect(t.backend.addLogFile).toHaveBeenCalledWith({ path: logFile })
  })
  it('opens a project from a dropped file, or with the dialog when there is none', async () => {
    await t.ok('openProject', { path: '/home/a/p.easytune' })
    expect(t.project.open).toHaveBeenLastCalledWith({ path: '/home/a/p.easytune' })
    await t.ok('openProject')
    expect(t.project.open).toHaveBeenLastCalledWith(null)
    await t.ok('saveProject', { version: 1, log: null, importOptions: {}, split: { kind: 'midpoint' }, campaign: { resample: { method: 'none', weeks: 1, seed: 1 }, candidates: { preset: 'ch5' }, thresholds: [null], objective: 'avgWait', tau: 10, maxWaitRatio: null, workers: null }, result: null, step: 0 })
    expect(t.project.save).toHaveBeenCalledTimes(1)
    expect(t.dialogs.saveFile).not.toHaveBeenCalled() // the project file remembers where it lives
  })
  it('saves text through the save dialog, as it is; false when cancelled', async () => {
    await expect(t.ok('saveText', 'slurm.conf', 'PriorityType=priority/multifactor\n', 'text/plain')).resolves.toBe(true)
    expect(t.dialogs.saveFile).toHaveBeenCalledWith('slurm.conf', 'text/plain')
    expect(t.writeFile).toHaveBeenCalledWith(join(dir, 'out.txt'), 'PriorityType=priority/multifactor\n')
    t.dialogs.saveFile.mockResolvedValueOnce(null)
    await expect(t.ok('saveText', 'a.txt', 'x', 'text/plain')).resolves.toBe(false)
    // saveText means one thing: a text with a PDF type is still saved as that text, never printed.
    await expect(t.ok('saveText', 'report.pdf', '<html>evil</html>', 'application/pdf')).resolves.toBe(true)
    expect(t.writeFile).toHaveBeenLastCalledWith(join(dir, 'out.txt'), '<html>evil</html>')
    expect(t.renderPdf).not.toHaveBeenCalled()
  })
  it('prints to PDF only the report it generates itself from the result (saveReportPdf)', async () => {
    await expect(t.ok('saveReportPdf', validResult())).resolves.toBe(true)
    expect(t.backend.generateReport).toHaveBeenCalledTimes(1)
    expect(t.renderPdf).toHaveBeenCalledWith('<html>report</html>')
    expect(t.dialogs.saveFile).toHaveBeenCalledWith('easytune-report.pdf', 'application/pdf')
    expect(t.writeFile).toHaveBeenCalledWith(join(dir, 'out.txt'), new Uint8Array([37, 80, 68, 70]))
    t.dialogs.saveFile.mockResolvedValueOnce(null)
    await expect(t.ok('saveReportPdf', validResult())).resolves.toBe(false)
  })
  it('hands the calling window a MessagePort for the streams', async () => {
    await t.invoke(EVENTS_CHANNEL, t.good)
    expect(t.mainContents.posted).toHaveLength(1)
    expect(t.mainContents.posted[0]).toMatchObject({ channel: 'easytune:events-port', message: null })
    expect(t.mainContents.posted[0]!.transfer).toHaveLength(1)
    expect(t.ports.openPorts).toBe(1)
  })
})

/** The smallest result the schema accepts. */
function validResult(): unknown {
  const summary = { mean: 1 }
  return {
    schemaVersion: 1, kind: 'easytune-evaluation', generator: 'easytune 0.1.0',
    log: { name: 'x.swf', machineProcs: 100 },
    protocol: { split: { kind: 'midpoint' } },
    candidates: [{ label: 'EASY-FCFS', train: summary, test: summary }],
    recommended: 0, bestOnTest: 0, bestOnTrain: 0, ranking: [0],
    recommendation: { label: 'EASY-FCFS', sentence: 'keep FCFS' }, weekly: [],
  }
}
