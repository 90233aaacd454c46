// `easytune predictions` stops on Ctrl-C (SIGINT) with exit code 130, keeps no partial result on
// stdout, and says that finished triples stay in the cache. A real process (only a real process
// receives a signal), running the CLI bundle built by the global set-up.
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

describe('easytune predictions on Ctrl-C', () => {
  let dir = ''
  let runner = ''
  const logs: string[] = []

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'easytune-predictions-sigint-'))
    runner = join(dir, 'run.mjs')
    writeFileSync(runner, `import { main } from ${JSON.stringify(pathToFileURL(resolve('out/cli/easytune.js')).href)}\nprocess.exitCode = await main(process.argv.slice(2))\n`)
    // A small log first (its end is the signal to interrupt), then a long one still running then.
    for (const [name, n] of [['small.swf', 50], ['large.swf', 150_000]] as const) {
      const lines = ['; MaxProcs: 64']
      let seed = 11, submit = 0
      const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
      for (let i = 1; i <= n; i++) {
        submit += Math.floor(rnd() * 40)
        const q = 1 + Math.floor(rnd() * 16), p = 60 + Math.floor(rnd() * 1800)
        lines.push(`${i} ${submit} -1 ${p} ${q} -1 -1 ${q} ${p * 3} -1 1 ${1 + (i % 20)} 1 -1 -1 -1 -1 -1`)
      }
      const p = join(dir, name)
      writeFileSync(p, lines.join('\n') + '\n')
      logs.push(p)
    }
  })
  afterAll(() => { if (dir) rmSync(dir, { recursive: true, force: true }) })

  it('exits 130 within a few seconds, nothing on stdout, the finished log in the cache', async () => {
    const cache = join(dir, 'cache')
    const child = spawn(process.execPath, [runner, 'predictions', ...logs, '--predictors', 'requested,clairvoyant,ave2', '--workers', '1', '--cache-dir', cache, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = '', err = ''
    child.stdout.on('data', (d: Buffer) => { out += d })
    let firstLogDone: () => void = () => {}
    const logged = new Promise<void>((r) => { firstLogDone = r })
    child.stderr.on('data', (d: Buffer) => { err += d; if (/small\.swf: 10 triples done after .*; 0% of the campaign/.test(err)) firstLogDone() })
    const exit = new Promise<number | null>((r) => child.on('close', (code) => { firstLogDone(); r(code) }))
    try {
      await logged
      const sent = performance.now()
      child.kill('SIGINT')
      const code = await exit
      expect(code, err).toBe(130)
      expect(performance.now() - sent).toBeLessThan(5000)
      expect(err).toMatch(/interrupted: finished triples are kept in the cache; run the same command again to resume\.\n$/)
      expect(out).toBe('')
      expect(readdirSync(cache).filter((f) => f.endsWith('.pred.json')).length).toBeGreaterThanOrEqual(10)
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  }, 120_000)
})
