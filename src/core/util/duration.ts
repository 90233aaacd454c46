/** Durations as users type them: `72000` (seconds), `90s`, `90m`, `20h`, `2d`, `1w`, `1.5h`. */
export function parseDuration(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([smhdw]?)\s*$/i.exec(text)
  if (!m) throw new Error(`"${text}" is not a duration; use seconds or a number with s, m, h, d or w (e.g. 72000, 90m, 20h, 2d)`)
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400, w: 604800 }[m[2].toLowerCase() as '' | 's' | 'm' | 'h' | 'd' | 'w']
  return Number(m[1]) * unit
}

/** A threshold: `none` means no threshold (null) and is never the same as 0. */
export function parseThreshold(text: string): number | null {
  return text.trim().toLowerCase() === 'none' ? null : parseDuration(text)
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

export function formatThreshold(t: number | null): string {
  return t === null ? 'none' : formatDuration(t)
}
