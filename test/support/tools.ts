// What a test needs from the machine (an interpreter, a daemon, the real logs) and what happens
// when it is missing: locally the test is SKIPPED with the reason printed (never a silent pass);
// under CI (.ci/run sets EASYTUNE_CI=1) it FAILS, because CI installs everything it requires.
import { spawnSync } from 'node:child_process'
import type { TestContext } from 'vitest'

/** True under .ci/run: a missing tool or data set is then a failure, not a skip. Read on each
 * call, so a test can check both behaviours. */
export function inCi(): boolean {
  return process.env.EASYTUNE_CI === '1'
}

/** True when `cmd` is on PATH (sbin included: slurmctld and munged live there). */
export function onPath(cmd: string): boolean {
  const PATH = `${process.env.PATH ?? ''}:/usr/sbin:/sbin`
  return spawnSync('sh', ['-c', 'command -v "$1"', 'sh', cmd], { stdio: 'ignore', env: { ...process.env, PATH } }).status === 0
}

/**
 * Stops the current test because `missing` (a sentence saying what is missing and how to get it)
 * is missing: skipped with the reason locally, failed under CI. Returns normally when `missing`
 * is null.
 */
export function skipOrFail(ctx: TestContext, missing: string | null): void {
  if (missing === null) return
  if (inCi()) throw new Error(`${missing} — EASYTUNE_CI=1 (CI) requires it, so this test fails instead of skipping`)
  console.warn(`SKIPPED "${ctx.task.name}": ${missing}`)
  ctx.skip(missing)
}

/**
 * The first of `candidates` found on PATH (e.g. ['luac5.1', 'luac']). When none is, the test is
 * skipped locally or fails under CI (see skipOrFail); `install` says how to get one.
 */
export function requireTool(ctx: TestContext, candidates: readonly string[], install: string): string {
  const found = candidates.find(onPath)
  if (found !== undefined) return found
  skipOrFail(ctx, `${candidates.join(' or ')} not found on PATH (${install})`)
  throw new Error('unreachable: skipOrFail returned for a missing tool')
}

/**
 * For a whole suite that cannot start without something (Chromium, Slurm, Electron): true when
 * it must be skipped, after printing why. Under CI (when `requiredInCi`) it never skips, so the
 * suite runs and its beforeAll fails with the reason.
 */
export function skipSuite(suite: string, missing: string | null, requiredInCi = true): boolean {
  if (missing === null || (inCi() && requiredInCi)) return false
  console.warn(`SKIPPED ${suite}: ${missing}`)
  return true
}
