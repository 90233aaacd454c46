// The CLI as a real process, for tests that send it a signal (only a real process receives one):
// bundled with vite into node_modules/.cache, and a large overloaded SWF log whose replays take
// seconds, so that progress shows and Ctrl-C lands in the middle of the work.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { build } from 'vite'

/** Bundles src/cli/main.ts into a fresh folder of node_modules/.cache named `prefix…`; `runner` is
 * a script to run with node: `node runner <command> <args…>` (the caller removes `dir`). */
export async function bundleCli(prefix: string): Promise<{ dir: string; runner: string }> {
  mkdirSync(resolve('node_modules/.cache'), { recursive: true })
  const dir = mkdtempSync(resolve(`node_modules/.cache/${prefix}`))
  await build({
    configFile: false, logLevel: 'warn',
    build: { ssr: resolve('src/cli/main.ts'), outDir: dir, target: 'node20', minify: false, rolldownOptions: { output: { entryFileNames: 'easytune.js', format: 'es' } } },
  })
  const runner = join(dir, 'run.mjs')
  writeFileSync(runner, "import { main } from './easytune.js'\nprocess.exitCode = await main(process.argv.slice(2))\n")
  return { dir, runner }
}

/**
 * Writes a 200,000-job SWF log on 64 processors, one job every 0–19 s (9.5 s on average), each
 * 60–1,859 s on 1–64 processors: about 960 s × 32.5 processors = 31,000 processor-seconds asked per
 * 9.5 s while the machine offers 64 × 9.5 = 608, i.e. about 50 times the machine (far over 100 %).
 * `users`: users 1–50 in turn (else unknown); `requested(p)`: the requested time of a job of runtime p.
 */
export function writeOverloadedLog(path: string, o: { seed: number; unixStartTime?: number; users: boolean; requested: (p: number) => number }): void {
  const lines = ['; MaxProcs: 64', ...(o.unixStartTime === undefined ? [] : [`; UnixStartTime: ${o.unixStartTime}`])]
  let seed = o.seed
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
  let submit = 0
  for (let i = 1; i <= 200_000; i++) {
    submit += Math.floor(rnd() * 20)
    const q = 1 + Math.floor(rnd() * 64), p = 60 + Math.floor(rnd() * 1800)
    // fields 10–13: requested memory, status, user, group
    const user = o.users ? `${1 + (i % 50)} 1 ${1 + (i % 50)} 1` : '-1 1 1 1'
    lines.push(`${i} ${submit} -1 ${p} ${q} -1 -1 ${q} ${o.requested(p)} ${user} -1 -1 -1 -1 -1`)
  }
  writeFileSync(path, lines.join('\n') + '\n')
}

export interface InterruptedRun {
  /** stderr when the progress line was first seen ('' if the process ended before). */
  atProgress: string
  /** Exit code, stdout and stderr once it ended. */
  code: number | null
  stdout: string
  stderr: string
  /** Milliseconds from SIGINT to the end (NaN when it ended before any progress). */
  msToExit: number
}

/** Runs `node runner …args`, waits until stderr matches `progress`, sends SIGINT (Ctrl-C) and waits
 * for the end; the process is killed whatever happens. */
export async function interruptAtProgress(runner: string, args: string[], progress: RegExp): Promise<InterruptedRun> {
  const child = spawn(process.execPath, [runner, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = '', stderr = ''
  child.stdout.on('data', (d: Buffer) => { stdout += d })
  let sawProgress: () => void = () => {}
  const seen = new Promise<void>((r) => { sawProgress = r })
  child.stderr.on('data', (d: Buffer) => { stderr += d; if (progress.test(stderr)) sawProgress() })
  let ended = false
  const exit = new Promise<number | null>((r) => child.on('close', (code) => { ended = true; sawProgress(); r(code) }))
  try {
    await seen
    if (ended) return { atProgress: '', code: await exit, stdout, stderr, msToExit: NaN }
    const atProgress = stderr
    const sent = performance.now()
    child.kill('SIGINT')
    const code = await exit
    return { atProgress, code, stdout, stderr, msToExit: performance.now() - sent }
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
}
