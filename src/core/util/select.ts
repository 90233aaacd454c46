// Hoare's selection (quickselect), the one copy: the campaign's 99th-percentile wait
// (tune/campaign.ts nearestRank) and the node-level machine's choice of the m best nodes for a
// reservation (cluster/machine.ts) both need the k-th smallest of a typed array without sorting it.

/**
 * Rearranges a[lo..hi] in place so that a[k] holds the value a sort would put there, with no larger
 * value before it and no smaller one after it (so a[lo..k] are the k − lo + 1 smallest). A
 * median-of-three pivot; no allocation. The value at k does not depend on the pivots chosen.
 */
export function selectKth(a: Float64Array, lo: number, hi: number, k: number): void {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    const x = a[lo], y = a[mid], z = a[hi]
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : (x < z ? x : y < z ? z : y)
    let i = lo, j = hi
    while (i <= j) {
      while (a[i] < pivot) i++
      while (a[j] > pivot) j--
      if (i <= j) { const t = a[i]; a[i] = a[j]; a[j] = t; i++; j-- }
    }
    // a[lo..j] ≤ pivot ≤ a[i..hi], and between them the pivot itself.
    if (k <= j) hi = j
    else if (k >= i) lo = i
    else return
  }
}
