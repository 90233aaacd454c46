// Debian's Chromium for the browser tests: where it is, whether CI requires it, the flags, and a
// stopwatch for the timings the suites print.
import { existsSync } from 'node:fs'

export const CHROMIUM = '/usr/bin/chromium'
export const CHROMIUM_REQUIRED = process.env.EASYTUNE_REQUIRE_CHROMIUM === '1'
export const CHROMIUM_PRESENT = existsSync(CHROMIUM)
/** Flags from docs/TOOLCHAIN.md §Real-browser tests (Playwright adds --headless itself). */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync']

/** True when the suite must be skipped; says why (CI sets EASYTUNE_REQUIRE_CHROMIUM=1 to fail instead). */
export function skipWithoutChromium(suite: string): boolean {
  if (CHROMIUM_PRESENT || CHROMIUM_REQUIRED) return false
  console.warn(`${suite} skipped: ${CHROMIUM} is missing (apt-get install chromium; CI sets EASYTUNE_REQUIRE_CHROMIUM=1 to make this a failure)`)
  return true
}

/** Throws in a suite's beforeAll when CI requires Chromium and it is missing. */
export function requireChromium(): void {
  if (!CHROMIUM_PRESENT) throw new Error(`EASYTUNE_REQUIRE_CHROMIUM=1 but ${CHROMIUM} is missing: install Debian's chromium`)
}

/** Records how long each named step took, in milliseconds. */
export function stopwatch(): { timings: Record<string, number>; timed: <T>(name: string, f: () => Promise<T>) => Promise<T> } {
  const timings: Record<string, number> = {}
  return {
    timings,
    timed: async (name, f) => {
      const t0 = performance.now()
      try { return await f() } finally { timings[name] = Math.round(performance.now() - t0) }
    },
  }
}
