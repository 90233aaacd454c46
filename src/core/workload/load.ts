// Offered load of a log (docs/SIMULATOR.md §Offered load): the processor-time the jobs ask for,
// Σ p·q (actual runtime × processors), over the processor-time the machine offers while they
// arrive, m × (last submit − first submit). Above 100 % the queue grows without bound whatever
// the order: the waits, and the time a simulation takes, grow with the length of the log. On a
// real log it almost always means the machine size is wrong (too small), so it is said up front,
// before a long simulation.

/** The columns the offered load reads. */
export interface LoadJobs {
  readonly count: number
  readonly submit: Float64Array
  readonly runtime: Float64Array
  readonly procs: Int32Array
}

export interface OfferedLoad {
  /** Σ p·q / (m × span): 1 = 100 % of the machine. null when the span is 0 (one submit time). */
  readonly ratio: number | null
  /** Σ p·q in processor-seconds. */
  readonly work: number
  /** Last submit − first submit, seconds (jobs sorted by submit). */
  readonly spanSeconds: number
}

export function offeredLoad(jobs: LoadJobs, machineProcs: number): OfferedLoad {
  let work = 0
  const runtime = jobs.runtime, procs = jobs.procs
  for (let i = 0; i < jobs.count; i++) work += runtime[i] * procs[i]
  const span = jobs.count > 0 ? jobs.submit[jobs.count - 1] - jobs.submit[0] : 0
  const ratio = span > 0 && machineProcs > 0 ? work / (machineProcs * span) : null
  return { ratio, work, spanSeconds: span }
}

/** The warning for a load over 100 %, in words that name no control (each surface adds its own:
 * the CLI's --procs, the app's Machine size field); null at or under 100 %. */
export function overloadWarning(load: OfferedLoad): string | null {
  if (load.ratio === null || !(load.ratio > 1)) return null
  return `The jobs ask for ${Math.round(load.ratio * 100)} % of the machine (processor-time Σ runtime × processors over machine size × span of the submits): ` +
    'the queue grows without end under any order, waits grow with the length of the log and simulating it can take very long. ' +
    `This usually means the machine size is wrong: ${ADVICE}.`
}

const ADVICE = 'give the real machine size'

/** The overload warning with the surface's control named (CLI: 'with --procs'; the app: its
 * Machine size field); any other warning unchanged. */
export function nameMachineSizeControl(warning: string, control: string): string {
  return warning.endsWith(`${ADVICE}.`) && warning.startsWith('The jobs ask for ') ? `${warning.slice(0, -1)} ${control}.` : warning
}
