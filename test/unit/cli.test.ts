import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'
import { thresholdProblem } from '../../src/core/util/duration'
import { SAMPLE, SAMPLE_LOG } from '../support/sample'
// @ts-expect-error: plain JavaScript module without types (bin/ runs before anything is built)
import { requiredNode, satisfies } from '../../bin/node-version.js'

const KTH = SAMPLE_LOG
let dir: string
const file = (name: string, content: string | Uint8Array) => { const p = join(dir, name); writeFileSync(p, content); return p }
const swf = (lines: string[]) => ['; MaxProcs: 8', ...lines].join('\n') + '\n'
const job = (id: number, submit: number, run: number, procs: number, req: number) => `${id} ${submit} -1 ${run} ${procs} -1 -1 ${procs} ${req} -1 1 1 1 -1 -1 -1 -1 -1`

beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'easytune-cli-')) })

describe('easytune CLI conventions', () => {
  it('prints help (exit 0) and rejects unknown commands and flags (exit 2)', async () => {
    const help = await runCli(['--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/simulate <log>/)
    expect((await runCli(['frobnicate'])).code).toBe(2)
    // Names every object has are not commands (a look-up of "constructor" once called Object's).
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const r = await runCli([name])
      expect([r.code, r.stderr], name).toEqual([2, expect.stringMatching(new RegExp(`^easytune: unknown command "${name}"`))])
    }
    for (const flag of ['--constructor', '--__proto__', '--toString=1']) {
      const r = await runCli(['simulate', KTH, flag, 'x'])
      expect([r.code, r.stderr], flag).toEqual([2, expect.stringMatching(new RegExp(`unknown option ${flag.split('=')[0]}`))])
    }
    const bad = await runCli(['simulate', KTH, '--primery', 'SPF'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/unknown option --primery/)
    const noLog = await runCli(['simulate'])
    expect(noLog.code).toBe(2)
    expect(noLog.stderr).toMatch(/needs a log file/)
  })

  it('validates policies, thresholds and numbers with plain-words errors', async () => {
    expect((await runCli(['simulate', KTH, '--primary', 'XYZ'])).stderr).toMatch(/unknown policy "XYZ"; known: FCFS, LCFS/)
    expect((await runCli(['simulate', KTH, '--threshold', '-5'])).stderr).toMatch(/--threshold: "-5" is not a duration; .*, or none for no threshold/)
    expect((await runCli(['simulate', KTH, '--procs', '0'])).code).toBe(2)
    expect((await runCli(['simulate', KTH, '--overrun', 'maybe'])).stderr).toMatch(/--overrun must be one of drop, clamp, keep/)
  })

  it('--json alone prints exactly one JSON document with the promised fields, in seconds', async () => {
    const r = await runCli(['simulate', KTH, '--primary', 'SPF', '--threshold', '20h', '--json'])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.schemaVersion).toBe(1)
    expect(j.config).toEqual({ primary: 'SPF', backfill: 'same', threshold: 72000, tau: 10, compat: 'none' })
    expect(j.jobs).toBe(SAMPLE.jobsKept)
    for (const k of ['avgWait', 'maxWait', 'avgBsld', 'maxBsld', 'utilization', 'waitP50', 'waitP90', 'waitP99', 'makespan']) expect(typeof j[k]).toBe('number')
    expect(j.maxWait).toBeGreaterThan(j.avgWait)
    expect(j.utilization).toBeGreaterThan(0.5)
    expect(j.utilization).toBeLessThan(1)
    expect(j.perUser.length).toBeGreaterThan(100)
  })

  it('--json <file> writes the file and prints the human summary', async () => {
    const out = join(dir, 'r.json')
    const r = await runCli(['simulate', KTH, '--json', out, '--schedule', join(dir, 's.csv')])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/Average wait/)
    expect(JSON.parse(readFileSync(out, 'utf8')).config.primary).toBe('FCFS')
    const csv = readFileSync(join(dir, 's.csv'), 'utf8').trim().split('\n')
    expect(csv[0]).toBe('job_id,submit_s,start_s,end_s,wait_s,procs,requested_s,runtime_s,user,source_line,partition,nodes,cpus,mem_mb,gpus,backfilled')
    expect(csv.length).toBe(SAMPLE.jobsKept + 1)
    // The single pool of an SWF log has no partitions or nodes: those columns stay empty.
    expect(csv[1]).toMatch(/,,,,,,$/)
  })

  it('durations accept 72000, 90m, 20h, 2d; none is no threshold; 0 is refused (it makes every order FCFS)', async () => {
    const t = async (v: string) => JSON.parse((await runCli(['simulate', KTH, '--primary', 'SPF', '--threshold', v, '--json'])).stdout)
    expect((await t('20h')).config.threshold).toBe(72000)
    expect((await t('1200m')).config.threshold).toBe(72000)
    expect((await t('none')).config.threshold).toBeNull()
    // Until issue #18 the CLI accepted 0 (and the wizard refused it): one rule now, thresholdProblem.
    const words = thresholdProblem(0)!
    expect(words).toMatch(/FCFS/)
    for (const [cmd, flag, v] of [['simulate', '--threshold', '0'], ['simulate', '--threshold', '0h'], ['evaluate', '--thresholds', 'none,0'], ['online', '--threshold', '0'], ['mixed', '--threshold', '0s']]) {
      const r = await runCli([cmd, KTH, flag, v])
      expect(r.code, `${cmd} ${flag} ${v}`).toBe(2)
      expect(r.stderr).toContain(`${flag}: ${words}`)
    }
  })

  it('import prints every rule with counts, and --json the same report', async () => {
    const r = await runCli(['import', KTH])
    expect(r.code).toBe(0)
    // counts and first example lines from the plain reading of the file (support/sample.ts)
    for (const rule of ['C7-overrun', 'C4-no-procs']) {
      expect(r.stdout).toMatch(new RegExp(`${rule}\\s+${SAMPLE.removed[rule]}\\s+removed\\s+${SAMPLE.removedLines[rule].slice(0, 2).join(', ')}`))
    }
    expect(r.stdout).toMatch(new RegExp(`${SAMPLE.machine} processors, from the log header \\(MaxProcs\\)`))
    expect(r.stdout).toMatch(/Lars Malinowsky/)
    const j = JSON.parse((await runCli(['import', KTH, '--json'])).stdout)
    expect(j.jobsRead).toBe(SAMPLE.jobsRead)
    expect(j.jobsRead).toBe(28476) // SOURCES.md
    expect(j.jobsKept).toBe(SAMPLE.jobsKept)
  })

  it('policies lists the registry with formulas', async () => {
    const r = await runCli(['policies'])
    expect(r.stdout).toMatch(/LEXP\s+\(wait \+ p̃\) \/ p̃\s+yes/)
    const j = JSON.parse((await runCli(['policies', '--json'])).stdout)
    // the research's 18 in this order; a policy added later appears after them
    expect(j.policies.map((p: { id: string }) => p.id).slice(0, 18)).toEqual(['FCFS', 'LCFS', 'SPF', 'LPF', 'SQF', 'LQF', 'LEXP', 'SEXP', 'LRF', 'SRF', 'LAF', 'SAF', 'WFP3', 'UNICEF', 'F1', 'F2', 'F3', 'F4'])
    expect(j.policies.find((p: { id: string }) => p.id === 'UNICEF')).toMatchObject({ dynamic: true, slurm: { fidelity: 'site factor' }, pbs: { fidelity: 'not exportable' } })
    expect(r.stdout).toMatch(/^F1\s.*not exportable\s+not exportable/m)
  })
})

describe('hostile input: a clear message naming the file, exit 2, never a stack trace or a hang', () => {
  const expectInputError = async (path: string, pattern: RegExp) => {
    const r = await runCli(['import', path])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(path)
    expect(r.stderr).toMatch(pattern)
    expect(r.stderr).not.toMatch(/\n\s+at /)
  }

  it('missing file, folder, empty file', async () => {
    await expectInputError(join(dir, 'nope.swf'), /no such file/)
    mkdirSync(join(dir, 'folder'), { recursive: true })
    await expectInputError(join(dir, 'folder'), /is a folder/)
    await expectInputError(file('empty.swf', ''), /the file is empty/)
    await expectInputError(file('blank.swf', '\n\n  \n'), /empty/)
  })

  it('binary garbage, plain and gzipped', async () => {
    const bytes = new Uint8Array(5000)
    let s = 7
    for (let i = 0; i < bytes.length; i++) bytes[i] = (s = (s * 1103515245 + 12345) >>> 0) >>> 24
    await expectInputError(file('garbage.bin', bytes), /binary/)
    await expectInputError(file('garbage.swf.gz', gzipSync(bytes)), /binary/)
  })

  it('truncated gzip', async () => {
    const gz = readFileSync(KTH)
    await expectInputError(file('trunc.swf.gz', gz.subarray(0, gz.length >> 1)), /gzip data is truncated or corrupt/)
  })

  it('wrong format, and a forced format that does not fit', async () => {
    await expectInputError(file('notes.txt', 'Dear admin,\nthese are my notes.\n'), /cannot tell the log format. The first line is "Dear admin,"/)
    await expectInputError(file('forced.txt', 'Dear admin,\nthese are my notes.\n'), /cannot tell the log format/)
    const r = await runCli(['import', file('sw.swf', swf([job(1, 0, 1, 1, 2)])), '--format', 'pbs'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/sw\.swf/)
  })

  it('a line without any line break longer than 1 MiB', async () => {
    await expectInputError(file('long.swf', '1 '.repeat(600_000)), /longer than 1 MiB/)
  })

  it('a line over 1 MiB inside a file is refused with its line number, even with line breaks after it', async () => {
    await expectInputError(file('long2.swf', swf([job(1, 0, 10, 1, 20), '1 '.repeat(600_000), job(2, 5, 10, 2, 20)])), /line 3 is longer than 1 MiB/)
  })

  it('a sacct export with no time-limit column (as EPCC Cirrus exports it): exit 2 naming --requested-fallback', async () => {
    const p = file('cirrus.csv', 'JobID,NCPUS,NNodes,Submit,Start,End,ElapsedRaw,State\n5312341,756,21,1703688808,1703987306,1704129658,142352,COMPLETED\n')
    await expectInputError(p, /no job was kept.*requested-missing.*--requested-fallback runtime/)
    expect((await runCli(['import', p, '--requested-fallback', 'runtime'])).code).toBe(0)
  })

  it('a submit time beyond what a date holds is a bad line with its reason code, not an internal error', async () => {
    const p = file('far.swf', swf([job(1, 0, 10, 1, 20), job(2, 1e17, 10, 1, 20), job(3, 5, 10, 1, 20).replace(/^3 5 /, '3 1e999 ')]))
    const r = await runCli(['import', p])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/line 3 \(out-of-range\): field 2 \(submit time\)/)
    expect(r.stdout).toMatch(/line 4 \(out-of-range\): field 2 \(submit time\) is 1e999/)
  })

  it('a few malformed lines in a good file are reported with their line numbers and skipped', async () => {
    const p = file('few-bad.swf', swf([job(1, 0, 10, 1, 20), 'this is not a job', job(2, 5, 10, 2, 20), job(3, 6, 10, 2, 20)]))
    const r = await runCli(['import', p])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/Unreadable lines: 1 skipped/)
    expect(r.stdout).toMatch(/line 3 \(not-a-number\): field 1 \("this"\) is not a number/)
    const sim = await runCli(['simulate', p, '--json'])
    expect(JSON.parse(sim.stdout).jobs).toBe(3)
  })

  it('a log with no requested times is not a success: exit 2 with why no job was kept and the fallback to use', async () => {
    const p = file('noreq.swf', swf([job(1, 0, 10, 1, -1), job(2, 5, 10, 2, -1)]))
    await expectInputError(p, /no job was kept: all 2 jobs read were removed by cleaning: 2 requested-missing.*--requested-fallback runtime.*--requested-fallback <duration>/)
    const sim = await runCli(['simulate', p])
    expect(sim.code).toBe(2)
    expect(sim.stderr).toMatch(/no job was kept.*--requested-fallback runtime/)
    const filled = await runCli(['simulate', p, '--requested-fallback', 'runtime', '--json'])
    expect(JSON.parse(filled.stdout).jobs).toBe(2)
  })
})

describe('the installed bin', () => {
  // On a Node older than engines.node the bin refuses to run (test/unit/node-version.test.ts).
  it.skipIf(!satisfies(process.version, requiredNode()))('npx easytune --help works from the checkout (built on prepare)', () => {
    const out = execFileSync(process.execPath, ['bin/easytune.js', '--help'], { encoding: 'utf8' })
    expect(out).toMatch(/^easytune \d+\.\d+\.\d+/)
    const bad = spawnSync(process.execPath, ['bin/easytune.js', 'import', 'does-not-exist.swf'], { encoding: 'utf8' })
    expect(bad.status).toBe(2)
    expect(bad.stderr).toMatch(/does-not-exist\.swf: no such file/)
  })
})

describe('terminal tables', () => {
  it('align columns that hold combining characters such as p̃', async () => {
    const { table } = await import('../../src/cli/output')
    const out = table([['a', 'x'], ['−p̃', 'y']]).split('\n')
    expect(out[0].indexOf('x')).toBe(out[1].indexOf('y') - 1) // p̃ is two code points but one column
  })
})
