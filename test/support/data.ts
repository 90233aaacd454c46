// Where the tests find logs. Two kinds, kept apart on purpose:
// - fixtures: small excerpts committed in test/fixtures (sources in its README). The unit, golden
//   and property suites read only these, so they run from a bare checkout.
// - the real logs: ../shared/data beside the checkout (or $EASYTUNE_DATA), read only by the
//   real-log suites (test/reallogs). Missing → those tests are skipped with the reason locally,
//   and fail under CI (EASYTUNE_CI=1), which always has them.
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TestContext } from 'vitest'
import { skipOrFail } from './tools'

const REPO = fileURLToPath(new URL('../..', import.meta.url))

/** The shared real logs: $EASYTUNE_DATA, else ../shared/data beside the checkout. */
export const DATA_DIR = resolve(REPO, process.env.EASYTUNE_DATA ?? '../shared/data')

/** A real log under DATA_DIR; when it is missing the test is skipped (locally) or fails (CI). */
export function requireData(ctx: TestContext, rel: string): string {
  const p = resolve(DATA_DIR, rel)
  skipOrFail(ctx, existsSync(p) ? null : `real log ${p} is missing (put the shared logs in ../shared/data beside the checkout, or set EASYTUNE_DATA)`)
  return p
}

/** A committed fixture under test/fixtures; a missing one is a broken checkout, so it throws. */
export function fixture(rel: string): string {
  const p = resolve(REPO, 'test/fixtures', rel)
  if (!existsSync(p)) throw new Error(`test fixture ${p} is missing from the checkout`)
  return p
}
