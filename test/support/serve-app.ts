// The browser-mode app for Chromium tests: builds the page into a fresh temp folder (so the page
// under test is the current code), starts `easytune serve` on a free loopback port with its own
// state folder, and waits for the URL (with its token) it prints on its first line. `stop()` ends
// the server (SIGTERM, then gives up after 5 s) and removes the folder.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface ServedApp {
  /** http://127.0.0.1:PORT/?token=… */
  url: string
  /** The temp folder: the built page, the server's state, and room for the test's own files. */
  work: string
  server: ChildProcess
  /** What the server printed on stderr (for failure messages). */
  serverLog: string[]
  stop(): Promise<void>
}

export async function serveApp(prefix: string): Promise<ServedApp> {
  const work = mkdtempSync(join(tmpdir(), prefix))
  execFileSync(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build', '--outDir', join(work, 'out'), '--logLevel', 'warn'], { stdio: 'pipe' })
  const rendererDir = join(work, 'out', 'renderer')
  if (!existsSync(join(rendererDir, 'index.html'))) throw new Error(`the page was not built: ${rendererDir} has no index.html`)
  const server = spawn(process.execPath, ['bin/easytune.js', 'serve', '--port', '0', '--renderer-dir', rendererDir, '--state-dir', join(work, 'state'), '--no-cache'], { stdio: ['ignore', 'pipe', 'pipe'] })
  const serverLog: string[] = []
  server.stderr!.on('data', (b: Buffer) => serverLog.push(b.toString()))
  const stop = async (): Promise<void> => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((r) => server.once('exit', r))
      server.kill('SIGTERM')
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))])
    }
    rmSync(work, { recursive: true, force: true })
  }
  try {
    const url = await new Promise<string>((ok, fail) => {
      let buf = ''
      const timer = setTimeout(() => fail(new Error(`easytune serve printed no URL in 20 s: ${serverLog.join('')}`)), 20_000)
      server.stdout!.on('data', (b: Buffer) => {
        buf += b.toString()
        if (!buf.includes('\n')) return
        clearTimeout(timer)
        const m = /https?:\/\/\S+/.exec(buf.split('\n')[0])
        if (m) ok(m[0])
        else fail(new Error(`easytune serve printed no URL on its first line: ${buf}`))
      })
      server.once('exit', (code) => { clearTimeout(timer); fail(new Error(`easytune serve exited with ${code}: ${serverLog.join('')}`)) })
    })
    return { url, work, server, serverLog, stop }
  } catch (e) {
    await stop()
    throw e
  }
}
