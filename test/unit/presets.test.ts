// The candidate presets (issue #19 item 5): `slurm`, the default, holds only candidates the export
// runs as evaluated (checked through the exporter itself); `ch5` is the thesis's 7 × 7 grid with
// pure backfill orders, the diagonal included, which differs from `backfill same` under a
// threshold (a schedule worked by hand below); exporting a research-grid candidate writes the
// files but says what is lost, everywhere.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { DEFAULTS } from '../../src/core/defaults'
import { exportConfig } from '../../src/core/export/index'
import { slurmDeployment } from '../../src/core/export/deploy'
import { simulate } from '../../src/core/sim/easy'
import { CH5_POLICIES, CH6_POLICIES, POLICIES } from '../../src/core/sim/policies'
import type { SimConfig } from '../../src/core/sim/types'
import { campaignCells, candidateSetNote, RESEARCH_GRID_NOTE } from '../../src/core/tune/campaign'
import { presetCandidates, PRESET_IDS } from '../../src/core/tune/presets'
import { evaluateHelp } from '../../src/cli/commands/evaluate'
import { runCli } from '../support/cli'
import { SAMPLE_LOG } from '../support/sample'
import { resultFor } from '../slurm/harness'
import { buildReportModel } from '../../src/core/export/report-model'
import { describeResult } from '../../src/renderer/src/stores/results'

const THRESHOLDS = [null, 72_000, 144_000, 200_000, 3600]

describe('the slurm preset (default)', () => {
  it('is the default of evaluate, the API and the wizard', () => {
    expect(DEFAULTS.preset.value).toBe('slurm')
    expect(PRESET_IDS).toEqual(['slurm', 'ch5', 'ch6'])
  })

  it('holds only candidates whose export loses nothing, under every threshold (checked by exporting each)', () => {
    const c = presetCandidates('slurm', THRESHOLDS)
    expect(c.length).toBeGreaterThan(0)
    for (const cand of c) {
      expect(cand.backfill, String(cand.primary)).toBe('same')
      for (const t of THRESHOLDS) {
        const b = exportConfig(resultFor(cand.primary, { threshold: t }), 'slurm')
        expect(b.lost, `${String(cand.primary)} Θ=${t}`).toEqual([])
        expect(b.items.filter((i) => i.fidelity === 'not exportable'), `${String(cand.primary)} Θ=${t}`).toEqual([])
        expect(b.files[0].content).not.toMatch(/WARNING/)
      }
    }
  })

  it('leaves out exactly the declared policies whose export loses something (F1–F4), keeps the site-factor ones', () => {
    const kept = new Set(presetCandidates('slurm', THRESHOLDS).map((c) => c.primary))
    for (const p of POLICIES) {
      const loses = THRESHOLDS.some((t) => exportConfig(resultFor(p.id, { threshold: t }), 'slurm').lost!.length > 0)
      expect(kept.has(p.id), p.id).toBe(!loses)
    }
    for (const id of ['F1', 'F2', 'F3', 'F4']) expect(kept.has(id), id).toBe(false)
    for (const id of ['WFP3', 'UNICEF', 'LBSLD', ...CH6_POLICIES]) expect(kept.has(id), id).toBe(true)
    expect(candidateSetNote(presetCandidates('slurm'))).toBeNull()
  })
})

describe('the ch5 preset: the thesis grid exactly', () => {
  it('is 7 primaries × 7 pure backfill orders, EASY-P-P on the diagonal, labelled a research grid', () => {
    const c = presetCandidates('ch5')
    expect(c.length).toBe(49)
    expect(c.every((x) => x.backfill !== 'same')).toBe(true)
    for (const p of CH5_POLICIES) expect(c).toContainEqual({ primary: p, backfill: p })
    expect(new Set(c.map((x) => `${String(x.primary)}-${String(x.backfill)}`)).size).toBe(49)
    expect(candidateSetNote(c)).toBe(RESEARCH_GRID_NOTE)
    expect(RESEARCH_GRID_NOTE).toBe('research grid: Slurm cannot backfill in another order')
    expect(evaluateHelp).toContain(RESEARCH_GRID_NOTE)
    // EASY-FCFS-FCFS is the baseline whatever the threshold: simulated once per part.
    expect(campaignCells({ candidates: c, thresholds: [null, 72000], split: { kind: 'midpoint' }, resample: { method: 'none', weeks: 1, seed: 1 }, objective: 'avgWait', tau: 10 }).length).toBe(2 * (1 + 48 * 2))
  })

  it('the diagonal without a threshold deploys as evaluated; with one it loses the pure backfill order', () => {
    expect(slurmDeployment({ primary: 'SPF', backfill: 'SPF' }, null).lost).toEqual([])
    expect(slurmDeployment({ primary: 'FCFS', backfill: 'FCFS' }, 72000).lost).toEqual([])
    expect(slurmDeployment({ primary: 'SPF', backfill: 'SPF' }, 72000).lost.join()).toMatch(/backfill order SPF: .*thresholded priority order/)
    expect(slurmDeployment({ primary: 'LCFS', backfill: 'LEXP' }, null).lost.join()).toMatch(/backfill order LEXP: .*instead of LEXP/)
  })

  // m = 10 processors, SPF, Θ = 100 s. Jobs (submit, p = p̃, q):
  //   R1 (0, 1000, 8)  R2 (0, 150, 2)  A (1, 100, 10)  B (2, 500, 2)  C (100, 50, 2)
  // t = 0: R1 and R2 start (10 of 10 used).  t = 1, 2, 100: nothing is free; A, B, C wait.
  // t = 150: R2 ends, 2 free. Waits: A 149 and B 148 (> Θ: promoted, by submit), C 50.
  //   Thresholded primary order A, B, C: A (10 procs) is blocked; shadow = 1000 (R1's end, then
  //   10 free), extra = 0. Both B (150 + 500 = 650 ≤ 1000) and C (200 ≤ 1000) may backfill, but
  //   only 2 processors are free, so the backfill ORDER decides:
  //   - backfill same (thresholded SPF order): B first → B starts at 150, ends 650; C then starts
  //     at 650 (A still blocked, 650 + 50 ≤ 1000), ends 700.
  //   - EASY-SPF-SPF (pure SPF, no promotion): C (p̃ 50) before B (p̃ 500) → C starts at 150,
  //     ends 200; B then starts at 200 (200 + 500 ≤ 1000), ends 700.
  //   Either way A starts at 1000 when R1 ends.
  // Waits: same: A 999, B 148, C 550; pure: A 999, B 198, C 50.
  it('EASY-P-P differs from backfill same under a threshold (hand-worked schedule), not without one', () => {
    const jobs = {
      count: 5,
      submit: Float64Array.of(0, 0, 1, 2, 100),
      runtime: Float64Array.of(1000, 150, 100, 500, 50),
      requested: Float64Array.of(1000, 150, 100, 500, 50),
      procs: Int32Array.of(8, 2, 10, 2, 2),
    }
    const starts = (config: SimConfig) => Array.from(simulate(jobs, 10, config, { windowStart: 0 }))
    expect(starts({ primary: 'SPF', backfill: 'same', threshold: 100 })).toEqual([0, 0, 1000, 150, 650])
    expect(starts({ primary: 'SPF', backfill: 'SPF', threshold: 100 })).toEqual([0, 0, 1000, 200, 150])
    // Without a threshold EASY-SPF-SPF is EASY-SPF: C (shortest) starts in order at 150, B at 200.
    expect(starts({ primary: 'SPF', backfill: 'SPF', threshold: null })).toEqual([0, 0, 1000, 200, 150])
    expect(starts({ primary: 'SPF', backfill: 'same', threshold: null })).toEqual([0, 0, 1000, 200, 150])
    // And the ch5 preset's diagonal is the pure one.
    expect(presetCandidates('ch5')).toContainEqual({ primary: 'SPF', backfill: 'SPF' })
  })
})

describe('exporting a research-grid candidate says what is lost', () => {
  let dir: string
  beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'easytune-lost-')) })

  it('in the bundle (lost, items, first gap) and the fragment\'s first lines, for Slurm and PBS', () => {
    const slurm = exportConfig(resultFor('LCFS', { backfill: 'LEXP', threshold: 72000 }), 'slurm')
    expect(slurm.lost).toHaveLength(1)
    expect(slurm.lost![0]).toMatch(/^backfill order LEXP: .*LCFS is used for backfilling instead of LEXP/)
    expect(slurm.items).toContainEqual(expect.objectContaining({ feature: 'backfill order LEXP', fidelity: 'not exportable' }))
    expect(slurm.gaps[0]).toContain(slurm.lost![0])
    expect(JSON.parse(slurm.files.find((f) => f.name === 'easytune-recommendation.json')!.content).targets.slurm.lost).toEqual(slurm.lost)
    const head = slurm.files[0].content.split('\n').slice(0, 6).join('\n')
    expect(head).toMatch(/WARNING: this configuration does NOT run the evaluated candidate/)
    expect(head).toContain(slurm.lost![0])
    const pbs = exportConfig(resultFor('SPF', { backfill: 'SPF', threshold: 72000 }), 'pbs')
    expect(pbs.lost!.join()).toMatch(/backfill order SPF: .*without the threshold's promotion/)
    expect(pbs.files[0].content.split('\n').slice(0, 6).join('\n')).toMatch(/WARNING[^]*backfill order SPF/)
  })

  it('on the command line: exit 0, the words on stderr and in --json', async () => {
    const file = join(dir, 'result.json')
    writeFileSync(file, JSON.stringify(resultFor('SQF', { backfill: 'SPF' })))
    const out = join(dir, 'out')
    const r = await runCli(['export', file, '--target', 'slurm', '--out', out, '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/does NOT run the evaluated candidate[^]*backfill order SPF: Slurm's backfill walks the same priority order/)
    const j = JSON.parse(r.stdout)
    expect(j.lost).toEqual([expect.stringMatching(/^backfill order SPF: /)])
    expect(readFileSync(join(out, 'slurm.conf.easytune'), 'utf8').split('\n').slice(0, 5).join('\n')).toContain(j.lost[0])
  })

  it('says nothing is lost for a slurm-preset candidate', async () => {
    const file = join(dir, 'ok.json')
    writeFileSync(file, JSON.stringify(resultFor('SPF', { threshold: 72000 })))
    const r = await runCli(['export', file, '--target', 'slurm', '--out', join(dir, 'ok'), '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).not.toMatch(/NOT run/)
    expect(JSON.parse(r.stdout).lost).toEqual([])
  })
})

describe('evaluate without --preset', () => {
  it('runs the slurm preset and records it in the protocol', async () => {
    const r = await runCli(['evaluate', SAMPLE_LOG, '--weeks', '1', '--thresholds', 'none', '--seed', '2', '--no-cache', '--workers', '1', '--json'])
    expect(r.code, r.stderr).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.protocol.preset).toBe('slurm')
    expect(j.protocol.candidateNote).toBeNull()
    expect(j.protocol.candidates).toEqual(presetCandidates('slurm', [null]).map((c) => ({ primary: c.primary, backfill: 'same' })))
  })
})

describe('a ch5 result carries the research-grid label', () => {
  it('in the protocol, the CLI output, the report and the Results step', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'easytune-ch5-'))
    const json = join(dir, 'r.json')
    const r = await runCli(['evaluate', SAMPLE_LOG, '--preset', 'ch5', '--weeks', '1', '--thresholds', 'none', '--seed', '2', '--no-cache', '--workers', '1', '--json', json])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain(`Candidates: preset ch5, 49 orders (${RESEARCH_GRID_NOTE}; exporting one says what is lost)`)
    const j = JSON.parse(readFileSync(json, 'utf8'))
    expect([j.protocol.preset, j.protocol.candidateNote]).toEqual(['ch5', RESEARCH_GRID_NOTE])
    expect(j.protocol.candidates).toContainEqual({ primary: 'LEXP', backfill: 'LEXP' })
    const facts = buildReportModel(j).sections.flatMap((s) => s.blocks).flatMap((b) => (b.kind === 'facts' ? b.rows : []))
    expect(facts.find(([k]) => k === 'Candidate orders')![1]).toMatch(new RegExp(`^preset ch5, 49 .*\\(${RESEARCH_GRID_NOTE}\\)$`))
    expect(describeResult(j).scope).toContain(RESEARCH_GRID_NOTE)
  })
})
