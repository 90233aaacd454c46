// Projects in the desktop app: DesktopProject (src/main/project.ts) over the Backend's atomic
// project files (src/backend/project.ts). Round trips through save and open, the current file and
// the recent list, queued opens from the Recent menu, paths kept out of error messages, and
// atomicity: a save that fails or a process killed in the middle of a save leaves the previous
// file intact and readable.
import { fork } from 'node:child_process'
import { promises as fsp, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'vite'
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ProjectState } from '../../src/shared/api'

vi.mock('electron', async () => (await import('./fake-electron')).electronModule())

const { DesktopProject, QUEUE_MS } = await import('../../src/main/project')
const { readProjectFile, saveProjectFile, writeFileAtomic } = await import('../../src/backend/project')

function sampleState(step = 2): ProjectState {
  return {
    version: 1,
    log: { name: 'KTH-SP2-1996-2.1-cln.swf.gz', sha256: '3e152f201fd2e96808a735bced6ea6eb0bb07fdc447689cafb0750d87b264c0b' },
    importOptions: { overrun: 'drop' },
    split: { kind: 'midpoint' },
    campaign: { resample: { method: 'user-weeks', weeks: 50, seed: 1 }, candidates: { preset: 'ch5' }, thresholds: [null, 72000], objective: 'avgWait', tau: 10, maxWaitRatio: 1.5, workers: null, minGain: 0.05, confidence: 0.95, minWeeks: 8, criterion: 'ratio-of-means' },
    result: null,
    step,
  }
}

let dir: string
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'easytune-project-')) })
afterEach(() => { rmSync(dir, { recursive: true, force: true }) })

function make(saveTarget: string | null = join(dir, 'first.easytune'), openTarget: string | null = null) {
  const recent: string[] = []
  const backend = { saveProjectFile, readProjectFile, autosave: vi.fn(async (_s: ProjectState) => {}) }
  const dialogs = { saveProject: vi.fn(async (_name: string) => saveTarget), openProject: vi.fn(async () => openTarget) }
  const recentList = {
    addRecent: vi.fn((p: string) => { recent.splice(0, recent.length, p, ...recent.filter((x) => x !== p)); return recent }),
    removeRecent: vi.fn((p: string) => { recent.splice(0, recent.length, ...recent.filter((x) => x !== p)); return recent }),
  }
  const onRecentChanged = vi.fn()
  const project = new DesktopProject({ backend, recent: recentList, dialogs, onRecentChanged })
  return { project, backend, dialogs, recent, onRecentChanged }
}

describe('save and open', () => {
  it('round-trips a project through its file', async () => {
    const { project, dialogs, recent, onRecentChanged } = make()
    expect(await project.save(sampleState())).toBe(true)
    expect(dialogs.saveProject).toHaveBeenCalledWith('KTH-SP2-1996-2.1-cln tuning.easytune')
    expect(project.currentPath).toBe(join(dir, 'first.easytune'))
    expect(recent).toEqual([join(dir, 'first.easytune')])
    expect(onRecentChanged).toHaveBeenCalled()
    const other = make(null, join(dir, 'first.easytune'))
    expect(await other.project.open(null)).toEqual(sampleState())
    expect(other.project.currentPath).toBe(join(dir, 'first.easytune'))
    // A dropped file's path opens without a dialog.
    expect(await make().project.open({ path: join(dir, 'first.easytune') })).toEqual(sampleState())
  })

  it('opens a project file that starts with a UTF-8 byte-order mark (as some editors save it)', async () => {
    const path = join(dir, 'bom.easytune')
    writeFileSync(path, '\uFEFF' + JSON.stringify(sampleState(3)), 'utf8')
    expect(readFileSync(path)[0]).toBe(0xef)
    expect(await readProjectFile(path)).toEqual(sampleState(3))
  })

  it('saves again to the same file without asking; Save As asks; a cancelled dialog saves nothing', async () => {
    const { project, dialogs } = make()
    await project.save(sampleState(1))
    await project.save(sampleState(3))
    expect(dialogs.saveProject).toHaveBeenCalledTimes(1)
    expect((await readProjectFile(join(dir, 'first.easytune'))).step).toBe(3)
    dialogs.saveProject.mockResolvedValueOnce(null)
    expect(await project.save(sampleState(4), { saveAs: true })).toBe(false)
    expect((await readProjectFile(join(dir, 'first.easytune'))).step).toBe(3)
    project.reset()
    dialogs.saveProject.mockResolvedValueOnce(join(dir, 'second.easytune'))
    await project.save(sampleState(5))
    expect(project.currentPath).toBe(join(dir, 'second.easytune'))
  })

  it('opens a queued recent project without a dialog, only while the queue is fresh', async () => {
    const path = join(dir, 'r.easytune')
    await saveProjectFile(path, sampleState(7))
    const { project, dialogs } = make(null, null)
    project.queueOpen(path)
    expect((await project.open(null))?.step).toBe(7)
    expect(dialogs.openProject).not.toHaveBeenCalled()
    project.queueOpen(path, Date.now() - QUEUE_MS - 1)
    expect(await project.open(null)).toBeNull()
    expect(dialogs.openProject).toHaveBeenCalledTimes(1)
  })

  it('drops a missing recent project from the list, with an error that names only the file', async () => {
    const gone = join(dir, 'sub', 'gone.easytune')
    const { project, recent } = make()
    recent.push(gone)
    project.queueOpen(gone)
    const err = await project.open(null).catch((e: Error) => e)
    expect(err).toBeInstanceOf(Error)
    expect((err as Error).message).toMatch(/gone\.easytune/)
    expect((err as Error).message).not.toContain(dir)
    expect(recent).toEqual([])
  })

  it('refuses a file that is not a valid project, naming only the file', async () => {
    const bad = join(dir, 'bad.easytune')
    writeFileSync(bad, '{"version": 9}')
    const err = await make().project.open({ path: bad }).catch((e: Error) => e)
    expect((err as Error).message).toMatch(/^bad\.easytune: .*version/)
  })

  it('collapses concurrent autosaves to the latest state', async () => {
    const { project, backend } = make()
    let release!: () => void
    backend.autosave.mockImplementationOnce(() => new Promise<void>((r) => { release = r }))
    const a = project.autosave(sampleState(1))
    const b = project.autosave(sampleState(2))
    const c = project.autosave(sampleState(3))
    release()
    await Promise.all([a, b, c])
    expect(backend.autosave.mock.calls.map(([s]) => s.step)).toEqual([1, 3])
  })
})

describe('atomic saves', () => {
  it('a write that fails before the rename leaves the previous file intact and no temp file', async () => {
    const path = join(dir, 'p.easytune')
    await saveProjectFile(path, sampleState(1))
    const before = readFileSync(path, 'utf8')
    const rename = vi.spyOn(fsp, 'rename').mockRejectedValueOnce(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }))
    await expect(saveProjectFile(path, sampleState(2))).rejects.toThrow(/ENOSPC/)
    rename.mockRestore()
    expect(readFileSync(path, 'utf8')).toBe(before)
    expect((await readProjectFile(path)).step).toBe(1)
    expect(readdirSync(dir)).toEqual(['p.easytune'])
  })

  describe('a process killed in the middle of a save', () => {
    let bundle: string
    let outDir: string
    afterAll(() => { if (outDir) rmSync(outDir, { recursive: true, force: true }) })

    it('leaves the previous file intact and readable', async () => {
      outDir = mkdtempSync(join(tmpdir(), 'easytune-atomic-'))
      await build({
        configFile: false, logLevel: 'warn', ssr: { noExternal: true }, // one self-contained file (it runs from a temp folder, with no node_modules)
        build: { ssr: resolve('src/backend/project.ts'), outDir, emptyOutDir: true, target: 'node20', minify: false, rolldownOptions: { output: { entryFileNames: 'project.js', format: 'es' } } },
      })
      bundle = join(outDir, 'project.js')
      // The child writes the new project through the real writeFileAtomic, but its fsync of the
      // temp file never returns: it says so, and the test kills it there (SIGKILL, no cleanup).
      const child = join(outDir, 'child.mjs')
      writeFileSync(child, `
import { promises as fsp } from 'node:fs'
const { writeFileAtomic } = await import(${JSON.stringify(pathToFileURL(bundle).href)})
const open = fsp.open.bind(fsp)
fsp.open = async (...a) => {
  const fh = await open(...a)
  if (String(a[0]).endsWith('.tmp')) fh.sync = () => { process.send('temp written'); return new Promise(() => {}) }
  return fh
}
process.once('message', ({ path, text }) => { void writeFileAtomic(path, text) })
`)
      const path = join(dir, 'p.easytune')
      await writeFileAtomic(path, JSON.stringify(sampleState(1)))
      const proc = fork(child, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
      const said = new Promise((r) => proc.once('message', r))
      proc.send({ path, text: JSON.stringify(sampleState(2)) + ' '.repeat(1 << 20) })
      expect(await said).toBe('temp written')
      proc.kill('SIGKILL')
      await new Promise((r) => proc.once('exit', r))
      // The half-done save left its temp file behind, but the project file is the old one.
      expect(readdirSync(dir).some((f) => f.endsWith('.tmp'))).toBe(true)
      expect((await readProjectFile(path)).step).toBe(1)
      expect(existsSync(path)).toBe(true)
    })
  })
})
