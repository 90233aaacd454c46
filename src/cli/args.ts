// Flag parsing shared by every command (docs/CLI.md §Flags): `--flag value`, `--flag=value`, booleans, and
import { parseThreshold } from '../core/util/duration'
// `--json [file]` whose value is optional (absent or followed by another flag = stdout).

export class UsageError extends Error {}

export type FlagKind = 'string' | 'boolean' | 'optional'

export interface ParsedArgs {
  positionals: string[]
  flags: Map<string, string | true>
}

export function parseArgs(argv: string[], spec: Record<string, FlagKind>): ParsedArgs {
  const positionals: string[] = []
  const flags = new Map<string, string | true>()
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--') { positionals.push(...argv.slice(i + 1)); break }
    if (!a.startsWith('--') || a === '-') { positionals.push(a); continue }
    const eq = a.indexOf('=')
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2)
    const kind = Object.hasOwn(spec, name) ? spec[name] : undefined // not a name every object has (--constructor)
    if (kind === undefined) {
      const known = Object.keys(spec).map((k) => `--${k}`).join(', ')
      throw new UsageError(`unknown option --${name}${known ? ` (this command takes ${known})` : ''}`)
    }
    if (flags.has(name)) throw new UsageError(`--${name} is given twice`)
    if (kind === 'boolean') {
      if (eq > 0) throw new UsageError(`--${name} takes no value`)
      flags.set(name, true)
    } else if (eq > 0) {
      flags.set(name, a.slice(eq + 1))
    } else if (kind === 'optional') {
      const next = argv[i + 1]
      if (next === undefined || next.startsWith('--')) flags.set(name, true)
      else { flags.set(name, next); i++ }
    } else {
      const next = argv[i + 1]
      if (next === undefined || next.startsWith('--')) throw new UsageError(`--${name} needs a value`)
      flags.set(name, next)
      i++
    }
  }
  return { positionals, flags }
}

export function str(a: ParsedArgs, name: string): string | undefined {
  const v = a.flags.get(name)
  return typeof v === 'string' ? v : undefined
}

export function bool(a: ParsedArgs, name: string): boolean {
  return a.flags.get(name) === true
}

export function positiveInt(a: ParsedArgs, name: string): number | undefined {
  const v = str(a, name)
  if (v === undefined) return undefined
  if (!/^\d+$/.test(v) || Number(v) <= 0) throw new UsageError(`--${name} must be a whole number above 0, got "${v}"`)
  return Number(v)
}

export function positiveNumber(a: ParsedArgs, name: string): number | undefined {
  const v = str(a, name)
  if (v === undefined) return undefined
  const n = Number(v)
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} must be a number above 0, got "${v}"`)
  return n
}

export function oneOf<T extends string>(a: ParsedArgs, name: string, values: readonly T[]): T | undefined {
  const v = str(a, name)
  if (v === undefined) return undefined
  if (!(values as readonly string[]).includes(v)) throw new UsageError(`--${name} must be one of ${values.join(', ')}; got "${v}"`)
  return v as T
}

/** `--json` alone → stdout; `--json file` → that file; absent → undefined. */
export function jsonTarget(a: ParsedArgs): { file: string | null } | undefined {
  const v = a.flags.get('json')
  if (v === undefined) return undefined
  return { file: v === true ? null : v }
}

/** A whole number ≥ 0 (seeds). */
export function wholeNumber(a: ParsedArgs, name: string): number | undefined {
  const v = str(a, name)
  if (v === undefined) return undefined
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v))) throw new UsageError(`--${name} must be a whole number ≥ 0, got "${v}"`)
  return Number(v)
}

/** A waiting-time threshold: `none` (null) or a duration; absent → `fallback`. */
export function thresholdFlag(a: ParsedArgs, name: string, fallback: number | null): number | null {
  const v = str(a, name)
  if (v === undefined) return fallback
  try {
    return parseThreshold(v)
  } catch (e) {
    throw new UsageError(`--${name}: ${(e as Error).message}`)
  }
}
