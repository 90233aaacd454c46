// "Learn a policy for this site", opened from the Candidates step (docs/LEARN.md §The app): the
// budget (trials per tuple, tuples, seed), the run on the engine workers (api.startAnalysis kind
// 'learn' on the analysis stream: the trials of `easytune learn` on the training part of the
// wizard's split, then the regression over ℱ; progress with trials/s and an ETA, Cancel), the ranked
// functions with the score-convergence series, and "Add to candidates". What was learned and what
// was added are kept in the project file (ProjectState.learned).
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { LearnAnalysisOptions, LearnDocument, LearnedState } from '../../../shared/api'
import { ANALYSIS_LIMITS, LearnedFunctionSchema } from '../../../shared/schemas'
import { DEFAULTS } from '../../../core/defaults'
import type { SplitSpec } from '../../../core/tune/split'
import { errorMessage } from '../apiRef'
import { useAnalysisRun } from './analysisRun'
import { useCampaignStore } from './campaign'
import { useSplitStore } from './split'
import { useWorkloadStore } from './workload'

/** The budget the panel starts with: `easytune learn`'s defaults (DEFAULTS.learnTrials says why). */
export const LEARN_BUDGET: LearnAnalysisOptions = { trials: DEFAULTS.learnTrials.value.trials, tuples: DEFAULTS.learnTrials.value.tuples, seed: DEFAULTS.seed.value }

/** The state kept from a finished run's document (what the panel shows and the project file keeps).
 * A function the project file would refuse (a value that is not finite) is left out, so that saving
 * the project never fails because of it. */
export function learnedFrom(doc: LearnDocument, log: LearnedState['log'], options: LearnAnalysisOptions, split: SplitSpec): LearnedState {
  const functions: LearnedState['functions'] = []
  for (const f of doc.functions) {
    const ok = LearnedFunctionSchema.safeParse(f)
    if (ok.success && functions.length < LEARNED_FUNCTIONS_KEPT) functions.push(ok.data)
  }
  return {
    log: { ...log }, options: { ...options }, split: { ...split } as LearnedState['split'],
    machineProcs: doc.machineProcs, trainingJobs: doc.trainingJobs, trials: doc.trials,
    convergence: doc.convergence.map((c) => ({ trials: c.trials, normStd: c.normStd !== null && Number.isFinite(c.normStd) && c.normStd >= 0 ? c.normStd : null })),
    functions,
    added: [],
  }
}

/** At most this many functions are kept (the project file's bound; ℱ has 400 members). */
const LEARNED_FUNCTIONS_KEPT = 1000

/** Why a budget field cannot run, in words; null when it can. */
function wholeProblem(v: number, what: string, min: number, max: number): string | null {
  return Number.isInteger(v) && v >= min && v <= max ? null : `${what} must be a whole number from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}`
}

export const useLearnStore = defineStore('learn', () => {
  /** The panel is open (a sub-view of the Candidates step). */
  const open = ref(false)
  const options = ref<LearnAnalysisOptions>({ ...LEARN_BUDGET })
  const learned = shallowRef<LearnedState | null>(null)
  /** What the running analysis was started with (its log, budget and split), for its result. */
  let startedWith: { log: LearnedState['log']; options: LearnAnalysisOptions; split: SplitSpec } | null = null
  const { run, busy, start: startRun, cancel, reset } = useAnalysisRun((result) => {
    if (!startedWith) throw new Error('a learning result arrived without a run')
    learned.value = learnedFrom(result as LearnDocument, startedWith.log, startedWith.options, startedWith.split)
  })
  /** The last "Add to candidates" refusal, in words. */
  const addError = ref<string | null>(null)

  const problems = computed(() => [
    wholeProblem(options.value.trials, 'The trials per tuple', 1, ANALYSIS_LIMITS.learnTrials),
    wholeProblem(options.value.tuples, 'The number of tuples', 1, ANALYSIS_LIMITS.learnTuples),
    wholeProblem(options.value.seed, 'The seed', 0, 2 ** 32 - 1),
  ].filter((p): p is string => p !== null))
  /** Learned on another log than the one open now. */
  const otherLog = computed(() => learned.value !== null && useWorkloadStore().summary !== null && learned.value.log.sha256 !== useWorkloadStore().summary!.sha256)

  /** Runs the trials and the regression on the engine workers, on the training part of the split chosen. */
  async function start(): Promise<void> {
    const w = useWorkloadStore().summary
    if (!w || busy.value || problems.value.length > 0) return
    const split = { ...useSplitStore().spec }
    startedWith = { log: { name: w.name, sha256: w.sha256 }, options: { ...options.value }, split }
    await startRun({ workloadId: w.id, kind: 'learn', options: { ...options.value }, split })
  }

  /** "Add to candidates": the function's fn: order joins the candidate list (with every threshold). */
  function add(expression: string): string | null {
    addError.value = null
    try {
      const spec = useCampaignStore().addFnOrder(expression)
      const l = learned.value
      if (l && !l.added.includes(spec)) learned.value = { ...l, added: [...l.added, spec] }
      return spec
    } catch (e) {
      addError.value = errorMessage(e)
      return null
    }
  }

  /** From a project file (null: nothing learned). */
  function restore(state: LearnedState | null | undefined): void {
    reset()
    learned.value = state ? { ...state, added: [...state.added] } : null
    addError.value = null
  }

  return { open, options, learned, run, busy, problems, otherLog, addError, start, cancel, add, restore }
})
