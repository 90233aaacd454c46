// Who gains and who loses (issue #19 item 4): the recommendation versus the baseline, per group of
// jobs, on train and on test. Types first; the computation is added with its tests.

/** One group of jobs (a size class, a requested-time class, an account or a user) and its waits
 * under the baseline and under the recommendation, seconds. */
export interface ImpactGroup {
  /** What the group is, in words ("1 processor", "2–4 processors", "≤ 1 h requested", an account). */
  label: string
  jobs: number
  baselineMeanWait: number
  meanWait: number
  baselineP95Wait: number
  p95Wait: number
  /** meanWait / baselineMeanWait (Infinity when the baseline's mean is 0 and the recommendation's is not; 1 when both are 0). */
  meanRatio: number
}

export interface PartImpact {
  /** Jobs by processors requested (power-of-two classes). */
  bySize: ImpactGroup[]
  /** Jobs by requested time (classes such as ≤ 1 h, 1–4 h, 4–12 h, 12–24 h, > 24 h). */
  byRequested: ImpactGroup[]
  /** The accounts (or users, when the log has no accounts) whose mean wait grows most, largest first. */
  byAccount: ImpactGroup[]
  /** Which of the two the log has: 'account' or 'user'. */
  accountKind: 'account' | 'user'
}

export interface Impact {
  train: PartImpact
  test: PartImpact
  /** Groups whose mean wait rises by more than the risk ratio (protocol.risk.maxWaitRatio) on
   * train or test: the verdict names them. */
  overRisk: { part: 'train' | 'test'; dimension: 'size' | 'requested' | 'account'; label: string; meanRatio: number; jobs: number }[]
}
