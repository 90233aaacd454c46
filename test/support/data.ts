import { existsSync } from 'node:fs'
import { resolve } from 'node:path'

/** The shared real logs (../shared/data beside the checkout, or $EASYTUNE_DATA). */
export const DATA_DIR = resolve(process.env.EASYTUNE_DATA ?? '../shared/data')

export function dataFile(rel: string): string {
  const p = resolve(DATA_DIR, rel)
  if (!existsSync(p)) throw new Error(`real-log fixture ${p} is missing: the tests expect ../shared/data beside the checkout (or set EASYTUNE_DATA)`)
  return p
}
