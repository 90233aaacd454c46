// The machine flags end to end (docs/CLUSTER.md §Inputs): simulate on a cluster file, on a
// slurm.conf under Slurm's scheduling, the schedule's resource columns, evaluate --current-conf
// (the baseline is the current configuration, as simulated) and export merging into the
// slurm.conf the result recorded, without being given it again.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'
import { SAMPLE_LOG } from '../support/sample'
import { KTH_SITE_CONF as SITE_CONF } from '../support/site-conf' // KTH's 100 processors with the site's own scheduling

const KTH = SAMPLE_LOG // 100 processors
let dir: string
const file = (name: string, content: string) => { const p = join(dir, name); writeFileSync(p, content); return p }

// KTH's 100 processors as 100 one-CPU nodes in one partition: the single pool's granularity.
const POOL_CONF = ['SelectType=select/cons_tres', 'SelectTypeParameters=CR_CPU', 'NodeName=k[001-100] CPUs=1', 'PartitionName=sp2 Nodes=k[001-100] Default=YES'].join('\n') + '\n'

beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'easytune-cluster-cli-')) })

describe('the machine flags', () => {
  it('--cluster: EASY on one-CPU nodes is the research\'s EASY on the pool (same waits), and the schedule has the resource columns', async () => {
    const pool = JSON.parse((await runCli(['simulate', KTH, '--primary', 'SPF', '--json'])).stdout)
    const r = await runCli(['simulate', KTH, '--primary', 'SPF', '--cluster', file('pool.conf', POOL_CONF), '--json', '--schedule', join(dir, 's.csv')])
    expect(r.code, r.stderr).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.machine).toMatchObject({ kind: 'cluster', scheduler: 'easy', nodes: 100, cpus: 100, source: 'slurm.conf' })
    expect(pool.machine).toMatchObject({ kind: 'pool', cpus: 100 })
    expect(j.avgWait).toBe(pool.avgWait)
    expect(j.avgBsld).toBe(pool.avgBsld)
    const csv = readFileSync(join(dir, 's.csv'), 'utf8').trim().split('\n')
    expect(csv[0].split(',').slice(-6)).toEqual(['partition', 'nodes', 'cpus', 'mem_mb', 'gpus', 'backfilled'])
    // Every row names the partition and its CPUs; SWF jobs have no node count (0: spread over any nodes).
    for (const row of csv.slice(1, 50)) expect(row).toMatch(/,sp2,0,\d+,0,0,[01]$/)
  })

  it('the import report says what a Slurm log lacks for the cluster and what each lack costs', async () => {
    const r = await runCli(['import', join(process.cwd(), 'test/fixtures/slurm/rackham-jobcomp-excerpt.txt')])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/the log gives: [^\n]*node list[^\n]*\. It lacks:/)
    expect(r.stdout).toMatch(/^- GPUs: GPUs per job are unknown: GPU jobs are simulated as CPU jobs$/m)
  })

  it('an SWF log keeps its header: the single pool, even when field 16 numbers partitions', async () => {
    const job = (id: number, submit: number, part: number) => `${id} ${submit} -1 100 2 -1 -1 2 200 -1 1 1 1 -1 -1 ${part} -1 -1`
    const log = file('parts.swf', ['; MaxProcs: 8', job(1, 0, 1), job(2, 10, 2), job(3, 20, 1)].join('\n') + '\n')
    const j = JSON.parse((await runCli(['simulate', log, '--json'])).stdout)
    expect(j.machine).toMatchObject({ kind: 'pool', cpus: 8 })
  })

  it('--slurm-conf: Slurm\'s scheduling by default, --scheduler easy overrides; bad combinations are refused in words (exit 2)', async () => {
    const conf = file('site.conf', SITE_CONF)
    const slurm = JSON.parse((await runCli(['simulate', KTH, '--slurm-conf', conf, '--json'])).stdout)
    expect(slurm.machine).toMatchObject({ kind: 'cluster', scheduler: 'slurm' })
    const easy = JSON.parse((await runCli(['simulate', KTH, '--slurm-conf', conf, '--scheduler', 'easy', '--json'])).stdout)
    expect(easy.machine.scheduler).toBe('easy')
    // bf_job_part_count_reserve=1 is EASY per partition, yet Slurm's periodic cycle and whole-node
    // rules are not the idealised EASY's: the two schedules differ.
    expect(slurm.avgWait).not.toBe(easy.avgWait)
    const both = await runCli(['simulate', KTH, '--slurm-conf', conf, '--cluster', conf])
    expect([both.code, both.stderr]).toEqual([2, expect.stringMatching(/--cluster and --slurm-conf each give the machine/)])
    const noMachine = await runCli(['simulate', KTH, '--scheduler', 'slurm'])
    expect([noMachine.code, noMachine.stderr]).toEqual([2, expect.stringMatching(/--scheduler slurm needs a machine/)])
    const ocst = await runCli(['simulate', KTH, '--cluster', conf, '--compat', 'ocst'])
    expect([ocst.code, ocst.stderr]).toEqual([2, expect.stringMatching(/single-pool rule/)])
    const broken = await runCli(['simulate', KTH, '--cluster', file('broken.conf', 'NodeName=k[1-\nPartitionName=x Nodes=ALL\n')])
    expect(broken.code).toBe(2)
    expect(broken.stderr).toMatch(/broken\.conf/)
  })

  it('evaluate --current-conf: the baseline is the current configuration as simulated; export merges into it without being given it', async () => {
    const conf = file('current.conf', SITE_CONF)
    const out = join(dir, 'result.json')
    const r = await runCli(['evaluate', KTH, '--current-conf', conf, '--primaries', 'SPF', '--thresholds', 'none', '--weeks', '2', '--seed', '3', '--no-cache', '--json', out])
    expect(r.code, r.stderr).toBe(0)
    const j = JSON.parse(readFileSync(out, 'utf8'))
    expect(j.schemaVersion).toBe(3)
    expect(j.machine).toMatchObject({ kind: 'cluster', scheduler: 'slurm', conf: { file: conf, current: true } })
    expect(j.machine.conf.text).toBe(SITE_CONF)
    expect(j.candidates[0]).toMatchObject({ baseline: true, label: 'current configuration' })
    // The candidates already ran as deployed: the as-deployed figures are the recommendation's own.
    // SPF cuts KTH's waits by far more than the minimum gain: a switch, so there is a merge to check.
    expect(j.recommendation.verdict).toBe('switch')
    expect(j.recommendation.asDeployed).toMatchObject({ same: true, differs: false })
    expect(r.stdout).toMatch(/current configuration baseline/)
    const x = await runCli(['export', out, '--target', 'slurm', '--out', join(dir, 'export'), '--json'])
    expect(x.code, x.stderr).toBe(0)
    const bundle = JSON.parse(x.stdout)
    expect(bundle.files.map((f: { name: string }) => f.name)).toContain('slurm.conf')
    const merged = readFileSync(join(dir, 'export', 'slurm.conf'), 'utf8')
    expect(merged).toMatch(/^PriorityWeightFairshare=10000$/m) // the site's fair-share kept
    expect(merged).toMatch(/^PriorityWeightQOS=5000$/m)
    expect(bundle.notes.join(' ')).toMatch(/Merged into the slurm\.conf the evaluation simulated/)
    // Slurm's own settings were candidates too, one change each from the current values; the
    // settings the site's scheduling cannot feel (fair-share and age without slurmdbd) are not, nor
    // the QOS weight: KTH's jobs have no QOS, so it adds the same 0 to every priority.
    const family = j.candidates.filter((c: { candidate: { slurm?: object } }) => c.candidate.slurm).map((c: { label: string }) => c.label)
    expect(family).toEqual(expect.arrayContaining(['Slurm bf_job_part_count_reserve=0', 'Slurm bf_window=2160', 'Slurm bf_window=8640', 'Slurm bf_interval=15']))
    expect(family.some((l: string) => /PriorityWeightFairshare|PriorityWeightAge|PriorityMaxAge|PriorityWeightQOS/.test(l))).toBe(false)
    expect(j.protocol.candidates).toContainEqual({ primary: 'FCFS', backfill: 'same', slurm: 'bf_interval=15' })
    // Recommending one of them exports exactly that change merged into the recorded slurm.conf.
    const i = j.candidates.findIndex((c: { label: string }) => c.label === 'Slurm bf_interval=15')
    writeFileSync(join(dir, 'family.json'), JSON.stringify({ ...j, recommended: i, recommendation: { ...j.recommendation, verdict: 'switch' } }))
    const fx = await runCli(['export', join(dir, 'family.json'), '--target', 'slurm', '--out', join(dir, 'family'), '--json'])
    expect(fx.code, fx.stderr).toBe(0)
    const fb = JSON.parse(fx.stdout)
    expect(fb.files.map((f: { name: string }) => f.name)).toEqual(['slurm.conf'])
    expect(fb.changes).toEqual([expect.objectContaining({ setting: 'SchedulerParameters', from: 'bf_job_part_count_reserve=1,bf_window=4320', to: 'bf_job_part_count_reserve=1,bf_window=4320,bf_interval=15' })])
    const fconf = readFileSync(join(dir, 'family', 'slurm.conf'), 'utf8')
    expect(fconf).toMatch(/^SchedulerParameters=bf_job_part_count_reserve=1,bf_window=4320,bf_interval=15\s+# EasyTune: was/m)
    expect(fconf).toMatch(/^PriorityWeightFairshare=10000$/m) // nothing else changed
    expect(fconf).not.toMatch(/JobSubmitPlugins|PriorityWeightPartition/)
  })
  it('evaluate --current-conf searches several of the site\'s settings at once on train; its best change is one more candidate, exported exactly', async () => {
    const conf = file('search.conf', SITE_CONF)
    const run = async (budget: string, workers: string) => {
      const out = join(dir, `search-${budget}-${workers}.json`)
      const r = await runCli(['evaluate', KTH, '--current-conf', conf, '--primaries', 'SPF', '--thresholds', 'none', '--weeks', '2', '--seed', '3', '--no-cache', '--workers', workers, '--slurm-search-budget', budget, '--json', out])
      expect(r.code, r.stderr).toBe(0)
      return { j: JSON.parse(readFileSync(out, 'utf8')), stderr: r.stderr }
    }
    const { j, stderr } = await run('10', '1')
    const search = j.protocol.slurmSearch
    // The settings that act on SITE_CONF's scheduling and KTH's jobs: the backfill parameters (fair-share
    // and age need slurmdbd, which this configuration does not have; the QOS weight acts on no job
    // of a log without QOS).
    expect(search).toMatchObject({ budget: 10, settings: ['bf_job_part_count_reserve', 'bf_window', 'bf_max_job_test', 'bf_interval'] })
    expect(search.evaluations).toBeLessThanOrEqual(10)
    // Its objective is the campaign's: today's configuration scores the baseline's train mean.
    expect(search.currentObjective).toBeCloseTo(j.candidates[0].train.mean, 6)
    expect(search.trace[0]).toBe(search.currentObjective)
    expect(stderr).toMatch(/after searching the site's Slurm settings: \d+ points/)
    if (search.best !== null) {
      const label = `Slurm ${Object.entries(search.best).map(([k, v]) => `${k}=${v}`).join(', ')}`
      const i = j.candidates.findIndex((c: { label: string }) => c.label === label)
      expect(i).toBeGreaterThan(0)
      expect(j.candidates[i].candidate.slurm).toEqual(search.best)
      expect(search.bestObjective).toBeCloseTo(j.candidates[i].train.mean, 6)
      expect(search.bestObjective).toBeLessThan(search.currentObjective)
      // Recommending it exports exactly its settings, merged into the recorded slurm.conf.
      writeFileSync(join(dir, 'searched.json'), JSON.stringify({ ...j, recommended: i, recommendation: { ...j.recommendation, verdict: 'switch' } }))
      const x = await runCli(['export', join(dir, 'searched.json'), '--target', 'slurm', '--out', join(dir, 'searched'), '--json'])
      expect(x.code, x.stderr).toBe(0)
      const merged = readFileSync(join(dir, 'searched', 'slurm.conf'), 'utf8')
      for (const [k, v] of Object.entries(search.best as Record<string, number>)) {
        if (k.startsWith('bf_')) expect(merged).toMatch(new RegExp(`^SchedulerParameters=.*\\b${k}=${v}\\b`, 'm'))
        else expect(merged).toMatch(new RegExp(`^${k}=${v}\\b`, 'm'))
      }
      expect(merged).toMatch(/^PriorityWeightFairshare=10000$/m)
    } else {
      expect(search.bestObjective).toBe(search.currentObjective)
    }
    // The same search on two workers (points evaluated in parallel, in another order).
    expect((await run('10', '2')).j.protocol.slurmSearch).toEqual(search)
    // 0 turns it off; bad budgets are refused in words.
    expect((await run('0', '1')).j.protocol.slurmSearch).toBeUndefined()
    for (const bad of ['-1', 'ten', '10001']) {
      const r = await runCli(['evaluate', KTH, '--current-conf', conf, '--slurm-search-budget', bad])
      expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/--slurm-search-budget/)])
    }
  }, 300_000)
})
