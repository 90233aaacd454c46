// Issue #20: the import report's offered-load warning names the app's own control (the Machine size
// field), never the CLI's --procs; the words come from core (src/core/workload/load.ts).
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import ImportReport from '../../src/renderer/src/components/ImportReport.vue'
import { overloadWarning } from '../../src/core/workload/load'
import { freshApp, makeWorkload } from './fake-api'

const app = freshApp()

describe('the import report in the app', () => {
  it('says the load over 100 % with the Machine size field named, and no CLI flag', () => {
    const base = makeWorkload()
    const warning = overloadWarning({ ratio: 3.2, work: 3.2e6, spanSeconds: 1e4 })!
    const summary = makeWorkload({ report: { ...base.report, warnings: [warning] } })
    const w = mount(ImportReport, { props: { summary }, global: { plugins: [app.pinia] } })
    const items = w.findAll('.warnings li').map((li) => li.text())
    expect(items).toHaveLength(1)
    expect(items[0]).toMatch(/^The jobs ask for 320 % of the machine .*give the real machine size in the Machine size field above\.$/)
    expect(w.text()).not.toMatch(/--procs/)
    expect(w.find('label[for="procs"]').text()).toBe('Machine size') // the field the words name
  })
})
