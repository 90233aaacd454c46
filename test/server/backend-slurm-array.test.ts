// The GUI's "Run on a Slurm cluster…" behind the API (Backend.writeSlurmArrayIn): the plan folder of
// the wizard's campaign, run by `easytune run-shard` and `easytune merge`, gives the result the app's
// own run of the same request gives (the merge's JSON, less the data citation the command line
// adds). The request is checked as startCampaign checks it.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Backend } from '../../src/backend/backend'
import { defaultWorkerPath } from '../../src/engine/pool'
import type { WorkloadSummary } from '../../src/shared/api'
import { ApiInputError } from '../../src/shared/errors'
import { runCli } from '../support/cli'
import { collect, request, tempDir } from './support'

describe('Backend.writeSlurmArrayIn', () => {
  let tmp: ReturnType<typeof tempDir>
  let backend: Backend
  let sample: WorkloadSummary

  beforeAll(async () => {
    tmp = tempDir()
    // the CLI's own engine (out/engine/worker.js): the plan records its hash, and run-shard checks it
    backend = new Backend({ mode: 'browser', stateDir: join(tmp.dir, 'state'), cacheDir: null, workerPath: defaultWorkerPath() })
    sample = await backend.importLog({ kind: 'sample' }, {})
  }, 60_000)
  afterAll(async () => {
    await backend?.close()
    tmp?.remove()
  })

  it('writes the plan of the wizard\'s campaign; sharded and merged, it is the app\'s own result', async () => {
    const req = request(sample.id)
    const dir = join(tmp.dir, 'plan')
    const w = await backend.writeSlurmArrayIn(dir, req, { shards: 3, cpusPerTask: 1 })
    // 2 parts × (baseline + SPF + LQF) × (resampled + real weeks) = 12 cells
    expect(w).toMatchObject({ folder: dir, cells: 12, shards: 3, cpusPerTask: 1, resultFile: join(dir, 'result.json') })
    expect(w.submit[0]).toBe(`jobid=$(sbatch --parsable ${join(dir, 'campaign.sbatch')})`)
    expect(readFileSync(join(dir, 'campaign.sbatch'), 'utf8')).toContain('#SBATCH --array=0-2\n')
    for (let i = 0; i < 3; i++) expect((await runCli(['run-shard', dir, '--shard', String(i), '--workers', '1'])).code).toBe(0)
    const m = await runCli(['merge', dir, '--workers', '1', '--json', join(dir, 'merged.json')])
    expect(m.code, m.stderr).toBe(0)
    const { citation: _c, ...merged } = JSON.parse(readFileSync(join(dir, 'merged.json'), 'utf8')) as Record<string, unknown>
    const { finished } = collect(backend)
    backend.startCampaign(req)
    const done = await finished
    expect(done.kind).toBe('done')
    if (done.kind === 'done') expect(merged).toEqual(JSON.parse(JSON.stringify(done.result)))
  }, 180_000)

  it('writes the machine the Cluster panel chose into the plan, as evaluate --current-conf would (its Slurm settings among the cells)', async () => {
    const text = 'SelectType=select/cons_tres\nSelectTypeParameters=CR_CPU\nPriorityType=priority/multifactor\nPriorityWeightAge=100\nSchedulerType=sched/backfill\nNodeName=k[001-100] CPUs=1\nPartitionName=sp2 Nodes=k[001-100] Default=YES\n'
    const dir = join(tmp.dir, 'plan-machine')
    const w = await backend.writeSlurmArrayIn(dir, request(sample.id, { machine: { source: 'current', file: { name: 'site.conf', text } } }), { shards: 2, cpusPerTask: 1 })
    const plan = JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')) as { setup: { machine: unknown }; request: { machine: unknown } }
    expect(plan.setup.machine).toEqual({ slurmConf: { file: 'site.conf', text, current: true } })
    expect(plan.request.machine).toEqual(plan.setup.machine)
    // More than the 12 cells of the same campaign on the log's own machine: the site's own settings
    // (bf_*, PriorityMaxAge, PriorityWeightAge…) are candidates under the configuration that runs today.
    expect(w.cells).toBeGreaterThan(12)
  }, 60_000)

  it('refuses in words a campaign of fewer cells than tasks, and an unknown workload', async () => {
    await expect(backend.writeSlurmArrayIn(join(tmp.dir, 'many'), request(sample.id), { shards: 13, cpusPerTask: 1 })).rejects.toThrow(ApiInputError)
    await expect(backend.writeSlurmArrayIn(join(tmp.dir, 'many'), request(sample.id), { shards: 13, cpusPerTask: 1 })).rejects.toThrow('this campaign has 12 cells: it cannot be split into 13 shards (at most 12)')
    await expect(backend.writeSlurmArrayIn(join(tmp.dir, 'x'), request('nope'), { shards: 1, cpusPerTask: 1 })).rejects.toThrow(ApiInputError)
  }, 60_000)
})
