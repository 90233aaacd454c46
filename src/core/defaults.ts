// Every default of the protocol, declared once with the one-line reason shown to people. The CLI
// derives its "(default …)" help texts from here, the wizard's stores their initial state, the back
// end its analysis set-ups, and the core constants that existed before (DEFAULT_TAU,
// DEFAULT_THRESHOLDS, DEFAULT_ONLINE's threshold, seed and resampling) are these values.
// Pure data: this module imports types only, so any layer may import it and nothing cycles.
import type { Compat } from './sim/types'
import type { Objective, PresetId } from './tune/campaign'
import type { Criterion } from './tune/result'
import type { ResampleMethod } from './tune/resample'
import type { SplitSpec } from './tune/split'
import type { OverrunPolicy, RequestedFallback } from './workload/clean'

/** A default value and why it is the default, in words for the person who may change it. */
export interface Default<T> {
  readonly value: T
  readonly why: string
}

const HOUR = 3600
const d = <T>(value: T, why: string): Default<T> => ({ value, why })

/** One of the standard waiting-time thresholds the research compared, with its label and reason. */
export interface StandardThreshold {
  readonly value: number | null
  readonly label: string
  readonly why: string
}

/** The thresholds tried by default (thesis ch. 5–6 and RR-9212): none, 20 h, 40 h, 200,000 s. */
export const THRESHOLD_CHOICES: readonly StandardThreshold[] = [
  { value: null, label: 'None', why: 'the order alone decides: largest gains, largest risk of starvation' },
  { value: 20 * HOUR, label: '20 h', why: 'thesis ch. 5: longest waits stay under 1.75× EASY-FCFS\'s' },
  { value: 40 * HOUR, label: '40 h', why: 'thesis ch. 6 default: room to reorder, still no starvation' },
  { value: 200000, label: '200,000 s (2.31 d)', why: 'RR-9212: a contingency that rarely triggers' },
]

export const DEFAULTS = {
  // Cleaning a log on import.
  overrun: d<OverrunPolicy>('drop', 'the research drops jobs that ran longer than requested: a real scheduler would have killed them'),
  requestedFallback: d<RequestedFallback>('drop', 'a job without a requested time cannot be backfilled as it was: the research drops it'),
  // Several files read as one log (daily jobcomp files, monthly sacct dumps).
  fileGap: d(24 * HOUR, 'a day with no submit between two files is not a quiet night: a file is probably missing, and the simulated queue would empty there'),
  // The protocol of `easytune evaluate` and of the wizard.
  split: d<SplitSpec>({ kind: 'midpoint' }, 'train on the first half of the log (by submit time) and judge on the second'),
  weeks: d(250, 'the thesis resampled 250 weeks per part: enough that one unusual month does not decide'),
  resample: d<ResampleMethod>('user-weeks', 'the thesis\'s per-user weeks: realistic new weeks that keep each user\'s habits'),
  seed: d(1, 'a fixed seed: the same inputs give the same result, on any machine'),
  preset: d<PresetId>('slurm', 'orders Slurm runs exactly as they were evaluated (one order for reservation and backfilling), so the recommendation deploys as tested'),
  backfill: d<'same'>('same', 'EASY backfills in the primary order, as the thesis does unless told otherwise'),
  thresholds: d<readonly (number | null)[]>(THRESHOLD_CHOICES.map((t) => t.value), 'the thresholds the research compared, from none to a contingency that rarely triggers'),
  objective: d<Objective>('avgWait', 'the average wait is what users feel, and what the thesis minimised first'),
  tau: d(10, 'the usual bound of the bounded slowdown: a job shorter than 10 s counts as 10 s'),
  maxWaitRatio: d<number | null>(1.5, 'the longest wait on train may grow by half of EASY-FCFS\'s, no more: a gain in the average must not starve anyone (none lifts it)'),
  /** The ratio offered when a person turns the longest-wait limit on. */
  maxWaitRatioWhenOn: d(1.5, 'the longest wait may grow by half of EASY-FCFS\'s, no more'),
  // The verdict (docs/STATISTICS.md).
  minGain: d(0.05, 'switching has a cost (a change to explain, users to surprise): below a 5 % gain on train, keep what you have'),
  confidence: d(0.95, 'the usual 95 %: a switch whose interval touches 0 could be noise'),
  minWeeks: d(8, 'fewer than 8 real weeks in a part: too few independent weeks to bootstrap an interval worth trusting'),
  minJobs: d(1000, 'fewer than 1,000 jobs in a part: one busy user decides the result'),
  /** Below this many full weeks of submits in either part, evaluate refuses to run (exit 2). */
  minFullWeeks: d(2, 'the protocol needs at least 2 full weeks in each part to resample weeks and to compare them'),
  criterion: d<Criterion>('ratio-of-means', 'the part\'s mean wait over the baseline\'s: long weeks count for what they weigh (mean-ratio: the thesis\'s weekly figures)'),
  bootstrap: d(2000, 'bootstrap replicates of the real weeks: the interval\'s ends move by well under a percentage point between seeds'),
  workers: d<number | null>(null, 'one engine worker per core but one, so the machine stays responsive'),
  /** Who gains, who loses (docs/IMPACT.md): which groups are listed and named. */
  impact: d({ minJobs: 10, minRise: 600, topAccounts: 10 },
    'accounts and groups of fewer than 10 jobs are not listed or named (one job cannot headline); a group is named only when its mean wait also rises by 10 min or more (a ratio on near-zero waits means nothing); the 10 accounts that pay most are listed'),
  /** docs/SIMULATOR.md §Shadow-time rules, docs/PROTOCOL.md §Week resampling. */
  compat: d<Compat>('none', 'EasyTune\'s own rules: the extra processors do not depend on how ties happen to be ordered, and a trailing partial week counts for its length; ocst reproduces the seeds\' simulator (the thesis\'s numbers)'),
  // `easytune simulate`: one run of EASY.
  primary: d<'FCFS'>('FCFS', 'EASY-FCFS is what sites run today: the baseline every gain is measured against'),
  threshold: d<number | null>(null, 'no threshold: the order alone decides'),
  // Runtime prediction (thesis ch. 4, docs/PREDICTIONS.md).
  predictor: d<'requested'>('requested', 'the requested time is what EASY plans with today: the baseline every prediction is measured against'),
  correction: d<'incremental'>('incremental', 'the thesis\'s selected triple corrects a job that outlives its prediction by 1 min, then 5 min, 15 min, …; the requested time and clairvoyant predictions never fall short and need none'),
  // Online selection (thesis ch. 6).
  onlineThreshold: d<number | null>(40 * HOUR, 'the thesis ch. 6 threshold Θ: room to reorder, still no starvation'),
  online: d({ epsilon: 0.1, lambda: 1, noise: [0.8, 1.2] as readonly [number, number], weeks: 104 },
    'the thesis ch. 6 set-up: ε = 0.1 exploration, no discount of the past (λ = 1), costs off by up to ±20 % for noisy, traces of two years'),
  onlineTraces: d(10, 'the thesis used 60 traces; 10 keep the default run on KTH under ~10 s'),
  /** The wizard's quicker online look (a person waits for it in the Results step). */
  onlineWizard: d({ strategies: ['full', 'noisy', 'egreedy', 'random'] as ('full' | 'noisy' | 'egreedy' | 'random')[], period: 'week' as 'day' | 'week', weeks: 26, traces: 3 },
    'weekly periods, 26 weeks × 3 traces: a quick look rather than the thesis\'s 60 traces of two years'),
  // Mixed-policy search.
  mixed: d({ features: 3 as 3 | 6, method: 'xnes' as 'xnes' | 'grid', budget: 200 }, 'three features searched by XNES with 200 weight vectors: the research\'s set-up'),
  // The search of the site's own Slurm settings with its current slurm.conf (docs/CLUSTER.md §Site settings as candidates).
  slurmSearch: d(24, 'each point is a whole train cell under Slurm\'s scheduling (seconds to minutes on a real log): 24 points, today\'s configuration and two XNES generations, refine the one-setting grid without doubling the campaign (0 turns the search off)'),
  /** The wizard's quicker mixed search. */
  mixedWizard: d({ budget: 60, weeks: 20 }, 'budget 60 on 20 weeks: enough to see whether a mix beats the pure orders'),
  // The exported ordering by predicted runtime (docs/PREDICTIONS.md §Deployment).
  /** Days of accounting history the exported script asks sacct for, every run. */
  predictedOrderHistoryDays: d(30, 'a month: most users ran a job within a month, and one sacct query over the pending users\' month stays light on slurmdbd when run every minute'),
  /** `easytune walltimes` and the wizard's Time limits view (docs/PREDICTIONS.md §Time limits). */
  walltimes: d({ ratioFloor: 60, minJobs: 10, poorRatio: 2, startUsers: 5, startPartitions: 3, minPartitionShare: 0.01 },
    'runtimes and limits under 1 min count as 1 min in the ratio (a job that crashed at once would make it infinite, and limits are set in minutes); users and partitions of fewer than 10 jobs are never named to start with (one job cannot headline), nor users of whom fewer than a quarter of the jobs, or partitions of which fewer than half, ask 2× what they use or more; up to 5 users (until they make half of the over-requested hours) and 3 partitions (each with 1 % of the over-requested hours or more) are named'),
  // The runtime-prediction campaign (docs/PREDICTIONS.md §Campaign).
  /** A job's bounded slowdown is extreme above this quantile of plain EASY's on the same log. */
  extremeBsld: d(0.999, 'the thesis saw about 0.1 % of jobs with extreme bounded slowdowns under learned predictions: above plain EASY\'s 99.9th percentile on the same log, EASY itself has at most 0.1 % such jobs, so any excess is the tail that predictions add, on every log\'s own scale'),
  /** The learned regression (docs/PREDICTIONS.md §Model): NAG's step η (seconds) and λ of λ‖w‖₂. */
  eloss: d({ eta: 5000, lambda: 1e5, negative: 'mirror' as 'mirror' | 'floor' },
    'the research code\'s step η = 5000 s; λ = 10⁵ (the thesis gives none): on KTH-SP2, CTC-SP2 and SDSC-BLUE it gives the E-Loss its lowest mean loss of the λ tried and the squared loss a smaller error than λ = 0; a negative prediction is mirrored, as the research code did (floored instead, the E-Loss predicts 1 s for almost every job)'),
  // The learned-priority trials (SC'17, docs/LEARN.md §Trials).
  learnTrials: d({ sizeS: 16, sizeQ: 32, trials: 256000, tuples: 256, stopAt: 0.02, tau: 10, seed: 1 },
    'the paper\'s set-up: |S| = 16 tasks started first, |Q| = 32 permuted, at most 256,000 trials per tuple, stopping once the normalised std of the scores is below 0.02 (its Fig. 2); the paper gives no number of tuples: 256 (8,192 scored tasks) is the fewest measured on KTH-SP2 for which the fitted slopes in r, n and s keep their signs from one seed to another (64 did not), about 2 min on two cores (docs/LEARN.md §Trials)'),
  // Sharded campaigns on a Slurm job array (docs/CLI.md §Running on a Slurm cluster).
  /** Engine workers (= CPUs) per array task when none is given. */
  shardCpus: d(4, 'four CPUs per task: most cluster nodes have many more, so a task starts soon wherever a few cores are free, and a shard of tens of cells still runs four at a time'),
} as const

