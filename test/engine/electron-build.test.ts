// electron-vite (the desktop app's build) bundles main, preload, renderer and the engine worker
// without the Electron binary; the preload is CommonJS, main passes `node --check`, and the worker
// bundle speaks the engine protocol: the first thing it says is 'ready'.
import { execFileSync, fork } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

describe('electron-vite build', () => {
  it('builds every bundle, and the engine worker starts and reports ready', async () => {
    // A private output folder: other suites read out/ while this one runs.
    const out = join(mkdtempSync(join(tmpdir(), 'easytune-evb-')), 'out')
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
  })
})
