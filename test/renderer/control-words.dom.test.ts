// The GUI speaks its own controls (issue #20): every message that reaches the page from the back
// end or the core (import warnings and errors, the machine-size note, the estimate's problem, a
// run's error or warning, an analysis error, the export's notes, the verdict's reason) passes
// through controlWords, and no "--flag" of the CLI is left in it (test/unit/control-words.test.ts
// checks every flag named in the sources).
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import ImportReport from '../../src/renderer/src/components/ImportReport.vue'
import { controlWords } from '../../src/renderer/src/format'
import { errorMessage } from '../../src/renderer/src/apiRef'
import { initialRun, reduceRun } from '../../src/renderer/src/stores/campaignReducer'
import { machineSize } from '../../src/core/workload/clean'
import type { ParsedLog } from '../../src/core/workload/types'
import { freshApp, makeWorkload } from './fake-api'

const app = freshApp()
const noFlag = (s: string) => expect(s, s).not.toMatch(/(?<![\w-])--[a-z]/)

describe('controlWords', () => {
  it('turns the real messages into the wizard\'s controls', () => {
    expect(controlWords('A real machine is usually larger; give the real size with --procs.'))
      .toBe('A real machine is usually larger; give the real size in the Machine size field.')
    const noJob = 'Import again with --requested-fallback runtime (perfect estimates) or --requested-fallback <duration> (e.g. 24h, one limit for every job).'
    expect(controlWords(noJob)).toBe('Import again with "Jobs without a requested time: use their actual runtime" (a cleaning option of the import) (perfect estimates) or a fixed requested time for every job (command line only) (e.g. 24h, one limit for every job).')
    noFlag(controlWords('the log format is not recognised; name one with --format swf|sacct|jobcomp|pbs.'))
    noFlag(controlWords('expected a JSON object from `easytune evaluate --json`'))
    // sacct's own option is the user's command, not EasyTune's: it stays.
    expect(controlWords('export with sacct --parsable2')).toBe('export with sacct --parsable2')
  })

  it('reaches every path a message takes: thrown errors, run errors and warnings', () => {
    noFlag(errorMessage(new Error('no job was kept: every job is larger than the machine: give the real machine size with --procs.')))
    let s = reduceRun({ ...initialRun(), campaignId: 'c1', status: 'running' }, { kind: 'warning', campaignId: 'c1', message: 'give the real size with --procs' } as never)
    s = reduceRun(s, { kind: 'warning', campaignId: 'c1', message: 'give the real size with --procs' } as never)
    expect(s.warnings).toEqual(['give the real size in the Machine size field']) // once, in words
    s = reduceRun(s, { kind: 'error', campaignId: 'c1', message: 'the test part spans less than one full week; lower --weeks' } as never)
    noFlag(s.error ?? '')
  })
})

describe('the import report', () => {
  const inferred = machineSize({ maxProcs: null, maxNodes: null, jobs: { count: 1, reqProcs: new Float64Array([64]), allocProcs: new Float64Array([64]) } } as unknown as ParsedLog)

  it('the machine-size warning: in GUI words, one full stop, shown once (not again in the warnings list)', () => {
    const w = makeWorkload()
    w.report.machine = { ...inferred }
    const missing = 'Requested time is missing for 12 jobs (1.0%). EASY reserves and backfills on requested times, so these jobs were removed. To keep them, choose a fallback (--requested-fallback runtime uses the actual runtime).'
    // What the core's import adds for this machine, and a warning repeated (a merged log's parts).
    w.report.warnings = [`Machine size: ${inferred.note.replace(/\.?$/, '.')}`, missing, missing]
    const r = mount(ImportReport, { props: { summary: w }, global: { plugins: [app.pinia] } })
    const para = r.get('[data-testid="machine-warning"]').text()
    expect(para).toContain('64 processors, inferred from the largest job')
    expect(para).not.toMatch(/\.\./)
    noFlag(para)
    const items = r.findAll('[data-testid="import-warnings"] li').map((li) => li.text())
    expect(items).toHaveLength(1)
    expect(items[0]).toContain('"Jobs without a requested time: use their actual runtime" (a cleaning option of the import)')
    noFlag(r.text())
    expect(r.text()).not.toMatch(/\.\./)
    r.unmount()
  })

  it('a header-MaxNodes machine: its warning stays in the list, in GUI words', () => {
    const w = makeWorkload()
    const nodes = machineSize({ maxProcs: null, maxNodes: 32, jobs: { count: 0, reqProcs: new Float64Array(), allocProcs: new Float64Array() } } as unknown as ParsedLog)
    w.report.machine = nodes
    w.report.warnings = [`Machine size: ${nodes.note.replace(/\.?$/, '.')}`]
    const r = mount(ImportReport, { props: { summary: w }, global: { plugins: [app.pinia] } })
    const items = r.findAll('[data-testid="import-warnings"] li').map((li) => li.text())
    expect(items).toEqual(['Machine size: 32 processors, from the log header\'s MaxNodes (there is no MaxProcs line; if nodes have several processors each, give the real size in the Machine size field).'])
    r.unmount()
  })
})
