// The bundled sample log (resources/, the PWA's KTH-SP2 log) as the tests expect it to import:
// read with the plain reading (plain-reading.ts), not with EasyTune, so that no expected count in
// a test is EasyTune's own output.
import { plainClean, plainSwf } from './plain-reading'

export const SAMPLE_LOG = 'resources/KTH-SP2-1996-2.1-cln.swf.gz'

const log = plainSwf(SAMPLE_LOG)
const machine = Number(log.header.get('MaxProcs'))
const cleaned = plainClean(log, machine)

export const SAMPLE = {
  /** Job lines in the file (SOURCES.md documents 28,476). */
  jobsRead: log.jobs.length,
  /** The header's MaxProcs. */
  machine,
  /** Jobs left after the cleaning rules with the default options. */
  jobsKept: cleaned.kept,
  /** Jobs removed per rule, and their line numbers. */
  removed: cleaned.removed,
  removedLines: cleaned.lines,
} as const
