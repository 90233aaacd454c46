// Slurm's fair-share factor (docs/CLUSTER.md §Slurm scheduling, "Fair-share"): usage per
// association, decayed with PriorityDecayHalfLife, turned into a factor either by the classic
// formula (PriorityFlags=NO_FAIR_TREE) or by Fair Tree's ranking (the default).
//
// The association tree is root → account → user, built from the log's Account and User columns
// (a job without one goes to an "unknown" account or user). Every association has 1 share unless
// the caller gives raw shares per account or per user (sacctmgr's Fairshare=; a log has none). Billable = allocated CPUs (TRESBillingWeights not modelled),
// QOS UsageFactor 1. A job's usage is added at each calc tick for the time since the previous one
// and at its end, as Δt CPU·s × cpus × d^Δt (as if it all happened at the interval's start).
import type { ClusterJobs } from '../types'

/** Per-second decay factor d = 1 − 0.693/HL (Slurm's linear approximation of 2^(−1/HL)); 1 = no decay. */
export function decayPerSecond(halfLife: number): number {
  return halfLife > 0 ? 1 - 0.693 / halfLife : 1
}

export class FairShare {
  /** Per job: index of its user association. */
  readonly assocOf: Int32Array
  /** Per user association: its account. */
  readonly accountOf: Int32Array
  readonly userAssocs: number
  readonly accounts: number
  /** usage_raw per user association and per account (CPU·s, decayed). */
  readonly usage: Float64Array
  readonly accountUsage: Float64Array
  /** The fair-share factor of each user association, as of the last tick. */
  readonly factor: Float64Array
  /** Raw shares: per account, per user association; level_shares: the sums over siblings. */
  private readonly accShare: Float64Array
  private readonly userShare: Float64Array
  private readonly usersShares: Float64Array
  private accSharesTotal = 0
  private readonly accEfctv: Float64Array
  private readonly d: number
  private readonly fairTree: boolean
  private readonly damp: number
  // Fair Tree scratch, allocated once.
  private readonly accOrder: Int32Array
  private readonly accLf: Float64Array
  private readonly userOrder: Int32Array
  private readonly userLf: Float64Array

  /**
   * `shares`: raw shares by the log's account index and user index (missing, NaN or ≤ 0: 1); a
   * user's share applies to each of its associations.
   */
  constructor(jobs: ClusterJobs, halfLife: number, fairTree: boolean, dampening: number,
    shares: { account?: ArrayLike<number>; user?: ArrayLike<number> } = {}) {
    this.d = decayPerSecond(halfLife)
    this.fairTree = fairTree
    this.damp = dampening > 0 ? dampening : 1
    // Accounts: the log's indices, plus one "unknown" account for -1.
    let maxAcc = -1, maxUser = -1
    for (let j = 0; j < jobs.count; j++) { maxAcc = Math.max(maxAcc, jobs.account[j]); maxUser = Math.max(maxUser, jobs.user[j]) }
    const accCount = maxAcc + 2 // index maxAcc+1 = unknown
    const ids = new Map<number, number>()
    const accOf: number[] = []
    const userOfAssoc: number[] = []
    const accLogIndex: number[] = []
    this.assocOf = new Int32Array(jobs.count)
    for (let j = 0; j < jobs.count; j++) {
      const a = jobs.account[j] >= 0 ? jobs.account[j] : maxAcc + 1
      const u = jobs.user[j] >= 0 ? jobs.user[j] : maxUser + 1
      const key = a * (maxUser + 2) + u
      let id = ids.get(key)
      if (id === undefined) { id = accOf.length; ids.set(key, id); accOf.push(a); userOfAssoc.push(jobs.user[j]) }
      this.assocOf[j] = id
    }
    // Keep only accounts that have a user association (sacctmgr lists those).
    const accRemap = new Int32Array(accCount).fill(-1)
    let accounts = 0
    for (const a of accOf) if (accRemap[a] < 0) { accRemap[a] = accounts++; accLogIndex.push(a <= maxAcc ? a : -1) }
    this.accounts = accounts
    this.userAssocs = accOf.length
    this.accountOf = Int32Array.from(accOf, (a) => accRemap[a])
    const raw = (v: number | undefined) => (v !== undefined && v > 0 ? v : 1)
    this.accShare = Float64Array.from(accLogIndex, (a) => raw(a >= 0 ? shares.account?.[a] : undefined))
    this.userShare = Float64Array.from(userOfAssoc, (u) => raw(u >= 0 ? shares.user?.[u] : undefined))
    this.usersShares = new Float64Array(accounts)
    for (let i = 0; i < this.userAssocs; i++) this.usersShares[this.accountOf[i]] += this.userShare[i]
    for (let a = 0; a < accounts; a++) this.accSharesTotal += this.accShare[a]
    this.usage = new Float64Array(this.userAssocs)
    this.accountUsage = new Float64Array(accounts)
    this.accEfctv = new Float64Array(accounts)
    this.factor = new Float64Array(this.userAssocs).fill(1)
    this.accOrder = new Int32Array(accounts)
    this.accLf = new Float64Array(accounts)
    this.userOrder = new Int32Array(this.userAssocs)
    this.userLf = new Float64Array(this.userAssocs)
    this.recomputeFactors()
  }

  /** Add `cpus` CPUs used for `dt` seconds by job j (decayed as d^dt). */
  addUsage(j: number, cpus: number, dt: number): void {
    if (!(dt > 0)) return
    const u = cpus * dt * (this.d === 1 ? 1 : Math.pow(this.d, dt))
    const a = this.assocOf[j]
    this.usage[a] += u
    this.accountUsage[this.accountOf[a]] += u
  }

  /**
   * First half of a calc tick (docs/CLUSTER.md §Slurm scheduling, "Fair-share": the order inside one tick): classic computes the
   * accounts' effective usage from the usage before decay; both then apply decay for `dt` seconds.
   * The caller then adds the running jobs' usage and calls endTick().
   */
  beginTick(dt: number): void {
    if (!this.fairTree) {
      const root = this.rootUsage()
      for (let a = 0; a < this.accounts; a++) this.accEfctv[a] = root > 0 ? Math.min(1, this.accountUsage[a] / root) : 0
    }
    if (this.d !== 1 && dt > 0) {
      const f = Math.pow(this.d, dt)
      for (let i = 0; i < this.userAssocs; i++) this.usage[i] *= f
      for (let a = 0; a < this.accounts; a++) this.accountUsage[a] *= f
    }
  }

  /** Second half of a calc tick: the factors from the usage now (Fair Tree: the whole tree). */
  endTick(): void {
    this.recomputeFactors(this.fairTree ? null : this.accEfctv)
  }

  rootUsage(): number {
    let r = 0
    for (let a = 0; a < this.accounts; a++) r += this.accountUsage[a]
    return r
  }

  private recomputeFactors(accEfctv: Float64Array | null = null): void {
    if (this.fairTree) this.fairTreeFactors()
    else this.classicFactors(accEfctv)
  }

  /**
   * Classic: U_n = usage/root (capped at 1); an account (child of root) has U_e = its U_n; a user
   * U_e = U_n + (U_e(account) − U_n)·shares/level_shares; shares_norm = the product of
   * shares/level_shares on the path; F = 2^(−(U_e/S)/damp).
   */
  private classicFactors(accEfctv: Float64Array | null): void {
    const root = this.rootUsage()
    for (let i = 0; i < this.userAssocs; i++) {
      const a = this.accountOf[i]
      const un = root > 0 ? Math.min(1, this.usage[i] / root) : 0
      const accE = accEfctv !== null ? accEfctv[a] : (root > 0 ? Math.min(1, this.accountUsage[a] / root) : 0)
      const share = this.userShare[i] / this.usersShares[a]
      const ue = un + (accE - un) * share
      const sNorm = (this.accShare[a] / this.accSharesTotal) * share
      this.factor[i] = sNorm > 0 ? Math.pow(2, -(ue / sNorm) / this.damp) : 0
    }
  }

  /**
   * Fair Tree: level fair-share LF = S/U at each level (S = shares/level_shares, U = usage/parent's
   * usage; U = 0 gives ∞). Siblings in descending LF; accounts with equal LF have their users
   * merged; users are visited depth-first and get rank/(number of user associations), the rank
   * starting at that number, dropping by one per user, shared by users of equal LF.
   */
  private fairTreeFactors(): void {
    const root = this.rootUsage()
    const nAcc = this.accounts
    for (let a = 0; a < nAcc; a++) {
      const u = root > 0 ? this.accountUsage[a] / root : 0
      this.accLf[a] = u === 0 ? Infinity : (this.accShare[a] / this.accSharesTotal) / u
      this.accOrder[a] = a
    }
    const accLf = this.accLf
    const accSorted = Array.from(this.accOrder).sort((x, y) => cmpLfDesc(accLf[x], accLf[y]) || (x - y))
    for (let i = 0; i < this.userAssocs; i++) {
      const a = this.accountOf[i]
      const u = this.accountUsage[a] > 0 ? this.usage[i] / this.accountUsage[a] : 0
      this.userLf[i] = u === 0 ? Infinity : (this.userShare[i] / this.usersShares[a]) / u
    }
    // Users grouped by account once (accounts' users in index order).
    const byAcc: number[][] = Array.from({ length: nAcc }, () => [])
    for (let i = 0; i < this.userAssocs; i++) byAcc[this.accountOf[i]].push(i)
    const total = this.userAssocs
    let rank = total, rnt = total
    const userLf = this.userLf
    for (let k = 0; k < accSorted.length;) {
      // Merge the users of every account tied with this one.
      let end = k + 1
      while (end < accSorted.length && sameLf(accLf[accSorted[end]], accLf[accSorted[k]])) end++
      const users: number[] = []
      for (let m = k; m < end; m++) users.push(...byAcc[accSorted[m]])
      users.sort((x, y) => cmpLfDesc(userLf[x], userLf[y]) || (x - y))
      for (let m = 0; m < users.length; m++) {
        const tied = m > 0 && sameLf(userLf[users[m]], userLf[users[m - 1]])
        if (!tied) rank = rnt
        this.factor[users[m]] = rank / total
        rnt--
      }
      k = end
    }
  }
}

function sameLf(a: number, b: number): boolean { return a === b }
function cmpLfDesc(a: number, b: number): number {
  if (a === b) return 0
  return a > b ? -1 : 1
}
