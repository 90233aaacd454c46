// What is deployed is what is simulated (docs/CLUSTER.md §As deployed): the site factor that the
// exported job_submit.lua sets at submission and the exported periodic script keeps up to date,
// computed here the way those generated files compute it (same formula tree, same encoding, same
// fallbacks), so that the simulator under Slurm's scheduling runs the exported configuration
// itself. test/unit/deployed.test.ts runs the generated Lua and awk and compares them with this.
import { evaluate, type Expr } from '../sim/formula'
import { ENC_CAP, ENC_SCALE, EPOCH0, LIMIT_IF_UNSET_MIN, PROMOTE, PROMOTE_CAP, SF_OFFSET, type Encoding, type SlurmPlan } from '../export/slurm-plan'
import type { ClusterJobs, SiteFactor } from './types'

/** The encoding of job_submit.lua's `encode` (and the script's, which is always 'log'). */
export function encodeSiteFactor(enc: Encoding, x: number): number {
  if (x !== x) return enc.kind === 'log' ? SF_OFFSET : enc.offset
  if (enc.kind === 'linear') {
    const s = Math.floor(x * enc.scale + 0.5) + enc.offset
    return s > enc.max ? enc.max : s < 0 ? 0 : s
  }
  let a = Math.floor(Math.log(1 + Math.abs(x)) * ENC_SCALE + 0.5)
  if (a > ENC_CAP) a = ENC_CAP
  return x < 0 ? SF_OFFSET - a : SF_OFFSET + a
}

/** The score variables as the generated files see a job: q = CPUs (1 at least), p = the time
 * limit in seconds (the assumed limit when unset), w = wait, t = submit time since EPOCH0. */
function score(expr: Expr, q: number, p: number, w: number, t: number): number {
  return evaluate(expr, { q: q >= 1 ? q : 1, p: p > 0 ? p : LIMIT_IF_UNSET_MIN * 60, w, t })
}

/**
 * The site factor of an exported plan on these jobs, or undefined when the plan sets none
 * (FCFS, TRES weights, or a linear mixture without static terms). `unixStartTime` is the epoch of
 * t = 0 on the jobs' clock (the submit-time variable counts from EPOCH0).
 */
export function deployedSiteFactor(plan: SlurmPlan, jobs: ClusterJobs, unixStartTime: number): SiteFactor | undefined {
  const t = (j: number) => unixStartTime + jobs.submit[j] - EPOCH0
  if (plan.mode === 'lua' || (plan.mode === 'linear' && plan.lua !== null)) {
    const expr = plan.mode === 'lua' ? plan.expr : plan.lua!
    const value = new Float64Array(jobs.count)
    for (let j = 0; j < jobs.count; j++) value[j] = encodeSiteFactor(plan.enc, score(expr, jobs.procs[j], jobs.requested[j], 0, t(j)))
    return { kind: 'static', value }
  }
  if (plan.mode === 'sitefactor') {
    const { expr, threshold } = plan
    const log: Encoding = { kind: 'log' }
    return {
      kind: 'dynamic',
      value: (j, now) => {
        const w = Math.max(0, now - jobs.submit[j])
        if (threshold !== null && w > threshold) return PROMOTE + (w < PROMOTE_CAP ? w : PROMOTE_CAP)
        return encodeSiteFactor(log, score(expr, jobs.procs[j], jobs.requested[j], w, t(j)))
      },
    }
  }
  return undefined
}
