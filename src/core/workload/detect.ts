import { InputError } from './errors'
import { stripBom } from './lines'
import type { LogFormat } from './types'

/**
 * Guesses the log format from the first bytes of the file (decompressed). Throws an InputError
 * that quotes the first line when nothing matches, so the user can pick --format.
 */
export function detectFormat(head: Uint8Array): LogFormat {
  const text = stripBom(new TextDecoder('utf-8', { fatal: false }).decode(head.subarray(0, 65536)))
  const lines = text.split(/\r\n|\r|\n/).map((l) => l.trim()).filter((l) => l.length > 0).slice(0, 50)
  if (lines.length === 0) throw new InputError('the file is empty (no lines with content)')
  const first = lines[0]
  if (lines.some((l) => /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2};[A-Z];/.test(l))) return 'pbs'
  if (lines.some((l) => /(^|\s)jobid=\S/i.test(l) && /(^|\s)(start|starttime)=\S/i.test(l))) return 'jobcomp'
  if (/[|,]/.test(first) && /(^|[|,])\s*"?submit"?\s*([|,]|$)/i.test(first)) return 'sacct'
  const jobLines = lines.filter((l) => !l.startsWith(';'))
  // 18 numeric fields, maybe followed by extra columns of any kind (read as SWF with a warning).
  const numeric = jobLines.filter((l) => /^-?\d+(\.\d+)?([ \t]+-?\d+(\.\d+)?){17}([ \t].*)?$/.test(l))
  if (lines.some((l) => l.startsWith(';')) && (jobLines.length === 0 || numeric.length > 0)) return 'swf'
  if (jobLines.length > 0 && numeric.length >= Math.ceil(jobLines.length / 2)) return 'swf'
  throw new InputError(
    `cannot tell the log format. The first line is "${first.length > 100 ? first.slice(0, 97) + '...' : first}". ` +
    'EasyTune reads SWF (.swf, .swf.gz), SLURM sacct -P / CSV output with a header, SLURM jobcomp/filetxt, ' +
    'and PBS/Torque accounting logs; name one with --format swf|sacct|jobcomp|pbs.', 1)
}
