// Helpers shared by the parser tests.
import type { LogParser, ParsedLog } from '../../src/core/workload/types'

/** Feeds `input` in chunks of `chunk` bytes (all at once by default) and ends the parser. */
export function run(parser: LogParser, input: string | Uint8Array, chunk = Infinity): ParsedLog {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input
  for (let i = 0; i < bytes.length; i += chunk) parser.feed(bytes.subarray(i, i + chunk))
  return parser.end()
}

/** One plain object per job, for readable assertions. */
export function rows(log: ParsedLog) {
  const j = log.jobs
  return Array.from({ length: j.count }, (_, i) => ({
    id: j.id[i], submit: j.submit[i], wait: j.recordedWait[i], runtime: j.runtime[i],
    alloc: j.allocProcs[i], req: j.reqProcs[i], requested: j.requested[i],
    user: j.user[i] < 0 ? null : log.users[j.user[i]], status: j.status[i], line: j.line[i],
  }))
}

/** Deterministic pseudo-random bytes (LCG); `printable` mixes printable characters and newlines. */
export function randomBytes(n: number, seed: number, printable: boolean): Uint8Array {
  const out = new Uint8Array(n)
  let s = seed >>> 0
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    const r = s >>> 24
    out[i] = printable ? (r % 16 === 0 ? 10 : 32 + (r % 95)) : r
  }
  return out
}

/** A valid SWF log of `jobs` jobs (about 60 bytes a line: 150,000 jobs ≈ 9 MB), for tests that
 * need a log large enough to be read in several chunks. */
export function swfLog(jobs: number): string {
  const lines = ['; MaxProcs: 64', '; UnixStartTime: 1000000']
  for (let i = 1; i <= jobs; i++) lines.push(`${i} ${i * 30} 5 ${100 + (i % 500)} 4 -1 -1 4 ${700 + (i % 500)} -1 1 ${i % 40} 1 -1 -1 -1 -1 -1`)
  return lines.join('\n') + '\n'
}
