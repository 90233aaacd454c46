// NAG, Normalized Adaptive Gradient descent (Ross, Mineiro and Langford, "Normalized Online
// Learning", UAI 2013, Algorithm 2), the learner of thesis ch. 4 (docs/PREDICTIONS.md §Model).
// Plain Float64Arrays, nothing allocated per step, so it can be checked apart from the features.
//
// For the example Φ (d coordinates) and the slope ℓ' = ∂ℒ/∂f at f = wᵀΦ:
//   scale:  for every i with |Φ_i| > s_i:  w_i ← w_i·s_i/|Φ_i|,  s_i ← |Φ_i|
//   update: t ← t + 1;  N ← N + Σ_{s_i > 0} Φ_i²/s_i²
//           g_i = ℓ'·Φ_i + λ·w_i/‖w‖  (the subgradient of λ‖w‖₂, 0 at w = 0; ‖w‖ before the step)
//           G_i ← G_i + g_i²;  w_i ← w_i − η·sqrt(t/N)·g_i/(s_i·sqrt(G_i))   (coordinates with g_i = 0 do not move)

/** The dimension of Φ for n raw features: 1 + 2n + C(n, 2) (the constant, the features, their squares, their pairwise products). */
export function phiDimension(n: number): number {
  return 1 + 2 * n + (n * (n - 1)) / 2
}

/**
 * Φ(x) written into `phi` (length phiDimension(n)), from x = src[at .. at+n):
 * (1, x_1..x_n, x_1²..x_n², x_1x_2, x_1x_3, …, x_1x_n, x_2x_3, …, x_{n−1}x_n).
 */
export function expandPhi(src: Float64Array, at: number, n: number, phi: Float64Array): void {
  phi[0] = 1
  let k = 1 + 2 * n
  for (let i = 0; i < n; i++) {
    const xi = src[at + i]
    phi[1 + i] = xi
    phi[1 + n + i] = xi * xi
    for (let l = i + 1; l < n; l++) phi[k++] = xi * src[at + l]
  }
}

export class Nag {
  /** 1/s_i (0 while s_i = 0): divisions become products in the step. */
  private readonly inv: Float64Array
  /** The weights w. */
  readonly w: Float64Array
  /** s_i: the largest |Φ_i| seen so far. */
  readonly s: Float64Array
  /** G_i: the sum of the squared gradient components so far. */
  readonly G: Float64Array
  /** N: the sum over the updates of Σ Φ_i²/s_i². */
  N = 0
  /** t: the number of updates so far (1 during the first). */
  t = 0

  /** `eta`: η, the step (in units of f: seconds for the regression); `lambda`: λ of λ‖w‖₂. */
  constructor(readonly dim: number, readonly eta: number, readonly lambda: number) {
    this.w = new Float64Array(dim)
    this.s = new Float64Array(dim)
    this.G = new Float64Array(dim)
    this.inv = new Float64Array(dim)
  }

  /** Widens the scales to Φ, shrinking the weights of the widened coordinates so wᵀΦ keeps its meaning. */
  scale(phi: Float64Array): void {
    const { w, s, dim } = this
    for (let i = 0; i < dim; i++) {
      const a = Math.abs(phi[i])
      if (a > s[i]) {
        w[i] = (w[i] * s[i]) / a
        s[i] = a
        this.inv[i] = 1 / a
      }
    }
  }

  /** scale(Φ) then wᵀΦ, in one pass (the regression's prediction). */
  scaleAndPredict(phi: Float64Array): number {
    const { w, s, inv, dim } = this
    let f = 0
    for (let i = 0; i < dim; i++) {
      const x = phi[i], a = Math.abs(x)
      if (a > s[i]) {
        w[i] = (w[i] * s[i]) / a
        s[i] = a
        inv[i] = 1 / a
      }
      f += w[i] * x
    }
    return f
  }

  /** f = wᵀΦ. */
  predict(phi: Float64Array): number {
    const w = this.w
    let f = 0
    for (let i = 0; i < this.dim; i++) f += w[i] * phi[i]
    return f
  }

  /** One step on the example Φ whose loss has slope `slope` = ∂ℒ/∂f (taken at f = wᵀΦ after scale(Φ)). Scales first. */
  update(phi: Float64Array, slope: number): void {
    this.scale(phi)
    this.step(phi, slope)
  }

  /** The step of `update` for a Φ already within the scales (|Φ_i| ≤ s_i for every i: scale(Φ) was called on it before). */
  step(phi: Float64Array, slope: number): void {
    const { w, inv, G, dim } = this
    let sum = 0, norm2 = 0
    for (let i = 0; i < dim; i++) {
      const r = phi[i] * inv[i] // 0 where s_i = 0 (then Φ_i = 0 too)
      sum += r * r
      norm2 += w[i] * w[i]
    }
    this.t++
    this.N += sum
    if (!(this.N > 0)) return
    const rate = this.eta * Math.sqrt(this.t / this.N)
    const reg = norm2 > 0 ? this.lambda / Math.sqrt(norm2) : 0
    for (let i = 0; i < dim; i++) {
      const g = slope * phi[i] + reg * w[i]
      if (g === 0) continue
      const gi = G[i] + g * g
      G[i] = gi
      w[i] -= (rate * g * inv[i]) / Math.sqrt(gi)
    }
  }
}
