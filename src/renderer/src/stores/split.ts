// The train/test split (where test starts) and the week resampling of each part, with the back
// end's preview of both parts.
import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type { SplitPreview } from '../../../shared/api'
import type { SplitSpec } from '../../../core/tune/split'
import type { ResampleMethod } from '../../../core/tune/resample'
import { errorMessage, useApi } from '../apiRef'
import { DEFAULTS } from '../../../core/defaults'

export interface ResampleSettings {
  method: ResampleMethod
  weeks: number
  seed: number
}

/** The thesis' protocol, as the CLI's defaults (core/defaults.ts): 250 resampled weeks per part,
 * per-user week resampling, seed 1. */
export const DEFAULT_RESAMPLE: ResampleSettings = { method: DEFAULTS.resample.value, weeks: DEFAULTS.weeks.value, seed: DEFAULTS.seed.value }
/** A fresh copy of the default split (the midpoint). */
const defaultSplit = (): SplitSpec => ({ ...DEFAULTS.split.value })

export const useSplitStore = defineStore('split', () => {
  const spec = ref<SplitSpec>(defaultSplit())
  const resample = ref<ResampleSettings>({ ...DEFAULT_RESAMPLE })
  const preview = shallowRef<SplitPreview | null>(null)
  const previewError = ref<string | null>(null)
  const loading = ref(false)
  let asked = 0

  function setAt(at: number): void {
    spec.value = { kind: 'time', at: Math.round(at) }
  }

  function resetToMidpoint(): void {
    spec.value = defaultSplit()
  }

  /** A new log: back to the midpoint (a date on the old log means nothing on the new one). */
  function resetForNewLog(): void {
    spec.value = defaultSplit()
    preview.value = null
    previewError.value = null
  }

  async function refreshPreview(workloadId: string): Promise<void> {
    const n = ++asked
    loading.value = true
    try {
      const p = await useApi().previewSplit(workloadId, spec.value)
      if (n !== asked) return
      preview.value = p
      previewError.value = null
    } catch (e) {
      if (n !== asked) return
      preview.value = null
      previewError.value = errorMessage(e)
    } finally {
      if (n === asked) loading.value = false
    }
  }

  return { spec, resample, preview, previewError, loading, setAt, resetToMidpoint, resetForNewLog, refreshPreview }
})
