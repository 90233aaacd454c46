// The common frame of the line-oriented text formats (sacct, jobcomp, PBS): decode each line,
// collect jobs and unreadable lines, and make submit times relative to the earliest one.
import { BadLines, RawJobsBuilder } from './builder'
import { FieldError } from './errors'
import { LineSplitter, lineText } from './lines'
import { NodeTracker } from './nodes-seen'
import { TimeReader, makeSubmitsRelative } from './timeparse'
import type { LogFormat, LogParser, ParsedLog, RuleCount } from './types'

export abstract class TextLogParser implements LogParser {
  abstract readonly format: LogFormat
  protected readonly splitter = new LineSplitter((buf, start, end, lineNo) => this.readLine(lineText(buf, start, end), lineNo))
  protected readonly jobs = new RawJobsBuilder()
  protected readonly bad = new BadLines()
  protected readonly times = new TimeReader()
  /** The nodes named by the jobs' node lists (parsers that read one add to it). */
  protected readonly nodes = new NodeTracker()

  /** Jobs parsed so far (progress reports). */
  get jobsRead(): number {
    return this.jobs.count
  }

  feed(chunk: Uint8Array): void {
    this.splitter.feed(chunk)
  }

  end(): ParsedLog {
    this.splitter.end()
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
      linesRead: this.splitter.linesRead,
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
