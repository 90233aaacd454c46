// The transport-neutral back end (src/backend): import with inspection, split preview, estimate,
// campaigns with their events (cells, warnings, done, cancel), project files and autosave.
import { copyFileSync, existsSync, readdirSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Backend } from '../../src/backend/backend'
import { readProjectFile, saveProjectFile } from '../../src/backend/project'
import { forkNode } from '../../src/engine/pool'
import { ApiInputError } from '../../src/shared/errors'
import type { WorkloadSummary } from '../../src/shared/api'
import { alive, buildWorker, KTH, removeWorker } from '../engine/support'
import { collect, projectState, request, tempDir } from './support'
import { switchResult } from '../fixtures/results/results'
import { analyzeWalltimes } from '../../src/core/predict/walltimes'
import { readLog } from '../../src/node/read-log'

const KTH_SHA = '3e152f201fd2e96808a735bced6ea6eb0bb07fdc447689cafb0750d87b264c0b'

describe('Backend', () => {
  let workerPath = ''
  let tmp: ReturnType<typeof tempDir>
  let backend: Backend
  let sample: WorkloadSummary

  beforeAll(async () => {
    workerPath = await buildWorker()
    tmp = tempDir()
    backend = new Backend({ mode: 'browser', stateDir: join(tmp.dir, 'state'), cacheDir: join(tmp.dir, 'cache'), workerPath })
    sample = await backend.importLog({ kind: 'sample' }, {})
  })
  afterAll(async () => {
    await backend?.close()
    removeWorker(workerPath)
    tmp?.remove()
  })

  it('imports the bundled sample with its report and inspection data', () => {
    expect(sample.sha256).toBe(KTH_SHA)
    expect(sample.name).toBe('KTH-SP2-1996-2.1-cln.swf.gz')
    expect(sample.id).toMatch(/^[A-Za-z0-9_-]{1,64}$/)
    const n = sample.report.jobsKept
    expect(n).toBeGreaterThan(20000)
    const i = sample.inspect
    expect(i.weeks.start.length).toBeGreaterThan(40)
    expect(i.weeks.submittedLoad).toHaveLength(i.weeks.start.length)
    expect(i.weeks.utilization).toHaveLength(i.weeks.start.length)
    for (const u of i.weeks.utilization) expect(u).toBeGreaterThanOrEqual(0)
    for (const u of i.weeks.utilization) expect(u).toBeLessThanOrEqual(1 + 1e-9)
    expect(i.procsHistogram.counts.reduce((a, b) => a + b, 0)).toBe(n)
    expect(i.procsHistogram.edges[0]).toBe(1)
    expect(i.requestedHistogram.counts.reduce((a, b) => a + b, 0)).toBe(n)
    expect(i.overEstimation.requested.length).toBe(2000)
    expect(i.overEstimation.medianRatio).toBeGreaterThan(1)
    expect(i.topUsers).toHaveLength(10)
    expect(i.topUsers[0].procSeconds).toBeGreaterThanOrEqual(i.topUsers[9].procSeconds)
    expect(i.recordedWaits).not.toBeNull()
    expect(i.recordedWaits!.counts.reduce((a, b) => a + b, 0)).toBe(sample.report.recordedWaits)
    expect(JSON.parse(JSON.stringify(sample))).toEqual(sample) // plain data, JSON safe
    expect(backend.getImportReport(sample.id)).toEqual(sample.report)
  })

  it('previews a split and estimates a campaign', () => {
    const p = backend.previewSplit(sample.id, { kind: 'midpoint' })
    expect(p.train.jobs + p.test.jobs).toBe(sample.report.jobsKept)
    expect(p.atIso).toMatch(/^199[67]-/)
    expect(p.train.originalWeeks).toBeGreaterThan(20)
    const e = backend.estimateCampaign(request(sample.id, { candidates: { preset: 'ch6' }, thresholds: [null, 72000], resample: { method: 'user-weeks', weeks: 250, seed: 1 }, workers: 2 }))
    // resampled and real weeks × 2 parts × (baseline + 11 candidates × 2 thresholds)
    expect(e.cells).toBe(2 * 2 * (1 + 11 * 2))
    // The real-week cells simulate each part's real weeks once: its full weeks, and a trailing
    // partial week when the part has one (docs/PROTOCOL.md §Week resampling).
    const realSims = e.weekSimulations - (e.cells / 2) * 250
    expect(realSims % (1 + 11 * 2)).toBe(0)
    const full = p.train.originalWeeks + p.test.originalWeeks
    expect(realSims / (1 + 11 * 2)).toBeGreaterThanOrEqual(full)
    expect(realSims / (1 + 11 * 2)).toBeLessThanOrEqual(full + 2)
    expect(e.workers).toBe(2)
    expect(e.seconds).toBeGreaterThan(0.3)
    expect(e.seconds).toBeLessThan(120)
    expect(() => backend.previewSplit(sample.id, { kind: 'time', at: -1e9 })).toThrow(ApiInputError)
    expect(() => backend.previewSplit('wNOPE', { kind: 'midpoint' })).toThrow(/no longer loaded/)
  })

  it('runs a tiny campaign: progress, one event per cell, then done; a re-run comes from the cache', async () => {
    const { events, finished } = collect(backend)
    const { campaignId } = backend.startCampaign(request(sample.id))
    const last = await finished
    expect(last.kind, JSON.stringify(last)).toBe('done')
    expect(events.every((e) => e.campaignId === campaignId)).toBe(true)
    const cells = events.filter((e) => e.kind === 'cell')
    expect(cells).toHaveLength(6) // 2 parts × (baseline + 2 candidates); the real-week cells send none
    expect(cells.map((c) => c.kind === 'cell' && c.label)).toContain('EASY-SPF Θ=none')
    const progress = events.filter((e) => e.kind === 'progress')
    expect(progress.length).toBeGreaterThan(0)
    const final = progress[progress.length - 1]
    expect(final.kind === 'progress' && final.cellsDone === final.cellsTotal).toBe(true)
    if (last.kind === 'done') expect(last.result.candidates.length).toBe(3)
    // After the cells, while the whole-log runs finish: the campaign's last counts with the stage
    // waited for (the impact only with a recommendation; the fidelity only if not done by then).
    const waits = progress.filter((e) => e.kind === 'progress' && e.phase !== undefined && e.phase !== 'search')
    const recommended = last.kind === 'done' && last.result.recommended !== null
    expect(waits.filter((e) => e.kind === 'progress' && e.phase === 'impact')).toHaveLength(recommended ? 1 : 0)
    for (const e of waits) expect(e.kind === 'progress' && e.cellsDone === e.cellsTotal && events.indexOf(e) > events.findLastIndex((x) => x.kind === 'cell')).toBe(true)
    const again = collect(backend)
    backend.startCampaign(request(sample.id))
    const last2 = await again.finished
    expect(last2.kind).toBe('done')
    const p2 = again.events.filter((e) => e.kind === 'progress').pop()
    expect(p2?.kind === 'progress' && p2.cachedCells).toBe(12) // the real-week cells too
    expect(again.events.filter((e) => e.kind === 'cell')).toHaveLength(6)
    const byLabel = (es: typeof events) => Object.fromEntries(es.filter((e) => e.kind === 'cell').map((e) => e.kind === 'cell' ? [`${e.label} ${e.part}`, e.meanObjective] : []))
    expect(byLabel(again.events)).toEqual(byLabel(events)) // cached cells are reported too, with the same values
  })

  it('cancels a campaign: a cancelled event, and no worker is left', async () => {
    const pids = new Set<number>()
    let cancelled = false
    const { finished } = collect(backend, (e) => {
      if (e.kind !== 'progress') return
      for (const w of e.perWorker) if (w.pid) pids.add(w.pid)
      if (!cancelled && e.perWorker.some((w) => w.state === 'busy')) { cancelled = true; backend.cancel(e.campaignId) }
    })
    backend.startCampaign(request(sample.id, { candidates: { preset: 'ch6' }, thresholds: [null, 72000, 144000], resample: { method: 'user-weeks', weeks: 60, seed: 7 }, workers: 2 }))
    expect(() => backend.startCampaign(request(sample.id))).toThrow(/already running/)
    const last = await finished
    expect(last.kind).toBe('cancelled')
    expect(pids.size).toBeGreaterThan(0)
    for (const pid of pids) expect(alive(pid)).toBe(false)
  })

  it('reports a worker crash as a warning and still finishes', async () => {
    const crashy = new Backend({
      mode: 'desktop', stateDir: join(tmp.dir, 'state2'), cacheDir: null, workerPath,
      fork: (p) => forkNode(p, { env: { ...process.env, EASYTUNE_TEST_CRASH_AFTER: '1' } }),
    })
    try {
      const w = await crashy.importLog({ kind: 'sample' }, {})
      const { events, finished } = collect(crashy)
      crashy.startCampaign(request(w.id, { workers: 1 }))
      expect((await finished).kind).toBe('done')
      const warnings = events.filter((e) => e.kind === 'warning')
      expect(warnings.length).toBeGreaterThan(0)
      expect(warnings[0].kind === 'warning' && warnings[0].message).toMatch(/stopped unexpectedly/)
    } finally {
      await crashy.close()
    }
  })

  it('reports a campaign that cannot run as an error event or a plain refusal', async () => {
    expect(() => backend.startCampaign(request(sample.id, { split: { kind: 'fraction', fraction: 0.001 } }))).toThrow(/train: 0 full weeks\); the protocol needs at least 2 full weeks in each part/)
  })

  it('saves and reads project files atomically, and refuses broken ones', async () => {
    const dir = join(tmp.dir, 'projects')
    const path = join(dir, 'p.easytune.json')
    const state = projectState({ log: { name: sample.name, sha256: sample.sha256 } })
    await saveProjectFile(path, state)
    await saveProjectFile(path, { ...state, step: 3 })
    expect(await readProjectFile(path)).toEqual({ ...state, step: 3 })
    expect(readdirSync(dir)).toEqual(['p.easytune.json']) // no temp file left behind
    writeFileSync(join(dir, 'bad.json'), '{"version":1,"__proto__":{"x":1}}')
    await expect(readProjectFile(join(dir, 'bad.json'))).rejects.toThrow(ApiInputError)
    writeFileSync(join(dir, 'junk.json'), 'not json')
    await expect(readProjectFile(join(dir, 'junk.json'))).rejects.toThrow(/not JSON/)
    await expect(readProjectFile(join(dir, 'missing.json'))).rejects.toThrow(/no such file/)
  })

  it('autosaves and restores, re-importing the log; a moved or changed log comes back as logMissing', async () => {
    const stateDir = join(tmp.dir, 'state3')
    const logDir = join(tmp.dir, 'logs')
    const log = join(logDir, 'kth.swf.gz')
    const b1 = new Backend({ mode: 'desktop', stateDir, cacheDir: null, workerPath })
    try {
      expect(await b1.restoreLastProject()).toBeNull()
      const { mkdirSync } = await import('node:fs')
      mkdirSync(logDir, { recursive: true })
      copyFileSync(KTH, log)
      const h = b1.addFile(log)
      const w = await b1.importLog({ kind: 'handle', handle: h.handle }, {})
      const state = projectState({ log: { name: w.name, sha256: w.sha256 }, step: 4 })
      await b1.autosave(state)
    } finally {
      await b1.close()
    }
    const b2 = new Backend({ mode: 'desktop', stateDir, cacheDir: null, workerPath })
    try {
      const r = await b2.restoreLastProject()
      expect(r?.logMissing).toBe(false)
      expect(r?.state.step).toBe(4)
      expect(r?.workload?.sha256).toBe(KTH_SHA)
      expect(r?.workload?.name).toBe('kth.swf.gz')
      renameSync(log, join(logDir, 'moved.swf.gz'))
      const moved = await b2.restoreLastProject()
      expect(moved).toMatchObject({ logMissing: true, workload: null })
      expect(moved?.state.log?.sha256).toBe(KTH_SHA)
      writeFileSync(log, 'not the same log\n')
      expect(await b2.restoreLastProject()).toMatchObject({ logMissing: true, workload: null })
    } finally {
      await b2.close()
    }
  })

  it('keeps settings, and deletes temporary files on close', async () => {
    const b = new Backend({ mode: 'browser', stateDir: join(tmp.dir, 'state4'), cacheDir: null, workerPath })
    expect(await b.getSettings()).toEqual({ theme: 'system', workers: null, recentProjects: [] })
    expect(await b.setSettings({ theme: 'dark', workers: 2 })).toEqual({ theme: 'dark', workers: 2, recentProjects: [] })
    expect((await b.getSettings()).theme).toBe('dark')
    const f = join(tmp.dir, 'upload.tmp')
    copyFileSync(KTH, f)
    b.addFile(f, 'x.swf.gz', { temporary: true })
    expect(b.getAppInfo()).toMatchObject({ mode: 'browser', version: '0.1.0' })
    await expect(b.importLog({ kind: 'dialog' }, {})).rejects.toThrow(/upload/)
    await expect(b.importLog({ kind: 'handle', handle: 'hUNKNOWN' }, {})).rejects.toThrow(/unknown or has expired/)
    await b.close()
    expect(existsSync(f)).toBe(false)
  })

  it('turns a dropped file (addLogFile) into a handle after checking it is a readable file; errors name only the file', async () => {
    const b = new Backend({ mode: 'desktop', stateDir: join(tmp.dir, 'state5'), cacheDir: null, workerPath })
    try {
      const log = join(tmp.dir, 'dropped.swf.gz')
      copyFileSync(KTH, log)
      const h = await b.addLogFile({ path: log })
      expect(h).toEqual({ handle: expect.stringMatching(/^[A-Za-z0-9_-]{1,64}$/), name: 'dropped.swf.gz' })
      // A folder is one log of its files (test/server/backend-files.test.ts); an empty one is refused.
      const { mkdirSync } = await import('node:fs')
      mkdirSync(join(tmp.dir, 'empty-folder'))
      await expect(b.addLogFile({ path: join(tmp.dir, 'empty-folder') })).rejects.toThrow(/^empty-folder is a folder with no log file in it$/)
      await expect(b.addLogFile({ path: join(tmp.dir, 'gone.swf') })).rejects.toThrow(/^gone\.swf no longer exists$/)
      // An upload's temporary file is the back end's to delete; a dropped file never is.
      await b.close()
      expect(existsSync(log)).toBe(true)
    } finally {
      await b.close()
    }
  })

  it('the report of a log it holds carries the time-limits section, pseudonymised; of another log, none', async () => {
    const r = switchResult()
    const other = backend.generateReport(r)
    expect(other).not.toContain('Time limits: user education and default limits per partition')
    const own = backend.generateReport({ ...r, log: { ...r.log, sha256: sample.sha256 } })
    expect(own).toContain('Time limits: user education and default limits per partition')
    const section = own.slice(own.indexOf('<section id="time-limits">'), own.indexOf('</section>', own.indexOf('<section id="time-limits">')))
    expect(section).toContain('user-001')
    // The users it names are pseudonyms: the sample's own user names (numbers in the SWF file) of
    // the five users it starts with never appear as a name cell.
    const analysis = analyzeWalltimes(await readLog(KTH), { names: true })
    for (const u of analysis.startWith.users) expect(section).not.toContain(`<td>${u.name}</td>`)
    expect(analysis.startWith.users.length).toBeGreaterThan(0)
  })

  it('answers the files to save (saveText, saveProject) and opens an uploaded project file, deleting it', async () => {
    const b = new Backend({ mode: 'browser', stateDir: join(tmp.dir, 'state6'), cacheDir: null, workerPath })
    try {
      expect(b.saveText('a.txt', 'x', 'text/plain')).toEqual({ name: 'a.txt', content: 'x', mime: 'text/plain' })
      const saved = b.saveProject(projectState({ log: { name: 'KTH SP2.swf.gz', sha256: KTH_SHA } }))
      expect(saved).toMatchObject({ name: 'KTH_SP2.swf.easytune.json', mime: 'application/json' })
      const up = join(tmp.dir, 'upload-project')
      writeFileSync(up, saved.content)
      await expect(b.openProject({ path: up, name: 'mine.easytune', temporary: true })).resolves.toMatchObject({ version: 1, log: { sha256: KTH_SHA } })
      expect(existsSync(up)).toBe(false)
      await expect(b.openProject(null)).rejects.toThrow(/pick the project file/)
      expect(() => b.saveReportPdf({} as never)).toThrow(/browser mode cannot make a PDF/)
    } finally {
      await b.close()
    }
  })

  it('clears the cell cache: only its .cell files, with their count and size; refused while a campaign runs', async () => {
    const cacheDir = join(tmp.dir, 'cells')
    const b = new Backend({ mode: 'browser', stateDir: join(tmp.dir, 'state7'), cacheDir, workerPath })
    try {
      expect(await b.clearCellCache()).toEqual({ cells: 0, bytes: 0 }) // no folder yet
      const w = await b.importLog({ kind: 'sample' }, {})
      const { finished } = collect(b)
      b.startCampaign(request(w.id))
      await expect(b.clearCellCache()).rejects.toThrow(/a campaign is running/)
      expect((await finished).kind).toBe('done')
      const { readdirSync, statSync } = await import('node:fs')
      const cells = readdirSync(cacheDir).filter((f) => f.endsWith('.cell'))
      // 2 candidates + EASY-FCFS, on train and test, resampled and real weeks; and the recommendation
      // (or the baseline) with its baseline as deployed on Slurm, on the real weeks of each part.
      expect(cells.length).toBe(12 + 4)
      const size = cells.reduce((s, f) => s + statSync(join(cacheDir, f)).size, 0)
      writeFileSync(join(cacheDir, 'notes.txt'), 'not the cache\'s')
      expect(await b.clearCellCache()).toEqual({ cells: 12 + 4, bytes: size })
      expect(readdirSync(cacheDir)).toEqual(['notes.txt'])
      expect(await b.clearCellCache()).toEqual({ cells: 0, bytes: 0 })
    } finally {
      await b.close()
    }
  })
})
