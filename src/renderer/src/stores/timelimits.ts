// The Time limits step (docs/PREDICTIONS.md §Time limits): the walltimes report of the imported log
// (api.getTimeLimits, pseudonymised, with the real names for local display), the "Show real names"
// switch (this window only: never saved in the project, never in anything saved or exported), and
// the what-if run in the background (api.startAnalysis kind 'walltimes' on the analysis stream:
// progress, cancel, then the scenarios' outcomes).
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { TimeLimitsView, WalltimesWhatIf } from '../../../shared/api'
import { errorMessage, useApi } from '../apiRef'
import { useWorkloadStore } from './workload'
import { useAnalysisRun, type AnalysisRunState } from './analysisRun'

export type WhatIfRunState = AnalysisRunState

export const useTimeLimitsStore = defineStore('timelimits', () => {
  /** The report and the workload it belongs to. */
  const view = shallowRef<TimeLimitsView | null>(null)
  const workloadId = ref<string | null>(null)
  const loading = ref(false)
  const error = ref<string | null>(null)
  /** Local only: the tables show real user and account names instead of pseudonyms. */
  const showRealNames = ref(false)
  const whatIf = shallowRef<WalltimesWhatIf | null>(null)
  const { run, start, cancel, reset } = useAnalysisRun((result) => { whatIf.value = result as WalltimesWhatIf })

  /** Loads the report of the current log (again only when the log changed). */
  async function load(): Promise<void> {
    const id = useWorkloadStore().summary?.id ?? null
    if (id === workloadId.value && (view.value || loading.value)) return
    workloadId.value = id
    view.value = null
    whatIf.value = null
    error.value = null
    reset()
    if (!id) return
    loading.value = true
    try {
      const v = await useApi().getTimeLimits(id)
      if (workloadId.value === id) view.value = v
    } catch (e) {
      if (workloadId.value === id) error.value = errorMessage(e)
    } finally {
      if (workloadId.value === id) loading.value = false
    }
  }

  /** Starts the what-if on the engine workers (one analysis at a time in the back end). */
  async function startWhatIf(): Promise<void> {
    const id = workloadId.value
    if (!id || run.value.status === 'starting' || run.value.status === 'running') return
    whatIf.value = null
    await start({ workloadId: id, kind: 'walltimes', options: {} })
  }

  /** A user's or an account's name as the tables show it: the pseudonym, or with "Show real names"
   * the real one. Partitions always keep their names. */
  function shown(kind: 'user' | 'account', pseudonym: string): string {
    if (!showRealNames.value || !view.value) return pseudonym
    const names = kind === 'user' ? view.value.realNames.users : view.value.realNames.accounts
    return Object.prototype.hasOwnProperty.call(names, pseudonym) ? names[pseudonym]! : pseudonym
  }

  /** What "Save as JSON" saves: the report's fields as `easytune walltimes --json` prints them
   * (without its citation), pseudonymised whatever the switch says, with the what-if once run. */
  const document = computed(() => (view.value ? { ...view.value.report, whatIf: whatIf.value ?? view.value.report.whatIf } : null))

  return { view, workloadId, loading, error, showRealNames, whatIf, run, load, startWhatIf, cancel, shown, document }
})
