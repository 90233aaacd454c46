// The Time limits step's data (EasyTuneApi.getTimeLimits; docs/PREDICTIONS.md §Time limits): the
// report of `easytune walltimes` on the imported log, pseudonymised as everything that leaves the
// machine is, and beside it the real user and account names keyed by pseudonym, which the step
// shows only when the person asks ("Show real names") and never saves or exports. The pseudonyms
// are walltimesNames', the one naming every surface uses (the same ranking as the report).
import { analyzeWalltimes, walltimesNames, type WalltimesInput } from '../core/predict/walltimes'
import { campaignOf } from '../core/predict/walltimes-whatif'
import type { TimeLimitsView } from '../shared/api'

export function timeLimitsView(w: WalltimesInput): TimeLimitsView {
  return { report: { ...analyzeWalltimes(w, { names: false }), campaign: campaignOf(null) }, realNames: { users: byPseudonym(w, 'user', w.users), accounts: byPseudonym(w, 'account', w.accounts ?? []) } }
}

/** Pseudonym → real name, for the names that have jobs in the cleaned log (the others appear nowhere). */
function byPseudonym(w: WalltimesInput, kind: 'user' | 'account', real: readonly string[]): Record<string, string> {
  const pseudo = walltimesNames(w, kind)
  return Object.fromEntries(pseudo.flatMap((p, i) => (p === '' ? [] : [[p, real[i]!]])))
}
