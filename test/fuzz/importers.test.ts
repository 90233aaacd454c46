// Issue #20's standing check: a seeded fuzz run through every importer (SWF, sacct, jobcomp, PBS)
// on mutated excerpts of real logs. Each case must end as its mutation implies (harness.ts): no
// exception but an InputError, every line it broke rejected with its number and the reason code
// the mutation implies, nothing else rejected, and each case within a time bound. `npm test` runs
// 10,000 cases with a fixed seed; `npm run fuzz -- --seed N --cases M` runs more
// (FUZZ_SEED / FUZZ_CASES). Every fourth case is also parsed in line-aligned chunks of 4–12 KiB, as
// the parse threads do, which must give the sequential parse exactly (issue #24).
import { describe, expect, it } from 'vitest'
import { check, chunkedProblem, loadCorpora, makeCase, rng } from './harness'

const SEED = Number(process.env.FUZZ_SEED ?? 20)
const CASES = Number(process.env.FUZZ_CASES ?? 10_000)
/** No case may take longer (a hang or a quadratic path shows here; the largest case is a 1 MiB line). */
const CASE_MS = 2_000

describe(`importer fuzz (seed ${SEED}, ${CASES} cases)`, () => {
  it('every mutation of every real-log excerpt is answered as it implies', () => {
    const corpora = loadCorpora()
    const r = rng(SEED)
    const failures: string[] = []
    const kinds = new Map<string, number>()
    let slowest = 0
    let compared = 0, chunkedCases = 0
    for (let n = 0; n < CASES; n++) {
      const corpus = corpora[n % corpora.length]
      const k = makeCase(r, corpus)
      const t0 = performance.now()
      const problem = check(k)
      const ms = performance.now() - t0
      if (n % 4 === 0) {
        const chunked = chunkedProblem(k, 4096 + ((n * 7919) % 8192))
        if (chunked !== null) { chunkedCases++; if (failures.length < 20) failures.push(`case ${n} (${corpus.name}, ${k.what}): ${chunked}`) }
        compared++
      }
      slowest = Math.max(slowest, ms)
      const kind = k.what.split(/[: ]/)[0]
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1)
      if (ms > CASE_MS) failures.push(`case ${n} (${corpus.name}, ${k.what}) took ${ms.toFixed(0)} ms`)
      if (problem !== null && failures.length < 20) failures.push(`case ${n} (${corpus.name}, ${k.what}): ${problem}`)
    }
    expect(failures, `seed ${SEED}: rerun with FUZZ_SEED=${SEED}`).toEqual([])
    expect(slowest).toBeLessThan(CASE_MS)
    expect(chunkedCases).toBe(0)
    expect(compared).toBe(Math.ceil(CASES / 4))
    // Every kind of mutation was drawn (the harness cannot silently stop making one).
    expect(kinds.get('field')).toBeGreaterThan(CASES * 0.4)
    for (const k of ['CR', 'CRLF', 'mixed', 'LF', 'three', 'cut', 'line']) expect(kinds.get(k) ?? 0, k).toBeGreaterThan(0)
  }, Math.max(120_000, CASES * 5))
})
