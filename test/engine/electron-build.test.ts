// electron-vite (the desktop app's build) bundles the engine worker without the Electron binary,
// and that bundle speaks the engine protocol: the first thing it says is 'ready'.
import { execFileSync, fork } from 'node:child_process'
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

describe('electron-vite build', () => {
  it('builds out/main/engine-worker.js, which starts and reports ready', async () => {
    execFileSync(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build'], { stdio: 'pipe' })
    expect(existsSync('out/main/engine-worker.js')).toBe(true)
    const child = fork('out/main/engine-worker.js', [], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] })
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
