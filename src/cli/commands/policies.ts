import { bool, jsonTarget, parseArgs, UsageError } from '../args'
import { table, writeJson, type Io } from '../output'
import { policyCatalog } from '../../core/export/catalog'
import { CH5_POLICIES, CH6_POLICIES, MIXED_FEATURES, UNICEF_LOG2_FLOOR } from '../../core/sim/policies'
import { RESEARCH_GRID_NOTE, slurmExportablePolicies } from '../../core/tune/presets'

export const policiesHelp = `easytune policies [--json [file]]

Lists the queue-ordering policies with their priority formulas (higher runs first; ties by submit
time, then job id), whether they change with time, and how faithfully each exports to Slurm and
PBS. p̃ = requested time, q = processors, wait = now − submit, s = seconds since the start of the
simulated window (at least 1). docs/POLICIES.md has the same list with explanations.
`

export async function policiesCommand(argv: string[], io: Io): Promise<number> {
  const a = parseArgs(argv, { json: 'optional', help: 'boolean' })
  if (bool(a, 'help')) { io.out(policiesHelp); return 0 }
  if (a.positionals.length > 0) throw new UsageError(`policies takes no arguments (got ${a.positionals.join(' ')})`)
  const json = jsonTarget(a)
  const list = policyCatalog()
  if (json) writeJson(io, json, { schemaVersion: 1, policies: list, mixedFeatures: MIXED_FEATURES, ch5: CH5_POLICIES, ch6: CH6_POLICIES, slurm: slurmExportablePolicies() })
  if (json && json.file === null) return 0
  io.out(table([['id', 'priority (higher first)', 'changes with time', 'name', 'Slurm', 'PBS', 'source'],
    ...list.map((p) => [p.id, p.priority, p.dynamic ? 'yes' : 'no', p.name, p.slurm.fidelity, p.pbs.fidelity, p.source])]))
  io.out(`\nMixed policies: w·x over x = (${MIXED_FEATURES.map((f) => f.name).join(', ')}), ‖w‖₁ = 1 ([004]; features oriented "higher first" as in ocst).\n`)
  io.out(`Learned functions: fn:<expression> in r, n, s wherever a policy id is accepted; unlike the orders above, a LOWER f runs first (priority −f). Grammar: easytune learn --help, docs/LEARN.md.\n`)
  io.out(`Guards: UNICEF uses max(log₂ q, ${UNICEF_LOG2_FLOOR}) (log₂ 1 = 0); F1–F4 use max(p̃, 1) and s ≥ 1.\n`)
  io.out(`Presets: slurm (default; deploys as evaluated): ${slurmExportablePolicies().join(', ')}. ch5 (49 pairs with pure backfill orders; ${RESEARCH_GRID_NOTE}): ${CH5_POLICIES.join(', ')}. ch6: ${CH6_POLICIES.join(', ')}.\n`)
  return 0
}
