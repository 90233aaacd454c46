// The ONE declaration of the sacct invocation EasyTune recommends (issue #21 item 7): its fields,
// its flags and why, and what each field gives the simulator and what its absence costs. The CLI
// help, docs/SIMULATOR.md §The sacct command to run (a test checks the exact command there) and the
// GUI's Import step render this data; the import report's `resources` part (missingFieldReport)
// says which of these a given log lacks. Pure data and functions.
import type { ParsedLog } from './types'

/** One field of the recommended `sacct -o` list. */
export interface SacctField {
  /** The name as sacct's `-o` takes it. */
  readonly name: string
  /** Other header names that give the same (a log exported otherwise may have them instead). */
  readonly alternatives: readonly string[]
  /** What the field gives the simulator, in plain words. */
  readonly gives: string
  /** What its absence costs, in plain words. */
  readonly missing: string
}

const f = (name: string, alternatives: readonly string[], gives: string, missing: string): SacctField => ({ name, alternatives, gives, missing })

/** The recommended fields, in the order of the command (SubmitLine last: a `|` inside it is read back). */
export const SACCT_FIELDS: readonly SacctField[] = [
  f('JobIDRaw', [], 'the unique id of each job, array task and heterogeneous component: the key that keeps two tasks apart',
    'array tasks are told apart by their JobID text only; a job read from two files is recognised by its record'),
  f('JobID', [], 'the job as users know it: array tasks (123_4) and het components (123+1) grouped under their parent; steps (123.batch) recognised and set aside',
    'steps cannot be told from jobs unless -X was given; arrays are not grouped'),
  f('JobName', [], 'not read (useful to the site when checking a job by hand)', 'nothing'),
  f('User', [], 'per-user statistics, the user-weeks resampling and fair-share', 'no per-user statistics or fair-share; weeks are resampled whole'),
  f('Account', [], 'fair-share over accounts and the impact of a recommendation per account', 'fair-share and impact group by user only'),
  f('Partition', [], 'the partition each job ran in: its nodes, limits and priority tier', 'every job may run on every node; no per-partition fidelity'),
  f('QOS', [], 'the QOS priority factor and per-QOS limits', 'every job gets the same QOS factor'),
  f('Priority', [], 'the priority each job had when it started, to compare with the simulated one', 'the simulated priorities cannot be checked against the recorded ones'),
  f('Submit', [], 'when each job arrived (required)', 'the log cannot be read'),
  f('Eligible', [], 'when each job could first start (dependencies, --begin, holds): the origin of the age factor', 'age is counted from submission: held and dependent jobs age too early'),
  f('Start', [], 'the recorded start: the recorded wait, and fidelity against the history', 'no recorded start: the recorded waits are unknown or derived (ResvCPURAW), and fidelity cannot be measured per job'),
  f('End', [], 'the recorded end (with Start, the run time)', 'the run time must come from ElapsedRaw'),
  f('ElapsedRaw', ['Elapsed', 'CPUTimeRAW'], 'the run time in seconds', 'the run time comes from End − Start, or CPUTimeRAW / CPUs (too long for whole-node jobs)'),
  f('TimelimitRaw', ['Timelimit'], 'the time limit in minutes: the requested time that EASY reserves on', 'no requested times: jobs are dropped unless --requested-fallback is given'),
  f('ReqCPUS', [], 'the CPUs each job asked for: q of the simulation', 'q comes from the allocated CPUs, which include whole-node rounding'),
  f('AllocCPUS', ['NCPUS'], 'the CPUs each job got (whole cores or nodes included)', 'the CPUs per node a node must have cannot be inferred as well'),
  f('ReqMem', [], 'the memory each job asked for (with --noconvert: in MB)', 'memory is taken from ReqTRES, or unknown: memory never binds in the simulation'),
  f('ReqNodes', [], 'the nodes each job asked for', 'the node count comes from the allocation only'),
  f('NNodes', ['AllocNodes'], 'the nodes each job ran on', 'node counts are the requested ones, or unknown: jobs are placed by CPUs alone'),
  f('NodeList', [], 'the nodes each job ran on, by name: the machine (node names, CPUs and GPUs per node, partitions) is inferred from them', 'the machine\'s nodes cannot be inferred: give --cluster'),
  f('ReqTRES', [], 'requested CPUs, memory, nodes and GPUs (gres/gpu) in one field', 'GPUs come from AllocTRES only, or are unknown'),
  f('AllocTRES', [], 'allocated CPUs, memory, nodes and GPUs: what each job really held', 'GPUs and memory are the requested ones, or unknown: GPU jobs are simulated as CPU jobs'),
  f('State', [], 'finished, cancelled, still running or pending: which records are jobs that ran', 'cancelled and unfinished jobs cannot be set aside'),
  f('ExitCode', [], 'not read (useful to the site when checking a job by hand)', 'nothing'),
  f('Flags', [], 'how each job was started (SchedMain, SchedBackfill): the recorded share of backfilled jobs', 'the backfilled share cannot be compared with the recorded one'),
  f('Reason', [], 'not read yet: why a job last waited (Dependency, QOS limits), to tell waits caused by limits from waits for resources', 'nothing today'),
  f('Constraints', [], 'not read yet: the node features a job required (features are not simulated)', 'nothing today'),
  f('Reservation', [], 'not read yet: the advance reservation a job ran in (reservations are not simulated)', 'nothing today'),
  f('SubmitLine', [], 'the submit command: `--exclusive` (whole nodes); a `|` inside it is read back when it is the last column', 'whether a job asked for whole nodes is unknown: only the partition\'s setting decides'),
]

/** The flags of the recommended command and why each one. */
export const SACCT_FLAGS: readonly { readonly flag: string; readonly why: string }[] = [
  { flag: '-a', why: 'all users, not only the one running sacct' },
  { flag: '-X', why: 'job allocations only: no steps (123.batch, 123.0), which are parts of a job, not jobs' },
  { flag: '-D', why: '--duplicates: every record with the same job id. Without it sacct shows only the most recent one, so a requeued job loses its first run (which held nodes) and its original submit time (Submit is reset on requeue), and over a long window a job id reused after the id counter wrapped hides the older job' },
  { flag: '-P', why: 'pipe-separated with a header line, nothing truncated' },
  { flag: '--noconvert', why: 'memory in MB without unit scaling' },
  { flag: '-S', why: 'the start of the window: every job in any state during [start, end] is listed' },
  { flag: '-E', why: 'the end of the window' },
]

/** The environment setting of the command and why. */
export const SACCT_ENV = { setting: 'SLURM_TIME_FORMAT=%s', why: 'times as epoch seconds: no time zone to guess, no daylight-saving ambiguity' } as const

/** The fields as sacct's `-o` takes them. */
export const SACCT_FIELD_LIST = SACCT_FIELDS.map((x) => x.name).join(',')

/**
 * The recommended command, one line: `SLURM_TIME_FORMAT=%s sacct -a -X -D -P --noconvert -S <start>
 * -E <end> -o JobIDRaw,…`. `start` and `end` as sacct takes them (e.g. 2024-01-01); placeholders when omitted.
 */
export function sacctCommand(start = '<start>', end = '<end>'): string {
  return `${SACCT_ENV.setting} sacct -a -X -D -P --noconvert -S ${start} -E ${end} -o ${SACCT_FIELD_LIST}`
}

/** The command and its tables in Markdown, as docs/SIMULATOR.md §The sacct command to run shows
 * them (a test checks the doc holds this text exactly). */
export function sacctCommandMarkdown(): string {
  const cell = (t: string) => t.replaceAll('|', '\\|')
  return [
    '```', sacctCommand(), '```', '',
    '| setting | why |', '| --- | --- |',
    `| \`${SACCT_ENV.setting}\` | ${cell(SACCT_ENV.why)} |`,
    ...SACCT_FLAGS.map((x) => `| \`${x.flag}\` | ${cell(x.why)} |`), '',
    '| field | what it gives the simulator | what its absence costs |', '| --- | --- | --- |',
    ...SACCT_FIELDS.map((x) => `| \`${x.name}\` | ${cell(x.gives)}${x.alternatives.length > 0 ? ` (else ${x.alternatives.map((a) => `\`${a}\``).join(', ')})` : ''} | ${cell(x.missing)} |`),
  ].join('\n') + '\n'
}

/** Which resource information a log gives, which it lacks and what each lack costs (the import report's `resources`). */
export interface ResourceReport {
  /** What the log gives, in plain words (e.g. "partition", "node list"). */
  has: string[]
  /** What it lacks and what that costs, in plain words. */
  lacks: { field: string; cost: string }[]
  /** sacct logs: the fields of the recommended command (sacctCommand) this export does not have. */
  sacctMissing?: string[]
}

/** The resource information EasyTune reads, how to tell whether a parsed log has it, and what its lack costs. */
const RESOURCES: readonly { field: string; has: (log: ParsedLog) => boolean; cost: string }[] = [
  { field: 'partition', has: (l) => l.jobs.partition !== undefined, cost: 'every job may run on every node, and fidelity cannot be given per partition' },
  { field: 'QOS', has: (l) => l.jobs.qos !== undefined, cost: 'QOS priorities cannot be applied: every job gets the same QOS factor' },
  { field: 'node count', has: (l) => l.jobs.nodes !== undefined, cost: 'how many nodes a job spans is unknown: jobs are placed by CPUs alone' },
  { field: 'node list', has: (l) => l.nodesSeen !== undefined && l.nodesSeen.length > 0, cost: 'no NodeList: the machine\'s nodes cannot be inferred; give --cluster' },
  { field: 'memory', has: (l) => l.jobs.memMB !== undefined, cost: 'memory per job is unknown: memory never binds in the simulation' },
  { field: 'GPUs', has: (l) => l.jobs.gpus !== undefined, cost: 'GPUs per job are unknown: GPU jobs are simulated as CPU jobs' },
  { field: 'eligible time', has: (l) => l.jobs.eligible !== undefined, cost: 'age is counted from submission: held and dependent jobs age too early' },
  { field: 'scheduler flags', has: (l) => l.jobs.schedFlag !== undefined, cost: 'the recorded share of backfilled jobs is unknown, so it cannot be compared' },
  { field: 'recorded priority', has: (l) => l.jobs.priority !== undefined, cost: 'the simulated priorities cannot be checked against the recorded ones' },
  { field: 'whole-node requests', has: (l) => l.jobs.exclusive !== undefined, cost: 'whether a job asked for whole nodes (--exclusive) is unknown: only the partition\'s setting decides' },
]

/** Lower-case column names of a sacct log (its header's `Columns`). */
function sacctColumns(log: ParsedLog): Set<string> {
  return new Set((log.header.Columns ?? '').split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== ''))
}

/**
 * What the log gives and lacks of the resource information, and what each lack costs. For a sacct
 * log also the recommended fields it lacks, and how its recorded starts were obtained (Kabré has no
 * Start column: "recorded starts derived from ResvCPURAW: per-job start order is approximate").
 */
export function missingFieldReport(log: ParsedLog): ResourceReport {
  const has: string[] = []
  const lacks: { field: string; cost: string }[] = []
  let waits = 0
  for (let i = 0; i < log.jobs.count; i++) if (log.jobs.recordedWait[i] === log.jobs.recordedWait[i]) waits++
  const cols = log.format === 'sacct' ? sacctColumns(log) : null
  if (cols !== null && !cols.has('start')) {
    lacks.push({ field: 'recorded start', cost: cols.has('resvcpuraw') && waits > 0
      ? 'no Start column: recorded starts derived from ResvCPURAW: per-job start order is approximate'
      : 'no Start column: the recorded waits are unknown, so fidelity against the history cannot be measured' })
  } else if (waits === 0) {
    lacks.push({ field: 'recorded start', cost: 'no job has a recorded start: fidelity against the history cannot be measured' })
  } else has.push('recorded start')
  for (const r of RESOURCES) {
    if (r.has(log)) has.push(r.field)
    else lacks.push({ field: r.field, cost: r.cost })
  }
  if (cols === null) return { has, lacks }
  const sacctMissing = SACCT_FIELDS.filter((x) => ![x.name, ...x.alternatives].some((n) => cols.has(n.toLowerCase()))).map((x) => x.name)
  return { has, lacks, sacctMissing }
}
