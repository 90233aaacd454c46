// Slurm hostlists (docs/CLUSTER.md §Hostlists): `r[1-486]`, `a[01-10,20]`, `rack[1-2]n[1-3]`,
// `n1,n2,gpu[1-4]`. A range's low bound sets the zero padding (`a[01-10]` → a01…a10); several
// bracket groups expand as a Cartesian product, left group outermost; descending or negative
// ranges are invalid. Input is hostile: every size is bounded before anything is allocated.

export class HostlistError extends Error {}

/** Most hosts one hostlist may expand to (a bound against hostile input, far above real machines). */
export const MAX_HOSTS = 1_000_000

/** Expands a hostlist into host names, in order. `None assigned`, `(null)` and '' give []. */
export function expandHostlist(text: string, max = MAX_HOSTS): string[] {
  const s = text.trim()
  if (s === '' || s === 'None assigned' || s === '(null)' || s === 'None') return []
  const out: string[] = []
  for (const item of splitTopLevel(s)) {
    if (item === '') throw new HostlistError(`empty host name in "${s}"`)
    expandOne(item, out, max)
  }
  return out
}

/** Splits at commas outside brackets. */
function splitTopLevel(s: string): string[] {
  const parts: string[] = []
  let depth = 0, from = 0
  for (let i = 0; i < s.length; i++) {
    const c = s[i]
    if (c === '[') { if (depth > 0) throw new HostlistError(`nested "[" in "${s}"`); depth++ }
    else if (c === ']') { if (depth === 0) throw new HostlistError(`"]" without "[" in "${s}"`); depth-- }
    else if (c === ',' && depth === 0) { parts.push(s.slice(from, i).trim()); from = i + 1 }
  }
  if (depth !== 0) throw new HostlistError(`"[" not closed in "${s}"`)
  parts.push(s.slice(from).trim())
  return parts
}

/** One item: literal text and bracket groups, expanded as a product (left group outermost). */
function expandOne(item: string, out: string[], max: number): void {
  // Pieces: alternating literal text and lists of alternatives.
  const groups: string[][] = []
  let i = 0
  while (i < item.length) {
    const open = item.indexOf('[', i)
    if (open < 0) { groups.push([item.slice(i)]); break }
    if (open > i) groups.push([item.slice(i, open)])
    const close = item.indexOf(']', open)
    groups.push(expandRanges(item.slice(open + 1, close), item, max))
    i = close + 1
  }
  let total = 1
  for (const g of groups) total *= g.length
  if (out.length + total > max) throw new HostlistError(`"${item}" expands to more than ${max} hosts`)
  const idx = new Array<number>(groups.length).fill(0)
  for (let k = 0; k < total; k++) {
    let name = ''
    for (let g = 0; g < groups.length; g++) name += groups[g][idx[g]]
    out.push(name)
    for (let g = groups.length - 1; g >= 0; g--) {
      if (++idx[g] < groups[g].length) break
      idx[g] = 0
    }
  }
}

/** `01-10,20` → ['01', …, '10', '20'] (the low bound's width sets the padding). */
function expandRanges(body: string, item: string, max: number): string[] {
  const out: string[] = []
  for (const raw of body.split(',')) {
    const r = raw.trim()
    const m = /^(\d+)(?:-(\d+))?$/.exec(r)
    if (m === null) throw new HostlistError(`"${r}" is not a number or a range a-b in "${item}"`)
    const lo = Number(m[1]), hi = m[2] === undefined ? lo : Number(m[2])
    if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi)) throw new HostlistError(`"${r}" is too large in "${item}"`)
    if (hi < lo) throw new HostlistError(`descending range "${r}" in "${item}"`)
    if (out.length + (hi - lo + 1) > max) throw new HostlistError(`"${item}" expands to more than ${max} hosts`)
    const width = m[1].length
    for (let v = lo; v <= hi; v++) out.push(String(v).padStart(width, '0'))
  }
  return out
}
