// How a sharded campaign's cells are dealt to the shards of a Slurm job array (docs/CLI.md §Running on a Slurm cluster):
// round robin over the campaign's cell order, so each shard gets a mix of train and test,
// resampled and real-week cells (their costs differ), the same deal for the same cells and N.

/** The shard of each of `cells` cells (index i goes to shard i mod `shards`); every cell exactly once. */
export function dealShards(cells: number, shards: number): Int32Array {
  if (!Number.isInteger(shards) || shards < 1) throw new RangeError(`the number of shards must be a whole number of at least 1, got ${shards}`)
  if (!Number.isInteger(cells) || cells < 0) throw new RangeError(`the number of cells must be a whole number, got ${cells}`)
  const shard = new Int32Array(cells)
  for (let i = 0; i < cells; i++) shard[i] = i % shards
  return shard
}

/** The shard numbers as Slurm's --array option writes them: "0-3", "2", "0,2,5-7". */
export function arrayRange(shards: readonly number[]): string {
  const s = [...new Set(shards)].sort((a, b) => a - b)
  const parts: string[] = []
  for (let i = 0; i < s.length;) {
    let j = i
    while (j + 1 < s.length && s[j + 1] === s[j] + 1) j++
    parts.push(i === j ? `${s[i]}` : `${s[i]}-${s[j]}`)
    i = j + 1
  }
  return parts.join(',')
}
