import type { BadLineCode } from './limits'
import { showControl } from '../util/control'

/**
 * An input problem the user can fix: says what is wrong in plain words and, when it is about one
 * place, which line. The CLI adds the file name and exits 2; no stack trace is shown.
 */
export class InputError extends Error {
  readonly line: number | null
  /** Set when one line makes the whole file unreadable (e.g. `line-too-long`). */
  readonly code: BadLineCode | null
  constructor(message: string, line: number | null = null, code: BadLineCode | null = null) {
    super(showControl(message)) // it may quote the log's text, shown in a terminal or the GUI
    this.name = 'InputError'
    this.line = line
    this.code = code
  }
}

/**
 * One field of one line cannot be read: thrown by the field readers (timeparse.ts) and caught by
 * the parser's line loop, which records the line as a bad line with this code. Never leaves a parser.
 */
export class FieldError extends Error {
  constructor(readonly code: BadLineCode, message: string) {
    super(message)
    this.name = 'FieldError'
  }
}
