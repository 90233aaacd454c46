// Every file entry point refuses what is not a regular file (issue #20): a FIFO or a device given
// as a log, a configuration or a result file, or recorded as an autosaved project's log, must give
// a clear message naming the file at once, never a hang (reading /dev/zero never ends; opening a
// FIFO without a writer blocks). Each FIFO test is time-bounded: a helper process opens the FIFO
// for writing after UNBLOCK_MS, so code that blocks on it returns then (and the test fails on its
// time) instead of hanging the run.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, test } from 'vitest'
import { Backend } from '../../src/backend/backend'
import { readProjectFile, writeAutosave } from '../../src/backend/project'
import { hashFile } from '../../src/engine/cache'
import { FileInputError, readLog } from '../../src/node/read-log'
import { NotRegularFileError, readRegularFile, readRegularFileSync, statRegularFile } from '../../src/node/regular-file'
import { runCli } from '../support/cli'
import { projectState } from '../server/support'

const UNBLOCK_MS = 3000
/** Well under UNBLOCK_MS: code that waited for the helper writer takes longer. */
const QUICK_MS = 1500

const dir = mkdtempSync(join(tmpdir(), 'easytune-nonreg-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const unblockers: ChildProcess[] = []
afterEach(() => { for (const p of unblockers.splice(0)) p.kill() })

let n = 0
/** A new FIFO with a helper that opens it for writing (and closes it) after UNBLOCK_MS. */
function fifo(): string {
  const path = join(dir, `fifo-${n++}`)
  execFileSync('mkfifo', [path])
  unblockers.push(spawn('sh', ['-c', `sleep ${UNBLOCK_MS / 1000}; : > '${path}'`], { stdio: 'ignore' }))
  return path
}

async function timed<T>(f: () => Promise<T>): Promise<{ value: T | undefined; error: unknown; ms: number }> {
  const t0 = Date.now()
  try {
    const value = await f()
    return { value, error: undefined, ms: Date.now() - t0 }
  } catch (error) {
    return { value: undefined, error, ms: Date.now() - t0 }
  }
}

describe('the helper', () => {
  test('names what the path is: a FIFO, a character device, a folder; a regular file passes', async () => {
    const f = fifo()
    await expect(statRegularFile(f)).rejects.toMatchObject({ name: 'NotRegularFileError', file: f, reason: 'is a FIFO (named pipe), not a regular file' })
    await expect(statRegularFile('/dev/zero')).rejects.toThrow('/dev/zero is a character device, not a regular file')
    await expect(statRegularFile(dir)).rejects.toBeInstanceOf(NotRegularFileError)
    await expect(statRegularFile(join(dir, 'none'))).rejects.toMatchObject({ code: 'ENOENT' })
    const r = await timed(() => readRegularFile(f))
    expect(r.error).toBeInstanceOf(NotRegularFileError)
    expect(r.ms).toBeLessThan(QUICK_MS)
    expect(() => readRegularFileSync('/dev/zero')).toThrow(NotRegularFileError)
    expect(readRegularFileSync(join(__dirname, 'non-regular-files.test.ts'))).toMatch(/^\/\/ Every file entry point/)
  }, 10_000)
})

describe('a log that is not a regular file', () => {
  test.each(['/dev/zero', 'FIFO'])('%s: readLog and hashFile refuse it at once, naming the file', async (which) => {
    const path = which === 'FIFO' ? fifo() : which
    const r = await timed(() => readLog(path))
    expect(r.error).toBeInstanceOf(FileInputError)
    expect(r.error).toMatchObject({ file: path, message: expect.stringMatching(/^is a (FIFO \(named pipe\)|character device), not a regular file$/) })
    expect(r.ms).toBeLessThan(QUICK_MS)
    const h = await timed(() => hashFile(path))
    expect(h.error).toBeInstanceOf(NotRegularFileError)
    expect(h.ms).toBeLessThan(QUICK_MS)
  }, 10_000)

  test.each(['/dev/zero', 'FIFO'])('%s as the CLI log: exit 2 at once with the file named', async (which) => {
    const path = which === 'FIFO' ? fifo() : which
    const r = await timed(() => runCli(['simulate', path]))
    expect(r.ms).toBeLessThan(QUICK_MS)
    expect(r.value?.code).toBe(2)
    expect(r.value?.stderr).toMatch(new RegExp(`^easytune: ${path}: is a .*, not a regular file\\n`))
  }, 10_000)

  test.each(['/dev/zero', 'FIFO'])("%s as an autosaved project's log: restore says the log is missing, at once; close does not hang", async (which) => {
    const path = which === 'FIFO' ? fifo() : which
    const stateDir = join(dir, `state-${n++}`)
    mkdirSync(stateDir)
    await writeAutosave(stateDir, projectState({ log: { name: 'log.swf', sha256: 'a'.repeat(64) } }), path)
    const b = new Backend({ mode: 'desktop', stateDir, cacheDir: null, workerPath: join(dir, 'no-worker.js') })
    const r = await timed(() => b.restoreLastProject())
    expect(r.error).toBeUndefined()
    expect(r.value).toMatchObject({ logMissing: true, workload: null })
    const c = await timed(() => b.close())
    expect(r.ms + c.ms).toBeLessThan(QUICK_MS)
  }, 10_000)

  test.each(['/dev/zero', 'FIFO'])('%s as a project file or as the autosave file itself: refused or ignored, at once', async (which) => {
    const path = which === 'FIFO' ? fifo() : which
    const r = await timed(() => readProjectFile(path, 'p.easytune'))
    expect(String(r.error)).toMatch(/p\.easytune is a .*, not a regular file/)
    expect(r.ms).toBeLessThan(QUICK_MS)
    if (which === 'FIFO') {
      const stateDir = join(dir, `state-${n++}`)
      mkdirSync(stateDir)
      execFileSync('mkfifo', [join(stateDir, 'autosave.json')])
      const b = new Backend({ mode: 'desktop', stateDir, cacheDir: null, workerPath: join(dir, 'no-worker.js') })
      const t = await timed(() => b.restoreLastProject())
      expect(t.value).toBeNull()
      expect(t.ms).toBeLessThan(QUICK_MS)
      await b.close()
    }
  }, 10_000)
})

test.each(['/dev/zero', 'FIFO'])('%s dropped on the desktop window (addLogFile): refused at once, naming what it is', async (which) => {
  const path = which === 'FIFO' ? fifo() : which
  const b = new Backend({ mode: 'desktop', stateDir: join(dir, `state-${n++}`), cacheDir: null, workerPath: join(dir, 'no-worker.js') })
  try {
    const r = await timed(() => b.addLogFile({ path }))
    expect(String(r.error)).toMatch(/(zero is a character device|fifo-\d+ is a FIFO \(named pipe\)), not a regular file/)
    expect(r.ms).toBeLessThan(QUICK_MS)
  } finally {
    await b.close()
  }
}, 10_000)

test('a FIFO as the settings file: the defaults, at once', async () => {
  const stateDir = join(dir, `state-${n++}`)
  mkdirSync(stateDir)
  const f = join(stateDir, 'settings.json')
  execFileSync('mkfifo', [f])
  unblockers.push(spawn('sh', ['-c', `sleep ${UNBLOCK_MS / 1000}; : > '${f}'`], { stdio: 'ignore' }))
  const b = new Backend({ mode: 'desktop', stateDir, cacheDir: null, workerPath: join(dir, 'no-worker.js') })
  const warn = console.warn
  const warned: string[] = []
  console.warn = (m: string) => { warned.push(m) }
  try {
    const r = await timed(() => b.getSettings())
    expect(r.value).toEqual({ theme: 'system', workers: null, recentProjects: [] })
    expect(r.ms).toBeLessThan(QUICK_MS)
    expect(warned.join('\n')).toMatch(/settings\.json is a FIFO \(named pipe\), not a regular file/)
  } finally {
    console.warn = warn
    await b.close()
  }
}, 10_000)

describe('CLI configuration and result files', () => {
  test.each(['/dev/zero', 'FIFO'])('%s as export --current-conf, as the exported result and as the report result: exit 2 at once', async (which) => {
    for (const args of [
      (p: string) => ['export', join(dir, 'result.json'), '--target', 'slurm', '--out', join(dir, 'out'), '--current-conf', p],
      (p: string) => ['export', p, '--target', 'slurm', '--out', join(dir, 'out')],
      (p: string) => ['report', p, '--out', join(dir, 'r.html')],
    ]) {
      const path = which === 'FIFO' ? fifo() : which
      const r = await timed(() => runCli(args(path)))
      expect(r.ms).toBeLessThan(QUICK_MS)
      expect(r.value?.code).toBe(2)
      expect(r.value?.stderr).toMatch(new RegExp(`^easytune: ${path}: is a .*, not a regular file\\n`))
    }
  }, 20_000)
})
