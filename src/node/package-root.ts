// Finds the installed easytune package: the bundled sample, the built renderer and the engine
// worker are located relative to it, whether the code runs from src/ (tests) or out/ (bundles).
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The folder of the package.json named "easytune" above `from` (a file URL or a folder; default:
 * this module), then above the working directory; null when there is none. */
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
