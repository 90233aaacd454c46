// Sharded campaigns end to end through the CLI, in-process (docs/CLI.md §Running on a Slurm cluster):
// evaluate --slurm-array writes the plan, run-shard fills it, merge builds the result. The merged
// result must be the local run's byte for byte (for 1, 4 and 16 shards); a missing shard is named
// with the commands that re-run it; an altered or foreign cell file is refused; a re-run after a
// failure computes only what is missing; a changed log is refused naming the file.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, appendFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'
import { SAMPLE_LOG } from '../support/sample'
import { campaignCells, cellKey } from '../../src/core/tune/campaign'
import type { ShardPlan } from '../../src/engine/shards'

// A small campaign: 2 candidates × 2 thresholds + the baseline = 5 cells per (part × real or
// resampled), 4 of those: 20 cells.
const CAMPAIGN = ['--weeks', '4', '--primaries', 'SPF,LPF', '--thresholds', 'none,20h']
const CELLS = 20

let tmp = ''
let local = ''

async function plan(dir: string, shards: number, extra: string[] = [], log = SAMPLE_LOG): Promise<ShardPlan> {
  const r = await runCli(['evaluate', log, ...CAMPAIGN, ...extra, '--slurm-array', dir, '--shards', String(shards), '--workers', '1'])
  expect(r.stderr).toBe('')
  expect(r.code).toBe(0)
  return JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')) as ShardPlan
}

async function shard(dir: string, i: number): Promise<{ code: number; stderr: string }> {
  return runCli(['run-shard', dir, '--shard', String(i), '--workers', '1'])
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'easytune-shards-'))
  const r = await runCli(['evaluate', SAMPLE_LOG, ...CAMPAIGN, '--no-cache', '--workers', '1', '--json', join(tmp, 'local.json')])
  expect(r.code).toBe(0)
  local = readFileSync(join(tmp, 'local.json'), 'utf8')
}, 120_000)

afterAll(() => { if (tmp) rmSync(tmp, { recursive: true, force: true }) })

describe('sharded = local, byte for byte', () => {
  for (const n of [1, 4, 16]) {
    it(`${n} shard${n === 1 ? '' : 's'}`, async () => {
      const dir = join(tmp, `n${n}`)
      const p = await plan(dir, n)
      // every cell of the campaign exactly once, in the campaign's order, dealt round robin
      expect(p.cells.map((c) => c.key)).toEqual(campaignCells(p.request.spec).map(cellKey))
      expect(p.cells.length).toBe(CELLS)
      expect(new Set(p.cells.map((c) => c.key)).size).toBe(CELLS)
      expect(p.cells.map((c) => c.shard)).toEqual(p.cells.map((_, i) => i % n))
      const script = readFileSync(join(dir, 'campaign.sbatch'), 'utf8')
      expect(script).toContain(`#SBATCH --array=0-${n - 1}\n`)
      expect(script).toContain('#SBATCH --cpus-per-task=1\n')
      expect(script).toMatch(/\nexec (\S+ )+run-shard \S+\n$/)
      expect(readFileSync(join(dir, 'merge.sbatch'), 'utf8')).toContain(` merge ${dir} --workers 1 --json ${join(dir, 'result.json')}\n`)
      for (let i = 0; i < n; i++) {
        const r = await shard(dir, i)
        expect(r.code).toBe(0)
        // 20 cells in 16 shards: shards 0–3 have 2, the others 1; in 4 shards 5 each; in 1, 20
        const mine = n === 16 ? (i < 4 ? 2 : 1) : CELLS / n
        expect(r.stderr).toContain(`shard ${i}: ${mine} cells, ${mine} computed, 0 already in`)
      }
      expect(readdirSync(join(dir, 'cells')).sort()).toEqual(Array.from({ length: CELLS }, (_, i) => `${String(i).padStart(5, '0')}.cell`))
      const m = await runCli(['merge', dir, '--workers', '1', '--json', join(dir, 'merged.json')])
      expect(m.stderr).toContain(`merged ${CELLS} cells of ${n} shard`)
      expect(m.code).toBe(0)
      // the whole document, nothing removed: it records no time and no path
      expect(readFileSync(join(dir, 'merged.json'), 'utf8')).toBe(local)
    }, 180_000)
  }
})

describe('a plan folder that is not complete or not intact', () => {
  let dir = ''
  beforeAll(async () => {
    dir = join(tmp, 'broken')
    await plan(dir, 4)
    for (const i of [0, 2]) expect((await shard(dir, i)).code).toBe(0)
  }, 120_000)

  it('names the missing shards and the commands that re-run them alone', async () => {
    const m = await runCli(['merge', dir])
    expect(m.code).toBe(1)
    expect(m.stdout).toBe('')
    expect(m.stderr).toContain('not finished: shard 1 (5 cells missing), shard 3 (5 cells missing)')
    expect(m.stderr).toContain(`easytune run-shard ${dir} --shard 1\n`)
    expect(m.stderr).toContain(`easytune run-shard ${dir} --shard 3\n`)
    expect(m.stderr).toContain(`sbatch --array=1,3 ${join(dir, 'campaign.sbatch')}\n`)
  }, 60_000)

  it('refuses an altered cell and a foreign one, naming the files; a re-run recomputes only those and what is missing', async () => {
    for (const i of [1, 3]) expect((await shard(dir, i)).code).toBe(0)
    const cells = join(dir, 'cells')
    // cell 4 (shard 0): one byte of a metric changed
    const altered = join(cells, '00004.cell')
    const bytes = readFileSync(altered)
    bytes[100] ^= 0x01
    writeFileSync(altered, bytes)
    // cell 8 (shard 0): an intact cell of another plan (another seed) in its place
    const other = join(tmp, 'other')
    await plan(other, 4, ['--seed', '2'])
    expect((await shard(other, 0)).code).toBe(0)
    copyFileSync(join(other, 'cells', '00008.cell'), join(cells, '00008.cell'))
    // cell 6 (shard 2): an intact cell of this plan, but another one (cell 2's file copied over it)
    copyFileSync(join(cells, '00002.cell'), join(cells, '00006.cell'))
    const m = await runCli(['merge', dir])
    expect(m.code).toBe(1)
    expect(m.stderr).toContain('3 cell files refused')
    expect(m.stderr).toContain(`${altered} (cell 4 of shard 0): damaged or altered`)
    expect(m.stderr).toContain(`${join(cells, '00008.cell')} (cell 8 of shard 0): intact, but it holds another cell or a cell of another plan`)
    expect(m.stderr).toContain(`${join(cells, '00006.cell')} (cell 6 of shard 2): intact, but it holds another cell`)
    expect(m.stderr).toContain(`sbatch --array=0,2 ${join(dir, 'campaign.sbatch')}`)
    // the re-run of shard 0 keeps its 3 good cells and computes the 2 refused ones again
    const kept = statSync(join(cells, '00000.cell')).mtimeMs
    const r = await shard(dir, 0)
    expect(r.code).toBe(0)
    expect(r.stderr).toContain('shard 0: 5 cells, 2 computed, 3 already in')
    expect(r.stderr).toContain(`${altered} (damaged): refused and computed again`)
    expect(statSync(join(cells, '00000.cell')).mtimeMs).toBe(kept)
    expect((await shard(dir, 2)).stderr).toContain('shard 2: 5 cells, 1 computed, 4 already in')
    const ok = await runCli(['merge', dir, '--workers', '1', '--json', join(dir, 'merged.json')])
    expect(ok.code).toBe(0)
    expect(readFileSync(join(dir, 'merged.json'), 'utf8')).toBe(local)
  }, 180_000)

  it('re-runs after a failure: a shard killed half way computes only its missing cells', async () => {
    // shard 3 lost two of its cells (3 and 19: the task was killed before writing them)
    rmSync(join(dir, 'cells', '00003.cell'))
    rmSync(join(dir, 'cells', '00019.cell'))
    const r = await shard(dir, 3)
    expect(r.stderr).toContain('shard 3: 5 cells, 2 computed, 3 already in')
    // and with nothing missing, nothing runs
    expect((await shard(dir, 3)).stderr).toContain('shard 3: 5 cells, 0 computed, 5 already in')
  }, 60_000)

  it('refuses a plan edited by hand, a shard out of range and a missing shard number', async () => {
    expect((await runCli(['run-shard', dir, '--shard', '4'])).stderr).toContain('shard 4 does not exist: this plan has shards 0 to 3')
    const none = await runCli(['run-shard', dir])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('SLURM_ARRAY_TASK_ID')
    const edited = join(tmp, 'edited')
    await plan(edited, 2)
    const text = readFileSync(join(edited, 'plan.json'), 'utf8')
    writeFileSync(join(edited, 'plan.json'), text.replace('"seed": 1', '"seed": 3'))
    const r = await shard(edited, 0)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${join(edited, 'plan.json')}: the plan was changed after easytune wrote it`)
  }, 60_000)
})

describe('the log', () => {
  it('is checked against the plan: a changed file is refused by name', async () => {
    const log = join(tmp, 'kth.swf.gz')
    copyFileSync(SAMPLE_LOG, log)
    const dir = join(tmp, 'changed')
    const p = await plan(dir, 2, [], log)
    expect(p.log.files).toEqual([{ path: resolve(log), sha256: p.log.fingerprint }])
    appendFileSync(log, Buffer.from([0]))
    const r = await shard(dir, 0)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${resolve(log)}: the log changed since the plan was written`)
    expect(readdirSync(join(dir, 'cells'))).toEqual([])
  }, 60_000)
})

describe('usage', () => {
  it('refuses more shards than cells, and --shards or --submit without --slurm-array', async () => {
    const r = await runCli(['evaluate', SAMPLE_LOG, ...CAMPAIGN, '--slurm-array', join(tmp, 'many'), '--shards', '21'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('this campaign has 20 cells: it cannot be split into 21 shards')
    expect((await runCli(['evaluate', SAMPLE_LOG, '--shards', '2'])).code).toBe(2)
    expect((await runCli(['evaluate', SAMPLE_LOG, '--slurm-array', join(tmp, 'x')])).stderr).toContain('--slurm-array needs --shards N')
  }, 60_000)

  it('--submit runs sbatch for the array, then for the merge with afterok on the array\'s job id; a refusal is said', async () => {
    const bin = join(tmp, 'fake-bin')
    mkdirSync(bin, { recursive: true })
    const calls = join(tmp, 'sbatch-calls')
    // a stand-in sbatch: records its arguments; answers "41;cluster" then "42" as --parsable does
    writeFileSync(join(bin, 'sbatch'), `#!/bin/sh\necho "$*" >> ${calls}\nif [ -n "$FAIL_SBATCH" ]; then echo "sbatch: error: Batch job submission failed: Invalid account" >&2; exit 1; fi\nif grep -q dependency ${calls}; then echo 42; else echo "41;cluster"; fi\n`, { mode: 0o755 })
    const path = process.env.PATH
    process.env.PATH = `${bin}:${path}`
    try {
      const dir = join(tmp, 'submitted')
      const r = await runCli(['evaluate', SAMPLE_LOG, ...CAMPAIGN, '--slurm-array', dir, '--shards', '2', '--workers', '1', '--submit'])
      expect(r.code).toBe(0)
      expect(r.stdout).toContain('Submitted: array job 41 (2 tasks), merge job 42 after it (afterok).')
      expect(readFileSync(calls, 'utf8')).toBe(`--parsable ${join(dir, 'campaign.sbatch')}\n--parsable --dependency=afterok:41 ${join(dir, 'merge.sbatch')}\n`)
      process.env.FAIL_SBATCH = '1'
      const f = await runCli(['evaluate', SAMPLE_LOG, ...CAMPAIGN, '--slurm-array', join(tmp, 'refused'), '--shards', '2', '--workers', '1', '--submit'])
      expect(f.code).toBe(1)
      expect(f.stderr).toContain('failed (exit 1): sbatch: error: Batch job submission failed: Invalid account')
      expect(f.stderr).toContain('The plan folder is written; submit it by hand:')
    } finally {
      process.env.PATH = path
      delete process.env.FAIL_SBATCH
    }
  }, 60_000)

  it('refuses a plan folder whose path has a blank; writes a % in it as %% in the output patterns', async () => {
    const blank = await runCli(['evaluate', SAMPLE_LOG, ...CAMPAIGN, '--slurm-array', join(tmp, 'my plans'), '--shards', '2'])
    expect(blank.code).toBe(2)
    expect(blank.stderr).toBe(`${join(tmp, 'my plans')}: the plan folder's path must have no blanks, quotes or backslashes (the batch scripts name it in their #SBATCH lines): choose another folder\n`)
    const dir = join(tmp, '100%')
    await plan(dir, 2)
    const script = readFileSync(join(dir, 'campaign.sbatch'), 'utf8')
    expect(script).toContain(`#SBATCH --output=${join(tmp, '100%%', 'logs')}/shard-%a.out\n`)
    expect(script).toContain(`run-shard ${dir}\n`)
  }, 60_000)

  it('says where no plan is, and how to write one', async () => {
    const r = await runCli(['merge', join(tmp, 'no-plan-here')])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${join(tmp, 'no-plan-here', 'plan.json')}: no plan here`)
    expect(r.stderr).toContain('Write one first: easytune evaluate <log> … --slurm-array <dir> --shards N')
  })

  it('--submit with no sbatch on the PATH says so and keeps the plan folder', async () => {
    const path = process.env.PATH
    process.env.PATH = join(tmp, 'no-such-bin')
    try {
      const dir = join(tmp, 'submit')
      const r = await runCli(['evaluate', SAMPLE_LOG, ...CAMPAIGN, '--slurm-array', dir, '--shards', '2', '--workers', '1', '--submit'])
      expect(r.code).toBe(1)
      expect(r.stderr).toContain('sbatch is not on this machine\'s PATH')
      expect(r.stderr).toContain(`jobid=$(sbatch --parsable ${join(dir, 'campaign.sbatch')})`)
      expect(statSync(join(dir, 'plan.json')).isFile()).toBe(true)
    } finally {
      process.env.PATH = path
    }
  }, 60_000)
})
