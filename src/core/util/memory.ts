// Freeing big typed arrays at once, the one copy: the import's columns (workload/builder.ts),
// the fidelity's per-job arrays (tune/fidelity.ts) and the sorts' scratch arrays (util/order.ts).

/**
 * Frees a column's memory now, when it owns its whole buffer (the array then reads as empty):
 * garbage collection of big typed arrays lags far behind their use, so a copied chunk or a raw
 * column no longer needed would otherwise stay resident at the import's peak (docs/PERFORMANCE.md
 * §Import at scale). Without ArrayBuffer.prototype.transfer (older browsers) nothing happens.
 * `prefixOk`: also a view of the start of a longer buffer (a builder's columns, given up whole).
 */
export function releaseColumn(a: ArrayBufferView | undefined, prefixOk = false): void {
  if (a === undefined) return
  const b = a.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer }
  if (typeof b.transfer === 'function' && a.byteOffset === 0 && (prefixOk || a.byteLength === b.byteLength)) b.transfer(0)
}
