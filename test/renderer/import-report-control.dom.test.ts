// The GUI's import report shows a log's control characters as escapes, never raw (issue #20): the
// header fields, the warnings, the bad lines' excerpts and the log's name come from the file (or
// from a project saved by an older version, before the importer escaped them).
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import ImportReport from '../../src/renderer/src/components/ImportReport.vue'
import { freshApp, makeWorkload } from './fake-api'

const app = freshApp()

describe('ImportReport', () => {
  it('shows ESC, BEL, CR and NUL from the log as \\x escapes', () => {
    const w = makeWorkload()
    w.report = {
      ...w.report,
      name: 'evil\x1b[2J.swf',
      header: { ...w.report.header, Acknowledge: '\x1b[31mEvil Corp\x1b[0m\x07', Installation: 'Site\r\x00' },
      warnings: ['The header\'s MaxNodes "\x1b[5m9x" is not a number'],
      badLines: { count: 1, examples: [{ line: 36, code: 'not-a-number', message: 'field 4 ("1\x1b[2J00") is not a number' }] },
    }
    const c = mount(ImportReport, { props: { summary: w }, global: { plugins: [app.pinia] } })
    const text = c.text()
    expect(text).toContain('Import report: evil\\x1b[2J.swf')
    expect(text).toContain('\\x1b[31mEvil Corp\\x1b[0m\\x07')
    expect(text).toContain('Site\\x0d\\x00')
    expect(text).toContain('"\\x1b[5m9x"')
    expect(text).toContain('line 36 (not-a-number): field 4 ("1\\x1b[2J00") is not a number')
    expect(c.html()).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/)
    c.unmount()
  })
})
