// The Time limits step's data (EasyTuneApi.getTimeLimits; docs/PREDICTIONS.md §Time limits): the
// report of `easytune walltimes` on the imported log, pseudonymised as everything that leaves the
// machine is, and beside it the real user and account names keyed by pseudonym, which the step
// shows only when the person asks ("Show real names") and never saves or exports. Both come from
// the one analysis (analyzeWalltimes): a pseudonym is a rank, so the two reports list the same
// groups in the same order and the ranks join them.
import { analyzeWalltimes, type WalltimesGroup, type WalltimesInput } from '../core/predict/walltimes'
import type { TimeLimitsView } from '../shared/api'

export function timeLimitsView(w: WalltimesInput): TimeLimitsView {
  const report = analyzeWalltimes(w, { names: false })
  const real = analyzeWalltimes(w, { names: true })
  return { report, realNames: { users: byPseudonym(report.users, real.users), accounts: byPseudonym(report.accounts, real.accounts) } }
}

/** Pseudonym → real name, joined on the rank; groups of no known user or account keep their name. */
function byPseudonym(pseudo: readonly WalltimesGroup[], real: readonly WalltimesGroup[]): Record<string, string> {
  const names = new Map(real.map((g) => [g.rank, g.name]))
  return Object.fromEntries(pseudo.flatMap((g) => (g.unknown || !names.has(g.rank) ? [] : [[g.name, names.get(g.rank)!]])))
}
