// Online-selection emulations and mixed-policy searches run from the Results step
// (EasyTuneApi.startAnalysis; its events on the analysis stream): the options, the running analysis's progress, cancel, and the
// result handed to the results store's extras (where an opened `easytune online|mixed --json` goes).
import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { MixedAnalysisOptions, OnlineAnalysisOptions } from '../../../shared/api'
import { useAnalysisRun, type AnalysisRunState } from './analysisRun'
import { useResultsStore } from './results'
import { useSplitStore } from './split'
import { useWorkloadStore } from './workload'
import { DEFAULTS } from '../../../core/defaults'

/** The wizard's quick online look (core/defaults.ts says why). */
export const ONLINE_DEFAULTS: OnlineAnalysisOptions = { ...DEFAULTS.onlineWizard.value, strategies: [...DEFAULTS.onlineWizard.value.strategies], seed: DEFAULTS.seed.value }
/** The wizard's quicker mixed search: the CLI's features and method, a smaller budget on fewer weeks. */
export const MIXED_DEFAULTS: MixedAnalysisOptions = {
  features: DEFAULTS.mixed.value.features, method: DEFAULTS.mixed.value.method, ...DEFAULTS.mixedWizard.value, objective: DEFAULTS.objective.value, seed: DEFAULTS.seed.value,
}

export type AnalysisKind = 'online' | 'mixed'
export interface AnalysisRun extends AnalysisRunState {
  kind: AnalysisKind | null
}

export const useAnalysisStore = defineStore('analysis', () => {
  const online = ref<OnlineAnalysisOptions>({ ...ONLINE_DEFAULTS, strategies: [...ONLINE_DEFAULTS.strategies] })
  const mixed = ref<MixedAnalysisOptions>({ ...MIXED_DEFAULTS })
  const kind = ref<AnalysisKind | null>(null)
  // Resolved once, here: the event handler runs outside any component, where useResultsStore()
  // would take whichever Pinia was made active last, not necessarily this store's own.
  const results = useResultsStore()
  const state = useAnalysisRun((result) => results.showExtras(result))
  const run = computed<AnalysisRun>(() => ({ kind: kind.value, ...state.run.value }))

  async function start(k: AnalysisKind): Promise<void> {
    const workloadId = useWorkloadStore().summary?.id
    if (!workloadId || state.busy.value) return
    kind.value = k
    await state.start(k === 'online'
      ? { workloadId, kind: k, options: { ...online.value, strategies: [...online.value.strategies] } }
      : { workloadId, kind: k, options: { ...mixed.value }, split: { ...useSplitStore().spec } })
  }

  return { online, mixed, run, start, cancel: state.cancel }
})
