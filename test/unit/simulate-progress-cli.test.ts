// Issue #20: `easytune simulate` on a large overloaded log shows its progress on stderr (jobs
// started of the total, the simulated date), warns about the load before it starts, and stops on
// Ctrl-C (SIGINT) with exit code 130 and "interrupted." within a few seconds. The CLI runs as a
// real process (bundled into node_modules/.cache as test/server/serve-command.test.ts does), since
// only a real process receives a signal.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

describe('easytune simulate on a large overloaded log', () => {
  let bundleDir = ''
  let runner = ''
  let log = ''

  beforeAll(async () => {
    mkdirSync(resolve('node_modules/.cache'), { recursive: true })
    bundleDir = mkdtempSync(resolve('node_modules/.cache/easytune-simulate-test-'))
    await build({
      configFile: false, logLevel: 'warn',
      build: { ssr: resolve('src/cli/main.ts'), outDir: bundleDir, target: 'node20', minify: false, rolldownOptions: { output: { entryFileNames: 'easytune.js', format: 'es' } } },
    })
    runner = join(bundleDir, 'run.mjs')
    writeFileSync(runner, "import { main } from './easytune.js'\nprocess.exitCode = await main(process.argv.slice(2))\n")
    // 200,000 jobs on 64 processors, one every 0–19 s (9.5 s on average), each 60–1,859 s on
    // 1–64 processors: about 960 s × 32.5 processors = 31,000 processor-seconds asked per 9.5 s
    // while the machine offers 64 × 9.5 = 608, i.e. about 50 times the machine (far over 100 %).
    const lines = ['; MaxProcs: 64', '; UnixStartTime: 1000000000']
    let seed = 7
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
    let submit = 0
    for (let i = 1; i <= 200_000; i++) {
      submit += Math.floor(rnd() * 20)
      const q = 1 + Math.floor(rnd() * 64), p = 60 + Math.floor(rnd() * 1800)
      lines.push(`${i} ${submit} -1 ${p} ${q} -1 -1 ${q} ${p + 600} -1 1 1 1 -1 -1 -1 -1 -1`)
    }
    log = join(bundleDir, 'overloaded.swf')
    writeFileSync(log, lines.join('\n') + '\n')
  }, 120_000)
  afterAll(() => { if (bundleDir) rmSync(bundleDir, { recursive: true, force: true }) })

  it('warns about the load, shows progress on stderr, and Ctrl-C ends it with 130 within a few seconds', async () => {
    const child = spawn(process.execPath, [runner, 'simulate', log, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = '', err = ''
    child.stdout.on('data', (d: Buffer) => { out += d })
    let sawProgress: () => void = () => {}
    const progress = new Promise<void>((r) => { sawProgress = r })
    child.stderr.on('data', (d: Buffer) => { err += d; if (/simulating: .* jobs started/.test(err)) sawProgress() })
    const exit = new Promise<number | null>((r) => child.on('close', (code) => { sawProgress(); r(code) }))
    try {
      await progress
      expect(err).toMatch(/^easytune: warning: The jobs ask for \d+ % of the machine .*give the real machine size with --procs\.\n/)
      // jobs started of the total, the simulated date (the log has a Unix start time), a share
      expect(err).toMatch(/simulating: [\d,]+ of 200,000 jobs started, simulated date 2001-\d\d-\d\d \d\d:\d\d UTC \(\d+\.\d%\)\n/)
      const sent = performance.now()
      child.kill('SIGINT')
      const code = await exit
      expect(code, err).toBe(130)
      expect(performance.now() - sent).toBeLessThan(3000)
      expect(err).toMatch(/interrupted\.\n$/)
      expect(out).toBe('') // no partial result on stdout
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  }, 120_000)
})
