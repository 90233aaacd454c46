// Chunked parsing of the text formats (sacct, jobcomp, PBS) for src/node/parse-parallel.ts: the
// decompressed stream cut into line-aligned chunks (chunks.ts), each parsed apart by a parser of
// its format (TextLogParser.endChunk), then absorbed in file order by one more parser, whose log is
// then the one the whole file parsed in one go gives (test/reallogs/parse-chunks.test.ts).
//
// Every line of these formats stands alone once the file's header is known: sacct's header line
// (the column names) is read from the head of the file and given to every chunk after the one that
// holds it; jobcomp and PBS have none. Steps, array tasks and requeued runs are rows of their own
// (sacct.ts, jobcomp.ts, pbs.ts): nothing joins two lines.
import { createJobcompParser } from './jobcomp'
import { createPbsParser } from './pbs'
import { createSacctParser, sacctHeaderOf } from './sacct'
import { jobsForBytes, type TextChunk, type TextLogParser, type TextParserOptions } from './text-parser'
import type { LogFormat, ParsedLog } from './types'

export type TextFormat = Exclude<LogFormat, 'swf'>

const TEXT_PARSERS: Record<TextFormat, (o: TextParserOptions) => TextLogParser> = {
  sacct: createSacctParser, jobcomp: createJobcompParser, pbs: createPbsParser,
}

/** What every chunk of a log needs to know of the file, and where the first chunk must end at the earliest. */
export interface TextChunkPlan {
  format: TextFormat
  /** sacct: the header line (text and line number); null for the formats without one. */
  header: { text: string; lineNo: number } | null
  /** The first chunk reaches at least this many bytes into the file (past sacct's header line). */
  firstMinBytes: number
}

/** The plan for a log whose first bytes are `head`; null when it must be parsed in one go (a sacct
 * head without a usable header line: the sequential parse reports it). */
export function planTextChunks(format: TextFormat, head: Uint8Array): TextChunkPlan | null {
  if (format !== 'sacct') return { format, header: null, firstMinBytes: 0 }
  const h = sacctHeaderOf(head)
  return h === null ? null : { format, header: { text: h.text, lineNo: h.lineNo }, firstMinBytes: h.endByte }
}

/** The fewest bytes per job row the columns are sized for (the shortest sacct rows seen in real logs are ~60 bytes). */
export const MIN_ROW_BYTES = 32

/** Parses one chunk of whole lines: the file's first chunk (`first`) or a continuation of it. */
export function parseTextChunk(plan: TextChunkPlan, bytes: Uint8Array, first: boolean): TextChunk {
  const p = TEXT_PARSERS[plan.format](first ? {} : { continuation: true, ...(plan.header !== null ? { header: plan.header } : {}) })
  // Room for a job per line (LF-ended): a chunk without steps then fills its columns exactly and
  // sends them without a copy, and no column is grown (and its old copy left to the collector).
  // At most one per MIN_ROW_BYTES: a chunk of blank lines (hostile input) must not size, and fill,
  // columns for millions of jobs; a log of shorter rows only grows its columns as it reads.
  let lines = 1
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) lines++
  p.reserveRows(Math.min(lines, Math.ceil(bytes.length / MIN_ROW_BYTES)))
  p.feed(bytes)
  return p.endChunk()
}

/** The chunks of one log, absorbed as they come in file order; end() gives the log. */
export class TextChunkMerger {
  private readonly host: TextLogParser

  constructor(plan: TextChunkPlan) {
    // The host reads no line: it knows the header as every chunk after the first does.
    this.host = TEXT_PARSERS[plan.format]({ continuation: true, ...(plan.header !== null ? { header: plan.header } : {}) })
  }

  /** Lines of the chunks merged so far (a later chunk's line k is file line k + linesRead). */
  get linesRead(): number {
    return this.host.linesAbsorbed
  }

  private expected = 0
  private sized = false

  /** The decompressed size of the whole log, when known (a file's size, a gzip trailer): the first
   * chunk with jobs sizes the merged columns for the whole log (jobsForBytes), which then grow by
   * an eighth instead of doubling as chunks come. */
  expectBytes(total: number): void {
    if (Number.isFinite(total) && total > 0) this.expected = total
  }

  /** Absorbs the next chunk; `bytes`: its length in the file (0 when unknown). */
  add(c: TextChunk, bytes = 0): void {
    if (!this.sized && this.expected > 0 && bytes > 0 && c.jobs.count > 0) {
      this.sized = true
      this.host.reserveRows(jobsForBytes(c.jobs.count, bytes, this.expected))
    }
    this.host.absorb(c)
  }

  end(): ParsedLog {
    return this.host.endMerged()
  }
}

/** The chunks of one log, in order, as one parse (tests: the same as parsing the file whole). */
export function mergeTextChunks(plan: TextChunkPlan, chunks: readonly TextChunk[]): ParsedLog {
  const m = new TextChunkMerger(plan)
  for (const c of chunks) m.add(c)
  return m.end()
}
