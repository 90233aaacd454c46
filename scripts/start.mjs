// `npm start`: the README's main command. Builds what is needed, then
//   - where Electron's binary is usable (and, on Linux, a display is there): the desktop app,
//     which opens the wizard on the bundled sample the first time;
//   - otherwise (as on the CI and build machines, where the binary cannot be downloaded): one line
//     saying so, then browser mode (`easytune serve --sample`), which prints the URL to open.
// Options: --browser forces browser mode; other arguments go to `easytune serve` (e.g. --port 0).
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { nodeProblem } from '../bin/node-version.js'

const tooOld = nodeProblem('npm start')
if (tooOld !== null) {
  process.stderr.write(tooOld)
  process.exit(1)
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const forceBrowser = args.includes('--browser')
const serveArgs = args.filter((a) => a !== '--browser')

/** Runs a build step quietly; shows its output only when it fails. */
function build(what, argv) {
  const r = spawnSync(process.execPath, argv, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  if (r.status !== 0) {
    process.stderr.write(`${r.stdout ?? ''}${r.stderr ?? ''}`)
    process.stderr.write(`npm start: building ${what} failed${r.error ? ` (${r.error.message})` : ''}.\n`)
    process.exit(1)
  }
}

/**
 * The Electron executable, or null when there is none. Asking `require('electron')` is what
 * finds it, but on Electron 42+ that tries to download the binary when it is missing and prints
 * to the terminal, so it runs in a silent child process with a time limit.
 */
function electronBinary() {
  const probe = spawnSync(process.execPath, ['-e', "process.stdout.write(String(require('electron')))"], {
    cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000,
  })
  const path = probe.status === 0 ? probe.stdout.trim() : ''
  return path && existsSync(path) ? path : null
}

const hasDisplay = () => process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY)

/** Starts a child attached to this terminal; Ctrl-C and termination reach it; exits with it. */
function run(cmd, argv) {
  const child = spawn(cmd, argv, { cwd: root, stdio: 'inherit' })
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => { child.kill(sig) })
  child.on('error', (e) => {
    process.stderr.write(`npm start: could not start ${cmd}: ${e.message}\n`)
    process.exit(1)
  })
  child.on('exit', (code, signal) => { process.exit(code ?? (signal ? 1 : 0)) })
}

// The desktop bundles and the renderer (which browser mode serves too), then the CLI.
build('the app (electron-vite build)', [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'])
build('the command line (scripts/build-cli.mjs)', [join(root, 'scripts', 'build-cli.mjs')])

const electron = forceBrowser ? null : electronBinary()
if (electron && hasDisplay()) {
  run(electron, [join(root, 'out', 'main', 'index.js')])
} else {
  if (!forceBrowser) {
    console.log(electron
      ? 'No display is available here for the desktop app; starting the browser mode instead.'
      : "Electron's binary is not available here; starting the browser mode instead.")
  }
  run(process.execPath, [join(root, 'bin', 'easytune.js'), 'serve', '--sample', ...serveArgs])
}
