// Reads what export needs from an evaluation result, which is untrusted input (a file from
// anywhere): every field read is checked, and only typed values (registry ids, finite numbers)
// leave this module. Strings from the result never reach generated configuration or code.
import { FN_MAX_LENGTH, FN_PREFIX, isFnSpec } from '../sim/fn'
import { findPolicy, POLICIES, unknownPolicyMessage } from '../sim/policies'
import { RESULT_SCHEMA_VERSION, upgradeResult, type EvaluationResult, type Verdict } from '../tune/result'
import { ExportInputError, InsufficientDataError } from './errors'
import { readSlurmChange, type SlurmChange } from '../cluster/slurm-family'

export { ExportInputError, InsufficientDataError } from './errors'

/** The result's verdict is insufficient-data: no recommendation to export (`easytune export` exits 2 with it). */

/** A registry policy (canonical id) or a mixed linear policy with its 6 weights and scales. */
export type PolicyChoice =
  | { kind: 'pure'; id: string }
  | { kind: 'mixed'; weights: number[]; scale: number[] }

export interface ExportInput {
  /** The evaluation's verdict (schema v2); a v1 document recommending the baseline means keep. */
  verdict?: Exclude<Verdict, 'insufficient-data'>
  /** The longest requested time in the log, seconds (null in documents that do not record it). */
  maxRequested?: number | null
  primary: PolicyChoice
  /** 'same', a registry id, or 'mixed'. */
  backfill: string
  /** Seconds, or null for no threshold. */
  threshold: number | null
  machineProcs: number
  /** The longest wait of the recommended candidate on train or test, seconds (null if absent). */
  longestWait: number | null
  baseline: boolean
  label: string
  sha256: string | null
  objective: 'avgWait' | 'avgBsld' | null
  gains: { train: number | null; test: number | null; testCi: [number, number] | null; maxWaitRatio: number | null }
  /** A change of the site's own Slurm settings (docs/CLUSTER.md §Site settings as candidates): the export
   * is that change, merged into the site's slurm.conf; absent for a queue order. */
  slurm?: SlurmChange
}

/** Result documents this module reads: v1, and v2 which adds recommendation.verdict (docs/RESULT-SCHEMA.md). */


/** A short printable text from the result (shown to the person only, never written into a file). */
function plainText(x: unknown): string | null {
  if (typeof x !== 'string') return null
  const t = x.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim()
  return t === '' ? null : t.length > 400 ? `${t.slice(0, 400)}…` : t
}

const MAX_WEIGHT = 1e12
const MAX_THRESHOLD = 1e9 // about 31 years

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x)
const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x)
const optNum = (x: unknown): number | null => (finite(x) ? x : null)

function sixNumbers(x: unknown, what: string, fallback: number): number[] {
  if (x === undefined || x === null) return [fallback, fallback, fallback, fallback, fallback, fallback]
  if (!Array.isArray(x) || x.length !== 6 || !x.every((n) => finite(n) && Math.abs(n) <= MAX_WEIGHT)) {
    throw new ExportInputError(`the mixed policy's ${what} must be 6 finite numbers`)
  }
  return x.map(Number)
}

function policyChoice(x: unknown, where: string): PolicyChoice {
  if (typeof x === 'string') {
    // A learned function fn:… is parsed by the fn: grammar (docs/LEARN.md §Expressions) and kept as its canonical id, re-printed from the tree.
    const p = x.length <= FN_PREFIX.length + FN_MAX_LENGTH + 8 ? findPolicy(x) : undefined
    if (!p) throw new ExportInputError(`${where} is not a known policy (known: ${POLICIES.map((q) => q.id).join(', ')}, a mixed policy, or fn:<expression>)${isFnSpec(x.trim()) ? `: ${unknownPolicyMessage(x)}` : ''}`)
    return { kind: 'pure', id: p.id }
  }
  if (isObj(x) && x.kind === 'mixed') {
    const weights = sixNumbers(x.weights, 'weights', 0)
    sixNumbers(x.mean, 'means', 0) // checked only: means add one constant to every score
    const scale = sixNumbers(x.scale, 'scales', 1)
    if (scale.some((s) => s < 0)) throw new ExportInputError("the mixed policy's scales must not be negative")
    return { kind: 'mixed', weights, scale }
  }
  throw new ExportInputError(`${where} is not a known policy (expected a policy id such as SPF, or a mixed policy)`)
}

/** The recommended candidate of a result, or an ExportInputError in plain words. */
export function readExportInput(input: unknown): ExportInput {
  if (!isObj(input)) throw new ExportInputError('the file is not an EasyTune evaluation result (expected a JSON object)')
  const result = upgradeResult(input) // version 1 documents are read as version 2 (a baseline recommendation = keep)
  const sv = result.schemaVersion
  if (sv !== RESULT_SCHEMA_VERSION) {
    throw new ExportInputError(`unsupported result schemaVersion ${JSON.stringify(sv)?.slice(0, 20) ?? 'missing'}; this version of EasyTune reads versions 1 to ${RESULT_SCHEMA_VERSION}`)
  }
  if (result.kind !== 'easytune-evaluation') throw new ExportInputError('the file is not an EasyTune evaluation result (kind is not "easytune-evaluation")')
  const r = result as unknown as EvaluationResult
  const rec = isObj(r.recommendation) ? (r.recommendation as unknown as Record<string, unknown>) : {}
  const verdict = rec.verdict
  if (verdict === 'insufficient-data') {
    throw new InsufficientDataError(`the evaluation's verdict is insufficient-data (too little data to recommend an order), so there is nothing to export: ${plainText(rec.reason) ?? 'no reason given'}`)
  }
  if (!(verdict === 'switch' || verdict === 'keep')) throw new ExportInputError('the result has no verdict (recommendation.verdict must be switch, keep or insufficient-data)')
  if (!Array.isArray(r.candidates) || r.candidates.length === 0) throw new ExportInputError('the result has no candidates')
  const i = r.recommended as unknown
  if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= r.candidates.length) {
    throw new ExportInputError('the result\'s "recommended" is not the index of one of its candidates')
  }
  const c = r.candidates[i] as unknown
  if (!isObj(c)) throw new ExportInputError('the recommended candidate is not an object')
  // The raw spec (candidate.primary, which keeps a mixed policy's scales) wins over the label.
  const spec = isObj(c.candidate) ? c.candidate : c
  const primary = policyChoice(spec.primary, 'the recommended queue order')
  const bf = spec.backfill
  const backfill = bf === 'same' || bf === undefined ? 'same' : (() => {
    const b = policyChoice(bf, 'the recommended backfill order')
    return b.kind === 'pure' ? b.id : 'mixed'
  })()
  let slurm: SlurmChange | null
  try {
    slurm = readSlurmChange(spec.slurm)
  } catch (e) {
    throw new ExportInputError(`the recommended Slurm settings change cannot be read: ${(e as Error).message}`)
  }
  const t = c.threshold
  if (!(t === null || t === undefined || (finite(t) && t >= 0 && t <= MAX_THRESHOLD))) {
    throw new ExportInputError(`the recommended threshold must be null or a number of seconds between 0 and ${MAX_THRESHOLD}`)
  }
  const log = isObj(r.log) ? (r.log as unknown as Record<string, unknown>) : {}
  const m = log.machineProcs
  if (!(finite(m) && Number.isInteger(m) && m >= 1 && m <= 1e8)) throw new ExportInputError('the result\'s log.machineProcs must be a whole number of processors')
  const part = (k: 'train' | 'test') => (isObj(c[k]) ? (c[k] as Record<string, unknown>) : {})
  const waits = [optNum(part('train').maxMaxWait), optNum(part('test').maxMaxWait)].filter((x): x is number => x !== null && x >= 0)
  const ci = part('test').gainCi
  const objective = isObj(r.protocol) ? (r.protocol as unknown as Record<string, unknown>).objective : null
  const mr = log.maxRequestedSeconds
  return {
    verdict,
    maxRequested: finite(mr) && mr > 0 ? Math.min(mr, MAX_THRESHOLD) : null,
    primary, backfill,
    threshold: finite(t) ? t : null,
    machineProcs: m,
    longestWait: waits.length ? Math.min(Math.max(...waits), MAX_THRESHOLD) : null,
    baseline: c.baseline === true,
    label: choiceLabel(primary) + (backfill === 'same' ? '' : `-${backfill}`),
    sha256: typeof log.sha256 === 'string' && /^[0-9a-f]{64}$/.test(log.sha256) ? log.sha256 : null,
    objective: objective === 'avgWait' || objective === 'avgBsld' ? objective : null,
    ...(slurm ? { slurm } : {}),
    gains: {
      train: optNum(part('train').gain), test: optNum(part('test').gain),
      testCi: Array.isArray(ci) && ci.length === 2 && finite(ci[0]) && finite(ci[1]) ? [ci[0], ci[1]] : null,
      maxWaitRatio: optNum(part('test').maxMaxWaitRatio),
    },
  }
}

/** A label built from validated values only ("SPF", "mixed"). */
export function choiceLabel(p: PolicyChoice): string {
  return p.kind === 'pure' ? p.id : 'mixed'
}
