// The Import step takes several files as one log (daily jobcomp files, monthly sacct dumps): the
// file input accepts several, each is handed over in name order, they are imported together
// (importLog's 'handles') and the import report lists each file.
import { describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import ImportStep from '../../src/renderer/src/steps/ImportStep.vue'
import { freshApp, makeWorkload, type FakeApi } from './fake-api'

const app = freshApp()

describe('several files as one log', () => {
  it('uploads each chosen file in name order, imports them as one log and lists each file in the report', async () => {
    app.api.addLogFile = vi.fn(async (file: File, onProgress?: (s: number, t: number) => void) => {
      onProgress?.(file.size, file.size)
      return { handle: `h-${file.name.replace(/\W/g, '')}`, name: file.name }
    }) as FakeApi['addLogFile']
    const w0 = makeWorkload()
    const files = [
      { name: '2021-05-30.log', jobsRead: 3, duplicates: 0, firstSubmit: 0, lastSubmit: 7200, startIso: null, endIso: null },
      { name: '2021-06-15.log', jobsRead: 2, duplicates: 1, firstSubmit: 7200, lastSubmit: 10800, startIso: null, endIso: null },
    ]
    app.api.importLog = vi.fn(async () => ({ ...w0, report: { ...w0.report, files, duplicates: 1, gaps: [] } }))
    const w = mount(ImportStep, { global: { plugins: [app.pinia], stubs: { ChartPanel: true } }, attachTo: document.body })
    const input = w.get('input[type="file"]')
    expect((input.element as HTMLInputElement).multiple).toBe(true)
    Object.defineProperty(input.element, 'files', { value: [new File(['bb'], '2021-06-15.log'), new File(['a'], '2021-05-30.log')] })
    await input.trigger('change')
    await flushPromises()
    expect(vi.mocked(app.api.addLogFile).mock.calls.map((c) => (c[0] as File).name)).toEqual(['2021-05-30.log', '2021-06-15.log'])
    expect(vi.mocked(app.api.importLog).mock.calls[0]![0]).toEqual({ kind: 'handles', handles: ['h-20210530log', 'h-20210615log'] })
    const rows = w.get('[data-testid="import-files"]').findAll('tbody tr').map((r) => r.findAll('td').slice(0, 3).map((c) => c.text()))
    expect(rows).toEqual([['2021-05-30.log', '3', '0'], ['2021-06-15.log', '2', '1']])
    w.unmount()
  })
})
