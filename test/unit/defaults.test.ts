// The defaults are declared once (src/core/defaults.ts) with the reason shown to people: the values
// are the research's protocol (written here by hand, from the thesis), the CLI's help shows each
// with its reason, and no other source file spells one of them again.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEFAULTS, THRESHOLD_CHOICES } from '../../src/core/defaults'
import { parseThreshold, thresholdInput, thresholdProblem } from '../../src/core/util/duration'
import { evaluateHelp } from '../../src/cli/commands/evaluate'
import { simulateHelp } from '../../src/cli/commands/simulate'
import { mixedHelp } from '../../src/cli/commands/mixed'
import { onlineHelp } from '../../src/cli/commands/online'

describe('the defaults', () => {
  it('are the thesis protocol', () => {
    expect(DEFAULTS.weeks.value).toBe(250)
    expect(DEFAULTS.seed.value).toBe(1)
    expect(DEFAULTS.tau.value).toBe(10)
    expect(DEFAULTS.thresholds.value).toEqual([null, 72000, 144000, 200000])
    expect(DEFAULTS.objective.value).toBe('avgWait')
    expect(DEFAULTS.resample.value).toBe('user-weeks')
    expect(DEFAULTS.split.value).toEqual({ kind: 'midpoint' })
    expect(DEFAULTS.preset.value).toBe('slurm')
    expect(DEFAULTS.onlineThreshold.value).toBe(144000)
    expect([DEFAULTS.overrun.value, DEFAULTS.requestedFallback.value]).toEqual(['drop', 'drop'])
  })

  it('each has a reason in one line of words', () => {
    for (const [k, d] of Object.entries(DEFAULTS)) {
      expect(d.why, k).toMatch(/^[a-zA-Z].{15,}$/)
      expect(d.why, k).not.toMatch(/\n/)
    }
    for (const t of THRESHOLD_CHOICES) expect(t.why.length).toBeGreaterThan(15)
  })

  it('thresholds pass the one threshold rule and read back as typed', () => {
    for (const t of [...DEFAULTS.thresholds.value, DEFAULTS.threshold.value, DEFAULTS.onlineThreshold.value]) {
      expect(thresholdProblem(t)).toBeNull()
      expect(parseThreshold(thresholdInput(t))).toBe(t)
    }
    expect([72000, 90, 5400, 200001, null].map(thresholdInput)).toEqual(['20h', '90', '90m', '200001', 'none'])
  })
})

describe('the CLI help derives the defaults and shows why', () => {
  it('evaluate', () => {
    expect(evaluateHelp).toMatch(/--weeks N .*\(default 250\)/)
    expect(evaluateHelp).toMatch(/--seed S .*\(default 1\)/)
    expect(evaluateHelp).toMatch(/--thresholds T,T,\.\.\. .*\(default none,20h,40h,200000\)/)
    expect(evaluateHelp).toMatch(/--tau S .*\(default 10\)/)
    expect(evaluateHelp).toContain('Why these defaults:')
    for (const k of ['weeks', 'seed', 'resample', 'thresholds', 'objective', 'tau', 'preset'] as const) expect(evaluateHelp).toContain(DEFAULTS[k].why)
    // The verdict's flags (issue #19), with defaults derived from core/defaults.ts.
    expect(evaluateHelp).toMatch(/--max-wait-ratio R\|none .*\n.*\(default 1\.5\)/)
    expect(evaluateHelp).toMatch(/--min-gain G .*\(default 5%\)/)
    expect(evaluateHelp).toMatch(/--confidence C .*\(default 95%\)/)
    expect(evaluateHelp).toMatch(/--min-weeks N .*\(default 8\)/)
    expect(evaluateHelp).toMatch(/the weekly ratios \(default ratio-of-means\)/)
    for (const k of ['maxWaitRatio', 'minGain', 'confidence', 'minWeeks', 'criterion'] as const) expect(evaluateHelp).toContain(DEFAULTS[k].why)
  })

  it('simulate, mixed and online', () => {
    expect(simulateHelp).toMatch(/--threshold none\|D[^]*0 is refused \(default none\)/)
    expect(simulateHelp).toContain(DEFAULTS.primary.why)
    expect(simulateHelp).toMatch(/--overrun drop\|clamp\|keep[^]*\(default drop\)/)
    expect(simulateHelp).toContain(DEFAULTS.overrun.why)
    expect(mixedHelp).toMatch(/--weeks N .*\(default 250\)/)
    expect(mixedHelp).toMatch(/--split .*\(default midpoint;/)
    expect(onlineHelp).toMatch(/--threshold none\|D .*\(default 40h, as the thesis\)/)
  })
})

// A default spelled again elsewhere drifts apart from the declaration: these are the spellings the
// copies had before issue #18 (CLI fallbacks, store initial states, backend set-ups).
describe('no other source file spells a default again', () => {
  const files: string[] = []
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name))
      else if (/\.(ts|vue)$/.test(e.name)) files.push(join(d, e.name))
    }
  }
  walk('src')
  const COPIES = [
    /\?\? *(250|'ch5'|'user-weeks'|'avgWait'|'midpoint'|'drop')\b/,
    /\bweeks: 250\b|\bseed: 1\b|\btau: 10\b/,
    /threshold: 144000/,
    /\[null, 72000, 144000, 200000\]/,
    /preset: '(ch5|slurm)'(?! \|)/,
    /ref<Preset>\('(ch5|slurm)'\)|ref<Objective>\('avgWait'\)/,
  ]

  it('finds the copies it looks for (the check can fail)', () => {
    expect(COPIES.some((re) => re.test('const w = positiveInt(a, "weeks") ?? 250'))).toBe(true)
    expect(COPIES.some((re) => re.test("{ method: 'user-weeks', weeks: 250, seed: 1 }"))).toBe(true)
  })

  it('only src/core/defaults.ts holds them', () => {
    expect(files.length).toBeGreaterThan(50)
    const found = files.filter((f) => !f.endsWith(join('core', 'defaults.ts'))).flatMap((f) =>
      readFileSync(f, 'utf8').split('\n').flatMap((line, i) => (COPIES.some((re) => re.test(line)) ? [`${f}:${i + 1}: ${line.trim()}`] : [])))
    expect(found).toEqual([])
  })
})
