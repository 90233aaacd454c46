// The one error type for malformed API input: the transports map it to HTTP 400 (browser mode)
// and to the rejected promise's message (IPC). Its message is plain words a person can read.

/** The arguments were malformed: the message says what is wrong, in plain words. */
export class ApiInputError extends Error {
  override name = 'ApiInputError'
}
