// The `easytune` command line (docs/CLI.md §Exit codes): exit 0 ok, 1 the command failed, 2 bad usage or input.
import { UsageError } from './args'
import { processIo, type Io } from './output'
import { FileInputError } from '../node/read-log'
import { NotRegularFileError } from '../node/regular-file'
import { InputError } from '../core/workload/errors'
import { showControl } from '../core/util/control' // an error may quote the log's text
import { SimulationError } from '../core/sim/easy'

const VERSION = '0.1.0'

const HELP = `easytune ${VERSION}: find a better queue order for EASY backfilling, from your own job logs.

Usage: easytune <command> [options]

Commands:
  import <log>      read and clean a log; print the import report
  simulate <log>    replay a log under EASY with a chosen queue order; print wait metrics
  evaluate <log>    pick the best order on past months and test it on later ones (thesis ch. 5)
  online <log>      emulate choosing the queue order online, period by period (thesis ch. 6)
  mixed <log>       search a mixed linear queue order (RR-9212) on train; evaluate it on test
  predictions <log>…  every runtime-prediction triple on each log; choose one by leave-one-out (thesis ch. 4)
  learn <log>       learn this site's own priority function (SC'17 method); a lower value runs first
  run-shard <dir>   run one shard of a campaign planned by evaluate --slurm-array (a Slurm array task)
  merge <dir>       check a sharded campaign's cells and build its result, as evaluate would
  policies          list the queue-ordering policies and their formulas
  serve             the app in your web browser, on 127.0.0.1 with an access token (browser mode)
  export <result>   write the recommended order as Slurm or PBS configuration, with its fidelity
  report <result>   write the offline HTML (and PDF) report of an evaluate --json result
  walltimes <log>   whose time limits are worst, and what exact or learned limits would gain

Logs: SWF (.swf, .swf.gz), SLURM sacct -P / CSV exports and jobcomp files, PBS/Torque accounting.
Every command takes --help, and --json [file] for machine-readable output.
Exit codes: 0 success, 1 the command failed, 2 bad usage or bad input.

Example, on the bundled sample (KTH-SP2 from the Parallel Workloads Archive):
  easytune simulate resources/KTH-SP2-1996-2.1-cln.swf.gz --primary SPF --threshold 20h
`

type Command = (argv: string[], io: Io) => Promise<number>
/** Each command's module, loaded when that command runs: `easytune --version` or a `simulate` does
 * not load the browser server, the exporters or the learner (the whole CLI took ~0.3 s and ~50 MB
 * to load before any command ran). */
const COMMANDS: Record<string, () => Promise<Command>> = {
  import: async () => (await import('./commands/import')).importCommand,
  simulate: async () => (await import('./commands/simulate')).simulateCommand,
  mixed: async () => (await import('./commands/mixed')).mixedCommand,
  evaluate: async () => (await import('./commands/evaluate')).evaluateCommand,
  online: async () => (await import('./commands/online')).onlineCommand,
  policies: async () => (await import('./commands/policies')).policiesCommand,
  predictions: async () => (await import('./commands/predictions')).predictionsCommand,
  learn: async () => (await import('./commands/learn')).learnCommand,
  serve: async () => (await import('./commands/serve')).serveCommand,
  'run-shard': async () => (await import('./commands/shards')).runShardCommand,
  merge: async () => (await import('./commands/shards')).mergeCommand,
  export: async () => (await import('./commands/export')).exportCommand,
  report: async () => (await import('./commands/report')).reportCommand,
  walltimes: async () => (await import('./commands/walltimes')).walltimesCommand,
}

export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const debug = argv.includes('--debug')
  const args = argv.filter((a) => a !== '--debug')
  const [name, ...rest] = args
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(HELP)
    return name === undefined ? 2 : 0
  }
  if (name === '--version' || name === '-V') { io.out(`${VERSION}\n`); return 0 }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined
  if (!load) {
    io.err(`easytune: unknown command "${name}". Commands: ${Object.keys(COMMANDS).join(', ')}. Try easytune --help.\n`)
    return 2
  }
  try {
    const command = await load()
    return await command(rest, io)
  } catch (e) {
    return reportError(io, name, e, debug)
  }
}

function reportError(io: Io, command: string, e: unknown, debug: boolean): number {
  if (e instanceof UsageError) {
    io.err(`easytune ${command}: ${e.message}\nTry easytune ${command} --help.\n`)
    return 2
  }
  if (e instanceof FileInputError) {
    io.err(`easytune: ${e.file}${e.line !== null ? `:${e.line}` : ''}: ${showControl(e.message)}\n`)
    return 2
  }
  if (e instanceof NotRegularFileError) {
    io.err(`easytune: ${e.file}: ${e.reason}\n`)
    return 2
  }
  if (e instanceof InputError) {
    io.err(`easytune: ${e.line !== null ? `line ${e.line}: ` : ''}${showControl(e.message)}\n`)
    return 2
  }
  const err = e as NodeJS.ErrnoException
  if (err && typeof err.code === 'string' && err.syscall) {
    io.err(`easytune: ${err.path ?? ''}: ${err.message}\n`)
    return err.code === 'ENOENT' || err.code === 'EACCES' ? 2 : 1
  }
  if (e instanceof SimulationError) {
    io.err(`easytune ${command}: simulation failed: ${e.message}\n`)
    return 1
  }
  io.err(`easytune ${command}: internal error: ${err?.message ?? String(e)}\n`)
  if (debug && err?.stack) io.err(err.stack + '\n')
  else io.err('Run again with --debug for details, and please report it.\n')
  return 1
}
