// `easytune serve` as a real process: the CLI is bundled into a temp folder under
// node_modules/.cache (not out/, which other suites rebuild concurrently; inside the package so
// that its dependencies, e.g. ws, resolve) and started with node. It prints exactly one line (the URL with
// its token), refuses non-loopback hosts with exit code 2, and stops cleanly on Ctrl-C (SIGINT).
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { http } from './http'
import { tempDir } from './support'

describe('easytune serve', () => {
  let tmp: ReturnType<typeof tempDir>
  let runner = ''
  let renderer = ''
  let bundleDir = ''
  const children: ChildProcess[] = []

  beforeAll(async () => {
    tmp = tempDir('easytune-serve-cli-')
    mkdirSync(resolve('node_modules/.cache'), { recursive: true })
    bundleDir = mkdtempSync(resolve('node_modules/.cache/easytune-serve-test-'))
    await build({
      configFile: false, logLevel: 'warn',
      build: { ssr: resolve('src/cli/main.ts'), outDir: bundleDir, target: 'node20', minify: false, rolldownOptions: { output: { entryFileNames: 'easytune.js', format: 'es' } } },
    })
    runner = join(bundleDir, 'run.mjs')
    writeFileSync(runner, "import { main } from './easytune.js'\nprocess.exitCode = await main(process.argv.slice(2))\n")
    renderer = join(tmp.dir, 'renderer')
    mkdirSync(renderer)
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><html><head><title>EasyTune</title></head><body>app</body></html>')
  })
  afterAll(() => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL')
    tmp?.remove()
    if (bundleDir) rmSync(bundleDir, { recursive: true, force: true })
  })

  function start(args: string[]): { child: ChildProcess; out: () => string; err: () => string; exit: Promise<number | null>; firstLine: Promise<string> } {
    const child = spawn(process.execPath, [runner, 'serve', ...args], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, XDG_STATE_HOME: join(tmp.dir, 'xdg') } })
    children.push(child)
    let out = '', err = ''
    let gotLine: (s: string) => void = () => {}
    const firstLine = new Promise<string>((r) => { gotLine = r })
    child.stdout!.on('data', (d: Buffer) => { out += d; if (out.includes('\n')) gotLine(out) })
    child.stderr!.on('data', (d: Buffer) => { err += d })
    const exit = new Promise<number | null>((r) => child.on('close', (code) => { gotLine(out); r(code) }))
    return { child, out: () => out, err: () => err, exit, firstLine }
  }

  it('prints one line with the URL and token, serves it, and stops cleanly on Ctrl-C', async () => {
    const s = start(['--port', '0', '--sample', '--no-cache', '--renderer-dir', renderer, '--state-dir', join(tmp.dir, 'state')])
    const line = await s.firstLine
    expect(line, s.err()).toMatch(/^EasyTune is running at http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}&sample=1\n$/)
    const url = new URL(line.replace('EasyTune is running at ', '').trim())
    const port = Number(url.port)
    expect((await http(port, `/?token=${url.searchParams.get('token')}`)).status).toBe(200)
    expect((await http(port, '/')).status).toBe(401)
    s.child.kill('SIGINT')
    expect(await s.exit).toBe(0)
    expect(s.out()).toBe(line) // nothing else on stdout
    expect(s.err()).toMatch(/Stopped\./)
    await expect(http(port, '/')).rejects.toThrow(/ECONNREFUSED/)
  })

  it('refuses a non-loopback host with exit code 2 and a clear message', async () => {
    const s = start(['--host', '0.0.0.0', '--port', '0', '--renderer-dir', renderer, '--state-dir', join(tmp.dir, 'state')])
    expect(await s.exit).toBe(2)
    expect(s.out()).toBe('')
    expect(s.err()).toMatch(/refusing to listen on "0.0.0.0": browser mode only listens on the loopback interface/)
  })

  it('says when the user interface is not built, and rejects bad flags', async () => {
    const s = start(['--port', '0', '--renderer-dir', join(tmp.dir, 'nowhere')])
    expect(await s.exit).toBe(1)
    expect(s.err()).toMatch(/the user interface is not built .* npx electron-vite build/)
    const bad = start(['--port', '99999'])
    expect(await bad.exit).toBe(2)
    expect(bad.err()).toMatch(/--port must be a port number/)
  })
})
