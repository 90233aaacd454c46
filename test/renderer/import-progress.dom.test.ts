// The Import step while a log imports: every import is tracked (an id sent with importLog), its
// 'import-progress' events show bytes and jobs read so far, and Cancel stops the upload (browser
// mode) or the import itself (app.api.cancel with the id), leaving the step usable with a calm note.
import { describe, expect, it, vi } from 'vitest'
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import ImportStep from '../../src/renderer/src/steps/ImportStep.vue'
import { newImportId, useWorkloadStore } from '../../src/renderer/src/stores/workload'
import { createBrowserApi } from '../../src/renderer/src/api/browser'
import type { WorkloadSummary } from '../../src/shared/api'
import { freshApp, makeWorkload, type FakeApi } from './fake-api'

const app = freshApp()

const mountStep = (): VueWrapper => mount(ImportStep, { global: { plugins: [app.pinia], stubs: { ChartPanel: true } }, attachTo: document.body })

/** importLog that waits for the test (like a large log being read); `id` is the import's id. */
function pendingImport(): { id: () => string; answer: (w: WorkloadSummary) => void; fail: (e: Error) => void } {
  let answer: (w: WorkloadSummary) => void = () => {}
  let fail: (e: Error) => void = () => {}
  app.api.importLog = vi.fn(() => new Promise<WorkloadSummary>((res, rej) => { answer = res; fail = rej }))
  return {
    id: () => (vi.mocked(app.api.importLog).mock.calls[0]![2] as { importId: string }).importId,
    answer: (w) => answer(w),
    fail: (e) => fail(e),
  }
}

describe('import progress', () => {
  it('shows bytes read (MB, one decimal) and jobs parsed so far (thousands separators) for its own import only', async () => {
    const imp = pendingImport()
    const w = mountStep()
    await w.get('[data-testid="open-sample"]').trigger('click')
    await flushPromises()
    expect(app.api.importListeners.size).toBe(1)
    const id = imp.id()
    expect(id).toMatch(/^[A-Za-z0-9_-]{1,64}$/)
    expect(w.text()).toContain('Reading and cleaning the bundled sample (KTH-SP2)…')
    expect(w.get('[role="progressbar"]').attributes('aria-valuenow')).toBeUndefined()
    app.api.emitImport({ importId: id, kind: 'progress', bytesRead: 1_234_567, totalBytes: 4_938_268, jobsRead: 12_345 })
    await flushPromises()
    expect(w.text()).toContain('Reading the bundled sample (KTH-SP2): 1.2 MB of 4.9 MB (25%), 12,345 jobs so far')
    expect(w.get('[role="progressbar"]').attributes('aria-valuenow')).toBe('25')
    // Another import's events (or a campaign's, on its own stream) change nothing.
    app.api.emitImport({ importId: 'someone-else', kind: 'progress', bytesRead: 9, totalBytes: 10, jobsRead: 1 })
    app.api.emit({ campaignId: id, kind: 'warning', message: 'not mine to show' })
    await flushPromises()
    expect(w.text()).toContain('12,345 jobs so far')
    app.api.emitImport({ importId: id, kind: 'progress', bytesRead: 4_938_268, totalBytes: 4_938_268, jobsRead: 1_028_476 })
    await flushPromises()
    expect(w.text()).toContain('Read the bundled sample (KTH-SP2): 4.9 MB, 1,028,476 jobs; cleaning and inspecting…')
    imp.answer(makeWorkload())
    await flushPromises()
    expect(w.find('[role="progressbar"]').exists()).toBe(false)
    expect(app.api.importListeners.size).toBe(0) // unsubscribed once done
    expect(useWorkloadStore().reading).toBeNull()
    w.unmount()
  })

  it('Cancel while importing calls app.api.cancel with the import\'s id; the step is usable again', async () => {
    const imp = pendingImport()
    const w = mountStep()
    await w.get('[data-testid="open-sample"]').trigger('click')
    await flushPromises()
    app.api.emitImport({ importId: imp.id(), kind: 'progress', bytesRead: 100_000, totalBytes: 400_000, jobsRead: 7000 })
    await flushPromises()
    expect(w.get('[data-testid="open-sample"]').attributes('disabled')).toBeDefined()
    await w.get('[data-testid="cancel-import"]').trigger('click')
    await flushPromises()
    expect(app.api.cancel).toHaveBeenCalledWith(imp.id())
    expect(app.api.cancel).toHaveBeenCalledTimes(1)
    imp.fail(new Error('the import was cancelled')) // the back end's answer: no error shown
    await flushPromises()
    expect(w.find('[data-testid="import-error"]').exists()).toBe(false)
    expect(w.find('[role="progressbar"]').exists()).toBe(false)
    expect(w.get('[data-testid="import-notice"]').text()).toBe('Import cancelled.')
    expect(w.get('[data-testid="open-sample"]').attributes('disabled')).toBeUndefined()
    expect(useWorkloadStore().status).toBe('idle')
    expect(app.api.importListeners.size).toBe(0)
    // A new import clears the note and carries a new id.
    const cancelledId = imp.id()
    app.api.importLog = vi.fn(async () => makeWorkload())
    await w.get('[data-testid="open-sample"]').trigger('click')
    await flushPromises()
    expect(w.find('[data-testid="import-notice"]').exists()).toBe(false)
    expect((vi.mocked(app.api.importLog).mock.calls[0]![2] as { importId: string }).importId).not.toBe(cancelledId)
    w.unmount()
  })

  it('Cancel while uploading aborts the upload and does not call app.api.cancel', async () => {
    let signal: AbortSignal | undefined
    app.api.addLogFile = vi.fn((_f: File, on?: (s: number, t: number) => void, s?: AbortSignal) => {
      signal = s
      on?.(3_000_000, 12_000_000)
      return new Promise<{ handle: string; name: string }>((_, reject) => s?.addEventListener('abort', () => reject(new Error('the upload was cancelled'))))
    }) as FakeApi['addLogFile']
    const w = mountStep()
    const input = w.get('.dropzone input[type="file"]')
    Object.defineProperty(input.element, 'files', { value: [new File(['x'], 'site.swf')], configurable: true })
    await input.trigger('change')
    await flushPromises()
    expect(w.text()).toContain('Uploading site.swf: 3.0 MB of 12.0 MB (25%)')
    await w.get('[data-testid="cancel-import"]').trigger('click')
    await flushPromises()
    expect(signal?.aborted).toBe(true)
    expect(app.api.cancel).not.toHaveBeenCalled()
    expect(app.api.importLog).not.toHaveBeenCalled()
    expect(w.get('[data-testid="import-notice"]').text()).toBe('Import cancelled.')
    expect(w.find('[data-testid="import-error"]').exists()).toBe(false)
    w.unmount()
  })

  it('after the upload, Cancel stops the import of the uploaded file (not the finished upload)', async () => {
    const imp = pendingImport()
    const store = useWorkloadStore()
    const p = store.importFile(new File(['x'], 'site.swf'))
    await flushPromises()
    expect(store.status).toBe('importing')
    store.cancel()
    expect(app.api.cancel).toHaveBeenCalledWith(imp.id())
    imp.fail(new Error('the import was cancelled'))
    await p
    expect(store.error).toBeNull()
    expect(store.notice).toBe('Import cancelled.')
  })

  it('ids are fresh and valid back-end ids; the browser client sends the tracking argument', async () => {
    const a = newImportId(), b = newImportId()
    expect(a).not.toBe(b)
    for (const id of [a, b]) expect(id).toMatch(/^[A-Za-z0-9_-]{1,64}$/)
    const fetch = vi.fn(async () => new Response(JSON.stringify({ ok: true, value: { id: 'w1' } }), { status: 200 }))
    vi.stubGlobal('fetch', fetch)
    try {
      await createBrowserApi({ token: 'abcdefghijklmnopqrstuvwxyz012345' }).importLog({ kind: 'sample' }, {}, { importId: a })
      expect(JSON.parse(String((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].body))).toEqual([{ kind: 'sample' }, {}, { importId: a }])
    } finally {
      vi.unstubAllGlobals()
    }
  })
})
