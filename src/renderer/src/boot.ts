// Start-up: settings and theme, campaign events, the last project (or the bundled sample when the
// page URL has sample=1), then a debounced autosave of the whole wizard on every change.
import { ref, watch } from 'vue'
import { errorMessage, useApi } from './apiRef'
import { debounce } from './debounce'
import { fromProject, toProject } from './stores/project'
import { useSettingsStore } from './stores/settings'
import { useCampaignStore } from './stores/campaign'
import { useWorkloadStore } from './stores/workload'
import { useResultsStore } from './stores/results'
import { useWizardStore } from './stores/wizard'

/** What start-up did (restored a session…), shown on the step it opened until the user moves on. */
export const bootMessage = ref<{ text: string; step: number } | null>(null)
export const autosaveState = ref<{ at: Date | null; error: string | null; pending: boolean }>({ at: null, error: null, pending: false })

export function wantsSample(search: string): boolean {
  return new URLSearchParams(search).get('sample') === '1'
}

export async function boot(search: string, autosaveMs = 1500): Promise<void> {
  const api = useApi()
  await useSettingsStore().load()
  useCampaignStore().listen()
  const sample = wantsSample(search)
  if (!sample) {
    try {
      // The restore can arrive late (the back end reads the autosave and re-imports its log): a
      // user who has meanwhile chosen a log, or changed anything, keeps what they chose.
      const before = JSON.stringify(toProject())
      const last = await api.restoreLastProject()
      const w = useWorkloadStore()
      const userActed = w.status !== 'idle' || w.summary !== null || JSON.stringify(toProject()) !== before
      if (last && userActed) {
        bootMessage.value = { text: 'Your last session was not restored: you had already started (the log you chose stays).', step: useWizardStore().step }
      } else if (last) {
        fromProject(last.state, last.workload)
        const step = useWizardStore().step
        if (last.logMissing && last.state.log) bootMessage.value = { text: `Restored your last session; its log ${last.state.log.name} was not found: import it again to continue.`, step }
        else bootMessage.value = { text: 'Restored your last session.', step }
      }
    } catch (e) {
      bootMessage.value = { text: `Could not restore the last session: ${errorMessage(e)}`, step: 0 }
    }
  }
  const campaign = useCampaignStore()
  if (campaign.workers === null) campaign.workers = useSettingsStore().workers
  startAutosave(autosaveMs)
  if (sample) await useWorkloadStore().importSample()
  // For end-to-end tests and scripts: start-up is over (restore or sample done).
  if (typeof document !== 'undefined') document.documentElement.dataset.easytuneReady = 'true'
}

let stopAutosave: (() => void) | null = null

/** Saves the project state `ms` after the last change (the result is watched by identity). */
export function startAutosave(ms: number): () => void {
  stopAutosave?.()
  const api = useApi()
  const results = useResultsStore()
  const save = debounce(() => {
    api.autosave(toProject()).then(
      () => { autosaveState.value = { at: new Date(), error: null, pending: false } },
      (e) => { autosaveState.value = { at: autosaveState.value.at, error: errorMessage(e), pending: false } },
    )
  }, ms)
  const stop = watch(() => [JSON.stringify({ ...toProject(), result: null }), results.result], () => {
    autosaveState.value = { ...autosaveState.value, pending: true }
    save()
  })
  // Leaving the page (closing the window or tab): save what is pending now.
  const flush = () => save.flush()
  if (typeof window !== 'undefined') window.addEventListener('pagehide', flush)
  stopAutosave = () => { stop(); save.cancel(); if (typeof window !== 'undefined') window.removeEventListener('pagehide', flush) }
  return stopAutosave
}
