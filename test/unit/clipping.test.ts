// Clipped content (issue #20): tables and the export's code boxes scroll or grow, never cut their
// content at a fixed height. happy-dom has no layout, so this reads the rules the page applies;
// test/e2e/wizard.test.ts checks the drawn pages in Chromium.
import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'

const css = readFileSync('src/renderer/src/styles/components.css', 'utf8')

/** The declarations of the rule whose selector list is exactly `selector`. */
function rule(selector: string): Record<string, string> {
  const m = [...css.matchAll(/([^{}]+)\{([^{}]*)\}/g)].find((r) => r[1].replace(/\/\*[\s\S]*?\*\//g, '').trim() === selector)
  expect(m, selector).toBeTruthy()
  return Object.fromEntries(m![2].split(';').map((d) => d.split(':').map((x) => x.trim())).filter((d) => d[0]).map(([k, ...v]) => [k, v.join(':')]))
}

describe('nothing is clipped', () => {
  it('the export code boxes scroll both ways and can be pulled taller; no fixed height', () => {
    const r = rule('pre.code')
    expect(r.overflow).toBe('auto')
    expect(r.resize).toBe('vertical')
    expect(r.height).toBeUndefined()
    expect(r['max-height']).toMatch(/vh/)
  })

  it('tables (the online selection, the changes, every data table) scroll in their wrapper in both directions', () => {
    const r = rule('.table-wrap')
    expect(r.overflow).toBe('auto')
    expect(r.height).toBeUndefined()
    expect(rule('.changes-table td code')['overflow-wrap']).toBe('anywhere')
  })
})
