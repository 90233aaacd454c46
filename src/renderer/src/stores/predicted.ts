// The Time limits step's "Deploy on Slurm: order by predicted runtime" (docs/PREDICTIONS.md
// §Deployment): the waiting-time threshold and the accounting history chosen, the fidelity measured
// in the background (api.startAnalysis kind 'predicted-order' on the analysis stream: progress,
// cancel, then the replays' figures), the site's current slurm.conf (optional, as in the Export
// step), and "Save the files" (api.exportPredictedOrder, then api.saveText for each file: the
// files of `easytune export <log> --predicted-order`).
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { ExportBundle, PredictedOrderFidelity } from '../../../shared/api'
import { errorMessage, useApi } from '../apiRef'
import { useWorkloadStore } from './workload'
import { DEFAULTS, THRESHOLD_CHOICES } from '../../../core/defaults'
import { parseThreshold } from '../../../core/util/duration'
import { useAnalysisRun } from './analysisRun'

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
  const { run, busy, start, cancel, reset: resetRun } = useAnalysisRun((result) => { fidelity.value = result as PredictedOrderFidelity })
  const saving = ref(false)
  const status = ref<string | null>(null)
  const saved = ref<string[]>([])

  /** The threshold chosen, in seconds (null: none), or the reason the custom one is refused. */
  const threshold = computed<{ value: number | null; error: string | null }>(() => {
    if (choice.value !== 'custom') {
      const c = THRESHOLD_CHOICES.find((t) => choiceKey(t.value) === choice.value)
      return { value: c ? c.value : null, error: c ? null : 'choose a threshold' }
    }
    try { return { value: parseThreshold(custom.value), error: null } } catch (e) { return { value: null, error: errorMessage(e) } }
  })
  const historyError = computed(() => (Number.isInteger(historyDays.value) && historyDays.value >= 1 && historyDays.value <= 3650 ? null : 'the history must be a whole number of days from 1 to 3,650'))
  /** The fidelity shown was measured with other settings or on another log: compute it again before saving. */
  const stale = computed(() => {
    const f = fidelity.value
    return f !== null && (f.threshold !== threshold.value.value || f.historyDays !== historyDays.value || measuredOn.value !== (useWorkloadStore().summary?.id ?? null))
  })

  /** Replays the log on the engine workers with the threshold and history chosen. */
  async function compute(): Promise<void> {
    const id = useWorkloadStore().summary?.id ?? null
    if (!id || busy.value || threshold.value.error || historyError.value) return
    fidelity.value = null
    saved.value = []
    status.value = null
    measuredOn.value = id
    await start({ workloadId: id, kind: 'predicted-order', options: { threshold: threshold.value.value, historyDays: historyDays.value } })
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
    resetRun()
    fidelity.value = null
    measuredOn.value = null
    status.value = null
    saved.value = []
  }

  return { choice, custom, historyDays, currentConf, confName, fidelity, measuredOn, run, saving, status, saved, threshold, historyError, busy, stale, compute, cancel, save, reset }
})
