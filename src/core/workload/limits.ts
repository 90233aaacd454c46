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

/** Most distinct node names a log's node lists may name, and most nodes one job's list may expand
 * to (a bound against hostile input: `n[1-999999999]`). Far above real machines' node counts (Frontier
 * 9,408); beyond it the import warns and stops counting new nodes. */
export const MAX_NODES_SEEN = 100_000

/**
 * Why a line was rejected: one stable code per cause, shown with the line number in the import
 * report and checked by the fuzz test (test/fuzz). Documented in docs/SIMULATOR.md §Bad lines.
 */
export const BAD_LINE_CODES = [
  'too-few-fields', 'too-many-fields', 'not-a-number', 'out-of-range', 'bad-time', 'bad-duration',
  'missing-field', 'bad-quote', 'not-a-record', 'line-too-long', 'bad-hostlist', 'bad-resource',
] as const
export type BadLineCode = (typeof BAD_LINE_CODES)[number]
