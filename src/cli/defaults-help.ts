// The CLI's "(default …)" texts and the "Why these defaults" block of each command's help, derived
// from the one declaration of the defaults (src/core/defaults.ts).
import { DEFAULTS, type Default } from '../core/defaults'
import { thresholdInput } from '../core/util/duration'

type Key = keyof typeof DEFAULTS

/** A default as typed on the command line: 250, none, none,20h,40h,200000, midpoint, 40h. */
export function shown(key: Key): string {
  const v: unknown = DEFAULTS[key].value
  if (key === 'thresholds') return (v as (number | null)[]).map(thresholdInput).join(',')
  if (key === 'threshold' || key === 'onlineThreshold' || v === null) return thresholdInput(v as number | null)
  if (key === 'split') return (v as { kind: string }).kind
  if (typeof v === 'object' && v !== null && 'seconds' in v) return String((v as { seconds: number }).seconds)
  return String(v)
}

/** "Why these defaults:" with one line per flag: its default and the reason. */
export function whyDefaults(rows: [flag: string, key: Key][]): string {
  const lines = rows.map(([flag, key]) => {
    const d: Default<unknown> = DEFAULTS[key]
    const head = `--${flag} ${shown(key)}`
    return head.length < 24 ? `  ${head.padEnd(25)}${d.why}` : `  ${head}\n${' '.repeat(27)}${d.why}`
  })
  return ['Why these defaults:', ...lines].join('\n')
}
