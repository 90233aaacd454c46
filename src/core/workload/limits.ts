// What a value read from a log may be (docs/SIMULATOR.md §Bad lines). A value outside its field's
// range makes its line a bad line with the reason code `out-of-range`: it never reaches a typed
// array as NaN/Infinity, never wraps around in an Int32Array, and every time built from it stays
// within what a JavaScript Date holds (so `toISOString` cannot throw on log data).

/** Latest time a log may hold, epoch seconds: 9999-12-31T23:59:59Z. A Date holds ±8.64e12 s, so
 * the sum of two such times (a submit plus a duration) is still a valid Date. */
export const MAX_EPOCH_SECONDS = 253402300799
/** Longest duration (run time, wait, time limit), seconds: the same bound as a time. */
export const MAX_DURATION_SECONDS = MAX_EPOCH_SECONDS
/** Largest count (processors, nodes, status codes): what an Int32Array holds, 2³¹ − 1. */
export const MAX_COUNT = 0x7fffffff
/** Largest magnitude of any other number (job ids, user numbers, memory): exact in a double, 2⁵³ − 1. */
export const MAX_EXACT = Number.MAX_SAFE_INTEGER

/**
 * Why a line was rejected: one stable code per cause, shown with the line number in the import
 * report and checked by the fuzz test (test/fuzz). Documented in docs/SIMULATOR.md §Bad lines.
 */
export const BAD_LINE_CODES = [
  'too-few-fields', 'too-many-fields', 'not-a-number', 'out-of-range', 'bad-time', 'bad-duration',
  'missing-field', 'bad-quote', 'not-a-record', 'line-too-long',
] as const
export type BadLineCode = (typeof BAD_LINE_CODES)[number]
