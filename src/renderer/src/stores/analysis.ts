// Online-selection emulations and mixed-policy searches run from the Results step
// (EasyTuneApi.startAnalysis; its events on the analysis stream): the options, the running analysis's progress, cancel, and the
// result handed to the results store's extras (where an opened `easytune online|mixed --json` goes).
import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { AnalysisEvent, MixedAnalysisOptions, OnlineAnalysisOptions } from '../../../shared/api'
import { errorMessage, useApi } from '../apiRef'
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
export interface AnalysisRun {
  kind: AnalysisKind | null
  id: string | null
  status: 'idle' | 'starting' | 'running' | 'done' | 'error' | 'cancelled'
  fraction: number
  error: string | null
}

export const useAnalysisStore = defineStore('analysis', () => {
  const online = ref<OnlineAnalysisOptions>({ ...ONLINE_DEFAULTS, strategies: [...ONLINE_DEFAULTS.strategies] })
  const mixed = ref<MixedAnalysisOptions>({ ...MIXED_DEFAULTS })
  const run = ref<AnalysisRun>({ kind: null, id: null, status: 'idle', fraction: 0, error: null })
  let pending: AnalysisEvent[] = []
  let unsubscribe: (() => void) | null = null
  // Resolved once, here: the event handler runs outside any component, where useResultsStore()
  // would take whichever Pinia was made active last, not necessarily this store's own.
  const results = useResultsStore()

  function handle(e: AnalysisEvent): void {
    const r = run.value
    if (r.status === 'starting') { pending.push(e); return }
    if (r.status !== 'running' || e.analysisId !== r.id) return
    if (e.kind === 'progress') run.value = { ...r, fraction: e.fraction }
    else if (e.kind === 'done') {
      try {
        results.showExtras(e.result)
        run.value = { ...r, status: 'done', fraction: 1 }
      } catch (err) {
        run.value = { ...r, status: 'error', error: errorMessage(err) }
      }
    } else if (e.kind === 'error') run.value = { ...r, status: 'error', error: errorMessage(e.message) }
    else if (e.kind === 'cancelled') run.value = { ...r, status: 'cancelled' }
  }

  async function start(kind: AnalysisKind): Promise<void> {
    const workloadId = useWorkloadStore().summary?.id
    if (!workloadId || run.value.status === 'starting' || run.value.status === 'running') return
    if (!unsubscribe) unsubscribe = useApi().onAnalysisEvent(handle)
    pending = []
    run.value = { kind, id: null, status: 'starting', fraction: 0, error: null }
    try {
      const { analysisId } = await useApi().startAnalysis(kind === 'online'
        ? { workloadId, kind, options: { ...online.value, strategies: [...online.value.strategies] } }
        : { workloadId, kind, options: { ...mixed.value }, split: { ...useSplitStore().spec } })
      run.value = { ...run.value, id: analysisId, status: 'running' }
      const early = pending
      pending = []
      for (const e of early) handle(e)
    } catch (e) {
      run.value = { ...run.value, status: 'error', error: errorMessage(e) }
    }
  }

  async function cancel(): Promise<void> {
    if (run.value.id && run.value.status === 'running') await useApi().cancel(run.value.id)
  }

  return { online, mixed, run, start, cancel }
})
