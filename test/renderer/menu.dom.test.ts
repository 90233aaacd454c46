// The desktop app's File menu reaches the wizard as `easytune-menu` DOM events (the preload
// re-dispatches main's commands): each command does what its menu item says.
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import ProjectBar from '../../src/renderer/src/components/ProjectBar.vue'
import { useWorkloadStore } from '../../src/renderer/src/stores/workload'
import { useResultsStore } from '../../src/renderer/src/stores/results'
import { useWizardStore } from '../../src/renderer/src/stores/wizard'
import { freshApp, tracked, makeResult, makeWorkload, settle } from './fake-api'

const app = freshApp()

const menu = async (command: string) => {
  window.dispatchEvent(new CustomEvent('easytune-menu', { detail: command }))
  await settle()
}

describe('File menu commands', () => {
  it('save, save as, open and import call the API; export goes to the export step once there is a result', async () => {
    const w = mount(ProjectBar, { global: { plugins: [app.pinia] }, attachTo: document.body })
    await menu('save-project')
    expect(app.api.saveProject).toHaveBeenCalledTimes(1)
    expect((app.api.saveProject as unknown as { mock: { calls: unknown[][] } }).mock.calls[0][1]).toBeUndefined()
    await menu('save-project-as')
    expect((app.api.saveProject as unknown as { mock: { calls: unknown[][] } }).mock.calls[1][1]).toEqual({ saveAs: true })
    await menu('import-log')
    expect(app.api.importLog).toHaveBeenCalledWith({ kind: 'dialog' }, expect.anything(), tracked)
    await menu('export')
    expect(w.text()).toMatch(/Run a campaign first/)
    useResultsStore().setResult(makeResult())
    await menu('export')
    expect(useWizardStore().current.id).toBe('export')
    w.unmount()
  })

  it('new project clears the log and the result and returns to the first step', async () => {
    const w = mount(ProjectBar, { global: { plugins: [app.pinia] }, attachTo: document.body })
    const workload = useWorkloadStore()
    workload.restore(makeWorkload(), {}, null)
    useResultsStore().setResult(makeResult())
    useWizardStore().goTo('results')
    await menu('new-project')
    expect(workload.summary).toBeNull()
    expect(useResultsStore().result).toBeNull()
    expect(useWizardStore().step).toBe(0)
    w.unmount()
    await menu('save-project')
    expect(app.api.saveProject).not.toHaveBeenCalled() // the listener goes away with the component
  })
})
