// Is a result still what the current settings would compute? The result carries its own protocol
// (log hash, split, resampling, objective, thresholds, candidates, risk limit), so comparing it
// with the wizard's current inputs tells exactly which upstream change made it stale, and a
// change that is undone makes it current again.
import type { EvaluationResult } from '../../../core/tune/result'
import type { SplitSpec } from '../../../core/tune/split'
import type { ResampleMethod } from '../../../core/tune/resample'
import type { Objective } from '../../../core/tune/campaign'
import type { CandidateDto } from '../../../shared/api'

export interface CurrentInputs {
  /** The loaded log, or null when none is loaded (then the log cannot be compared). */
  log: { sha256: string; machineProcs: number; jobsKept: number } | null
  split: SplitSpec
  resample: { method: ResampleMethod; weeks: number; seed: number }
  objective: Objective
  tau: number
  thresholds: (number | null)[]
  /** The expanded candidate list (a preset is expanded by the caller). */
  candidates: CandidateDto[]
  maxWaitRatio: number | null
  /** The verdict's settings (compared only with results that record them: schema 2). */
  verdict?: { minGain: number; confidence: number; minWeeks: number; criterion: string }
  /** The Cluster panel's machine: where it comes from, the file's name and text, the scheduling
   * (compared with results that record their machine: schema 3). QOS priorities are not recorded
   * in a result, so a change of them alone is not seen here. */
  machine?: { source: 'inferred' | 'file' | 'conf' | 'current'; name: string | null; text: string | null; scheduler: 'easy' | 'slurm' }
}

/** Does the machine the result ran on differ from the chosen one? */
function machineDiffers(r: EvaluationResult, now: NonNullable<CurrentInputs['machine']>): boolean {
  const m = (r as { machine?: EvaluationResult['machine'] }).machine
  if (!m) return now.source !== 'inferred' || now.scheduler !== 'easy'
  if (m.scheduler !== now.scheduler) return true
  const conf = m.conf ?? null
  switch (now.source) {
    case 'inferred': return conf !== null || (m.kind === 'cluster' && m.source !== 'inferred')
    case 'file': return conf !== null || m.kind !== 'cluster' || m.source === 'inferred' || !m.description.endsWith(`from ${now.name ?? ''}`)
    case 'conf': return conf === null || conf.current || conf.file !== now.name || conf.text !== now.text
    case 'current': return conf === null || !conf.current || conf.file !== now.name || conf.text !== now.text
  }
}

/** EASY-P-P is EASY-P with the same backfill order: both spellings are the same candidate. */
const pairKey = (c: CandidateDto) => {
  const p = c.primary.toUpperCase(), b = c.backfill.toUpperCase()
  return `${p}/${b === p ? 'SAME' : b}`
}
const sameSet = <T>(a: T[], b: T[], key: (x: T) => string) => {
  const ka = new Set(a.map(key)), kb = new Set(b.map(key))
  return ka.size === kb.size && [...ka].every((k) => kb.has(k))
}
const splitKey = (s: SplitSpec) => (s.kind === 'midpoint' ? 'midpoint' : s.kind === 'fraction' ? `fraction:${s.fraction}` : `time:${Math.round(s.at)}`)

/** What changed since the result was computed, in words; empty = the result is current. */
export function staleReasons(r: EvaluationResult, now: CurrentInputs): string[] {
  const out: string[] = []
  const p = r.protocol
  if (now.log) {
    if (now.log.sha256 !== r.log.sha256) out.push('a different log is loaded')
    else if (now.log.machineProcs !== r.log.machineProcs || now.log.jobsKept !== r.log.jobsKept) out.push('the machine size or the cleaning of the log changed')
  }
  if (splitKey(now.split) !== splitKey(p.split.spec)) out.push('the split point moved')
  const rs = p.resample
  if (now.resample.method !== rs.method || now.resample.seed !== rs.seed || (rs.method !== 'none' && now.resample.weeks !== rs.weeks)) {
    out.push('the resampling (method, weeks or seed) changed')
  }
  if (now.objective !== p.objective || (now.objective === 'avgBsld' && now.tau !== p.tau)) out.push('the objective changed')
  if (!sameSet(now.thresholds, p.thresholds, (t) => String(t))) out.push('the thresholds changed')
  if (!sameSet(now.candidates, p.candidates, pairKey)) out.push('the candidate orders changed')
  if ((now.maxWaitRatio ?? null) !== (p.risk.maxWaitRatio ?? null)) out.push('the limit on the longest wait changed')
  const v = p as { minGain?: number; confidence?: number; minWeeks?: number; criterion?: string }
  if (now.verdict && v.minGain !== undefined && (now.verdict.minGain !== v.minGain || now.verdict.confidence !== v.confidence || now.verdict.minWeeks !== v.minWeeks || (v.criterion !== undefined && now.verdict.criterion !== v.criterion))) {
    out.push('the minimum gain, confidence, minimum weeks or criterion changed')
  }
  if (now.machine && machineDiffers(r, now.machine)) out.push('the machine or its scheduling (Cluster, Inspect step) changed')
  return out
}
