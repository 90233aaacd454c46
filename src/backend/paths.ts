// Where the back end finds and keeps things: the package root (for the bundled sample, the built
// renderer and the engine worker), and the per-user state and cache folders of browser mode
// (Electron main passes its own, under app.getPath('userData')).
import { homedir } from 'node:os'
import { join } from 'node:path'
import { packageRoot } from '../node/package-root'

export { packageRoot }

export const SAMPLE_FILE = 'KTH-SP2-1996-2.1-cln.swf.gz'

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
