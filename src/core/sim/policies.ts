// Queue-ordering policies (docs/SIMULATOR.md §Policies in the simulator). Each is one declaration: a priority value where
// HIGHER RUNS FIRST (the ocst convention), ties broken by (submit, id) in the simulator.
// p̃ = requested time, q = processors, wait = now − submit, s = seconds since the simulated window
// started (at least 1). A policy is `dynamic` when its value changes with `now` (re-sorted at
// every scheduling pass) and static otherwise (scored once at submission).
import type { MixedSpec, PolicySpec } from './types'

/** The columns a policy may read. */
export interface PolicyInput {
  readonly submit: Float64Array
  readonly requested: Float64Array
  readonly procs: Int32Array
  /** Origin of s for F1–F4. */
  readonly windowStart: number
}

export type PriorityFn = (c: PolicyInput, j: number, now: number) => number

export interface Policy {
  readonly id: string
  readonly name: string
  /** Priority formula as shown to users (higher runs first). */
  readonly formula: string
  readonly dynamic: boolean
  readonly priority: PriorityFn
  readonly source: string
  /** The 12 pure single-key policies of thesis ch. 6 (7 of them form the ch. 5 set). */
  readonly family: 'pure' | 'learned'
}

const wait = (c: PolicyInput, j: number, now: number) => now - c.submit[j]
const expFactor = (c: PolicyInput, j: number, now: number) => (now - c.submit[j] + c.requested[j]) / c.requested[j]
/** log₂ q guarded for q = 1, where the UNICEF formula divides by zero ([002] gives no guard). */
export const UNICEF_LOG2_FLOOR = 0.5
const sOf = (c: PolicyInput, j: number) => Math.max(1, c.submit[j] - c.windowStart)
const rOf = (c: PolicyInput, j: number) => Math.max(1, c.requested[j])

function pure(id: string, name: string, formula: string, dynamic: boolean, priority: PriorityFn, source: string): Policy {
  return { id, name, formula, dynamic, priority, source, family: 'pure' }
}
function learned(id: string, name: string, formula: string, dynamic: boolean, priority: PriorityFn, source: string): Policy {
  return { id, name, formula, dynamic, priority, source, family: 'learned' }
}

export const POLICIES: readonly Policy[] = [
  // FCFS's priority is wait_j; −r_j gives the same order and does not change with time.
  pure('FCFS', 'First-Come First-Served', 'wait  (earliest submit first)', false, (c, j) => -c.submit[j], 'Lifka (EASY); [001] ch. 5–6'),
  pure('LCFS', 'Last-Come First-Served', '−wait  (latest submit first)', false, (c, j) => c.submit[j], '[001] ch. 5–6, [003], [004]'),
  pure('SPF', 'Smallest requested Processing time First', '−p̃', false, (c, j) => -c.requested[j], '[001] ch. 5–6, [003], [004]'),
  pure('LPF', 'Longest requested Processing time First', 'p̃', false, (c, j) => c.requested[j], '[001] ch. 5–6, [003], [004]'),
  pure('SQF', 'Smallest resource reQuirement First', '−q', false, (c, j) => -c.procs[j], '[001] ch. 5–6, [003], [004]'),
  pure('LQF', 'Largest resource reQuirement First', 'q', false, (c, j) => c.procs[j], '[001] ch. 5–6, [003], [004]'),
  pure('LEXP', 'Largest EXPansion factor first', '(wait + p̃) / p̃', true, expFactor, '[001] eq. 5.1/6.1, [003] eq. 1'),
  pure('SEXP', 'Smallest EXPansion factor first', '−(wait + p̃) / p̃', true, (c, j, now) => -expFactor(c, j, now), '[001] ch. 6, [004]'),
  pure('LRF', 'Largest Ratio p̃/q First', 'p̃ / q', false, (c, j) => c.requested[j] / c.procs[j], '[001] ch. 6, [004]'),
  pure('SRF', 'Smallest Ratio p̃/q First', '−p̃ / q', false, (c, j) => -c.requested[j] / c.procs[j], '[001] ch. 6, [004]'),
  pure('LAF', 'Largest Area p̃·q First', 'p̃ · q', false, (c, j) => c.requested[j] * c.procs[j], '[001] ch. 6, [004]'),
  pure('SAF', 'Smallest Area p̃·q First', '−p̃ · q', false, (c, j) => -c.requested[j] * c.procs[j], '[001] ch. 6, [004]'),
  learned('WFP3', 'WFP3 (Tang et al.)', '(wait / p̃)³ · q', true, (c, j, now) => Math.pow(wait(c, j, now) / c.requested[j], 3) * c.procs[j], '[002] Table 2'),
  learned('UNICEF', 'UNICEF (Tang et al.)', `wait / (max(log₂ q, ${UNICEF_LOG2_FLOOR}) · p̃)`, true,
    (c, j, now) => wait(c, j, now) / (Math.max(Math.log2(c.procs[j]), UNICEF_LOG2_FLOOR) * c.requested[j]), '[002] Table 2; guard for q = 1 (I28)'),
  // F1–F4 are learned scores where LOWER runs first: priority = −F. r = max(p̃, 1), s ≥ 1 (our guards: [002] gives none).
  learned('F1', 'F1 (Carastan-Santos & de Camargo)', '−(log₁₀(p̃)·q + 870·log₁₀(s))', false,
    (c, j) => -(Math.log10(rOf(c, j)) * c.procs[j] + 870 * Math.log10(sOf(c, j))), '[002] Table 3'),
  learned('F2', 'F2 (Carastan-Santos & de Camargo)', '−(√p̃·q + 25600·log₁₀(s))', false,
    (c, j) => -(Math.sqrt(rOf(c, j)) * c.procs[j] + 25600 * Math.log10(sOf(c, j))), '[002] Table 3'),
  learned('F3', 'F3 (Carastan-Santos & de Camargo)', '−(p̃·q + 6.86·10⁶·log₁₀(s))', false,
    (c, j) => -(rOf(c, j) * c.procs[j] + 6.86e6 * Math.log10(sOf(c, j))), '[002] Table 3'),
  learned('F4', 'F4 (Carastan-Santos & de Camargo)', '−(p̃·√q + 5.30·10⁵·log₁₀(s))', false,
    (c, j) => -(rOf(c, j) * Math.sqrt(c.procs[j]) + 5.3e5 * Math.log10(sOf(c, j))), '[002] Table 3'),
]

const ALIASES: Record<string, string> = { EXP: 'LEXP', SPT: 'SPF', WFP: 'WFP3', UNI: 'UNICEF' }
const BY_ID = new Map(POLICIES.map((p) => [p.id, p]))

/** The 7 policies of thesis ch. 5 (49 primary × backfill pairs). */
export const CH5_POLICIES = ['FCFS', 'LCFS', 'SPF', 'LPF', 'SQF', 'LQF', 'LEXP'] as const
/** The 12 single-queue policies of thesis ch. 6. */
export const CH6_POLICIES = ['FCFS', 'LCFS', 'SPF', 'LPF', 'LQF', 'SQF', 'LEXP', 'SEXP', 'LRF', 'SRF', 'LAF', 'SAF'] as const

export function findPolicy(id: string): Policy | undefined {
  const key = id.trim().toUpperCase()
  return BY_ID.get(ALIASES[key] ?? key)
}

/** Mixed features (docs/PROTOCOL.md §Mixed search, ocst sign convention): smaller-is-better keys negated. */
export const MIXED_FEATURES = [
  { name: '−q', meaning: 'small jobs first (SQF)' },
  { name: '−p̃', meaning: 'short requested time first (SPF)' },
  { name: 'wait', meaning: 'long wait first (FCFS)' },
  { name: '−exp', meaning: 'small expansion factor first (SEXP)' },
  { name: '−p̃/q', meaning: 'small ratio first (SRF)' },
  { name: '−p̃·q', meaning: 'small area first (SAF)' },
] as const

export function mixedPolicy(spec: MixedSpec): Policy {
  const w = spec.weights
  if (w.length !== 6 || w.some((x) => !Number.isFinite(x))) throw new Error('a mixed policy needs 6 finite weights')
  const mean = spec.mean ?? [0, 0, 0, 0, 0, 0]
  const scale = spec.scale ?? [1, 1, 1, 1, 1, 1]
  const dynamic = (w[2] !== 0 && scale[2] !== 0) || (w[3] !== 0 && scale[3] !== 0)
  // Σ w_i·(x_i − μ_i)/σ_i literally (σ_i = 0 → 0), so exact ties stay exact ties.
  const term = (i: number, x: number) => (scale[i] === 0 ? 0 : (w[i] * (x - mean[i])) / scale[i])
  const priority: PriorityFn = (c, j, now) => {
    const q = c.procs[j], pt = c.requested[j], wt = now - c.submit[j]
    return term(0, -q) + term(1, -pt) + term(2, wt) + term(3, -(wt + pt) / pt) + term(4, -pt / q) + term(5, -pt * q)
  }
  const terms = w.map((wi, i) => (wi === 0 ? '' : `${wi}·${MIXED_FEATURES[i].name}`)).filter(Boolean).join(' + ')
  return { id: `mixed(${w.join(',')})`, name: 'Mixed linear policy', formula: terms || '0', dynamic, priority, source: '[004] §3.3 eq. 3', family: 'learned' }
}

/** Resolves a PolicySpec to a Policy, or throws an Error that lists the valid ids. */
export function resolvePolicy(spec: PolicySpec): Policy {
  if (typeof spec !== 'string') return mixedPolicy(spec)
  const p = findPolicy(spec)
  if (!p) throw new Error(`unknown policy "${spec}"; known: ${POLICIES.map((x) => x.id).join(', ')}`)
  return p
}

export function policyLabel(spec: PolicySpec | 'same'): string {
  return typeof spec === 'string' ? (spec === 'same' ? 'same' : resolvePolicy(spec).id) : resolvePolicy(spec).id
}
