// The Cluster panel's machine choice (MachineChoiceSchema) as the machine inputs of the engine
// (src/core/cluster/model.ts MachineInputs): exactly what `easytune evaluate` builds from the
// matching flags (src/cli/machine-args.ts), so that the app's campaign is the CLI's:
//   inferred  no machine flag (--scheduler and --qos-priority still apply);
//   file      --cluster FILE [--gres-conf FILE];
//   current   --current-conf FILE [--gres-conf FILE].
// The file is named by the name it was given under (a pick, an upload or a paste): the app has
// no path to record, and the result's machine.conf keeps its text.
import type { MachineInputs } from '../core/cluster/model'
import type { MachineChoice } from '../shared/api'

/** The engine's machine inputs of a choice; undefined for the inferred machine with nothing else
 * given (the CLI's evaluate without any machine flag: the same cache keys). */
export function machineInputsOf(choice: MachineChoice | undefined): MachineInputs | undefined {
  if (!choice) return undefined
  const inputs: { -readonly [K in keyof MachineInputs]: MachineInputs[K] } = {}
  if (choice.source === 'file') inputs.cluster = { file: choice.file.name, text: choice.file.text }
  if (choice.source === 'conf' || choice.source === 'current') inputs.slurmConf = { file: choice.file.name, text: choice.file.text, current: choice.source === 'current' }
  if (choice.source !== 'inferred' && choice.gres) inputs.gres = { file: choice.gres.name, text: choice.gres.text }
  if (choice.scheduler) inputs.scheduler = choice.scheduler
  if (choice.qosPriority && Object.keys(choice.qosPriority).length > 0) {
    const qos: Record<string, number> = Object.create(null) as Record<string, number>
    for (const [k, v] of Object.entries(choice.qosPriority)) qos[k] = v
    inputs.qosPriority = qos
  }
  return Object.keys(inputs).length > 0 ? inputs : undefined
}
