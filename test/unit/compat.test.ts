// `--compat ocst` (issue #19 item 7): accepted by simulate, evaluate, online and mixed, recorded in
// their documents, carried to the engine workers (the cells they compute are the ocst ones) and
// keyed apart from the default cells in the cache; and `compat` in the app's requests.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'
import { SAMPLE_LOG } from '../support/sample'
import { readLog } from '../../src/node/read-log'
import { prepare } from '../../src/core/tune/prepare'
import { runCell } from '../../src/core/tune/campaign'
import { AnalysisRequestSchema, CampaignRequestSchema, parseOrThrow } from '../../src/shared/schemas'
import { analysisPlan } from '../../src/backend/analysis'
import { campaignSpec } from '../../src/backend/campaigns'

const KTH = SAMPLE_LOG
const GOLDEN = join(import.meta.dirname, '../golden/shadow_ties.swf')
let dir: string
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'easytune-compat-')) })

describe('easytune simulate --compat', () => {
  it('ocst schedules the hand-worked golden log by the seeds\' rule, and says so', async () => {
    // test/golden/shadow_ties: waits 0, 0, 100, 0, 0 by default (average 20 s), 0, 0, 100, 100, 0 under ocst (40 s).
    const ours = JSON.parse((await runCli(['simulate', GOLDEN, '--json'])).stdout)
    const ocst = JSON.parse((await runCli(['simulate', GOLDEN, '--compat', 'ocst', '--json'])).stdout)
    expect([ours.config.compat, ours.avgWait]).toEqual(['none', 20])
    expect([ocst.config.compat, ocst.avgWait]).toEqual(['ocst', 40])
    expect((await runCli(['simulate', GOLDEN, '--compat', 'ocst'])).stdout).toMatch(/compat: ocst/)
  })

  it('refuses another mode with exit 2, in words', async () => {
    const r = await runCli(['simulate', GOLDEN, '--compat', 'thesis'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--compat must be one of none, ocst; got "thesis"/)
    expect((await runCli(['simulate', '--help'])).stdout).toMatch(/--compat none\|ocst/)
  })
})

describe('easytune evaluate --compat', () => {
  const ARGS = ['--primaries', 'SPF', '--thresholds', 'none', '--weeks', '3', '--seed', '2', '--workers', '1']

  it('records protocol.compat, and the workers compute the ocst cells (C13 weeks, ocst shadow rule)', async () => {
    const r = await runCli(['evaluate', KTH, ...ARGS, '--no-cache', '--compat', 'ocst', '--json'])
    expect(r.code, r.stderr).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.protocol.compat).toBe('ocst')
    // The same cell computed here, in this process, from samples cut under ocst.
    const w = await readLog(KTH, {})
    const p = prepare(w.jobs, w.machineProcs, { kind: 'midpoint' }, { method: 'user-weeks', weeks: 3, seed: 2 }, 'ocst')
    const spf = runCell(p.train, w.machineProcs, { candidate: { primary: 'SPF', backfill: 'same' }, threshold: null, part: 'train' }, 10)
    const mean = Array.from(spf.avgWait).reduce((a, b) => a + b, 0) / 3
    const row = j.candidates.find((c: { label: string }) => c.label.startsWith('EASY-SPF'))
    expect(row.train.mean).toBeCloseTo(mean, 9)
    expect(j.protocol.resample.trainOriginalWeeks).toBe(p.train.originalWeeks)
    // ... and they differ from the default's on these weeks, so the comparison above can fail.
    const byDefault = JSON.parse((await runCli(['evaluate', KTH, ...ARGS, '--no-cache', '--json'])).stdout)
    expect(byDefault.protocol.compat).toBe('none')
    expect(byDefault.candidates.find((c: { label: string }) => c.label.startsWith('EASY-SPF')).train.mean).not.toBe(row.train.mean)
    expect((await runCli(['evaluate', KTH, ...ARGS, '--no-cache', '--compat', 'ocst'])).stdout).toMatch(/Compatibility: ocst/)
  })

  it('never serves a compat cell from a default cell\'s cache entry (nor the reverse)', async () => {
    const cache = join(dir, 'cache')
    const first = await runCli(['evaluate', KTH, ...ARGS, '--cache-dir', cache, '--json', join(dir, 'a.json')])
    expect(first.stderr).toMatch(/evaluated 8 cells \(0 from the cache\)/)
    const ocst = await runCli(['evaluate', KTH, ...ARGS, '--cache-dir', cache, '--compat', 'ocst', '--json', join(dir, 'b.json')])
    expect(ocst.stderr).toMatch(/evaluated 8 cells \(0 from the cache\)/)
    const again = await runCli(['evaluate', KTH, ...ARGS, '--cache-dir', cache, '--compat', 'ocst', '--json', join(dir, 'c.json')])
    expect(again.stderr).toMatch(/evaluated 8 cells \(8 from the cache\)/)
    const none = await runCli(['evaluate', KTH, ...ARGS, '--cache-dir', cache, '--compat', 'none', '--json', join(dir, 'd.json')])
    expect(none.stderr).toMatch(/evaluated 8 cells \(8 from the cache\)/)
  })
})

describe('easytune online and mixed --compat', () => {
  it('online records the mode in its config', async () => {
    const args = ['online', KTH, '--weeks', '2', '--traces', '1', '--strategy', 'full', '--policies', 'FCFS,SPF', '--workers', '1', '--json']
    const ocst = JSON.parse((await runCli([...args, '--compat', 'ocst'])).stdout)
    const ours = JSON.parse((await runCli(args)).stdout)
    expect(ocst.config.compat).toBe('ocst')
    expect(ours.config.compat).toBe('none')
    expect(ocst.runs).not.toEqual(ours.runs)
  })

  it('mixed records the mode in its options', async () => {
    const args = ['mixed', KTH, '--weeks', '2', '--budget', '4', '--workers', '1', '--json']
    const r = await runCli([...args, '--compat', 'ocst'])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout).options.compat).toBe('ocst')
    expect(JSON.parse((await runCli(args)).stdout).options.compat).toBe('none')
    expect((await runCli([...args, '--compat', 'x'])).code).toBe(2)
  })
})

describe('compat in the app\'s requests', () => {
  const request = { workloadId: 'w1', split: { kind: 'midpoint' }, resample: { method: 'user-weeks', weeks: 4, seed: 1 }, candidates: { preset: 'ch6' }, thresholds: [null], objective: 'avgWait', tau: 10, maxWaitRatio: null, workers: null }

  it('a campaign request takes none or ocst, defaults to none when absent, and refuses anything else', () => {
    expect(campaignSpec(parseOrThrow(CampaignRequestSchema, { ...request, compat: 'ocst' }, 'request')).compat).toBe('ocst')
    expect(campaignSpec(parseOrThrow(CampaignRequestSchema, request, 'request')).compat).toBe('none')
    expect(() => parseOrThrow(CampaignRequestSchema, { ...request, compat: 'seeds' }, 'request')).toThrow(/compat must be one of none, ocst/)
  })

  it('online and mixed analyses carry it to their spec and to the workers\' setup', () => {
    const where = { path: '/x/log.swf', importOptions: {} }
    const online = analysisPlan(parseOrThrow(AnalysisRequestSchema, { workloadId: 'w1', kind: 'online', options: { strategies: ['full'], period: 'week', weeks: 2, traces: 1, seed: 1, compat: 'ocst' } }, 'request'), where)
    expect(online.analysis.kind === 'online' && online.analysis.spec.compat).toBe('ocst')
    const mixed = analysisPlan(parseOrThrow(AnalysisRequestSchema, { workloadId: 'w1', kind: 'mixed', split: { kind: 'midpoint' }, options: { features: 3, method: 'xnes', budget: 4, weeks: 2, objective: 'avgWait', seed: 1, compat: 'ocst' } }, 'request'), where)
    expect(mixed.analysis.kind === 'mixed' && mixed.analysis.options.compat).toBe('ocst')
    expect(mixed.setup.compat).toBe('ocst')
    const plain = analysisPlan(parseOrThrow(AnalysisRequestSchema, { workloadId: 'w1', kind: 'mixed', split: { kind: 'midpoint' }, options: { features: 3, method: 'xnes', budget: 4, weeks: 2, objective: 'avgWait', seed: 1 } }, 'request'), where)
    expect([plain.setup.compat, plain.analysis.kind === 'mixed' && plain.analysis.options.compat]).toEqual([undefined, 'none'])
  })
})
