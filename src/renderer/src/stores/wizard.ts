// Which step is shown, and which steps can be entered (a log is needed from Inspect to Run, a
// result for Results and Export). Moving between steps never clears anything. Time limits sits
// beside Inspect: it reads the same log (requests against runtimes, per user) and needs no
// campaign, and the queue-order steps do not need it. Project files name the step by its id
// (stepId); files from before the Time limits step carry only the index in LEGACY_STEP_IDS.
import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { useWorkloadStore } from './workload'
import { useResultsStore } from './results'
import { useCampaignStore } from './campaign'

export const STEPS = [
  { id: 'import', title: 'Import', hint: 'Load a job log' },
  { id: 'inspect', title: 'Inspect', hint: 'Load, sizes, runtimes' },
  { id: 'timelimits', title: 'Time limits', hint: 'Requested vs actual' },
  { id: 'split', title: 'Split', hint: 'Train and test months' },
  { id: 'candidates', title: 'Candidates & risk', hint: 'Orders and thresholds' },
  { id: 'run', title: 'Run', hint: 'Simulate' },
  { id: 'results', title: 'Results', hint: 'Recommendation' },
  { id: 'export', title: 'Export', hint: 'SLURM or PBS' },
] as const

export type StepId = (typeof STEPS)[number]['id']

/** The steps as project files numbered them before Time limits existed (a file without stepId). */
export const LEGACY_STEP_IDS: readonly StepId[] = ['import', 'inspect', 'split', 'candidates', 'run', 'results', 'export']

/** A project file's step as an index of STEPS: its id when it has one we know, else the old index. */
export function stepIndex(step: number, stepId?: string): number {
  const byId = STEPS.findIndex((s) => s.id === stepId)
  if (byId >= 0) return byId
  const legacy = LEGACY_STEP_IDS[Math.max(0, Math.min(LEGACY_STEP_IDS.length - 1, Math.floor(step) || 0))]
  return STEPS.findIndex((s) => s.id === legacy)
}

export const useWizardStore = defineStore('wizard', () => {
  const step = ref(0)

  const enabled = computed(() => {
    const w = useWorkloadStore(), r = useResultsStore(), c = useCampaignStore()
    const log = w.ready
    const run = log || c.run.status !== 'idle'
    return STEPS.map((s) => {
      switch (s.id) {
        case 'import': return true
        case 'inspect': case 'timelimits': case 'split': case 'candidates': return log
        case 'run': return run
        case 'results': case 'export': return r.result !== null
      }
    })
  })
  const current = computed(() => STEPS[step.value])

  /** Goes to a step if it can be entered; returns whether it did. */
  function go(i: number): boolean {
    if (i < 0 || i >= STEPS.length || !enabled.value[i]) return false
    step.value = i
    return true
  }

  function goTo(id: StepId): boolean {
    return go(STEPS.findIndex((s) => s.id === id))
  }

  /** From a project: the saved step, or the nearest earlier one that can be entered. */
  function restore(i: number): void {
    let k = Math.max(0, Math.min(STEPS.length - 1, Math.floor(i) || 0))
    while (k > 0 && !enabled.value[k]) k--
    step.value = k
  }

  return { step, enabled, current, go, goTo, restore }
})
