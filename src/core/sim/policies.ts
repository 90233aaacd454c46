// Queue-ordering policies, each declared ONCE below (docs/POLICIES.md is generated from these
// declarations: scripts/gen-policies-doc.mjs). A policy is a priority formula where HIGHER RUNS
// FIRST (the ocst convention); the simulator breaks ties by (submit, id). Everything else is
// derived from the formula: the function the simulator calls (compiled once), the features it
// reads, whether it changes with time (it reads the wait), the Slurm and PBS export
// (src/core/export reads the same tree), `easytune policies` and the GUI help.
// p̃ = requested time, q = processors, wait = now − submit, s = seconds since the simulated
// window started (at least 1).
import { add, compile, cube, div, log10, log2max, max, mul, neg, num, p, q, s, sqrt, t, usesVar, varsOf, VARS, w, type Expr, type Var } from './formula'
import { FN_PREFIX, isFnSpec, parseFn, printFn } from './fn'
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

/** What a policy's author writes (one object per policy, next to the paper). */
export interface PolicyDeclaration {
  readonly id: string
  /** Other names accepted on input (the papers' spellings). */
  readonly aliases?: readonly string[]
  readonly name: string
  /** The priority as the simulator evaluates it (higher runs first). */
  readonly expr: Expr
  /** The same formula as shown to users. */
  readonly formula: string
  /** Where it comes from in the research (docs/POLICIES.md lists the references). */
  readonly source: string
  /** 'pure': a single-key order (those of thesis ch. 5–6 and their variants), also offered as a
   * backfill order in the GUI; 'learned': formulas fitted or tuned elsewhere (WFP3, UNICEF,
   * F1–F4) and mixed policies. */
  readonly family: 'pure' | 'learned'
  /** One sentence for the GUI: what the order favours. */
  readonly explain: string
  /** Optional hand-written priority, only where the compiled formula is measurably slower in the
   * simulator's hot loop (a dynamic policy re-scores every waiting job at every pass). It must
   * equal the formula's value: the policy tests check it on random jobs. */
  readonly fast?: PriorityFn
}

/** A declared policy with what is derived from its formula. */
export interface Policy extends PolicyDeclaration {
  /** True when the value changes with `now` (the formula reads the wait): re-sorted at every
   * scheduling pass. Static ones are scored once at submission. */
  readonly dynamic: boolean
  /** The features the formula reads. */
  readonly features: readonly Var[]
  readonly priority: PriorityFn
}

/** log₂ q guarded for q = 1, where the UNICEF formula divides by zero ([002] gives no guard; docs/POLICIES.md, Guards). */
export const UNICEF_LOG2_FLOOR = 0.5

const exp = div(add(w, p), p)
/** r = max(p̃, 1): F1–F4 take log₁₀ and √ of the requested time ([002] gives no guard; docs/POLICIES.md, Guards). */
const r = max(p, num(1))

const PURE = '[001] ch. 6, [004]'
// Hand-written `fast` priorities below: the compiled formula composes one closure per operation,
// which costs 25–350 % more per call for these shapes (measured on KTH); the policy tests check
// that each equals its formula on random jobs. r and s as the formulas define them:
const rOf = (c: PolicyInput, j: number) => Math.max(1, c.requested[j])
const sOf = (c: PolicyInput, j: number) => Math.max(1, c.submit[j] - c.windowStart)
export const DECLARATIONS: readonly PolicyDeclaration[] = [
  // FCFS's priority is the wait; −submit gives the same order and does not change with time.
  { id: 'FCFS', name: 'First-Come First-Served', expr: neg(t), formula: 'wait  (earliest submit first)', family: 'pure',
    source: 'Lifka (EASY); [001] ch. 5–6', explain: 'Jobs run in the order they were submitted: the usual default, which keeps the longest waits short.' },
  { id: 'LCFS', name: 'Last-Come First-Served', expr: t, formula: '−wait  (latest submit first)', family: 'pure',
    source: '[001] ch. 5–6, [003], [004]', explain: 'The newest job first.' },
  { id: 'SPF', aliases: ['SPT'], name: 'Smallest requested Processing time First', expr: neg(p), formula: '−p̃', family: 'pure',
    source: '[001] ch. 5–6, [003], [004]', explain: 'Jobs that asked for the least time first.' },
  { id: 'LPF', name: 'Longest requested Processing time First', expr: p, formula: 'p̃', family: 'pure',
    source: '[001] ch. 5–6, [003], [004]', explain: 'Jobs that asked for the most time first.' },
  { id: 'SQF', name: 'Smallest resource reQuirement First', expr: neg(q), formula: '−q', family: 'pure',
    source: '[001] ch. 5–6, [003], [004]', explain: 'Jobs that asked for the fewest processors first.' },
  { id: 'LQF', name: 'Largest resource reQuirement First', expr: q, formula: 'q', family: 'pure',
    source: '[001] ch. 5–6, [003], [004]', explain: 'Jobs that asked for the most processors first.' },
  { id: 'LEXP', aliases: ['EXP'], name: 'Largest EXPansion factor first', expr: exp, formula: '(wait + p̃) / p̃', family: 'pure',
    source: '[001] eq. 5.1/6.1, [003] eq. 1', explain: 'The job whose wait is largest compared with its requested time first (its estimated slowdown so far).' },
  { id: 'SEXP', name: 'Smallest EXPansion factor first', expr: neg(exp), formula: '−(wait + p̃) / p̃', family: 'pure',
    source: '[001] ch. 6, [004]', explain: 'The job whose wait is smallest compared with its requested time first.',
    fast: (c, j, now) => -(now - c.submit[j] + c.requested[j]) / c.requested[j] },
  { id: 'LRF', name: 'Largest Ratio p̃/q First', expr: div(p, q), formula: 'p̃ / q', family: 'pure',
    source: PURE, explain: 'Long jobs on few processors first.' },
  { id: 'SRF', name: 'Smallest Ratio p̃/q First', expr: neg(div(p, q)), formula: '−p̃ / q', family: 'pure',
    source: PURE, explain: 'Short jobs on many processors first.' },
  { id: 'LAF', name: 'Largest Area p̃·q First', expr: mul(p, q), formula: 'p̃ · q', family: 'pure',
    source: PURE, explain: 'Jobs that asked for the most processor-time first.' },
  { id: 'SAF', name: 'Smallest Area p̃·q First', expr: neg(mul(p, q)), formula: '−p̃ · q', family: 'pure',
    source: PURE, explain: 'Jobs that asked for the least processor-time first.' },
  { id: 'WFP3', aliases: ['WFP'], name: 'WFP3 (Tang et al.)', expr: mul(cube(div(w, p)), q), formula: '(wait / p̃)³ · q', family: 'learned',
    source: '[002] Table 2 (Tang et al.)', explain: 'Short and old jobs strongly favoured, while large jobs do not starve.',
    fast: (c, j, now) => Math.pow((now - c.submit[j]) / c.requested[j], 3) * c.procs[j] },
  { id: 'UNICEF', aliases: ['UNI'], name: 'UNICEF (Tang et al.)', expr: div(w, mul(log2max(q, UNICEF_LOG2_FLOOR), p)),
    formula: `wait / (max(log₂ q, ${UNICEF_LOG2_FLOOR}) · p̃)`, family: 'learned',
    source: '[002] Table 2 (Tang et al.); guard for q = 1 ours', explain: 'Fast turnaround for small jobs: the wait divided by the size and requested time.',
    fast: (c, j, now) => (now - c.submit[j]) / (Math.max(Math.log2(c.procs[j]), UNICEF_LOG2_FLOOR) * c.requested[j]) },
  // F1–F4 are learned scores where LOWER runs first: priority = −F. r = max(p̃, 1), s ≥ 1 (guards: docs/POLICIES.md).
  { id: 'F1', name: 'F1 (Carastan-Santos & de Camargo)', expr: neg(add(mul(log10(r), q), mul(num(870), log10(s)))),
    formula: '−(log₁₀(p̃)·q + 870·log₁₀(s))', family: 'learned', source: '[002] Table 3',
    explain: 'A score learned by simulation that favours jobs on few processors and early arrivals.',
    fast: (c, j) => -(Math.log10(rOf(c, j)) * c.procs[j] + 870 * Math.log10(sOf(c, j))) },
  { id: 'F2', name: 'F2 (Carastan-Santos & de Camargo)', expr: neg(add(mul(sqrt(r), q), mul(num(25600), log10(s)))),
    formula: '−(√p̃·q + 25600·log₁₀(s))', family: 'learned', source: '[002] Table 3',
    explain: 'A score learned by simulation that penalises many processors most, then long requests.',
    fast: (c, j) => -(Math.sqrt(rOf(c, j)) * c.procs[j] + 25600 * Math.log10(sOf(c, j))) },
  { id: 'F3', name: 'F3 (Carastan-Santos & de Camargo)', expr: neg(add(mul(r, q), mul(num(6.86e6), log10(s)))),
    formula: '−(p̃·q + 6.86·10⁶·log₁₀(s))', family: 'learned', source: '[002] Table 3',
    explain: 'A score learned by simulation that penalises the requested area (time × processors).',
    fast: (c, j) => -(rOf(c, j) * c.procs[j] + 6.86e6 * Math.log10(sOf(c, j))) },
  { id: 'F4', name: 'F4 (Carastan-Santos & de Camargo)', expr: neg(add(mul(r, sqrt(q)), mul(num(5.3e5), log10(s)))),
    formula: '−(p̃·√q + 5.30·10⁵·log₁₀(s))', family: 'learned', source: '[002] Table 3',
    explain: 'A score learned by simulation that penalises long requests most.',
    fast: (c, j) => -(rOf(c, j) * Math.sqrt(c.procs[j]) + 5.3e5 * Math.log10(sOf(c, j))) },
  // LEXP is the slowdown estimated with p̃ ([001] §6.2.1); bounding it with τ = 10 s as the
  // bounded-slowdown metric does ([004] §2.3) stops jobs that asked for seconds from jumping ahead.
  { id: 'LBSLD', name: 'Largest estimated Bounded SLowDown first', expr: div(add(w, p), max(p, num(10))), formula: '(wait + p̃) / max(p̃, 10 s)', family: 'pure',
    source: '[001] §6.2.1 (LEXP as the estimated slowdown) bounded with τ = 10 s as in [004] §2.3',
    explain: 'The job whose estimated bounded slowdown (the metric itself, τ = 10 s) is largest first: LEXP without favouring jobs that ask for a few seconds.' },
]

/** A declaration with everything derived from its formula. */
export function definePolicy(d: PolicyDeclaration): Policy {
  return policyObject(d, d.fast ?? compile(d.expr))
}

/** Every Policy object has the same properties in the same order (one hidden class), so the
 * simulator's reads of `priority` and `dynamic` stay monomorphic whatever the policy. */
function policyObject(d: PolicyDeclaration, priority: PriorityFn): Policy {
  return {
    id: d.id, aliases: d.aliases ?? [], name: d.name, expr: d.expr, formula: d.formula, source: d.source, family: d.family,
    explain: d.explain, fast: d.fast, dynamic: usesVar(d.expr, 'w'), features: varsOf(d.expr), priority,
  }
}

export const POLICIES: readonly Policy[] = DECLARATIONS.map(definePolicy)

const BY_NAME = new Map<string, Policy>()
for (const pol of POLICIES) for (const name of [pol.id, ...(pol.aliases ?? [])]) {
  if (BY_NAME.has(name)) throw new Error(`internal: two policies are called ${name}`)
  BY_NAME.set(name, pol)
}

/** The 7 policies of thesis ch. 5 (49 primary × backfill pairs). */
export const CH5_POLICIES = ['FCFS', 'LCFS', 'SPF', 'LPF', 'SQF', 'LQF', 'LEXP'] as const
/** The 12 single-queue policies of thesis ch. 6. */
export const CH6_POLICIES = ['FCFS', 'LCFS', 'SPF', 'LPF', 'LQF', 'SQF', 'LEXP', 'SEXP', 'LRF', 'SRF', 'LAF', 'SAF'] as const

/** A registry policy by id or alias (any case), or a learned function `fn:<expression>` that
 * parses (docs/LEARN.md §Expressions); undefined otherwise (resolvePolicy says why). */
export function findPolicy(id: string): Policy | undefined {
  if (typeof id === 'string' && isFnSpec(id.trim())) {
    try { return fnPolicy(id) } catch { return undefined }
  }
  return BY_NAME.get(id.trim().toUpperCase())
}

/** Why a policy id is not accepted, in words: the fn: parser's message with its position, or the
 * list of known ids. */
export function unknownPolicyMessage(id: string): string {
  if (typeof id === 'string' && isFnSpec(id.trim())) {
    try { fnPolicy(id); return `"${id.slice(0, 60)}" is accepted` } catch (e) { return (e as Error).message }
  }
  return `unknown policy "${String(id).slice(0, 60)}"; known: ${POLICIES.map((x) => x.id).join(', ')}, or ${FN_PREFIX}<expression>`
}

/** What to say wherever an fn: order is shown, since every other order is described the other way. */
export const FN_LOWER_FIRST = 'fn: orders are learned functions f where, as in the paper, a LOWER f runs first (priority −f)'

/** True when a policy spec (or a label holding one) names a learned function. */
export const mentionsFn = (spec: unknown): boolean => typeof spec === 'string' && /(^|[^a-z])fn:/i.test(spec)

/** Parsed learned functions by the text given (bounded: an evaluation names a few). */
const FN_CACHE = new Map<string, Policy>()
const FN_CACHE_SIZE = 256

/**
 * The queue order of a learned function f (docs/LEARN.md §Expressions): as in the paper a LOWER f
 * runs first, so the policy's priority (higher runs first, as every policy here) is −f. Its id is
 * the canonical spec `fn:` + the printed tree, the same whatever spacing or symbols were typed. A
 * value that is not a number (log10 or sqrt of a negative, 0/0) reads as f = +∞: the job runs
 * after every job whose f is a number. Throws an FnSyntaxError naming the position.
 */
export function fnPolicy(spec: string): Policy {
  const text = spec.trim()
  const hit = FN_CACHE.get(text)
  if (hit) return hit
  if (!isFnSpec(text)) throw new Error(`a learned function is written ${FN_PREFIX}<expression>, got "${text.slice(0, 40)}"`)
  const f = parseFn(text.slice(FN_PREFIX.length))
  const shown = printFn(f)
  const expr = neg(f)
  const g = compile(expr)
  const pol = policyObject({
    id: FN_PREFIX + shown, name: 'Learned function (lower f runs first)', expr,
    formula: `−(${shown})  (lower f runs first)`, family: 'learned',
    source: '[002] §3.2 method, learned on this site (docs/LEARN.md §Expressions)',
    explain: 'A function of the requested time r, the processors n and the submit time s; as in the paper, the job with the LOWER value runs first.',
  }, (c, j, now) => { const x = g(c, j, now); return x === x ? x : -Infinity })
  if (FN_CACHE.size >= FN_CACHE_SIZE) FN_CACHE.delete(FN_CACHE.keys().next().value!)
  FN_CACHE.set(text, pol)
  return pol
}

/** The features of mixed policies ([004] §3.3 with the ocst sign convention: smaller-is-better
 * keys negated, wait positive, higher score first), declared once for the simulator, the export
 * and every listing. `ascii` names them in generated configuration comments; `pure` is the
 * registry policy that orders like the feature alone (the vertex of the weight polytope). */
export const MIXED_FEATURE_DECLARATIONS: readonly { name: string; ascii: string; meaning: string; pure: string; expr: Expr }[] = [
  { name: '−q', ascii: '-q', meaning: 'small jobs first (SQF)', pure: 'SQF', expr: neg(q) },
  { name: '−p̃', ascii: '-p', meaning: 'short requested time first (SPF)', pure: 'SPF', expr: neg(p) },
  { name: 'wait', ascii: 'wait', meaning: 'long wait first (FCFS)', pure: 'FCFS', expr: w },
  { name: '−exp', ascii: '-exp', meaning: 'small expansion factor first (SEXP)', pure: 'SEXP', expr: neg(exp) },
  { name: '−p̃/q', ascii: '-p/q', meaning: 'small ratio first (SRF)', pure: 'SRF', expr: neg(div(p, q)) },
  { name: '−p̃·q', ascii: '-p*q', meaning: 'small area first (SAF)', pure: 'SAF', expr: neg(mul(p, q)) },
]
/** Name and meaning of each mixed feature (listings and reports). */
export const MIXED_FEATURES: readonly { name: string; meaning: string }[] = MIXED_FEATURE_DECLARATIONS.map(({ name, meaning }) => ({ name, meaning }))

/** Σ w_i·(x_i − μ_i)/σ_i over the mixed features, literally (σ_i = 0 → the term is 0, so exact
 * ties stay exact ties), in the order the features are declared. */
export function mixedExpr(spec: MixedSpec): Expr {
  const mean = spec.mean ?? [0, 0, 0, 0, 0, 0]
  const scale = spec.scale ?? [1, 1, 1, 1, 1, 1]
  const terms = MIXED_FEATURE_DECLARATIONS.map((f, i) => (scale[i] === 0 || spec.weights[i] === 0
    ? null
    : div(mul(num(spec.weights[i]), mean[i] === 0 ? f.expr : add(f.expr, num(-mean[i]))), num(scale[i]))))
    .filter((x): x is Expr => x !== null)
  return terms.length === 0 ? num(0) : terms.reduce((acc, x) => add(acc, x))
}

export function mixedPolicy(spec: MixedSpec): Policy {
  const wts = spec.weights
  if (wts.length !== MIXED_FEATURE_DECLARATIONS.length || wts.some((x) => !Number.isFinite(x))) throw new Error('a mixed policy needs 6 finite weights')
  const scale = spec.scale ?? [1, 1, 1, 1, 1, 1]
  const expr = mixedExpr(spec)
  const terms = wts.map((wi, i) => (wi === 0 ? '' : `${wi}·${MIXED_FEATURE_DECLARATIONS[i].name}`)).filter(Boolean).join(' + ')
  // A feature with weight 0 or scale 0 is not in the formula, so it does not make the policy dynamic.
  return policyObject({
    id: `mixed(${wts.join(',')})`, name: 'Mixed linear policy', formula: terms || '0', expr,
    source: '[004] §3.3 eq. 3', family: 'learned', explain: 'A weighted sum of the six features, searched on the training weeks.',
  }, mixedPriority(spec.weights, spec.mean ?? [0, 0, 0, 0, 0, 0], scale))
}

/** The mixed score as one function (no closure per feature: it runs for every waiting job at
 * every pass of the mixed search). Equal to compile(mixedExpr(spec)) on every job: the mixed
 * unit tests check it on random jobs. */
function mixedPriority(wts: readonly number[], mean: readonly number[], scale: readonly number[]): PriorityFn {
  const term = (i: number, x: number) => (scale[i] === 0 ? 0 : (wts[i] * (x - mean[i])) / scale[i])
  return (c, j, now) => {
    const qj = c.procs[j], pt = c.requested[j], wt = now - c.submit[j]
    return term(0, -qj) + term(1, -pt) + term(2, wt) + term(3, -(wt + pt) / pt) + term(4, -pt / qj) + term(5, -pt * qj)
  }
}

/** Resolves a PolicySpec to a Policy, or throws an Error that lists the valid ids. */
export function resolvePolicy(spec: PolicySpec): Policy {
  if (typeof spec !== 'string') return mixedPolicy(spec)
  if (isFnSpec(spec.trim())) return fnPolicy(spec)
  const pol = findPolicy(spec)
  if (!pol) throw new Error(unknownPolicyMessage(spec))
  return pol
}

export function policyLabel(spec: PolicySpec | 'same'): string {
  return typeof spec === 'string' ? (spec === 'same' ? 'same' : resolvePolicy(spec).id) : resolvePolicy(spec).id
}

/** The symbols of the features a policy reads (listings). */
export function featureSymbols(pol: Pick<Policy, 'features'>): string[] {
  return pol.features.map((f) => VARS[f].symbol)
}
