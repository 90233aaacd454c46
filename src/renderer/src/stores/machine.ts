// The Inspect step's Cluster panel (docs/CLUSTER.md §Inputs): the machine the campaign runs on —
// inferred from the log (the default), a machine file (a slurm.conf with an optional gres.conf, or
// the output of scontrol show node / partition), a slurm.conf with the scheduling it configures
// (another or a planned configuration: --slurm-conf), or the site's slurm.conf as it runs today (the
// machine and Slurm's own scheduling; the baseline is that configuration) — with which scheduling
// runs on it and the QOS priorities the log's QOS have. The files are taken as the Export step
// takes the current slurm.conf: picked (read in the page) or pasted. "Check this machine" runs
// the 'machine' analysis on the engine workers (progress, cancel): the machine's summary and the
// baseline's fidelity against the recorded history. The choice goes into every campaign request
// and the project file (campaign.machine).
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { MachineChoice } from '../../../shared/api'
import type { MachineSummary } from '../../../core/tune/result'
import type { Calibration } from '../../../core/tune/calibrate'
import { useWorkloadStore } from './workload'
import { useAnalysisRun } from './analysisRun'

export type MachineSource = MachineChoice['source']
export type SchedulerKind = 'easy' | 'slurm'
/** What the 'machine' analysis answers (src/engine/import.ts MachineView). */
export interface MachineView { machine: MachineSummary; fidelity: Calibration | null }
/** One taken file: its name (the machine's description and the result name it) and its text. */
export interface TakenFile { name: string; text: string }

/** The scheduling a source runs by default (the CLI's: Slurm's own with a slurm.conf's scheduling). */
export const defaultScheduler = (source: MachineSource): SchedulerKind => (source === 'current' || source === 'conf' ? 'slurm' : 'easy')
/** Sources whose file is a slurm.conf read with its scheduling. */
const isConf = (source: MachineSource) => source === 'current' || source === 'conf'
const QOS_NAME = /^[A-Za-z0-9_.-]{1,64}$/

export const useMachineStore = defineStore('machine', () => {
  const source = ref<MachineSource>('inferred')
  const file = ref<TakenFile>({ name: '', text: '' })
  const gres = ref<TakenFile>({ name: '', text: '' })
  const scheduler = ref<SchedulerKind>('easy')
  /** QOS priorities as typed, by QOS name ('' = not given). */
  const qos = ref<Record<string, string>>({})
  const view = shallowRef<MachineView | null>(null)
  /** The choice (as JSON) and workload the view was computed for. */
  const viewedKey = ref<string | null>(null)
  const { run, busy, start, cancel, reset: resetRun } = useAnalysisRun((result) => {
    const v = result as MachineView
    if (!v || typeof v !== 'object' || !v.machine) throw new Error('the back end answered no machine')
    view.value = v
  })

  function setSource(s: MachineSource): void {
    source.value = s
    scheduler.value = defaultScheduler(s)
  }

  /** The QOS priorities given, or the first one that is not a whole number from 0 to 2³²−1. */
  const qosParse = computed<{ value: Record<string, number>; error: string | null }>(() => {
    const value: Record<string, number> = {}
    for (const [name, text] of Object.entries(qos.value)) {
      const t = text.trim()
      if (t === '') continue
      if (!QOS_NAME.test(name)) return { value, error: `"${name}" is not a QOS name` }
      if (!/^\d{1,10}$/.test(t) || Number(t) > 4294967295) return { value, error: `the priority of QOS ${name} must be a whole number from 0 to 4,294,967,295` }
      value[name] = Number(t)
    }
    return { value, error: null }
  })

  /** What is missing or wrong, in words (empty: the choice can be used). */
  const problems = computed<string[]>(() => {
    const out: string[] = []
    if (source.value !== 'inferred' && file.value.text.trim() === '') out.push(source.value === 'current' ? 'Give your slurm.conf (choose the file or paste it).' : source.value === 'conf' ? 'Give the slurm.conf (choose the file or paste it).' : 'Give the machine file (choose it or paste it).')
    if (qosParse.value.error) out.push(`QOS priorities: ${qosParse.value.error}.`)
    return out
  })

  /** The choice as the API takes it; undefined when it is the default (inferred, its default
   * scheduling, no QOS priority: the CLI without machine flags) or cannot be used yet. */
  const choice = computed<MachineChoice | undefined>(() => {
    if (problems.value.length > 0) return undefined
    const tuning = {
      ...(scheduler.value !== defaultScheduler(source.value) ? { scheduler: scheduler.value } : {}),
      ...(Object.keys(qosParse.value.value).length > 0 ? { qosPriority: { ...qosParse.value.value } } : {}),
    }
    if (source.value === 'inferred') return Object.keys(tuning).length > 0 ? { source: 'inferred', ...tuning } : undefined
    const named = (f: TakenFile, fallback: string) => ({ name: f.name.trim() || fallback, text: f.text })
    return {
      source: source.value, file: named(file.value, isConf(source.value) ? 'slurm.conf' : 'machine.conf'),
      ...(gres.value.text.trim() ? { gres: named(gres.value, 'gres.conf') } : {}), ...tuning,
    }
  })
  const choiceKey = computed(() => JSON.stringify([useWorkloadStore().summary?.id ?? null, choice.value ?? null]))
  /** The view shown is the current choice's. */
  const current = computed(() => view.value !== null && viewedKey.value === choiceKey.value)

  /** Runs the chosen machine's summary and fidelity on the engine workers. */
  async function check(): Promise<void> {
    const id = useWorkloadStore().summary?.id ?? null
    if (!id || busy.value || problems.value.length > 0) return
    view.value = null
    viewedKey.value = choiceKey.value
    await start({ workloadId: id, kind: 'machine', options: choice.value ?? { source: 'inferred' } })
  }

  /** Back to the log's own machine (another log was opened). */
  function reset(): void {
    resetRun()
    view.value = null
    viewedKey.value = null
    qos.value = {}
  }

  /** Restores a project's choice (absent in older project files: inferred). */
  function restore(c: MachineChoice | undefined): void {
    resetRun()
    view.value = null
    viewedKey.value = null
    const m = c ?? { source: 'inferred' as const }
    source.value = m.source
    file.value = m.source === 'inferred' ? { name: '', text: '' } : { ...m.file }
    gres.value = m.source !== 'inferred' && m.gres ? { ...m.gres } : { name: '', text: '' }
    scheduler.value = m.scheduler ?? defaultScheduler(m.source)
    qos.value = Object.fromEntries(Object.entries(m.qosPriority ?? {}).map(([k, v]) => [k, String(v)]))
  }

  return { source, file, gres, scheduler, qos, view, viewedKey, run, busy, qosParse, problems, choice, current, setSource, check, cancel, reset, restore }
})
