/** Durations as users type them: `72000` (seconds), `90s`, `90m`, `20h`, `2d`, `1w`, `1.5h`. */
export function parseDuration(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([smhdw]?)\s*$/i.exec(text)
  if (!m) throw new Error(`"${text}" is not a duration; use seconds or a number with s, m, h, d or w (e.g. 72000, 90m, 20h, 2d)`)
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400, w: 604800 }[m[2].toLowerCase() as '' | 's' | 'm' | 'h' | 'd' | 'w']
  return Number(m[1]) * unit
}

/** Largest threshold accepted from a person (about 31.7 years): beyond it, write none. */
export const MAX_THRESHOLD_SECONDS = 1e9

/**
 * The one threshold rule, applied wherever a person or a file gives a threshold (CLI flags, the
 * API's schemas, the wizard, project files): `null` is "no threshold"; otherwise a finite number of
 * seconds, > 0 and ≤ MAX_THRESHOLD_SECONDS. 0 is refused: it would promote every waiting job at
 * once, which is FCFS whatever the order (the simulator itself still accepts 0, which is how the
 * property tests check exactly that). Returns the problem in words, or null when the value is fine.
 */
export function thresholdProblem(t: number | null): string | null {
  if (t === null) return null
  if (typeof t !== 'number' || !Number.isFinite(t)) return `a threshold must be a number of seconds or none, got ${String(t)}`
  if (t === 0) return 'a threshold of 0 s promotes every waiting job at once, which is FCFS whatever the order: write none for no threshold, or a positive duration'
  if (t < 0) return `a threshold must be positive, got ${t} s`
  if (t > MAX_THRESHOLD_SECONDS) return `a threshold must be at most ${MAX_THRESHOLD_SECONDS} s (write none for no threshold), got ${t} s`
  return null
}

/** A threshold as typed: `none` means no threshold (null) and is never the same as 0; the value
 * must pass thresholdProblem (an Error with its words otherwise). */
export function parseThreshold(text: string): number | null {
  let t: number | null
  try {
    t = text.trim().toLowerCase() === 'none' ? null : parseDuration(text)
  } catch (e) {
    throw new Error(`${(e as Error).message}, or none for no threshold`)
  }
  const problem = thresholdProblem(t)
  if (problem) throw new Error(problem)
  return t
}

/** 72000 → "20 h", 200000 → "2.31 d", 90 → "90 s" (for people; JSON keeps seconds). */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return String(seconds)
  const a = Math.abs(seconds)
  const f = (v: number, u: string) => `${Number(v.toFixed(v >= 100 ? 0 : v >= 10 ? 1 : 2))} ${u}`
  if (a < 120) return f(seconds, 's')
  if (a < 2 * 3600) return f(seconds / 60, 'min')
  if (a < 2 * 86400) return f(seconds / 3600, 'h')
  return f(seconds / 86400, 'd')
}

/** A threshold as a person would type it, exactly (72000 → "20h", 5400 → "90m", 200001 →
 * "200001", null → "none"): parseThreshold reads it back to the same value. */
export function thresholdInput(t: number | null): string {
  if (t === null) return 'none'
  if (t !== 0 && t % 3600 === 0) return `${t / 3600}h`
  if (t !== 0 && t % 60 === 0) return `${t / 60}m`
  return String(t)
}

export function formatThreshold(t: number | null): string {
  return t === null ? 'none' : formatDuration(t)
}
