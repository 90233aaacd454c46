// Where the back end finds and keeps things: the package root (for the bundled sample, the built
// renderer and the engine worker), and the per-user state and cache folders of browser mode
// (Electron main passes its own, under app.getPath('userData')).
import { existsSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const SAMPLE_FILE = 'KTH-SP2-1996-2.1-cln.swf.gz'

/** The folder of the package.json named "easytune" above `from` (default: this module, then the
 * working directory), or null. */
export function packageRoot(from: string = import.meta.url): string | null {
  const start = from.startsWith('file:') ? dirname(fileURLToPath(from)) : from
  return walkUp(start) ?? walkUp(process.cwd())
}

function walkUp(dir: string): string | null {
  for (let d = dir; ; d = dirname(d)) {
    const pkg = join(d, 'package.json')
    try {
      if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'easytune') return d
    } catch { /* unreadable package.json: keep walking */ }
    if (dirname(d) === d) return null
  }
}

function root(): string {
  const r = packageRoot()
  if (!r) throw new Error('cannot find the easytune package folder (no package.json named "easytune" above this module or the working directory)')
  return r
}

/** The bundled sample log (KTH-SP2 from the Parallel Workloads Archive). */
export function bundledSamplePath(): string {
  return join(root(), 'resources', SAMPLE_FILE)
}

/** The built renderer served by browser mode (`npx electron-vite build` writes it). */
export function defaultRendererDir(): string {
  return join(root(), 'out', 'renderer')
}

/** $XDG_STATE_HOME/easytune, else ~/.local/state/easytune (autosave, settings). */
export function defaultStateDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'easytune')
}

/** $XDG_CACHE_HOME/easytune/cells, else ~/.cache/easytune/cells (finished campaign cells). */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'easytune', 'cells')
}
