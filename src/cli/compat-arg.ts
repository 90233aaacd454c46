// `--compat none|ocst` on simulate, evaluate, online and mixed: EasyTune's own rules, or the rules of
// the seeds' simulator (ocst) to reproduce the thesis's numbers. See
// docs/SIMULATOR.md §Shadow-time rules and docs/PROTOCOL.md §Week resampling.
// The default is declared in src/core/defaults.ts.
import { DEFAULTS } from '../core/defaults'
import { COMPAT_MODES, type Compat } from '../core/sim/types'
import { oneOf, type ParsedArgs } from './args'
import { shown } from './defaults-help'

export const COMPAT_FLAGS = { compat: 'string' } as const

/** The help lines of the flag. `weeks`: the command cuts a log into weeks (the protocols). */
export function compatHelp(weeks: boolean): string {
  return `  --compat none|ocst       ocst: the seeds' simulator's rules, to reproduce the thesis's numbers:
                           its shadow-time rule (running jobs released by estimated end, ties by
                           fewest processors then id, stopping at the first that fits)${weeks ? `;
                           the first and last partial weeks of each part dropped (rule C13)` : ''}
                           (default ${shown('compat')})`
}

export function compatFlag(a: ParsedArgs): Compat {
  return oneOf<Compat>(a, 'compat', COMPAT_MODES) ?? DEFAULTS.compat.value
}
