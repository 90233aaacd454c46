// The building blocks of src/shared/validate.ts: the error type and small checks that turn
// `unknown` into a typed value or throw ApiInputError in plain words. Pure: no Node, no DOM.

/** The arguments were malformed: the message says what is wrong, in plain words. */
export class ApiInputError extends Error {
  override name = 'ApiInputError'
}

/** Handles, workload ids and campaign ids issued by the back end. */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/
export const MAX_WEEKS = 5000
export const MAX_WORKERS = 64
export const MAX_TEXT_CHARS = 64 * 1024 * 1024
export const MAX_PATH_CHARS = 4096
export const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

export function fail(message: string): never { throw new ApiInputError(message) }

export function describe(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'a list'
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : String(v)
  if (typeof v === 'string') return v.length > 40 ? `a text of ${v.length} characters` : JSON.stringify(v)
  return typeof v === 'object' ? 'an object' : typeof v
}

/** A plain object with only the allowed keys; returns it as a record. */
export function record(v: unknown, what: string, allowed: readonly string[]): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(`${what} must be an object, got ${describe(v)}`)
  const proto = Object.getPrototypeOf(v)
  if (proto !== Object.prototype && proto !== null) fail(`${what} must be a plain object`)
  for (const k of Object.keys(v)) {
    if (FORBIDDEN_KEYS.has(k)) fail(`${what} contains the forbidden key "${k}"`)
    if (!allowed.includes(k)) fail(`${what} has an unknown field "${k.slice(0, 40)}"; allowed: ${allowed.join(', ')}`)
  }
  return v as Record<string, unknown>
}

export function num(v: unknown, what: string, min: number, max: number, integer = false): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(`${what} must be a finite number, got ${describe(v)}`)
  if (integer && !Number.isInteger(v)) fail(`${what} must be a whole number, got ${v}`)
  if (v < min || v > max) fail(`${what} must be between ${min} and ${max}, got ${v}`)
  return v
}

export function text(v: unknown, what: string, maxChars: number, minChars = 0): string {
  if (typeof v !== 'string') fail(`${what} must be a text, got ${describe(v)}`)
  if (v.length > maxChars || v.length < minChars) fail(v.length ? `${what} is too long (${v.length} characters, at most ${maxChars})` : `${what} must not be empty`)
  return v
}

export function oneOf<T extends string>(v: unknown, what: string, values: readonly T[]): T {
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) fail(`${what} must be one of ${values.join(', ')}, got ${describe(v)}`)
  return v as T
}

export function list(v: unknown, what: string, max: number, min = 0): unknown[] {
  if (!Array.isArray(v)) fail(`${what} must be a list, got ${describe(v)}`)
  if (v.length > max) fail(`${what} has too many entries (${v.length}, at most ${max})`)
  if (v.length < min) fail(`${what} needs at least ${min} entr${min === 1 ? 'y' : 'ies'}`)
  return v
}

/** An opaque id issued by the back end (handle, workload id, campaign id). */
export function validateId(v: unknown, what: string): string {
  const s = text(v, what, 64, 1)
  if (!ID_PATTERN.test(s)) fail(`${what} is not a valid id`)
  return s
}

/** An absolute file path (Electron hands these from dialogs and drops; never shown to the web page). */
export function validatePath(v: unknown, what = 'the file path'): string {
  const s = text(v, what, MAX_PATH_CHARS, 1)
  if (s.includes('\0')) fail(`${what} contains a NUL character`)
  if (!(s.startsWith('/') || /^[A-Za-z]:[\\/]/.test(s) || s.startsWith('\\\\'))) fail(`${what} must be an absolute path`)
  return s
}

export function args(a: unknown, method: string, max: number, min = max): unknown[] {
  if (!Array.isArray(a)) fail(`${method}: the arguments must be a list`)
  if (a.length > max || a.length < min) fail(`${method} takes ${min === max ? max : `${min} to ${max}`} argument${max === 1 ? '' : 's'}, got ${a.length}`)
  return a
}

export const optional = (v: unknown) => v === undefined || v === null

/** Checks a value is inert plain data (JSON-like) of bounded size; returns a deep copy. */
export function plainData(v: unknown, what: string, limits = { depth: 24, nodes: 2_000_000, chars: 1 << 20 }): unknown {
  let nodes = 0
  const walk = (x: unknown, depth: number): unknown => {
    if (++nodes > limits.nodes) fail(`${what} is too large`)
    if (x === null || typeof x === 'boolean' || typeof x === 'number') return x
    if (typeof x === 'string') return text(x, `a text in ${what}`, limits.chars)
    if (typeof x !== 'object') fail(`${what} contains ${describe(x)}, which is not plain data`)
    if (depth >= limits.depth) fail(`${what} is nested too deeply`)
    if (Array.isArray(x)) return x.map((e) => walk(e, depth + 1))
    const r = record(x, `an object in ${what}`, Object.keys(x))
    const out: Record<string, unknown> = {}
    for (const k of Object.keys(r)) if (r[k] !== undefined) out[k] = walk(r[k], depth + 1)
    return out
  }
  return walk(v, 0)
}

/** A file name to save under: no folders, no control characters. */
export function validateFileName(v: unknown, what = 'the file name'): string {
  const s = text(v, what, 255, 1)
  if (/[/\\\u0000-\u001f\u007f]/.test(s) || s === '.' || s === '..') fail(`${what} must be a plain file name (no folders or control characters)`)
  return s
}
