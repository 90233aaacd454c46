// `npm run bench`: speed of import and simulation on real logs (a benchmark, not a timed test).
// Targets (issue #2, 2-core machine): CEA-Curie EASY-FCFS ≤ 1 s of simulation and ≤ 2 s end to end
// in a fresh process; 1M SWF lines import at ≥ 1M lines/s below 300 MB RSS. Results go to
// docs/PERFORMANCE.md by hand, with what changed them. `--predict [n|logs]` and `--predict-tune`:
// the learned regression (issue #22, docs/PREDICTIONS.md §Performance and §Model). `--learn
// [trials] [tuples]`: the learned-priority trials (issue #23, docs/LEARN.md §Performance).
// `--import-scale [n,n,…]`: import and import + replay of CEA-Curie tiled to n lines against the
// gunzip-and-count floor, sequential and parallel parse, peak bytes per job (issue #24, docs/PERFORMANCE.md §Import at scale),
// the fresh pages each run was given and what they cost on this host (`--page-cost`, docs/PERFORMANCE.md §Fresh pages).
// `--import-sacct [n]`: the same for Kabré's sacct log tiled to n lines (the text formats' chunked parse).
// `--cli-simulate [n]`: the whole `easytune simulate <log> --json` command on CEA-Curie tiled to n
// lines, as a user runs it (import, simulation, metrics, fidelity, report): time and peak memory.
// `--pool [runs]`: the engine pool's speed-up from 1 to 2 workers (and more where there are cores) on
// KTH-SP2 (issue #24, docs/PERFORMANCE.md §The pool at full speed).
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { simulateEasyOnNodes } from '../src/core/cluster/easy'
import { simulateCluster } from '../src/core/cluster/simulate'
import { defaultScheduling } from '../src/core/cluster/config'
import type { ClusterJobs, ClusterSpec, NodeSpec, PartitionSpec } from '../src/core/cluster/types'
import { EasySimulator, simulate } from '../src/core/sim/easy'
import { computeMetrics } from '../src/core/sim/metrics'
import { CH6_POLICIES } from '../src/core/sim/policies'
import { readLog } from '../src/node/read-log'
import { PARALLEL_MIN_BYTES, PARALLEL_MIN_SWF_WORKERS } from '../src/node/parse-parallel'
import { createRegression } from '../src/core/predict/learner'
import { ELOSS_ID, findLoss, lossValue, lossWeight } from '../src/core/predict/losses'
import type { PredictionConfig } from '../src/core/predict/types'
import type { SimConfig, SimJobs } from '../src/core/sim/types'
import { DEFAULTS } from '../src/core/defaults'

const DATA = resolve(process.env.EASYTUNE_DATA ?? '../shared/data')
const CURIE = resolve(DATA, 'swf/CEA-Curie-2011-2.1-cln.swf.gz')
const KTH = resolve('resources/KTH-SP2-1996-2.1-cln.swf.gz')
const mb = (b: number) => `${(b / 1048576).toFixed(0)} MiB`
const rate = (n: number, s: number) => `${Math.round(n / s).toLocaleString('en-US')}/s`

function peakRss(): number {
  return process.resourceUsage().maxRSS * 1024
}

/** Pages this process was given since it started (minor page faults: each first touch of a 4 KiB page). */
function freshPages(): number {
  return process.resourceUsage().minorPageFault
}

/**
 * Child mode `--page-cost`: what a fresh page costs on this host, in µs: 256 MiB of new typed
 * arrays, one byte written per 4 KiB page, against the same writes on the same (now mapped) pages.
 * On a bare-metal Linux a first touch costs well under 1 µs; in some virtual machines (memory
 * given to the guest lazily by the host) it costs tens, and then every megabyte an import or a
 * simulation writes to new memory costs milliseconds (docs/PERFORMANCE.md §Fresh pages).
 */
function pageCost(): void {
  const arrays: Uint8Array[] = []
  const f0 = freshPages(), t0 = performance.now()
  for (let k = 0; k < 32; k++) { const a = new Uint8Array(8 << 20); for (let i = 0; i < a.length; i += 4096) a[i] = 1; arrays.push(a) }
  const first = performance.now() - t0, pages = freshPages() - f0
  const t1 = performance.now()
  for (const a of arrays) for (let i = 0; i < a.length; i += 4096) a[i] = 2
  const again = performance.now() - t1
  console.log(JSON.stringify({ pages, usPerPage: ((first - again) * 1000) / Math.max(1, pages), firstMs: first, againMs: again }))
}

async function timeLog(path: string, label: string, policies: readonly string[]): Promise<void> {
  if (!existsSync(path)) { console.log(`${label}: ${path} not found, skipped`); return }
  let t = performance.now()
  const w = await readLog(path)
  const importS = (performance.now() - t) / 1000
  console.log(`${label}: ${w.jobs.count.toLocaleString('en-US')} jobs after cleaning (${w.report.jobsRead.toLocaleString('en-US')} read), ${w.machineProcs} procs; import ${importS.toFixed(2)} s (${rate(w.report.linesRead, importS)} lines)`)
  for (const p of policies) {
    simulate(w.jobs, w.machineProcs, { primary: p, backfill: 'same', threshold: null }) // warm-up
    t = performance.now()
    const start = simulate(w.jobs, w.machineProcs, { primary: p, backfill: 'same', threshold: null })
    const s = (performance.now() - t) / 1000
    const m = computeMetrics(w.jobs, w.machineProcs, start)
    console.log(`  EASY-${p.padEnd(5)} sim ${s.toFixed(3)} s  ${rate(w.jobs.count, s).padStart(12)} jobs  avgWait ${m.avgWait.toFixed(0).padStart(7)} s  maxWait ${m.maxWait.toFixed(0).padStart(8)} s`)
  }
}

function endToEnd(path: string, label: string): void {
  if (!existsSync(path)) return
  const runs: number[] = []
  for (let i = 0; i < 3; i++) {
    const t = performance.now()
    execFileSync(process.execPath, ['bin/easytune.js', 'simulate', path, '--json'], { stdio: ['ignore', 'ignore', 'ignore'] })
    runs.push((performance.now() - t) / 1000)
  }
  console.log(`${label} end to end (fresh process: start, gunzip, parse, clean, simulate FCFS, metrics): best ${Math.min(...runs).toFixed(2)} s of ${runs.map((r) => r.toFixed(2)).join(', ')}`)
}

/** Writes a synthetic 1M-line SWF file (Curie-like jobs), once. */
function millionLineFile(): string {
  const path = join(tmpdir(), 'easytune-bench-1M.swf')
  if (existsSync(path)) return path
  const out: string[] = ['; MaxProcs: 100000']
  let seed = 42
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
  let submit = 0
  for (let i = 0; i < 1_000_000; i++) {
    submit += Math.floor(rnd() * 30)
    const req = 60 + Math.floor(rnd() * 86400)
    const q = 1 + Math.floor(rnd() * 512)
    out.push(`${i + 1} ${submit} ${Math.floor(rnd() * 1000)} ${Math.floor(rnd() * req)} ${q} -1 -1 ${q} ${req} -1 1 ${Math.floor(rnd() * 500)} 1 1 1 -1 -1 -1`)
  }
  writeFileSync(path, out.join('\n') + '\n')
  return path
}

/** Child mode: import one file and report time and this process's peak RSS as JSON. */
async function importOnly(path: string): Promise<void> {
  const t = performance.now()
  const w = await readLog(path)
  const s = (performance.now() - t) / 1000
  console.log(JSON.stringify({ lines: w.report.linesRead, jobs: w.jobs.count, seconds: s, peakRss: peakRss() }))
}

function importMillion(): void {
  const path = millionLineFile()
  const r = JSON.parse(execFileSync(process.execPath, [process.argv[1], '--import-only', path], { encoding: 'utf8' }))
  console.log(`synthetic 1M-line SWF (${mb(statSync(path).size)} on disk): imported in ${r.seconds.toFixed(2)} s (${rate(r.lines, r.seconds)} lines), ${r.jobs.toLocaleString('en-US')} jobs kept; peak RSS of that process ${mb(r.peakRss)}`)
}

/**
 * Writes CEA-Curie's job lines tiled in time until `jobs` lines (the tile k: ids + k·(largest id),
 * submit times + k·(span + 1 day)), gzipped, once per size in the temporary folder (never committed).
 */
async function tiledCurie(jobs: number): Promise<string> {
  const path = join(tmpdir(), `easytune-bench-curie-${jobs}.swf.gz`)
  if (existsSync(path)) return path
  const { gunzipSync, createGzip } = await import('node:zlib')
  const { readFileSync, createWriteStream } = await import('node:fs')
  const text = gunzipSync(readFileSync(CURIE)).toString('latin1')
  const header: string[] = [], lines: string[][] = []
  let maxId = 0, span = 0
  for (const l of text.split('\n')) {
    if (l.startsWith(';')) { if (lines.length === 0) header.push(l); continue }
    const f = l.trim().split(/\s+/)
    if (f.length < 18) continue
    lines.push(f)
    maxId = Math.max(maxId, Number(f[0])); span = Math.max(span, Number(f[1]))
  }
  const gz = createGzip()
  const out = createWriteStream(path + '.part')
  gz.pipe(out)
  const write = (s: string) => (gz.write(s) ? Promise.resolve() : new Promise<void>((r) => gz.once('drain', () => r())))
  await write(header.join('\n') + '\n')
  let batch: string[] = []
  for (let i = 0; i < jobs; i++) {
    const k = Math.floor(i / lines.length), f = lines[i % lines.length]
    batch.push(`${Number(f[0]) + k * maxId} ${Number(f[1]) + k * (span + 86400)} ${f.slice(2).join(' ')}`)
    if (batch.length === 10000) { await write(batch.join('\n') + '\n'); batch = [] }
  }
  await write(batch.join('\n') + (batch.length ? '\n' : ''))
  await new Promise<void>((r) => { out.on('close', () => r()); gz.end() })
  const { renameSync } = await import('node:fs')
  renameSync(path + '.part', path)
  return path
}

/** Child mode: the floor: gunzip the file as a stream and count its newlines, nothing else, as fast
 * as Node does it: 1 MiB output chunks (Node's default 16 KiB ones took 1.1 s on the 3.1M-line log
 * against 0.6 s; 4 MiB was slower again: docs/PERFORMANCE.md §Gunzip's chunks). */
async function countOnly(path: string): Promise<void> {
  const { createReadStream } = await import('node:fs')
  const { createGunzip } = await import('node:zlib')
  const t = performance.now()
  let lines = 0
  for await (const c of createReadStream(path, { highWaterMark: 1 << 20 }).pipe(createGunzip({ chunkSize: 1 << 20 }))) {
    const b = c as Buffer
    for (let i = b.indexOf(10); i >= 0; i = b.indexOf(10, i + 1)) lines++
  }
  console.log(JSON.stringify({ lines, seconds: (performance.now() - t) / 1000, peakRss: peakRss(), freshPages: freshPages() }))
}

/** Child mode: import (and replay EASY-FCFS when `replay`), reporting times and peak RSS. `par`:
 * the parse threads from 16 MiB whatever the format and the cores (SWF on fewer than
 * PARALLEL_MIN_SWF_WORKERS cores is otherwise parsed in one thread); `default`: what the app does here. */
async function importReplay(path: string, replay: boolean, mode: string): Promise<void> {
  const t = performance.now()
  // Sequential = no worker script, the path the app takes (workers: 0 would hold the whole text back, waiting for minBytes).
  const w = await readLog(path, mode === 'seq' ? { parallel: { workerPath: null } } : mode === 'par' ? { parallel: { minBytes: PARALLEL_MIN_BYTES } } : {})
  const importS = (performance.now() - t) / 1000
  let replayS = 0
  if (replay) {
    const t1 = performance.now()
    simulate(w.jobs, w.machineProcs, { primary: 'FCFS', backfill: 'same', threshold: null })
    replayS = (performance.now() - t1) / 1000
  }
  const mem = process.memoryUsage() // at the end: what stays (the table, Node) against the peak
  console.log(JSON.stringify({ lines: w.report.linesRead, jobs: w.jobs.count, importS, replayS, freshPages: freshPages(), seconds: (performance.now() - t) / 1000, peakRss: peakRss(), endRss: mem.rss, endArrayBuffers: mem.arrayBuffers, endHeapTotal: mem.heapTotal, endHeapUsed: mem.heapUsed }))
}

/** `--import-scale [n,n,…]`: the import at scale (issue #24, docs/PERFORMANCE.md §Import at scale). */
async function importScale(sizes: number[]): Promise<void> {
  const child = (args: string[]) => JSON.parse(execFileSync(process.execPath, [process.argv[1], ...args], { encoding: 'utf8', maxBuffer: 1 << 20 }))
  const cost = child(['--page-cost'])
  const pages = (k: number) => `${k.toLocaleString('en-US')} fresh pages (~${(k * cost.usPerPage / 1e6).toFixed(2)} s)`
  console.log(`a fresh 4 KiB page costs ${cost.usPerPage.toFixed(1)} µs on this host (--page-cost: ${cost.pages.toLocaleString('en-US')} pages in ${cost.firstMs.toFixed(0)} ms, the same writes again ${cost.againMs.toFixed(0)} ms)`)
  for (const n of sizes) {
    const path = await tiledCurie(n)
    const floor = child(['--count-only', path])
    console.log(`${n.toLocaleString('en-US')} lines (CEA-Curie tiled, ${mb(statSync(path).size)} gzip): floor (gunzip + count) ${floor.seconds.toFixed(2)} s, peak ${mb(floor.peakRss)}, ${pages(floor.freshPages)}`)
    // Per line of the log (the issue's "per job" counts what is read), and per job kept after cleaning.
    const perJob = (b: number, jobs: number) => `${Math.round(b / n)} B/line (${Math.round(b / jobs)} B/job kept)`
    const cores = Math.min(8, availableParallelism())
    console.log(`  (what an import does by default with ${cores} cores: ${cores >= PARALLEL_MIN_SWF_WORKERS ? 'the parallel parse from 16 MiB of text' : 'the sequential parse'})`)
    for (const mode of ['seq', 'par']) {
      const imp = child(['--import-replay', path, 'no', mode])
      const all = child(['--import-replay', path, 'yes', mode])
      console.log(`  ${mode === 'seq' ? 'sequential parse' : 'parallel parse  '}: import ${imp.importS.toFixed(2)} s (${(imp.importS / floor.seconds).toFixed(2)}× floor, ${rate(imp.lines, imp.importS)} lines), peak ${mb(imp.peakRss)} = ${perJob(imp.peakRss, imp.jobs)}, ${pages(imp.freshPages)}; ` +
        `import + EASY-FCFS replay ${all.seconds.toFixed(2)} s (replay ${all.replayS.toFixed(2)} s; ${(all.seconds / floor.seconds).toFixed(2)}× floor, ${rate(all.jobs, all.seconds)} jobs), peak ${mb(all.peakRss)} = ${perJob(all.peakRss, all.jobs)}, ${pages(all.freshPages)}`)
    }
  }
}

/**
 * Kabré's sacct log repeated until `lines` job lines, gzipped, once per size in the temporary folder
 * (never committed). The rows are repeated as they are: the parse does not care that the jobs repeat.
 */
async function tiledSacct(lines: number): Promise<string> {
  const path = join(tmpdir(), `easytune-bench-kabre-${lines}.csv.gz`)
  if (existsSync(path)) return path
  const { gunzipSync, gzipSync } = await import('node:zlib')
  const text = gunzipSync(readFileSync(resolve(DATA, 'slurm/kabre-cenat/sacct.csv.gz'))).toString('utf8')
  const all = text.split('\n').filter((l) => l !== '')
  const [header, rows] = [all[0], all.slice(1)]
  const parts: string[] = [header]
  for (let i = 0; i < lines; i++) parts.push(rows[i % rows.length])
  writeFileSync(path + '.part', gzipSync(parts.join('\n') + '\n', { level: 6 }))
  const { renameSync } = await import('node:fs')
  renameSync(path + '.part', path)
  return path
}

/** `--import-sacct [n]`: the sacct import at scale, sequential and parallel parse, against the floor. */
async function importSacct(lines: number): Promise<void> {
  const child = (args: string[]) => JSON.parse(execFileSync(process.execPath, [process.argv[1], ...args], { encoding: 'utf8', maxBuffer: 1 << 20 }))
  const path = await tiledSacct(lines)
  const floor = child(['--count-only', path])
  console.log(`${lines.toLocaleString('en-US')} lines (Kabré sacct repeated, ${mb(statSync(path).size)} gzip): floor (gunzip + count) ${floor.seconds.toFixed(2)} s, peak ${mb(floor.peakRss)}`)
  for (const mode of ['seq', 'par']) {
    const imp = child(['--import-replay', path, 'no', mode])
    console.log(`  ${mode === 'seq' ? 'sequential parse' : 'parallel parse  '}: import ${imp.importS.toFixed(2)} s (${(imp.importS / floor.seconds).toFixed(2)}× floor, ${rate(imp.lines, imp.importS)} lines), ${imp.jobs.toLocaleString('en-US')} jobs, peak ${mb(imp.peakRss)} = ${Math.round(imp.peakRss / imp.jobs)} B/job`)
  }
}

/** `--cli-simulate [n]`: `easytune simulate <log> --json` whole, in a fresh process each run (the
 * CLI bundle beside this one, out/cli), on CEA-Curie tiled to n lines: seconds and peak RSS. */
async function cliSimulate(lines: number, runs = 3): Promise<void> {
  const path = await tiledCurie(lines)
  const cli = pathToFileURL(fileURLToPath(new URL('../cli/easytune.js', import.meta.url))).href
  const out = join(tmpdir(), 'easytune-bench-cli-simulate.json'), res = join(tmpdir(), 'easytune-bench-cli-result.json')
  const code = `const t = performance.now(); const { main } = await import(${JSON.stringify(cli)});` +
    `const rc = await main(['simulate', ${JSON.stringify(path)}, '--json', ${JSON.stringify(out)}]);` +
    `(await import('node:fs')).writeFileSync(${JSON.stringify(res)}, JSON.stringify({ rc, seconds: (performance.now() - t) / 1000, peakRss: process.resourceUsage().maxRSS * 1024 }))`
  for (let i = 0; i < runs; i++) {
    execFileSync(process.execPath, ['--input-type=module', '-e', code], { stdio: 'ignore' })
    const r = JSON.parse(readFileSync(res, 'utf8'))
    if (r.rc !== 0) throw new Error(`easytune simulate exited with ${r.rc}`)
    console.log(`easytune simulate, ${lines.toLocaleString('en-US')} lines (CEA-Curie tiled): ${r.seconds.toFixed(2)} s, peak ${mb(r.peakRss)} = ${Math.round(r.peakRss / lines)} B/line`)
  }
}

if (process.argv[2] === '--cli-simulate') {
  await cliSimulate(process.argv[3] ? Number(process.argv[3]) : 3_128_260)
  process.exit(0)
}

if (process.argv[2] === '--import-sacct') {
  await importSacct(process.argv[3] ? Number(process.argv[3]) : 1_000_000)
  process.exit(0)
}

if (process.argv[2] === '--page-cost') {
  pageCost()
  process.exit(0)
}
if (process.argv[2] === '--count-only') {
  await countOnly(process.argv[3])
  process.exit(0)
}
if (process.argv[2] === '--import-replay') {
  await importReplay(process.argv[3], process.argv[4] === 'yes', process.argv[5] ?? 'default')
  process.exit(0)
}
if (process.argv[2] === '--import-scale') {
  await importScale(process.argv[3] ? process.argv[3].split(',').map(Number) : [100_000, 1_000_000, 3_128_260, 10_000_000])
  process.exit(0)
}

if (process.argv[2] === '--import-only') {
  await importOnly(process.argv[3])
  process.exit(0)
}

/** The KTH-SP2 protocol of issue #3: 49 pairs × 250 train + 250 test weeks, one threshold. */
function protocol(): void {
  const time = (workers: number) => {
    const t = performance.now()
    execFileSync(process.execPath, ['bin/easytune.js', 'evaluate', KTH, '--preset', 'ch5', '--thresholds', 'none', '--weeks', '250',
      '--no-cache', '--workers', String(workers), '--json', join(tmpdir(), `easytune-bench-eval-${workers}.json`)], { stdio: ['ignore', 'ignore', 'ignore'] })
    return (performance.now() - t) / 1000
  }
  const one = time(1)
  const two = time(2)
  console.log(`KTH-SP2 protocol (49 pairs x (250 train + 250 test) weeks, threshold none = 24,500 week simulations), whole command: 1 worker ${one.toFixed(1)} s, 2 workers ${two.toFixed(1)} s, speed-up ${(one / two).toFixed(2)}x`)
}

/** CPU seconds (user + system) of this process's finished children and theirs (Linux: /proc/self/stat); null elsewhere. */
function childrenCpu(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8')
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(f[13]) + Number(f[14])) / 100 // cutime, cstime in clock ticks (USER_HZ = 100)
  } catch {
    return null
  }
}

/**
 * `--pool [runs]`: the whole `easytune evaluate` command on KTH-SP2 with 1, 2, … workers (up to
 * the cores), the thesis grid (--preset ch5) and the default candidates, no cache: wall time
 * (best of `runs`), the CPU time of every process, speed-up and efficiency against 1 worker. The
 * result documents of every worker count must be the same bytes.
 */
function pool(runs: number): void {
  const log = existsSync(KTH) ? KTH : resolve(DATA, 'swf/KTH-SP2-1996-2.1-cln.swf.gz')
  if (!existsSync(log)) { console.log(`KTH-SP2: ${log} not found, skipped`); return }
  const counts = [...new Set([1, 2, ...[4, 8].filter((n) => n <= availableParallelism())])]
  console.log(`engine pool on KTH-SP2, whole \`easytune evaluate\` command, --no-cache, best of ${runs}; ${availableParallelism()} cores`)
  for (const [name, args] of [['--preset ch5 (thesis grid)', ['--preset', 'ch5']], ['default candidates', []]] as const) {
    let base = 0
    let doc: string | null = null
    for (const n of counts) {
      const out = join(tmpdir(), `easytune-bench-pool-${n}.json`)
      let wall = Infinity, cpu = Infinity
      for (let r = 0; r < runs; r++) {
        const c0 = childrenCpu()
        const t = performance.now()
        execFileSync(process.execPath, ['bin/easytune.js', 'evaluate', log, ...args, '--no-cache', '--workers', String(n), '--json', out], { stdio: ['ignore', 'ignore', 'ignore'] })
        wall = Math.min(wall, (performance.now() - t) / 1000)
        const c1 = childrenCpu()
        if (c0 !== null && c1 !== null) cpu = Math.min(cpu, c1 - c0)
      }
      const text = readFileSync(out, 'utf8')
      const same = doc === null ? '' : text === doc ? ', same document' : ', DOCUMENT DIFFERS from 1 worker'
      doc ??= text
      if (n === 1) base = wall
      console.log(`  ${name}, ${n} worker${n === 1 ? ' ' : 's'}: ${wall.toFixed(2)} s wall${Number.isFinite(cpu) ? `, ${cpu.toFixed(2)} s CPU` : ''}; speed-up ${(base / wall).toFixed(2)}x, efficiency ${((100 * base) / wall / n).toFixed(0)}%${same}`)
    }
  }
}

if (process.argv[2] === '--pool') {
  pool(process.argv[3] ? Number(process.argv[3]) : 1)
  process.exit(0)
}

/** Best of `runs` timings of fn (seconds), after one warm-up. */
function best(runs: number, fn: () => void): number {
  fn()
  let b = Infinity
  for (let i = 0; i < runs; i++) {
    const t = performance.now()
    fn()
    b = Math.min(b, (performance.now() - t) / 1000)
  }
  return b
}

function machineOf(nodes: NodeSpec[], partitions: PartitionSpec[], memory: boolean, defMemPerCpu: number | null): ClusterSpec {
  return { nodes, partitions, select: { type: 'cons_tres', unit: 'core', memory }, defMemPerCpu, defMemPerNode: null, source: { kind: 'inferred', note: 'bench' }, notes: [] }
}

function partitionOf(name: string, nodes: number[], isDefault: boolean): PartitionSpec {
  return { name, nodes, maxTime: null, defaultTime: null, priorityTier: 1, priorityJobFactor: 1, overSubscribe: 'NO', isDefault, defMemPerCpu: null, defMemPerNode: null, state: 'UP' }
}

/** Issue #21: node-level EASY within 2× the single-pool simulator on the same jobs. */
async function nodeLevel(only: 'slurm' | 'easy' | 'curie' | null = null): Promise<void> {
  const slurmOnly = only === 'slurm'
  // (a) CEA-Curie's jobs on 16-CPU nodes (the SWF has no node counts): flexible jobs, then N = ceil(q/16) nodes.
  if (existsSync(CURIE) && (only === null || only === 'curie')) {
    const w = await readLog(CURIE)
    const per = 16, count = Math.ceil(w.machineProcs / per)
    const nodes = Array.from({ length: count }, (_, i): NodeSpec => ({ name: `c${i}`, cpus: per, threadsPerCore: 1, memMB: 64000, gpus: 0, weight: 1 }))
    const spec = machineOf(nodes, [partitionOf('all', nodes.map((_, i) => i), true)], false, null)
    const n = w.jobs.count
    const base = { ...w.jobs, partition: new Int32Array(n), memPerNode: new Float64Array(n), gpusPerNode: new Int32Array(n), exclusive: new Uint8Array(n), user: new Int32Array(n), account: new Int32Array(n), qos: new Int32Array(n), eligible: w.jobs.submit }
    const flexible: ClusterJobs = { ...base, nodes: new Int32Array(n) }
    const packed: ClusterJobs = { ...base, nodes: Int32Array.from(w.jobs.procs, (q) => Math.ceil(q / per)) }
    const config = { primary: 'FCFS', backfill: 'same' as const, threshold: null }
    const single = best(1, () => simulate(w.jobs, count * per, config))
    const flex = only === 'curie' ? NaN : best(1, () => simulateEasyOnNodes(flexible, spec, config))
    const nn = best(1, () => simulateEasyOnNodes(packed, spec, config))
    console.log(`CEA-Curie on ${count.toLocaleString('en-US')} nodes × ${per} CPUs (${n.toLocaleString('en-US')} jobs, EASY-FCFS): single pool ${single.toFixed(3)} s; ` +
      `on nodes, flexible jobs ${flex.toFixed(3)} s (${(flex / single).toFixed(2)}×); on nodes, ceil(q/16) nodes per job ${nn.toFixed(3)} s (${(nn / single).toFixed(2)}×)`)
  }
  if (only === 'curie') return
  // (b) 1M synthetic multi-resource jobs: 900 CPU nodes + 100 GPU nodes (32 cores, 256 GB, 4 GPUs),
  // partitions cpu / gpu / all (all shares every node), CR_Core_Memory with DefMemPerCPU.
  const nodes = Array.from({ length: 1000 }, (_, i): NodeSpec => ({ name: `n${i}`, cpus: 32, threadsPerCore: 1, memMB: 256000, gpus: i >= 900 ? 4 : 0, weight: 1 }))
  const spec = machineOf(nodes, [
    partitionOf('cpu', nodes.slice(0, 900).map((_, i) => i), true),
    partitionOf('gpu', nodes.slice(900).map((_, i) => 900 + i), false),
    partitionOf('all', nodes.map((_, i) => i), false),
  ], true, 4000)
  const n = 1_000_000
  let seed = 7
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
  const submit = new Float64Array(n), runtime = new Float64Array(n), requested = new Float64Array(n), procs = new Int32Array(n)
  const partition = new Int32Array(n), nodeCount = new Int32Array(n), memPerNode = new Float64Array(n), gpusPerNode = new Int32Array(n)
  let t = 0
  for (let j = 0; j < n; j++) {
    t += Math.floor(rnd() * 26)
    submit[j] = t
    const req = 60 + Math.floor(rnd() * 4 * 3600)
    requested[j] = req
    runtime[j] = Math.floor(rnd() * req)
    const kind = rnd()
    if (kind < 0.55) { procs[j] = 1 + Math.floor(rnd() * 32); nodeCount[j] = 1; partition[j] = rnd() < 0.9 ? 0 : 2 } // one node
    else if (kind < 0.75) { procs[j] = 1 + Math.floor(rnd() * 64); nodeCount[j] = 0; partition[j] = 0 } // flexible
    else if (kind < 0.9) { const k = 2 + Math.floor(rnd() * 15); procs[j] = 32 * k; nodeCount[j] = k; partition[j] = rnd() < 0.8 ? 0 : 2 } // whole nodes' CPUs
    else { procs[j] = 1 + Math.floor(rnd() * 16); nodeCount[j] = 1; gpusPerNode[j] = 1 + Math.floor(rnd() * 4); partition[j] = 1 } // GPU
    if (rnd() < 0.3) memPerNode[j] = 1000 + Math.floor(rnd() * 128000)
  }
  const jobs: ClusterJobs = { count: n, submit, runtime, requested, procs, partition, nodes: nodeCount, memPerNode, gpusPerNode, exclusive: new Uint8Array(n), user: new Int32Array(n), account: new Int32Array(n), qos: new Int32Array(n), eligible: submit }
  for (const p of slurmOnly ? [] : ['FCFS', 'SPF']) {
    const config = { primary: p, backfill: 'same' as const, threshold: null }
    const single = best(1, () => simulate(jobs, 32000, config))
    const onNodes = best(1, () => simulateEasyOnNodes(jobs, spec, config))
    console.log(`synthetic 1M jobs, 1,000 nodes (32 cores, 256 GB; 100 with 4 GPUs), 3 partitions, CPUs+memory+GPUs, EASY-${p}: single pool on the same jobs ${single.toFixed(2)} s; on nodes ${onNodes.toFixed(2)} s (${(onNodes / single).toFixed(2)}×)`)
  }
  // (c) Slurm's own scheduling (22.05 defaults: FIFO priority, main passes, backfill cycles every
  // 30 s reserving for every tested job) on the first 20,000 and 100,000 synthetic jobs and all 1M: the target
  // is within 5× the single pool (docs/PERFORMANCE.md).
  for (const k of only === 'easy' ? [] : [20_000, 100_000, 1_000_000]) {
    const sub = { ...jobs, count: k } as ClusterJobs
    const config = { primary: 'FCFS', backfill: 'same' as const, threshold: null }
    const single = best(1, () => simulate(sub, 32000, config))
    const t0 = performance.now()
    const run = simulateCluster(sub, spec, { kind: 'slurm', scheduling: defaultScheduling() })
    const sl = (performance.now() - t0) / 1000
    // A fingerprint of the schedule: a speed-up must leave it unchanged.
    console.log(`synthetic first ${k.toLocaleString('en-US')} jobs, Slurm's scheduling (22.05 defaults) on the nodes: ${sl.toFixed(2)} s; single pool ${single.toFixed(3)} s (${(sl / single).toFixed(0)}×); schedule ${fingerprint(run.start)}`)
  }
}

/** FNV-1a over the start times' bytes: the same schedule gives the same 8 hex digits. */
function fingerprint(start: Float64Array): string {
  const b = new Uint8Array(start.buffer, start.byteOffset, start.byteLength)
  let h = 0x811c9dc5
  for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i], 0x01000193) >>> 0
  return h.toString(16).padStart(8, '0')
}

// --slurm-only: entry (c) of nodeLevel alone (Slurm's scheduling against the single pool), e.g. to profile it.
if (process.argv[2] === '--slurm-only') {
  await nodeLevel('slurm')
  process.exit(0)
}
// --curie-only: entry (a) alone, CEA-Curie with node counts (its worst case), e.g. to profile it.
if (process.argv[2] === '--curie-only') {
  await nodeLevel('curie')
  process.exit(0)
}
// --easy-only: entry (b) alone (node-level EASY against the single pool on the synthetic 1M jobs).
if (process.argv[2] === '--easy-only') {
  await nodeLevel('easy')
  process.exit(0)
}
if (process.argv[2] === '--cluster-only') {
  await nodeLevel()
  process.exit(0)
}

/** Issue #22: the learned regression's predictions on a log, in one simulation of the selected
 * triple (E-Loss + incremental + SJBF): what the predictions are worth, and what the schedule gives. */
function predictionQuality(jobs: SimJobs & { user: Int32Array }, m: number, lossId: string, eta: number, lambda: number, negative: 'mirror' | 'floor'): { mae: number; maeReq: number; eloss: number; under: number; ratio: number; floor: number; mean: number; bsld: number; wait: number; seconds: number } {
  const config: SimConfig = { primary: 'FCFS', backfill: 'same', threshold: null, prediction: { predictor: { id: 'eloss' }, correction: 'incremental', sjbf: true } }
  const t = performance.now()
  const sim = new EasySimulator(jobs, m, config, {})
  // The simulator builds the regression with the defaults; the tuning swaps in one with (η, λ)
  // before anything happened (a bench-only device: a run's η and λ are not part of its configuration).
  Reflect.set(sim, 'online', createRegression(jobs, findLoss(lossId)!, { eta, lambda, negative }))
  sim.runUntil(Infinity)
  const seconds = (performance.now() - t) / 1000
  const loss = findLoss(ELOSS_ID)!
  let mae = 0, maeReq = 0, eloss = 0, under = 0, sumPred = 0, sumRun = 0, floor = 0
  for (let j = 0; j < jobs.count; j++) {
    const f = sim.predictions[j], p = jobs.runtime[j]
    mae += Math.abs(f - p)
    maeReq += Math.abs(jobs.requested[j] - p)
    eloss += lossValue(loss, lossWeight(loss, jobs.procs[j], p), f, p)
    if (f < p) under++
    if (f <= 1) floor++
    sumPred += f; sumRun += p
  }
  const n = jobs.count
  const mt = computeMetrics(jobs, m, sim.start)
  return { mae: mae / n, maeReq: maeReq / n, eloss: eloss / n, under: under / n, ratio: sumPred / sumRun, floor: floor / n, mean: sumPred / n, bsld: mt.avgBsld, wait: mt.avgWait, seconds }
}
/** Issue #22 tuning: η and λ on KTH-SP2, CTC-SP2 and SDSC-BLUE (docs/PREDICTIONS.md §Model).
 * `--predict-tune [η,η,…] [λ,λ,…] [loss] [log,log,…] [mirror|floor]`: the mean E-Loss column is always the E-Loss's. */
async function predictTune(etas: number[], lambdas: number[], lossId: string, logs: string[], negative: 'mirror' | 'floor'): Promise<void> {
  for (const name of logs) {
    const path = resolve(DATA, 'swf', name)
    if (!existsSync(path)) { console.log(`${name}: not found, skipped`); continue }
    const w = await readLog(path)
    const jobs = { ...w.jobs, user: w.jobs.user }
    const plain = computeMetrics(jobs, w.machineProcs, simulate(jobs, w.machineProcs, { primary: 'FCFS', backfill: 'same', threshold: null }))
    const req = predictionQuality(jobs, w.machineProcs, lossId, 1, 0, negative)
    console.log(`${name}: ${jobs.count} jobs, loss ${lossId}, negative predictions ${negative}; EASY avgBsld ${plain.avgBsld.toFixed(1)} avgWait ${plain.avgWait.toFixed(0)} s; MAE of the requested time ${req.maeReq.toFixed(0)} s`)
    for (const eta of etas) for (const lambda of lambdas) {
      const r = predictionQuality(jobs, w.machineProcs, lossId, eta, lambda, negative)
      console.log(`  eta ${String(eta).padStart(6)} lambda ${String(lambda).padStart(8)}: MAE ${r.mae.toFixed(0).padStart(6)} s  mean E-Loss ${r.eloss.toExponential(2)}  under ${(100 * r.under).toFixed(1).padStart(5)} %  at 1 s ${(100 * r.floor).toFixed(1).padStart(5)} %  mean ${r.mean.toFixed(0).padStart(6)} s  sum pred/sum runtime ${r.ratio.toFixed(3)}  avgBsld ${r.bsld.toFixed(1).padStart(7)}  avgWait ${r.wait.toFixed(0).padStart(6)} s  (${r.seconds.toFixed(2)} s)`)
    }
  }
}

if (process.argv[2] === '--predict-tune') {
  const list = (i: number, d: number[]) => (process.argv[i] ? process.argv[i].split(',').map(Number) : d)
  await predictTune(list(3, [500, 5000, 50000]), list(4, [0, 1e4, 1e5, 1e6, 1e8]), process.argv[5] ?? ELOSS_ID, process.argv[6] ? process.argv[6].split(',') : ['KTH-SP2-1996-2.1-cln.swf.gz', 'CTC-SP2-1996-3.1-cln.swf.gz', 'SDSC-BLUE-2000-4.2-cln.swf.gz'], process.argv[7] === 'floor' ? 'floor' : 'mirror')
  process.exit(0)
}

/** Issue #22: a million-job log replayed with plain EASY-FCFS and with E-Loss learning (+ the
 * incremental correction, + SJBF); the target is within 3× the plain replay (docs/PREDICTIONS.md §Performance). */
function predictMillion(n: number): void {
  const m = 9000, users = 2000
  let seed = 11
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
  // Users of skewed activity, each with a typical runtime: jobs of one user look alike, as on real logs.
  const typical = Float64Array.from({ length: users }, () => 60 + Math.floor(rnd() * rnd() * 4 * 3600))
  const submit = new Float64Array(n), runtime = new Float64Array(n), requested = new Float64Array(n), procs = new Int32Array(n), user = new Int32Array(n)
  let t = 0
  for (let j = 0; j < n; j++) {
    // Busy days, quiet nights: the gaps (12.5 s on average) shrink by day, so a queue builds up and drains.
    t += Math.floor(rnd() * 25 * (1 - 0.7 * Math.sin((2 * Math.PI * t) / 86400)) + 0.5)
    submit[j] = t
    const u = Math.floor(rnd() * rnd() * users)
    user[j] = u
    const req = Math.ceil(typical[u] * (1 + 4 * rnd()))
    requested[j] = req
    runtime[j] = Math.min(req, Math.floor(typical[u] * (0.2 + rnd())))
    procs[j] = rnd() < 0.6 ? 1 + Math.floor(rnd() * 8) : 1 + Math.floor(rnd() * 128)
  }
  const jobs = { count: n, submit, runtime, requested, procs, user }
  const plain: SimConfig = { primary: 'FCFS', backfill: 'same', threshold: null }
  const with_ = (prediction: PredictionConfig): SimConfig => ({ ...plain, prediction })
  const run = (config: SimConfig) => { const sim = new EasySimulator(jobs, m, config, {}); sim.runUntil(Infinity); return sim }
  const base = best(2, () => run(plain))
  const util = computeMetrics(jobs, m, run(plain).start)
  let area = 0
  for (let j = 0; j < n; j++) area += procs[j] * runtime[j]
  console.log(`synthetic ${n.toLocaleString('en-US')} jobs of ${users.toLocaleString('en-US')} users on ${m.toLocaleString('en-US')} processors, offered load ${(area / (m * (submit[n - 1] - submit[0]))).toFixed(2)} (EASY-FCFS avgWait ${util.avgWait.toFixed(0)} s): plain EASY-FCFS ${base.toFixed(2)} s`)
  const cases: [string, PredictionConfig][] = [
    ['requested time (the predictor path, nothing learned)', { predictor: { id: 'requested' }, correction: 'none' }],
    ['AVE2 + incremental', { predictor: { id: 'ave2' }, correction: 'incremental' }],
    ['E-Loss + incremental', { predictor: { id: 'eloss' }, correction: 'incremental' }],
    ['E-Loss + incremental + SJBF', { predictor: { id: 'eloss' }, correction: 'incremental', sjbf: true }],
    ['sq-sq-1 + incremental + SJBF', { predictor: { id: 'eloss', loss: 'sq-sq-1' }, correction: 'incremental', sjbf: true }],
  ]
  for (const [label, pc] of cases) {
    let sim: EasySimulator | null = null
    const s = best(1, () => { sim = run(with_(pc)) })
    console.log(`  ${label.padEnd(54)} ${s.toFixed(2)} s (${(s / base).toFixed(2)}×), ${sim!.corrections.toLocaleString('en-US')} corrections`)
  }
  // The regression alone, fed the events of the plain schedule: what the learning itself costs.
  const start = run(plain).start
  const order = Int32Array.from({ length: n }, (_, j) => j).sort((a, b) => start[a] + runtime[a] - (start[b] + runtime[b]) || a - b)
  const alone = best(1, () => {
    const reg = createRegression(jobs, findLoss(ELOSS_ID)!)
    // Replay: submissions in order, ends in end order (ties by index) before the submissions after
    // them; each job is started right after its prediction, with its start time from the schedule
    // (so starts are not in time order: the feature values are not the simulation's, the cost is).
    let e = 0
    for (let j = 0; j < n; j++) {
      while (e < n && start[order[e]] + runtime[order[e]] < submit[j]) { const k = order[e++]; reg.finished(k, start[k] + runtime[k]) }
      reg.predict(j, submit[j])
      reg.started(j, start[j] > submit[j] ? start[j] : submit[j])
    }
    while (e < n) { const k = order[e++]; reg.finished(k, start[k] + runtime[k]) }
  })
  console.log(`  the E-Loss regression alone (a prediction and an update per job, no scheduling): ${alone.toFixed(2)} s (${(1e6 * alone / n).toFixed(2)} µs per job)`)
}

/** The same comparison on the thesis's logs. */
async function predictLogs(): Promise<void> {
  for (const name of ['KTH-SP2-1996-2.1-cln.swf.gz', 'CTC-SP2-1996-3.1-cln.swf.gz', 'SDSC-BLUE-2000-4.2-cln.swf.gz', 'CEA-Curie-2011-2.1-cln.swf.gz']) {
    const path = resolve(DATA, 'swf', name)
    if (!existsSync(path)) { console.log(`${name}: not found, skipped`); continue }
    const w = await readLog(path)
    const plain: SimConfig = { primary: 'FCFS', backfill: 'same', threshold: null }
    const triple: SimConfig = { ...plain, prediction: { predictor: { id: 'eloss' }, correction: 'incremental', sjbf: true } }
    const run = (config: SimConfig) => { const sim = new EasySimulator(w.jobs, w.machineProcs, config, {}); sim.runUntil(Infinity) }
    const a = best(2, () => run(plain)), b = best(2, () => run(triple))
    console.log(`${name}: ${w.jobs.count.toLocaleString('en-US')} jobs; plain EASY-FCFS ${a.toFixed(3)} s; E-Loss + incremental + SJBF ${b.toFixed(3)} s (${(b / a).toFixed(2)}×)`)
  }
}

/**
 * `--learn [trials] [tuples]`: the learned-priority trials (issue #23, docs/LEARN.md §Performance)
 * on KTH-SP2's training part: one tuple in this thread (the trial simulator alone), then the
 * tuples on the engine pool (two workers), early stop off so every tuple runs its whole budget.
 */
async function learnBench(trials: number, tuples: number): Promise<void> {
  const { splitWorkload } = await import('../src/core/tune/split')
  const { runTuple } = await import('../src/core/learn/trials')
  const { EnginePool } = await import('../src/engine/pool')
  const { learnTrialsOnPool } = await import('../src/engine/learn')
  const w = await readLog(KTH)
  const train = splitWorkload(w.jobs, w.machineProcs, DEFAULTS.split.value).train
  const config = { ...DEFAULTS.learnTrials.value, trials, tuples, stopAt: 0 }
  runTuple(train, w.machineProcs, { ...config, trials: 4096 }, 0) // warm-up
  let t = performance.now()
  const one = runTuple(train, w.machineProcs, config, 0)
  let s = (performance.now() - t) / 1000
  console.log(`learn trials, KTH-SP2 train (${train.count.toLocaleString('en-US')} jobs, ${w.machineProcs} procs), |S| = 16, |Q| = 32:`)
  console.log(`  one tuple in this thread: ${one.trials.toLocaleString('en-US')} trials in ${s.toFixed(2)} s = ${rate(one.trials, s)}`)
  const setup = { logPath: KTH, importOptions: {}, split: DEFAULTS.split.value, resample: { method: DEFAULTS.resample.value, weeks: 1, seed: 1 }, tau: 10 }
  t = performance.now()
  const r = await learnTrialsOnPool(new EnginePool({ workers: 2 }), { setup }, config)
  s = (performance.now() - t) / 1000
  console.log(`  ${tuples} tuples on the pool (2 workers, start and log read included): ${r.result.trials.toLocaleString('en-US')} trials in ${s.toFixed(2)} s = ${rate(r.result.trials, s)}`)
}

/**
 * `--learn-k [K,K,…] [seeds]`: how stable the pooled scores are in K (docs/LEARN.md §Trials): for
 * each seed, the default trials on KTH-SP2's training part; for each K, the weighted (r·n, eq. 4)
 * least-squares fit of score on (1, log₁₀ r, log₁₀ n, log₁₀ s) over the first K tuples, and the
 * spread of its slopes across seeds (std / |mean|). Tuple k is the same whatever K, so one run per seed serves every K.
 */
async function learnK(ks: number[], seeds: number): Promise<void> {
  const { EnginePool } = await import('../src/engine/pool')
  const { LearnCache, learnTrialsOnPool } = await import('../src/engine/learn')
  const setup = { logPath: KTH, importOptions: {}, split: DEFAULTS.split.value, resample: { method: DEFAULTS.resample.value, weeks: 1, seed: 1 }, tau: 10 }
  const K = Math.max(...ks)
  // Tuples kept between runs (a larger K reuses the smaller run's tuples).
  const cache = new LearnCache(join(tmpdir(), 'easytune-bench-learn-k'))
  const runs = []
  for (let seed = 1; seed <= seeds; seed++) {
    const t = performance.now()
    const r = await learnTrialsOnPool(new EnginePool({ workers: 2 }), { setup }, { ...DEFAULTS.learnTrials.value, tuples: K, seed }, { cache })
    console.log(`seed ${seed}: ${r.cachedTuples} tuples from the cache, ${r.result.trials.toLocaleString('en-US')} trials, ${r.result.tuples.filter((x) => x.stoppedEarly).length}/${K} tuples stopped early, ${((performance.now() - t) / 1000).toFixed(1)} s`)
    runs.push(r.result)
  }
  for (const k of ks) {
    const fits = runs.map((r) => weightedFit(r.samples.filter((x) => x.tuple < k)))
    const spread = [1, 2, 3].map((c) => {
      const v = fits.map((f) => f[c]), m = v.reduce((a, b) => a + b, 0) / v.length
      return Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / (v.length - 1)) / Math.abs(m)
    })
    console.log(`K = ${String(k).padStart(3)}: slopes (log r, log n, log s) per seed ${fits.map((f) => `(${f.slice(1).map((x) => x.toExponential(2)).join(', ')})`).join(' ')}; spread ${spread.map((x) => x.toFixed(2)).join(', ')}`)
  }
}

/** Weighted least squares (weight (r·n)², eq. 4) of score on (1, log₁₀ r, log₁₀ n, log₁₀ s): normal equations, Gauss–Jordan. */
function weightedFit(samples: readonly { r: number; n: number; s: number; score: number }[]): number[] {
  const A = Array.from({ length: 4 }, () => new Array<number>(5).fill(0))
  for (const x of samples) {
    const f = [1, Math.log10(x.r), Math.log10(x.n), Math.log10(x.s)], w = (x.r * x.n) ** 2
    for (let i = 0; i < 4; i++) { for (let j = 0; j < 4; j++) A[i][j] += w * f[i] * f[j]; A[i][4] += w * f[i] * x.score }
  }
  for (let i = 0; i < 4; i++) {
    let p = i
    for (let r = i + 1; r < 4; r++) if (Math.abs(A[r][i]) > Math.abs(A[p][i])) p = r
    ;[A[i], A[p]] = [A[p], A[i]]
    for (let r = 0; r < 4; r++) if (r !== i) { const c = A[r][i] / A[i][i]; for (let j = i; j < 5; j++) A[r][j] -= c * A[i][j] }
  }
  return A.map((row, i) => row[4] / row[i])
}

if (process.argv[2] === '--learn-k') {
  await learnK(process.argv[3] ? process.argv[3].split(',').map(Number) : [16, 32, 64], process.argv[4] ? Number(process.argv[4]) : 3)
  process.exit(0)
}

if (process.argv[2] === '--learn') {
  await learnBench(process.argv[3] ? Number(process.argv[3]) : 256000, process.argv[4] ? Number(process.argv[4]) : 4)
  process.exit(0)
}

if (process.argv[2] === '--predict') {
  if (process.argv[3] !== 'logs') predictMillion(process.argv[3] ? Number(process.argv[3]) : 1_000_000)
  if (process.argv[3] === undefined || process.argv[3] === 'logs') await predictLogs()
  process.exit(0)
}

console.log(`node ${process.version}, ${new Date().toISOString()}`)
importMillion()
await timeLog(CURIE, 'CEA-Curie', ['FCFS'])
await timeLog(KTH, 'KTH-SP2', CH6_POLICIES)
endToEnd(CURIE, 'CEA-Curie')
await nodeLevel()
protocol()
console.log(`peak RSS of this process: ${mb(peakRss())}`)
