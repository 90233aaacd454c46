// The Time limits step's "Deploy on Slurm: order by predicted runtime" (docs/PREDICTIONS.md
// §Deployment): the waiting-time threshold and the accounting history chosen, the fidelity measured
// in the background (api.startAnalysis kind 'predicted-order' on the analysis stream: progress,
// cancel, then the replays' figures), the site's current slurm.conf (optional, as in the Export
// step), and "Save the files" (api.exportPredictedOrder, then api.saveText for each file: the
// files of `easytune export <log> --predicted-order`).
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { AnalysisEvent, ExportBundle, PredictedOrderFidelity } from '../../../shared/api'
import { errorMessage, useApi } from '../apiRef'
import { useWorkloadStore } from './workload'
import { DEFAULTS, THRESHOLD_CHOICES } from '../../../core/defaults'
import { parseThreshold } from '../../../core/util/duration'
import type { WhatIfRunState } from './timelimits'

/** The threshold radio: one of THRESHOLD_CHOICES (by its value as text) or 'custom'. */
export type ThresholdChoice = string
export const choiceKey = (t: number | null): string => String(t)

export const usePredictedOrderStore = defineStore('predicted-order', () => {
  /** The thesis's ch. 5 threshold by default (20 h): without one the longest wait grows (docs/PREDICTIONS.md §Fidelity). */
  const choice = ref<ThresholdChoice>(choiceKey(THRESHOLD_CHOICES[1]!.value))
  const custom = ref('')
  const historyDays = ref<number>(DEFAULTS.predictedOrderHistoryDays.value)
  const currentConf = ref('')
  const confName = ref<string | null>(null)
  const fidelity = shallowRef<PredictedOrderFidelity | null>(null)
  /** The workload the fidelity was measured on. */
  const measuredOn = ref<string | null>(null)
  const run = ref<WhatIfRunState>({ id: null, status: 'idle', fraction: 0, error: null })
  const saving = ref(false)
  const status = ref<string | null>(null)
  const saved = ref<string[]>([])
  let pending: AnalysisEvent[] = []
  let unsubscribe: (() => void) | null = null

  /** The threshold chosen, in seconds (null: none), or the reason the custom one is refused. */
  const threshold = computed<{ value: number | null; error: string | null }>(() => {
    if (choice.value !== 'custom') {
      const c = THRESHOLD_CHOICES.find((t) => choiceKey(t.value) === choice.value)
      return { value: c ? c.value : null, error: c ? null : 'choose a threshold' }
    }
    try { return { value: parseThreshold(custom.value), error: null } } catch (e) { return { value: null, error: errorMessage(e) } }
  })
  const historyError = computed(() => (Number.isInteger(historyDays.value) && historyDays.value >= 1 && historyDays.value <= 3650 ? null : 'the history must be a whole number of days from 1 to 3,650'))
  const busy = computed(() => run.value.status === 'starting' || run.value.status === 'running')
  /** The fidelity shown was measured with other settings or on another log: compute it again before saving. */
  const stale = computed(() => {
    const f = fidelity.value
    return f !== null && (f.threshold !== threshold.value.value || f.historyDays !== historyDays.value || measuredOn.value !== (useWorkloadStore().summary?.id ?? null))
  })

  function handle(e: AnalysisEvent): void {
    const r = run.value
    if (r.status === 'starting') { pending.push(e); return }
    if (r.status !== 'running' || e.analysisId !== r.id) return
    if (e.kind === 'progress') run.value = { ...r, fraction: e.fraction }
    else if (e.kind === 'done') {
      fidelity.value = e.result as PredictedOrderFidelity
      run.value = { ...r, status: 'done', fraction: 1 }
    } else if (e.kind === 'error') run.value = { ...r, status: 'error', error: errorMessage(e.message) }
    else if (e.kind === 'cancelled') run.value = { ...r, status: 'cancelled' }
  }

  /** Replays the log on the engine workers with the threshold and history chosen. */
  async function compute(): Promise<void> {
    const id = useWorkloadStore().summary?.id ?? null
    if (!id || busy.value || threshold.value.error || historyError.value) return
    if (!unsubscribe) unsubscribe = useApi().onAnalysisEvent(handle)
    pending = []
    fidelity.value = null
    saved.value = []
    status.value = null
    measuredOn.value = id
    run.value = { id: null, status: 'starting', fraction: 0, error: null }
    try {
      const { analysisId } = await useApi().startAnalysis({ workloadId: id, kind: 'predicted-order', options: { threshold: threshold.value.value, historyDays: historyDays.value } })
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

  /** The files for the fidelity shown (the same as the command line's for this log, threshold and
   * history), then each one saved in turn; stops when the person cancels a save. */
  async function save(): Promise<void> {
    const f = fidelity.value
    const id = measuredOn.value
    if (!f || !id || stale.value || saving.value) return
    saving.value = true
    status.value = null
    saved.value = []
    try {
      const conf = currentConf.value.trim() ? { currentConf: currentConf.value } : {}
      const bundle: ExportBundle = await useApi().exportPredictedOrder(id, { threshold: f.threshold, historyDays: f.historyDays, fidelity: f, ...conf })
      for (const file of bundle.files) {
        const ok = await useApi().saveText(file.name, file.content, file.name.endsWith('.json') ? 'application/json' : 'text/plain')
        if (!ok) { status.value = `Stopped: ${file.name} was not saved.`; break }
        saved.value = [...saved.value, file.name]
      }
      if (saved.value.length === bundle.files.length) status.value = `Saved ${bundle.files.length} files: ${saved.value.join(', ')}.`
    } catch (e) {
      status.value = `Could not export: ${errorMessage(e)}`
    } finally {
      saving.value = false
    }
  }

  /** Back to the defaults when another log is opened. */
  function reset(): void {
    if (busy.value) void cancel()
    fidelity.value = null
    measuredOn.value = null
    run.value = { id: null, status: 'idle', fraction: 0, error: null }
    status.value = null
    saved.value = []
  }

  return { choice, custom, historyDays, currentConf, confName, fidelity, measuredOn, run, saving, status, saved, threshold, historyError, busy, stale, compute, cancel, save, reset }
})
