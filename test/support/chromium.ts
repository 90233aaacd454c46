// Debian's Chromium for the browser tests: where it is, whether CI requires it, the flags, and a
// stopwatch for the timings the suites print.
import { existsSync } from 'node:fs'
import { inCi, skipSuite } from './tools'

export const CHROMIUM = '/usr/bin/chromium'
export const CHROMIUM_PRESENT = existsSync(CHROMIUM)
/** Flags from docs/TOOLCHAIN.md §Real-browser tests (Playwright adds --headless itself). */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync']

/** True when the suite must be skipped (printed with the reason); never under CI (EASYTUNE_CI=1),
 * where the suite runs and requireChromium() fails it. */
export function skipWithoutChromium(suite: string): boolean {
  return skipSuite(suite, CHROMIUM_PRESENT ? null : `${CHROMIUM} is missing (apt-get install chromium)`)
}

/** Throws in a suite's beforeAll when Chromium is missing (reached only under CI). */
export function requireChromium(): void {
  if (!CHROMIUM_PRESENT) throw new Error(`${CHROMIUM} is missing and ${inCi() ? 'EASYTUNE_CI=1 requires it' : 'the suite cannot run'}: install Debian's chromium`)
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
