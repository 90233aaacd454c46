/**
 * Seeded pseudo-random numbers (xoshiro128**, seeded through splitmix32): everything random in
 * EasyTune takes an explicit seed, so the same inputs give the same bytes out.
 */
export class Rng {
  private a: number
  private b: number
  private c: number
  private d: number

  constructor(seed: number) {
    let s = seed >>> 0
    const next = () => {
      s = (s + 0x9e3779b9) >>> 0
      let z = s
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0
      return (z ^ (z >>> 16)) >>> 0
    }
    this.a = next(); this.b = next(); this.c = next(); this.d = next()
  }

  /** Uniform 32-bit unsigned integer. */
  nextU32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5) >>> 0, 7), 9) >>> 0
    const t = (this.b << 9) >>> 0
    this.c ^= this.a; this.d ^= this.b; this.b ^= this.c; this.a ^= this.d
    this.c ^= t
    this.d = rotl(this.d, 11)
    return result
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextU32() / 4294967296
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n)
  }

  /** Uniform in [lo, hi). */
  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next()
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    let u = 0
    while (u === 0) u = this.next()
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next())
  }

  /** In-place Fisher–Yates shuffle. */
  shuffle<T extends { length: number; [i: number]: number } | unknown[]>(a: T): T {
    for (let i = a.length - 1; i > 0; i--) {
      const j = this.int(i + 1)
      const t = a[i]
      a[i] = a[j]
      a[j] = t
    }
    return a
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0
}

/** A child seed derived from a parent seed and a label, so parts of a campaign draw independently. */
export function deriveSeed(seed: number, label: string): number {
  let h = (seed ^ 0x811c9dc5) >>> 0
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193) >>> 0
  return h
}
