// Control characters from a log never reach a terminal, the HTML report or the GUI raw (issue
// #20): an ANSI escape in an SWF header comment or in a bad line's excerpt would recolour or
// rewrite the terminal. The escaping function is pure and shown here with hand-worked values;
// the CLI and the report are then checked byte by byte on a hostile log.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { hasControl, showControl, showControlOneLine } from '../../src/core/util/control'
import { renderReportHtml } from '../../src/node/report/index'
import { runCli } from '../support/cli'
import { switchResult } from '../fixtures/results/results'

/** Bytes below 0x20 other than newline and tab, and DEL: what a terminal could act on. */
function rawControls(text: string): string[] {
  return [...Buffer.from(text, 'utf8')].filter((b) => (b < 0x20 && b !== 0x0a && b !== 0x09) || b === 0x7f).map((b) => `0x${b.toString(16)}`)
}

describe('showControl', () => {
  test.each([
    ['\x1b[31mred\x1b[0m', '\\x1b[31mred\\x1b[0m'],
    ['bell\x07 nul\x00 cr\r bs\b del\x7f', 'bell\\x07 nul\\x00 cr\\x0d bs\\x08 del\\x7f'],
    ['C1 CSI \u009b2J', 'C1 CSI \\x9b2J'],
    ['right-to-left override \u202eabc\u2066', 'right-to-left override \\u202eabc\\u2066'],
    ['tab\tand\nnewline kept', 'tab\tand\nnewline kept'],
    ['Königliche Tekniska Högskolan, 東京, emoji 🙂, non-breaking\u00a0space', 'Königliche Tekniska Högskolan, 東京, emoji 🙂, non-breaking\u00a0space'],
  ])('%j → %j', (input, shown) => {
    expect(showControl(input)).toBe(shown)
    expect(showControl(showControl(input))).toBe(shown) // idempotent
  })

  test('the one-line form shows tabs and newlines too; hasControl says whether anything would change', () => {
    expect(showControlOneLine('a\tb\nc\x1b')).toBe('a\\x09b\\x0ac\\x1b')
    expect(hasControl('plain text, ünïcödé')).toBe(false)
    expect(hasControl('a\x1bb')).toBe(true)
    expect(hasControl('a\tb\nc')).toBe(false)
  })
})

describe('a hostile SWF log', () => {
  const dir = mkdtempSync(join(tmpdir(), 'easytune-ctl-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const job = (id: number, submit: number) => `${id} ${submit} -1 100 1 -1 -1 1 200 -1 1 1 1 -1 -1 -1 -1 -1`
  const log = join(dir, 'hostile.swf')
  writeFileSync(log, [
    '; MaxProcs: 8',
    '; Acknowledge: \x1b[31mEvil Corp\x1b[0m\x07 with a backspace\x08 and a DEL\x7f here',
    '; Installation: Site\x1b]0;pwned\x07 \u202eevil',
    '; Computer: one\rtwo', // CR ends a line: 'two' is line 5, so the bad line 31 is line 36
    ...Array.from({ length: 30 }, (_, i) => job(i + 1, i * 600)),
    `31 18000 -1 1\x1b[2J00 1 -1 -1 1 200 -1 1 1 1 -1 -1 -1 -1 -1`,
    `32 18600 \x07\x08 100 1 -1 -1 1 200 -1 1 1 1 -1 -1 -1 -1 -1`,
    '; MaxNodes: \x1b[5m9x',
    job(33, 19200),
  ].join('\n') + '\n')

  test.each([['import'], ['simulate']])('easytune %s: stdout and stderr hold no raw control byte, and show the escapes', async (command) => {
    const r = await runCli([command, log])
    expect(r.code).toBe(0)
    expect(rawControls(r.stdout)).toEqual([])
    expect(rawControls(r.stderr)).toEqual([])
    if (command === 'import') {
      expect(r.stdout).toContain('\\x1b[31mEvil Corp\\x1b[0m\\x07')
      expect(r.stdout).toMatch(/line 36 \(not-a-number\): field 4 \("1\\x1b\[2J00"\) is not a number/)
    }
  })

  test('easytune import --json keeps the JSON valid and free of raw control bytes', async () => {
    const r = await runCli(['import', log, '--json'])
    expect(rawControls(r.stdout)).toEqual([])
    expect(JSON.parse(r.stdout).header.Acknowledge).toBe('\\x1b[31mEvil Corp\\x1b[0m\\x07 with a backspace\\x08 and a DEL\\x7f here')
  })

  test('a NUL byte makes the log binary: refused (exit 2) with a message free of raw control bytes', async () => {
    const nul = join(dir, 'nul.swf')
    writeFileSync(nul, '; Acknowledge: \x1b[31mx\x00\n' + job(1, 0) + '\n')
    const r = await runCli(['import', nul])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/NUL bytes/)
    expect(rawControls(r.stderr)).toEqual([])
  })

  test('a log whose format cannot be told, with control characters on its first line: the error is escaped', async () => {
    const bad = join(dir, 'bad.log')
    writeFileSync(bad, 'this is not a job log \x1b[31m at all, just words\x07\n'.repeat(20))
    const r = await runCli(['import', bad])
    expect(r.code).toBe(2)
    expect(rawControls(r.stderr)).toEqual([])
    expect(r.stderr).toContain('\\x1b[31m')
  })
})

test('the HTML report holds no raw control byte, even from a result file that has them', () => {
  const r = switchResult()
  r.log.importReport.header = { ...r.log.importReport.header, Acknowledge: 'Evil\x1b[31m Corp\x07', Installation: 'Site\x00\u202e' }
  r.log.importReport.warnings = [...r.log.importReport.warnings, 'warned \x1b[2J here\r']
  const html = renderReportHtml(r)
  expect(rawControls(html)).toEqual([])
  expect(html).not.toContain('\u202e')
  expect(html).toContain('Evil\\x1b[31m Corp\\x07')
})
