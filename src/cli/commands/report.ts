import { writeFileSync } from 'node:fs'
import { bool, jsonTarget, parseArgs, str, UsageError } from '../args'
import { writeJson, type Io } from '../output'
import { FileInputError } from '../../node/read-log'
import { readRegularFileSync } from '../../node/regular-file'
import { validateResult } from '../../core/export/report-model'
import { validateWalltimes } from '../../core/export/report-walltimes'
import { printToPdf, renderReportHtml } from '../../node/report/index'

export const reportHelp = `easytune report <result.json> --out report.html [--pdf report.pdf] [--walltimes walltimes.json]

Writes the offline report of an evaluation (the file of easytune evaluate --json <file>): one
self-contained HTML file that loads nothing from the network (styles, data and chart code
inline), with the log and its cleaning, the split, protocol and seed, the recommendation with
its train/test gains and confidence intervals, the longest-wait risk, the charts, every
candidate, the SLURM and PBS configuration with its fidelity notes, the calibration against the
recorded waits, and the citations.

  --out F          the HTML file (default: the result's name with .html)
  --pdf F          also print it to PDF with headless Chromium (found on the usual paths and
                   $PATH, or set EASYTUNE_CHROMIUM); without Chromium the HTML is still written
                   and the command exits 1
  --json [file]    what was written, as JSON
  --walltimes F    the time-limits analysis (easytune walltimes <log> --json F): adds the section
                   "Time limits: user education and default limits per partition", naming the
                   users and partitions to start with (users as pseudonyms)
  --names          with --walltimes, show the user names the analysis holds (made with
                   walltimes --names): for local eyes only, the report then names people

Example:
  easytune evaluate resources/KTH-SP2-1996-2.1-cln.swf.gz --json kth.json
  easytune report kth.json --out kth.html --pdf kth.pdf
`

export async function reportCommand(argv: string[], io: Io): Promise<number> {
  const a = parseArgs(argv, { out: 'string', pdf: 'string', json: 'optional', help: 'boolean', walltimes: 'string', names: 'boolean' })
  if (bool(a, 'help')) { io.out(reportHelp); return 0 }
  if (a.positionals.length !== 1) throw new UsageError(`report needs one result file (from easytune evaluate --json <file>)${a.positionals.length ? `; got ${a.positionals.join(' ')}` : ''}`)
  const path = a.positionals[0]
  const out = str(a, 'out') ?? path.replace(/(\.json)?$/i, '.html')
  const pdf = str(a, 'pdf')
  const json = jsonTarget(a)
  if (out === path || pdf === path) throw new UsageError('--out and --pdf must not overwrite the result file')

  const text = readRegularFileSync(path).replace(/^\uFEFF/, '') // a byte-order mark is not JSON
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (e) {
    throw new FileInputError(path, null, `is not a JSON result file (${(e as Error).message}); make one with easytune evaluate <log> --json ${path}`)
  }
  try {
    validateResult(data)
  } catch (e) {
    throw new FileInputError(path, null, (e as Error).message)
  }
  const wPath = str(a, 'walltimes')
  if (bool(a, 'names') && wPath === undefined) throw new UsageError('--names only applies with --walltimes')
  let walltimes: unknown
  if (wPath !== undefined) {
    try {
      walltimes = JSON.parse(readRegularFileSync(wPath).replace(/^\uFEFF/, ''))
      validateWalltimes(walltimes)
    } catch (e) {
      throw new FileInputError(wPath, null, e instanceof SyntaxError ? `is not a JSON file (${e.message}); make one with easytune walltimes <log> --json ${wPath}` : (e as Error).message)
    }
  }
  const t0 = performance.now()
  const html = renderReportHtml(data, undefined, { walltimes, names: bool(a, 'names') })
  writeFileSync(out, html)
  io.err(`wrote ${out} (${(Buffer.byteLength(html) / 1024).toFixed(0)} KB) in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`)
  let pdfWritten: string | null = null
  let code = 0
  if (pdf !== undefined) {
    const r = await printToPdf(out, pdf)
    if (r.ok) {
      pdfWritten = pdf
      io.err(`wrote ${pdf} with ${r.browser} in ${r.seconds.toFixed(1)} s\n`)
    } else {
      io.err(`easytune report: no PDF: ${r.message}. The HTML report ${out} was written; open it in a browser and print it.\n`)
      code = 1
    }
  }
  if (json) writeJson(io, json, { schemaVersion: 1, result: path, html: out, pdf: pdfWritten })
  if (!json || json.file !== null) io.out(`Report: ${out}${pdfWritten ? `\nPDF: ${pdfWritten}` : ''}\n`)
  return code
}
