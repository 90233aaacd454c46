// One analysis run on the analysis stream (api.startAnalysis): its state as a reducer over the back
// end's events, and the start / cancel around it, shared by every store that runs one (the Time
// limits what-if, the predicted-order fidelity, learning a policy, the Results step's online and
// mixed analyses). Events are kept while the start call is in flight (the back end may answer
// after its first events) and replayed once the id is known; another analysis's events are ignored.
import { computed, ref } from 'vue'
import type { AnalysisEvent, AnalysisRequest, LearnProgressDetail } from '../../../shared/api'
import { errorMessage, useApi } from '../apiRef'

export interface AnalysisRunState {
  id: string | null
  status: 'idle' | 'starting' | 'running' | 'done' | 'error' | 'cancelled'
  /** Share done, 0..1. */
  fraction: number
  error: string | null
  /** A learning run's detail (trials, rate, ETA, regression), from its last progress event. */
  learn: LearnProgressDetail | null
}

export const idleRun = (): AnalysisRunState => ({ id: null, status: 'idle', fraction: 0, error: null, learn: null })
export const isBusy = (r: AnalysisRunState): boolean => r.status === 'starting' || r.status === 'running'

/**
 * The next state after event `e` (pure). `done` is the result when `e` finished this run; the caller
 * decides what it means (and may still turn the run into an error if it cannot use it). Events of
 * another analysis, or arriving when no run is under way, leave the state as it is (the same object).
 */
export function reduceAnalysisRun(r: AnalysisRunState, e: AnalysisEvent): { run: AnalysisRunState; done?: { result: unknown } } {
  if (r.status !== 'running' || e.analysisId !== r.id) return { run: r }
  switch (e.kind) {
    case 'progress': return { run: { ...r, fraction: e.fraction, learn: e.learn ?? r.learn } }
    case 'done': return { run: { ...r, status: 'done', fraction: 1 }, done: { result: e.result } }
    case 'error': return { run: { ...r, status: 'error', error: errorMessage(e.message) } }
    case 'cancelled': return { run: { ...r, status: 'cancelled' } }
  }
}

/**
 * The run of one kind of analysis, for a Pinia setup store: `onDone(result)` takes the finished
 * result (a throw turns the run into an error with its message).
 */
export function useAnalysisRun(onDone: (result: unknown) => void) {
  const run = ref<AnalysisRunState>(idleRun())
  let pending: AnalysisEvent[] = []
  let unsubscribe: (() => void) | null = null
  const busy = computed(() => isBusy(run.value))

  function handle(e: AnalysisEvent): void {
    if (run.value.status === 'starting') { pending.push(e); return }
    const next = reduceAnalysisRun(run.value, e)
    if (next.run === run.value) return
    if (next.done) {
      try {
        onDone(next.done.result)
      } catch (err) {
        run.value = { ...run.value, status: 'error', error: errorMessage(err) }
        return
      }
    }
    run.value = next.run
  }

  /** Starts the request (nothing when one is already under way); a refused start is an error in words. */
  async function start(request: AnalysisRequest): Promise<void> {
    if (busy.value) return
    if (!unsubscribe) unsubscribe = useApi().onAnalysisEvent(handle)
    pending = []
    run.value = { ...idleRun(), status: 'starting' }
    try {
      const { analysisId } = await useApi().startAnalysis(request)
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

  /** Back to idle (cancelling a run under way). */
  function reset(): void {
    if (busy.value) void cancel()
    run.value = idleRun()
  }

  return { run, busy, handle, start, cancel, reset }
}
