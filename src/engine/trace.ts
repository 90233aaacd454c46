// EASYTUNE_TRACE_POOL=1: the engine pool's time line on stderr, for docs/PERFORMANCE.md §The pool at full speed.
// One line per event, stamped in milliseconds of wall-clock time (the same clock in the parent and
// every worker, so their lines sort into one time line) and with this process's CPU time so far.
// Off (a no-op) unless the variable is set; never set it in normal use.
const on = typeof process !== 'undefined' && process.env?.EASYTUNE_TRACE_POOL === '1'

/** Writes one trace line when tracing is on. */
export function trace(what: string): void {
  if (!on) return
  const u = process.cpuUsage()
  process.stderr.write(`[pool-trace ${(performance.timeOrigin + performance.now()).toFixed(1)} pid=${process.pid} cpu=${((u.user + u.system) / 1000).toFixed(0)}ms] ${what}\n`)
}

export const tracing = on
