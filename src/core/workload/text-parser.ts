// The common frame of the line-oriented text formats (sacct, jobcomp, PBS): decode each line,
// collect jobs and unreadable lines, and make submit times relative to the earliest one.
//
// A big log may also be parsed in line-aligned chunks (src/core/workload/text-chunks.ts): each
// chunk by a parser of its own (endChunk), then the chunks absorbed in file order by one more
// parser of the format (absorb, endMerged), which then reports as if it had read every line
// itself: the same jobs, names, counts, examples, warnings and line numbers.
import { BadLines, ExampleCounter, RawJobsBuilder, exactColumns } from './builder'
import { FieldError } from './errors'
import { LineSplitter, lineText } from './lines'
import { NodeTracker, type NodesPart } from './nodes-seen'
import { TimeReader, makeSubmitsRelative } from './timeparse'
import type { LineIssue, LogFormat, LogParser, ParsedLog, RawJobs, RuleCount } from './types'

/** How a text parser starts: at the file's start (the default), or in the middle of it. */
export interface TextParserOptions {
  /** The bytes continue the file from a line boundary (a chunk after the first): no text check and
   * no byte-order mark, which belong to the file's start. */
  continuation?: boolean
  /** sacct: the file's header line, already read elsewhere (the chunks after the one holding it). */
  header?: { text: string; lineNo: number }
}

/**
 * A parser's own counts for its report (rows set aside by rule, values derived …), kept in one
 * object so that the counts of chunks parsed apart add up: a number adds, an ExampleCounter adds
 * its count and keeps the first examples (lines moved by the lines before), a Map adds per key in
 * order of first appearance.
 */
export type Tally = Record<string, number | ExampleCounter | Map<string, number>>

/** What one chunk of a text log gives: its jobs (submit times absolute, line numbers from 1 in the
 * chunk, indices into its own name lists), its bad lines, nodes, time-zone count and tally. */
export interface TextChunk {
  jobs: RawJobs
  users: string[]
  accounts: string[]
  partitions: string[]
  qosNames: string[]
  nodes: NodesPart
  linesRead: number
  badLines: number
  badLineExamples: LineIssue[]
  naiveIso: { count: number; example: string }
  /** Tally after a structured clone: ExampleCounters arrive as plain { count, lines }. */
  tally: Record<string, number | { count: number; lines: number[] } | Map<string, number>>
}

/** A text log's columns are sized once this much of it was read (LogParser.expectBytes). */
const SIZE_AFTER_BYTES = 4 << 20

/**
 * The jobs to size a text log's columns for, from `jobs` read in its first `bytes` of `total`: a
 * few percent over that rate (the mix of steps, pending jobs and jobs varies a little along a
 * log) and 1,024 more. Without it the columns doubled as they filled: the old and the new held
 * at once, ending up to twice the log (docs/PERFORMANCE.md §2026-11-29 — the text formats).
 */
export function jobsForBytes(jobs: number, bytes: number, total: number): number {
  return Math.ceil((jobs / bytes) * total * 1.03) + 1024
}

export abstract class TextLogParser implements LogParser {
  abstract readonly format: LogFormat
  protected readonly splitter: LineSplitter
  protected readonly jobs = new RawJobsBuilder()
  protected readonly bad = new BadLines()
  protected readonly times = new TimeReader()
  /** The nodes named by the jobs' node lists (parsers that read one add to it). */
  protected readonly nodes = new NodeTracker()
  protected abstract readonly tally: Tally
  /** A column `rawId` enabled after the first jobs gives them their own id (jobcomp: RawJobsBuilder.enableAsId). */
  protected readonly rawIdIsId: boolean = false
  protected readonly continuation: boolean
  /** Lines of the chunks absorbed so far (absorb). */
  private mergedLines = 0

  constructor(opts: TextParserOptions = {}) {
    this.continuation = opts.continuation === true
    this.splitter = new LineSplitter((buf, start, end, lineNo) => this.readLine(lineText(buf, start, end), lineNo), this.continuation)
  }

  /** Jobs parsed so far (progress reports). */
  get jobsRead(): number {
    return this.jobs.count
  }

  feed(chunk: Uint8Array): void {
    this.splitter.feed(chunk)
    if (this.expected > 0) {
      this.fed += chunk.length
      if (this.fed >= SIZE_AFTER_BYTES && this.jobs.count > 0) {
        this.jobs.reserve(jobsForBytes(this.jobs.count, this.fed, this.expected))
        this.expected = 0 // sized once
      }
    }
  }

  private expected = 0
  private fed = 0

  /** The decompressed size of the whole log (LogParser.expectBytes): the columns are sized from
   * the jobs per byte of its first few MiB, then grow by an eighth instead of doubling. */
  expectBytes(total: number): void {
    if (Number.isFinite(total) && total > 0) this.expected = total
  }

  /** Sizes the columns for about this many jobs (a chunk's line count: text-chunks.ts). Not
   * LogParser.reserve: the importer's estimate from a file's head would count job steps as jobs. */
  reserveRows(jobs: number): void {
    this.jobs.reserve(jobs)
  }

  end(): ParsedLog {
    this.splitter.end()
    return this.finish(this.splitter.linesRead)
  }

  /** The chunk this parser was fed, for TextChunkMerger: exact-size columns a thread can transfer. */
  endChunk(): TextChunk {
    this.splitter.end()
    const j = this.jobs
    return {
      jobs: exactColumns(j.finish()), users: j.users, accounts: j.accounts, partitions: j.partitions, qosNames: j.qosNames,
      nodes: this.nodes.part(), linesRead: this.splitter.linesRead, badLines: this.bad.count, badLineExamples: this.bad.examples,
      naiveIso: this.times.naive(), tally: this.tally,
    }
  }

  /** Takes in the next chunk of the file (in file order), as if its lines had been read here; its columns are freed. */
  absorb(c: TextChunk): void {
    const offset = this.mergedLines
    this.jobs.append(c.jobs, c, offset, this.rawIdIsId)
    this.bad.absorb(c.badLines, c.badLineExamples, offset)
    this.times.absorb(c.naiveIso)
    this.nodes.absorb(c.nodes, c.partitions.map((p) => this.jobs.internPartition(p)))
    for (const [k, v] of Object.entries(c.tally)) {
      const mine = this.tally[k]
      if (typeof mine === 'number') this.tally[k] = mine + (v as number)
      else if (mine instanceof Map) for (const [key, n] of v as Map<string, number>) mine.set(key, (mine.get(key) ?? 0) + n)
      else mine.absorb(v as { count: number; lines: number[] }, offset)
    }
    this.mergedLines += c.linesRead
  }

  /** Lines absorbed so far. */
  get linesAbsorbed(): number {
    return this.mergedLines
  }

  /** The log of every chunk absorbed, as end() gives it for the whole file. */
  endMerged(): ParsedLog {
    return this.finish(this.mergedLines)
  }

  private finish(linesRead: number): ParsedLog {
    this.checkComplete()
    const unixStartTime = makeSubmitsRelative(this.jobs)
    return {
      format: this.format,
      jobs: this.jobs.finish(),
      users: this.jobs.users,
      ...(this.jobs.accounts.length > 0 ? { accounts: this.jobs.accounts } : {}),
      ...(this.jobs.has('partition') ? { partitions: this.jobs.partitions } : {}),
      ...(this.jobs.has('qos') ? { qosNames: this.jobs.qosNames } : {}),
      ...(this.nodes.size > 0 ? { nodesSeen: this.nodes.finish() } : {}),
      header: this.header(),
      maxProcs: null,
      maxNodes: null,
      unixStartTime,
      linesRead,
      badLines: this.bad.count,
      badLineExamples: this.bad.examples,
      parserDrops: this.drops(),
      warnings: [...this.warnings(), ...nonNull(this.nodes.warning())],
    }
  }

  /** A field that cannot be read (FieldError from the field readers) makes the line a bad line. */
  private readLine(line: string, lineNo: number): void {
    try {
      this.onLine(line, lineNo)
    } catch (e) {
      if (!(e instanceof FieldError)) throw e
      this.bad.add(lineNo, e.code, e.message)
    }
  }

  protected abstract onLine(line: string, lineNo: number): void
  /** Rows the parser set aside, by rule. */
  protected abstract drops(): RuleCount[]
  protected abstract warnings(): string[]
  /** Throws an InputError when the input as a whole is unusable (e.g. no header). */
  protected checkComplete(): void {}
  protected header(): Record<string, string> {
    return {}
  }
}

function nonNull<T>(v: T | null): T[] {
  return v === null ? [] : [v]
}
