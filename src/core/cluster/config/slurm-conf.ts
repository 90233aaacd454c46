// The machine and the scheduling of a slurm.conf (with its gres.conf), as data (docs/CLUSTER.md
// §Configuration files). Pure: text in, data out; the CLI reads the files. The file's syntax
// (comments, "\" continuations, Key=Value pairs, case-insensitive keys, Include) is read by the
// one slurm.conf reader the export also merges with (src/core/export/slurm-conf.ts); this module
// gives the settings their meaning. Values a slurm.conf leaves unset get Slurm 22.05's defaults
// (./defaults.ts). Input is hostile: every problem is a ClusterConfigError with file and line.
import { parseSlurmConf as readConfLines, SlurmConfError, type ConfLine } from '../../export/slurm-conf'
import { BF_WINDOW_MAX_MIN } from '../../export/slurm-plan'
import type { ClusterSpec, NodeSpec, PartitionSpec, PriorityConfig, SelectSpec, SlurmConf, SlurmScheduling } from '../types'
import { buildPartition, fail, gresGpus, hosts, memDefault, quote, slurmTimeSeconds, wholeNumber, yesNo, type At } from './common'
import { SLURM_DEFAULTS, SLURM_DEFAULTS_VERSION } from './defaults'
import { ClusterConfigError, MAX_NODES } from './errors'

/** The lines of a slurm.conf-syntax file; the reader's own errors re-thrown with file and line. */
function confLines(text: string, file: string): ConfLine[] {
  try {
    return readConfLines(text).lines
  } catch (e) {
    if (!(e instanceof SlurmConfError)) throw e
    const m = /^slurm\.conf line (\d+)(?::\s*|\s+)(.*)$/s.exec(e.message)
    if (m === null) throw new ClusterConfigError(e.message.replace(/^the current slurm\.conf /, 'the file '), file, null)
    const rest = m[2]
    throw new ClusterConfigError(/^(is|holds) /.test(rest) ? `the line ${rest}` : rest, file, Number(m[1]))
  }
}

/** One logical line and the file it was read from (the main file or an Include'd one). */
interface Src { readonly l: ConfLine; readonly file: string }

/** A setting's value and where it was read (for errors, and "line N" / "file line N" in notes). */
interface Setting { readonly value: string; readonly at: At; readonly where: string }
type Get = (key: string) => Setting | null

/** Most characters read over a file and everything it includes (a bound against Include bombs). */
const MAX_TOTAL_CHARS = 8_000_000
/** Deepest Include nesting followed (Slurm's own limit is of the same order). */
const MAX_INCLUDE_DEPTH = 8

/** A file read for an Include line: its text and the name to use in messages. */
export interface ConfInclude { readonly text: string; readonly file: string }

/** The logical lines of a file with its Include lines replaced by the included files' lines, when
 * `include` can give them (the CLI reads files; core cannot); otherwise each Include is noted. */
function gather(text: string, file: string, include: ((path: string) => ConfInclude | null) | undefined, notes: string[], out: Src[], budget: { chars: number }, stack: string[]): void {
  budget.chars -= text.length
  if (budget.chars < 0) fail({ file, line: null }, `the file and the files it includes hold more than ${MAX_TOTAL_CHARS} characters`)
  for (const l of confLines(text, file)) {
    if (l.kind !== 'include') { out.push({ l, file }); continue }
    const path = l.include!.trim().replace(/^"(.*)"$/, '$1')
    const where = stack.length === 0 ? `line ${l.first}` : `${file} line ${l.first}`
    const inc = include?.(path) ?? null
    if (inc === null) {
      notes.push(`Include ${path} (${where}) was not followed: settings, nodes and partitions in it are not read (give its contents in the file if they matter).`)
      continue
    }
    if (stack.includes(inc.file) || inc.file === file) fail({ file, line: l.first }, `Include ${quote(path)} includes itself (through ${[...stack, file].join(' → ')})`)
    if (stack.length + 1 > MAX_INCLUDE_DEPTH) fail({ file, line: l.first }, `Include ${quote(path)} is nested more than ${MAX_INCLUDE_DEPTH} deep`)
    gather(inc.text, inc.file, include, notes, out, budget, [...stack, file])
  }
}

/** A record line's settings, lower-case keys, the first pair (NodeName=/PartitionName=) included. */
function settingsOf(l: ConfLine): Map<string, string> {
  const m = new Map<string, string>()
  for (const p of l.pairs) m.set(p.key.toLowerCase(), p.value)
  return m
}

/** Keys of a NodeName line the simulator does not model but that change scheduling. */
const NODE_UNMODELLED: readonly [string, string][] = [
  ['feature', 'Features= (jobs\' constraints (sbatch -C) are not simulated: any node of the partition may run any job)'],
  ['features', 'Features= (jobs\' constraints (sbatch -C) are not simulated: any node of the partition may run any job)'],
  ['corespeccount', 'CoreSpecCount= (cores kept for the system are counted as schedulable)'],
  ['cpuspeclist', 'CpuSpecList= (CPUs kept for the system are counted as schedulable)'],
  ['memspeclimit', 'MemSpecLimit= (memory kept for the system is counted as schedulable)'],
]

/** Cluster-wide settings the simulator does not model but that change scheduling: [key, is it set
 * to something that matters, what the note says]. */
const GLOBAL_UNMODELLED: readonly [string, (v: string) => boolean, string][] = [
  ['topologyplugin', (v) => !/^(topology\/)?(none|default)$/i.test(v), 'The network topology (TopologyPlugin) is not simulated: nodes are chosen best-fit regardless of switches'],
  ['preempttype', (v) => !/^preempt\/none$/i.test(v), 'Preemption (PreemptType) is not simulated: no running job is ever suspended, requeued or cancelled for another'],
  ['licenses', () => true, 'Licenses are not simulated: jobs never wait for a license'],
  ['prioritysitefactorplugin', (v) => !/^(site_factor\/)?none$/i.test(v), 'The site-factor plugin (PrioritySiteFactorPlugin) is not read: its site factor is 0 unless one is given to the simulator'],
  ['jobsubmitplugins', () => true, 'JobSubmitPlugins are not run: a job_submit script that sets priorities, nice or site factors has no effect unless its formula is given to the simulator'],
  ['accountingstorageenforce', (v) => /limits|qos|safe/i.test(v), 'AccountingStorageEnforce limits (association and QOS limits) are not simulated'],
  ['priorityusageresetperiod', (v) => !/^none$/i.test(v), 'PriorityUsageResetPeriod is not simulated: fair-share usage only decays'],
]

interface NodeAcc { names: string[]; specs: NodeSpec[] }

/** The NodeName lines (with NodeName=DEFAULT), in file order. */
function readNodes(lines: readonly Src[], main: string, notes: string[]): NodeAcc {
  const D = SLURM_DEFAULTS
  let defaults = new Map<string, string>()
  const acc: NodeAcc = { names: [], specs: [] }
  const index = new Set<string>()
  const noted = new Set<string>()
  for (const { l, file } of lines) {
    if (l.kind !== 'record' || l.pairs[0].key.toLowerCase() !== 'nodename') continue
    const at: At = { file, line: l.first }
    const where = file === main ? `line ${l.first}` : `${file} line ${l.first}`
    const own = settingsOf(l)
    const nameList = own.get('nodename')!
    if (/^default$/i.test(nameList.trim())) { defaults = new Map([...defaults, ...own]); continue }
    const s = new Map([...defaults, ...own])
    const get = (k: string): string | undefined => s.get(k)
    const num = (key: string, k: string, min: number, max: number): number | null => { const v = get(k); return v === undefined ? null : wholeNumber(key, v, at, min, max) }
    const names = hosts('NodeName', nameList, at, MAX_NODES - acc.names.length)
    if (names.length === 0) fail(at, 'NodeName= names no node')
    // Topology: CPUs defaults to Boards × SocketsPerBoard (or Sockets) × CoresPerSocket × ThreadsPerCore.
    const cpusGiven = num('CPUs', 'cpus', 1, 1_000_000) ?? num('Procs', 'procs', 1, 1_000_000)
    const boards = num('Boards', 'boards', 1, 65535) ?? 1
    const sockets = num('Sockets', 'sockets', 1, 65535) ?? ((): number | null => { const spb = num('SocketsPerBoard', 'socketsperboard', 1, 65535); return spb === null ? null : spb * boards })()
    const cores = num('CoresPerSocket', 'corespersocket', 1, 65535) ?? 1
    const threads = num('ThreadsPerCore', 'threadspercore', 1, 65535) ?? 1
    let cpus: number, threadsPerCore: number
    if (cpusGiven === null) {
      cpus = (sockets ?? 1) * cores * threads
      threadsPerCore = threads
    } else if (sockets === null) {
      cpus = cpusGiven
      threadsPerCore = cpusGiven % (cores * threads) === 0 ? threads : 1
    } else if (cpusGiven === sockets * cores * threads) {
      cpus = cpusGiven; threadsPerCore = threads
    } else if (cpusGiven === sockets * cores || cpusGiven === sockets) {
      // CPUs counts cores (or sockets): one CPU is one core's worth, threads are not scheduled apart.
      cpus = cpusGiven; threadsPerCore = 1
    } else {
      // Slurm's rule: CPUs that match no product of the topology are reset to the full product.
      cpus = sockets * cores * threads; threadsPerCore = threads
      notes.push(`Nodes ${nameList} (${where}): CPUs=${cpusGiven} does not match Sockets×CoresPerSocket×ThreadsPerCore (${cpus}); Slurm resets CPUs to ${cpus}, and so does the simulator.`)
    }
    if (cpus > 1_000_000) fail(at, `${cpus} CPUs on one node is out of range`)
    const realMemory = num('RealMemory', 'realmemory', 1, 1e12) ?? D.nodeRealMemoryMB.value
    const weight = num('Weight', 'weight', 0, 2 ** 32 - 1) ?? D.nodeWeight.value
    const gresRaw = get('gres')
    const gres = gresRaw === undefined ? { gpus: 0, others: [] } : gresGpus('Gres', gresRaw, at)
    for (const o of gres.others) if (!noted.has(`gres:${o}`)) { noted.add(`gres:${o}`); notes.push(`GRES ${o} (${where}) is not simulated: only GPUs (gpu) are.`) }
    for (const [k, what] of NODE_UNMODELLED) if (s.has(k) && !noted.has(what)) { noted.add(what); notes.push(`Nodes: ${what}.`) }
    const state = (get('state') ?? '').toUpperCase()
    if (/FUTURE|CLOUD/.test(state)) notes.push(`Nodes ${nameList} (${where}) are State=${state}: simulated as always up.`)
    for (const name of names) {
      if (index.has(name)) fail(at, `node ${quote(name)} is declared twice (an earlier NodeName line already names it)`)
      index.add(name)
      acc.names.push(name)
      acc.specs.push({ name, cpus, threadsPerCore, memMB: realMemory, gpus: gres.gpus, weight })
    }
  }
  return acc
}

/** gres.conf's GPU counts per node: `NodeName=g[1-4] Name=gpu File=/dev/nvidia[0-3]` gives 4 GPUs on
 * each of g1…g4 (Count= when given, else one per File device, else 1); several lines for one node
 * add up. A line without NodeName= applies to every node slurm.conf declares with GPUs. Nodes
 * gres.conf names replace their slurm.conf Gres= GPU count; the others keep it. */
function applyGres(text: string, file: string, acc: NodeAcc, notes: string[]): void {
  const byName = new Map<string, number>()
  acc.names.forEach((n, i) => byName.set(n, i))
  const counted = new Map<number, number>()
  const unknown = new Set<string>()
  let autodetect = false, bound = false
  const gpuNodes = acc.specs.filter((n) => n.gpus > 0).map((n) => n.name)
  for (const l of confLines(text, file)) {
    if (l.kind === 'include') { notes.push(`${file} line ${l.first}: Include ${l.include} was not followed (the GPU counts it gives are not read).`); continue }
    if (l.pairs.length === 0) continue
    const at: At = { file, line: l.first }
    const s = settingsOf(l)
    if (s.has('autodetect') && !/^off$/i.test(s.get('autodetect')!.trim())) autodetect = true
    const name = s.get('name')
    if (name === undefined) continue
    if (name.trim().toLowerCase() !== 'gpu') continue
    let count: number
    const c = s.get('count'), f = s.get('file')
    if (c !== undefined) {
      if (!/^\d{1,12}[kmg]?$/i.test(c.trim())) fail(at, `Count=${quote(c)} is not a count (digits, optionally with K, M or G)`)
      count = gresGpus('Count', `gpu:${c.trim()}`, at).gpus
    }
    else if (f !== undefined) count = hosts('File', f, at, 1_000_000).length
    else count = 1
    if (s.has('cores') || s.has('cpus')) bound = true
    // A line without NodeName= is read by every slurmd; it gives GPUs only to the nodes slurm.conf
    // declares with GPUs (on the others, Slurm uses slurm.conf's count, which is none).
    const targets = s.has('nodename') ? hosts('NodeName', s.get('nodename')!, at) : gpuNodes
    if (!s.has('nodename') && gpuNodes.length === 0) notes.push(`${file} line ${l.first} has no NodeName= and no node declares GPUs (Gres=gpu) in slurm.conf: it gives no GPUs.`)
    for (const t of targets) {
      const i = byName.get(t)
      if (i === undefined) { unknown.add(t); continue }
      counted.set(i, (counted.get(i) ?? 0) + count)
    }
  }
  for (const [i, gpus] of counted) acc.specs[i] = { ...acc.specs[i], gpus }
  if (unknown.size > 0) notes.push(`${file} names ${unknown.size} node(s) that slurm.conf does not declare (e.g. ${[...unknown].slice(0, 3).join(', ')}): ignored, as Slurm does.`)
  if (autodetect && counted.size === 0) notes.push(`${file} uses AutoDetect without counts: the GPU counts of slurm.conf's Gres= are used.`)
  if (bound) notes.push(`${file}: GPU-to-core binding (Cores=) is not simulated: a job's CPUs may be any free ones on the node.`)
}

/** SelectType and SelectTypeParameters. */
function readSelect(get: Get, notes: string[]): SelectSpec {
  const D = SLURM_DEFAULTS
  const st = get('SelectType')
  let type: SelectSpec['type'] = D.selectType.value
  if (st !== null) {
    const v = st.value.trim().toLowerCase()
    if (v === 'select/linear') type = 'linear'
    else if (v === 'select/cons_tres' || v === 'select/cons_res') type = 'cons_tres'
    else notes.push(`SelectType=${st.value} (${st.where}) is not known to the simulator: read as select/${type} (${D.selectType.why}).`)
  } else notes.push(`SelectType is not set: Slurm ${SLURM_DEFAULTS_VERSION}'s default select/linear (whole nodes) applies. Slurm 23.11 and later default to select/cons_tres: set it explicitly if your site runs one.`)
  const base = type === 'linear' ? D.linearParameters.value : D.consTresParameters.value
  const sp = get('SelectTypeParameters')
  if (sp === null) return { type, ...base }
  let unit: SelectSpec['unit'] | null = null, memory = false
  for (const raw of sp.value.split(',')) {
    const t = raw.trim().toUpperCase()
    if (t === '') continue
    const m = /^CR_(CPU|CORE|SOCKET)(_MEMORY)?$/.exec(t)
    if (m !== null) { unit = m[1].toLowerCase() as SelectSpec['unit']; memory = memory || m[2] !== undefined; continue }
    if (t === 'CR_MEMORY') { memory = true; continue }
    if (t === 'CR_LLN') notes.push('SelectTypeParameters CR_LLN (least-loaded node first) is not simulated: nodes are chosen best-fit.')
    else if (t === 'CR_PACK_NODES') notes.push('SelectTypeParameters CR_Pack_Nodes is not simulated.')
    // the others (CR_ONE_TASK_PER_CORE, CR_CORE_DEFAULT_DIST_BLOCK, OTHER_CONS_*) change task placement, not whether a job fits
  }
  if (type === 'linear') return { type, unit: 'cpu', memory }
  if (unit === null) {
    if (memory) notes.push(`SelectTypeParameters=${sp.value} (${sp.where}) makes memory the only consumable resource: CPUs are simulated as consumable per CPU.`)
    unit = 'cpu'
  }
  if (unit === 'socket') notes.push('SelectTypeParameters CR_Socket is simulated as CR_Core (whole sockets are not allocated).')
  return { type, unit, memory }
}

/** Slurm reads SchedulerParameters by case-insensitive substring search (xstrcasestr), so the FIRST
 * occurrence of "name=" anywhere in the string counts, and its value is read as atoi() does
 * (leading digits; none gives 0). */
function schedParam(raw: string, name: string): string | null {
  const i = raw.toLowerCase().indexOf(`${name}=`)
  if (i < 0) return null
  const rest = raw.slice(i + name.length + 1)
  const end = rest.indexOf(',')
  return end < 0 ? rest : rest.slice(0, end)
}

function atoi(v: string): number {
  const m = /^\s*([+-]?\d+)/.exec(v)
  return m === null ? 0 : Number(m[1])
}

/** One numeric SchedulerParameter: its atoi value when inside Slurm's range, else (as Slurm: an
 * error line and the default) the default with a note. Ranges from backfill.c and
 * job_scheduler.c (_load_config(), _schedule()). */
function schedNumber(raw: string, name: string, def: number, min: number, max: number, notes: string[], unit: string, special?: number): number {
  const v = schedParam(raw, name)
  if (v === null) return def
  const n = atoi(v)
  if (n === special) return n
  if (n < min || n > max) {
    notes.push(`SchedulerParameters ${name}=${v.slice(0, 20)} is not valid (${min} to ${max}${special === undefined ? '' : `, or ${special}`}): Slurm logs an error and keeps its default ${def} ${unit}, and so does the simulator.`)
    return def
  }
  return n
}

/** SchedulerParameters entries that change which job starts when and are not simulated (found by
 * the same substring search as Slurm's). */
const SCHED_UNMODELLED: readonly [string, string][] = [
  ['bf_max_job_user_part=', 'bf_max_job_user_part (per user and partition backfill limit)'],
  ['bf_max_job_assoc=', 'bf_max_job_assoc (per association backfill limit; Slurm then ignores bf_max_job_user, and so does the simulator)'],
  ['bf_min_prio_reserve=', 'bf_min_prio_reserve (no reservation below a priority)'],
  ['bf_one_resv_per_job', 'bf_one_resv_per_job'],
  ['bf_busy_nodes', 'bf_busy_nodes (prefer busy nodes in reservations)'],
  ['bf_window_linear=', 'bf_window_linear'],
  ['bf_running_job_reserve', 'bf_running_job_reserve'],
  ['pack_serial_at_end', 'pack_serial_at_end (1-CPU jobs at the end of the node list)'],
  ['assoc_limit_stop', 'assoc_limit_stop'],
]

const MIN = 60
const DAY = 86_400

function readScheduling(get: Get, notes: string[]): SlurmScheduling {
  const D = SLURM_DEFAULTS
  const stype = get('SchedulerType')
  let schedulerType = D.schedulerType.value
  if (stype !== null) {
    const v = stype.value.trim().toLowerCase()
    if (v === 'sched/builtin') schedulerType = 'builtin'
    else if (v === 'sched/backfill') schedulerType = 'backfill'
    else notes.push(`SchedulerType=${stype.value} (${stype.where}) is not known to the simulator: simulated as sched/backfill.`)
  }
  const sp = get('SchedulerParameters')
  const raw = sp?.value ?? ''
  const lower = raw.toLowerCase()
  const unmodelled = SCHED_UNMODELLED.filter(([k, what]) => what !== '' && lower.includes(k)).map(([, what]) => what)
  if (unmodelled.length > 0) notes.push(`SchedulerParameters not simulated: ${unmodelled.join('; ')} (${sp!.where}).`)
  const big = 2 ** 31 - 1
  const bfWindowMin = schedNumber(raw, 'bf_window', D.bfWindowMinutes.value, 1, BF_WINDOW_MAX_MIN, notes, 'minutes')
  const maxJobUser = schedNumber(raw, 'bf_max_job_user', D.bfMaxJobUser.value, 0, big, notes, 'jobs')
  const priority = readPriority(get, notes)
  return {
    schedulerType,
    sched: {
      // sched_interval=-1: Slurm's main scheduler never runs (only the backfill starts jobs)
      interval: schedNumber(raw, 'sched_interval', D.schedInterval.value, 0, big, notes, 's', -1),
      defaultQueueDepth: schedNumber(raw, 'default_queue_depth', D.defaultQueueDepth.value, 0, big, notes, 'jobs'),
      partitionJobDepth: schedNumber(raw, 'partition_job_depth', D.partitionJobDepth.value, 0, big, notes, 'jobs'),
      maxJobStart: schedNumber(raw, 'sched_max_job_start', D.schedMaxJobStart.value, 0, big, notes, 'jobs'),
    },
    bf: {
      // bf_interval=-1 disables the backfill cycle
      interval: schedNumber(raw, 'bf_interval', D.bfInterval.value, 1, 10_800, notes, 's', -1),
      window: bfWindowMin * MIN,
      resolution: schedNumber(raw, 'bf_resolution', D.bfResolution.value, 1, 3600, notes, 's'),
      maxJobTest: schedNumber(raw, 'bf_max_job_test', D.bfMaxJobTest.value, 1, 1_000_000, notes, 'jobs'),
      maxJobStart: schedNumber(raw, 'bf_max_job_start', D.bfMaxJobStart.value, 0, 10_000, notes, 'jobs'),
      maxJobUser: lower.includes('bf_max_job_assoc=') && atoi(schedParam(raw, 'bf_max_job_assoc') ?? '') > 0 ? 0 : maxJobUser,
      maxJobPart: schedNumber(raw, 'bf_max_job_part', D.bfMaxJobPart.value, 0, big, notes, 'jobs'),
      jobPartCountReserve: schedNumber(raw, 'bf_job_part_count_reserve', D.bfJobPartCountReserve.value, 0, 100_000, notes, 'jobs'),
      minAgeReserve: schedNumber(raw, 'bf_min_age_reserve', D.bfMinAgeReserve.value, 0, 30 * DAY, notes, 's'),
      continue: lower.includes('bf_continue'),
    },
    priority,
    schedulerParameters: raw,
  }
}

/** PriorityFlags Slurm 22.05 knows. */
const PRIORITY_FLAGS = new Set(['ACCRUE_ALWAYS', 'CALCULATE_RUNNING', 'DEPTH_OBLIVIOUS', 'NO_FAIR_TREE', 'INCR_ONLY', 'MAX_TRES', 'NO_NORMAL_ALL', 'NO_NORMAL_ASSOC', 'NO_NORMAL_PART', 'NO_NORMAL_QOS', 'NO_NORMAL_TRES', 'SMALL_RELATIVE_TO_TIME', 'FAIR_TREE'])

function readPriority(get: Get, notes: string[]): PriorityConfig {
  const D = SLURM_DEFAULTS
  const ptype = get('PriorityType')
  let type = D.priorityType.value
  if (ptype !== null) {
    const v = ptype.value.trim().toLowerCase()
    if (v === 'priority/multifactor') type = 'multifactor'
    else if (v === 'priority/basic') type = 'basic'
    else fail(ptype.at, `PriorityType=${quote(ptype.value)} is not priority/basic or priority/multifactor`)
  }
  const weight = (key: string): number => { const s = get(key); return s === null ? D.priorityWeight.value : wholeNumber(key, s.value, s.at, 0, 2 ** 32 - 1) }
  const time = (key: string, def: number, min: number): number => {
    const s = get(key)
    if (s === null) return def
    const t = slurmTimeSeconds(key, s.value, s.at)
    if (t === null) return fail(s.at, `${key}=${quote(s.value)}: UNLIMITED is not a time here`)
    if (t < min) return fail(s.at, `${key}=${quote(s.value)} is below ${min / 60} minute(s)`)
    return t
  }
  const weightTres: Record<string, number> = {}
  const wt = get('PriorityWeightTRES')
  if (wt !== null) {
    for (const item of wt.value.split(',')) {
      if (item.trim() === '') continue
      const m = /^\s*([A-Za-z][A-Za-z0-9_/:-]*)\s*=\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*$/.exec(item)
      if (m === null) fail(wt.at, `PriorityWeightTRES: ${quote(item)} is not TRES=weight (e.g. CPU=1000,Mem=2000,GRES/gpu=3000)`)
      const w = Number(m![2])
      if (!Number.isFinite(w)) fail(wt.at, `PriorityWeightTRES: ${quote(item)} is not a finite weight`)
      weightTres[m![1].toLowerCase()] = w
    }
  }
  const flagsRaw = get('PriorityFlags')
  const flags = flagsRaw === null ? [] : flagsRaw.value.split(',').map((f) => f.trim().toUpperCase()).filter((f) => f !== '')
  const unknown = flags.filter((f) => !PRIORITY_FLAGS.has(f))
  if (unknown.length > 0) notes.push(`PriorityFlags ${unknown.join(', ')} (${flagsRaw!.where}) not known to the simulator: ignored.`)
  const damp = get('FairShareDampeningFactor')
  const accountingRaw = get('AccountingStorageType')
  const accounting = accountingRaw !== null && /slurmdbd/i.test(accountingRaw.value)
  const favor = get('PriorityFavorSmall')
  const p: PriorityConfig = {
    type,
    weightAge: weight('PriorityWeightAge'),
    weightFairshare: weight('PriorityWeightFairshare'),
    weightJobSize: weight('PriorityWeightJobSize'),
    weightPartition: weight('PriorityWeightPartition'),
    weightQos: weight('PriorityWeightQOS'),
    weightAssoc: weight('PriorityWeightAssoc'),
    weightTres,
    maxAge: time('PriorityMaxAge', D.priorityMaxAge.value, 0),
    decayHalfLife: time('PriorityDecayHalfLife', D.priorityDecayHalfLife.value, 0),
    calcPeriod: time('PriorityCalcPeriod', D.priorityCalcPeriod.value, 60),
    favorSmall: favor === null ? D.priorityFavorSmall.value : yesNo('PriorityFavorSmall', favor.value, favor.at),
    // Fair Tree is the default; NO_FAIR_TREE and DEPTH_OBLIVIOUS select the classic algorithm.
    fairTree: !flags.includes('NO_FAIR_TREE') && !flags.includes('DEPTH_OBLIVIOUS'),
    flags,
    dampeningFactor: damp === null ? D.fairShareDampeningFactor.value : wholeNumber('FairShareDampeningFactor', damp.value, damp.at, 1, 65535),
    qosPriority: {},
    accounting,
  }
  if (type === 'multifactor' && !accounting && (p.weightAge > 0 || p.weightFairshare > 0)) {
    notes.push(`PriorityWeightAge=${p.weightAge} and PriorityWeightFairshare=${p.weightFairshare} are set, but AccountingStorageType is not accounting_storage/slurmdbd: Slurm then forces both weights to 0 (the weights are kept as written, with accounting: false).`)
  }
  return p
}

/**
 * Reads a slurm.conf (and its gres.conf, if given) into the machine and Slurm's scheduling as
 * configured there. `include` gives the text of a file an Include line names (the CLI reads it;
 * null or absent: the Include is noted as not followed). Throws ClusterConfigError naming the
 * file and line (of the included file, for a problem in one).
 */
export function parseSlurmConf(
  text: string, file: string, gres?: { text: string; file: string }, include?: (path: string) => ConfInclude | null,
): SlurmConf {
  const notes: string[] = []
  const lines: Src[] = []
  gather(text, file, include, notes, lines, { chars: MAX_TOTAL_CHARS }, [])
  const byKey = new Map<string, Setting>()
  for (const { l, file: f } of lines) {
    if (l.kind !== 'settings') continue
    const where = f === file ? `line ${l.first}` : `${f} line ${l.first}`
    for (const p of l.pairs) byKey.set(p.key.toLowerCase(), { value: p.value, at: { file: f, line: l.first }, where }) // the last one wins, as in Slurm
  }
  const get: Get = (k) => byKey.get(k.toLowerCase()) ?? null
  for (const [k, matters, what] of GLOBAL_UNMODELLED) {
    const s = byKey.get(k)
    if (s !== undefined && matters(s.value.trim())) notes.push(`${what} (${s.where}).`)
  }
  if (lines.some(({ l }) => l.kind === 'record' && l.pairs[0].key.toLowerCase() === 'nodeset')) notes.push('NodeSet lines are not read: partitions must name their nodes (or ALL).')

  const acc = readNodes(lines, file, notes)
  if (gres !== undefined) applyGres(gres.text, gres.file, acc, notes)
  if (acc.specs.length === 0) fail({ file, line: null }, 'no NodeName line declares a node: the machine is empty (a NodeName line of an Include\'d file is read only when the file is given)')
  const nodeIndex = new Map<string, number>()
  acc.names.forEach((n, i) => nodeIndex.set(n, i))

  let pdefaults = new Map<string, string>()
  const partitions: PartitionSpec[] = []
  const seen = new Set<string>()
  for (const { l, file: f } of lines) {
    if (l.kind !== 'record' || l.pairs[0].key.toLowerCase() !== 'partitionname') continue
    const own = settingsOf(l)
    const name = own.get('partitionname')!.trim()
    if (/^default$/i.test(name)) { pdefaults = new Map([...pdefaults, ...own]); continue }
    const at: At = { file: f, line: l.first }
    if (seen.has(name)) fail(at, `partition ${quote(name)} is declared twice`)
    seen.add(name)
    const s = new Map([...pdefaults, ...own])
    partitions.push(buildPartition(name, (k) => s.get(k), nodeIndex, at, notes, 'no NodeName line declares'))
  }
  if (partitions.length === 0) fail({ file, line: null }, 'no PartitionName line: Slurm needs at least one partition to run jobs (a PartitionName line of an Include\'d file is read only when the file is given)')
  if (partitions.filter((p) => p.isDefault).length > 1) notes.push(`Several partitions say Default=YES (${partitions.filter((p) => p.isDefault).map((p) => p.name).join(', ')}): Slurm uses the last one.`)

  const dmc = get('DefMemPerCPU'), dmn = get('DefMemPerNode')
  const cluster: ClusterSpec = {
    nodes: acc.specs,
    partitions: fixDefault(partitions),
    select: readSelect(get, notes),
    defMemPerCpu: dmc === null ? null : memDefault('DefMemPerCPU', dmc.value, dmc.at),
    defMemPerNode: dmn === null ? null : memDefault('DefMemPerNode', dmn.value, dmn.at),
    source: gres === undefined ? { kind: 'slurm.conf', file } : { kind: 'slurm.conf', file, gresFile: gres.file },
    notes,
  }
  const scheduling = readScheduling(get, notes)
  return { cluster, scheduling, text }
}

/**
 * Only the scheduling settings of a slurm.conf text (priority, scheduler, backfill), on Slurm's
 * defaults: the exported fragment read back when the site's slurm.conf is not known (its nodes
 * come from elsewhere). Same reader as parseSlurmConf's; NodeName/PartitionName lines are ignored.
 */
export function parseSlurmScheduling(text: string, file: string): { scheduling: SlurmScheduling; notes: string[] } {
  const notes: string[] = []
  const byKey = new Map<string, Setting>()
  for (const l of confLines(text, file)) {
    if (l.kind !== 'settings') continue
    for (const p of l.pairs) byKey.set(p.key.toLowerCase(), { value: p.value, at: { file, line: l.first }, where: `line ${l.first}` })
  }
  const scheduling = readScheduling((k) => byKey.get(k.toLowerCase()) ?? null, notes)
  return { scheduling, notes }
}

/** Only the last Default=YES partition stays the default (Slurm's rule: the later line replaces). */
function fixDefault(parts: PartitionSpec[]): PartitionSpec[] {
  let last = -1
  parts.forEach((p, i) => { if (p.isDefault) last = i })
  return parts.map((p, i) => (p.isDefault && i !== last ? { ...p, isDefault: false } : p))
}
