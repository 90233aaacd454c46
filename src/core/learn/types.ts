// The trials of the learned-priority method (SC'17, docs/LEARN.md §Trials): what they take and what
// they hand to the regression. Plain data: structured-clone safe (crosses the worker boundary),
// JSON safe (cached, written by `easytune learn --json`).

/** The budget and shape of a trials run (defaults: DEFAULTS.learnTrials in src/core/defaults.ts). */
export interface TrialsConfig {
  /** |S|: tasks started first, in log order, to give a realistic machine state (16). */
  readonly sizeS: number
  /** |Q|: the tasks whose order is permuted and scored (32). */
  readonly sizeQ: number
  /** Ceiling of trials (random permutations of Q) per (S, Q) tuple (the paper's 256,000). */
  readonly trials: number
  /** K: the number of (S, Q) tuples drawn. */
  readonly tuples: number
  /** Early stop: a tuple stops when the normalised standard deviation of its scores falls below
   * this (0.02, the paper's Fig. 2; docs/LEARN.md §Trials defines the measure). 0 = never stop early. */
  readonly stopAt: number
  /** τ of the bounded slowdown, seconds (10). */
  readonly tau: number
  /** Seed: the same seed, log and config give the same samples whatever the number of workers. */
  readonly seed: number
}

/**
 * One task of Q with its eq. 3 score: the regression's sample. Features in the units of F1–F4:
 * r = requested time p̃ (seconds, the product's r = max(p̃, 1)), n = cores, s = submit time (seconds)
 * measured from the submit of the tuple's first task (the first task of S), floored at 1 s so that
 * log₁₀(s) is defined (docs/LEARN.md §Trials).
 */
export interface TaskSample {
  /** Index of the tuple (0 … K − 1) this task belongs to. */
  readonly tuple: number
  /** r: requested time, seconds, ≥ 1. */
  readonly r: number
  /** n: cores. */
  readonly n: number
  /** s: submit offset from the tuple's first task, seconds, ≥ 1. */
  readonly s: number
  /** Actual runtime p, seconds (not a feature of ℱ; for inspection). */
  readonly p: number
  /** eq. 3: Σ AvgBsld of the trials whose first task is this one / Σ AvgBsld of all the tuple's
   * trials. Mean over Q = 1/|Q|; lower = a better task to start first. */
  readonly score: number
}

/** One point of a convergence series: the normalised std of the scores after `trials` trials. */
export interface ConvergencePoint {
  readonly trials: number
  /** |Q| · RMS standard error of the scores (docs/LEARN.md §Trials); Infinity before two trials
   * (JSON: null). */
  readonly normStd: number
}

/** What one (S, Q) tuple gave. */
export interface TupleResult {
  readonly tuple: number
  /** Index in the training part of the tuple's first job (S then Q are the next |S| + |Q| jobs). */
  readonly firstJob: number
  /** Trials simulated for this tuple (≤ the ceiling; fewer when it stopped early). */
  readonly trials: number
  /** True when the normalised std fell below stopAt before the ceiling. */
  readonly stoppedEarly: boolean
  /** The tuple's |Q| samples, in the tuple's (log) order of Q. */
  readonly samples: readonly TaskSample[]
  /** The normalised std after each batch of trials. */
  readonly convergence: readonly ConvergencePoint[]
}

/**
 * Where a tuple was after a whole number of batches (docs/LEARN.md §Trials, resumable): the eq. 3
 * sums and the convergence so far. With it runTuple continues the same tuple (it replays the
 * permutations drawn so far without simulating them) and gives the result bit for bit of an
 * uninterrupted run. Plain data (crosses the worker boundary; JSON in the cache, normStd Infinity
 * as null).
 */
export interface TupleCheckpoint {
  readonly tuple: number
  /** Trials done: a multiple of TRIALS_BATCH below the ceiling. */
  readonly trials: number
  /** Per task t of Q: Σ AvgBsld of the trials that started with t, and Σ of their squares. */
  readonly a: readonly number[]
  readonly b: readonly number[]
  /** Σ AvgBsld over all the trials, and Σ of their squares. */
  readonly y: number
  readonly y2: number
  /** The normalised std after each batch so far (trials / TRIALS_BATCH points). */
  readonly convergence: readonly ConvergencePoint[]
}

/** The whole trials run: the input of the regression (helper I) and of `easytune learn`. */
export interface TrialsResult {
  readonly config: TrialsConfig
  /** Machine size used in the trials (the log's). */
  readonly machineProcs: number
  /** Jobs in the training part the tuples were drawn from. */
  readonly trainingJobs: number
  /** Σ trials over all tuples. */
  readonly trials: number
  /** Every tuple's samples pooled (K·|Q| rows), tuple by tuple: the distribution score(r, n, s). */
  readonly samples: readonly TaskSample[]
  readonly tuples: readonly TupleResult[]
  /** Pooled convergence: at each trial count reached by any tuple, the mean over the tuples that
   * reached it of their normalised std (a tuple that stopped early keeps its last value). */
  readonly convergence: readonly ConvergencePoint[]
}
