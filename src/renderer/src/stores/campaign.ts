// What to simulate (candidate orders, thresholds, objective, risk limit), the run-time estimate,
// and the running campaign (progress, partial cells) as a reducer over the back end's events.
import { defineStore, getActivePinia } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { CampaignEstimate, CampaignEvent, CampaignRequest, CandidateDto, MachineChoice } from '../../../shared/api'
import type { SplitSpec } from '../../../core/tune/split'
import type { Objective, PresetId } from '../../../core/tune/campaign'
import { presetCandidates } from '../../../core/tune/presets'
import type { Criterion } from '../../../core/tune/result'
import { DEFAULTS } from '../../../core/defaults'
import { parseThreshold, thresholdInput } from '../../../core/util/duration'
import { FN_PREFIX, fnSpec, isFnSpec } from '../../../core/sim/fn'
import { errorMessage, useApi } from '../apiRef'
import { initialRun, isActive, reduceRun, type RunState } from './campaignReducer'
import type { ResampleSettings } from './split'
import { useResultsStore } from './results'
import { useMachineStore } from './machine'

export type Preset = PresetId | 'custom'

/** The thresholds the research used: none, 20 h, 40 h, 200,000 s (core/defaults.ts says why; docs/PROTOCOL.md §Thresholds). */
export const STANDARD_THRESHOLDS: readonly (number | null)[] = DEFAULTS.thresholds.value

const sortThresholds = (a: number | null, b: number | null) => (a === null ? -1 : b === null ? 1 : a - b)

/** A threshold as the custom field shows it, exactly (72000 → "20h", 200001 → "200001"). */
export const thresholdText = thresholdInput

/** Parses "10h, 3d, 90000" into thresholds; throws with the first bad item, in the words of the
 * one threshold rule (parseThreshold → thresholdProblem), the same as the CLI's. */
export function parseThresholdList(text: string): (number | null)[] {
  return text.split(/[,;\s]+/).filter((x) => x.trim() !== '').map((x) => parseThreshold(x))
}

/** Every (primary, backfill) pair of the custom picker; "same" when both are the same order. */
export function crossCandidates(primaries: string[], backfills: string[]): CandidateDto[] {
  const out: CandidateDto[] = []
  for (const p of primaries) for (const b of backfills) {
    const backfill = b === 'same' || b === p ? 'same' : b
    if (!out.some((c) => c.primary === p && c.backfill === backfill)) out.push({ primary: p, backfill })
  }
  return out
}

/** The canonical fn: order of a typed or learned expression, with or without its `fn:` prefix;
 * throws the parser's refusal in words (the character position and why). */
export function fnOrderOf(text: string): string {
  const t = text.trim()
  return fnSpec(isFnSpec(t) ? t.slice(FN_PREFIX.length) : t)
}

export const useCampaignStore = defineStore('campaign', () => {
  const preset = ref<Preset>(DEFAULTS.preset.value)
  const customPrimaries = ref<string[]>(['FCFS', 'SPF', 'SQF', 'LEXP'])
  const customBackfills = ref<string[]>(['same'])
  /** The fn: orders the custom picker offers (typed there, or added from a learned function), as
   * canonical specs; the checked ones are in customPrimaries. */
  const fnOrders = ref<string[]>([])
  const standardThresholds = ref<(number | null)[]>([...STANDARD_THRESHOLDS])
  const customThresholds = ref('')
  const objective = ref<Objective>(DEFAULTS.objective.value)
  const tau = ref(DEFAULTS.tau.value)
  const capEnabled = ref(DEFAULTS.maxWaitRatio.value !== null)
  const capValue = ref(DEFAULTS.maxWaitRatio.value ?? DEFAULTS.maxWaitRatioWhenOn.value)
  const workers = ref<number | null>(DEFAULTS.workers.value)
  // When the evidence is enough to switch (fractions, as the JSON stores them).
  const minGain = ref(DEFAULTS.minGain.value)
  const confidence = ref(DEFAULTS.confidence.value)
  const minWeeks = ref(DEFAULTS.minWeeks.value)
  const criterion = ref<Criterion>(DEFAULTS.criterion.value)
  const estimate = shallowRef<CampaignEstimate | null>(null)
  const estimateError = ref<string | null>(null)
  const run = shallowRef<RunState>(initialRun())
  let pending: CampaignEvent[] = []
  let unsubscribe: (() => void) | null = null
  let asked = 0

  const thresholdParse = computed<{ list: (number | null)[]; error: string | null }>(() => {
    let custom: (number | null)[] = []
    let error: string | null = null
    try { custom = parseThresholdList(customThresholds.value) } catch (e) { error = errorMessage(e) }
    const all = [...standardThresholds.value, ...custom]
    const list = all.filter((t, i) => all.indexOf(t) === i).sort(sortThresholds)
    return { list, error: error ?? (list.length === 0 ? 'choose at least one threshold ("none" is a choice)' : null) }
  })
  const thresholds = computed(() => thresholdParse.value.list)
  const maxWaitRatio = computed(() => (capEnabled.value ? capValue.value : null))
  const candidatesSpec = computed<CampaignRequest['candidates']>(() =>
    preset.value === 'custom' ? { list: crossCandidates(customPrimaries.value, customBackfills.value) } : { preset: preset.value })
  /** The candidate list the back end will run (presets expanded), as policy ids. */
  const expandedCandidates = computed<CandidateDto[]>(() => {
    const c = candidatesSpec.value
    if ('list' in c) return c.list
    return presetCandidates(c.preset, thresholds.value).map((x) => ({ primary: String(x.primary), backfill: String(x.backfill) }))
  })
  const problems = computed(() => {
    const out: string[] = []
    if (thresholdParse.value.error) out.push(`Thresholds: ${thresholdParse.value.error}`)
    if (preset.value === 'custom' && expandedCandidates.value.length === 0) out.push('Choose at least one primary order and one backfill order.')
    if (capEnabled.value && !(capValue.value >= 1)) out.push('The limit on the longest wait must be at least 1× EASY-FCFS\'s.')
    if (!(tau.value > 0)) out.push('τ must be a positive number of seconds.')
    if (!(minGain.value >= 0 && minGain.value <= 1)) out.push('The minimum gain must be between 0% and 100%.')
    if (!(confidence.value >= 0.5 && confidence.value < 1)) out.push('The confidence must be at least 50% and below 100%.')
    if (!(Number.isInteger(minWeeks.value) && minWeeks.value >= 2)) out.push('The minimum number of weeks must be a whole number of at least 2.')
    for (const p of useMachineStore().problems) out.push(`Cluster (Inspect step): ${p}`)
    return out
  })
  const running = computed(() => isActive(run.value))

  function request(workloadId: string, split: SplitSpec, resample: ResampleSettings): CampaignRequest {
    return {
      workloadId, split: { ...split }, resample: { ...resample }, candidates: candidatesSpec.value,
      thresholds: [...thresholds.value], objective: objective.value, tau: tau.value, maxWaitRatio: maxWaitRatio.value, workers: workers.value,
      minGain: minGain.value, confidence: confidence.value, minWeeks: minWeeks.value, criterion: criterion.value,
      ...machineOf(),
    }
  }
  /** The Cluster panel's machine, when it is not the log's own with its defaults. */
  function machineOf(): { machine?: MachineChoice } {
    const m = useMachineStore().choice
    return m ? { machine: JSON.parse(JSON.stringify(m)) as MachineChoice } : {}
  }

  async function refreshEstimate(req: CampaignRequest): Promise<void> {
    const n = ++asked
    try {
      const e = await useApi().estimateCampaign(req)
      if (n === asked) { estimate.value = e; estimateError.value = null }
    } catch (e) {
      if (n === asked) { estimate.value = null; estimateError.value = errorMessage(e) }
    }
  }

  // Events arrive outside any component: name this store's own Pinia, or useResultsStore() would
  // take whichever Pinia was made active last.
  const ownPinia = getActivePinia()
  function handleEvent(e: CampaignEvent): void {
    if (run.value.status === 'starting' && run.value.campaignId === null) { pending.push(e); return }
    const next = reduceRun(run.value, e)
    if (next === run.value) return
    run.value = next
    if (e.kind === 'done' && next.status === 'done') useResultsStore(ownPinia).setResult(e.result)
  }

  function listen(): void {
    if (!unsubscribe) unsubscribe = useApi().onCampaignEvent(handleEvent)
  }

  async function start(req: CampaignRequest): Promise<boolean> {
    listen()
    pending = []
    run.value = { ...initialRun(), status: 'starting' }
    try {
      const { campaignId } = await useApi().startCampaign(req)
      run.value = { ...run.value, campaignId, status: 'running' }
      const early = pending
      pending = []
      for (const e of early) handleEvent(e)
      return true
    } catch (e) {
      run.value = { ...initialRun(), status: 'error', error: errorMessage(e) }
      return false
    }
  }

  async function cancel(): Promise<void> {
    const id = run.value.campaignId
    if (!id || !isActive(run.value)) return
    try { await useApi().cancel(id) } catch (e) { run.value = { ...run.value, warnings: [...run.value.warnings, `Cancel: ${errorMessage(e)}`] } }
    if (run.value.campaignId === id && isActive(run.value)) run.value = { ...run.value, status: 'cancelled' }
  }

  /**
   * Adds an fn: order (a typed or learned expression) to the candidates, checked as a primary order
   * (crossed with the backfill orders and every threshold, like any order); returns its canonical
   * spec, or throws the parser's refusal. A preset becomes a custom list of its own orders plus this one.
   */
  function addFnOrder(text: string): string {
    const spec = fnOrderOf(text)
    if (preset.value !== 'custom') {
      const list = expandedCandidates.value
      customPrimaries.value = [...new Set(list.map((x) => x.primary))]
      customBackfills.value = [...new Set(list.map((x) => (x.backfill === x.primary ? 'same' : x.backfill)))]
      preset.value = 'custom'
    }
    if (!fnOrders.value.includes(spec)) fnOrders.value = [...fnOrders.value, spec]
    if (!customPrimaries.value.includes(spec)) customPrimaries.value = [...customPrimaries.value, spec]
    return spec
  }

  /** Restores the settings part of a project (the run itself is not kept). */
  function restore(c: Omit<CampaignRequest, 'workloadId' | 'split' | 'resample'>): void {
    fnOrders.value = []
    if ('preset' in c.candidates) preset.value = c.candidates.preset
    else {
      preset.value = 'custom'
      fnOrders.value = [...new Set(c.candidates.list.map((x) => x.primary).filter((x) => isFnSpec(x)))]
      customPrimaries.value = [...new Set(c.candidates.list.map((x) => x.primary))]
      customBackfills.value = [...new Set(c.candidates.list.map((x) => (x.backfill === x.primary ? 'same' : x.backfill)))]
    }
    standardThresholds.value = c.thresholds.filter((t) => STANDARD_THRESHOLDS.includes(t))
    customThresholds.value = c.thresholds.filter((t) => !STANDARD_THRESHOLDS.includes(t)).map(thresholdText).join(', ')
    objective.value = c.objective
    tau.value = c.tau
    capEnabled.value = c.maxWaitRatio !== null
    if (c.maxWaitRatio !== null) capValue.value = c.maxWaitRatio
    workers.value = c.workers
    minGain.value = c.minGain ?? DEFAULTS.minGain.value
    confidence.value = c.confidence ?? DEFAULTS.confidence.value
    minWeeks.value = c.minWeeks ?? DEFAULTS.minWeeks.value
    criterion.value = c.criterion ?? DEFAULTS.criterion.value
  }

  return {
    preset, customPrimaries, customBackfills, fnOrders, standardThresholds, customThresholds, objective, tau, capEnabled, capValue, workers,
    minGain, confidence, minWeeks, criterion,
    estimate, estimateError, run, thresholdParse, thresholds, maxWaitRatio, candidatesSpec, expandedCandidates, problems, running,
    request, refreshEstimate, handleEvent, listen, start, cancel, restore, addFnOrder,
  }
})
