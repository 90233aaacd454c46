// The evaluation result (from a run, a project or a CLI JSON), what it says in words, whether it
// is still current, and optional online/mixed results opened from `easytune online|mixed --json`.
import { defineStore } from 'pinia'
import { computed, shallowRef, ref } from 'vue'
import type { EvaluationResult } from '../../../core/tune/result'
import { RESULT_SCHEMA_VERSION } from '../../../core/tune/result'
import { formatThreshold } from '../../../core/util/duration'
import { candidateSetNote } from '../../../core/tune/campaign'
import { pct, times, duration, int } from '../format'
import { errorMessage } from '../apiRef'
import { staleReasons, type CurrentInputs } from './staleness'
import { useMachineStore } from './machine'
import { useWorkloadStore } from './workload'
import { useSplitStore } from './split'
import { useCampaignStore } from './campaign'
import { parseExtras, type Extras } from './extras'

/** The recommendation and the hindsight comparison, in sentences (pure: tested directly). */
export function describeResult(r: EvaluationResult): { headline: string; hindsight: string; scope: string; baseline: string } {
  const best = r.candidates[r.bestOnTest]
  const rec = r.candidates[r.recommended ?? 0]
  const what = r.protocol.objective === 'avgWait' ? 'average wait' : 'average bounded slowdown'
  const hindsight = r.bestOnTest === r.recommended
    ? `The recommended order was also the best on the test months: choosing on the past months lost nothing here.`
    : `In hindsight, ${best.label} was best on the test months (${pct(best.test.gain)} less ${what} than EASY-FCFS, against ${pct(rec.test.gain)} for the recommendation): the price of choosing without knowing the future.`
  const n = r.candidates.length
  const th = r.protocol.thresholds.map(formatThreshold).join(', ')
  const rs = r.protocol.resample
  const note = candidateSetNote(r.protocol.candidates)
  const scope = `Chosen among ${int(n)} configurations (thresholds: ${th}) on ${int(rs.trainSamples)} training weeks and judged on ${int(rs.testSamples)} test weeks (${rs.method}, seed ${rs.seed}).${note ? ` Candidates: ${note} (its export says what is lost).` : ''}`
  const base = r.candidates.find((c) => c.baseline) ?? r.candidates[0]
  const baseline = r.protocol.objective === 'avgWait'
    ? `EASY-FCFS today: ${duration(base.train.mean)} average wait on the training weeks, ${duration(base.test.mean)} on the test weeks; longest wait on test ${duration(base.test.maxMaxWait)}.`
    : `EASY-FCFS today: average bounded slowdown ${base.train.mean.toFixed(2)} on the training weeks, ${base.test.mean.toFixed(2)} on the test weeks.`
  return { headline: r.recommendation.sentence, hindsight, scope, baseline }
}

/** The longest-wait risk of the recommendation in a few words: on train (where the limit
 * applies) and on test. */
export function riskText(r: EvaluationResult): string {
  const c = r.candidates[r.recommended ?? 0]
  const limit = r.protocol.risk.maxWaitRatio === null
    ? 'No limit on the longest wait was set (Candidates & risk step).'
    : `Your limit: ${times(r.protocol.risk.maxWaitRatio, 1)} on the training weeks; ${int(r.candidates.filter((x) => !x.admissible).length)} configurations exceeded it.`
  return `Longest wait: ${times(c.train.maxMaxWaitRatio, 1)} EASY-FCFS's on the training weeks (${duration(c.train.maxMaxWait)}), ${times(c.test.maxMaxWaitRatio, 1)} on the test weeks (${duration(c.test.maxMaxWait)}). ${limit}`
}

/** Accepts an evaluation result JSON (CLI `evaluate --json`), refusing unknown schema versions. */
export function parseEvaluation(text: string): EvaluationResult {
  const r = JSON.parse(text) as Partial<EvaluationResult>
  if (r?.kind !== 'easytune-evaluation') throw new Error('this is not an EasyTune evaluation result (kind is not "easytune-evaluation")')
  const readable = [...new Set([1, 2, 3, RESULT_SCHEMA_VERSION])]
  if (!readable.includes(r.schemaVersion as number)) throw new Error(`this result has schema version ${r.schemaVersion}; this EasyTune reads version${readable.length > 1 ? 's' : ''} ${readable.join(' and ')}`)
  return normalizeResult(r as EvaluationResult)
}

/** A result the views can index: `recommended` is absent for `insufficient-data` (schema 2); the
 * views then show EASY-FCFS (index 0) where they name the recommended row. */
export function normalizeResult(r: EvaluationResult): EvaluationResult {
  return typeof r.recommended === 'number' ? r : { ...r, recommended: 0 }
}

/** The Cluster panel's machine as staleness compares it (the file as the request names it). */
function machineNow(): CurrentInputs['machine'] {
  const m = useMachineStore()
  const c = m.choice
  const file = c && c.source !== 'inferred' ? c.file : null
  return { source: c?.source ?? 'inferred', name: file?.name ?? null, text: file?.text ?? null, scheduler: m.scheduler }
}

export const useResultsStore = defineStore('results', () => {
  const result = shallowRef<EvaluationResult | null>(null)
  const extras = shallowRef<Extras>({ online: null, mixed: null })
  const loadError = ref<string | null>(null)

  const text = computed(() => (result.value ? describeResult(result.value) : null))
  const risk = computed(() => (result.value ? riskText(result.value) : null))
  const staleBecause = computed<string[]>(() => {
    const r = result.value
    if (!r) return []
    const w = useWorkloadStore(), s = useSplitStore(), c = useCampaignStore()
    const sum = w.summary
    return staleReasons(r, {
      log: sum ? { sha256: sum.sha256, machineProcs: sum.report.machine.procs, jobsKept: sum.report.jobsKept } : null,
      split: s.spec, resample: s.resample, objective: c.objective, tau: c.tau, thresholds: c.thresholds,
      candidates: c.expandedCandidates, maxWaitRatio: c.maxWaitRatio,
      verdict: { minGain: c.minGain, confidence: c.confidence, minWeeks: c.minWeeks, criterion: c.criterion },
      machine: machineNow(),
    })
  })
  const stale = computed(() => staleBecause.value.length > 0)

  function setResult(r: EvaluationResult | null): void {
    result.value = r && normalizeResult(r)
    loadError.value = null
  }

  /** Opens a JSON file: an evaluation result, or an online / mixed result shown beside it. */
  function loadJson(textIn: string): 'evaluation' | 'online' | 'mixed' {
    loadError.value = null
    try {
      const data = JSON.parse(textIn) as { kind?: string }
      if (data?.kind === 'easytune-evaluation') { setResult(parseEvaluation(textIn)); return 'evaluation' }
      const x = parseExtras(data)
      extras.value = { ...extras.value, ...x.extras }
      return x.kind
    } catch (e) {
      loadError.value = e instanceof SyntaxError ? `This file is not JSON: ${e.message}` : errorMessage(e)
      throw e
    }
  }

  /** Shows an online / mixed document that arrived from a run (startAnalysis), like an opened file. */
  function showExtras(data: unknown): 'online' | 'mixed' {
    const x = parseExtras(data)
    extras.value = { ...extras.value, ...x.extras }
    loadError.value = null
    return x.kind
  }

  return { result, extras, loadError, text, risk, staleBecause, stale, setResult, loadJson, showExtras }
})
