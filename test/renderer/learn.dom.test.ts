// "Learn a policy for this site" (docs/LEARN.md §The app) with Pinia and the fake back end (charts
// stubbed): the shared analysis-run reducer; the panel's budget with its defaults and why, Start on
// the analysis stream with the wizard's split, progress in words (tuples, trials, trials/s, time
// left), Cancel; the ranked functions, each saying that a lower value runs first; "Add to
// candidates"; the candidate picker's fn: entry (refusals in the parser's words); and what was
// learned and added surviving a save and a reopen of the project file.
import { describe, expect, it } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import ChartPanel from '../../src/renderer/src/components/ChartPanel.vue'
import LearnPanel from '../../src/renderer/src/components/LearnPanel.vue'
import CandidatePicker from '../../src/renderer/src/components/CandidatePicker.vue'
import CandidatesStep from '../../src/renderer/src/steps/CandidatesStep.vue'
import { idleRun, reduceAnalysisRun, type AnalysisRunState } from '../../src/renderer/src/stores/analysisRun'
import { useLearnStore } from '../../src/renderer/src/stores/learn'
import { useCampaignStore } from '../../src/renderer/src/stores/campaign'
import { useWorkloadStore } from '../../src/renderer/src/stores/workload'
import { useSplitStore } from '../../src/renderer/src/stores/split'
import { fromProject, toProject } from '../../src/renderer/src/stores/project'
import { ProjectStateSchema, parseProjectText } from '../../src/shared/schemas'
import { presetCandidates } from '../../src/core/tune/presets'
import type { LearnDocument, LearnProgressDetail } from '../../src/shared/api'
import { freshApp, makeResult } from './fake-api'
import CandidatesTable from '../../src/renderer/src/components/CandidatesTable.vue'

const app = freshApp()

/** A learning run's document as the back end answers it (the shape of `easytune learn --json`): two
 * functions, the first of F1's form. */
const DOC: LearnDocument = {
  schemaVersion: 1, log: 'KTH-SP2-1996-2.1-cln.swf.gz',
  options: { sizeS: 16, sizeQ: 32, trials: 8192, tuples: 2, stopAt: 0.02, tau: 10, seed: 3 },
  order: 'a LOWER value of a learned function runs first (use it as --primary fn:<expression>)',
  machineProcs: 100, trainingJobs: 14000, trials: 16384,
  tuples: [{ tuple: 0, firstJob: 10, trials: 8192, stoppedEarly: false }, { tuple: 1, firstJob: 500, trials: 8192, stoppedEarly: false }],
  convergence: [{ trials: 4096, normStd: 0.08 }, { trials: 8192, normStd: 0.05 }],
  regression: { family: 400, samples: 64, dropped: 0, undefinedForms: [], optimiser: { package: 'ml-levenberg-marquardt', initialValue: 0, maxIterations: 12, damping: 1e-3, errorTolerance: 1e-20 } },
  functions: [
    {
      position: 1, id: 'learned:log10*id+log10', kind: 'learned', expression: 'log10(r)*n+612.5*log10(s)', rank: 0.012345, weightedError: 5,
      form: '((c1*log10(r)) * (c2*n)) + (c3*log10(s))', coefficients: { c1: 0.002, c2: 1, c3: 1.225 },
      simplified: { expression: 'log10(r)*n+612.5*log10(s)', coefficient: 612.5 }, sameFormAs: 'F1', iterations: 12,
    },
    {
      position: 2, id: 'learned:id+id+id', kind: 'learned', expression: '1e-7*r+5e-8*n+1e-7*s', rank: 0.0201, weightedError: 7,
      form: '((c1*r) + (c2*n)) + (c3*s)', coefficients: { c1: 1e-7, c2: 5e-8, c3: 1e-7 }, simplified: null, sameFormAs: null, iterations: 12,
    },
  ],
}
const F1_LIKE = 'fn:log10(r)*n+612.5*log10(s)'

const detail = (over: Partial<LearnProgressDetail> = {}): LearnProgressDetail => ({
  phase: 'trials', tuplesDone: 3, tuplesTotal: 256, cachedTuples: 1, trials: 12288, trialsPerSecond: 50000, etaSeconds: 120, functionsDone: 0, functionsTotal: 400, ...over,
})

describe('the analysis-run reducer shared by every analysis store', () => {
  const running: AnalysisRunState = { ...idleRun(), id: 'a1', status: 'running' }
  it('follows its own run: progress (with a learning detail), done with the result, error in words, cancelled', () => {
    const p = reduceAnalysisRun(running, { analysisId: 'a1', kind: 'progress', analysis: 'learn', fraction: 0.25, learn: detail() })
    expect(p.run).toEqual({ ...running, fraction: 0.25, learn: detail() })
    expect(p.done).toBeUndefined()
    // A later progress without a detail keeps the last one.
    expect(reduceAnalysisRun(p.run, { analysisId: 'a1', kind: 'progress', analysis: 'learn', fraction: 0.5 }).run.learn).toEqual(detail())
    expect(reduceAnalysisRun(running, { analysisId: 'a1', kind: 'done', analysis: 'learn', result: 42 })).toEqual({ run: { ...running, status: 'done', fraction: 1 }, done: { result: 42 } })
    expect(reduceAnalysisRun(running, { analysisId: 'a1', kind: 'error', message: 'the training part has 10 jobs; a tuple needs 48 (|S| + |Q|)' }).run)
      .toEqual({ ...running, status: 'error', error: 'the training part has 10 jobs; a tuple needs 48 (|S| + |Q|)' })
    expect(reduceAnalysisRun(running, { analysisId: 'a1', kind: 'cancelled' }).run.status).toBe('cancelled')
  })
  it('leaves the state as it is (the same object) for another analysis or when nothing runs', () => {
    expect(reduceAnalysisRun(running, { analysisId: 'other', kind: 'done', analysis: 'online', result: 1 }).run).toBe(running)
    const idle = idleRun()
    expect(reduceAnalysisRun(idle, { analysisId: 'a1', kind: 'progress', analysis: 'learn', fraction: 1 }).run).toBe(idle)
    const done = { ...running, status: 'done' as const }
    expect(reduceAnalysisRun(done, { analysisId: 'a1', kind: 'cancelled' }).run).toBe(done)
  })
})

async function panel(): Promise<VueWrapper> {
  await useWorkloadStore().importSample()
  const w = mount(LearnPanel, { global: { plugins: [app.pinia], stubs: { ChartPanel: true } }, attachTo: document.body })
  await flushPromises()
  return w
}

/** A run with DOC's budget, answered with DOC. */
async function learned(w: VueWrapper): Promise<void> {
  await w.get('[data-testid="learn-trials"]').setValue('8192')
  await w.get('[data-testid="learn-tuples"]').setValue('2')
  await w.get('[data-testid="learn-seed"]').setValue('3')
  await w.get('[data-testid="learn-start"]').trigger('click')
  await flushPromises()
  app.api.emitAnalysis({ analysisId: 'a1', kind: 'done', analysis: 'learn', result: DOC })
  await flushPromises()
}

describe('the learn panel', () => {
  it('shows the budget with the defaults and why, and refuses a budget that cannot run, in words', async () => {
    const w = await panel()
    expect((w.get('[data-testid="learn-trials"]').element as HTMLInputElement).value).toBe('256000')
    expect((w.get('[data-testid="learn-tuples"]').element as HTMLInputElement).value).toBe('256')
    expect((w.get('[data-testid="learn-seed"]').element as HTMLInputElement).value).toBe('1')
    expect(w.text()).toContain('default 256,000, the paper\'s; a tuple stops earlier once the normalised std of its scores is below 0.02')
    expect(w.get('[data-testid="learn-why"]').text()).toMatch(/^Why these defaults: the paper's set-up: \|S\| = 16 tasks started first/)
    expect(w.get('[data-testid="learn-lower-first"]').text()).toContain('a lower value runs first')
    await w.get('[data-testid="learn-tuples"]').setValue('0')
    expect(w.get('[role="alert"]').text()).toBe('The number of tuples must be a whole number from 1 to 1,024')
    expect(w.get('[data-testid="learn-start"]').attributes('disabled')).toBeDefined()
    await w.get('[data-testid="learn-start"]').trigger('click')
    expect(app.api.startAnalysis).not.toHaveBeenCalled()
    w.unmount()
  })

  it('starts on the training part of the wizard\'s split, shows tuples, trials, trials/s and time left, then the regression; Cancel', async () => {
    const w = await panel()
    useSplitStore().spec = { kind: 'fraction', fraction: 0.6 }
    await w.get('[data-testid="learn-trials"]').setValue('8192')
    await w.get('[data-testid="learn-tuples"]').setValue('2')
    await w.get('[data-testid="learn-seed"]').setValue('3')
    await w.get('[data-testid="learn-start"]').trigger('click')
    await flushPromises()
    expect(app.api.startAnalysis).toHaveBeenCalledWith({ workloadId: 'w1', kind: 'learn', options: { trials: 8192, tuples: 2, seed: 3 }, split: { kind: 'fraction', fraction: 0.6 } })
    app.api.emitAnalysis({ analysisId: 'a1', kind: 'progress', analysis: 'learn', fraction: 0.1, learn: detail() })
    app.api.emitAnalysis({ analysisId: 'other', kind: 'progress', analysis: 'walltimes', fraction: 0.9 })
    await flushPromises()
    expect(w.get('.progress-text').text()).toBe('3 of 256 tuples (1 from earlier runs), 12,288 trials, 50,000 trials/s, at most 2 min left')
    expect(w.get('[role="progressbar"]').attributes('aria-valuenow')).toBe('10')
    expect(w.get('[data-testid="learn-start"]').attributes('disabled')).toBeDefined()
    app.api.emitAnalysis({ analysisId: 'a1', kind: 'progress', analysis: 'learn', fraction: 0.95, learn: detail({ phase: 'regression', tuplesDone: 256, functionsDone: 200 }) })
    await flushPromises()
    expect(w.get('.progress-text').text()).toBe('Fitting the 400 functions of ℱ: 200 fitted')
    await w.get('[data-testid="learn-cancel"]').trigger('click')
    expect(app.api.cancel).toHaveBeenCalledWith('a1')
    app.api.emitAnalysis({ analysisId: 'a1', kind: 'cancelled' })
    await flushPromises()
    expect(w.get('[data-testid="learn-cancelled"]').text()).toContain('finished tuples are kept')
    expect(w.find('[data-testid="learn-functions"]').exists()).toBe(false)
    w.unmount()
  })

  it('a failed run says why in words', async () => {
    const w = await panel()
    await w.get('[data-testid="learn-start"]').trigger('click')
    await flushPromises()
    app.api.emitAnalysis({ analysisId: 'a1', kind: 'error', message: 'the training part has 40 jobs; a tuple needs 48 (|S| + |Q|)' })
    await flushPromises()
    expect(w.get('[data-testid="learn-error"]').text()).toBe('Learning failed: the training part has 40 jobs; a tuple needs 48 (|S| + |Q|)')
    w.unmount()
  })

  it('ranks the functions with error, form and coefficients, each saying lower runs first; the chart has units on both axes', async () => {
    const w = await panel()
    await learned(w)
    const rows = w.get('[data-testid="learn-functions"]').findAll('tbody tr').map((r) => r.findAll('td').map((c) => c.text()))
    expect(rows).toHaveLength(2)
    expect(rows[0]!.slice(0, 5)).toEqual([
      // (each cell's note sits on a line of its own: textContent joins them without a space)
      '1', `${F1_LIKE}lower f runs first`, '0.0123', '((c1*log10(r)) * (c2*n)) + (c3*log10(s))the form of F1, its coefficient learned here', 'c1 = 0.002, c2 = 1, c3 = 1.225',
    ])
    expect(rows[1]!.slice(0, 3)).toEqual(['2', 'fn:1e-7*r+5e-8*n+1e-7*slower f runs first', '0.0201'])
    expect(w.get('[data-testid="learn-functions"] caption').text()).toContain('For each function a LOWER value runs first.')
    expect(w.get('[data-testid="learn-summary"]').text()).toBe('Learned on KTH-SP2-1996-2.1-cln.swf.gz: 16,384 trials in all over 2 tuples drawn from 14,000 training jobs on 100 processors (seed 3).')
    const chart = w.getComponent(ChartPanel)
    const cfg = chart.props('config') as unknown as { options: { scales: { x: { title: { text: string }; type: string }; y: { title: { text: string }; type: string } } }; data: { datasets: { data: { x: number; y: number }[] }[] } }
    expect(cfg.options.scales.x.title.text).toBe('Trials per (S, Q) tuple (random orders of Q simulated)')
    expect(cfg.options.scales.y.title.text).toBe('Normalised std of the scores (eq. 3; no unit, log scale)')
    expect(cfg.options.scales.y.type).toBe('logarithmic')
    expect(cfg.data.datasets[0]!.data).toEqual([{ x: 4096, y: 0.08 }, { x: 8192, y: 0.05 }])
    // The early-stop level across the trials drawn.
    expect(cfg.data.datasets[1]!.data).toEqual([{ x: 4096, y: 0.02 }, { x: 8192, y: 0.02 }])
    w.unmount()
  })

  it('leaves out a function the project file would refuse (a value that came through JSON as null)', async () => {
    const w = await panel()
    await w.get('[data-testid="learn-start"]').trigger('click')
    await flushPromises()
    const odd = JSON.parse(JSON.stringify(DOC)) as LearnDocument
    ;(odd.functions[1] as { rank: number | null }).rank = null
    app.api.emitAnalysis({ analysisId: 'a1', kind: 'done', analysis: 'learn', result: odd })
    await flushPromises()
    expect(useLearnStore().learned!.functions.map((f) => f.position)).toEqual([1])
    expect(() => ProjectStateSchema.parse(JSON.parse(JSON.stringify(toProject())))).not.toThrow()
    w.unmount()
  })

  it('"Add to candidates" makes the function a candidate order (a preset becomes custom with its orders)', async () => {
    const w = await panel()
    const c = useCampaignStore()
    expect(c.preset).toBe('slurm')
    const slurm = presetCandidates('slurm', c.thresholds).map((x) => String(x.primary))
    await learned(w)
    const add = w.findAll('[data-testid="learn-add"]')[0]!
    expect(add.text()).toBe('Add to candidates')
    await add.trigger('click')
    expect(c.preset).toBe('custom')
    expect(c.customPrimaries).toEqual([...slurm, F1_LIKE])
    expect(c.fnOrders).toEqual([F1_LIKE])
    expect(c.expandedCandidates).toContainEqual({ primary: F1_LIKE, backfill: 'same' })
    expect(c.expandedCandidates).toHaveLength(slurm.length + 1)
    expect(useLearnStore().learned!.added).toEqual([F1_LIKE])
    expect(w.findAll('[data-testid="learn-add"]')[0]!.text()).toBe('Added')
    expect(w.findAll('[data-testid="learn-add"]')[0]!.attributes('disabled')).toBeDefined()
    // It is in the request the Run step sends, with every threshold.
    expect(c.request('w1', { kind: 'midpoint' }, { method: 'user-weeks', weeks: 3, seed: 1 }).candidates).toEqual({ list: expect.arrayContaining([{ primary: F1_LIKE, backfill: 'same' }]) })
    w.unmount()
  })

  it('is opened from the Candidates step and closed again', async () => {
    await useWorkloadStore().importSample()
    const w = mount(CandidatesStep, { global: { plugins: [app.pinia], stubs: { ChartPanel: true } } })
    expect(w.find('[data-testid="learn-panel"]').exists()).toBe(false)
    await w.get('[data-testid="learn-open"]').trigger('click')
    expect(w.find('[data-testid="learn-panel"]').exists()).toBe(true)
    await w.get('[data-testid="learn-close"]').trigger('click')
    expect(w.find('[data-testid="learn-panel"]').exists()).toBe(false)
    w.unmount()
  })
})

describe('fn: orders in the candidate picker', () => {
  it('adds a typed expression in its canonical form, and refuses a malformed one in the parser\'s words', async () => {
    await useWorkloadStore().importSample()
    const w = mount(CandidatePicker, { global: { plugins: [app.pinia] } })
    const c = useCampaignStore()
    await w.get('[data-testid="fn-add"]').trigger('click')
    expect(w.get('[data-testid="fn-error"]').text()).toBe('Type a function of r, n and s first, for example log10(r)*n+870*log10(s).')
    await w.get('[data-testid="fn-text"]').setValue('log10(r)*x')
    await w.get('[data-testid="fn-add"]').trigger('click')
    expect(w.get('[data-testid="fn-error"]').text()).toBe('fn: expression, character 10: unknown name "x"; the variables are r, n, s and the functions log10, sqrt, inv')
    await w.get('[data-testid="fn-text"]').setValue('r^2')
    await w.get('[data-testid="fn-add"]').trigger('click')
    expect(w.get('[data-testid="fn-error"]').text()).toContain('character 2: powers (^) are not in the grammar')
    expect(c.fnOrders).toEqual([])
    expect(c.preset).toBe('slurm')
    await w.get('[data-testid="fn-text"]').setValue(' FN: sqrt( r ) · n ')
    await w.get('[data-testid="fn-add"]').trigger('click')
    expect(w.find('[data-testid="fn-error"]').exists()).toBe(false)
    expect(c.fnOrders).toEqual(['fn:sqrt(r)*n'])
    expect(c.preset).toBe('custom')
    const box = w.get('[data-testid="fn-primaries"] input[type="checkbox"]')
    expect((box.element as HTMLInputElement).checked).toBe(true)
    expect(w.get('[data-testid="fn-primaries"]').text()).toContain('lower f runs first')
    // Unchecked, it stays offered but leaves the candidates.
    await box.setValue(false)
    expect(c.expandedCandidates.some((x) => x.primary === 'fn:sqrt(r)*n')).toBe(false)
    expect(c.fnOrders).toEqual(['fn:sqrt(r)*n'])
    w.unmount()
  })
})

describe('learned functions in the project file', () => {
  it('the ranked list, the budget and what was added survive a save and a reopen', async () => {
    const w = await panel()
    await learned(w)
    await w.findAll('[data-testid="learn-add"]')[0]!.trigger('click')
    w.unmount()
    const text = JSON.stringify(toProject())
    // Another window: nothing learned, the defaults.
    setActivePinia(createPinia())
    expect(useLearnStore().learned).toBeNull()
    fromProject(parseProjectText(text), null)
    const l = useLearnStore()
    expect(l.learned!.functions.map((f) => f.expression)).toEqual(['log10(r)*n+612.5*log10(s)', '1e-7*r+5e-8*n+1e-7*s'])
    expect(l.learned!.functions[0]).toEqual(DOC.functions[0])
    expect(l.learned!.convergence).toEqual(DOC.convergence)
    expect(l.learned!.added).toEqual([F1_LIKE])
    expect(l.learned!.options).toEqual({ trials: 8192, tuples: 2, seed: 3 })
    expect(l.learned!.log).toEqual({ name: 'KTH-SP2-1996-2.1-cln.swf.gz', sha256: 'a'.repeat(64) })
    const c = useCampaignStore()
    expect(c.preset).toBe('custom')
    expect(c.customPrimaries).toContain(F1_LIKE)
    expect(c.fnOrders).toEqual([F1_LIKE])
  })

  it('a file from before learning has none; hostile learned data is refused in words', async () => {
    const w = await panel()
    await learned(w)
    w.unmount()
    const saved = JSON.parse(JSON.stringify(toProject())) as Record<string, unknown> & { learned: Record<string, unknown> & { functions: Record<string, unknown>[] } }
    const { learned: _dropped, ...old } = saved
    expect(ProjectStateSchema.parse(old).learned).toBeUndefined()
    const bad = (edit: (s: typeof saved) => void) => {
      const s = JSON.parse(JSON.stringify(saved)) as typeof saved
      edit(s)
      return () => parseProjectText(JSON.stringify(s))
    }
    expect(bad((s) => { s.learned.functions[0]!.expression = 'constructor' })).toThrow(/learned.functions\[0\].expression fn: expression, character 1: unknown name "constructor"/)
    expect(bad((s) => { s.learned.added = ['SPF'] })).toThrow(/learned.added\[0\] must be an fn: order/)
    expect(bad((s) => { s.learned.added = ['fn:process.exit()'] })).toThrow(/learned.added\[0\] fn: expression, character 8: a "." must sit between digits/)
    expect(bad((s) => { (s.learned.convergence as unknown[]) = [{ trials: 1, normStd: -1 }] })).toThrow(/learned.convergence\[0\].normStd must be at least 0/)
    expect(bad((s) => { s.learned.functions[0]!.rank = 'NaN' })).toThrow(/learned.functions\[0\].rank/)
    expect(bad((s) => { s.learned.extra = 1 })).toThrow(/has an unknown field "extra"/)
  })
})

describe('an fn: order in the results says a lower value runs first', () => {
  it('the table of configurations says so when a candidate is a learned function, and not otherwise', () => {
    const plain = makeResult()
    const withFn = makeResult()
    withFn.candidates[1] = { ...withFn.candidates[1]!, primary: F1_LIKE, backfill: 'same', label: `EASY-${F1_LIKE}` }
    const caption = (r: typeof plain) => mount(CandidatesTable, { props: { result: r }, global: { plugins: [app.pinia] } }).get('caption').text()
    expect(caption(withFn)).toContain('Note: fn: orders are learned functions f where, as in the paper, a LOWER f runs first (priority −f).')
    expect(caption(plain)).not.toContain('LOWER')
  })
})
