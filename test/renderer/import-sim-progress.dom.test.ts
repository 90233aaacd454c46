// Issue #20: after reading, the import's whole-log EASY-FCFS run reports jobs started of the jobs
// kept (ImportEvent.simulated); the Import step shows it on its progress bar, and Cancel is still
// offered and cancels this import.
import { describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import ImportStep from '../../src/renderer/src/steps/ImportStep.vue'
import type { WorkloadSummary } from '../../src/shared/api'
import { freshApp } from './fake-api'

const app = freshApp()

describe('import progress while the whole log is simulated', () => {
  it('shows jobs started of the total and a bar at that share; Cancel cancels the import', async () => {
    let fail: (e: Error) => void = () => {}
    app.api.importLog = vi.fn(() => new Promise<WorkloadSummary>((_, rej) => { fail = rej }))
    const w = mount(ImportStep, { global: { plugins: [app.pinia], stubs: { ChartPanel: true } }, attachTo: document.body })
    await w.get('[data-testid="open-sample"]').trigger('click')
    await flushPromises()
    const id = (vi.mocked(app.api.importLog).mock.calls[0]![2] as { importId: string }).importId
    app.api.emitImport({ importId: id, kind: 'progress', bytesRead: 4_938_268, totalBytes: 4_938_268, jobsRead: 200_000, simulated: { jobs: 50_000, of: 200_000 } })
    await flushPromises()
    expect(w.text()).toContain('Simulating the bundled sample (KTH-SP2) under EASY-FCFS: 50,000 of 200,000 jobs started (25%)')
    expect(w.get('[role="progressbar"]').attributes('aria-valuenow')).toBe('25')
    // Then on the nodes the log names (the comparison with its recorded starts).
    app.api.emitImport({ importId: id, kind: 'progress', bytesRead: 4_938_268, totalBytes: 4_938_268, jobsRead: 200_000, simulated: { jobs: 150_000, of: 200_000, nodes: 486 } })
    await flushPromises()
    expect(w.text()).toContain('Simulating the bundled sample (KTH-SP2) under EASY-FCFS on the 486 nodes it names, to compare with the starts it recorded: 150,000 of 200,000 jobs started (75%)')
    expect(w.get('[role="progressbar"]').attributes('aria-valuenow')).toBe('75')
    await w.get('[data-testid="cancel-import"]').trigger('click')
    await flushPromises()
    expect(app.api.cancel).toHaveBeenCalledWith(id)
    fail(new Error('the import was cancelled'))
    await flushPromises()
    expect(w.get('[data-testid="import-notice"]').text()).toBe('Import cancelled.')
    w.unmount()
  })
})
