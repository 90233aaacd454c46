// `easytune learn` stops on Ctrl-C (SIGINT) with exit code 130 and nothing on stdout, saying that
// finished tuples stay in the cache. A real process (only a real process receives a signal), running
// the CLI bundle built by the global set-up.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

describe('easytune learn on Ctrl-C', () => {
  let dir = ''
  let runner = ''
  let log = ''

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'easytune-learn-sigint-'))
    runner = join(dir, 'run.mjs')
    writeFileSync(runner, `import { main } from ${JSON.stringify(pathToFileURL(resolve('out/cli/easytune.js')).href)}\nprocess.exitCode = await main(process.argv.slice(2))\n`)
    const lines = ['; MaxProcs: 64']
    let seed = 11, submit = 0
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
    for (let i = 1; i <= 400; i++) {
      submit += Math.floor(rnd() * 40)
      const q = 1 + Math.floor(rnd() * 16), p = 60 + Math.floor(rnd() * 1800)
      lines.push(`${i} ${submit} -1 ${p} ${q} -1 -1 ${q} ${p * 3} -1 1 ${1 + (i % 20)} 1 -1 -1 -1 -1 -1`)
    }
    log = join(dir, 'log.swf')
    writeFileSync(log, lines.join('\n') + '\n')
  })
  afterAll(() => { if (dir) rmSync(dir, { recursive: true, force: true }) })

  it('exits 130 within a few seconds, nothing on stdout', async () => {
    // 1,000 tuples with a ceiling no tuple reaches: even if every tuple stops early, the run outlasts the test.
    const child = spawn(process.execPath, [runner, 'learn', log, '--trials', '1000000000', '--tuples', '1000', '--workers', '1', '--no-cache', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = '', err = ''
    child.stdout.on('data', (d: Buffer) => { out += d })
    let started: () => void = () => {}
    const begun = new Promise<void>((r) => { started = r })
    child.stderr.on('data', (d: Buffer) => { err += d; if (/^learn: 1,000 tuples/m.test(err)) started() })
    const exit = new Promise<number | null>((r) => child.on('close', (code) => { started(); r(code) }))
    try {
      await begun
      await new Promise((r) => setTimeout(r, 1500))
      const sent = performance.now()
      child.kill('SIGINT')
      const code = await exit
      expect(code, err).toBe(130)
      expect(performance.now() - sent).toBeLessThan(5000)
      expect(err).toMatch(/interrupted: finished tuples and a checkpoint of the running ones are kept in the cache; run the same command again to resume\.\n$/)
      expect(out).toBe('')
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  }, 60_000)
})
