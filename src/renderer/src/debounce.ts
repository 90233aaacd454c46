// Calls `fn` once, `ms` after the last of a burst of calls (drags, typing).
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): ((...args: A) => void) & { flush: () => void; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | null = null
  let last: A | null = null
  const run = () => { timer = null; if (last) { const a = last; last = null; fn(...a) } }
  const wrapped = (...args: A) => {
    last = args
    if (timer) clearTimeout(timer)
    timer = setTimeout(run, ms)
  }
  wrapped.flush = () => { if (timer) { clearTimeout(timer); run() } }
  wrapped.cancel = () => { if (timer) clearTimeout(timer); timer = null; last = null }
  return wrapped
}
