// Ordering by predicted runtime, as exported for Slurm (docs/PREDICTIONS.md §Deployment): the
// generated periodic script run for real (sh + awk, with fake squeue/sacct/scontrol on PATH) on a
// hand-made accounting history gives the site factors worked out by hand; job_submit.lua gives a
// new job the script's no-history value; the script and the simulator's 'order' mode predict the
// same; the simulator's 'order' mode on a hand-worked schedule; the merge keeps the site's other
// priority settings.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { exportPredictedOrder, PRED_OFFSET, predictedSiteFactor, PREDICTED_JSON_FILE, PREDICTED_README_FILE, PREDICTED_SCRIPT_FILE } from '../../src/core/export/predicted'
import { FIDELITY_CONFIGS, outsideWindowShare, predictedOrderFidelity, type PredictedOrderFidelity } from '../../src/core/export/predicted-fidelity'
import { parseSlurmConf } from '../../src/core/export/slurm-conf'
import { EasySimulator } from '../../src/core/sim/easy'
import type { SimConfig, SimJobs } from '../../src/core/sim/types'
import { requireTool } from '../support/tools'
import { writeJobSubmitRunner } from '../support/job-submit-runner'
import { runCli } from '../support/cli'
import { loadWorkload } from '../../src/cli/common'
import { DEFAULTS } from '../../src/core/defaults'

const dir = mkdtempSync(join(tmpdir(), 'easytune-predicted-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const bin = join(dir, 'bin')
mkdirSync(bin, { recursive: true })
const stub = (name: string, body: string) => writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`, { mode: 0o755 })
const files = (b: { files: { name: string; content: string }[] }) => Object.fromEntries(b.files.map((f) => [f.name, f.content]))
const script = files(exportPredictedOrder())[PREDICTED_SCRIPT_FILE]
writeFileSync(join(dir, 'predicted.sh'), script)

/** Runs the generated script with `squeue`/`sacct` printing the given text (sacct exits `sacctStatus`). */
function run(queue: string, hist: string, opts: { sacctStatus?: number; env?: Record<string, string>; script?: string; now?: number } = {}) {
  const log = join(dir, 'scontrol.log'), args = join(dir, 'sacct.args')
  rmSync(log, { force: true }); rmSync(args, { force: true })
  writeFileSync(join(dir, 'queue.txt'), queue); writeFileSync(join(dir, 'hist.txt'), hist)
  stub('squeue', `cat '${join(dir, 'queue.txt')}'`)
  stub('sacct', `echo "$@" > '${args}'\n${opts.sacctStatus ? `echo boom >&2; exit ${opts.sacctStatus}` : `cat '${join(dir, 'hist.txt')}'`}`)
  stub('scontrol', `echo "$@" >> '${log}'`)
  stub('date', opts.now === undefined ? 'exit 1' : `echo ${opts.now}`)
  const r = spawnSync('sh', [opts.script ?? join(dir, 'predicted.sh')], { encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, ...opts.env } })
  const read = (f: string) => { try { return readFileSync(f, 'utf8') } catch { return null } }
  const updates = (read(log) ?? '').trim().split('\n').filter(Boolean).map((l) => {
    const m = /^update JobId=(\d+) SiteFactor=(\d+)$/.exec(l)
    if (!m) throw new Error(`unexpected scontrol call: ${l}`)
    return [Number(m[1]), Number(m[2])] as [number, number]
  })
  return { status: r.status, stderr: r.stderr, updates: Object.fromEntries(updates), sacctArgs: read(args) }
}

// sacct --parsable2: JobIDRaw|User|Start|End|ElapsedRaw|State (times as epoch seconds)
const HISTORY = [
  '1|alice|900|1000|100|COMPLETED',
  '2|alice|1700|2000|300|TIMEOUT',
  '5|alice|4000|5000|1000|FAILED',
  '6|alice|Unknown|3000|0|CANCELLED by 1000', // never started: not a runtime
  '7|alice|5500|Unknown|0|RUNNING',
  '3|bob|1450|1500|50|COMPLETED',
  '4|dave|1500|2500|1000|COMPLETED',
  '8|dave|2300|2500|200|COMPLETED',
  '9|dave|2100|2500|400|COMPLETED', // three jobs end at 2500: the two highest ids are the last two
  '10|erin|8000|8000|0|COMPLETED',
  'JobIDRaw|User|Start|End|ElapsedRaw|State', // a header line, should sacct print one
  '',
].join('\n')
// squeue: JobId|SubmitTime|TimeLimit|User
const QUEUE = [
  '101|2500|1:00:00|alice', // history by 2500: 100, 300 → 200 s
  '102|6000|10:00|alice', // last two by 6000: 1000, 300 → 650 s, capped at the 600 s limit
  '103|500|UNLIMITED|alice', // no history yet: the limit, 7 days for none
  '104|2000|2-00:00:00|bob', // one job: 50 s
  '105|1000|5|bob', // bob's job ended at 1500, after this submission: the limit, 5 min
  '106|9000|1:30:00|carol', // never ran anything: 5400 s
  '107|3000|1:00:00|dave', // ids 9 and 8: (400 + 200) / 2 = 300 s
  '108|9000|1:00:00|erin', // one job of 0 s: floored at 1 s
  '',
].join('\n')

describe('the exported predicted-order script (run for real)', () => {
  it('sets each pending job\'s site factor to 1e9 − 2 × its AVE₂ prediction, worked by hand', () => {
    const r = run(QUEUE, HISTORY)
    expect(r.status, r.stderr).toBe(0)
    expect(r.updates).toEqual({
      101: 1e9 - 400, 102: 1e9 - 1200, 103: 1e9 - 2 * 604_800, 104: 1e9 - 100,
      105: 1e9 - 600, 106: 1e9 - 10_800, 107: 1e9 - 600, 108: 1e9 - 2,
    })
    // shortest prediction first: 108 (1 s), 104 (50 s), 101 (200 s), 105/107 (300 s), 102, 106, 103
    const order = Object.entries(r.updates).sort((a, b) => b[1] - a[1]).map(([id]) => Number(id))
    expect(order).toEqual([108, 104, 101, 105, 107, 102, 106, 103])
  })

  it('asks sacct for allocations of the pending users only, over the history window', () => {
    const r = run(QUEUE, HISTORY)
    const a = r.sacctArgs!.trim().split(' ')
    expect(a).toContain('--allocations')
    expect(a).toContain('--parsable2')
    expect(a).toContain('--user=alice,bob,carol,dave,erin')
    expect(a).toContain('--starttime=now-30days')
    expect(a).toContain('--format=JobIDRaw,User,Start,End,ElapsedRaw,State')
    expect(run(QUEUE, HISTORY, { env: { EASYTUNE_HISTORY_DAYS: '7' } }).sacctArgs).toContain('--starttime=now-7days')
    const bad = run(QUEUE, HISTORY, { env: { EASYTUNE_HISTORY_DAYS: '7; rm -rf /' } })
    expect(bad.status).toBe(2)
    expect(bad.sacctArgs).toBeNull()
  })

  it('changes nothing when sacct fails, and says so', () => {
    const r = run(QUEUE, HISTORY, { sacctStatus: 1 })
    expect(r.status).toBe(1)
    expect(r.updates).toEqual({})
    expect(r.stderr).toContain('sacct failed: nothing updated')
  })

  it('with an empty queue, asks sacct nothing; with no history at all, orders by time limit', () => {
    const empty = run('', HISTORY)
    expect(empty.status).toBe(0)
    expect(empty.sacctArgs).toBeNull()
    expect(empty.updates).toEqual({})
    const none = run('201|100|30:00|zoe\n202|100|1:00|zoe\n', '')
    expect(none.updates).toEqual({ 201: 1e9 - 3600, 202: 1e9 - 120 })
  })

  it('with a threshold, lifts the jobs that waited longer above every prediction, oldest first', () => {
    const path = join(dir, 'predicted-theta.sh')
    writeFileSync(path, files(exportPredictedOrder({ threshold: 4000 }))[PREDICTED_SCRIPT_FILE])
    // now = 6000: 103 (submitted 500) and 105 (1000) waited 5500 and 5000 s > 4000: 2e9 + wait;
    // 101 waited 3500, 104 4000 (not strictly longer): their predictions as without a threshold
    const r = run(QUEUE, HISTORY, { script: path, now: 6000 })
    expect(r.status, r.stderr).toBe(0)
    expect(r.updates).toMatchObject({ 103: 2e9 + 5500, 105: 2e9 + 5000, 101: 1e9 - 400, 104: 1e9 - 100, 102: 1e9 - 1200 })
    // a failing clock updates nothing
    const bad = run(QUEUE, HISTORY, { script: path })
    expect(bad.status).toBe(1)
    expect(bad.updates).toEqual({})
    expect(() => exportPredictedOrder({ threshold: -1 })).toThrow(/whole number of seconds/)
  })

  it('job_submit.lua gives a new job the value the script gives a user without history', (ctx) => {
    const lua = requireTool(ctx, ['lua5.1', 'lua'], 'apt-get install -y lua5.1')
    writeFileSync(join(dir, 'job_submit.lua'), files(exportPredictedOrder())['job_submit.lua'])
    // cpus, time limit (minutes; NO_VAL = unset), submit time
    writeFileSync(join(dir, 'jobs.txt'), '1 60 1000\n4 90 1000\n1 4294967294 1000\n')
    const r = spawnSync(lua, [writeJobSubmitRunner(dir), join(dir, 'job_submit.lua'), join(dir, 'jobs.txt')], { encoding: 'utf8' })
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout.trim().split('\n').map(Number)).toEqual([1e9 - 7200, 1e9 - 10_800, 1e9 - 2 * 604_800])
    expect(predictedSiteFactor(3600)).toBe(1e9 - 7200)
  })
})

/** Jobs in submit order: [user, submit, runtime, requested, procs]. */
function jobs(rows: [number, number, number, number, number][]): SimJobs & { user: Int32Array } {
  return {
    count: rows.length,
    user: Int32Array.from(rows.map((r) => r[0])), submit: Float64Array.from(rows.map((r) => r[1])),
    runtime: Float64Array.from(rows.map((r) => r[2])), requested: Float64Array.from(rows.map((r) => r[3])), procs: Int32Array.from(rows.map((r) => r[4])),
  }
}
const ORDER = FIDELITY_CONFIGS.deployable as SimConfig
function simulate(j: SimJobs, m: number, config: SimConfig) {
  const sim = new EasySimulator(j, m, config, {})
  sim.runUntil(Infinity)
  return sim
}

describe('the simulator\'s ordering by prediction (what the script deploys)', () => {
  it('orders the whole queue by AVE₂ at submission, ties by submit time', () => {
    // m = 1. j0 (A) runs 0–10, j1 (B) 10–40. By t = 20, A has one finished job (10 s), B none.
    // Waiting at 40: j2 C no history → 60; j3 A → 10; j4 B (j1 still running at 20) → 300; j5 A → 10.
    // Order: j3 (10, t 20), j5 (10, t 30), j2 (60), j4 (300): j3 40–90, j5 90–95, j2 95–100, j4 100.
    const j = jobs([[0, 0, 10, 500, 1], [1, 0, 30, 500, 1], [2, 20, 5, 60, 1], [0, 20, 50, 400, 1], [1, 20, 8, 300, 1], [0, 30, 5, 700, 1]])
    const sim = simulate(j, 1, ORDER)
    expect(Array.from(sim.start)).toEqual([0, 10, 95, 40, 100, 90])
    expect(Array.from(sim.predictions)).toEqual([500, 500, 60, 10, 300, 10])
    // EASY-FCFS on the same jobs: submit order.
    expect(Array.from(simulate(j, 1, FIDELITY_CONFIGS.today as SimConfig).start)).toEqual([0, 10, 40, 45, 95, 103])
  })

  it('plans the reservation and the backfill test on the time limit, not the prediction', () => {
    // m = 2. j0 (A) 0–10 gives A a 10 s history; j1 (B) runs 0–100 (limit 100).
    // At 20: j2 (A, 2 procs, prediction 10) is the head, blocked: reservation at 100 (j1's limit).
    // j3 (A, prediction 10, limit 90) would end at 20 + 90 = 110 > 100 on its limit: no backfill;
    // planning on its prediction (20 + 10 ≤ 100) would backfill it at 20.
    const j = jobs([[0, 0, 10, 10, 1], [1, 0, 100, 100, 1], [0, 20, 50, 1000, 2], [0, 20, 30, 90, 1]])
    const sim = simulate(j, 2, ORDER)
    expect(Array.from(sim.predictions)).toEqual([10, 100, 10, 10])
    expect(Array.from(sim.start)).toEqual([0, 0, 100, 150])
    expect(simulate(j, 2, FIDELITY_CONFIGS.planned as SimConfig).start[3]).toBe(20)
  })

  it('with a threshold, a job that waited longer than it runs first whatever its prediction', () => {
    // m = 1; j0 runs 0–1000. j1 (B, no history → 500) waits from 10, j2 (C → 100) from 20.
    // No threshold: j2 first (1000–1005), then j1. Θ = 900: at 1000 j1 waited 990 > 900 and j2
    // 980 > 900: both promoted, oldest first: j1 1000–1050, j2 1050. Θ = 985: only j1 promoted.
    const j = jobs([[0, 0, 1000, 1000, 1], [1, 10, 50, 500, 1], [2, 20, 5, 100, 1]])
    expect(Array.from(simulate(j, 1, ORDER).start)).toEqual([0, 1005, 1000])
    expect(Array.from(simulate(j, 1, { ...ORDER, threshold: 900 }).start)).toEqual([0, 1000, 1050])
    expect(Array.from(simulate(j, 1, { ...ORDER, threshold: 985 }).start)).toEqual([0, 1000, 1050])
    expect(Array.from(simulate(j, 1, { ...ORDER, threshold: 995 }).start)).toEqual([0, 1005, 1000])
  })

  it('the script predicts what the simulator predicted, given the simulated ends as the accounting', () => {
    // A small busy workload of 4 users; every job listed as pending at its submit time.
    const rows: [number, number, number, number, number][] = []
    for (let i = 0; i < 40; i++) rows.push([i % 4, i * 37, 20 + ((i * 53) % 400) + (i % 7), 60 * (2 + ((i * 11) % 15)), 1 + (i % 3)])
    const j = jobs(rows)
    const sim = simulate(j, 4, ORDER)
    const end = (k: number) => sim.start[k] + j.runtime[k]
    const ends = rows.map((_, k) => end(k))
    expect(new Set(ends).size).toBe(rows.length) // no two jobs end at once: the order of ties is not at stake
    const T0 = 1_800_000_000
    const hist = rows.map((r, k) => `${k + 1}|u${r[0]}|${T0 + sim.start[k]}|${T0 + end(k)}|${j.runtime[k]}|COMPLETED`).join('\n') + '\n'
    const limit = (s: number) => `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:00`
    const queue = rows.map((r, k) => `${1000 + k}|${T0 + r[1]}|${limit(r[3])}|u${r[0]}`).join('\n') + '\n'
    const r = run(queue, hist)
    expect(r.status, r.stderr).toBe(0)
    const expected = Object.fromEntries(rows.map((_, k) => [1000 + k, predictedSiteFactor(sim.predictions[k])]))
    expect(r.updates).toEqual(expected)
    expect(rows.some((_, k) => sim.predictions[k] < j.requested[k])).toBe(true) // history was used
  })

  it('counts the jobs whose prediction the history window changes', () => {
    // One user; ends at 10, 20 (jobs 0, 1 start at 0). Job 2 submitted at 2 days + 15: its last two
    // ended at 20 and 10, 1-day window → both outside: changed. Job 3 at 2 days + 16, after job 2
    // ended (2 d + 15 + 5): one end inside, one (20) outside: changed. Job 4 (user -1): never.
    const D = 86_400
    const j = jobs([[0, 0, 10, 100, 1], [0, 0, 20, 100, 1], [0, 2 * D + 15, 1, 100, 1], [0, 2 * D + 16, 1, 100, 1], [-1, 2 * D + 17, 1, 100, 1]])
    const start = Float64Array.from([0, 0, 2 * D + 15, 2 * D + 16, 2 * D + 17])
    expect(outsideWindowShare(j, start, 1)).toBe(2 / 5)
    expect(outsideWindowShare(j, start, 3)).toBe(0)
  })
})

describe('the predicted-order export', () => {
  const fidelity: PredictedOrderFidelity = {
    jobs: 1000, machineProcs: 64, tau: 10, threshold: null, withUser: 1, historyDays: 30, outsideWindow: 0.015,
    today: { avgWait: 6000, avgBsld: 80, maxWait: 200_000 }, byLimit: { avgWait: 5000, avgBsld: 30, maxWait: 900_000 }, deployable: { avgWait: 4500, avgBsld: 40, maxWait: 800_000 },
    planned: { avgWait: 6500, avgBsld: 75, maxWait: 210_000 }, easyPlusPlus: { avgWait: 6300, avgBsld: 60, maxWait: 250_000 },
  }

  it('merges into the site\'s slurm.conf keeping fair-share, QOS and its other settings, and says what they weigh', () => {
    const conf = [
      'ClusterName=c', 'PriorityType=priority/multifactor', 'PriorityWeightFairshare=10000', 'PriorityWeightQOS=5000',
      'PriorityDecayHalfLife=7-0', 'JobSubmitPlugins=require_timelimit', 'SchedulerParameters=bf_interval=60,default_queue_depth=200',
      'NodeName=n[1-4] CPUs=16', 'PartitionName=p Nodes=n[1-4] Default=YES MaxTime=2-00:00:00', '',
    ].join('\n')
    const b = exportPredictedOrder({ currentConf: conf, fidelity, maxRequested: 3600 })
    const merged = parseSlurmConf(files(b)['slurm.conf'])
    const get = (k: string) => merged.get(k)?.value
    expect(get('PriorityWeightFairshare')).toBe('10000')
    expect(get('PriorityWeightQOS')).toBe('5000')
    expect(get('PriorityDecayHalfLife')).toBe('7-0')
    expect(get('JobSubmitPlugins')!.split(',')).toEqual(expect.arrayContaining(['require_timelimit', 'lua']))
    expect(get('SchedulerParameters')!.split(',')).toEqual(expect.arrayContaining(['bf_interval=60', 'default_queue_depth=200', 'bf_job_part_count_reserve=1', 'bf_window=2880']))
    expect(get('PriorityWeightAge') ?? '0').toBe('0') // Slurm's default when unset: no age term
    // 15,000 points at 2 per second: predictions within 7,500 s = 2.08 h can swap
    expect(b.approximate).toContain('15000')
    expect(b.approximate).toContain('2.08 h')
    expect(b.approximate).toContain('no weight of its own')
    expect(b.lost).toEqual([])
  })

  it('states the fidelity in the README, the fragment and the JSON, and where nothing was measured', () => {
    const b = exportPredictedOrder({ fidelity })
    const f = files(b)
    for (const text of [f[PREDICTED_README_FILE], f['slurm.conf.easytune']]) {
      expect(text).toContain('25.0% of the wait and 50.0% of the bounded slowdown removed')
      expect(text).toContain('1.5% of the jobs would be predicted differently with 30 days')
      expect(text).toContain('has a lower average wait and bounded slowdown than EASY++')
      expect(text).toContain('the prediction has a lower average wait and a higher bounded slowdown than ordering by the limits')
    }
    expect(JSON.parse(f[PREDICTED_JSON_FILE])).toMatchObject({ kind: 'easytune-predicted-order', historyDays: 30, siteFactor: { offset: PRED_OFFSET, pointsPerSecond: 2 }, fidelity })
    expect(b.predictedOrder).toEqual(fidelity)
    expect(files(exportPredictedOrder())[PREDICTED_README_FILE]).toContain('Fidelity not measured')
    // the fragment switches off the site's priority terms, and says so first
    expect(f['slurm.conf.easytune']).toMatch(/OVERRIDES these site policies:\n#   - PriorityWeightFairshare=0/)
    expect(f[PREDICTED_SCRIPT_FILE].startsWith('#!/bin/sh\n')).toBe(true)
  })

  it('replays a log into the four figures, the deployable one being the simulator\'s order mode', () => {
    const rows: [number, number, number, number, number][] = []
    for (let i = 0; i < 60; i++) rows.push([i % 5, i * 29, 30 + ((i * 71) % 500), 60 * (5 + ((i * 7) % 20)), 1 + (i % 4)])
    const j = jobs(rows)
    const f = predictedOrderFidelity(j, 4, 30)
    const wait = (c: SimConfig) => { const s = simulate(j, 4, c).start; let w = 0; for (let k = 0; k < j.count; k++) w += s[k] - j.submit[k]; return w / j.count }
    expect(f.deployable.avgWait).toBeCloseTo(wait(ORDER), 9)
    expect(f.today.avgWait).toBeCloseTo(wait(FIDELITY_CONFIGS.today as SimConfig), 9)
    expect(f.byLimit.avgWait).toBeCloseTo(wait({ primary: 'SPF', backfill: 'same', threshold: null }), 9)
    expect(f.deployable.avgWait).not.toBe(f.today.avgWait)
    expect(f.outsideWindow).toBe(0) // the whole log spans less than an hour
    expect(f.withUser).toBe(1)
    const anonymous = predictedOrderFidelity({ ...j, user: new Int32Array(j.count).fill(-1) }, 4, 30)
    expect(anonymous.withUser).toBe(0)
    expect(anonymous.deployable).toEqual(anonymous.byLimit) // no history: the prediction is the limit
    expect(files(exportPredictedOrder({ fidelity: anonymous }))[PREDICTED_README_FILE]).toContain('The log records no users')
    const t = predictedOrderFidelity(j, 4, 30, 600)
    expect(t.threshold).toBe(600)
    expect(t.deployable.avgWait).toBeCloseTo(wait({ ...ORDER, threshold: 600 }), 9)
    expect(t.today).toEqual(f.today)
    expect(() => exportPredictedOrder({ fidelity: t })).toThrow(/another threshold/)
    expect(files(exportPredictedOrder({ fidelity: t, threshold: 600 }))[PREDICTED_README_FILE]).toContain('jobs that waited longer than 10 min run first')
  })
})

describe('easytune export <log> --predicted-order', () => {
  it('writes the files and the replayed fidelity; its flags are refused without it', async () => {
    const out = join(dir, 'cli-out')
    const r = await runCli(['export', 'resources/KTH-SP2-1996-2.1-cln.swf.gz', '--predicted-order', '--threshold', '20h', '--out', out, '--json'])
    expect(r.code, r.stderr).toBe(0)
    const doc = JSON.parse(r.stdout)
    expect(doc.files.map((f: { name: string }) => f.name).sort()).toEqual([PREDICTED_README_FILE, PREDICTED_SCRIPT_FILE, PREDICTED_JSON_FILE, 'job_submit.lua', 'slurm.conf.easytune'].sort())
    expect(doc.predictedOrder.threshold).toBe(72_000)
    expect(doc.predictedOrder.jobs).toBeGreaterThan(20_000)
    for (const k of ['today', 'byLimit', 'deployable', 'planned', 'easyPlusPlus']) expect(doc.predictedOrder[k].avgWait).toBeGreaterThan(0)
    // the command replays in slices (progress, Ctrl-C): the same figures as the replays in one go
    const quiet = { out: () => {}, err: () => {}, tty: false }
    const w = await loadWorkload(quiet, { paths: ['resources/KTH-SP2-1996-2.1-cln.swf.gz'], label: 'KTH' }, {})
    expect(doc.predictedOrder).toEqual(JSON.parse(JSON.stringify(predictedOrderFidelity(w.jobs, w.machineProcs, DEFAULTS.predictedOrderHistoryDays.value, 72_000))))
    expect(readFileSync(join(out, PREDICTED_SCRIPT_FILE), 'utf8')).toContain('-v now="$now" -v theta=72000')
    const usage = await runCli(['export', 'x.json', '--target', 'slurm', '--out', out, '--threshold', '20h'])
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain('--threshold only applies with --predicted-order')
    const pbs = await runCli(['export', 'resources/KTH-SP2-1996-2.1-cln.swf.gz', '--predicted-order', '--target', 'pbs', '--out', out])
    expect(pbs.code).toBe(2)
  })
})
