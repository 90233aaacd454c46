// `easytune export <log> --predicted-order` shows the progress of its fidelity replays on stderr
// (docs/CLI.md §Output) and stops on Ctrl-C (SIGINT) with exit code 130, "interrupted.", nothing on
// stdout and no file written, within a few seconds. A real process (bundled as
// test/unit/walltimes-interrupt.test.ts does), since only a real process receives a signal.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FIDELITY_REPLAYS } from '../../src/core/export/predicted-fidelity'

describe('easytune export --predicted-order on a large overloaded log', () => {
  let bundleDir = ''
  let runner = ''
  let log = ''

  beforeAll(async () => {
    mkdirSync(resolve('node_modules/.cache'), { recursive: true })
    bundleDir = mkdtempSync(resolve('node_modules/.cache/easytune-export-predicted-test-'))
    await build({
      configFile: false, logLevel: 'warn',
      build: { ssr: resolve('src/cli/main.ts'), outDir: bundleDir, target: 'node20', minify: false, rolldownOptions: { output: { entryFileNames: 'easytune.js', format: 'es' } } },
    })
    runner = join(bundleDir, 'run.mjs')
    writeFileSync(runner, "import { main } from './easytune.js'\nprocess.exitCode = await main(process.argv.slice(2))\n")
    // 200,000 jobs on 64 processors, about 50 times what the machine offers (the arithmetic is in
    // simulate-progress-cli.test.ts): the queue grows without end and each replay takes seconds.
    const lines = ['; MaxProcs: 64']
    let seed = 11
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
    let submit = 0
    for (let i = 1; i <= 200_000; i++) {
      submit += Math.floor(rnd() * 20)
      const q = 1 + Math.floor(rnd() * 64), p = 60 + Math.floor(rnd() * 1800)
      lines.push(`${i} ${submit} -1 ${p} ${q} -1 -1 ${q} ${p * 3} ${1 + (i % 50)} 1 ${1 + (i % 50)} 1 -1 -1 -1 -1 -1`)
    }
    log = join(bundleDir, 'overloaded.swf')
    writeFileSync(log, lines.join('\n') + '\n')
  }, 120_000)
  afterAll(() => { if (bundleDir) rmSync(bundleDir, { recursive: true, force: true }) })

  it('shows the fidelity replays\' progress and Ctrl-C ends it with 130', async () => {
    const out = join(bundleDir, 'out')
    const child = spawn(process.execPath, [runner, 'export', log, '--predicted-order', '--out', out, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = '', err = ''
    child.stdout.on('data', (d: Buffer) => { stdout += d })
    let sawProgress: () => void = () => {}
    const progress = new Promise<void>((r) => { sawProgress = r })
    child.stderr.on('data', (d: Buffer) => { err += d; if (/fidelity replay 1 of .* jobs started/.test(err)) sawProgress() })
    const exit = new Promise<number | null>((r) => child.on('close', (code) => { sawProgress(); r(code) }))
    try {
      await progress
      expect(err).toMatch(new RegExp(`fidelity replay 1 of ${FIDELITY_REPLAYS.length} \\(today\\): [\\d,]+ of 200,000 jobs started \\(\\d+\\.\\d%\\)\\n`))
      const sent = performance.now()
      child.kill('SIGINT')
      const code = await exit
      expect(code, err).toBe(130)
      expect(performance.now() - sent).toBeLessThan(3000)
      expect(err).toMatch(/interrupted\.\n$/)
      expect(stdout).toBe('')
      expect(existsSync(out)).toBe(false)
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  }, 120_000)
})
