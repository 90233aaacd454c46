// The IPC handlers (src/main/ipc.ts): every API method is registered, a call from a foreign
// sender is refused before anything runs, malformed arguments are refused with the validator's
// message, and good calls reach the (fake) Backend with the validated arguments.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeContents } from './fake-electron'

vi.mock('electron', async () => (await import('./fake-electron')).electronModule())

const { registerIpc, channelOf } = await import('../../src/main/ipc')
const { ReportRegistry } = await import('../../src/main/pdf')
const { EventPorts } = await import('../../src/main/events-port')

const { API_METHODS } = await import('./api-methods')

type Listener = (event: unknown, ...args: unknown[]) => Promise<unknown>
const dir = mkdtempSync(join(tmpdir(), 'easytune-ipc-'))
const logFile = join(dir, 'log.swf')
writeFileSync(logFile, '; a log\n')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function setup() {
  const handlers = new Map<string, Listener>()
  const ipcMain = { handle: vi.fn((ch: string, l: Listener) => { handlers.set(ch, l) }), removeHandler: vi.fn() }
  const mainContents = new FakeContents()
  const win = { webContents: mainContents }
  const backend = {
    addFile: vi.fn((path: string) => ({ handle: 'h1', name: path.split('/').pop()! })),
    importLog: vi.fn(async () => ({ id: 'w1' })),
    importFromPath: vi.fn(async () => ({ id: 'w2' })),
    getImportReport: vi.fn(() => ({ rows: 1 })),
    previewSplit: vi.fn(() => ({ at: 5 })),
    estimateCampaign: vi.fn(),
    startCampaign: vi.fn(() => ({ campaignId: 'c1' })),
    startAnalysis: vi.fn(() => ({ campaignId: 'a1' })),
    cancel: vi.fn(),
    exportConfig: vi.fn(),
    generateReport: vi.fn(() => '<html>report</html>'),
    restoreLastProject: vi.fn(async () => null),
  }
  const dialogs = { openLog: vi.fn(async (): Promise<string | null> => logFile), saveFile: vi.fn(async (): Promise<string | null> => join(dir, 'out.txt')) }
  const project = { save: vi.fn(async () => true), open: vi.fn(async () => null), autosave: vi.fn(async () => {}) }
  const settings = { get: vi.fn(() => ({ theme: 'system' as const, workers: null, recentProjects: [] })), set: vi.fn((p: object) => ({ theme: 'dark', workers: null, recentProjects: [], ...p })) }
  const ports = new EventPorts(() => ({ port1: { postMessage: vi.fn(), close: vi.fn(), start: vi.fn() }, port2: { postMessage: vi.fn(), close: vi.fn(), start: vi.fn() } }))
  const writeFile = vi.fn(async () => {})
  const renderPdf = vi.fn(async () => new Uint8Array([37, 80, 68, 70]))
  const deps = {
    backend, project, settings, dialogs, reports: new ReportRegistry(), renderPdf, writeFile,
    openEventsPort: (s: unknown) => ports.open(s as never),
    appInfo: () => ({ version: '0.1.0', mode: 'desktop' as const, versions: {}, citations: [] }),
    getWindow: () => win,
  }
  const channels = registerIpc(ipcMain as never, deps as never)
  const good = { sender: mainContents, senderFrame: mainContents.mainFrame }
  const call = (method: string, event: unknown, ...args: unknown[]) => handlers.get(channelOf(method))!(event, ...args)
  const ok = (method: string, ...args: unknown[]) => call(method, good, ...args)
  return { handlers, channels, backend, dialogs, project, settings, writeFile, renderPdf, mainContents, call, ok, ports }
}

let t: ReturnType<typeof setup>
beforeEach(() => { t = setup() })

describe('registration', () => {
  it('registers exactly one channel per API method', () => {
    expect([...t.handlers.keys()].sort()).toEqual(API_METHODS.map(channelOf).sort())
    expect(t.channels).toHaveLength(API_METHODS.length)
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
  it.each(API_METHODS)('%s refuses calls that do not come from the main window\'s top frame', async (method) => {
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

describe('malformed arguments', () => {
  it.each([
    ['importLog', [{ kind: 'path', path: '/etc/passwd' }, {}], /unknown field "path"/],
    ['importLog', [{ kind: 'file' }, {}], /log source must be sample, dialog or handle/],
    ['importLog', [{ kind: 'handle', handle: '../../etc' }, {}], /not a valid id/],
    ['importLog', [{ kind: 'sample' }, { procs: -1 }], /machine size/],
    ['previewSplit', ['w1'], /takes 2 arguments, got 1/],
    ['previewSplit', ['w1', { kind: 'fraction', fraction: 2 }], /fraction/],
    ['getImportReport', [{ toString: 1 }], /must be a text/],
    ['cancel', ['x'.repeat(200)], /too long/],
    ['setSettings', [JSON.parse('{"__proto__": {"polluted": true}}')], /forbidden key/],
    ['setSettings', [{ theme: 'hacker' }], /theme must be one of/],
    ['addLogFile', ['relative/path.swf'], /absolute path/],
    ['addLogFile', [`/tmp/a\u0000b`], /NUL/],
    ['saveText', ['../../.bashrc', 'x', 'text/plain'], /plain file name/],
    ['saveText', ['a.txt', 'x', 'text/html<script>'], /not a valid MIME type/],
    ['openProject', [{ path: '/a.easytune', text: '{}' }], /either a path or a text/],
    ['getSettings', [1], /takes 0 arguments/],
    ['onCampaignEvent', ['x'], /no arguments/],
    ['autosave', [{ version: 2 }], /not supported/],
  ])('%s(%j) is refused', async (method, args, message) => {
    await expect(t.ok(method, ...args)).rejects.toThrow(message)
    for (const f of Object.values(t.backend)) expect(f).not.toHaveBeenCalled()
    expect(t.settings.set).not.toHaveBeenCalled()
    expect(t.project.autosave).not.toHaveBeenCalled()
  })
})

describe('good calls reach the back end', () => {
  it('passes validated arguments and returns the result', async () => {
    await expect(t.ok('previewSplit', 'w1', { kind: 'midpoint' })).resolves.toEqual({ at: 5 })
    expect(t.backend.previewSplit).toHaveBeenCalledWith('w1', { kind: 'midpoint' })
    await expect(t.ok('importLog', { kind: 'sample' }, {})).resolves.toEqual({ id: 'w1' })
    expect(t.backend.importLog).toHaveBeenCalledWith({ kind: 'sample' }, {})
    await expect(t.ok('setSettings', { theme: 'dark' })).resolves.toMatchObject({ theme: 'dark' })
    await expect(t.ok('cancel', 'c1')).resolves.toBeUndefined()
    expect(t.backend.cancel).toHaveBeenCalledWith('c1')
    const analysis = { workloadId: 'w1', kind: 'mixed', options: { features: 6, method: 'grid', budget: 50, weeks: 10, objective: 'avgBsld', seed: 3 }, split: { kind: 'midpoint' } }
    await expect(t.ok('startAnalysis', analysis)).resolves.toEqual({ campaignId: 'a1' })
    expect(t.backend.startAnalysis).toHaveBeenCalledWith(analysis)
    await expect(t.ok('startAnalysis', { ...analysis, options: { ...analysis.options, budget: 5000 } })).rejects.toThrow(/between 1 and 1000/)
    expect(t.backend.startAnalysis).toHaveBeenCalledTimes(1)
  })
  it('imports through the open dialog: the path stays in main', async () => {
    await expect(t.ok('importLog', { kind: 'dialog' }, { overrun: 'clamp' })).resolves.toEqual({ id: 'w2' })
    expect(t.backend.importFromPath).toHaveBeenCalledWith(logFile, { overrun: 'clamp' })
    t.dialogs.openLog.mockResolvedValueOnce(null)
    await expect(t.ok('importLog', { kind: 'dialog' }, {})).rejects.toThrow(/no file was chosen/)
  })
  it('passes importLog\'s tracking on (handle, sample and dialog imports), and cancel(importId)', async () => {
    const tracking = { importId: '0b8f9c4e-1d2a-4c3b-9e8f-7a6b5c4d3e2f' }
    await t.ok('importLog', { kind: 'handle', handle: 'h1' }, {}, tracking)
    expect(t.backend.importLog).toHaveBeenCalledWith({ kind: 'handle', handle: 'h1' }, {}, tracking)
    await t.ok('importLog', { kind: 'dialog' }, { procs: 8 }, tracking)
    expect(t.backend.importFromPath).toHaveBeenCalledWith(logFile, { procs: 8 }, tracking)
    await t.ok('importLog', { kind: 'sample' }, {}, null) // absent stays absent
    expect(t.backend.importLog).toHaveBeenLastCalledWith({ kind: 'sample' }, {})
    await expect(t.ok('importLog', { kind: 'sample' }, {}, { importId: '../../x' })).rejects.toThrow(/the import id is not a valid id/)
    expect(t.backend.importLog).toHaveBeenCalledTimes(2)
    await t.ok('cancel', tracking.importId)
    expect(t.backend.cancel).toHaveBeenCalledWith(tracking.importId)
  })
  it('turns a dropped file into a handle after checking it is a readable file', async () => {
    await expect(t.ok('addLogFile', logFile)).resolves.toEqual({ handle: 'h1', name: 'log.swf' })
    await expect(t.ok('addLogFile', dir)).rejects.toThrow(/is a folder/)
    await expect(t.ok('addLogFile', join(dir, 'gone.swf'))).rejects.toThrow(/^gone\.swf no longer exists$/)
  })
  it('saves text through the save dialog; false when cancelled', async () => {
    await expect(t.ok('saveText', 'slurm.conf', 'PriorityType=priority/multifactor\n', 'text/plain')).resolves.toBe(true)
    expect(t.writeFile).toHaveBeenCalledWith(join(dir, 'out.txt'), 'PriorityType=priority/multifactor\n')
    t.dialogs.saveFile.mockResolvedValueOnce(null)
    await expect(t.ok('saveText', 'a.txt', 'x', 'text/plain')).resolves.toBe(false)
  })
  it('prints to PDF only a report it generated', async () => {
    await expect(t.ok('saveText', 'report.pdf', '<html>evil</html>', 'application/pdf')).rejects.toThrow(/only the reports it generated/)
    expect(t.renderPdf).not.toHaveBeenCalled()
    const html = await t.ok('generateReport', validResult())
    await expect(t.ok('saveText', 'report.pdf', html, 'application/pdf')).resolves.toBe(true)
    expect(t.renderPdf).toHaveBeenCalledWith('<html>report</html>')
    expect(t.writeFile).toHaveBeenCalledWith(join(dir, 'out.txt'), new Uint8Array([37, 80, 68, 70]))
  })
  it('hands the calling window a MessagePort for campaign events', async () => {
    await t.ok('onCampaignEvent')
    expect(t.mainContents.posted).toHaveLength(1)
    expect(t.mainContents.posted[0]).toMatchObject({ channel: 'easytune:events-port', message: null })
    expect(t.mainContents.posted[0]!.transfer).toHaveLength(1)
    expect(t.ports.openPorts).toBe(1)
  })
})

/** The smallest result the shared validator accepts. */
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
