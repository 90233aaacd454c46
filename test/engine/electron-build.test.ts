// electron-vite (the desktop app's build) bundles main, preload, renderer and the engine worker
// without the Electron binary; the preload is CommonJS, main passes `node --check`, and the worker
// bundle speaks the engine protocol: the first thing it says is 'ready'. The parse worker ships
// beside it, and the engine worker's big imports use it.
import { execFileSync, fork } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { PARALLEL_MAX_WORKERS, PARALLEL_MIN_SWF_WORKERS, findParseWorker } from '../../src/node/parse-parallel'
import { readLog } from '../../src/node/read-log'
import { requireData } from '../support/data'

describe('electron-vite build', () => {
  it('builds every bundle, the engine worker starts and reports ready, and parses a big SWF log with the shipped parse worker', async (ctx) => {
    // A private output folder: other suites read out/ while this one runs.
    const tmp = mkdtempSync(join(tmpdir(), 'easytune-evb-'))
    ctx.onTestFinished(() => rmSync(tmp, { recursive: true, force: true }))
    const out = join(tmp, 'out')
    execFileSync(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build', '--outDir', out, '--logLevel', 'warn'], { stdio: 'pipe' })
    for (const f of ['main/index.js', 'main/engine-worker.js', 'preload/index.cjs', 'renderer/index.html']) expect(existsSync(join(out, f)), f).toBe(true)
    execFileSync(process.execPath, ['--check', join(out, 'main/index.js')])
    // A sandboxed preload may require 'electron' only (no zod, no Node module, no core).
    expect(readFileSync(join(out, 'preload/index.cjs'), 'utf8').match(/require\(["'][^"']*["']\)/g)).toEqual(['require("electron")'])
    const child = fork(join(out, 'main/engine-worker.js'), [], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] })
    const first = await new Promise<unknown>((resolve, reject) => {
      child.once('message', resolve)
      child.once('error', reject)
      setTimeout(() => reject(new Error('no message from the worker in 10 s')), 10_000)
    })
    expect(first).toMatchObject({ type: 'ready' })
    child.send({ type: 'exit' })
    const code = await new Promise((resolve) => child.once('exit', resolve))
    expect(code).toBe(0)

    // The parse worker ships beside the engine worker, unpacked from app.asar in a packaged app, and
    // the built engine worker finds it: a sacct log of over 8 MiB of text (Kabré's, four times) is
    // parsed by its threads (EASYTUNE_TRACE_IMPORT names the script), with the same jobs as a
    // sequential read. A big SWF log (CEA-Curie, ~30 MB of text) takes the threads only with 4 cores
    // or more (PARALLEL_MIN_SWF_WORKERS: its parse keeps pace with gunzip), in one thread otherwise.
    expect(existsSync(join(out, 'main/parse-worker.js'))).toBe(true)
    expect(readFileSync('build/electron-builder.yml', 'utf8')).toMatch(/asarUnpack:(\n\s+- .*)*\n\s+- out\/main\/parse-worker\.js/)
    const importThroughEngine = async (path: string, name: string) => {
      const engine = fork(join(out, 'main/engine-worker.js'), [], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'], env: { ...process.env, EASYTUNE_TRACE_IMPORT: '1' } })
      let stderr = ''
      engine.stderr!.on('data', (d: Buffer) => { stderr += d.toString() })
      const answer = await new Promise<{ type: string; result?: { workload: { jobs: { count: number } } }; message?: string }>((resolve, reject) => {
        engine.on('message', (m: { type: string }) => { if (m.type === 'done' || m.type === 'error') resolve(m) })
        engine.once('error', reject)
        engine.send({ type: 'run', id: 1, unit: { kind: 'import', path, options: { name } } })
      })
      engine.send({ type: 'exit' })
      await new Promise((resolve) => engine.once('exit', resolve))
      expect(answer.message).toBeUndefined()
      const seq = await readLog(path, { name, parallel: { workerPath: null } })
      expect(answer.result!.workload.jobs.count).toBe(seq.jobs.count)
      return { stderr, jobs: seq.jobs.count }
    }
    const kabre = gunzipSync(readFileSync(requireData(ctx, 'slurm/kabre-cenat/sacct.csv.gz'))).toString('utf8').split('\n').filter((l) => l !== '')
    const bigSacct = join(tmp, 'kabre-x4.csv.gz')
    writeFileSync(bigSacct, gzipSync([kabre[0], ...Array.from({ length: 4 }, () => kabre.slice(1)).flat()].join('\n') + '\n'))
    const sacct = await importThroughEngine(bigSacct, 'kabre-x4.csv')
    expect(sacct.stderr).toContain(`[import-trace] parallel parse: `)
    expect(sacct.stderr).toContain(`threads, ${join(out, 'main/parse-worker.js')}\n`)
    expect(sacct.jobs).toBeGreaterThan(10_000)
    const swf = await importThroughEngine(requireData(ctx, 'swf/CEA-Curie-2011-2.1-cln.swf.gz'), 'curie.swf')
    expect(swf.stderr.includes('[import-trace] parallel parse: ')).toBe(Math.min(PARALLEL_MAX_WORKERS, availableParallelism()) >= PARALLEL_MIN_SWF_WORKERS)
    expect(swf.jobs).toBeGreaterThan(300_000)
  }, 240_000)
})

describe('the parse worker path (src/node/parse-parallel.ts findParseWorker)', () => {
  const found = (url: string, files: string[]) => findParseWorker(url, (p) => files.includes(p))
  it('finds out/parse/ from the CLI bundles and their assets, and out/main/ from the desktop build and its chunks', () => {
    expect(found('file:///p/out/cli/easytune.js', ['/p/out/parse/parse-worker.js'])).toBe('/p/out/parse/parse-worker.js')
    expect(found('file:///p/out/cli/assets/x-1.js', ['/p/out/parse/parse-worker.js'])).toBe('/p/out/parse/parse-worker.js')
    expect(found('file:///p/out/main/engine-worker.js', ['/p/out/main/parse-worker.js'])).toBe('/p/out/main/parse-worker.js')
    expect(found('file:///p/out/main/chunks/label-1.js', ['/p/out/main/parse-worker.js'])).toBe('/p/out/main/parse-worker.js')
    expect(found('file:///p/out/main/chunks/label-1.js', [])).toBeNull()
  })
  it('inside app.asar only the unpacked copy counts', () => {
    const url = 'file:///opt/EasyTune/resources/app.asar/out/main/chunks/label-1.js'
    expect(found(url, ['/opt/EasyTune/resources/app.asar.unpacked/out/main/parse-worker.js'])).toBe('/opt/EasyTune/resources/app.asar.unpacked/out/main/parse-worker.js')
    expect(found(url, ['/opt/EasyTune/resources/app.asar/out/main/parse-worker.js'])).toBeNull()
  })
})
