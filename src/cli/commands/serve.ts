import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { bool, parseArgs, str, UsageError } from '../args'
import type { Io } from '../output'
import { Backend } from '../../backend/backend'
import { defaultCacheDir, defaultRendererDir, defaultStateDir } from '../../backend/paths'
import { defaultWorkerPath } from '../../engine/pool'
import { DEFAULT_MAX_UPLOAD_BYTES, startServer } from '../../server/server'

export const DEFAULT_PORT = 4180

export const serveHelp = `easytune serve [options]

Browser mode: the EasyTune app in your web browser, served on this machine's loopback interface
only (127.0.0.1) and protected by a random access token in the URL it prints. On a headless login
node, forward the port over SSH from your desktop and open the URL there:
  ssh -N -L ${DEFAULT_PORT}:127.0.0.1:${DEFAULT_PORT} login-node

Options:
  --port P           port to listen on (default ${DEFAULT_PORT}; 0 = any free port)
  --host H           loopback address to listen on: 127.0.0.1 (default), ::1 or localhost;
                     any other address is refused
  --open             open the URL in the default browser (xdg-open)
  --sample           open the wizard with the bundled sample log (KTH-SP2) loaded
  --state-dir D      autosave and settings (default $XDG_STATE_HOME/easytune or ~/.local/state/easytune)
  --cache-dir D      finished campaign cells (default $XDG_CACHE_HOME/easytune/cells or ~/.cache/easytune/cells)
  --no-cache         keep no campaign cells
  --max-upload S     largest log upload, in bytes or with k, m, g (default 2g)
  --renderer-dir D   the built user interface (default out/renderer of the package)

Prints one line on stdout, the URL to open (with its token). Ctrl-C stops the server and its
engine workers cleanly.
`

const FLAGS = {
  port: 'string', host: 'string', open: 'boolean', sample: 'boolean', 'state-dir': 'string', 'cache-dir': 'string',
  'no-cache': 'boolean', 'max-upload': 'string', 'renderer-dir': 'string', help: 'boolean',
} as const

function port(v: string | undefined): number {
  if (v === undefined) return DEFAULT_PORT
  if (!/^\d+$/.test(v) || Number(v) > 65535) throw new UsageError(`--port must be a port number from 0 to 65535, got "${v}"`)
  return Number(v)
}

function size(v: string | undefined): number {
  if (v === undefined) return DEFAULT_MAX_UPLOAD_BYTES
  const m = /^(\d+(?:\.\d+)?)([kmg]?)i?b?$/i.exec(v.trim())
  if (!m || Number(m[1]) <= 0) throw new UsageError(`--max-upload must be a size such as 500m or 2g, got "${v}"`)
  return Math.floor(Number(m[1]) * { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2].toLowerCase() as '' | 'k' | 'm' | 'g'])
}

export async function serveCommand(argv: string[], io: Io): Promise<number> {
  const a = parseArgs(argv, FLAGS)
  if (bool(a, 'help')) { io.out(serveHelp); return 0 }
  if (a.positionals.length > 0) throw new UsageError(`serve takes no file (got ${a.positionals.join(' ')}); upload logs in the page`)
  const listen = { port: port(str(a, 'port')), host: str(a, 'host') ?? '127.0.0.1', maxUploadBytes: size(str(a, 'max-upload')) }
  const rendererDir = resolve(str(a, 'renderer-dir') ?? defaultRendererDir())
  if (!existsSync(join(rendererDir, 'index.html'))) {
    io.err(`easytune serve: the user interface is not built (${rendererDir} has no index.html). Run: npx electron-vite build\n`)
    return 1
  }
  const workerPath = defaultWorkerPath()
  if (!existsSync(workerPath)) io.err(`warning: the engine worker is not built (${workerPath}); campaigns will fail until you run npm run build:cli\n`)
  const backend = new Backend({
    mode: 'browser',
    stateDir: resolve(str(a, 'state-dir') ?? defaultStateDir()),
    cacheDir: bool(a, 'no-cache') ? null : resolve(str(a, 'cache-dir') ?? defaultCacheDir()),
    workerPath,
  })
  let server
  try {
    server = await startServer({ ...listen, backend, rendererDir })
  } catch (e) {
    await backend.close()
    io.err(`easytune serve: ${(e as Error).message}\n`)
    return (e as Error).name === 'NotLoopbackError' ? 2 : 1
  }
  const url = server.url + (bool(a, 'sample') ? '&sample=1' : '')
  io.out(`EasyTune is running at ${url}\n`)
  io.err(`Listening on ${server.host} port ${server.port} only. From another machine: ssh -N -L ${server.port}:127.0.0.1:${server.port} <this host>, then open the URL there.\nPress Ctrl-C to stop.\n`)
  if (bool(a, 'open')) openBrowser(url, io)
  await new Promise<void>((done) => {
    const stop = () => { process.off('SIGINT', stop); process.off('SIGTERM', stop); done() }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
  io.err('Stopping: closing connections and engine workers...\n')
  await server.close()
  await backend.close()
  io.err('Stopped.\n')
  return 0
}

function openBrowser(url: string, io: Io): void {
  const [cmd, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]]
  try {
    const child = spawn(cmd, args, { detached: true, stdio: 'ignore' })
    child.on('error', (e) => io.err(`could not open a browser (${cmd}: ${(e as NodeJS.ErrnoException).code ?? e.message}); open the URL above yourself\n`))
    child.on('exit', (code) => { if (code) io.err(`${cmd} exited with code ${code}; open the URL above yourself\n`) })
    child.unref()
    io.err(`Opening the URL with ${cmd}...\n`)
  } catch (e) {
    io.err(`could not open a browser (${(e as Error).message}); open the URL above yourself\n`)
  }
}
