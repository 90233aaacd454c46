/**
 * An input problem the user can fix: says what is wrong in plain words and, when it is about one
 * place, which line. The CLI adds the file name and exits 2; no stack trace is shown.
 */
export class InputError extends Error {
  readonly line: number | null
  constructor(message: string, line: number | null = null) {
    super(message)
    this.name = 'InputError'
    this.line = line
  }
}
